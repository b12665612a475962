/* SPDX-License-Identifier: MIT */
/* A shared object for `ntprof run --backend dl:dl_nothing.so`: an
 * implementation that does nothing. It takes every state and answers every
 * call NOT_APPLICABLE, so no vector can disagree with it; the run must
 * still fail, saying nothing was exercised (conformance/cli/test_dl.sh). It
 * claims every function on every target, yet its table has none of the
 * situations between calls: a step needing one (Protect, ...) is not asked
 * of it. */
#include "run/impl_model.h"

#define EXPORT __attribute__((visibility("default")))

static ntprof_impl table;

static const ntprof_result nothing = { NTPROF_NOT_APPLICABLE, 0, "this implementation does nothing" };

static ntprof_result no_interval(void *sys, const char *fn, uint32_t a, uint32_t b)
{
	(void)sys, (void)fn, (void)a, (void)b;
	return nothing;
}

static ntprof_result no_query(void *sys, const char *fn, uint32_t a, uint64_t b)
{
	(void)sys, (void)fn, (void)a, (void)b;
	return nothing;
}

static ntprof_result no_create(void *sys, const char *fn, const ntprof_create_args *a)
{
	(void)sys, (void)fn, (void)a;
	return nothing;
}

static ntprof_result no_handle(void *sys, const char *fn, uint64_t h)
{
	(void)sys, (void)fn, (void)h;
	return nothing;
}

static ntprof_result no_duplicate(void *sys, const char *fn, uint64_t h, uint32_t a, uint64_t t)
{
	(void)sys, (void)fn, (void)h, (void)a, (void)t;
	return nothing;
}

static ntprof_result no_set_info(void *sys, const char *fn, uint32_t c, uint64_t b, uint32_t n)
{
	(void)sys, (void)fn, (void)c, (void)b, (void)n;
	return nothing;
}

static ntprof_result no_query_info(void *sys, const char *fn, uint32_t c, uint64_t b, uint32_t n,
				   uint64_t r)
{
	(void)sys, (void)fn, (void)c, (void)b, (void)n, (void)r;
	return nothing;
}

static ntprof_result no_trace_set(void *sys, uint64_t s, uint32_t c, uint64_t b, uint32_t n)
{
	(void)sys, (void)s, (void)c, (void)b, (void)n;
	return nothing;
}

static ntprof_result no_trace_query(void *sys, uint64_t s, uint32_t c, uint64_t b, uint32_t n,
				    uint64_t r)
{
	(void)sys, (void)s, (void)c, (void)b, (void)n, (void)r;
	return nothing;
}

/* It claims every entry point, so that each call reaches it. */
static int exports_all(void *sys, const char *function)
{
	(void)sys, (void)function;
	return 1;
}

EXPORT const ntprof_impl *ntprof_impl_entry(void)
{
	table = np_impl_model;   /* the memory and handles of the caller, as the model has them */
	table.name = "dl-nothing";
	table.exported = exports_all;
	table.set_interval_profile = no_interval;
	table.query_interval_profile = no_query;
	table.create_profile = no_create;
	table.create_profile_ex = no_create;
	table.start_profile = no_handle;
	table.stop_profile = no_handle;
	table.close_handle = no_handle;
	table.duplicate_object = no_duplicate;
	table.set_system_information = no_set_info;
	table.query_system_information = no_query_info;
	table.trace_set_information = no_trace_set;
	table.trace_query_information = no_trace_query;
	table.interrupts = NULL;
	table.set_cpus = NULL;
	table.set_interval_elsewhere = NULL;
	table.protect = NULL;
	return &table;
}
