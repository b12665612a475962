/* SPDX-License-Identifier: MIT */
/* The step catalog: the calls of SPEC.md §SI, §QI, §TR, §CP, §ST, §SP and
 * §SY, the object-manager calls around profiles (MC-5) and the pseudo-steps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vectors/catalog.h"
#include "ntprof/names.h"

#define PROFILE_OBJECT_PARAMS \
		{ "ProfileHandle", NULL, NP_PARAM_OUT_HANDLE, "user", NULL }, \
		{ "Process", NULL, NP_PARAM_HANDLE, "null", NULL }, \
		{ "ProfileBase", NULL, NP_PARAM_U64, NULL, NULL }, \
		{ "ProfileSize", NULL, NP_PARAM_U64, NULL, NULL }, \
		{ "BucketSize", NULL, NP_PARAM_U32, NULL, NULL }, \
		{ "Buffer", NULL, NP_PARAM_BUFFER, "user", NULL }, \
		{ "BufferSize", NULL, NP_PARAM_U32, NULL, NULL }, \
		{ "Source", "ProfileSource", NP_PARAM_SOURCE, "ProfileTime", NULL }

static const np_function functions[] = {
	{ NP_FN_SET_INTERVAL, "NtSetIntervalProfile", "ZwSetIntervalProfile", {
		{ "Interval", NULL, NP_PARAM_U32, NULL, NULL },
		{ "Source", "ProfileSource", NP_PARAM_SOURCE, "ProfileTime", NULL } }, NP_KIND_NATIVE },
	{ NP_FN_QUERY_INTERVAL, "NtQueryIntervalProfile", "ZwQueryIntervalProfile", {
		{ "Source", "ProfileSource", NP_PARAM_SOURCE, "ProfileTime", NULL },
		{ "Interval", NULL, NP_PARAM_POINTER, "user", NULL } }, NP_KIND_NATIVE },
	{ NP_FN_TRACE_SET, "TraceSetInformation", NULL, {
		{ "SessionHandle", NULL, NP_PARAM_U64, "0", NULL },
		{ "InformationClass", NULL, NP_PARAM_U32, "5", NULL },
		{ "Source", NULL, NP_PARAM_SOURCE, "ProfileTime", NULL },
		{ "Interval", NULL, NP_PARAM_U32, "0", NULL },
		{ "InformationLength", NULL, NP_PARAM_U32, "8", NULL } }, NP_KIND_WIN32 },
	{ NP_FN_TRACE_QUERY, "TraceQueryInformation", NULL, {
		{ "SessionHandle", NULL, NP_PARAM_U64, "0", NULL },
		{ "InformationClass", NULL, NP_PARAM_U32, "5", NULL },
		{ "Source", NULL, NP_PARAM_SOURCE, "ProfileTime", NULL },
		/* "auto": 8 for class 5, the whole buffer (0x10000) otherwise */
		{ "InformationLength", NULL, NP_PARAM_U32, "auto", NULL },
		{ "TraceInformation", NULL, NP_PARAM_POINTER, "user", NULL },
		{ "ReturnLength", NULL, NP_PARAM_POINTER, "user", NULL } }, NP_KIND_WIN32 },
	{ NP_FN_READ_EVENTS, "ReadEvents", NULL, { { NULL, NULL, 0, NULL, NULL } }, NP_KIND_MODEL },
	/* CP-0: the 9-argument form (3.51 on); on 3.10/3.50 Source and Affinity
	 * must keep their defaults */
	{ NP_FN_CREATE_PROFILE, "NtCreateProfile", "ZwCreateProfile", {
		PROFILE_OBJECT_PARAMS,
		{ "Affinity", NULL, NP_PARAM_AFFINITY, "all", NULL } }, NP_KIND_NATIVE },
	{ NP_FN_CREATE_PROFILE_EX, "NtCreateProfileEx", "ZwCreateProfileEx", {
		PROFILE_OBJECT_PARAMS,
		/* "auto": the number of elements in Groups */
		{ "GroupCount", NULL, NP_PARAM_U32, "auto", NULL },
		{ "AffinityArray", NULL, NP_PARAM_POINTER, "user", NULL },
		{ "Groups", NULL, NP_PARAM_GROUPS, "none", NULL } }, NP_KIND_NATIVE },
	{ NP_FN_START_PROFILE, "NtStartProfile", "ZwStartProfile", {
		{ "ProfileHandle", NULL, NP_PARAM_HANDLE, NULL, NULL } }, NP_KIND_NATIVE },
	{ NP_FN_STOP_PROFILE, "NtStopProfile", "ZwStopProfile", {
		{ "ProfileHandle", NULL, NP_PARAM_HANDLE, NULL, NULL } }, NP_KIND_NATIVE },
	{ NP_FN_CLOSE, "NtClose", "ZwClose", {
		{ "Handle", NULL, NP_PARAM_HANDLE, NULL, NULL } }, NP_KIND_PSEUDO },
	{ NP_FN_DUPLICATE_OBJECT, "NtDuplicateObject", "ZwDuplicateObject", {
		{ "SourceHandle", NULL, NP_PARAM_HANDLE, NULL, NULL },
		{ "DesiredAccess", NULL, NP_PARAM_U32, "0", NULL },
		{ "TargetHandle", NULL, NP_PARAM_OUT_HANDLE, NULL, NULL } }, NP_KIND_PSEUDO },
	{ NP_FN_INTERRUPT, "Interrupt", NULL, {
		{ "Source", "ProfileSource", NP_PARAM_SOURCE, "ProfileTime", NULL },
		{ "Pc", NULL, NP_PARAM_U64, NULL, NULL },
		{ "Cpu", NULL, NP_PARAM_U32, "0", NULL },
		{ "Group", NULL, NP_PARAM_U32, "0", NULL },
		{ "Process", NULL, NP_PARAM_CHOICE, "current", "current|other" } }, NP_KIND_MODEL },
	/* Count interrupts alike but for their pcs, Pc, Pc+Step, Pc+2*Step, ...
	 * (modulo 2^64), delivered at once: the run the counting fast path of
	 * np_profile_interrupts takes (IN-3 to IN-7) */
	{ NP_FN_INTERRUPTS, "Interrupts", NULL, {
		{ "Source", "ProfileSource", NP_PARAM_SOURCE, "ProfileTime", NULL },
		{ "Pc", NULL, NP_PARAM_U64, NULL, NULL },
		{ "Step", NULL, NP_PARAM_U64, "1", NULL },
		{ "Count", NULL, NP_PARAM_U32, NULL, NULL },   /* at most NP_MAX_RUN */
		{ "Cpu", NULL, NP_PARAM_U32, "0", NULL },
		{ "Group", NULL, NP_PARAM_U32, "0", NULL },
		{ "Process", NULL, NP_PARAM_CHOICE, "current", "current|other" } }, NP_KIND_MODEL },
	{ NP_FN_READ_BUFFER, "ReadBuffer", NULL, {
		{ "Buffer", NULL, NP_PARAM_CAPTURED, NULL, NULL },
		/* "auto": the whole counters of the buffer (BufferSize / 4) */
		{ "Count", NULL, NP_PARAM_U32, "auto", NULL } }, NP_KIND_PSEUDO },
	{ NP_FN_WRITE_BUFFER, "WriteBuffer", NULL, {
		{ "Buffer", NULL, NP_PARAM_CAPTURED, NULL, NULL },
		{ "Index", NULL, NP_PARAM_U32, NULL, NULL },
		{ "Value", NULL, NP_PARAM_U32, NULL, NULL } }, NP_KIND_PSEUDO },
	{ NP_FN_FREE_BUFFER, "FreeBuffer", NULL, {
		{ "Buffer", NULL, NP_PARAM_CAPTURED, NULL, NULL } }, NP_KIND_PSEUDO },
	{ NP_FN_INJECT, "Inject", NULL, {
		{ "What", NULL, NP_PARAM_CHOICE, NULL, "alloc|lock|map" } }, NP_KIND_MODEL },
	/* SY-*: "auto" length is the structure the class wants (fixtures/README.md) */
	{ NP_FN_SET_SYSINFO, "NtSetSystemInformation", "ZwSetSystemInformation", {
		{ "InformationClass", "SystemInformationClass", NP_PARAM_U32, "0x81", NULL },
		{ "Allocate", NULL, NP_PARAM_BYTE, "1", NULL },
		{ "EventTraceClass", NULL, NP_PARAM_U32, "3", NULL },
		{ "ProfileInterval", NULL, NP_PARAM_U32, "0", NULL },
		{ "SystemInformation", NULL, NP_PARAM_POINTER, "user", NULL },
		{ "SystemInformationLength", NULL, NP_PARAM_U32, "auto", NULL } }, NP_KIND_SYSINFO },
	{ NP_FN_QUERY_SYSINFO, "NtQuerySystemInformation", "ZwQuerySystemInformation", {
		{ "InformationClass", "SystemInformationClass", NP_PARAM_U32, "0x81", NULL },
		{ "EventTraceClass", NULL, NP_PARAM_U32, "3", NULL },
		{ "SystemInformation", NULL, NP_PARAM_POINTER, "user", NULL },
		{ "SystemInformationLength", NULL, NP_PARAM_U32, "auto", NULL },
		{ "ReturnLength", NULL, NP_PARAM_POINTER, "user", NULL } }, NP_KIND_SYSINFO },
	/* SY-15: the scheduler moves the calling thread (model only) */
	{ NP_FN_MOVE_THREAD, "MoveThread", NULL, {
		{ "Cpu", NULL, NP_PARAM_U32, NULL, NULL } }, NP_KIND_MODEL },
	/* MC-7: processors become active or inactive between calls (model only) */
	{ NP_FN_SET_CPUS, "SetCpus", NULL, {
		{ "Count", NULL, NP_PARAM_U32, NULL, NULL } }, NP_KIND_MODEL },
	/* MC-8: another privileged process sets a global interval (model only) */
	{ NP_FN_SET_INTERVAL_ELSEWHERE, "SetIntervalElsewhere", NULL, {
		{ "Interval", NULL, NP_PARAM_U32, NULL, NULL },
		{ "Source", "ProfileSource", NP_PARAM_SOURCE, "ProfileTime", NULL } }, NP_KIND_MODEL },
	/* AS-4: the caller protects Count pages of a captured buffer from page Page */
	{ NP_FN_PROTECT, "Protect", NULL, {
		{ "Buffer", NULL, NP_PARAM_CAPTURED, NULL, NULL },
		{ "Page", NULL, NP_PARAM_U32, "0", NULL },
		{ "Count", NULL, NP_PARAM_U32, "1", NULL },
		{ "Access", NULL, NP_PARAM_CHOICE, NULL, "none|readonly" } }, NP_KIND_PSEUDO },
};

const np_function *np_function_find(const char *name)
{
	for (size_t i = 0; i < sizeof functions / sizeof *functions; i++) {
		const np_function *f = &functions[i];
		if (strcmp(name, f->name) == 0 || (f->alias && strcmp(name, f->alias) == 0))
			return f;
	}
	return NULL;
}

const np_function *np_function_at(unsigned i)
{
	return i < sizeof functions / sizeof *functions ? &functions[i] : NULL;
}

bool np_function_is_call(const np_function *f)
{
	return f->kind == NP_KIND_NATIVE || f->kind == NP_KIND_WIN32 || f->kind == NP_KIND_SYSINFO;
}

/* The first letters tell most names apart: the interpreter looks up every
 * argument of every step by name, and whole comparisons were a tenth of a
 * sweep (perf: strcmp). */
static bool same_name(const char *name, const char *candidate)
{
	return candidate && name[0] == candidate[0] && strcmp(name, candidate) == 0;
}

const np_param *np_param_find(const np_function *f, const char *name)
{
	for (const np_param *p = f->param; p->name; p++)
		if (same_name(name, p->name) || same_name(name, p->alias))
			return p;
	return NULL;
}

bool np_pointer_parse(const char *text, np_pointer_kind *kind, uint64_t *number)
{
	static const struct { const char *name; np_pointer_kind kind; } symbols[] = {
		{ "user", NP_PTR_USER }, { "null", NP_PTR_NULL }, { "misaligned", NP_PTR_MISALIGNED },
		{ "readonly", NP_PTR_READONLY }, { "unmapped", NP_PTR_UNMAPPED },
		{ "kernel", NP_PTR_KERNEL }, { "vanishing", NP_PTR_VANISHING },
	};
	for (size_t i = 0; i < sizeof symbols / sizeof *symbols; i++) {
		if (strcmp(text, symbols[i].name) == 0) {
			*kind = symbols[i].kind;
			*number = 0;
			return true;
		}
	}
	*kind = NP_PTR_NUMBER;
	return np_number_parse(text, number);
}

np_handle_kind np_handle_parse(const char *text, uint64_t *number)
{
	static const struct { const char *name; np_handle_kind kind; } symbols[] = {
		{ "null", NP_HANDLE_NULL }, { "current", NP_HANDLE_CURRENT },
		{ "thread", NP_HANDLE_THREAD }, { "invalid", NP_HANDLE_INVALID },
		{ "other", NP_HANDLE_OTHER }, { "noquery", NP_HANDLE_NOQUERY },
	};
	*number = 0;
	for (size_t i = 0; i < sizeof symbols / sizeof *symbols; i++)
		if (strcmp(text, symbols[i].name) == 0)
			return symbols[i].kind;
	if (np_number_parse(text, number))
		return NP_HANDLE_NUMBER;
	return NP_HANDLE_NAME;
}

bool np_capture_name_ok(const char *name)
{
	static const char *const reserved[] = {
		"user", "null", "misaligned", "readonly", "unmapped", "kernel", "vanishing",
		"current", "thread", "invalid", "other", "noquery", "all", "none", "auto",
	};
	if (*name < 'a' || *name > 'z')
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
		if (strcmp(name, reserved[i]) == 0)
			return false;
	return true;
}

/* A comma-separated list into buf for strtok_r: false (with buf empty) for
 * "none", the empty list, or a text too long to be one value. */
static bool list_copy(const char *text, char buf[NP_TEXT_MAX])
{
	buf[0] = '\0';
	if (strcmp(text, "none") == 0 || strlen(text) >= NP_TEXT_MAX)
		return false;
	strcpy(buf, text);
	return true;
}

bool np_groups_parse(const char *text, np_group_element *out, unsigned *count)
{
	char buf[NP_TEXT_MAX];
	*count = 0;
	if (!list_copy(text, buf))
		return buf[0] == '\0' && strcmp(text, "none") == 0;
	for (char *save = NULL, *e = strtok_r(buf, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
		char *parts[3] = { e, NULL, NULL };
		unsigned n = 1;
		for (char *c = e; *c && n <= 3; c++)
			if (*c == ':') {
				*c = '\0';
				if (n == 3)
					return false;
				parts[n++] = c + 1;
			}
		uint64_t g, mask, res = 0;
		if (n < 2 || *count == NP_MAX_GROUP_ELEMENTS || !np_number_parse(parts[0], &g) ||
		    g > 0xFFFF || !np_number_parse(parts[1], &mask) ||
		    (n == 3 && (!np_number_parse(parts[2], &res) || res > 0xFFFF)))
			return false;
		out[(*count)++] = (np_group_element){ (uint16_t)g, mask, (uint16_t)res };
	}
	return *count > 0;
}

/* A buffer value without its page form (AS-4): `>b:unmapped=1` is `>b`. */
static const char *without_page_form(const np_param *p, const char *value, char *buf, size_t cap)
{
	const char *colon = p && p->kind == NP_PARAM_BUFFER ? strchr(value, ':') : NULL;
	if (!colon || (size_t)(colon - value) >= cap)
		return value;
	memcpy(buf, value, (size_t)(colon - value));
	buf[colon - value] = '\0';
	return buf;
}

/* What a parameter value means for captures. */
typedef enum capture_use { USE_NONE, USE_CAPTURE, USE_REFERENCE } capture_use;

static capture_use capture_of(const np_param *p, const char *value, bool *buffer)
{
	uint64_t n;
	np_pointer_kind pk;
	*buffer = p->kind == NP_PARAM_BUFFER || p->kind == NP_PARAM_CAPTURED;
	switch (p->kind) {
	case NP_PARAM_OUT_HANDLE:
		return value[0] == '>' ? USE_CAPTURE : USE_NONE;
	case NP_PARAM_BUFFER:
		if (value[0] == '>')
			return USE_CAPTURE;
		return np_pointer_parse(value, &pk, &n) ? USE_NONE : USE_REFERENCE;
	case NP_PARAM_HANDLE:
		return np_handle_parse(value, &n) == NP_HANDLE_NAME ? USE_REFERENCE : USE_NONE;
	case NP_PARAM_CAPTURED:
		return USE_REFERENCE;
	default:
		return USE_NONE;
	}
}

/* Finds how a name was captured by the prior steps: 0 not, 1 handle, 2 buffer. */
static int captured_as(const np_step *prior, unsigned nprior, const char *name)
{
	for (unsigned s = 0; s < nprior; s++) {
		const np_function *f = np_function_find(prior[s].function);
		for (unsigned i = 0; f && i < prior[s].narg; i++) {
			const np_param *p = np_param_find(f, prior[s].arg[i].name);
			bool buffer;
			char head[NP_TEXT_MAX];
			const char *v = without_page_form(p, prior[s].arg[i].value, head, sizeof head);
			if (capture_of(p, v, &buffer) == USE_CAPTURE &&
			    strcmp(v + 1, name) == 0)
				return buffer ? 2 : 1;
		}
	}
	return 0;
}

const char *np_captures_check(const np_step *prior, unsigned nprior, const np_step *step)
{
	const np_function *f = np_function_find(step->function);
	for (unsigned i = 0; f && i < step->narg; i++) {
		const np_param *p = np_param_find(f, step->arg[i].name);
		char head[NP_TEXT_MAX];
		const char *v = without_page_form(p, step->arg[i].value, head, sizeof head);
		bool buffer;
		switch (capture_of(p, v, &buffer)) {
		case USE_CAPTURE:
			if (captured_as(prior, nprior, v + 1))
				return "that name is already captured by an earlier step";
			break;
		case USE_REFERENCE: {
			int as = captured_as(prior, nprior, v);
			if (as == 0)
				return "no earlier step captures that name (capture it with >NAME)";
			if ((as == 2) != buffer)
				return buffer ? "that name is a handle, not a buffer" : "that name is a buffer, not a handle";
			break;
		}
		case USE_NONE:
			break;
		}
	}
	return NULL;
}

/* Counter lists (ReadBuffer's Buffer=): decimal values, commas between them,
 * a run of three or more equal values written V*N. */
void np_counters_format(const uint32_t *c, unsigned n, char *buf, size_t cap)
{
	size_t used = 0;
	buf[0] = '\0';
	if (n == 0) {
		snprintf(buf, cap, "none");
		return;
	}
	for (unsigned i = 0; i < n;) {
		unsigned run = 1;
		while (i + run < n && c[i + run] == c[i])
			run++;
		int w = run >= 3 ? snprintf(buf + used, cap - used, "%s%u*%u", i ? "," : "", c[i], run)
				 : snprintf(buf + used, cap - used, "%s%u", i ? "," : "", c[i]);
		if (run < 3)
			run = 1;
		if (w < 0 || (size_t)w >= cap - used) {
			snprintf(buf, cap, "%u-counters", n);   /* too long for one value */
			return;
		}
		used += (size_t)w;
		i += run;
	}
}

bool np_counters_parse(const char *text, uint32_t *out, unsigned max, unsigned *n)
{
	char buf[NP_TEXT_MAX];
	*n = 0;
	if (!list_copy(text, buf))
		return buf[0] == '\0' && strcmp(text, "none") == 0;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *star = strchr(t, '*');
		uint64_t v, run = 1;
		if (star)
			*star = '\0';
		if (!np_number_parse(t, &v) || v > 0xFFFFFFFFu ||
		    (star && (!np_number_parse(star + 1, &run) || run == 0 || run > max)))
			return false;
		if (*n + run > max)
			return false;
		for (uint64_t k = 0; k < run; k++)
			out[(*n)++] = (uint32_t)v;
	}
	return true;
}
