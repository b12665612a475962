/* The interpreter: evaluates a vector's steps on any implementation of
 * ntprof/impl.h (the model, a live Windows, a dl: shared object). Each
 * vector gets a fresh system; symbolic pointers become regions of its
 * address space, filled with the poison byte 0xCC so that "not written" can
 * be observed (an out-value still equal to the poison reads as "-"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vectors/catalog.h"
#include "run/impl_model.h"
#include "ntprof/impl.h"
#include "ntprof/calls.h"
#include "ntprof/backend.h"
#include "ntprof/names.h"
#include "ntprof/status.h"

#define POISON       0xCCu
#define POISON32     0xCCCCCCCCu
#define REGION_SIZE  0x10000ull      /* the size of a plain symbolic region */
#define MAX_CAPTURES 16
#define PROCESS_ALL_ACCESS 0x001FFFFFu

/* A name a step captured (>NAME): a handle value, or a buffer and its size. */
typedef struct capture {
	char name[NP_NAME_MAX];
	bool buffer;
	uint64_t value;
	uint32_t size;
} capture;

typedef struct native_state {
	const ntprof_impl *impl;
	void *sys;                      /* the open system; NULL between vectors */
	np_arch arch;
	unsigned pointer_size;          /* the caller's pointers: 4 or 8 bytes (SY-9) */
	bool halted;                    /* a step bug-checked: the system is gone */
	uint32_t halt_code;
	const char *lacking;            /* why a symbolic argument could not be made */
	capture cap[MAX_CAPTURES];
	unsigned ncap;
} native_state;

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

static const char *native_begin(np_backend *self, np_target t, const np_vector *v)
{
	native_state *s = self->state;
	ntprof_setting given[NP_MAX_GIVEN];
	bool kernel_caller = false;
	for (unsigned i = 0; i < v->ngiven; i++) {
		given[i] = (ntprof_setting){ v->given[i].name, v->given[i].value };
		kernel_caller = kernel_caller || (strcmp(v->given[i].name, "mode") == 0 &&
						  strcmp(v->given[i].value, "kernel") == 0);
	}
	ntprof_system_spec spec = { np_version_key(t.version), np_arch_name(t.arch), given, v->ngiven };
	const char *why = "the implementation cannot take that state";
	s->ncap = 0;
	s->halted = false;
	s->lacking = NULL;
	s->arch = t.arch;
	/* SY-9: a WOW64 caller's pointers are 32 bits wide, a kernel caller's 64 */
	s->pointer_size = t.arch == NP_X86 || (t.arch == NP_WOW64 && !kernel_caller) ? 4u : 8u;
	s->sys = s->impl->open(&spec, &why);
	return s->sys ? NULL : why;
}

static void native_end(np_backend *self)
{
	native_state *s = self->state;
	if (s->sys)
		s->impl->close(s->sys);
	s->sys = NULL;
}

static uint64_t map_region(native_state *s, uint64_t size, unsigned prot, unsigned flags, uint8_t fill)
{
	return s->impl->map(s->sys, size, prot, flags, fill);
}

/* Maps a plain symbolic region and returns its base; when the system has
 * none to give, notes why (the step is then not applicable). */
static uint64_t fresh_region(native_state *s, unsigned prot, unsigned flags)
{
	uint64_t base = map_region(s, REGION_SIZE, prot, flags, POISON);
	if (!base && !s->lacking)
		s->lacking = flags & NTPROF_MAP_VANISHING ? "the system cannot make vanishing memory"
							  : "the system has no memory to map";
	return base;
}

static const capture *find_capture(const native_state *s, const char *name)
{
	for (unsigned i = 0; i < s->ncap; i++)
		if (strcmp(s->cap[i].name, name) == 0)
			return &s->cap[i];
	return NULL;
}

static void add_capture(native_state *s, const char *name, bool buffer, uint64_t value, uint32_t size)
{
	if (s->ncap == MAX_CAPTURES)
		return;
	capture *c = &s->cap[s->ncap++];
	snprintf(c->name, sizeof c->name, "%s", name);
	c->buffer = buffer;
	c->value = value;
	c->size = size;
}

/* AS-1: what a symbolic pointer means on this machine. */
static uint64_t materialize(native_state *s, const char *text)
{
	np_pointer_kind kind;
	uint64_t n;
	np_pointer_parse(text, &kind, &n);
	switch (kind) {
	case NP_PTR_USER:       return fresh_region(s, NP_PROT_READ | NP_PROT_WRITE, 0);
	case NP_PTR_NULL:       return 0;
	case NP_PTR_MISALIGNED: return fresh_region(s, NP_PROT_READ | NP_PROT_WRITE, 0) + 2;
	case NP_PTR_READONLY:   return fresh_region(s, NP_PROT_READ, 0);
	case NP_PTR_UNMAPPED:   return fresh_region(s, NP_PROT_READ | NP_PROT_WRITE, NTPROF_MAP_FREED);
	case NP_PTR_VANISHING:  return fresh_region(s, NP_PROT_READ | NP_PROT_WRITE, NTPROF_MAP_VANISHING);
	case NP_PTR_KERNEL:
		/* a WOW64 caller can only pass 32 bits: an upper-half 32-bit address */
		return s->arch == NP_X64 ? 0xFFFFF80000001000ull : 0x80001000ull;
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
static void read_out_u32(native_state *s, np_record *r, const char *name, uint64_t addr)
{
	uint32_t v;
	if (addr == 0 || !s->impl->read(s->sys, addr, &v, sizeof v) || v == POISON32)
		np_record_out(r, name, "-");
	else
		np_record_out_u32(r, name, v);
}

/* TR-7, SY-24: the PROFILE_SOURCE_INFO chain as Sources="id,id,..." and
 * Limits="id:min:max,..." ("N-records" when that is too long for one value). */
static void read_source_list(native_state *s, np_record *r, uint64_t addr)
{
	char ids[NP_TEXT_MAX] = "", limits[NP_TEXT_MAX] = "";
	size_t nids = 0, nlim = 0;
	bool limits_fit = true;
	unsigned count = 0;
	uint32_t head[4];
	if (addr == 0 || !s->impl->read(s->sys, addr, head, sizeof head) || head[0] == POISON32) {
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
		if (!s->impl->read(s->sys, addr, head, sizeof head))
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
static void poke_input(native_state *s, uint64_t addr, const void *bytes, size_t n)
{
	if (addr != 0)
		s->impl->poke(s->sys, addr, bytes, n);
}

/* SY-9: reads back the ProcessorProfileControlArea pointer, as wide as the
 * caller's pointers: its value, or "-" when unwritten (still poison). */
static void read_out_pointer(native_state *s, np_record *r, const char *name, uint64_t addr)
{
	unsigned size = s->pointer_size;
	uint8_t b[8];
	uint64_t v = 0;
	bool poisoned = true;
	if (addr == 0 || !s->impl->read(s->sys, addr, b, size)) {
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
static uint32_t sysinfo_length(native_state *s, const np_step *st, const np_function *f, uint32_t cls,
			       uint32_t subclass)
{
	uint64_t n;
	if (np_number_parse(np_step_arg(st, np_param_find(f, "SystemInformationLength")), &n))
		return (uint32_t)n;
	if (cls == NP_SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA)
		return 2 * s->pointer_size;                 /* SY-9 */
	if (cls == NP_SYSTEM_PERFORMANCE_TRACE_INFORMATION &&
	    subclass == NP_EVENT_TRACE_PROFILE_SOURCE_LIST_INFORMATION)
		return (uint32_t)REGION_SIZE;                              /* SY-24: the whole region */
	return NP_EVENT_TRACE_TIME_PROFILE_SIZE;                           /* SY-23, and any other */
}

/* The class's input, put in the buffer before the call (SY-9, SY-21, SY-23). */
static void sysinfo_input(native_state *s, const np_step *st, const np_function *f, uint32_t cls,
			  uint64_t buf, bool is_set)
{
	if (cls == NP_SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA) {
		if (is_set) {   /* a query has no input for this class */
			uint8_t allocate = (uint8_t)u32_arg(st, f, "Allocate");
			poke_input(s, buf + s->pointer_size, &allocate, 1);
		}
		return;
	}
	uint32_t fields[2] = { u32_arg(st, f, "EventTraceClass"), 0 };
	if (is_set)
		fields[1] = u32_arg(st, f, "ProfileInterval");
	poke_input(s, buf, fields, is_set ? sizeof fields : sizeof fields[0]);
}

static void set_result(native_state *s, np_record *r, ntprof_result res)
{
	static const np_outcome_kind kind[] = {
		[NTPROF_STATUS] = NP_OUT_STATUS,
		[NTPROF_WIN32] = NP_OUT_WIN32,
		[NTPROF_FAULT] = NP_OUT_FAULT,
		[NTPROF_BUGCHECK] = NP_OUT_BUGCHECK,
		[NTPROF_NOT_EXPORTED] = NP_OUT_NOT_EXPORTED,
		[NTPROF_NOT_APPLICABLE] = NP_OUT_NOT_APPLICABLE,
		[NTPROF_NONE] = NP_OUT_NONE,
		[NTPROF_CORRUPTION] = NP_OUT_CORRUPTION,
		[NTPROF_STUB] = NP_OUT_STUB,
		[NTPROF_CRASHED] = NP_OUT_CRASHED,
	};
	if (res.kind >= sizeof kind / sizeof *kind) {
		r->outcome.kind = NP_OUT_CRASHED;
		snprintf(r->why, sizeof r->why, "the implementation returned result kind %u", res.kind);
		return;
	}
	r->outcome.kind = kind[res.kind];
	r->outcome.code = res.code;
	if (res.why)
		snprintf(r->why, sizeof r->why, "%s", res.why);
	if (res.kind == NTPROF_BUGCHECK) {   /* the system is gone: every later step says so */
		s->halted = true;
		s->halt_code = res.code;
	}
}

static const ntprof_result lacking_op = { NTPROF_NOT_APPLICABLE, 0,
					  "the implementation cannot take this step" };

static void read_events(native_state *s, np_record *r)
{
	char text[NP_TEXT_MAX] = "none";
	if (!s->impl->read_events) {
		set_result(s, r, lacking_op);
		return;
	}
	set_result(s, r, s->impl->read_events(s->sys, text, sizeof text));
	if (r->outcome.kind == NP_OUT_NONE)
		np_record_out(r, "Events", text);
}

static const char *arg_of(const np_step *st, const np_function *f, const char *name)
{
	return np_step_arg(st, np_param_find(f, name));
}

static uint64_t u64_arg(const np_step *st, const np_function *f, const char *name)
{
	uint64_t n = 0;
	np_number_parse(arg_of(st, f, name), &n);
	return n;
}

static void not_applicable(np_record *r, const char *why)
{
	r->outcome.kind = NP_OUT_NOT_APPLICABLE;
	snprintf(r->why, sizeof r->why, "%s", why);
}

/* MC-3: what a handle symbol means on this machine. */
static uint64_t handle_arg(native_state *s, const char *text)
{
	uint64_t n;
	const capture *c;
	switch (np_handle_parse(text, &n)) {
	case NP_HANDLE_NULL:    return 0;
	case NP_HANDLE_CURRENT: return NP_HANDLE_CURRENT_PROCESS;
	case NP_HANDLE_THREAD:  return NP_HANDLE_CURRENT_THREAD;
	case NP_HANDLE_INVALID: return 1;   /* names entry 0, which never exists */
	case NP_HANDLE_OTHER:
		return s->impl->open_process(s->sys, 1, PROCESS_ALL_ACCESS);
	case NP_HANDLE_NOQUERY:
		return s->impl->open_process(s->sys, 0, NP_SYNCHRONIZE);
	case NP_HANDLE_NAME:
		c = find_capture(s, text);
		return c ? c->value : 1;
	case NP_HANDLE_NUMBER:
	default:
		return n;
	}
}

/* Counters for a create: `user` or >NAME is a fresh zero-filled buffer of
 * size bytes (as fresh pages are), a NAME reuses a captured one. */
static bool buffer_arg(native_state *s, const char *text, uint32_t size, uint64_t *addr)
{
	if (text[0] == '>' || strcmp(text, "user") == 0) {
		*addr = map_region(s, size ? size : 1, NP_PROT_READ | NP_PROT_WRITE, 0, 0);
		if (!*addr)
			return false;
		if (text[0] == '>')
			add_capture(s, text + 1, true, *addr, size);
		return true;
	}
	const capture *c = find_capture(s, text);
	*addr = c ? c->value : materialize(s, text);
	return true;
}

/* A handle written to *addr: "-" when nothing was written; the capture
 * name (or "written") otherwise. */
static void handle_out(native_state *s, np_record *r, const char *out_name, const char *text,
		       uint64_t addr)
{
	uint64_t value = 0;
	unsigned width = s->arch == NP_X64 ? 8u : 4u;
	bool written = addr && s->impl->read(s->sys, addr, &value, width) &&
		       (uint32_t)value != POISON32;
	if (text[0] == '>')
		add_capture(s, text + 1, false, written ? value : 0, 0);
	np_record_out(r, out_name, !written ? "-" : text[0] == '>' ? text + 1 : "written");
}

/* GROUP_AFFINITY elements in the caller's layout (CP-14). */
static void write_groups(native_state *s, uint64_t array, const np_group_element *g, unsigned n)
{
	bool narrow = s->arch != NP_X64;
	unsigned size = narrow ? NP_GROUP_AFFINITY_SIZE_32 : NP_GROUP_AFFINITY_SIZE_64;
	unsigned at = narrow ? 4u : 8u;
	for (unsigned i = 0; i < n; i++) {
		uint8_t e[NP_GROUP_AFFINITY_SIZE_64] = { 0 };
		uint16_t words[4] = { g[i].group, g[i].reserved, g[i].reserved, g[i].reserved };
		memcpy(e, &g[i].mask, at);
		memcpy(e + at, words, sizeof words);
		poke_input(s, array + (uint64_t)i * size, e, size);
	}
}

/* The symbolic arguments could not all be made: the step is not applicable. */
static bool lacking(native_state *s, np_record *r)
{
	if (!s->lacking)
		return false;
	not_applicable(r, s->lacking);
	return true;
}

static void create_step(native_state *s, const np_step *st, const np_function *f, np_record *r)
{
	ntprof_create_args a = { 0 };
	const char *handle_text = arg_of(st, f, "ProfileHandle");
	a.profile_handle = materialize(s, handle_text[0] == '>' ? "user" : handle_text);
	a.process = handle_arg(s, arg_of(st, f, "Process"));
	a.profile_base = u64_arg(st, f, "ProfileBase");
	a.profile_size = u64_arg(st, f, "ProfileSize");
	a.bucket_size = u32_arg(st, f, "BucketSize");
	a.buffer_size = u32_arg(st, f, "BufferSize");
	a.source = source_arg(st, f);
	if (!buffer_arg(s, arg_of(st, f, "Buffer"), a.buffer_size, &a.buffer)) {
		not_applicable(r, "the buffer does not fit in the caller's address space");
		return;
	}
	if (f->id == NP_FN_CREATE_PROFILE) {
		const char *aff = arg_of(st, f, "Affinity");
		/* all: (KAFFINITY)-1 as the caller writes it, in its own width */
		uint64_t all = s->pointer_size == 4 ? 0xFFFFFFFFull : NP_AFFINITY_ALL;
		a.affinity = strcmp(aff, "all") == 0 ? all : u64_arg(st, f, "Affinity");
		if (!lacking(s, r))
			set_result(s, r, s->impl->create_profile(s->sys, st->function, &a));
	} else {
		np_group_element g[NP_MAX_GROUP_ELEMENTS];
		unsigned n = 0;
		np_groups_parse(arg_of(st, f, "Groups"), g, &n);
		const char *count = arg_of(st, f, "GroupCount");
		a.group_count = (uint16_t)(strcmp(count, "auto") == 0 ? n : u32_arg(st, f, "GroupCount"));
		a.affinity_array = materialize(s, arg_of(st, f, "AffinityArray"));
		write_groups(s, a.affinity_array, g, n);
		if (!lacking(s, r))
			set_result(s, r, s->impl->create_profile_ex(s->sys, st->function, &a));
	}
	if (r->outcome.kind != NP_OUT_NOT_APPLICABLE)
		handle_out(s, r, "ProfileHandle", handle_text, a.profile_handle);
}

static void interrupt_step(native_state *s, const np_step *st, const np_function *f, np_record *r)
{
	ntprof_interrupt irq = {
		.source = source_arg(st, f),
		.cpu = u32_arg(st, f, "Cpu"),
		.group = u32_arg(st, f, "Group"),
		.pc = u64_arg(st, f, "Pc"),
		.other_process = strcmp(arg_of(st, f, "Process"), "other") == 0,
	};
	unsigned counted = 0;
	if (!s->impl->interrupt) {
		set_result(s, r, lacking_op);
		return;
	}
	set_result(s, r, s->impl->interrupt(s->sys, &irq, &counted));
	if (r->outcome.kind == NP_OUT_NONE || r->outcome.kind == NP_OUT_CORRUPTION)
		np_record_out_u32(r, "Counted", counted);
}

static void buffer_step(native_state *s, const np_step *st, const np_function *f, np_record *r)
{
	const capture *c = find_capture(s, arg_of(st, f, "Buffer"));
	r->outcome.kind = NP_OUT_NONE;
	/* The parser admits only names an earlier step captures, but that step
	 * may not have made the buffer: its create was not applicable (a buffer
	 * that does not fit the caller's address space) or it had no room for
	 * another capture. Found by tests/fuzz/fuzz_model.c. */
	if (!c) {
		not_applicable(r, "no such buffer: the step that captures it did not make it");
		return;
	}
	if (f->id == NP_FN_FREE_BUFFER) {
		s->impl->release(s->sys, c->value);
		return;
	}
	if (f->id == NP_FN_WRITE_BUFFER) {
		uint32_t v = u32_arg(st, f, "Value");
		if (!s->impl->write(s->sys, c->value + 4ull * u32_arg(st, f, "Index"), &v, sizeof v))
			not_applicable(r, "the buffer is not writable");
		return;
	}
	const char *count_text = arg_of(st, f, "Count");
	unsigned n = strcmp(count_text, "auto") == 0 ? c->size / 4u : u32_arg(st, f, "Count");
	if (n > NP_MAX_COUNTERS)
		n = NP_MAX_COUNTERS;
	static uint32_t counters[NP_MAX_COUNTERS];
	char text[NP_TEXT_MAX];
	if (n && !s->impl->read(s->sys, c->value, counters, n * sizeof *counters)) {
		np_record_out(r, "Buffer", "-");
		return;
	}
	np_counters_format(counters, n, text, sizeof text);
	np_record_out(r, "Buffer", text);
}

static void object_step(native_state *s, const np_step *st, const np_function *f, np_record *r)
{
	const ntprof_impl *im = s->impl;
	const char *fn = st->function;
	switch (f->id) {
	case NP_FN_START_PROFILE:
		set_result(s, r, im->start_profile(s->sys, fn, handle_arg(s, arg_of(st, f, "ProfileHandle"))));
		break;
	case NP_FN_STOP_PROFILE:
		set_result(s, r, im->stop_profile(s->sys, fn, handle_arg(s, arg_of(st, f, "ProfileHandle"))));
		break;
	case NP_FN_CLOSE:
		set_result(s, r, im->close_handle(s->sys, fn, handle_arg(s, arg_of(st, f, "Handle"))));
		break;
	case NP_FN_DUPLICATE_OBJECT:
	default: {
		const char *target = arg_of(st, f, "TargetHandle");
		uint64_t where = materialize(s, target[0] == '>' ? "user" : target);
		uint64_t source = handle_arg(s, arg_of(st, f, "SourceHandle"));
		if (lacking(s, r))
			break;
		set_result(s, r, im->duplicate_object(s->sys, fn, source, u32_arg(st, f, "DesiredAccess"),
						      where));
		handle_out(s, r, "TargetHandle", target, where);
		break;
	}
	}
}

static void inject_step(native_state *s, const np_step *st, const np_function *f, np_record *r)
{
	if (!s->impl->inject)
		set_result(s, r, lacking_op);
	else
		set_result(s, r, s->impl->inject(s->sys, arg_of(st, f, "What")));
}

static void trace_set_step(native_state *s, const np_step *st, const np_function *f, np_record *r)
{
	uint64_t buf = fresh_region(s, NP_PROT_READ | NP_PROT_WRITE, 0);
	uint32_t fields[2] = { source_arg(st, f), u32_arg(st, f, "Interval") };
	if (lacking(s, r))
		return;
	s->impl->write(s->sys, buf, fields, sizeof fields);
	set_result(s, r, s->impl->trace_set_information(s->sys, u64_arg(st, f, "SessionHandle"),
							u32_arg(st, f, "InformationClass"), buf,
							u32_arg(st, f, "InformationLength")));
}

static void trace_query_step(native_state *s, const np_step *st, const np_function *f, np_record *r)
{
	uint32_t cls = u32_arg(st, f, "InformationClass");
	uint64_t buf = materialize(s, arg_of(st, f, "TraceInformation"));
	uint64_t ret = materialize(s, arg_of(st, f, "ReturnLength"));
	uint32_t len = cls == NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO ? 8u : (uint32_t)REGION_SIZE;
	uint64_t n;
	if (np_number_parse(arg_of(st, f, "InformationLength"), &n))
		len = (uint32_t)n;
	uint32_t source = source_arg(st, f);
	if (lacking(s, r))
		return;
	if (buf && cls == NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO)   /* the structure's input field */
		s->impl->write(s->sys, buf, &source, sizeof source);
	set_result(s, r, s->impl->trace_query_information(s->sys, u64_arg(st, f, "SessionHandle"), cls,
							  buf, len, ret));
	if (cls == NP_TRACE_PROFILE_SOURCE_LIST_INFO)
		read_source_list(s, r, buf);
	else
		read_out_u32(s, r, "Interval", buf ? buf + 4 : 0);
	read_out_u32(s, r, "ReturnLength", ret);
}

static void sysinfo_step(native_state *s, const np_step *st, const np_function *f, np_record *r)
{
	bool is_set = f->id == NP_FN_SET_SYSINFO;
	uint32_t cls = u32_arg(st, f, "InformationClass");
	uint32_t subclass = u32_arg(st, f, "EventTraceClass");
	uint64_t buf = materialize(s, arg_of(st, f, "SystemInformation"));
	uint64_t ret = is_set ? 0 : materialize(s, arg_of(st, f, "ReturnLength"));
	uint32_t len = sysinfo_length(s, st, f, cls, subclass);
	if (lacking(s, r))
		return;
	sysinfo_input(s, st, f, cls, buf, is_set);
	set_result(s, r, is_set ? s->impl->set_system_information(s->sys, st->function, cls, buf, len)
				: s->impl->query_system_information(s->sys, st->function, cls, buf, len,
								    ret));
	if (cls == NP_SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA)
		read_out_pointer(s, r, "ProcessorProfileControlArea", buf);
	else if (!is_set && subclass == NP_EVENT_TRACE_PROFILE_SOURCE_LIST_INFORMATION)
		read_source_list(s, r, buf ? buf + NP_EVENT_TRACE_PROFILE_LIST_HEADER : 0);
	else if (!is_set)
		read_out_u32(s, r, "ProfileInterval", buf ? buf + 4 : 0);
	if (!is_set)
		read_out_u32(s, r, "ReturnLength", ret);
}

static void move_thread_step(native_state *s, const np_step *st, const np_function *f, np_record *r)
{
	unsigned now = 0;
	if (!s->impl->move_thread) {
		set_result(s, r, lacking_op);
		return;
	}
	set_result(s, r, s->impl->move_thread(s->sys, u32_arg(st, f, "Cpu"), &now));
	if (r->outcome.kind == NP_OUT_NONE)
		np_record_out_u32(r, "Cpu", now);
}

static void native_step(np_backend *self, const np_step *st, np_record *r)
{
	native_state *s = self->state;
	const np_function *f = np_function_find(st->function);
	memset(r, 0, sizeof *r);
	s->lacking = NULL;
	if (!f)
		abort(); /* LCOV_EXCL_LINE: the parser admits known functions only */
	if (f->kind == NP_KIND_NATIVE && !s->impl->exported(s->sys, st->function)) {
		r->outcome.kind = NP_OUT_NOT_EXPORTED;   /* CP-0, ST-0, SP-0, SI-0, QI-0 */
		return;
	}
	if (s->halted) {                            /* a bug check stopped the system */
		r->outcome = (np_outcome){ NP_OUT_BUGCHECK, s->halt_code };
		return;
	}
	switch (f->id) {
	case NP_FN_SET_INTERVAL:
		set_result(s, r, s->impl->set_interval_profile(s->sys, st->function,
							       u32_arg(st, f, "Interval"),
							       source_arg(st, f)));
		break;
	case NP_FN_QUERY_INTERVAL: {
		uint64_t p = materialize(s, arg_of(st, f, "Interval"));
		if (lacking(s, r))
			break;
		set_result(s, r, s->impl->query_interval_profile(s->sys, st->function,
								 source_arg(st, f), p));
		read_out_u32(s, r, "Interval", p);
		break;
	}
	case NP_FN_TRACE_SET:
		trace_set_step(s, st, f, r);
		break;
	case NP_FN_TRACE_QUERY:
		trace_query_step(s, st, f, r);
		break;
	case NP_FN_READ_EVENTS:
		read_events(s, r);
		break;
	case NP_FN_CREATE_PROFILE:
	case NP_FN_CREATE_PROFILE_EX:
		create_step(s, st, f, r);
		break;
	case NP_FN_START_PROFILE:
	case NP_FN_STOP_PROFILE:
	case NP_FN_CLOSE:
	case NP_FN_DUPLICATE_OBJECT:
		object_step(s, st, f, r);
		break;
	case NP_FN_INTERRUPT:
		interrupt_step(s, st, f, r);
		break;
	case NP_FN_READ_BUFFER:
	case NP_FN_WRITE_BUFFER:
	case NP_FN_FREE_BUFFER:
		buffer_step(s, st, f, r);
		break;
	case NP_FN_INJECT:
		inject_step(s, st, f, r);
		break;
	case NP_FN_SET_SYSINFO:
	case NP_FN_QUERY_SYSINFO:
		sysinfo_step(s, st, f, r);
		break;
	case NP_FN_MOVE_THREAD:
		move_thread_step(s, st, f, r);
		break;
	}
}

static void native_destroy(np_backend *self)
{
	native_end(self);
	free(self->state);
	free(self);
}

np_backend *np_backend_native_new(const ntprof_impl *impl)
{
	np_backend *b = calloc(1, sizeof *b);
	native_state *s = calloc(1, sizeof *s);
	if (!b || !s) {
		free(b);
		free(s);
		return NULL;
	}
	s->impl = impl;
	*b = (np_backend){ impl->name, native_begin, native_step, native_end, native_destroy, s, NULL };
	return b;
}

np_backend *np_backend_model_new(void)
{
	return np_backend_native_new(&np_impl_model);
}
