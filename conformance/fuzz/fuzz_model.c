/* SPDX-License-Identifier: MIT */
/* libFuzzer: the model's entry points with arbitrary arguments on arbitrary
 * machines, through the interpreter that runs every vector
 * (np_backend_model_new: symbolic pointers become mapped memory, captured
 * handles and buffers carry from step to step).
 *
 * The input is decoded, not parsed: its bytes choose a target (version and
 * architecture), up to eight `given` settings (fixtures/README.md, Given
 * keys: any key with a value of its own kind, a knob's values, or a number)
 * and up to sixteen steps, each a function of the catalog with every
 * argument either omitted (when it has a fallback) or chosen by its kind:
 * numbers near the boundaries or raw, pointer and handle symbols, captured
 * names, group lists. The text goes through the same parsers as a vector's
 * (np_parse_given_pair, np_parse_step, np_captures_check) and what they
 * refuse is skipped, so every call made is one a vector could make.
 *
 * The model's own consistency checks abort (an internal inconsistency is a
 * model bug, never an outcome); the sanitizers catch the rest.
 * Seeds: conformance/fuzz/model/ (raw bytes; any bytes decode). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vectors/catalog.h"
#include "ntprof/configure.h"
#include "ntprof/runner.h"
#include "ntprof/backend.h"
#include "ntprof/vector.h"
#include "ntprof/version.h"

#define FUZZER "fuzz_model"
#include "fuzz_support.h"

#define MAX_GIVEN 8
#define MAX_STEPS 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *pick(input *in, const char *const *list, unsigned n)
{
	return list[byte(in) % n];
}

#define PICK(in, list) pick((in), (list), sizeof (list) / sizeof *(list))

/* Numbers where the rules change: sizes, shifts, version-dependent limits. */
static const uint64_t edges[] = {
	0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 65, 255, 256, 0x1000, 0x1001, 0xFFFF, 0x10000,
	0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF, 0x100000000, 0x7FFFFFFFFFFFFFFF,
	0x8000000000000000, 0xFFFFFFFFFFFFFFFF, 0x10000000, 0x7FFE0000, 0xFFFF800000000000,
};

static uint64_t number(input *in)
{
	unsigned how = byte(in);
	switch (how % 4) {
	case 0: return edges[byte(in) % (sizeof edges / sizeof *edges)];
	case 1: return byte(in);
	case 2: return raw(in, 4);
	default: return raw(in, 8);
	}
}

static const char *const keys[] = {
	"privilege", "tracing", "mode", "integrity", "cpus", "cpu", "hal", "errata", "alloc",
	"pebs", "cpu1.pebs", "vendor", "cpu0.vendor", "misc_enable", "cpu2.misc_enable",
	"cpuid1_ecx", "cpu0.cpuid1_ecx", "groups", "group", "started-elsewhere",
	"hal.ProfileTime.supported", "hal.ProfileTime.min", "hal.ProfileTime.max",
	"hal.ProfileTime.default", "hal.ProfileTotalIssues.supported", "hal.2.max",
};

static const char *const words[] = {
	"on", "off", "late", "user", "kernel", "low", "medium", "high", "default", "emon", "amd64",
	"fail", "ok", "intel", "amd", "other",
};

/* One `given KEY=VALUE` into text. */
static void given_text(input *in, char *text, size_t cap)
{
	unsigned nknob;
	const np_knob_info *knob = np_knob_table(&nknob);
	unsigned k = byte(in);
	if (k & 1) {
		const np_knob_info *ki = &knob[(k >> 1) % nknob];
		const char *v = ki->values[byte(in) % 4];
		snprintf(text, cap, "%s=%s", ki->name, v ? v : "1703..11");
		return;
	}
	const char *key = keys[(k >> 1) % (sizeof keys / sizeof *keys)];
	if (byte(in) & 1)
		snprintf(text, cap, "%s=%s", key, PICK(in, words));
	else
		snprintf(text, cap, "%s=%" PRIu64, key, number(in));
}

static const char *const pointers[] = {
	"user", "null", "misaligned", "readonly", "unmapped", "kernel", "vanishing",
};
static const char *const handles[] = {
	"null", "current", "thread", "invalid", "other", "noquery", "h", "g",
};
static const char *const sources[] = {
	"ProfileTime", "ProfileAlignmentFixup", "ProfileTotalIssues", "ProfileCacheMisses",
	"ProfileBranchInstructions", "ProfileMaximum",
};

/* An argument's value, chosen by its kind. */
static void value_text(input *in, const np_param *p, char *text, size_t cap)
{
	unsigned how = byte(in);
	switch (p->kind) {
	case NP_PARAM_U32:
	case NP_PARAM_BYTE:
		if (how % 8 == 0 && p->fallback && strcmp(p->fallback, "auto") == 0)
			snprintf(text, cap, "auto");
		else if (how % 8 < 4)
			snprintf(text, cap, "%" PRIu64, number(in) & (p->kind == NP_PARAM_BYTE ? 0xFF : 0xFFFFFFFF));
		else
			snprintf(text, cap, "0x%" PRIX64, number(in) & (p->kind == NP_PARAM_BYTE ? 0xFF : 0xFFFFFFFF));
		return;
	case NP_PARAM_U64:
		snprintf(text, cap, "0x%" PRIx64, number(in));
		return;
	case NP_PARAM_SOURCE:
		if (how & 1)
			snprintf(text, cap, "%s", PICK(in, sources));
		else
			snprintf(text, cap, "%" PRIu64, how & 2 ? byte(in) % 32 : number(in) & 0xFFFFFFFF);
		return;
	case NP_PARAM_POINTER:
		if (how % 4)
			snprintf(text, cap, "%s", PICK(in, pointers));
		else
			snprintf(text, cap, "0x%" PRIx64, number(in));
		return;
	case NP_PARAM_OUT_HANDLE:
		if (how % 3 == 0)
			snprintf(text, cap, "%s", how & 4 ? ">h" : ">g");
		else
			snprintf(text, cap, "%s", PICK(in, pointers));
		return;
	case NP_PARAM_BUFFER:
		if (how % 4 == 0)
			snprintf(text, cap, "%s", how & 4 ? ">b" : ">c");
		else if (how % 4 == 1)
			snprintf(text, cap, "%s", how & 4 ? "b" : "c");
		else
			snprintf(text, cap, "%s", PICK(in, pointers));
		return;
	case NP_PARAM_HANDLE:
		if (how % 4)
			snprintf(text, cap, "%s", PICK(in, handles));
		else
			snprintf(text, cap, "%" PRIu64, number(in));
		return;
	case NP_PARAM_AFFINITY:
		if (how % 2)
			snprintf(text, cap, "all");
		else
			snprintf(text, cap, "0x%" PRIx64, number(in));
		return;
	case NP_PARAM_GROUPS: {
		unsigned n = how % 4;
		size_t used = (size_t)snprintf(text, cap, n ? "" : "none");
		for (unsigned i = 0; i < n && used < cap; i++) {
			unsigned g = byte(in) % 6;
			uint64_t mask = number(in);
			unsigned reserved = byte(in);
			used += (size_t)snprintf(text + used, cap - used, reserved % 4 ? "%s%u:0x%" PRIx64 : "%s%u:0x%" PRIx64 ":%u",
						 i ? "," : "", g, mask, reserved / 4);
		}
		return;
	}
	case NP_PARAM_CAPTURED:
		snprintf(text, cap, "%s", how & 1 ? "b" : "c");
		return;
	case NP_PARAM_CHOICE: {
		/* the (how % count)-th word of "a|b|c" */
		const char *c = p->choices;
		unsigned count = 1;
		for (const char *q = c; *q; q++)
			count += *q == '|';
		for (unsigned i = how % count; i > 0; i--)
			c = strchr(c, '|') + 1;
		size_t len = strcspn(c, "|");
		snprintf(text, cap, "%.*s", (int)len, c);
		return;
	}
	}
}

/* One step's line: FUNCTION Name=Value ... */
static void step_text(input *in, char *text, size_t cap)
{
	unsigned nfn = 0;
	while (np_function_at(nfn))
		nfn++;
	const np_function *f = np_function_at(byte(in) % nfn);
	size_t used = (size_t)snprintf(text, cap, "%s", f->name);
	for (const np_param *p = f->param; p->name && used < cap; p++) {
		char value[NP_TEXT_MAX];
		if (p->fallback && byte(in) % 3 == 0)
			continue;   /* omitted: its fallback */
		value_text(in, p, value, sizeof value);
		used += (size_t)snprintf(text + used, cap - used, " %s=%s", p->name, value);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static np_target_list targets;
	static np_backend *model;
	if (!model) {
		np_targets_all(&targets);
		if (!(model = np_backend_model_new()))
			abort();
	}
	input in = { data, size, 0 };
	static np_vector v;
	static np_step steps[MAX_STEPS];
	memset(&v, 0, sizeof v);
	np_target t = targets.t[raw(&in, 2) % targets.count];

	for (unsigned i = byte(&in) % (MAX_GIVEN + 1); i > 0; i--) {
		char text[NP_TEXT_MAX * 2];
		given_text(&in, text, sizeof text);
		if (!np_parse_given_pair(text, &v.given[v.ngiven]))
			v.ngiven++;
	}
	unsigned nsteps = 0;
	for (unsigned i = byte(&in) % MAX_STEPS + 1; i > 0; i--) {
		char text[NP_MAX_ARGS * (NP_NAME_MAX + NP_TEXT_MAX + 2) + NP_NAME_MAX];
		step_text(&in, text, sizeof text);
		if (!np_parse_step(text, &steps[nsteps]) && !np_captures_check(steps, nsteps, &steps[nsteps]))
			nsteps++;
	}
	v.step = steps;
	v.nstep = nsteps;

	/* NTPROF_FUZZ_TRACE=1: the input as the `ntprof call` that repeats it */
	static int trace = -1;
	if (trace < 0)
		trace = getenv("NTPROF_FUZZ_TRACE") != NULL;
	if (trace) {
		fprintf(stderr, "ntprof call --target %s/%s", np_version_key(t.version), np_arch_name(t.arch));
		for (unsigned i = 0; i < v.ngiven; i++)
			fprintf(stderr, " --given '%s=%s'", v.given[i].name, v.given[i].value);
		for (unsigned i = 0; i < nsteps; i++) {
			fprintf(stderr, " \\\n    '%s", steps[i].function);
			for (unsigned j = 0; j < steps[i].narg; j++)
				fprintf(stderr, " %s=%s", steps[i].arg[j].name, steps[i].arg[j].value);
			fprintf(stderr, "'");
		}
		fprintf(stderr, "\n");
	}
	const char *why = model->begin(model, t, &v);
	if (!why) {
		for (unsigned i = 0; i < nsteps; i++) {
			np_record rec;
			char line[2048];
			model->step(model, &steps[i], &rec);
			np_format_record(steps[i].function, &rec, line, sizeof line);
			if (trace)
				fprintf(stderr, "#   %s\n", line);
		}
	} else if (trace) {
		fprintf(stderr, "#   not applicable: %s\n", why);
	}
	model->end(model);
	return 0;
}
