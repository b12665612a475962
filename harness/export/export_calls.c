/* SPDX-License-Identifier: MIT */
/* The C of one step's call (export.h): its typed arguments (np_step_value)
 * made real by the generated file's helpers (export_prelude*.c) as the
 * interpreter makes them real on an implementation (run/interpreter_args.c,
 * run/interpreter_steps.c), the call, the names it captures, and the C
 * expression of each out-value it reports. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "export/export.h"
#include "ntprof/names.h"
#include "vectors/catalog.h"

static const np_arg *arg(const np_step *st, const char *name)
{
	return np_step_value(st, name);
}

static uint32_t u32(const np_step *st, const char *name)
{
	return arg(st, name)->u32.value;
}

static void pointer_expr(np_export_text *t, const np_pointer_arg *p)
{
	static const char *const symbol[] = { "NX_USER", "NX_NULL", "NX_MISALIGNED", "NX_READONLY",
					      "NX_UNMAPPED", "NX_KERNEL" };
	if (p->symbol == NP_PTR_NUMBER)
		np_export_printf(t, "(void *)(ULONG_PTR)0x%" PRIx64 "ull", p->number);
	else
		np_export_printf(t, "nx_pointer(s, %s)", symbol[p->symbol <= NP_PTR_KERNEL ? p->symbol : 0]);
}

static void source_expr(np_export_text *t, uint32_t source)
{
	const char *name = np_source_name(source);
	np_export_printf(t, "0x%" PRIx32 "%s%s%s", source, name ? " /* " : "", name ? name : "",
			 name ? " */" : "");
}

static void handle_expr(np_export_text *t, const np_arg *a)
{
	switch (a->handle.symbol) {
	case NP_HANDLE_NULL:    np_export_printf(t, "NULL"); break;
	case NP_HANDLE_CURRENT: np_export_printf(t, "(HANDLE)(LONG_PTR)-1"); break;
	case NP_HANDLE_THREAD:  np_export_printf(t, "(HANDLE)(LONG_PTR)-2"); break;
	case NP_HANDLE_INVALID: np_export_printf(t, "(HANDLE)(ULONG_PTR)1"); break;
	case NP_HANDLE_OTHER:   np_export_printf(t, "nx_process(s, 1)"); break;
	case NP_HANDLE_NOQUERY: np_export_printf(t, "nx_process(s, 0)"); break;
	case NP_HANDLE_NAME:    np_export_printf(t, "h_%s", a->handle.name); break;
	case NP_HANDLE_NUMBER:
	default:
		np_export_printf(t, "(HANDLE)(ULONG_PTR)0x%" PRIx64 "ull", a->handle.number);
		break;
	}
}

static void call_set_interval(np_export_text *t, const np_step *st)
{
	np_export_printf(t, "        r = nx_set_interval(p%s, %" PRIu32 ", ", st->function, u32(st, "Interval"));
	source_expr(t, arg(st, "Source")->source);
	np_export_printf(t, ");\n");
}

static void call_query_interval(np_export_text *t, const np_step *st)
{
	np_export_printf(t, "        void *interval = ");
	pointer_expr(t, &arg(st, "Interval")->pointer);
	np_export_printf(t, ";\n        r = nx_query_interval(p%s, ", st->function);
	source_expr(t, arg(st, "Source")->source);
	np_export_printf(t, ", interval);\n");
}

static void call_trace_set(np_export_text *t, const np_step *st)
{
	np_export_printf(t, "        r = nx_trace_set(s, 0x%" PRIx64 "ull, %" PRIu32 ", ",
			 arg(st, "SessionHandle")->u64, u32(st, "InformationClass"));
	source_expr(t, arg(st, "Source")->source);
	np_export_printf(t, ", %" PRIu32 ", %" PRIu32 ");\n", u32(st, "Interval"), u32(st, "InformationLength"));
}

static void call_trace_query(np_export_text *t, const np_step *st)
{
	uint32_t cls = u32(st, "InformationClass");
	const np_arg *length = arg(st, "InformationLength");
	uint32_t len = !length->u32.automatic ? length->u32.value : cls == 5 ? 8u : 0x10000u;
	np_export_printf(t, "        void *info = ");
	pointer_expr(t, &arg(st, "TraceInformation")->pointer);
	np_export_printf(t, ";\n        void *return_length = ");
	pointer_expr(t, &arg(st, "ReturnLength")->pointer);
	np_export_printf(t, ";\n        r = nx_trace_query(0x%" PRIx64 "ull, %" PRIu32 ", ",
			 arg(st, "SessionHandle")->u64, cls);
	source_expr(t, arg(st, "Source")->source);
	np_export_printf(t, ", info, 0x%" PRIx32 ", return_length);\n", len);
}

/* NtCreateProfile(Ex): the handle's place, the process, the counters, the
 * groups (Ex), the call, then the names it captures. */
static void call_create(np_export_text *t, const np_step *st)
{
	const np_arg *handle = arg(st, "ProfileHandle"), *buffer = arg(st, "Buffer");
	bool ex = st->catalog->id == NP_FN_CREATE_PROFILE_EX;
	np_export_printf(t, "        void *handle = ");
	pointer_expr(t, &handle->out_handle.where);
	np_export_printf(t, ";\n        HANDLE process = ");
	handle_expr(t, arg(st, "Process"));
	np_export_printf(t, ";\n        void *buffer = ");
	if (buffer->buffer.form == NP_BUFFER_FRESH)
		np_export_printf(t, "nx_buffer(s, 0x%" PRIx32 ")", u32(st, "BufferSize"));
	else if (buffer->buffer.form == NP_BUFFER_CAPTURED)
		np_export_printf(t, "b_%s", buffer->buffer.name);
	else
		pointer_expr(t, &buffer->buffer.where);
	np_export_printf(t, ";\n");
	if (ex) {
		const np_arg *groups = arg(st, "Groups");
		np_export_printf(t, "        void *array = ");
		pointer_expr(t, &arg(st, "AffinityArray")->pointer);
		np_export_printf(t, ";\n");
		if (groups->groups.count) {
			np_export_printf(t, "        static const nx_group groups[] = {");
			for (unsigned i = 0; i < groups->groups.count; i++) {
				const np_group_element *g = &groups->groups.element[i];
				np_export_printf(t, "%s { (ULONG_PTR)0x%" PRIx64 "ull, %u, %u }", i ? "," : "", g->mask,
						 g->group, g->reserved);
			}
			np_export_printf(t, " };\n        nx_write_groups(array, groups, %u);\n", groups->groups.count);
		}
		np_export_printf(t, "        r = nx_create_profile_ex(s, p%s, handle, process, ", st->function);
	} else {
		np_export_printf(t, "        r = nx_create_profile(s, p%s, handle, process, ", st->function);
	}
	np_export_printf(t, "(ULONG_PTR)0x%" PRIx64 "ull, (SIZE_T)0x%" PRIx64 "ull, %" PRIu32 ", buffer, 0x%" PRIx32 ", ",
			 arg(st, "ProfileBase")->u64, arg(st, "ProfileSize")->u64, u32(st, "BucketSize"),
			 u32(st, "BufferSize"));
	source_expr(t, arg(st, "Source")->source);
	if (ex) {
		const np_arg *count = arg(st, "GroupCount");
		np_export_printf(t, ", (USHORT)%u, array);\n",
				 count->u32.automatic ? arg(st, "Groups")->groups.count : count->u32.value);
	} else if (arg(st, "Affinity")->affinity.all) {
		np_export_printf(t, ", (ULONG_PTR)-1);\n");
	} else {
		np_export_printf(t, ", (ULONG_PTR)0x%" PRIx64 "ull);\n", arg(st, "Affinity")->affinity.mask);
	}
	if (handle->out_handle.capture[0])
		np_export_printf(t, "        h_%s = nx_handle_at(handle);\n", handle->out_handle.capture);
	if (buffer->buffer.form == NP_BUFFER_FRESH && buffer->buffer.name[0])
		np_export_printf(t, "        b_%s = buffer;\n", buffer->buffer.name);
}

static void call_object(np_export_text *t, const np_step *st)
{
	const np_arg *target;
	switch (st->catalog->id) {
	case NP_FN_START_PROFILE:
	case NP_FN_STOP_PROFILE:
	case NP_FN_CLOSE:
		np_export_printf(t, "        r = nx_handle_call(s, p%s, %d, ", st->function, st->catalog->id == NP_FN_CLOSE);
		handle_expr(t, arg(st, st->catalog->id == NP_FN_CLOSE ? "Handle" : "ProfileHandle"));
		np_export_printf(t, ");\n");
		return;
	default:   /* NtDuplicateObject */
		target = arg(st, "TargetHandle");
		np_export_printf(t, "        void *target = ");
		pointer_expr(t, &target->out_handle.where);
		np_export_printf(t, ";\n        HANDLE source = ");
		handle_expr(t, arg(st, "SourceHandle"));
		np_export_printf(t, ";\n        r = nx_duplicate(s, p%s, source, 0x%" PRIx32 ", target);\n",
				 st->function, u32(st, "DesiredAccess"));
		if (target->out_handle.capture[0])
			np_export_printf(t, "        h_%s = nx_handle_at(target);\n", target->out_handle.capture);
		return;
	}
}

/* SystemInformationLength=auto: the structure the class wants, as this
 * caller declares it (fixtures/README.md). */
static void sysinfo_length(np_export_text *t, const np_step *st, uint32_t cls, uint32_t sub_class)
{
	const np_arg *length = arg(st, "SystemInformationLength");
	if (!length->u32.automatic)
		np_export_printf(t, "0x%" PRIx32, length->u32.value);
	else if (cls == 0x81)
		np_export_printf(t, "(ULONG)(2 * sizeof(void *))");
	else if (cls == 0x1F && sub_class == 0x0D)
		np_export_printf(t, "0x10000");
	else
		np_export_printf(t, "8");
}

static void call_sysinfo(np_export_text *t, const np_step *st)
{
	bool is_set = st->catalog->id == NP_FN_SET_SYSINFO;
	uint32_t cls = u32(st, "InformationClass"), sub_class = u32(st, "EventTraceClass");
	np_export_printf(t, "        void *buffer = ");
	pointer_expr(t, &arg(st, "SystemInformation")->pointer);
	np_export_printf(t, ";\n");
	if (!is_set) {
		np_export_printf(t, "        void *return_length = ");
		pointer_expr(t, &arg(st, "ReturnLength")->pointer);
		np_export_printf(t, ";\n");
	}
	np_export_printf(t, "        nx_sysinfo_input(buffer, 0x%" PRIx32 ", %d, %u, 0x%" PRIx32 ", %" PRIu32 ");\n",
			 cls, is_set, is_set ? arg(st, "Allocate")->byte : 0u, sub_class,
			 is_set ? u32(st, "ProfileInterval") : 0u);
	np_export_printf(t, "        r = nx_%s_sysinfo(p%s, 0x%" PRIx32 ", buffer, ", is_set ? "set" : "query",
			 st->function, cls);
	sysinfo_length(t, st, cls, sub_class);
	np_export_printf(t, "%s);\n", is_set ? "" : ", return_length");
}

void np_export_call_code(np_export_text *t, const np_step *st)
{
	switch (st->catalog->id) {
	case NP_FN_SET_INTERVAL:      call_set_interval(t, st); break;
	case NP_FN_QUERY_INTERVAL:    call_query_interval(t, st); break;
	case NP_FN_TRACE_SET:         call_trace_set(t, st); break;
	case NP_FN_TRACE_QUERY:       call_trace_query(t, st); break;
	case NP_FN_CREATE_PROFILE:
	case NP_FN_CREATE_PROFILE_EX: call_create(t, st); break;
	case NP_FN_SET_SYSINFO:
	case NP_FN_QUERY_SYSINFO:     call_sysinfo(t, st); break;
	default:                      call_object(t, st); break;
	}
}

const char *np_export_out_expr(const np_step *st, const char *name, np_export_out_kind *kind)
{
	static const struct {
		np_function_id id;
		const char *name, *expr;
		np_export_out_kind kind;
	} outs[] = {
		{ NP_FN_QUERY_INTERVAL, "Interval", "nx_u32(interval)", NP_EXPORT_OUT_U32 },
		{ NP_FN_TRACE_QUERY, "Interval", "nx_u32(info ? (char *)info + 4 : NULL)", NP_EXPORT_OUT_U32 },
		{ NP_FN_TRACE_QUERY, "ReturnLength", "nx_u32(return_length)", NP_EXPORT_OUT_U32 },
		{ NP_FN_CREATE_PROFILE, "ProfileHandle", "nx_handle_out(handle)", NP_EXPORT_OUT_HANDLE },
		{ NP_FN_CREATE_PROFILE_EX, "ProfileHandle", "nx_handle_out(handle)", NP_EXPORT_OUT_HANDLE },
		{ NP_FN_DUPLICATE_OBJECT, "TargetHandle", "nx_handle_out(target)", NP_EXPORT_OUT_HANDLE },
		{ NP_FN_SET_SYSINFO, "ProcessorProfileControlArea", "nx_pointer_out(buffer)", NP_EXPORT_OUT_POINTER },
		{ NP_FN_QUERY_SYSINFO, "ProcessorProfileControlArea", "nx_pointer_out(buffer)",
		  NP_EXPORT_OUT_POINTER },
		{ NP_FN_QUERY_SYSINFO, "ProfileInterval", "nx_u32(buffer ? (char *)buffer + 4 : NULL)",
		  NP_EXPORT_OUT_U32 },
		{ NP_FN_QUERY_SYSINFO, "ReturnLength", "nx_u32(return_length)", NP_EXPORT_OUT_U32 },
	};
	for (unsigned i = 0; st->catalog && i < sizeof outs / sizeof *outs; i++)
		if (outs[i].id == st->catalog->id && strcmp(outs[i].name, name) == 0) {
			*kind = outs[i].kind;
			return outs[i].expr;
		}
	return NULL;
}

/* A variable for each name the vector captures: h_NAME a handle, b_NAME
 * counters. */
static void capture_lines(np_export_text *t, const np_vector *v, bool pass)
{
	for (unsigned s = 0; s < v->nstep; s++) {
		const np_step *st = &v->step[s];
		for (unsigned i = 0; st->catalog && i < NP_MAX_PARAMS && st->catalog->param[i].name; i++) {
			const np_arg *a = np_step_value(st, st->catalog->param[i].name);
			if (a->kind == NP_PARAM_OUT_HANDLE && a->out_handle.capture[0])
				np_export_printf(t, pass ? "    (void)h_%s;\n" : "    HANDLE h_%s = NULL;\n",
						 a->out_handle.capture);
			else if (a->kind == NP_PARAM_BUFFER && a->buffer.form == NP_BUFFER_FRESH && a->buffer.name[0])
				np_export_printf(t, pass ? "    (void)b_%s;\n" : "    void *b_%s = NULL;\n", a->buffer.name);
		}
	}
}

/* The declarations first, then a use of each (a name no later step reads
 * is still no unused variable). */
void np_export_captures(np_export_text *t, const np_vector *v)
{
	capture_lines(t, v, false);
	capture_lines(t, v, true);
}
