/* SPDX-License-Identifier: MIT */
/* The rows of `make bench`: each function of the model on 1809/x64 on a
 * fast failure path (the first check it makes) and on success, and the
 * machine they run on. */
#define _GNU_SOURCE   /* syscall() */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"
#include "ntprof/configure.h"
#include "ntprof/status.h"

/* A pair of calls ends in the first one's outcome that is not success. */
static np_result first_failure(np_result a, np_result b)
{
	return a.code != 0 || a.kind > NP_RESULT_WIN32 ? a : b;
}

np_result bench_syscall(ctx *c)
{
	(void)c;
	return (np_result){ NP_RESULT_STATUS, (uint32_t)syscall(SYS_getppid), NULL };   /* never checked */
}

/* NtSetIntervalProfile: without the privilege from 6.2 (SI-1); with it. */
static np_result op_set_fail(ctx *c)
{
	c->m->profile_privilege = false;
	return np_nt_set_interval_profile(c->m, 10000, NP_PROFILE_TIME);
}

static np_result op_set_ok(ctx *c)
{
	c->m->profile_privilege = true;
	return np_nt_set_interval_profile(c->m, 10000, NP_PROFILE_TIME);
}

/* NtQueryIntervalProfile: Interval at the first kernel-mode address (QI-1); a good one. */
static np_result op_query_fail(ctx *c)
{
	return np_nt_query_interval_profile(c->m, NP_PROFILE_TIME, np_user_probe_address(c->m));
}

static np_result op_query_ok(ctx *c)
{
	return np_nt_query_interval_profile(c->m, NP_PROFILE_TIME, INFO_AT);
}

/* NtCreateProfile(Ex): a bucket of 2 bytes (CP-7); a profile, closed again. */
static np_result op_create_fail(ctx *c)
{
	return np_nt_create_profile(c->m, &c->bad);
}

static np_result close_created(ctx *c, np_result r)
{
	uint64_t h = 0;
	if (r.kind != NP_RESULT_STATUS || r.code != NP_STATUS_SUCCESS)
		return r;
	np_mem_read(c->m, HANDLE_AT, &h, sizeof h);
	return np_nt_close(c->m, h);
}

static np_result op_create_ok(ctx *c)
{
	return close_created(c, np_nt_create_profile(c->m, &c->create));
}

static np_result op_create_ex_fail(ctx *c)
{
	return np_nt_create_profile_ex(c->m, &c->bad);
}

static np_result op_create_ex_ok(ctx *c)
{
	/* GroupCount 0, no array: every active processor (CP-15) */
	return close_created(c, np_nt_create_profile_ex(c->m, &c->create));
}

/* NtStartProfile / NtStopProfile: a handle that names nothing; start then stop. */
static np_result op_start_fail(ctx *c)
{
	return np_nt_start_profile(c->m, 0x7FF0);
}

static np_result op_start_stop(ctx *c)
{
	np_result start = np_nt_start_profile(c->m, c->stopped);   /* first: arguments have no order */
	return first_failure(start, np_nt_stop_profile(c->m, c->stopped));
}

static np_result op_stop_fail(ctx *c)
{
	return np_nt_stop_profile(c->m, c->stopped);   /* not started (SP-2) */
}

static np_result op_close_fail(ctx *c)
{
	return np_nt_close(c->m, 0x7FF0);
}

/* NtSetSystemInformation class 0x81: a misaligned buffer, the first check
 * (SY-1); a kernel-mode caller allocates the area and frees it again. */
static np_result op_ppca_fail(ctx *c)
{
	return np_nt_set_system_information(c->m, NP_SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA, INFO_AT + 2, 16);
}

static np_result op_ppca_ok(ctx *c)
{
	uint8_t yes = 1, no = 0;
	c->m->previous_mode = NP_MODE_KERNEL;
	np_mem_poke(c->m, INFO_AT + 8, &yes, 1);
	np_result r = np_nt_set_system_information(c->m, NP_SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA, INFO_AT, 16);
	np_mem_poke(c->m, INFO_AT + 8, &no, 1);
	np_result freed = np_nt_set_system_information(c->m, NP_SYSTEM_PROCESSOR_PROFILE_CONTROL_AREA, INFO_AT, 16);
	r = first_failure(r, freed);
	c->m->previous_mode = NP_MODE_USER;
	return r;
}

/* NtQuerySystemInformation: a misaligned buffer, the first check (SY-1);
 * class 0x1F sub-class 3 reports the ProfileTime interval (SY-23). */
static np_result op_sysinfo_query_fail(ctx *c)
{
	return np_nt_query_system_information(c->m, NP_SYSTEM_PERFORMANCE_TRACE_INFORMATION, INFO_AT + 2,
					      NP_EVENT_TRACE_TIME_PROFILE_SIZE, RETLEN_AT);
}

static np_result op_sysinfo_query_ok(ctx *c)
{
	uint32_t cls = NP_EVENT_TRACE_TIME_PROFILE_INFORMATION;
	np_mem_poke(c->m, INFO_AT, &cls, sizeof cls);
	return np_nt_query_system_information(c->m, NP_SYSTEM_PERFORMANCE_TRACE_INFORMATION, INFO_AT,
					      NP_EVENT_TRACE_TIME_PROFILE_SIZE, RETLEN_AT);
}

/* TraceSetInformation / TraceQueryInformation class 5: a session handle
 * other than 0 (TR-2); the ProfileTime interval set and read. */
static np_result op_trace_set_fail(ctx *c)
{
	return np_trace_set_information(c->m, 1, NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO, INFO_AT, 8);
}

static np_result op_trace_set_ok(ctx *c)
{
	uint32_t in[2] = { NP_PROFILE_TIME, 10000 };
	np_mem_poke(c->m, INFO_AT, in, sizeof in);
	c->m->profile_privilege = true;
	return np_trace_set_information(c->m, 0, NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO, INFO_AT, 8);
}

static np_result op_trace_query_fail(ctx *c)
{
	return np_trace_query_information(c->m, 1, NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO, INFO_AT, 8, RETLEN_AT);
}

static np_result op_trace_query_ok(ctx *c)
{
	uint32_t in[2] = { NP_PROFILE_TIME, 0 };
	np_mem_poke(c->m, INFO_AT, in, sizeof in);
	return np_trace_query_information(c->m, 0, NP_TRACE_SAMPLED_PROFILE_INTERVAL_INFO, INFO_AT, 8, RETLEN_AT);
}

#define ST NP_RESULT_STATUS
#define W32 NP_RESULT_WIN32
#define SUCCEEDS(kind) kind, 0
const row bench_rows[] = {
	{ "NtSetIntervalProfile", "failure", "no privilege (SI-1)", op_set_fail, ST, NP_STATUS_PRIVILEGE_NOT_HELD },
	{ "NtSetIntervalProfile", "success", "", op_set_ok, SUCCEEDS(ST) },
	{ "NtQueryIntervalProfile", "failure", "kernel Interval (QI-1)", op_query_fail, ST, NP_STATUS_ACCESS_VIOLATION },
	{ "NtQueryIntervalProfile", "success", "", op_query_ok, SUCCEEDS(ST) },
	{ "NtCreateProfile", "failure", "2-byte bucket (CP-7)", op_create_fail, ST, NP_STATUS_INVALID_PARAMETER },
	{ "NtCreateProfile", "success", "+ NtClose", op_create_ok, SUCCEEDS(ST) },
	{ "NtCreateProfileEx", "failure", "2-byte bucket (CP-7)", op_create_ex_fail, ST, NP_STATUS_INVALID_PARAMETER },
	{ "NtCreateProfileEx", "success", "+ NtClose", op_create_ex_ok, SUCCEEDS(ST) },
	{ "NtStartProfile", "failure", "no such handle", op_start_fail, ST, NP_STATUS_INVALID_HANDLE },
	{ "NtStartProfile", "success", "+ NtStopProfile", op_start_stop, SUCCEEDS(ST) },
	{ "NtStopProfile", "failure", "not started (SP-2)", op_stop_fail, ST, NP_STATUS_PROFILING_NOT_STARTED },
	{ "NtClose", "failure", "no such handle", op_close_fail, ST, NP_STATUS_INVALID_HANDLE },
	{ "NtSetSystemInformation", "failure", "misaligned (SY-1)", op_ppca_fail, ST, NP_STATUS_DATATYPE_MISALIGNMENT },
	{ "NtSetSystemInformation", "success", "0x81 alloc + free", op_ppca_ok, SUCCEEDS(ST) },
	{ "NtQuerySystemInformation", "failure", "misaligned (SY-1)", op_sysinfo_query_fail, ST,
	  NP_STATUS_DATATYPE_MISALIGNMENT },
	{ "NtQuerySystemInformation", "success", "0x1F/3 (SY-23)", op_sysinfo_query_ok, SUCCEEDS(ST) },
	{ "TraceSetInformation", "failure", "session 1 (TR-2)", op_trace_set_fail, W32, NP_ERROR_INVALID_PARAMETER },
	{ "TraceSetInformation", "success", "", op_trace_set_ok, SUCCEEDS(W32) },
	{ "TraceQueryInformation", "failure", "session 1 (TR-2)", op_trace_query_fail, W32, NP_ERROR_INVALID_PARAMETER },
	{ "TraceQueryInformation", "success", "", op_trace_query_ok, SUCCEEDS(W32) },
};
const size_t bench_nrows = sizeof bench_rows / sizeof *bench_rows;

const char *bench_outcome(np_result r, char *buf, size_t cap)
{
	const char *name = r.kind == NP_RESULT_STATUS ? np_status_name(r.code)
		: r.kind == NP_RESULT_WIN32 ? np_win32_name(r.code) : NULL;
	if (name)
		snprintf(buf, cap, "%s", name);
	else
		snprintf(buf, cap, "kind %u, 0x%08X", (unsigned)r.kind, r.code);
	return buf;
}

static bool create_one(ctx *c, uint64_t *h)
{
	np_result r = np_nt_create_profile(c->m, &c->create);
	return r.kind == NP_RESULT_STATUS && r.code == NP_STATUS_SUCCESS && np_mem_read(c->m, HANDLE_AT, h, sizeof *h);
}

/* Applies KEY=VALUE settings as a vector's given line does. */
static bool configure(np_machine *m, const char *const *given, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		char key[64];
		const char *eq = strchr(given[i], '=');
		if (!eq || (size_t)(eq - given[i]) >= sizeof key) {
			fprintf(stderr, "ntprof bench: --given %s: want KEY=VALUE\n", given[i]);
			return false;
		}
		snprintf(key, sizeof key, "%.*s", (int)(eq - given[i]), given[i]);
		np_config_error e = np_machine_configure(m, key, eq + 1, NULL);
		if (e) {
			fprintf(stderr, "ntprof bench: --given %s: %s\n", given[i], e);
			return false;
		}
	}
	return true;
}

bool bench_setup(ctx *c, const char *const *given, unsigned ngiven)
{
	c->m = malloc(sizeof *c->m);
	if (!c->m || np_machine_init(c->m, NP_V1809, NP_X64) ||
	    np_mem_map(c->m, BASE, MAPPED, NP_PROT_READ | NP_PROT_WRITE, 0, 0)) {
		fprintf(stderr, "ntprof bench: cannot set up the machine\n");
		return false;
	}
	if (!configure(c->m, given, ngiven))
		return false;
	c->create = (np_create_profile_args){
		.profile_handle = HANDLE_AT, .process = NP_HANDLE_CURRENT_PROCESS, .profile_base = CODE_BASE,
		.profile_size = CODE_SIZE, .bucket_size = SHIFT, .buffer = BASE, .buffer_size = COUNTERS * 4,
		.source = NP_PROFILE_TIME, .affinity = 1, .group_count = 0, .affinity_array = 0,
	};
	c->bad = c->create;
	c->bad.bucket_size = 1;
	c->m->profile_privilege = true;
	np_result r = { NP_RESULT_STATUS, 0, NULL };
	if (!create_one(c, &c->stopped) || !create_one(c, &c->started) ||
	    (r = np_nt_start_profile(c->m, c->started)).code != NP_STATUS_SUCCESS) {
		fprintf(stderr, "ntprof bench: cannot create and start the profiles (status 0x%08X)\n", r.code);
		return false;
	}
	c->base = CODE_BASE;
	c->shift = SHIFT;
	uint64_t x = 0x9E3779B97F4A7C15ull;   /* xorshift: pcs spread over the region */
	for (unsigned i = 0; i < NPC; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		c->pc[i] = CODE_BASE + x % CODE_SIZE;
	}
	return true;
}

void bench_teardown(ctx *c)
{
	if (c->m)
		np_machine_fini(c->m);
	free(c->m);
	c->m = NULL;
}
