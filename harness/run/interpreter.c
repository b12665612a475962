/* SPDX-License-Identifier: MIT */
/* The interpreter: evaluates a vector's steps on any implementation of
 * ntprof/impl.h (the model, a live Windows, a dl: shared object). Each
 * vector gets a fresh system; a step's arguments, typed when the step was
 * read, are made real on it (interpreter_args.c) by the step's own function
 * (interpreter_steps.c), and the implementation's result becomes the
 * record's outcome here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/impl_model.h"
#include "run/interpreter.h"
#include "ntprof/calls.h"
#include "ntprof/names.h"

void np_record_out(np_record *r, const char *name, const char *value)
{
	if (r->nout == NP_MAX_OUTS)
		return;
	np_pair *p = &r->out[r->nout++];
	snprintf(p->name, sizeof p->name, "%s", name);
	snprintf(p->value, sizeof p->value, "%s", value);
}

void np_record_out_u32(np_record *r, const char *name, uint32_t value)
{
	char text[16];
	snprintf(text, sizeof text, "%u", value);
	np_record_out(r, name, text);
}

static const char *native_begin(np_backend *self, np_target t, const np_vector *v)
{
	np_native_state *s = self->state;
	ntprof_setting given[NP_MAX_GIVEN];
	bool kernel_caller = false;
	for (unsigned i = 0; i < v->ngiven; i++) {
		given[i] = (ntprof_setting){ v->given[i].name, v->given[i].value };
		kernel_caller = kernel_caller || (strcmp(v->given[i].name, "mode") == 0 &&
						  strcmp(v->given[i].value, "kernel") == 0);
	}
	ntprof_system_spec spec = { np_version_key(t.version), np_arch_name(t.arch), given, v->ngiven };
	const char *why = "the implementation cannot take that state";
	s->ncap = 0;
	s->halted = false;
	s->lacking = NULL;
	s->arch = t.arch;
	/* SY-9: a WOW64 caller's pointers are 32 bits wide, a kernel caller's 64 */
	s->pointer_size = t.arch == NP_X86 || (t.arch == NP_WOW64 && !kernel_caller) ? 4u : 8u;
	if (s->spare)
		s->sys = np_impl_model_reopen(s->spare, &spec, &why);
	else
		s->sys = s->impl->open(&spec, &why);
	s->spare = NULL;
	return s->sys ? NULL : why;
}

/* The model's system is kept to be opened again: a machine is 100 KiB,
 * and a fresh one for each vector and target was much of a run under a
 * sanitizer, whose every allocation is new memory. */
static void native_end(np_backend *self)
{
	np_native_state *s = self->state;
	if (s->sys && s->impl == &np_impl_model)
		s->spare = s->sys;
	else if (s->sys)
		s->impl->close(s->sys);
	s->sys = NULL;
}

/* The ABI's result kinds are the records' number for number
 * (run/impl_model.c asserts it): a kind crosses as it is, and one past the
 * last is the implementation's failure. */
void np_native_result(np_native_state *s, np_record *r, ntprof_result res)
{
	if (res.kind > NP_RESULT_LAST) {
		r->outcome.kind = NP_RESULT_CRASHED;
		snprintf(r->why, sizeof r->why, "the implementation returned result kind %u", res.kind);
		return;
	}
	r->outcome.kind = (np_result_kind)res.kind;
	r->outcome.code = res.code;
	if (res.why)
		snprintf(r->why, sizeof r->why, "%s", res.why);
	if (res.kind == NTPROF_BUGCHECK) {   /* the system is gone: every later step says so */
		s->halted = true;
		s->halt_code = res.code;
	}
}

const ntprof_result np_lacking_op = { NTPROF_NOT_APPLICABLE, 0, NP_WHY_LACKING_OP };

void np_native_not_applicable(np_record *r, const char *why)
{
	r->outcome.kind = NP_RESULT_NOT_APPLICABLE;
	snprintf(r->why, sizeof r->why, "%s", why);
}

bool np_native_lacking(np_native_state *s, np_record *r)
{
	if (!s->lacking)
		return false;
	np_native_not_applicable(r, s->lacking);
	return true;
}

/* The step's own function, by the function's catalog entry. */
static void dispatch(np_native_state *s, const np_step *st, np_record *r)
{
	switch (st->catalog->id) {
	case NP_FN_SET_INTERVAL:   np_native_set_interval(s, st, r); break;
	case NP_FN_QUERY_INTERVAL: np_native_query_interval(s, st, r); break;
	case NP_FN_TRACE_SET:      np_native_trace_set(s, st, r); break;
	case NP_FN_TRACE_QUERY:    np_native_trace_query(s, st, r); break;
	case NP_FN_READ_EVENTS:    np_native_read_events(s, r); break;
	case NP_FN_CREATE_PROFILE:
	case NP_FN_CREATE_PROFILE_EX:
		np_native_create(s, st, r);
		break;
	case NP_FN_START_PROFILE:
	case NP_FN_STOP_PROFILE:
	case NP_FN_CLOSE:
	case NP_FN_DUPLICATE_OBJECT:
		np_native_object(s, st, r);
		break;
	case NP_FN_INTERRUPT:      np_native_interrupt(s, st, r); break;
	case NP_FN_INTERRUPTS:     np_native_interrupts(s, st, r); break;
	case NP_FN_READ_BUFFER:
	case NP_FN_WRITE_BUFFER:
	case NP_FN_FREE_BUFFER:
		np_native_buffer_step(s, st, r);
		break;
	case NP_FN_INJECT:         np_native_inject(s, st, r); break;
	case NP_FN_SET_SYSINFO:
	case NP_FN_QUERY_SYSINFO:
		np_native_sysinfo(s, st, r);
		break;
	case NP_FN_MOVE_THREAD:    np_native_move_thread(s, st, r); break;
	case NP_FN_SET_CPUS:
	case NP_FN_SET_INTERVAL_ELSEWHERE:
	case NP_FN_PROTECT:
		np_native_elsewhere(s, st, r);
		break;
	}
}

/* The model's record of the step, kept with its outcome. */
static void copy_trail(np_record *r, const np_trail *t, np_applied export)
{
	r->rule = t->decided;
	r->napplied = 0;
	if (export.rule != NP_RULE_NONE)   /* the call exists: its signature rule first */
		r->applied[r->napplied++] = export;
	for (unsigned i = 0; i < t->count && r->napplied < NP_TRAIL_MAX; i++)
		if (t->applied[i].rule != export.rule)
			r->applied[r->napplied++] = t->applied[i];
}

static void native_step(np_backend *self, const np_step *st, np_record *r)
{
	np_native_state *s = self->state;
	const np_function *f = st->catalog;
	memset(r, 0, sizeof *r);
	s->lacking = NULL;
	if (!f)
		abort(); /* LCOV_EXCL_LINE: a step runs once read (np_parse_step, np_step_type) */
	bool model = s->impl == &np_impl_model;
	bool exported_call = f->kind == NP_KIND_NATIVE || f->kind == NP_KIND_SYSINFO;
	np_applied export = exported_call && model ? np_export_applied(st->function)
						   : (np_applied){ NP_RULE_NONE, NULL, 0 };
	if (exported_call && !s->impl->exported(s->sys, st->function)) {
		r->outcome.kind = NP_RESULT_NOT_EXPORTED;
		r->rule = export.rule;
		r->applied[0] = export;
		r->napplied = export.rule != NP_RULE_NONE;
		return;
	}
	if (s->halted) {                            /* a bug check stopped the system */
		r->outcome = (np_outcome){ NP_RESULT_BUGCHECK, s->halt_code };
		r->rule = model ? NP_RULE(IN_7) : NP_RULE_NONE;
		return;
	}
	if (model)
		np_trail_clear(np_impl_model_machine(s->sys));
	dispatch(s, st, r);
	if (model)
		copy_trail(r, &np_impl_model_machine(s->sys)->trail, export);
}

static void native_destroy(np_backend *self)
{
	native_end(self);
	np_native_state *s = self->state;
	if (s->spare)
		s->impl->close(s->spare);
	free(self->state);
	free(self);
}

np_backend *np_backend_native_new(const ntprof_impl *impl)
{
	np_backend *b = calloc(1, sizeof *b);
	np_native_state *s = calloc(1, sizeof *s);
	if (!b || !s) {
		free(b);
		free(s);
		return NULL;
	}
	s->impl = impl;
	*b = (np_backend){ .name = impl->name, .begin = native_begin, .step = native_step,
			   .end = native_end, .destroy = native_destroy, .state = s };
	return b;
}

np_backend *np_backend_model_new(void)
{
	return np_backend_native_new(&np_impl_model);
}
