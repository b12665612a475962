/* SPDX-License-Identifier: MIT */
/* The model as an implementation (ntprof/impl.h): each open system is a
 * simulated machine (model/) with its own address space. Regions go one
 * after another from USER_BASE, each followed by a 64 KiB gap where nothing
 * is mapped, so an overrun meets unmapped memory as it would on Windows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/impl_model.h"
#include "ntprof/calls.h"
#include "ntprof/configure.h"
#include "ntprof/elsewhere.h"
#include "ntprof/vector.h"   /* NP_MAX_GIVEN */

#define USER_BASE    0x00100000ull   /* the first region goes here */
#define REGION_SIZE  0x10000ull      /* the granularity of a region */
#define GUARD        0x10000ull      /* nothing is mapped in the 64 KiB after a region */
#define UNMAPPED     0x00080000ull   /* below USER_BASE: never mapped */

typedef struct model_sys {
	np_machine m;
	uint64_t next;                  /* where the next region goes */
} model_sys;

np_machine *np_impl_model_machine(void *sys)
{
	return &((model_sys *)sys)->m;
}

/* The model's result kinds are the ABI's, number for number: a result
 * crosses from the model to the ABI, and from the ABI to a record
 * (run/interpreter.c), as it is. */
_Static_assert((int)NP_RESULT_STATUS == (int)NTPROF_STATUS, "result kinds: STATUS");
_Static_assert((int)NP_RESULT_WIN32 == (int)NTPROF_WIN32, "result kinds: WIN32");
_Static_assert((int)NP_RESULT_FAULT == (int)NTPROF_FAULT, "result kinds: FAULT");
_Static_assert((int)NP_RESULT_BUGCHECK == (int)NTPROF_BUGCHECK, "result kinds: BUGCHECK");
_Static_assert((int)NP_RESULT_NOT_EXPORTED == (int)NTPROF_NOT_EXPORTED, "result kinds: NOT_EXPORTED");
_Static_assert((int)NP_RESULT_NOT_APPLICABLE == (int)NTPROF_NOT_APPLICABLE, "result kinds: NOT_APPLICABLE");
_Static_assert((int)NP_RESULT_NONE == (int)NTPROF_NONE, "result kinds: NONE");
_Static_assert((int)NP_RESULT_CORRUPTION == (int)NTPROF_CORRUPTION, "result kinds: CORRUPTION");
_Static_assert((int)NP_RESULT_STUB == (int)NTPROF_STUB, "result kinds: STUB");
_Static_assert((int)NP_RESULT_CRASHED == (int)NTPROF_CRASHED, "result kinds: CRASHED");
_Static_assert((int)NP_RESULT_LAST == (int)NTPROF_CRASHED, "result kinds: the last one");

static ntprof_result from_np(np_result r)
{
	return (ntprof_result){ (uint32_t)r.kind, r.code, r.why };
}

/* The machine spec names, into s; NULL, or why there is none. */
static const char *model_boot(model_sys *s, const ntprof_system_spec *spec)
{
	np_ver v;
	np_arch a;
	np_setting given[NP_MAX_GIVEN];
	if (!np_version_parse(spec->version, &v) || !np_arch_parse(spec->arch, &a))
		return "unknown version or architecture";
	if (spec->ngiven > NP_MAX_GIVEN)
		return "too many given settings";
	for (unsigned i = 0; i < spec->ngiven; i++)
		given[i] = (np_setting){ spec->given[i].key, spec->given[i].value };
	s->next = USER_BASE;
	const char *why = np_machine_init(&s->m, v, a);   /* it clears the machine */
	if (!why)
		why = np_machine_configure_all(&s->m, given, spec->ngiven);
	if (why)
		np_machine_fini(&s->m);
	return why;
}

static void *model_open(const ntprof_system_spec *spec, const char **why)
{
	model_sys *s = malloc(sizeof *s);
	*why = "out of memory";
	if (!s)
		return NULL;
	*why = model_boot(s, spec);
	if (*why) {
		free(s);
		return NULL;
	}
	return s;
}

void *np_impl_model_reopen(void *sys, const ntprof_system_spec *spec, const char **why)
{
	model_sys *s = sys;
	np_machine_fini(&s->m);
	*why = model_boot(s, spec);
	if (*why) {
		free(s);
		return NULL;
	}
	return s;
}

static void model_close(void *sys)
{
	model_sys *s = sys;
	np_machine_fini(&s->m);
	free(s);
}

static int model_exported(void *sys, const char *function)
{
	model_sys *s = sys;
	return np_is_exported(s->m.version, s->m.previous_mode, function);
}

/* size bytes (rounded up to 64 KiB) at the next free place; 0 when the
 * caller's address space has no room for them. */
static uint64_t model_map(void *sys, uint64_t size, unsigned prot, unsigned flags, uint8_t fill)
{
	model_sys *s = sys;
	if (flags & NTPROF_MAP_FREED)
		return UNMAPPED;
	uint64_t base = s->next, rounded = (size + REGION_SIZE - 1) & ~(REGION_SIZE - 1);
	if (rounded == 0)
		rounded = REGION_SIZE;
	uint64_t top = s->m.arch == NP_X64 ? np_user_probe_address(&s->m) : 0x7FFF0000ull;
	unsigned region_flags = (flags & NTPROF_MAP_VANISHING) ? NP_REGION_VANISHES : 0;
	if (base + rounded > top || np_mem_map(&s->m, base, rounded, prot, region_flags, fill))
		return 0;
	s->next = base + rounded + GUARD;
	return base;
}

static int model_read(void *sys, uint64_t addr, void *out, size_t n)
{
	return np_mem_read(&((model_sys *)sys)->m, addr, out, n);
}

static int model_write(void *sys, uint64_t addr, const void *in, size_t n)
{
	return np_mem_write(&((model_sys *)sys)->m, addr, in, n);
}

/* Even into a read-only region: the caller's input as it was before the call.
 * Through np_mem_poke, which knows a large region keeps its bytes in pages
 * (r->bytes is NULL there: conformance/fuzz/fuzz_model.c found the write through
 * it); a region the caller freed takes nothing, as any unmapped address. */
static int model_poke(void *sys, uint64_t addr, const void *in, size_t n)
{
	model_sys *s = sys;
	if (addr == 0 || !np_mem_find(&s->m, addr, n))
		return 0;
	return np_mem_poke(&s->m, addr, in, n);
}

/* Gone for the caller; pages a profile locked stay (ST-5). */
static int model_release(void *sys, uint64_t addr)
{
	np_region *r = np_mem_find(&((model_sys *)sys)->m, addr, 1);
	if (r)
		r->revoked = true;
	return r != NULL;
}

static uint64_t model_open_process(void *sys, int other, uint32_t access)
{
	return np_handle_open(&((model_sys *)sys)->m, NP_OBJ_PROCESS,
			      other ? NP_PROCESS_OTHER : NP_PROCESS_CURRENT, access);
}

static ntprof_result model_set_interval(void *sys, const char *fn, uint32_t interval, uint32_t source)
{
	(void)fn;
	return from_np(np_nt_set_interval_profile(&((model_sys *)sys)->m, interval, source));
}

static ntprof_result model_query_interval(void *sys, const char *fn, uint32_t source, uint64_t p)
{
	(void)fn;
	return from_np(np_nt_query_interval_profile(&((model_sys *)sys)->m, source, p));
}

static np_create_profile_args to_np(const ntprof_create_args *a)
{
	return (np_create_profile_args){
		.profile_handle = a->profile_handle, .process = a->process,
		.profile_base = a->profile_base, .profile_size = a->profile_size,
		.bucket_size = a->bucket_size, .buffer = a->buffer, .buffer_size = a->buffer_size,
		.source = a->source, .affinity = a->affinity, .group_count = a->group_count,
		.affinity_array = a->affinity_array,
	};
}

static ntprof_result model_create(void *sys, const char *fn, const ntprof_create_args *a)
{
	np_create_profile_args n = to_np(a);
	(void)fn;
	return from_np(np_nt_create_profile(&((model_sys *)sys)->m, &n));
}

static ntprof_result model_create_ex(void *sys, const char *fn, const ntprof_create_args *a)
{
	np_create_profile_args n = to_np(a);
	(void)fn;
	return from_np(np_nt_create_profile_ex(&((model_sys *)sys)->m, &n));
}

static ntprof_result model_start(void *sys, const char *fn, uint64_t handle)
{
	(void)fn;
	return from_np(np_nt_start_profile(&((model_sys *)sys)->m, handle));
}

static ntprof_result model_stop(void *sys, const char *fn, uint64_t handle)
{
	(void)fn;
	return from_np(np_nt_stop_profile(&((model_sys *)sys)->m, handle));
}

static ntprof_result model_close_handle(void *sys, const char *fn, uint64_t handle)
{
	(void)fn;
	return from_np(np_nt_close(&((model_sys *)sys)->m, handle));
}

static ntprof_result model_duplicate(void *sys, const char *fn, uint64_t handle, uint32_t access,
				     uint64_t target)
{
	model_sys *s = sys;
	uint64_t dup;
	(void)fn;
	np_result r = np_nt_duplicate_object(&s->m, handle, access, &dup);
	if (dup)
		np_mem_write(&s->m, target, &dup, s->m.arch == NP_X64 ? 8u : 4u);
	return from_np(r);
}

static ntprof_result model_set_sysinfo(void *sys, const char *fn, uint32_t cls, uint64_t buf,
				       uint32_t len)
{
	(void)fn;
	return from_np(np_nt_set_system_information(&((model_sys *)sys)->m, cls, buf, len));
}

static ntprof_result model_query_sysinfo(void *sys, const char *fn, uint32_t cls, uint64_t buf,
					 uint32_t len, uint64_t ret)
{
	(void)fn;
	return from_np(np_nt_query_system_information(&((model_sys *)sys)->m, cls, buf, len, ret));
}

static ntprof_result model_trace_set(void *sys, uint64_t session, uint32_t cls, uint64_t buf,
				     uint32_t len)
{
	return from_np(np_trace_set_information(&((model_sys *)sys)->m, session, cls, buf, len));
}

static ntprof_result model_trace_query(void *sys, uint64_t session, uint32_t cls, uint64_t buf,
				       uint32_t len, uint64_t ret)
{
	return from_np(np_trace_query_information(&((model_sys *)sys)->m, session, cls, buf, len, ret));
}

static np_interrupt to_np_interrupt(const ntprof_interrupt *irq)
{
	return (np_interrupt){
		.source = irq->source, .cpu = irq->cpu, .group = irq->group, .pc = irq->pc,
		.process = irq->other_process ? NP_PROCESS_OTHER : NP_PROCESS_CURRENT,
	};
}

static ntprof_result model_interrupt(void *sys, const ntprof_interrupt *irq, unsigned *counted)
{
	np_interrupt n = to_np_interrupt(irq);
	return from_np(np_profile_interrupt(&((model_sys *)sys)->m, &n, counted));
}

/* The counting fast path of one started profile with mapped counters (IN-3
 * to IN-7 in a loop of their own); any other run, one pc at a time. */
static ntprof_result model_interrupts(void *sys, const ntprof_interrupt *irq, const uint64_t *pc, size_t n,
				      uint64_t *counted)
{
	np_interrupt one = to_np_interrupt(irq);
	return from_np(np_profile_interrupts(&((model_sys *)sys)->m, &one, pc, n, counted));
}

static ntprof_result model_inject(void *sys, const char *what)
{
	np_machine *m = &((model_sys *)sys)->m;
	if (strcmp(what, "alloc") == 0)
		m->alloc_failures++;
	else if (strcmp(what, "lock") == 0)
		m->lock_failures++;
	else
		m->map_failures++;
	return (ntprof_result){ NTPROF_NONE, 0, NULL };
}

static ntprof_result model_read_events(void *sys, char *text, size_t cap)
{
	np_machine *m = &((model_sys *)sys)->m;
	size_t used = 0;
	snprintf(text, cap, "none");
	for (unsigned i = 0; i < m->event_count; i++) {
		const np_event *e = &m->event[i];
		int n = snprintf(text + used, cap - used, "%s0x%04X:%u:%u:%u", i ? "," : "", e->hook,
				 e->source, e->old_interval, e->new_interval);
		if (n < 0 || (size_t)n >= cap - used)
			break;
		used += (size_t)n;
	}
	return (ntprof_result){ NTPROF_NONE, 0, NULL };
}

static ntprof_result model_move_thread(void *sys, unsigned cpu, unsigned *now)
{
	np_machine *m = &((model_sys *)sys)->m;
	np_config_error e = np_machine_move_thread(m, cpu);
	*now = m->current_cpu;
	if (e)
		return (ntprof_result){ NTPROF_NOT_APPLICABLE, 0, e };
	return (ntprof_result){ NTPROF_NONE, 0, NULL };
}

static ntprof_result model_set_cpus(void *sys, unsigned cpus)
{
	return from_np(np_elsewhere_set_cpus(&((model_sys *)sys)->m, cpus));
}

static ntprof_result model_set_interval_elsewhere(void *sys, uint32_t interval, uint32_t source)
{
	return from_np(np_elsewhere_set_interval(&((model_sys *)sys)->m, interval, source));
}

static ntprof_result model_protect(void *sys, uint64_t addr, uint64_t size, unsigned prot)
{
	unsigned p = prot & NTPROF_PROT_READ ? NP_PROT_READ : 0;
	return from_np(np_elsewhere_protect(&((model_sys *)sys)->m, addr, size, p));
}

const ntprof_impl np_impl_model = {
	.abi = NTPROF_IMPL_ABI,
	.name = "model",
	.open = model_open,
	.close = model_close,
	.exported = model_exported,
	.map = model_map,
	.read = model_read,
	.write = model_write,
	.poke = model_poke,
	.release = model_release,
	.open_process = model_open_process,
	.set_interval_profile = model_set_interval,
	.query_interval_profile = model_query_interval,
	.create_profile = model_create,
	.create_profile_ex = model_create_ex,
	.start_profile = model_start,
	.stop_profile = model_stop,
	.close_handle = model_close_handle,
	.duplicate_object = model_duplicate,
	.set_system_information = model_set_sysinfo,
	.query_system_information = model_query_sysinfo,
	.trace_set_information = model_trace_set,
	.trace_query_information = model_trace_query,
	.interrupt = model_interrupt,
	.inject = model_inject,
	.read_events = model_read_events,
	.move_thread = model_move_thread,
	.interrupts = model_interrupts,
	.set_cpus = model_set_cpus,
	.set_interval_elsewhere = model_set_interval_elsewhere,
	.protect = model_protect,
};
