/* SPDX-License-Identifier: MIT */
/* The helpers of each call a step can make, in a generated test file
 * (export.h): only those of the calls its tests make are written. Each
 * takes its export as nx_init bound it (NULL: not exported, and the result
 * stays NX_NOT_EXPORTED) and the step's row, whose arguments it makes real
 * in the order its comment gives (export_calls.c writes them in that
 * order); it fills in what the call gave and the out-values the rows
 * check. The profile objects' keep the handles a call wrote, to stop and
 * close them after the test. */
#include "export/export.h"
#include "vectors/catalog.h"

static const char *const set_interval[] = {
	"/* NtSetIntervalProfile: Interval, Source. */\n",
	"static inline void nx_set_interval(nx_state *s, nx_set_interval_fn call, const nx_step *st, nx_got *g)\n",
	"{\n",
	"    (void)s;\n",
	"    if (call) nx_gave(g, NX_STATUS, call((ULONG)st->arg[0], (ULONG)st->arg[1]));\n",
	"}\n",
	NULL,
};

static const char *const query_interval[] = {
	"/* NtQueryIntervalProfile: Source, Interval (a pointer). */\n",
	"static inline void nx_query_interval(nx_state *s, nx_query_interval_fn call, const nx_step *st, nx_got *g)\n",
	"{\n",
	"    void *interval = nx_pointer(s, st->arg[1]);\n",
	"    g->name[0] = \"Interval\";\n",
	"    if (!call || s->lacking) return;\n",
	"    nx_gave(g, NX_STATUS, call((ULONG)st->arg[0], interval));\n",
	"    g->out[0] = nx_u32(interval);\n",
	"}\n",
	NULL,
};

static const char *const trace_set[] = {
	"/* TraceSetInformation: SessionHandle, InformationClass, and the structure {Source, Interval} in a fresh buffer of\n",
	" * InformationLength. */\n",
	"static inline void nx_trace_set(nx_state *s, nx_trace_set_fn call, const nx_step *st, nx_got *g)\n",
	"{\n",
	"    ULONG *info = (ULONG *)nx_pointer(s, NX_USER);\n",
	"    if (!call || s->lacking) return;\n",
	"    info[0] = (ULONG)st->arg[2];\n",
	"    info[1] = (ULONG)st->arg[3];\n",
	"    nx_gave(g, NX_WIN32, call((ULONG64)st->arg[0], (ULONG)st->arg[1], info, (ULONG)st->arg[4]));\n",
	"}\n",
	NULL,
};

static const char *const trace_query[] = {
	"/* TraceQueryInformation: SessionHandle, InformationClass, Source (class 5 takes it in the buffer's first ULONG),\n",
	" * TraceInformation, its length, ReturnLength. */\n",
	"static inline void nx_trace_query(nx_state *s, nx_trace_query_fn call, const nx_step *st, nx_got *g)\n",
	"{\n",
	"    ULONG source = (ULONG)st->arg[2];\n",
	"    char *info = nx_pointer(s, st->arg[3]);\n",
	"    void *return_length = nx_pointer(s, st->arg[5]);\n",
	"    g->name[0] = \"Interval\";\n",
	"    g->name[1] = \"ReturnLength\";\n",
	"    if (!call || s->lacking) return;\n",
	"    if (info && st->arg[1] == 5) WriteProcessMemory(GetCurrentProcess(), info, &source, sizeof(source), NULL);\n",
	"    nx_gave(g, NX_WIN32, call((ULONG64)st->arg[0], (ULONG)st->arg[1], info, (ULONG)st->arg[4], return_length));\n",
	"    g->out[0] = nx_u32(info ? info + 4 : NULL);\n",
	"    g->out[1] = nx_u32(return_length);\n",
	"}\n",
	NULL,
};

static const char *const objects[] = {
	"/* A handle to stop (if it is a profile) and close after the test, once. */\n",
	"static inline void nx_keep(nx_state *s, HANDLE h)\n",
	"{\n",
	"    unsigned i;\n",
	"    for (i = 0; i < s->nhandle; i++)\n",
	"        if (s->handle[i] == h) return;\n",
	"    if (h && s->nhandle < NX_MAX) s->handle[s->nhandle++] = h;\n",
	"}\n",
	"\n",
	"/* After a call that may write a handle at where: kept to close after the test when it succeeded, kept as the step\n",
	" * says (and its counters), and its out-value: 1 when written (not still poison). */\n",
	"static inline void nx_wrote(nx_state *s, const nx_step *st, nx_got *g, void *where, void *buffer)\n",
	"{\n",
	"    HANDLE h = NULL;\n",
	"    if (!nx_read(where, &h, sizeof(h)) || (ULONG)(ULONG_PTR)h == 0xCCCCCCCCu) h = NULL;\n",
	"    if (g->kind == NX_STATUS && g->code == 0) nx_keep(s, h);\n",
	"    if (st->keep & 0xf) s->kept_handle[(st->keep & 0xf) - 1] = h;\n",
	NP_ONLY("NX_BUFFER_OF") "    if (st->keep >> 4) s->kept_buffer[(st->keep >> 4) - 1] = buffer;\n",
	NP_UNLESS("NX_BUFFER_OF") "    (void)buffer;\n",
	"    g->out[0] = h ? 1 : NX_UNWRITTEN;\n",
	"}\n",
	"\n",
	"/* A handle to another process with all access (a suspended copy of this program, ended after the test), or to this\n",
	" * one without PROCESS_QUERY_INFORMATION. */\n",
	"static inline HANDLE nx_process(nx_state *s, int other)\n",
	"{\n",
	NP_ONLY("NX_OTHER_PROCESS") "    char self[MAX_PATH], line[] = \"nx-idle\";\n",
	NP_ONLY("NX_OTHER_PROCESS") "    STARTUPINFOA si;\n",
	NP_ONLY("NX_OTHER_PROCESS") "    PROCESS_INFORMATION pi;\n",
	"    HANDLE h = NULL;\n",
	NP_ONLY("NX_OTHER_PROCESS") "    memset(&si, 0, sizeof(si));\n",
	NP_ONLY("NX_OTHER_PROCESS") "    si.cb = sizeof(si);\n",
	"    if (!other) h = OpenProcess(SYNCHRONIZE, FALSE, GetCurrentProcessId());\n",
	NP_ONLY("NX_OTHER_PROCESS") "    else if (!s->other && GetModuleFileNameA(NULL, self, MAX_PATH) &&\n",
	NP_ONLY("NX_OTHER_PROCESS") "             CreateProcessA(self, line, NULL, NULL, FALSE, CREATE_SUSPENDED, NULL, NULL, &si, &pi))\n",
	NP_ONLY("NX_OTHER_PROCESS") "    {\n",
	NP_ONLY("NX_OTHER_PROCESS") "        CloseHandle(pi.hThread);\n",
	NP_ONLY("NX_OTHER_PROCESS") "        s->other = pi.hProcess;\n",
	NP_ONLY("NX_OTHER_PROCESS") "    }\n",
	NP_ONLY("NX_OTHER_PROCESS") "    if (other && s->other)\n",
	NP_ONLY("NX_OTHER_PROCESS") "        DuplicateHandle(GetCurrentProcess(), s->other, GetCurrentProcess(), &h, PROCESS_ALL_ACCESS, FALSE, 0);\n",
	"    if (!h) s->lacking = 1;\n",
	"    nx_keep(s, h);\n",
	"    return h;\n",
	"}\n",
	"\n",
	"/* A handle argument: another process, one an earlier step kept, or the value itself (NULL, NtCurrentProcess(),\n",
	" * ...). */\n",
	"static inline HANDLE nx_handle(nx_state *s, LONG64 arg)\n",
	"{\n",
	"    if (arg == NX_OTHER_PROCESS || arg == NX_NOQUERY_PROCESS) return nx_process(s, arg == NX_OTHER_PROCESS);\n",
	"    if (arg <= NX_HANDLE_OF(0) && arg > NX_HANDLE_OF(NX_KEPT)) return s->kept_handle[NX_HANDLE_OF(0) - arg];\n",
	"    return (HANDLE)(LONG_PTR)arg;\n",
	"}\n",
	"\n",
	"/* Counters: BufferSize bytes of zeros (NX_FRESH), those an earlier step kept, or a pointer. */\n",
	"static inline void *nx_counters(nx_state *s, LONG64 arg, ULONG size)\n",
	"{\n",
	"    void *p;\n",
	NP_ONLY("NX_BUFFER_OF") "    if (arg <= NX_BUFFER_OF(0) && arg > NX_BUFFER_OF(NX_KEPT)) return s->kept_buffer[NX_BUFFER_OF(0) - arg];\n",
	"    if (arg != NX_FRESH) return nx_pointer(s, arg);\n",
	"    p = nx_region(s, size ? size : 1, 1, 0);\n",
	"    if (!p) s->lacking = 1;\n",
	"    return p;\n",
	"}\n",
	NULL,
};

static const char *const create[] = {
	"/* NtCreateProfile: ProfileHandle (where), Process, ProfileBase, ProfileSize, BucketSize, Buffer, BufferSize,\n",
	" * Source, Affinity. */\n",
	"static inline void nx_create_profile(nx_state *s, nx_create_fn call, const nx_step *st, nx_got *g)\n",
	"{\n",
	"    const LONG64 *a = st->arg;\n",
	"    void *handle = nx_pointer(s, a[0]);\n",
	"    HANDLE process = nx_handle(s, a[1]);\n",
	"    void *buffer = nx_counters(s, a[5], (ULONG)a[6]);\n",
	"    g->name[0] = \"ProfileHandle\";\n",
	"    if (!call || s->lacking) return;\n",
	"    nx_gave(g, NX_STATUS, call(handle, process, (void *)(ULONG_PTR)a[2], (SIZE_T)a[3], (ULONG)a[4], buffer,\n",
	"                               (ULONG)a[6], (ULONG)a[7], (ULONG_PTR)a[8]));\n",
	"    nx_wrote(s, st, g, handle, buffer);\n",
	"}\n",
	NULL,
};

static const char *const create_ex[] = {
	"/* NtCreateProfileEx: ProfileHandle (where), Process, ProfileBase, ProfileSize, BucketSize, Buffer, BufferSize,\n",
	" * Source, GroupCount, AffinityArray; then how many GROUP_AFFINITY elements are written there before the call (even\n",
	" * into a read-only page), each as mask, group and the value of its reserved words. */\n",
	"static inline void nx_create_profile_ex(nx_state *s, nx_create_ex_fn call, const nx_step *st, nx_got *g)\n",
	"{\n",
	"    const LONG64 *a = st->arg;\n",
	"    void *handle = nx_pointer(s, a[0]);\n",
	"    HANDLE process = nx_handle(s, a[1]);\n",
	"    void *buffer = nx_counters(s, a[5], (ULONG)a[6]);\n",
	"    char *array = nx_pointer(s, a[9]);\n",
	"    LONG64 i;\n",
	"    g->name[0] = \"ProfileHandle\";\n",
	"    if (!call || s->lacking) return;\n",
	"    for (i = 0; array && i < a[10]; i++)\n",
	"    {\n",
	"        struct { ULONG_PTR mask; WORD group, reserved[3]; } e;\n",
	"        e.mask = (ULONG_PTR)a[11 + 3 * i];\n",
	"        e.group = (WORD)a[12 + 3 * i];\n",
	"        e.reserved[0] = e.reserved[1] = e.reserved[2] = (WORD)a[13 + 3 * i];\n",
	"        WriteProcessMemory(GetCurrentProcess(), array + i * sizeof(e), &e, sizeof(e), NULL);\n",
	"    }\n",
	"    nx_gave(g, NX_STATUS, call(handle, process, (void *)(ULONG_PTR)a[2], (SIZE_T)a[3], (ULONG)a[4], buffer,\n",
	"                               (ULONG)a[6], (ULONG)a[7], (USHORT)a[8], array));\n",
	"    nx_wrote(s, st, g, handle, buffer);\n",
	"}\n",
	NULL,
};

static const char *const handle_call[] = {
	"/* NtStartProfile, NtStopProfile: ProfileHandle. */\n",
	"static inline void nx_handle_call(nx_state *s, nx_handle_fn call, const nx_step *st, nx_got *g)\n",
	"{\n",
	"    HANDLE h = nx_handle(s, st->arg[0]);\n",
	"    if (call && !s->lacking) nx_gave(g, NX_STATUS, call(h));\n",
	"}\n",
	NULL,
};

static const char *const close_call[] = {
	"/* NtClose: Handle; closed, it is not closed again after the test. */\n",
	"static inline void nx_close(nx_state *s, nx_handle_fn call, const nx_step *st, nx_got *g)\n",
	"{\n",
	"    HANDLE h = nx_handle(s, st->arg[0]);\n",
	"    unsigned i;\n",
	"    if (!call || s->lacking) return;\n",
	"    nx_gave(g, NX_STATUS, call(h));\n",
	"    for (i = 0; i < s->nhandle && g->code == 0; i++)\n",
	"        if (s->handle[i] == h) s->handle[i] = s->handle[--s->nhandle];\n",
	"}\n",
	NULL,
};

static const char *const duplicate[] = {
	"/* NtDuplicateObject within this process: TargetHandle (where), SourceHandle, DesiredAccess. */\n",
	"static inline void nx_duplicate(nx_state *s, nx_duplicate_fn call, const nx_step *st, nx_got *g)\n",
	"{\n",
	"    void *target = nx_pointer(s, st->arg[0]);\n",
	"    HANDLE source = nx_handle(s, st->arg[1]);\n",
	"    g->name[0] = \"TargetHandle\";\n",
	"    if (!call || s->lacking) return;\n",
	"    nx_gave(g, NX_STATUS, call(GetCurrentProcess(), source, GetCurrentProcess(), target, (ULONG)st->arg[2], 0, 0));\n",
	"    nx_wrote(s, st, g, target, NULL);\n",
	"}\n",
	NULL,
};

static const char *const sysinfo[] = {
	"/* A pointer out-value: NX_UNWRITTEN when still poison, 0 for NULL, 1 for any other (an address of the kernel's,\n",
	" * which no vector can know). */\n",
	"static inline unsigned long long nx_pointer_out(const void *where)\n",
	"{\n",
	"    ULONG_PTR v;\n",
	"    if (!nx_read(where, &v, sizeof(v)) || v == (ULONG_PTR)0xCCCCCCCCCCCCCCCCull) return NX_UNWRITTEN;\n",
	"    return v != 0;\n",
	"}\n",
	NULL,
};

static const char *const set_sysinfo[] = {
	"/* NtSetSystemInformation: InformationClass, SystemInformation, its length, then what is put there first, even into\n",
	" * a read-only page: class 0x81's Allocate byte after the pointer; class 0x1F's sub-class and interval. */\n",
	"static inline void nx_set_sysinfo(nx_state *s, nx_set_sysinfo_fn call, const nx_step *st, nx_got *g)\n",
	"{\n",
	"    char *buffer = nx_pointer(s, st->arg[1]);\n",
	"    BYTE allocate = (BYTE)st->arg[3];\n",
	"    ULONG fields[2];\n",
	"    g->name[0] = \"ProcessorProfileControlArea\";\n",
	"    if (!call || s->lacking) return;\n",
	"    fields[0] = (ULONG)st->arg[4];\n",
	"    fields[1] = (ULONG)st->arg[5];\n",
	"    if (buffer && st->arg[0] == 0x81)\n",
	"        WriteProcessMemory(GetCurrentProcess(), buffer + sizeof(void *), &allocate, 1, NULL);\n",
	"    else if (buffer)\n",
	"        WriteProcessMemory(GetCurrentProcess(), buffer, fields, sizeof(fields), NULL);\n",
	"    nx_gave(g, NX_STATUS, call((ULONG)st->arg[0], buffer, (ULONG)st->arg[2]));\n",
	"    g->out[0] = nx_pointer_out(buffer);\n",
	"}\n",
	NULL,
};

static const char *const query_sysinfo[] = {
	"/* NtQuerySystemInformation: InformationClass, SystemInformation, its length, ReturnLength, and class 0x1F's\n",
	" * sub-class, put there first. */\n",
	"static inline void nx_query_sysinfo(nx_state *s, nx_query_sysinfo_fn call, const nx_step *st, nx_got *g)\n",
	"{\n",
	"    char *buffer = nx_pointer(s, st->arg[1]);\n",
	"    void *return_length = nx_pointer(s, st->arg[3]);\n",
	"    ULONG sub_class = (ULONG)st->arg[4];\n",
	"    g->name[0] = \"ProcessorProfileControlArea\";\n",
	"    g->name[1] = \"ProfileInterval\";\n",
	"    g->name[2] = \"ReturnLength\";\n",
	"    if (!call || s->lacking) return;\n",
	"    if (buffer && st->arg[0] != 0x81)\n",
	"        WriteProcessMemory(GetCurrentProcess(), buffer, &sub_class, sizeof(sub_class), NULL);\n",
	"    nx_gave(g, NX_STATUS, call((ULONG)st->arg[0], buffer, (ULONG)st->arg[2], return_length));\n",
	"    g->out[0] = nx_pointer_out(buffer);\n",
	"    g->out[1] = nx_u32(buffer ? buffer + 4 : NULL);\n",
	"    g->out[2] = nx_u32(return_length);\n",
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
	case NP_FN_STOP_PROFILE:      return handle_call;
	case NP_FN_CLOSE:             return close_call;
	case NP_FN_DUPLICATE_OBJECT:  return duplicate;
	case NP_FN_SET_SYSINFO:       return set_sysinfo;
	case NP_FN_QUERY_SYSINFO:     return query_sysinfo;
	default:                      return NULL;
	}
}

/* The C name of that helper, which the file's nx_call calls. */
const char *np_export_helper_name(unsigned id)
{
	switch ((np_function_id)id) {
	case NP_FN_SET_INTERVAL:      return "nx_set_interval";
	case NP_FN_QUERY_INTERVAL:    return "nx_query_interval";
	case NP_FN_TRACE_SET:         return "nx_trace_set";
	case NP_FN_TRACE_QUERY:       return "nx_trace_query";
	case NP_FN_CREATE_PROFILE:    return "nx_create_profile";
	case NP_FN_CREATE_PROFILE_EX: return "nx_create_profile_ex";
	case NP_FN_START_PROFILE:
	case NP_FN_STOP_PROFILE:      return "nx_handle_call";
	case NP_FN_CLOSE:             return "nx_close";
	case NP_FN_DUPLICATE_OBJECT:  return "nx_duplicate";
	case NP_FN_SET_SYSINFO:       return "nx_set_sysinfo";
	case NP_FN_QUERY_SYSINFO:     return "nx_query_sysinfo";
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
