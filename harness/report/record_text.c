/* SPDX-License-Identifier: MIT */
/* Canonical text of outcomes and records (the `ntprof call` line format). */
#include <stdio.h>
#include <string.h>

#include "ntprof/runner.h"
#include "ntprof/status.h"

void np_format_outcome(const np_outcome *o, char *buf, size_t cap)
{
	const char *name;
	switch (o->kind) {
	case NP_RESULT_STATUS:
		name = np_status_name(o->code);
		snprintf(buf, cap, "%s (0x%08X)", name ? name : "STATUS_?", o->code);
		break;
	case NP_RESULT_WIN32:
		name = np_win32_name(o->code);
		snprintf(buf, cap, "%s (%u)", name ? name : "ERROR_?", o->code);
		break;
	case NP_RESULT_FAULT:
		name = np_status_name(o->code);
		snprintf(buf, cap, "fault %s (0x%08X)", name ? name : "STATUS_?", o->code);
		break;
	case NP_RESULT_BUGCHECK:
		name = np_bugcheck_name(o->code);
		snprintf(buf, cap, "bugcheck %s (0x%08X)", name ? name : "?", o->code);
		break;
	case NP_RESULT_NOT_EXPORTED:   snprintf(buf, cap, "not-exported"); break;
	case NP_RESULT_NOT_APPLICABLE: snprintf(buf, cap, "not-applicable"); break;
	case NP_RESULT_STUB:           snprintf(buf, cap, "stub"); break;
	case NP_RESULT_CRASHED:        snprintf(buf, cap, "crashed"); break;
	case NP_RESULT_NONE:           snprintf(buf, cap, "done"); break;
	case NP_RESULT_CORRUPTION:     snprintf(buf, cap, "corruption"); break;
	}
}

void np_format_record(const char *function, const np_record *r, char *buf, size_t cap)
{
	char outcome[96];
	np_format_outcome(&r->outcome, outcome, sizeof outcome);
	size_t used = r->outcome.kind == NP_RESULT_NONE  /* a pseudo-step: out-values only */
			      ? (size_t)snprintf(buf, cap, "%s ->", function)
			      : (size_t)snprintf(buf, cap, "%s -> %s", function, outcome);
	if (r->why[0] && used < cap)
		used += (size_t)snprintf(buf + used, cap - used, " (%s)", r->why);
	for (unsigned i = 0; i < r->nout && used < cap; i++)
		used += (size_t)snprintf(buf + used, cap - used, " %s=%s", r->out[i].name, r->out[i].value);
}
