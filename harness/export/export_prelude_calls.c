/* SPDX-License-Identifier: MIT */
/* The helpers of each call a step can make, in a generated test file
 * (export.h): only those of the calls its tests make are written. Each
 * takes its export as nx_init bound it (NULL: not exported); the profile
 * objects' keep the handles a call wrote, to stop and close them after the
 * test. */
#include "export/export.h"
#include "vectors/catalog.h"

static const char *const set_interval[] = {
	"static inline nx_result nx_set_interval(nx_set_interval_fn call, ULONG interval, ULONG source)\n",
	"{\n",
	"    nx_result r;\n",
	"    if (!call) return nx_absent();\n",
	"    r = nx_status(call(interval, source));\n",
	"    return r;\n",
	"}\n",
	NULL,
};

static const char *const query_interval[] = {
	"static inline nx_result nx_query_interval(nx_query_interval_fn call, ULONG source, void *interval)\n",
	"{\n",
	"    nx_result r;\n",
	"    if (!call) return nx_absent();\n",
	"    r = nx_status(call(source, interval));\n",
	"    return r;\n",
	"}\n",
	NULL,
};

static const char *const trace_set[] = {
	"/* TraceSetInformation: the structure {Source, Interval} in a fresh buffer. */\n",
	"static inline nx_result nx_trace_set(nx_state *s, ULONG64 session, ULONG info_class, ULONG source, ULONG interval,\n",
	"                              ULONG length)\n",
	"{\n",
	"    ULONG *info = (ULONG *)nx_pointer(s, NX_USER);\n",
	"    nx_result r;\n",
	"    if (!pTraceSetInformation) return nx_absent();\n",
	"    if (!info) return nx_win32(ERROR_OUTOFMEMORY);\n",
	"    info[0] = source;\n",
	"    info[1] = interval;\n",
	"    r = nx_win32(pTraceSetInformation(session, info_class, info, length));\n",
	"    return r;\n",
	"}\n",
	NULL,
};

static const char *const trace_query[] = {
	"/* TraceQueryInformation: class 5 takes its source in the buffer's first ULONG. */\n",
	"static inline nx_result nx_trace_query(ULONG64 session, ULONG info_class, ULONG source, void *info, ULONG length,\n",
	"                                void *return_length)\n",
	"{\n",
	"    nx_result r;\n",
	"    if (!pTraceQueryInformation) return nx_absent();\n",
	"    if (info && info_class == 5) WriteProcessMemory(GetCurrentProcess(), info, &source, sizeof(source), NULL);\n",
	"    r = nx_win32(pTraceQueryInformation(session, info_class, info, length, return_length));\n",
	"    return r;\n",
	"}\n",
	NULL,
};

static const char *const objects[] = {
	"/* ---- profile objects ------------------------------------------------- */\n",
	"\n",
	"/* A handle to stop (if it is a profile) and close after the test, once. */\n",
	"static inline void nx_keep(nx_state *s, HANDLE h)\n",
	"{\n",
	"    unsigned i;\n",
	"    for (i = 0; i < s->nhandle; i++)\n",
	"        if (s->handle[i] == h) return;\n",
	"    if (h && s->nhandle < NX_MAX) s->handle[s->nhandle++] = h;\n",
	"}\n",
	"\n",
	"/* A handle a step closed: not closed again after the test. */\n",
	"static inline void nx_forget(nx_state *s, HANDLE h)\n",
	"{\n",
	"    unsigned i;\n",
	"    for (i = 0; i < s->nhandle; i++)\n",
	"        if (s->handle[i] == h)\n",
	"        {\n",
	"            s->handle[i] = s->handle[--s->nhandle];\n",
	"            return;\n",
	"        }\n",
	"}\n",
	"\n",
	"/* The handle a call wrote at where: NULL when it wrote none (still poison). */\n",
	"static inline HANDLE nx_handle_at(const void *where)\n",
	"{\n",
	"    HANDLE h = NULL;\n",
	"    SIZE_T got = 0;\n",
	"    if (!where || !ReadProcessMemory(GetCurrentProcess(), where, &h, sizeof(h), &got) || got != sizeof(h) ||\n",
	"        (ULONG)(ULONG_PTR)h == 0xCCCCCCCCu)\n",
	"        return NULL;\n",
	"    return h;\n",
	"}\n",
	"\n",
	"/* A handle out-value: 1 when written, NX_UNWRITTEN when not. */\n",
	"static inline unsigned long long nx_handle_out(const void *where)\n",
	"{\n",
	"    return nx_handle_at(where) ? 1 : NX_UNWRITTEN;\n",
	"}\n",
	"\n",
	"/* A handle to another process with all access (a suspended copy of this\n",
	" * program, ended after the test), or to this one without\n",
	" * PROCESS_QUERY_INFORMATION (noquery). */\n",
	"static inline HANDLE nx_process(nx_state *s, int other)\n",
	"{\n",
	"    HANDLE h = NULL;\n",
	"    if (other && !s->other)\n",
	"    {\n",
	"        char self[MAX_PATH], line[] = \"nx-idle\";\n",
	"        STARTUPINFOA si;\n",
	"        PROCESS_INFORMATION pi;\n",
	"        memset(&si, 0, sizeof(si));\n",
	"        si.cb = sizeof(si);\n",
	"        if (GetModuleFileNameA(NULL, self, MAX_PATH) &&\n",
	"            CreateProcessA(self, line, NULL, NULL, FALSE, CREATE_SUSPENDED, NULL, NULL, &si, &pi))\n",
	"        {\n",
	"            CloseHandle(pi.hThread);\n",
	"            s->other = pi.hProcess;\n",
	"        }\n",
	"    }\n",
	"    if (other && s->other)\n",
	"        DuplicateHandle(GetCurrentProcess(), s->other, GetCurrentProcess(), &h, PROCESS_ALL_ACCESS, FALSE, 0);\n",
	"    else if (!other)\n",
	"        h = OpenProcess(SYNCHRONIZE, FALSE, GetCurrentProcessId());\n",
	"    if (!h) s->lacking = 1;\n",
	"    nx_keep(s, h);\n",
	"    return h;\n",
	"}\n",
	"\n",
	"/* Counters: size bytes of zeros, as fresh pages are. */\n",
	"static inline void *nx_buffer(nx_state *s, SIZE_T size)\n",
	"{\n",
	"    void *p = nx_region(s, size ? size : 1, 1, 0);\n",
	"    if (!p) s->lacking = 1;\n",
	"    return p;\n",
	"}\n",
	"\n",
	"/* One GROUP_AFFINITY element, in the caller's layout. */\n",
	"typedef struct nx_group {\n",
	"    ULONG_PTR mask;\n",
	"    WORD group;\n",
	"    WORD reserved;\n",
	"} nx_group;\n",
	"\n",
	"/* The elements written at array, even into a read-only page: the input as\n",
	" * it was before the call. */\n",
	"static inline void nx_write_groups(void *array, const nx_group *g, unsigned n)\n",
	"{\n",
	"    unsigned i;\n",
	"    for (i = 0; array && i < n; i++)\n",
	"    {\n",
	"        struct { ULONG_PTR mask; WORD group, reserved[3]; } e;\n",
	"        e.mask = g[i].mask;\n",
	"        e.group = g[i].group;\n",
	"        e.reserved[0] = e.reserved[1] = e.reserved[2] = g[i].reserved;\n",
	"        WriteProcessMemory(GetCurrentProcess(), (char *)array + i * sizeof(e), &e, sizeof(e), NULL);\n",
	"    }\n",
	"}\n",
	NULL,
};

static const char *const create[] = {
	"static inline nx_result nx_create_profile(nx_state *s, nx_create_fn call, void *handle, HANDLE process,\n",
	"                                          ULONG_PTR base, SIZE_T size, ULONG bucket, void *buffer,\n",
	"                                          ULONG buffer_size, ULONG source, ULONG_PTR affinity)\n",
	"{\n",
	"    nx_result r;\n",
	"    if (!call) return nx_absent();\n",
	"    r = nx_status(call(handle, process, (void *)base, size, bucket, buffer, buffer_size, source, affinity));\n",
	"    if (r.kind == NX_STATUS && r.code == 0) nx_keep(s, nx_handle_at(handle));\n",
	"    return r;\n",
	"}\n",
	NULL,
};

static const char *const create_ex[] = {
	"static inline nx_result nx_create_profile_ex(nx_state *s, nx_create_ex_fn call, void *handle, HANDLE process,\n",
	"                                             ULONG_PTR base, SIZE_T size, ULONG bucket, void *buffer,\n",
	"                                             ULONG buffer_size, ULONG source, USHORT group_count, void *array)\n",
	"{\n",
	"    nx_result r;\n",
	"    if (!call) return nx_absent();\n",
	"    r = nx_status(call(handle, process, (void *)base, size, bucket, buffer, buffer_size, source,\n",
	"                     group_count, array));\n",
	"    if (r.kind == NX_STATUS && r.code == 0) nx_keep(s, nx_handle_at(handle));\n",
	"    return r;\n",
	"}\n",
	NULL,
};

static const char *const handle_call[] = {
	"/* NtStartProfile, NtStopProfile and NtClose: one handle in; a handle the\n",
	" * step closed is not closed again after the test. */\n",
	"static inline nx_result nx_handle_call(nx_state *s, nx_handle_fn call, int closes, HANDLE h)\n",
	"{\n",
	"    nx_result r;\n",
	"    if (!call) return nx_absent();\n",
	"    r = nx_status(call(h));\n",
	"    if (r.kind == NX_STATUS && r.code == 0 && closes) nx_forget(s, h);\n",
	"    return r;\n",
	"}\n",
	NULL,
};

static const char *const duplicate[] = {
	"/* NtDuplicateObject within this process. */\n",
	"static inline nx_result nx_duplicate(nx_state *s, nx_duplicate_fn call, HANDLE source, ULONG access, void *target)\n",
	"{\n",
	"    nx_result r;\n",
	"    if (!call) return nx_absent();\n",
	"    r = nx_status(call(GetCurrentProcess(), source, GetCurrentProcess(), target, access, 0, 0));\n",
	"    if (r.kind == NX_STATUS && r.code == 0) nx_keep(s, nx_handle_at(target));\n",
	"    return r;\n",
	"}\n",
	NULL,
};

static const char *const sysinfo[] = {
	"/* ---- system information ---------------------------------------------- */\n",
	"\n",
	"/* The class's input put in the buffer before the call, even into a\n",
	" * read-only page: class 0x81's Allocate byte after the pointer; class\n",
	" * 0x1F's sub-class, and for a set the interval after it. */\n",
	"static inline void nx_sysinfo_input(void *buffer, ULONG info_class, int is_set, BYTE allocate, ULONG sub_class,\n",
	"                                    ULONG interval)\n",
	"{\n",
	"    ULONG fields[2];\n",
	"    if (!buffer) return;\n",
	"    if (info_class == 0x81)\n",
	"    {\n",
	"        if (is_set) WriteProcessMemory(GetCurrentProcess(), (char *)buffer + sizeof(void *), &allocate, 1, NULL);\n",
	"        return;\n",
	"    }\n",
	"    fields[0] = sub_class;\n",
	"    fields[1] = interval;\n",
	"    WriteProcessMemory(GetCurrentProcess(), buffer, fields, is_set ? sizeof(fields) : sizeof(fields[0]), NULL);\n",
	"}\n",
	"\n",
	"/* A pointer out-value: NX_UNWRITTEN when still poison, 0 for NULL, 1 for\n",
	" * any other (an address of the kernel's, which no vector can know). */\n",
	"static inline unsigned long long nx_pointer_out(const void *where)\n",
	"{\n",
	"    unsigned char b[sizeof(void *)];\n",
	"    SIZE_T got = 0, i;\n",
	"    int poison = 1, zero = 1;\n",
	"    if (!where || !ReadProcessMemory(GetCurrentProcess(), where, b, sizeof(b), &got) || got != sizeof(b))\n",
	"        return NX_UNWRITTEN;\n",
	"    for (i = 0; i < sizeof(b); i++)\n",
	"    {\n",
	"        poison = poison && b[i] == NX_POISON;\n",
	"        zero = zero && b[i] == 0;\n",
	"    }\n",
	"    return poison ? NX_UNWRITTEN : zero ? 0 : 1;\n",
	"}\n",
	NULL,
};

static const char *const set_sysinfo[] = {
	"static inline nx_result nx_set_sysinfo(nx_set_sysinfo_fn call, ULONG info_class, void *buffer, ULONG length)\n",
	"{\n",
	"    nx_result r;\n",
	"    if (!call) return nx_absent();\n",
	"    r = nx_status(call(info_class, buffer, length));\n",
	"    return r;\n",
	"}\n",
	NULL,
};

static const char *const query_sysinfo[] = {
	"static inline nx_result nx_query_sysinfo(nx_query_sysinfo_fn call, ULONG info_class, void *buffer, ULONG length,\n",
	"                                         void *return_length)\n",
	"{\n",
	"    nx_result r;\n",
	"    if (!call) return nx_absent();\n",
	"    r = nx_status(call(info_class, buffer, length, return_length));\n",
	"    return r;\n",
	"}\n",
	NULL,
};

/* The helpers of the call np_function_id id: its own, and (shared) those
 * every call of its family needs. NULL for none. */
const char *const *np_export_helpers_of(unsigned id)
{
	switch ((np_function_id)id) {
	case NP_FN_SET_INTERVAL:      return set_interval;
	case NP_FN_QUERY_INTERVAL:    return query_interval;
	case NP_FN_TRACE_SET:         return trace_set;
	case NP_FN_TRACE_QUERY:       return trace_query;
	case NP_FN_CREATE_PROFILE:    return create;
	case NP_FN_CREATE_PROFILE_EX: return create_ex;
	case NP_FN_START_PROFILE:
	case NP_FN_STOP_PROFILE:
	case NP_FN_CLOSE:             return handle_call;
	case NP_FN_DUPLICATE_OBJECT:  return duplicate;
	case NP_FN_SET_SYSINFO:       return set_sysinfo;
	case NP_FN_QUERY_SYSINFO:     return query_sysinfo;
	default:                      return NULL;
	}
}

const char *const *np_export_shared_of(unsigned id)
{
	switch ((np_function_id)id) {
	case NP_FN_CREATE_PROFILE:
	case NP_FN_CREATE_PROFILE_EX:
	case NP_FN_START_PROFILE:
	case NP_FN_STOP_PROFILE:
	case NP_FN_CLOSE:
	case NP_FN_DUPLICATE_OBJECT:
		return objects;
	case NP_FN_SET_SYSINFO:
	case NP_FN_QUERY_SYSINFO:
		return sysinfo;
	default:
		return NULL;
	}
}
