/* SPDX-License-Identifier: MIT */
/* The steps that change the situation between two calls: the active
 * processors (SetCpus, MC-7), another privileged process's interval
 * (SetIntervalElsewhere, MC-8), the protection of a buffer's pages
 * (Protect, and a fresh buffer's page form, AS-4). Each is an optional
 * operation of ntprof/impl.h: an implementation without it makes the step
 * not applicable. */
#include <string.h>

#include "run/interpreter.h"
#include "ntprof/calls.h"

#define PAGE 0x1000ull

static ntprof_result protect(np_native_state *s, uint64_t buffer, uint32_t size, uint32_t page,
			     uint32_t count, bool readonly)
{
	if (!s->impl->protect)
		return np_lacking_op;
	if (count == 0 || (uint64_t)page + count > ((uint64_t)size + PAGE - 1) / PAGE)
		return (ntprof_result){ NTPROF_NOT_APPLICABLE, 0, "the pages are not all in the buffer" };
	return s->impl->protect(s->sys, buffer + page * PAGE, count * PAGE,
				readonly ? NTPROF_PROT_READ : 0);
}

/* AS-4: a fresh buffer's page form (Buffer=>b:unmapped=N, :readonly=N),
 * made before the call that receives the buffer; false, with why noted,
 * when the system cannot make it. */
bool np_native_buffer_pages(np_native_state *s, const np_arg *a, uint64_t addr, uint32_t size)
{
	if (a->buffer.page_access == NP_PAGE_AS_IS)
		return true;
	ntprof_result res = protect(s, addr, size, a->buffer.page, 1,
				    a->buffer.page_access == NP_PAGE_READONLY);
	if (res.kind == NTPROF_NONE)
		return true;
	if (!s->lacking)
		s->lacking = res.why ? res.why : "the system cannot change a page's protection";
	return false;
}

static void protect_step(np_native_state *s, const np_step *st, np_record *r)
{
	const np_capture *c = np_native_find_capture(s, np_step_value(st, "Buffer")->captured);
	if (!c) {
		np_native_not_applicable(r, "no such buffer: the step that captures it did not make it");
		return;
	}
	bool readonly = strcmp(np_step_value(st, "Access")->choice.word, "readonly") == 0;
	np_native_result(s, r, protect(s, c->value, c->size, np_step_value(st, "Page")->u32.value,
				       np_step_value(st, "Count")->u32.value, readonly));
}

void np_native_elsewhere(np_native_state *s, const np_step *st, np_record *r)
{
	switch (st->catalog->id) {
	case NP_FN_SET_CPUS:
		np_native_result(s, r, s->impl->set_cpus
			? s->impl->set_cpus(s->sys, np_step_value(st, "Count")->u32.value) : np_lacking_op);
		break;
	case NP_FN_SET_INTERVAL_ELSEWHERE:
		np_native_result(s, r, s->impl->set_interval_elsewhere
			? s->impl->set_interval_elsewhere(s->sys, np_step_value(st, "Interval")->u32.value,
							  np_step_value(st, "Source")->source)
			: np_lacking_op);
		break;
	default:
		protect_step(s, st, r);
		break;
	}
}
