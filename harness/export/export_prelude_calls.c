/* SPDX-License-Identifier: MIT */
/* What each call a step can make adds to a generated test file's one step
 * runner (export.h): its row in nx_exports (the kind of result it gives,
 * and where the out-values the rows check are: an argument, an offset, a
 * ULONG 'u', a pointer 'p' or a handle 'h'), and its case in nx_call's
 * switch: what it reads put in its buffer first, then the call through its
 * signature's pointer type. The arguments are the row's, made real by
 * nx_arg (v[]) or as numbers (a[]), in the order export_calls.c writes
 * them; only the cases of the calls the rows make are written. */
#include "export/export.h"
#include "vectors/catalog.h"

static const char *const set_interval[] = {
	"        g->code = ((nx_set_interval_fn)f)((ULONG)a[0], (ULONG)a[1]);\n",
	NULL,
};

static const char *const query_interval[] = {
	"        g->code = ((nx_query_interval_fn)f)((ULONG)a[0], (void *)v[1]);\n",
	NULL,
};

static const char *const trace_set[] = {
	"    {\n",
	"        ULONG_PTR info = nx_arg(s, NX_USER, 0); /* {Source, Interval}, of InformationLength */\n",
	"        if (!info) return;\n",
	"        nx_put(info, 0, a + 2, 2, sizeof(ULONG));\n",
	"        g->code = ((nx_trace_set_fn)f)((ULONG64)a[0], (ULONG)a[1], (void *)info, (ULONG)a[4]);\n",
	"        break;\n",
	"    }\n",
	NULL,
};

static const char *const trace_query[] = {
	"        if (a[1] == 5) nx_put(v[3], 0, a + 2, 1, sizeof(ULONG)); /* class 5: the Source */\n",
	"        g->code = ((nx_trace_query_fn)f)((ULONG64)a[0], (ULONG)a[1], (void *)v[3], (ULONG)a[4],\n",
	"                                         (void *)v[5]);\n",
	NULL,
};

static const char *const create[] = {
	"        g->code = ((nx_create_fn)f)((HANDLE *)v[0], (HANDLE)v[1], (void *)v[2], v[3], (ULONG)a[4],\n",
	"                                    (void *)v[5], (ULONG)a[6], (ULONG)a[7], v[8]);\n",
	NULL,
};

static const char *const create_ex[] = {
	"        for (i = 0; v[9] && i < a[10]; i++) /* GROUP_AFFINITY: Mask, Group, the Reserved words' */\n",
	"        {\n",
	"            struct { ULONG_PTR mask; WORD group, reserved[3]; } e;\n",
	"            e.mask = (ULONG_PTR)a[11 + 3 * i];\n",
	"            e.group = (WORD)a[12 + 3 * i];\n",
	"            e.reserved[0] = e.reserved[1] = e.reserved[2] = (WORD)a[13 + 3 * i];\n",
	"            WriteProcessMemory(GetCurrentProcess(), (char *)v[9] + i * sizeof(e), &e, sizeof(e), 0);\n",
	"        }\n",
	"        g->code = ((nx_create_ex_fn)f)((HANDLE *)v[0], (HANDLE)v[1], (void *)v[2], v[3],\n",
	"                                       (ULONG)a[4], (void *)v[5], (ULONG)a[6], (ULONG)a[7],\n",
	"                                       (USHORT)a[8], (void *)v[9]);\n",
	NULL,
};

static const char *const handle_call[] = {
	"        g->code = ((nx_handle_fn)f)((HANDLE)v[0]);\n",
	NULL,
};

static const char *const close_call[] = {
	"        g->code = ((nx_handle_fn)f)((HANDLE)v[0]);\n",
	"        for (i = 0; !g->code && i < (int)s->nhandle; i++) /* closed: not closed again after it */\n",
	"            if (s->handle[i] == (HANDLE)v[0]) s->handle[i] = s->handle[--s->nhandle];\n",
	NULL,
};

static const char *const duplicate[] = {
	"        g->code = ((nx_duplicate_fn)f)(GetCurrentProcess(), (HANDLE)v[1], GetCurrentProcess(),\n",
	"                                       (HANDLE *)v[0], (ULONG)a[2], 0, 0);\n",
	NULL,
};

static const char *const set_sysinfo[] = {
	"        if (a[0] == 0x81) nx_put(v[1], sizeof(void *), a + 3, 1, 1); /* the Allocate byte */\n",
	"        else nx_put(v[1], 0, a + 4, 2, sizeof(ULONG)); /* the sub-class and interval */\n",
	"        g->code = ((nx_set_sysinfo_fn)f)((ULONG)a[0], (void *)v[1], (ULONG)a[2]);\n",
	NULL,
};

static const char *const query_sysinfo[] = {
	"        if (a[0] != 0x81) nx_put(v[1], 0, a + 4, 1, sizeof(ULONG)); /* the sub-class */\n",
	"        g->code = ((nx_query_sysinfo_fn)f)((ULONG)a[0], (void *)v[1], (ULONG)a[2], (void *)v[3]);\n",
	NULL,
};

/* The lines of nx_call's case of the call np_function_id id, below its
 * labels; NULL for a call the file cannot make. */
const char *const *np_export_case_of(unsigned id)
{
	switch ((np_function_id)id) {
	case NP_FN_SET_INTERVAL:      return set_interval;
	case NP_FN_QUERY_INTERVAL:    return query_interval;
	case NP_FN_TRACE_SET:         return trace_set;
	case NP_FN_TRACE_QUERY:       return trace_query;
	case NP_FN_CREATE_PROFILE:    return create;
	case NP_FN_CREATE_PROFILE_EX: return create_ex;
	case NP_FN_START_PROFILE:
	case NP_FN_STOP_PROFILE:      return handle_call;
	case NP_FN_CLOSE:             return close_call;
	case NP_FN_DUPLICATE_OBJECT:  return duplicate;
	case NP_FN_SET_SYSINFO:       return set_sysinfo;
	case NP_FN_QUERY_SYSINFO:     return query_sysinfo;
	default:                      return NULL;
	}
}

/* Its row in nx_exports after the name: the kind of its result where it
 * is not an NTSTATUS and its out-values (the names the rows' wants and the
 * messages give them). */
const char *np_export_entry_of(unsigned id)
{
	switch ((np_function_id)id) {
	case NP_FN_QUERY_INTERVAL:    return ".out = { { \"Interval\", 1, 0, 'u' } }";
	case NP_FN_TRACE_SET:         return ".kind = NX_WIN32";
	case NP_FN_TRACE_QUERY:       return ".kind = NX_WIN32, .out = { { \"Interval\", 3, 4, 'u' }, { \"ReturnLength\", 5, 0, 'u' } }";
	case NP_FN_CREATE_PROFILE:
	case NP_FN_CREATE_PROFILE_EX: return ".out = { { \"ProfileHandle\", 0, 0, 'h' } }";
	case NP_FN_DUPLICATE_OBJECT:  return ".out = { { \"TargetHandle\", 0, 0, 'h' } }";
	case NP_FN_SET_SYSINFO:       return ".out = { { \"ProcessorProfileControlArea\", 1, 0, 'p' } }";
	case NP_FN_QUERY_SYSINFO:
		return ".out = { { \"ProcessorProfileControlArea\", 1, 0, 'p' },\n"
		       "        { \"ProfileInterval\", 1, 4, 'u' }, { \"ReturnLength\", 3, 0, 'u' } }";
	default:                      return ".kind = NX_STATUS";   /* a designator, as -Wextra wants */
	}
}
