/* SPDX-License-Identifier: MIT */
/* A step's call as row data (export.h): its typed arguments (np_step_value)
 * as the numbers and NX_ symbols of the row's arg[], in the order the
 * call's helper in the generated file takes them (export_prelude_calls.c),
 * which makes them real as the interpreter does on an implementation
 * (run/interpreter_args.c, run/interpreter_steps.c); the names a vector
 * keeps, as slots; and the out-values each call's helper reads. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "export/export.h"
#include "ntprof/names.h"
#include "vectors/catalog.h"

/* The values the file's NX_ symbols take (NX_USER ... NX_BUFFER_OF): a
 * pointer or handle a vector gives as a number must lie outside them. */
#define RESERVED_LO (-0x3FF)
#define RESERVED_HI (-0x100)

typedef struct args {
	np_export_text *t;
	unsigned n, step;   /* arguments written; the step's index */
	const char *bad;   /* why the step cannot be a row, or NULL */
} args;

static const np_arg *arg(const np_step *st, const char *name)
{
	return np_step_value(st, name);
}

static uint32_t u32(const np_step *st, const char *name)
{
	return arg(st, name)->u32.value;
}

/* The row's next argument, a number: as written where LONG64 holds it. */
static void number(args *a, uint64_t value)
{
	if (value < 10)   /* a digit reads the same in decimal, and is shorter */
		np_export_printf(a->t, "%s%" PRIu64, a->n ? ", " : "", value);
	else if (value <= 0x7FFFFFFFFFFFFFFFull)
		np_export_printf(a->t, "%s0x%" PRIx64, a->n ? ", " : "", value);
	else if (value >= 0xFFFFFFFFFFFFFF00ull)   /* -1 reads better than its bits */
		np_export_printf(a->t, "%s-%" PRIu64, a->n ? ", " : "", ~value + 1);
	else
		np_export_printf(a->t, "%s(LONG64)0x%" PRIx64 "ull", a->n ? ", " : "", value);
	a->n++;
}

static void symbol(args *a, const char *text)
{
	np_export_printf(a->t, "%s%s", a->n ? ", " : "", text);
	a->n++;
}

/* A number where a pointer or handle goes: not one the symbols take. */
static void address(args *a, uint64_t value)
{
	int64_t as = (int64_t)value;
	if (as >= RESERVED_LO && as <= RESERVED_HI)
		a->bad = "a pointer or handle it gives is a value the file's symbols take";
	number(a, value);
}

static void pointer(args *a, const np_pointer_arg *p)
{
	static const char *const name[] = { "NX_USER", "0", "NX_MISALIGNED", "NX_READONLY", "NX_UNMAPPED",
					    "NX_KERNEL" };
	if (p->symbol == NP_PTR_NUMBER)
		address(a, p->number);
	else
		symbol(a, name[p->symbol <= NP_PTR_KERNEL ? p->symbol : 0]);
}

/* The slot of a name the vector keeps: handles and counters apart, each in
 * the order the steps first name them. */
static int slot(const np_vector *v, const char *name, bool buffer)
{
	const char *seen[NP_MAX_STEPS * 2];
	unsigned n = 0;
	for (unsigned s = 0; s < v->nstep; s++) {
		const np_step *st = &v->step[s];
		for (unsigned i = 0; st->catalog && i < NP_MAX_PARAMS && st->catalog->param[i].name; i++) {
			const np_arg *a = np_step_value(st, st->catalog->param[i].name);
			const char *here = NULL;
			if (!buffer && a->kind == NP_PARAM_OUT_HANDLE && a->out_handle.capture[0])
				here = a->out_handle.capture;
			else if (buffer && a->kind == NP_PARAM_BUFFER && a->buffer.form == NP_BUFFER_FRESH &&
				 a->buffer.name[0])
				here = a->buffer.name;
			if (!here)
				continue;
			if (strcmp(here, name) == 0)
				return (int)n;
			bool again = false;
			for (unsigned k = 0; k < n; k++)
				again = again || strcmp(seen[k], here) == 0;
			if (!again && n < NP_MAX_STEPS * 2)
				seen[n++] = here;
		}
	}
	return -1;
}

/* The step (from 1) that last wrote the handle named name before step
 * before (from 0): the file keeps each step's handle; 0 where none. */
static unsigned handle_step(const np_vector *v, const char *name, unsigned before)
{
	unsigned at = 0;
	for (unsigned s = 0; s < before && s < v->nstep; s++) {
		const np_step *st = &v->step[s];
		for (unsigned i = 0; st->catalog && i < NP_MAX_PARAMS && st->catalog->param[i].name; i++) {
			const np_arg *a = np_step_value(st, st->catalog->param[i].name);
			if (a->kind == NP_PARAM_OUT_HANDLE && strcmp(a->out_handle.capture, name) == 0)
				at = s + 1;
		}
	}
	return at;
}

static void kept(args *a, const np_vector *v, const char *name, bool buffer)
{
	int k = buffer ? slot(v, name, buffer) : (int)handle_step(v, name, a->step) - 1;
	char text[40];
	if (k < 0) {
		a->bad = "it uses a name no step keeps";
		k = 0;
	}
	snprintf(text, sizeof text, "NX_%s_OF(%d)", buffer ? "BUFFER" : "HANDLE", k + !buffer);
	symbol(a, text);
}

static void handle(args *a, const np_vector *v, const np_arg *h)
{
	switch (h->handle.symbol) {
	case NP_HANDLE_NULL:    symbol(a, "0"); break;
	case NP_HANDLE_CURRENT: symbol(a, "NX_CURRENT_PROCESS"); break;
	case NP_HANDLE_THREAD:  symbol(a, "NX_CURRENT_THREAD"); break;
	case NP_HANDLE_INVALID: symbol(a, "1"); break;
	case NP_HANDLE_OTHER:   symbol(a, "NX_OTHER_PROCESS"); break;
	case NP_HANDLE_NOQUERY: symbol(a, "NX_NOQUERY_PROCESS"); break;
	case NP_HANDLE_NAME:    kept(a, v, h->handle.name, false); break;
	case NP_HANDLE_NUMBER:
	default:                address(a, h->handle.number); break;
	}
}

static void counters(args *a, const np_vector *v, const np_arg *b)
{
	if (b->buffer.form == NP_BUFFER_FRESH)
		symbol(a, "NX_FRESH");
	else if (b->buffer.form == NP_BUFFER_CAPTURED)
		kept(a, v, b->buffer.name, true);
	else
		pointer(a, &b->buffer.where);
}

/* NtCreateProfile(Ex): as nx_create_profile(_ex) takes them. */
static void create_args(args *a, const np_vector *v, const np_step *st)
{
	bool ex = st->catalog->id == NP_FN_CREATE_PROFILE_EX;
	pointer(a, &arg(st, "ProfileHandle")->out_handle.where);
	handle(a, v, arg(st, "Process"));
	number(a, arg(st, "ProfileBase")->u64);
	number(a, arg(st, "ProfileSize")->u64);
	number(a, u32(st, "BucketSize"));
	counters(a, v, arg(st, "Buffer"));
	number(a, u32(st, "BufferSize"));
	number(a, arg(st, "Source")->source);
	if (!ex) {
		const np_arg *affinity = arg(st, "Affinity");
		number(a, affinity->affinity.all ? UINT64_MAX : affinity->affinity.mask);
		return;
	}
	const np_arg *groups = arg(st, "Groups"), *count = arg(st, "GroupCount");
	number(a, count->u32.automatic ? groups->groups.count : count->u32.value);
	pointer(a, &arg(st, "AffinityArray")->pointer);
	number(a, groups->groups.count);
	for (unsigned i = 0; i < groups->groups.count; i++) {
		number(a, groups->groups.element[i].mask);
		number(a, groups->groups.element[i].group);
		number(a, groups->groups.element[i].reserved);
	}
}

/* SystemInformationLength=auto: the structure the class wants, as this
 * caller declares it (fixtures/README.md). */
static void sysinfo_length(args *a, const np_step *st, uint32_t cls, uint32_t sub_class)
{
	const np_arg *length = arg(st, "SystemInformationLength");
	if (!length->u32.automatic)
		number(a, length->u32.value);
	else if (cls == 0x81)
		symbol(a, "2 * sizeof(void *)");
	else
		number(a, cls == 0x1F && sub_class == 0x0D ? 0x10000 : 8);
}

static void sysinfo_args(args *a, const np_step *st)
{
	bool is_set = st->catalog->id == NP_FN_SET_SYSINFO;
	uint32_t cls = u32(st, "InformationClass"), sub_class = u32(st, "EventTraceClass");
	number(a, cls);
	pointer(a, &arg(st, "SystemInformation")->pointer);
	sysinfo_length(a, st, cls, sub_class);
	if (!is_set) {
		pointer(a, &arg(st, "ReturnLength")->pointer);
		number(a, sub_class);
		return;
	}
	number(a, arg(st, "Allocate")->byte);
	number(a, sub_class);
	number(a, u32(st, "ProfileInterval"));
}

static void trace_args(args *a, const np_step *st)
{
	uint32_t cls = u32(st, "InformationClass");
	number(a, arg(st, "SessionHandle")->u64);
	number(a, cls);
	number(a, arg(st, "Source")->source);
	if (st->catalog->id == NP_FN_TRACE_SET) {
		number(a, u32(st, "Interval"));
		number(a, u32(st, "InformationLength"));
		return;
	}
	const np_arg *length = arg(st, "InformationLength");
	pointer(a, &arg(st, "TraceInformation")->pointer);
	number(a, !length->u32.automatic ? length->u32.value : cls == 5 ? 8u : 0x10000u);
	pointer(a, &arg(st, "ReturnLength")->pointer);
}

/* The defaults of the calls whose rows leave them out, as the file's
 * nx_default has them: the arguments most rows of that call pass. */
static const char *const create_default[] = { "NX_USER", "NX_CURRENT_PROCESS", "0x10000000", "0x1000", "8",
					      "NX_FRESH", "0x40", "0", "1", NULL };
static const char *const trace_query_default[] = { "0", "5", "0", "NX_USER", "8", "NX_USER", NULL };
static const char *const query_sysinfo_default[] = { "0x81", "NX_USER", "2 * sizeof(void *)", "NX_USER", "3",
						     NULL };

/* A call's arguments (from "{ " at from on) as its row writes them:
 * those that differ from def (the file's nx_default), each after one left
 * out designated ([8] = -1), a 0 where def has another as NX_ZERO; "0"
 * where none differs; all of them where that is not longer. The row stays
 * short, the runner fills the rest. */
static void shortened(np_export_text *t, size_t from, const char *const *def)
{
	char all[1024], *item = all;
	bool gap = false, any = false, past = false;
	if (!t->s || t->len - from < 2 || t->len - from >= sizeof all)
		return;
	size_t full = t->len - from;
	snprintf(all, sizeof all, "%s", t->s + from + 2);
	t->len = from + 2;
	t->s[t->len] = '\0';
	for (unsigned i = 0; item && *item; i++) {
		char *next = strstr(item, ", ");
		if (next) {
			*next = '\0';
			next += 2;
		}
		past = past || !def[i];
		const char *d = past ? "0" : def[i];
		if (strcmp(item, d) == 0) {
			gap = true;
		} else {
			const char *shown = strcmp(item, "0") == 0 ? "NX_ZERO" : item;
			if (gap)
				np_export_printf(t, "%s[%u] = %s", any ? ", " : "", i, shown);
			else
				np_export_printf(t, "%s%s", any ? ", " : "", shown);
			any = true;
			gap = false;
		}
		item = next;
	}
	np_export_printf(t, "%s", any ? "" : "0");
	if (t->s && t->len - from >= full) {   /* all of them are no longer */
		char *again = all;
		t->len = from + 2;
		t->s[t->len] = '\0';
		for (unsigned i = 0; again < all + full - 2; i++) {
			np_export_printf(t, "%s%s", i ? ", " : "", again);
			again += strlen(again) + 2;
		}
	}
}

const char *np_export_args(np_export_text *t, const np_vector *v, unsigned s, unsigned *count)
{
	const np_step *st = &v->step[s];
	args a = { t, 0, s, NULL };
	size_t from = t->len;
	np_export_printf(t, "{ ");
	switch (st->catalog->id) {
	case NP_FN_SET_INTERVAL:
		number(&a, u32(st, "Interval"));
		number(&a, arg(st, "Source")->source);
		break;
	case NP_FN_QUERY_INTERVAL:
		number(&a, arg(st, "Source")->source);
		pointer(&a, &arg(st, "Interval")->pointer);
		break;
	case NP_FN_TRACE_SET:         trace_args(&a, st); break;
	case NP_FN_TRACE_QUERY:
		trace_args(&a, st);
		shortened(t, from, trace_query_default);
		break;
	case NP_FN_CREATE_PROFILE:
	case NP_FN_CREATE_PROFILE_EX:
		create_args(&a, v, st);
		shortened(t, from, create_default);
		break;
	case NP_FN_SET_SYSINFO:       sysinfo_args(&a, st); break;
	case NP_FN_QUERY_SYSINFO:
		sysinfo_args(&a, st);
		shortened(t, from, query_sysinfo_default);
		break;
	case NP_FN_DUPLICATE_OBJECT:
		pointer(&a, &arg(st, "TargetHandle")->out_handle.where);
		handle(&a, v, arg(st, "SourceHandle"));
		number(&a, u32(st, "DesiredAccess"));
		break;
	default:   /* NtStartProfile, NtStopProfile, NtClose */
		handle(&a, v, arg(st, st->catalog->id == NP_FN_CLOSE ? "Handle" : "ProfileHandle"));
		break;
	}
	np_export_printf(t, " }");
	*count = a.n;
	return a.bad;
}

/* Whether a step names the counters a step keeps as name: only then are
 * they kept, so that a row says so only where it matters. */
static bool named_later(const np_vector *v, const char *name)
{
	for (unsigned s = 0; s < v->nstep; s++) {
		const np_step *st = &v->step[s];
		for (unsigned i = 0; st->catalog && i < NP_MAX_PARAMS && st->catalog->param[i].name; i++) {
			const np_arg *a = np_step_value(st, st->catalog->param[i].name);
			if (a->kind == NP_PARAM_CAPTURED)
				return true;
			if (a->kind == NP_PARAM_BUFFER && a->buffer.form == NP_BUFFER_CAPTURED &&
			    strcmp(a->buffer.name, name) == 0)
				return true;
		}
	}
	return false;
}

/* What the step keeps for later steps: NX_KEEP_BUFFER(k) or 0 (each
 * step's handle is kept); the most slots it needs into *slots. */
void np_export_keep(np_export_text *t, const np_vector *v, unsigned s, unsigned *slots)
{
	const np_step *st = &v->step[s];
	const char *b = NULL;
	for (unsigned i = 0; st->catalog && i < NP_MAX_PARAMS && st->catalog->param[i].name; i++) {
		const np_arg *a = np_step_value(st, st->catalog->param[i].name);
		if (a->kind == NP_PARAM_BUFFER && a->buffer.form == NP_BUFFER_FRESH && a->buffer.name[0])
			b = a->buffer.name;
	}
	int bk = b && named_later(v, b) ? slot(v, b, true) : -1;
	if (bk >= 0)
		np_export_printf(t, "NX_KEEP_BUFFER(%d)", bk);
	else
		np_export_printf(t, "0");
	if (bk >= 0 && (unsigned)bk + 1 > *slots)
		*slots = (unsigned)bk + 1;
}

/* The out-values each call's helper reads, in its order (g->out[]). */
static const struct {
	np_function_id id;
	const char *name[3];
	np_export_out_kind kind[3];
} outs[] = {
	{ NP_FN_QUERY_INTERVAL, { "Interval" }, { NP_EXPORT_OUT_U32 } },
	{ NP_FN_TRACE_QUERY, { "Interval", "ReturnLength" }, { NP_EXPORT_OUT_U32, NP_EXPORT_OUT_U32 } },
	{ NP_FN_CREATE_PROFILE, { "ProfileHandle" }, { NP_EXPORT_OUT_HANDLE } },
	{ NP_FN_CREATE_PROFILE_EX, { "ProfileHandle" }, { NP_EXPORT_OUT_HANDLE } },
	{ NP_FN_DUPLICATE_OBJECT, { "TargetHandle" }, { NP_EXPORT_OUT_HANDLE } },
	{ NP_FN_SET_SYSINFO, { "ProcessorProfileControlArea" }, { NP_EXPORT_OUT_POINTER } },
	{ NP_FN_QUERY_SYSINFO, { "ProcessorProfileControlArea", "ProfileInterval", "ReturnLength" },
	  { NP_EXPORT_OUT_POINTER, NP_EXPORT_OUT_U32, NP_EXPORT_OUT_U32 } },
};

int np_export_out_index(const np_step *st, const char *name, np_export_out_kind *kind)
{
	for (unsigned i = 0; st->catalog && i < sizeof outs / sizeof *outs; i++)
		for (unsigned k = 0; outs[i].id == st->catalog->id && k < 3 && outs[i].name[k]; k++)
			if (strcmp(outs[i].name[k], name) == 0) {
				*kind = outs[i].kind[k];
				return (int)k;
			}
	return -1;
}

unsigned np_export_out_count(const np_step *st)
{
	unsigned n = 0;
	for (unsigned i = 0; st->catalog && i < sizeof outs / sizeof *outs; i++)
		for (unsigned k = 0; outs[i].id == st->catalog->id && k < 3 && outs[i].name[k]; k++)
			n = k + 1;
	return n;
}

const char *np_export_out_expr(const np_step *st, const char *name, np_export_out_kind *kind)
{
	int k = np_export_out_index(st, name, kind);
	return k < 0 ? NULL : name;
}
