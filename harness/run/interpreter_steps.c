/* SPDX-License-Identifier: MIT */
/* The steps as calls of an implementation (ntprof/impl.h): each takes the
 * step's typed arguments (np_step_value), makes them real on the system
 * (interpreter_args.c), calls, and reads the out-values back. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "run/interpreter.h"
#include "ntprof/calls.h"

static const np_arg *arg(const np_step *st, const char *name)
{
	return np_step_value(st, name);
}

static uint32_t u32_arg(const np_step *st, const char *name)
{
	return arg(st, name)->u32.value;
}

static uint64_t pointer_arg(np_native_state *s, const np_step *st, const char *name)
{
	return np_native_pointer(s, &arg(st, name)->pointer);
}

void np_native_set_interval(np_native_state *s, const np_step *st, np_record *r)
{
	np_native_result(s, r, s->impl->set_interval_profile(s->sys, st->function, u32_arg(st, "Interval"),
							      arg(st, "Source")->source));
}

void np_native_query_interval(np_native_state *s, const np_step *st, np_record *r)
{
	uint64_t p = pointer_arg(s, st, "Interval");
	if (np_native_lacking(s, r))
		return;
	np_native_result(s, r, s->impl->query_interval_profile(s->sys, st->function,
								arg(st, "Source")->source, p));
	np_native_out_u32(s, r, "Interval", p);
}

/* NtCreateProfile's KAFFINITY, or NtCreateProfileEx's groups, then the call. */
static void create_call(np_native_state *s, const np_step *st, ntprof_create_args *a, np_record *r)
{
	if (st->catalog->id == NP_FN_CREATE_PROFILE) {
		const np_arg *aff = arg(st, "Affinity");
		/* all: (KAFFINITY)-1 as the caller writes it, in its own width */
		uint64_t all = s->pointer_size == 4 ? 0xFFFFFFFFull : NP_AFFINITY_ALL;
		a->affinity = aff->affinity.all ? all : aff->affinity.mask;
		if (!np_native_lacking(s, r))
			np_native_result(s, r, s->impl->create_profile(s->sys, st->function, a));
		return;
	}
	const np_arg *groups = arg(st, "Groups"), *count = arg(st, "GroupCount");
	a->group_count = (uint16_t)(count->u32.automatic ? groups->groups.count : count->u32.value);
	a->affinity_array = pointer_arg(s, st, "AffinityArray");
	np_native_write_groups(s, a->affinity_array, groups->groups.element, groups->groups.count);
	if (!np_native_lacking(s, r))
		np_native_result(s, r, s->impl->create_profile_ex(s->sys, st->function, a));
}

void np_native_create(np_native_state *s, const np_step *st, np_record *r)
{
	ntprof_create_args a = { 0 };
	const np_arg *handle = arg(st, "ProfileHandle");
	a.profile_handle = np_native_pointer(s, &handle->out_handle.where);
	a.process = np_native_handle(s, arg(st, "Process"));
	a.profile_base = arg(st, "ProfileBase")->u64;
	a.profile_size = arg(st, "ProfileSize")->u64;
	a.bucket_size = u32_arg(st, "BucketSize");
	a.buffer_size = u32_arg(st, "BufferSize");
	a.source = arg(st, "Source")->source;
	if (!np_native_buffer(s, arg(st, "Buffer"), a.buffer_size, &a.buffer)) {
		np_native_not_applicable(r, "the buffer does not fit in the caller's address space");
		return;
	}
	create_call(s, st, &a, r);
	if (r->outcome.kind != NP_RESULT_NOT_APPLICABLE)
		np_native_out_handle(s, r, "ProfileHandle", handle, a.profile_handle);
}

/* The interrupt an Interrupt or Interrupts step raises (IN-1, IN-2: its
 * source, processor and process), without its pc. */
static ntprof_interrupt interrupt_of(const np_step *st)
{
	return (ntprof_interrupt){
		.source = arg(st, "Source")->source,
		.cpu = u32_arg(st, "Cpu"),
		.group = u32_arg(st, "Group"),
		.other_process = strcmp(arg(st, "Process")->choice.word, "other") == 0,
	};
}

void np_native_interrupt(np_native_state *s, const np_step *st, np_record *r)
{
	ntprof_interrupt irq = interrupt_of(st);
	unsigned counted = 0;
	irq.pc = arg(st, "Pc")->u64;
	if (!s->impl->interrupt) {
		np_native_result(s, r, np_lacking_op);
		return;
	}
	np_native_result(s, r, s->impl->interrupt(s->sys, &irq, &counted));
	if (r->outcome.kind == NP_RESULT_NONE || r->outcome.kind == NP_RESULT_CORRUPTION)
		np_record_out_u32(r, "Counted", counted);
}

/* A result that ends a run: anything but none and corruption. */
static bool ends_run(ntprof_result res)
{
	return res.kind != NTPROF_NONE && res.kind != NTPROF_CORRUPTION;
}

/* n pcs of a run through the implementation's interrupts(), or through its
 * interrupt() one at a time where it has none (a dl: object, impl.h). */
static ntprof_result deliver(np_native_state *s, const ntprof_interrupt *irq, const uint64_t *pc, size_t n,
			     uint64_t *counted)
{
	if (s->impl->interrupts)
		return s->impl->interrupts(s->sys, irq, pc, n, counted);
	ntprof_result worst = { NTPROF_NONE, 0, NULL };
	*counted = 0;
	for (size_t i = 0; i < n; i++) {
		ntprof_interrupt one = *irq;
		unsigned c = 0;
		one.pc = pc[i];
		ntprof_result res = s->impl->interrupt(s->sys, &one, &c);
		*counted += c;
		if (res.kind != NTPROF_NONE)
			worst = res;
		if (ends_run(res))
			break;
	}
	return worst;
}

#define RUN_CHUNK 256u   /* pcs made and delivered at a time */

/* Count interrupts at Pc, Pc+Step, ... (modulo 2^64), in order, ending at
 * the first bug check (IN-7) or not-applicable (IN-2, IN-8); Counted is
 * the run's total, as that many Interrupt steps would add it up. */
void np_native_interrupts(np_native_state *s, const np_step *st, np_record *r)
{
	ntprof_interrupt irq = interrupt_of(st);
	uint64_t pc = arg(st, "Pc")->u64, step = arg(st, "Step")->u64, total = 0;
	uint32_t left = u32_arg(st, "Count");
	ntprof_result worst = { NTPROF_NONE, 0, NULL };
	if (!s->impl->interrupts && !s->impl->interrupt) {
		np_native_result(s, r, np_lacking_op);
		return;
	}
	while (left) {
		uint64_t pcs[RUN_CHUNK], counted = 0;
		size_t n = left < RUN_CHUNK ? left : RUN_CHUNK;
		for (size_t i = 0; i < n; i++, pc += step)
			pcs[i] = pc;
		ntprof_result res = deliver(s, &irq, pcs, n, &counted);
		total += counted;
		left -= (uint32_t)n;
		if (res.kind != NTPROF_NONE)
			worst = res;
		if (ends_run(res))
			break;
	}
	np_native_result(s, r, worst);
	if (r->outcome.kind == NP_RESULT_NONE || r->outcome.kind == NP_RESULT_CORRUPTION) {
		char text[24];
		snprintf(text, sizeof text, "%" PRIu64, total);
		np_record_out(r, "Counted", text);
	}
}

void np_native_buffer_step(np_native_state *s, const np_step *st, np_record *r)
{
	const np_capture *c = np_native_find_capture(s, arg(st, "Buffer")->captured);
	np_function_id id = st->catalog->id;
	r->outcome.kind = NP_RESULT_NONE;
	/* The parser admits only names an earlier step captures, but that step
	 * may not have made the buffer: its create was not applicable (a buffer
	 * that does not fit the caller's address space) or it had no room for
	 * another capture. Found by conformance/fuzz/fuzz_model.c. */
	if (!c) {
		np_native_not_applicable(r, "no such buffer: the step that captures it did not make it");
		return;
	}
	if (id == NP_FN_FREE_BUFFER) {
		s->impl->release(s->sys, c->value);
		return;
	}
	if (id == NP_FN_WRITE_BUFFER) {
		uint32_t v = u32_arg(st, "Value");
		if (!s->impl->write(s->sys, c->value + 4ull * u32_arg(st, "Index"), &v, sizeof v))
			np_native_not_applicable(r, "the buffer is not writable");
		return;
	}
	const np_arg *count = arg(st, "Count");
	unsigned n = count->u32.automatic ? c->size / 4u : count->u32.value;
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

/* Start, Stop and Close: one handle in, a status out. A handle that could
 * not be made (Handle=other) makes the step not applicable (MC-3). */
static void handle_step(np_native_state *s, const np_step *st, np_record *r, const char *param)
{
	const ntprof_impl *im = s->impl;
	const char *fn = st->function;
	np_function_id id = st->catalog->id;
	uint64_t h = np_native_handle(s, arg(st, param));
	if (np_native_lacking(s, r))
		return;
	np_native_result(s, r, id == NP_FN_START_PROFILE  ? im->start_profile(s->sys, fn, h)
			       : id == NP_FN_STOP_PROFILE ? im->stop_profile(s->sys, fn, h)
							  : im->close_handle(s->sys, fn, h));
}

void np_native_object(np_native_state *s, const np_step *st, np_record *r)
{
	const ntprof_impl *im = s->impl;
	const char *fn = st->function;
	switch (st->catalog->id) {
	case NP_FN_START_PROFILE:
	case NP_FN_STOP_PROFILE:
		handle_step(s, st, r, "ProfileHandle");
		break;
	case NP_FN_CLOSE:
		handle_step(s, st, r, "Handle");
		break;
	case NP_FN_DUPLICATE_OBJECT:
	default: {
		const np_arg *target = arg(st, "TargetHandle");
		uint64_t where = np_native_pointer(s, &target->out_handle.where);
		uint64_t source = np_native_handle(s, arg(st, "SourceHandle"));
		if (np_native_lacking(s, r))
			break;
		np_native_result(s, r, im->duplicate_object(s->sys, fn, source, u32_arg(st, "DesiredAccess"),
							    where));
		np_native_out_handle(s, r, "TargetHandle", target, where);
		break;
	}
	}
}

void np_native_inject(np_native_state *s, const np_step *st, np_record *r)
{
	if (!s->impl->inject)
		np_native_result(s, r, np_lacking_op);
	else
		np_native_result(s, r, s->impl->inject(s->sys, arg(st, "What")->choice.word));
}

void np_native_trace_set(np_native_state *s, const np_step *st, np_record *r)
{
	uint64_t buf = np_native_fresh_region(s, NP_PROT_READ | NP_PROT_WRITE, 0);
	uint32_t fields[2] = { arg(st, "Source")->source, u32_arg(st, "Interval") };
	if (np_native_lacking(s, r))
		return;
	s->impl->write(s->sys, buf, fields, sizeof fields);
	np_native_result(s, r, s->impl->trace_set_information(s->sys, arg(st, "SessionHandle")->u64,
							      u32_arg(st, "InformationClass"), buf,
							      u32_arg(st, "InformationLength")));
}

void np_native_trace_query(np_native_state *s, const np_step *st, np_record *r)
{
	uint32_t cls = u32_arg(st, "InformationClass");
	uint64_t buf = pointer_arg(s, st, "TraceInformation");
	uint64_t ret = pointer_arg(s, st, "ReturnLength");
	const np_arg *length = arg(st, "InformationLength");
	/* auto: the structure for class 5, the whole region otherwise */
	uint32_t len = !length->u32.automatic ? length->u32.value
		     : cls == NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO ? 8u : (uint32_t)NP_REGION_SIZE;
	uint32_t source = arg(st, "Source")->source;
	if (np_native_lacking(s, r))
		return;
	if (buf && cls == NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO)   /* the structure's input field */
		s->impl->write(s->sys, buf, &source, sizeof source);
	np_native_result(s, r, s->impl->trace_query_information(s->sys, arg(st, "SessionHandle")->u64, cls,
								buf, len, ret));
	if (cls == NP_TRACE_PROFILE_SOURCE_LIST_INFO)
		np_native_out_source_list(s, r, buf);
	else
		np_native_out_u32(s, r, "Interval", buf ? buf + 4 : 0);
	np_native_out_u32(s, r, "ReturnLength", ret);
}

/* fixtures/README.md: SystemInformationLength=auto is the size of the
 * structure the class wants, as the caller declares it. */
static uint32_t sysinfo_length(np_native_state *s, const np_step *st, uint32_t cls, uint32_t subclass)
{
	const np_arg *length = arg(st, "SystemInformationLength");
	if (!length->u32.automatic)
		return length->u32.value;
	if (cls == NP_SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA)
		return 2 * s->pointer_size;                 /* SY-9 */
	if (cls == NP_SYSTEM_PERFORMANCE_TRACE_INFORMATION &&
	    subclass == NP_EVENT_TRACE_PROFILE_SOURCE_LIST_INFORMATION)
		return (uint32_t)NP_REGION_SIZE;                           /* SY-24: the whole region */
	return NP_EVENT_TRACE_TIME_PROFILE_SIZE;                           /* SY-23, and any other */
}

/* The class's input, put in the buffer before the call (SY-9, SY-21, SY-23). */
static void sysinfo_input(np_native_state *s, const np_step *st, uint32_t cls, uint64_t buf, bool is_set)
{
	if (cls == NP_SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA) {
		if (is_set) {   /* a query has no input for this class */
			uint8_t allocate = arg(st, "Allocate")->byte;
			np_native_poke(s, buf + s->pointer_size, &allocate, 1);
		}
		return;
	}
	uint32_t fields[2] = { u32_arg(st, "EventTraceClass"), 0 };
	if (is_set)
		fields[1] = u32_arg(st, "ProfileInterval");
	np_native_poke(s, buf, fields, is_set ? sizeof fields : sizeof fields[0]);
}

void np_native_sysinfo(np_native_state *s, const np_step *st, np_record *r)
{
	bool is_set = st->catalog->id == NP_FN_SET_SYSINFO;
	uint32_t cls = u32_arg(st, "InformationClass");
	uint32_t subclass = u32_arg(st, "EventTraceClass");
	uint64_t buf = pointer_arg(s, st, "SystemInformation");
	uint64_t ret = is_set ? 0 : pointer_arg(s, st, "ReturnLength");
	uint32_t len = sysinfo_length(s, st, cls, subclass);
	if (np_native_lacking(s, r))
		return;
	sysinfo_input(s, st, cls, buf, is_set);
	np_native_result(s, r, is_set ? s->impl->set_system_information(s->sys, st->function, cls, buf, len)
				      : s->impl->query_system_information(s->sys, st->function, cls, buf, len,
									  ret));
	if (cls == NP_SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA)
		np_native_out_pointer(s, r, "ProcessorProfileControlArea", buf);
	else if (!is_set && subclass == NP_EVENT_TRACE_PROFILE_SOURCE_LIST_INFORMATION)
		np_native_out_source_list(s, r, buf ? buf + NP_EVENT_TRACE_PROFILE_LIST_HEADER : 0);
	else if (!is_set)
		np_native_out_u32(s, r, "ProfileInterval", buf ? buf + 4 : 0);
	if (!is_set)
		np_native_out_u32(s, r, "ReturnLength", ret);
}

void np_native_move_thread(np_native_state *s, const np_step *st, np_record *r)
{
	unsigned now = 0;
	if (!s->impl->move_thread) {
		np_native_result(s, r, np_lacking_op);
		return;
	}
	np_native_result(s, r, s->impl->move_thread(s->sys, u32_arg(st, "Cpu"), &now));
	if (r->outcome.kind == NP_RESULT_NONE)
		np_record_out_u32(r, "Cpu", now);
}

void np_native_read_events(np_native_state *s, np_record *r)
{
	char text[NP_TEXT_MAX] = "none";
	if (!s->impl->read_events) {
		np_native_result(s, r, np_lacking_op);
		return;
	}
	np_native_result(s, r, s->impl->read_events(s->sys, text, sizeof text));
	if (r->outcome.kind == NP_RESULT_NONE)
		np_record_out(r, "Events", text);
}
