/* The step catalog: the calls of SPEC.md §SI, §QI, §TR and §SY, and the
 * ReadEvents and MoveThread pseudo-steps. */
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "ntprof/names.h"

static const np_function functions[] = {
	{ NP_FN_SET_INTERVAL, "NtSetIntervalProfile", "ZwSetIntervalProfile", {
		{ "Interval", NULL, NP_PARAM_U32, NULL },
		{ "Source", "ProfileSource", NP_PARAM_SOURCE, "ProfileTime" } }, false },
	{ NP_FN_QUERY_INTERVAL, "NtQueryIntervalProfile", "ZwQueryIntervalProfile", {
		{ "Source", "ProfileSource", NP_PARAM_SOURCE, "ProfileTime" },
		{ "Interval", NULL, NP_PARAM_POINTER, "user" } }, false },
	{ NP_FN_TRACE_SET, "TraceSetInformation", NULL, {
		{ "SessionHandle", NULL, NP_PARAM_U64, "0" },
		{ "InformationClass", NULL, NP_PARAM_U32, "5" },
		{ "Source", NULL, NP_PARAM_SOURCE, "ProfileTime" },
		{ "Interval", NULL, NP_PARAM_U32, "0" },
		{ "InformationLength", NULL, NP_PARAM_U32, "8" } }, true },
	{ NP_FN_TRACE_QUERY, "TraceQueryInformation", NULL, {
		{ "SessionHandle", NULL, NP_PARAM_U64, "0" },
		{ "InformationClass", NULL, NP_PARAM_U32, "5" },
		{ "Source", NULL, NP_PARAM_SOURCE, "ProfileTime" },
		/* "auto": 8 for class 5, the whole buffer (0x10000) otherwise */
		{ "InformationLength", NULL, NP_PARAM_U32, "auto" },
		{ "TraceInformation", NULL, NP_PARAM_POINTER, "user" },
		{ "ReturnLength", NULL, NP_PARAM_POINTER, "user" } }, true },
	{ NP_FN_READ_EVENTS, "ReadEvents", NULL, { { NULL, NULL, 0, NULL } }, false },
	/* SY-*: "auto" length is the structure the class wants (fixtures/README.md) */
	{ NP_FN_SET_SYSINFO, "NtSetSystemInformation", "ZwSetSystemInformation", {
		{ "InformationClass", "SystemInformationClass", NP_PARAM_U32, "0x81" },
		{ "Allocate", NULL, NP_PARAM_BYTE, "1" },
		{ "EventTraceClass", NULL, NP_PARAM_U32, "3" },
		{ "ProfileInterval", NULL, NP_PARAM_U32, "0" },
		{ "SystemInformation", NULL, NP_PARAM_POINTER, "user" },
		{ "SystemInformationLength", NULL, NP_PARAM_U32, "auto" } }, false },
	{ NP_FN_QUERY_SYSINFO, "NtQuerySystemInformation", "ZwQuerySystemInformation", {
		{ "InformationClass", "SystemInformationClass", NP_PARAM_U32, "0x81" },
		{ "EventTraceClass", NULL, NP_PARAM_U32, "3" },
		{ "SystemInformation", NULL, NP_PARAM_POINTER, "user" },
		{ "SystemInformationLength", NULL, NP_PARAM_U32, "auto" },
		{ "ReturnLength", NULL, NP_PARAM_POINTER, "user" } }, false },
	/* SY-15: the scheduler moves the calling thread (model only) */
	{ NP_FN_MOVE_THREAD, "MoveThread", NULL, {
		{ "Cpu", NULL, NP_PARAM_U32, NULL } }, false },
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

const np_param *np_param_find(const np_function *f, const char *name)
{
	for (const np_param *p = f->param; p->name; p++)
		if (strcmp(name, p->name) == 0 || (p->alias && strcmp(name, p->alias) == 0))
			return p;
	return NULL;
}

bool np_number_parse(const char *text, uint64_t *out)
{
	if (*text < '0' || *text > '9')
		return false;
	bool hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
	const char *digits = hex ? text + 2 : text;
	if (*digits == '\0')
		return false;
	uint64_t v = 0;
	for (const char *p = digits; *p; p++) {
		unsigned d;
		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (hex && *p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (hex && *p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			return false;
		unsigned base = hex ? 16 : 10;
		if (v > (UINT64_MAX - d) / base)
			return false;  /* overflow */
		v = v * base + d;
	}
	*out = v;
	return true;
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

const char *np_step_arg(const np_step *s, const np_param *p)
{
	for (unsigned i = 0; i < s->narg; i++)
		if (strcmp(s->arg[i].name, p->name) == 0)
			return s->arg[i].value;
	return p->fallback;
}
