/* SPDX-License-Identifier: MIT */
/* NtSetIntervalProfile and NtQueryIntervalProfile as Windows 10 1809 (x64)
 * has them (SPEC.md SI-*, QI-*), checked by ntprof as a dl: object. Only the
 * two calls are written here: the caller's memory and handles are the
 * helpers' (ntprof/impl_helpers.h), and the calls left out answer
 * not-applicable.
 *   cc -std=c99 -shared -fPIC -o impl_minimal.so impl_minimal.c \
 *      $(pkg-config --cflags --libs ntprof_impl_helpers)
 *   ntprof run --backend dl:./impl_minimal.so --target 1809/x64 \
 *      fixtures/interval/set-interval.vec fixtures/interval/query-interval.vec
 * Built with -DIMPL_MINIMAL_BUG it lacks the privilege check (SI-1), and
 * that run fails. */
#include <stdlib.h>
#include <string.h>

#include <ntprof/impl_helpers.h>

#define PROFILE_TIME            0u   /* KPROFILE_SOURCE values (KS-1) */
#define PROFILE_ALIGNMENT_FIXUP 1u
#define TIME_DEFAULT 39063u          /* the Default HAL's ProfileTime interval (HL-2) */
#define TIME_MIN     1221u
#define TIME_MAX     10000000u

typedef struct machine {
	ntprof_sim sim;              /* first: the table's ntprof_sim_* members find it there */
	int kernel_mode;             /* given mode=kernel: the previous mode */
	int privilege;               /* given privilege=on: SeSystemProfilePrivilege held */
	int qi_align;                /* K-QI-ALIGN=checked (QI-2); by default no alignment test */
	int qi_fault_returned;       /* K-QI-WRITE-FAULT=exception (QI-3) */
	uint32_t time_interval;      /* what the HAL holds for ProfileTime (one processor) */
	uint32_t alignment_fixup;    /* the kernel's own variable (SI-3) */
} machine;

static int choose(const char *value, const char *yes, const char *no, int *flag)
{
	if (strcmp(value, yes) != 0 && strcmp(value, no) != 0)
		return 0;
	*flag = strcmp(value, yes) == 0;
	return 1;
}

/* The given settings this example models; any other makes it refuse the vector. */
static int apply(machine *s, const ntprof_setting *g)
{
	if (strcmp(g->key, "privilege") == 0)
		return choose(g->value, "on", "off", &s->privilege);
	if (strcmp(g->key, "mode") == 0)
		return choose(g->value, "kernel", "user", &s->kernel_mode);
	if (strcmp(g->key, "K-QI-ALIGN") == 0)
		return choose(g->value, "checked", "none", &s->qi_align);
	if (strcmp(g->key, "K-QI-WRITE-FAULT") == 0)
		return choose(g->value, "exception", "success", &s->qi_fault_returned);
	return 0;
}

static void close_system(void *p)
{
	machine *s = p;
	ntprof_sim_fini(&s->sim);
	free(s);
}

static void *open_system(const ntprof_system_spec *spec, const char **why)
{
	*why = "this example is Windows 10 1809 on x64 only";
	if (strcmp(spec->version, "1809") != 0 || strcmp(spec->arch, "x64") != 0)
		return NULL;
	machine *s = calloc(1, sizeof *s);
	*why = "out of memory";
	if (!s || !ntprof_sim_init(&s->sim, spec->arch)) {
		free(s);
		return NULL;
	}
	s->time_interval = TIME_DEFAULT;
	for (unsigned i = 0; i < spec->ngiven; i++) {
		if (!apply(s, &spec->given[i])) {
			*why = "this example takes only privilege, mode, K-QI-ALIGN and K-QI-WRITE-FAULT";
			close_system(s);
			return NULL;
		}
	}
	return s;
}

/* SI-0, QI-0: 1809's NTDLL has both spellings, its kernel the Zw stubs
 * (from 1607), and a kernel-mode Nt step is a request from kernel mode. */
static int exported(void *p, const char *function)
{
	(void)p, (void)function;
	return 1;
}

static ntprof_result set_interval(void *p, const char *function, uint32_t interval, uint32_t source)
{
	machine *s = p;
	(void)function;                       /* Nt and Zw are one entry point */
#ifndef IMPL_MINIMAL_BUG
	if (!s->kernel_mode && !s->privilege) /* SI-1: from 6.2 */
		return ntprof_result_status(NTPROF_STATUS_PRIVILEGE_NOT_HELD);
#endif
	if (source == PROFILE_ALIGNMENT_FIXUP)    /* SI-3: kept exactly */
		s->alignment_fixup = interval;
	else if (source == PROFILE_TIME)          /* SI-4, HL-4: the HAL clamps */
		s->time_interval = interval < TIME_MIN ? TIME_MIN : interval > TIME_MAX ? TIME_MAX : interval;
	/* SI-2, HL-3: a source the Default HAL lacks changes nothing, and succeeds */
	return ntprof_result_status(NTPROF_STATUS_SUCCESS);
}

static ntprof_result query_interval(void *p, const char *function, uint32_t source, uint64_t interval)
{
	machine *s = p;
	ntprof_memory *mem = &s->sim.memory;
	(void)function;
	if (!s->kernel_mode) {                /* QI-1, QI-2: a user-mode pointer is probed */
		uint32_t status = ntprof_memory_probe_write(mem, interval, 4, s->qi_align ? 4 : 1);
		if (status != NTPROF_STATUS_SUCCESS)
			return ntprof_result_status(status);
	}
	uint32_t value = source == PROFILE_ALIGNMENT_FIXUP ? s->alignment_fixup /* QI-4 */
		       : source == PROFILE_TIME ? s->time_interval : 0;       /* QI-5 */
	uint32_t status = ntprof_memory_copy_out(mem, interval, &value, sizeof value);
	/* QI-3: a write that faults still returns success, unless the knob says otherwise */
	return ntprof_result_status(s->qi_fault_returned ? status : NTPROF_STATUS_SUCCESS);
}

static ntprof_impl table = {
	.abi = NTPROF_IMPL_ABI,
	.name = "impl-minimal",
	.open = open_system,
	.close = close_system,
	.exported = exported,
	.map = ntprof_sim_map,
	.read = ntprof_sim_read,
	.write = ntprof_sim_write,
	.poke = ntprof_sim_poke,
	.release = ntprof_sim_release,
	.open_process = ntprof_sim_open_process,
	.close_handle = ntprof_sim_close_handle,
	.duplicate_object = ntprof_sim_duplicate_object,
	.set_interval_profile = set_interval,
	.query_interval_profile = query_interval,
#if NTPROF_IMPL_ABI >= 2
	/* the two calls, and the states it takes beyond a live system's: the
	 * vectors needing them are then asked of it (ntprof/impl.h) */
	.implements = (const char *const[]){ "NtSetIntervalProfile", "NtQueryIntervalProfile",
					     "given:mode", "given:K-QI-ALIGN", "given:K-QI-WRITE-FAULT",
					     NULL },
	.emulates = "1809/x64",
	.protect = ntprof_sim_protect,   /* the page-protection vectors (AS-4) */
#endif
};

const ntprof_impl *ntprof_impl_entry(void)
{
	ntprof_impl_stub_missing(&table); /* the ABI needs every call: the rest answer not-applicable */
	return &table;
}
