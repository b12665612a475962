/* The model backend: evaluates steps on a simulated machine (model/). Each
 * vector gets a fresh machine; symbolic pointers become regions of its
 * address space, filled with the poison byte 0xCC so that "not written" can
 * be observed (an out-value still equal to the poison reads as "-"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "given.h"
#include "ntprof/backend.h"
#include "ntprof/calls.h"
#include "ntprof/names.h"
#include "ntprof/status.h"

#define POISON       0xCCu
#define POISON32     0xCCCCCCCCu
#define USER_BASE    0x00100000ull   /* symbolic user regions start here, 1 MiB apart */
#define REGION_SIZE  0x10000ull
#define UNMAPPED     0x00FF0000ull   /* never mapped */

typedef struct model_state {
	np_machine m;
	bool live;
	unsigned regions;               /* symbolic regions handed out */
} model_state;

void np_record_out(np_record *r, const char *name, const char *value)
{
	if (r->nout == NP_MAX_OUTS)
		return;
	np_pair *p = &r->out[r->nout++];
	snprintf(p->name, sizeof p->name, "%s", name);
	snprintf(p->value, sizeof p->value, "%s", value);
}

void np_record_out_u32(np_record *r, const char *name, uint32_t value)
{
	char text[16];
	snprintf(text, sizeof text, "%u", value);
	np_record_out(r, name, text);
}

static const char *model_begin(np_backend *self, np_target t, const np_vector *v)
{
	model_state *s = self->state;
	np_config_error e = np_machine_init(&s->m, t.version, t.arch);
	s->live = true;
	s->regions = 0;
	if (e)
		return e;
	return np_given_apply_all(&s->m, v->given, v->ngiven);
}

static void model_end(np_backend *self)
{
	model_state *s = self->state;
	if (s->live)
		np_machine_fini(&s->m);
	s->live = false;
}

/* Maps a fresh region and returns its base (a model bug if it cannot). */
static uint64_t fresh_region(model_state *s, unsigned prot, unsigned flags)
{
	uint64_t base = USER_BASE + (uint64_t)s->regions++ * 0x100000ull;
	if (np_mem_map(&s->m, base, REGION_SIZE, prot, flags, POISON))
		abort(); /* LCOV_EXCL_LINE: 32 regions of 64 KiB always fit */
	return base;
}

/* AS-1: what a symbolic pointer means on this machine. */
static uint64_t materialize(model_state *s, const char *text)
{
	np_pointer_kind kind;
	uint64_t n;
	np_pointer_parse(text, &kind, &n);
	switch (kind) {
	case NP_PTR_USER:       return fresh_region(s, NP_PROT_READ | NP_PROT_WRITE, 0);
	case NP_PTR_NULL:       return 0;
	case NP_PTR_MISALIGNED: return fresh_region(s, NP_PROT_READ | NP_PROT_WRITE, 0) + 2;
	case NP_PTR_READONLY:   return fresh_region(s, NP_PROT_READ, 0);
	case NP_PTR_UNMAPPED:   return UNMAPPED;
	case NP_PTR_VANISHING:  return fresh_region(s, NP_PROT_READ | NP_PROT_WRITE, NP_REGION_VANISHES);
	case NP_PTR_KERNEL:
		/* a WOW64 caller can only pass 32 bits: an upper-half 32-bit address */
		return s->m.arch == NP_X64 ? 0xFFFFF80000001000ull : 0x80001000ull;
	case NP_PTR_NUMBER:
	default:
		return n;
	}
}

static uint32_t u32_arg(const np_step *st, const np_function *f, const char *name)
{
	uint64_t n = 0;
	np_number_parse(np_step_arg(st, np_param_find(f, name)), &n);
	return (uint32_t)n;
}

static uint32_t source_arg(const np_step *st, const np_function *f)
{
	uint32_t s = 0;
	np_source_parse(np_step_arg(st, np_param_find(f, "Source")), &s);
	return s;
}

/* Reads back a ULONG out-parameter: its value, or "-" when unwritten. */
static void read_out_u32(model_state *s, np_record *r, const char *name, uint64_t addr)
{
	uint32_t v;
	if (addr == 0 || !np_mem_read(&s->m, addr, &v, sizeof v) || v == POISON32)
		np_record_out(r, name, "-");
	else
		np_record_out_u32(r, name, v);
}

/* TR-7, SY-24: the PROFILE_SOURCE_INFO chain as Sources="id,id,..." and
 * Limits="id:min:max,..." ("N-records" when that is too long for one value). */
static void read_source_list(model_state *s, np_record *r, uint64_t addr)
{
	char ids[NP_TEXT_MAX] = "", limits[NP_TEXT_MAX] = "";
	size_t nids = 0, nlim = 0;
	bool limits_fit = true;
	unsigned count = 0;
	uint32_t head[4];
	if (addr == 0 || !np_mem_read(&s->m, addr, head, sizeof head) || head[0] == POISON32) {
		np_record_out(r, "Sources", "-");
		np_record_out(r, "Limits", "-");
		return;
	}
	for (;;) {
		count++;
		int n = snprintf(ids + nids, sizeof ids - nids, "%s%u", nids ? "," : "", head[1]);
		if (n > 0 && (size_t)n < sizeof ids - nids)
			nids += (size_t)n;
		n = snprintf(limits + nlim, sizeof limits - nlim, "%s%u:%u:%u", nlim ? "," : "",
			     head[1], head[2], head[3]);
		if (n > 0 && (size_t)n < sizeof limits - nlim)
			nlim += (size_t)n;
		else
			limits_fit = false;
		if (head[0] == 0 || count >= 4096)
			break;
		addr += head[0];
		if (!np_mem_read(&s->m, addr, head, sizeof head))
			break;
	}
	if (!limits_fit)
		snprintf(limits, sizeof limits, "%u-records", count);
	np_record_out(r, "Sources", ids);
	np_record_out(r, "Limits", limits);
}

/* Writes bytes into whatever region holds [addr, addr+n), even a read-only
 * one: the caller's input as it was before the call. An address with no
 * region behind it (null, unmapped, kernel) has no input to hold. */
static void poke_input(model_state *s, uint64_t addr, const void *bytes, size_t n)
{
	np_region *r = np_mem_find(&s->m, addr, n);
	if (r && addr != 0)
		memcpy(r->bytes + (addr - r->base), bytes, n);
}

/* SY-9: reads back the ProcessorProfileControlArea pointer, as wide as the
 * caller's pointers: its value, or "-" when unwritten (still poison). */
static void read_out_pointer(model_state *s, np_record *r, const char *name, uint64_t addr)
{
	unsigned size = np_caller_pointer_size(&s->m);
	uint8_t b[8];
	uint64_t v = 0;
	bool poisoned = true;
	if (addr == 0 || !np_mem_read(&s->m, addr, b, size)) {
		np_record_out(r, name, "-");
		return;
	}
	for (unsigned i = 0; i < size; i++) {
		v |= (uint64_t)b[i] << (8 * i);
		poisoned = poisoned && b[i] == POISON;
	}
	char text[24];
	snprintf(text, sizeof text, "0x%llX", (unsigned long long)v);
	np_record_out(r, name, poisoned ? "-" : text);
}

/* fixtures/README.md: SystemInformationLength=auto is the size of the
 * structure the class wants, as the caller declares it. */
static uint32_t sysinfo_length(model_state *s, const np_step *st, const np_function *f, uint32_t cls,
			       uint32_t subclass)
{
	uint64_t n;
	if (np_number_parse(np_step_arg(st, np_param_find(f, "SystemInformationLength")), &n))
		return (uint32_t)n;
	if (cls == NP_SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA)
		return 2 * np_caller_pointer_size(&s->m);                 /* SY-9 */
	if (cls == NP_SYSTEM_PERFORMANCE_TRACE_INFORMATION &&
	    subclass == NP_EVENT_TRACE_PROFILE_SOURCE_LIST_INFORMATION)
		return (uint32_t)REGION_SIZE;                              /* SY-24: the whole region */
	return NP_EVENT_TRACE_TIME_PROFILE_SIZE;                           /* SY-23, and any other */
}

/* The class's input, put in the buffer before the call (SY-9, SY-21, SY-23). */
static void sysinfo_input(model_state *s, const np_step *st, const np_function *f, uint32_t cls,
			  uint64_t buf, bool is_set)
{
	if (cls == NP_SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA) {
		if (is_set) {   /* a query has no input for this class */
			uint8_t allocate = (uint8_t)u32_arg(st, f, "Allocate");
			poke_input(s, buf + np_caller_pointer_size(&s->m), &allocate, 1);
		}
		return;
	}
	uint32_t fields[2] = { u32_arg(st, f, "EventTraceClass"), 0 };
	if (is_set)
		fields[1] = u32_arg(st, f, "ProfileInterval");
	poke_input(s, buf, fields, is_set ? sizeof fields : sizeof fields[0]);
}

static void set_result(np_record *r, np_result res)
{
	switch (res.kind) {
	case NP_RESULT_STATUS:        r->outcome.kind = NP_OUT_STATUS; break;
	case NP_RESULT_WIN32:         r->outcome.kind = NP_OUT_WIN32; break;
	case NP_RESULT_FAULT:         r->outcome.kind = NP_OUT_FAULT; break;
	case NP_RESULT_BUGCHECK:      r->outcome.kind = NP_OUT_BUGCHECK; break;
	case NP_RESULT_NOT_EXPORTED:  r->outcome.kind = NP_OUT_NOT_EXPORTED; break;
	case NP_RESULT_NOT_APPLICABLE:
		r->outcome.kind = NP_OUT_NOT_APPLICABLE;
		snprintf(r->why, sizeof r->why, "%s", res.why);
		break;
	}
	r->outcome.code = res.code;
}

static void read_events(model_state *s, np_record *r)
{
	char text[NP_TEXT_MAX] = "none";
	size_t used = 0;
	for (unsigned i = 0; i < s->m.event_count; i++) {
		const np_event *e = &s->m.event[i];
		int n = snprintf(text + used, sizeof text - used, "%s0x%04X:%u:%u:%u", i ? "," : "",
				 e->hook, e->source, e->old_interval, e->new_interval);
		if (n < 0 || (size_t)n >= sizeof text - used)
			break;
		used += (size_t)n;
	}
	r->outcome.kind = NP_OUT_NONE;
	np_record_out(r, "Events", text);
}

static void model_step(np_backend *self, const np_step *st, np_record *r)
{
	model_state *s = self->state;
	const np_function *f = np_function_find(st->function);
	memset(r, 0, sizeof *r);
	if (!f)
		abort(); /* LCOV_EXCL_LINE: the parser admits known functions only */
	switch (f->id) {
	case NP_FN_SET_INTERVAL:
		set_result(r, np_nt_set_interval_profile(&s->m, u32_arg(st, f, "Interval"),
							 source_arg(st, f)));
		break;
	case NP_FN_QUERY_INTERVAL: {
		uint64_t p = materialize(s, np_step_arg(st, np_param_find(f, "Interval")));
		set_result(r, np_nt_query_interval_profile(&s->m, source_arg(st, f), p));
		read_out_u32(s, r, "Interval", p);
		break;
	}
	case NP_FN_TRACE_SET: {
		uint64_t buf = fresh_region(s, NP_PROT_READ | NP_PROT_WRITE, 0);
		uint32_t fields[2] = { source_arg(st, f), u32_arg(st, f, "Interval") };
		np_mem_write(&s->m, buf, fields, sizeof fields);
		uint64_t session;
		np_number_parse(np_step_arg(st, np_param_find(f, "SessionHandle")), &session);
		set_result(r, np_trace_set_information(&s->m, session, u32_arg(st, f, "InformationClass"),
						       buf, u32_arg(st, f, "InformationLength")));
		break;
	}
	case NP_FN_TRACE_QUERY: {
		uint32_t cls = u32_arg(st, f, "InformationClass");
		uint64_t buf = materialize(s, np_step_arg(st, np_param_find(f, "TraceInformation")));
		uint64_t ret = materialize(s, np_step_arg(st, np_param_find(f, "ReturnLength")));
		const char *len_text = np_step_arg(st, np_param_find(f, "InformationLength"));
		uint32_t len = cls == NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO ? 8u : (uint32_t)REGION_SIZE;
		uint64_t n;
		if (np_number_parse(len_text, &n))
			len = (uint32_t)n;
		uint32_t source = source_arg(st, f);
		if (buf && cls == NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO)   /* the structure's input field */
			np_mem_write(&s->m, buf, &source, sizeof source);
		uint64_t session;
		np_number_parse(np_step_arg(st, np_param_find(f, "SessionHandle")), &session);
		set_result(r, np_trace_query_information(&s->m, session, cls, buf, len, ret));
		if (cls == NP_TRACE_PROFILE_SOURCE_LIST_INFO)
			read_source_list(s, r, buf);
		else
			read_out_u32(s, r, "Interval", buf ? buf + 4 : 0);
		read_out_u32(s, r, "ReturnLength", ret);
		break;
	}
	case NP_FN_READ_EVENTS:
		read_events(s, r);
		break;
	case NP_FN_SET_SYSINFO:
	case NP_FN_QUERY_SYSINFO: {
		bool is_set = f->id == NP_FN_SET_SYSINFO;
		uint32_t cls = u32_arg(st, f, "InformationClass");
		uint32_t subclass = u32_arg(st, f, "EventTraceClass");
		uint64_t buf = materialize(s, np_step_arg(st, np_param_find(f, "SystemInformation")));
		uint64_t ret = is_set ? 0 : materialize(s, np_step_arg(st, np_param_find(f, "ReturnLength")));
		uint32_t len = sysinfo_length(s, st, f, cls, subclass);
		sysinfo_input(s, st, f, cls, buf, is_set);
		set_result(r, is_set ? np_nt_set_system_information(&s->m, cls, buf, len)
				     : np_nt_query_system_information(&s->m, cls, buf, len, ret));
		if (cls == NP_SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA)
			read_out_pointer(s, r, "ProcessorProfileControlArea", buf);
		else if (!is_set && subclass == NP_EVENT_TRACE_PROFILE_SOURCE_LIST_INFORMATION)
			read_source_list(s, r, buf ? buf + NP_EVENT_TRACE_PROFILE_LIST_HEADER : 0);
		else if (!is_set)
			read_out_u32(s, r, "ProfileInterval", buf ? buf + 4 : 0);
		if (!is_set)
			read_out_u32(s, r, "ReturnLength", ret);
		break;
	}
	case NP_FN_MOVE_THREAD: {
		np_config_error e = np_machine_move_thread(&s->m, u32_arg(st, f, "Cpu"));
		if (e) {
			set_result(r, (np_result){ NP_RESULT_NOT_APPLICABLE, 0, e });
		} else {
			r->outcome.kind = NP_OUT_NONE;
			np_record_out_u32(r, "Cpu", s->m.current_cpu);
		}
		break;
	}
	}
}

static void model_destroy(np_backend *self)
{
	model_end(self);
	free(self->state);
	free(self);
}

np_backend *np_backend_model_new(void)
{
	np_backend *b = calloc(1, sizeof *b);
	model_state *s = calloc(1, sizeof *s);
	if (!b || !s) {
		free(b);
		free(s);
		return NULL;
	}
	*b = (np_backend){ "model", model_begin, model_step, model_end, model_destroy, s };
	return b;
}
