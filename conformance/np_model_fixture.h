/* SPDX-License-Identifier: MIT */
/* Pieces the model's CMocka programs share: how a machine is made (each
 * program gives only its own memory layout), a machine a test owns (freed by
 * teardown; a bare test has none, a blank one a zeroed machine of its own),
 * and the checks of a status and of a ULONG in the machine's memory. */
#ifndef NTPROF_NP_MODEL_FIXTURE_H
#define NTPROF_NP_MODEL_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "np_test.h"
#include "ntprof/calls.h"

static inline void machine_free(np_machine *m)
{
	np_machine_fini(m);
	free(m);
}

/* What a program maps (and sets) on each machine it boots, after
 * np_machine_init: its own address space. False when a step failed. */
typedef bool np_layout(np_machine *m);

/* A machine of v and a, with the HAL kind *hal when hal is not NULL (else
 * the version's own) and then lay_out; NULL, nothing left allocated, when
 * any step failed. The one way every model program makes its machines. */
static inline np_machine *machine_new_with(np_ver v, np_arch a, const np_hal_kind *hal,
					   np_layout *lay_out)
{
	np_machine *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	if (np_machine_init(m, v, a) || (hal && np_machine_set_hal(m, *hal)) || !lay_out(m)) {
		machine_free(m);
		return NULL;
	}
	return m;
}

/* The end of a setup: m is the test's machine; without one (NULL) the
 * setup fails and CMocka does not run the test. */
static inline int setup_with(void **state, np_machine *m)
{
	*state = m;
	return m ? 0 : -1;
}

static inline int setup_bare(void **state)
{
	*state = NULL;
	return 0;
}

/* A zeroed machine for a test that initializes (and may re-initialize) it
 * itself, as the version-sweeping tests do; teardown finalizes it. */
static inline int setup_blank(void **state)
{
	np_machine *m = calloc(1, sizeof *m);
	*state = m;
	return m ? 0 : -1;
}

static inline int teardown(void **state)
{
	if (*state)
		machine_free(*state);
	return 0;
}

static inline void assert_status(np_result r, uint32_t code)
{
	assert_int_equal(r.kind, NP_RESULT_STATUS);
	assert_int_equal(r.code, code);
}

static inline uint32_t rd32(np_machine *m, uint64_t addr)
{
	uint32_t v = 0;
	assert_true(np_mem_read(m, addr, &v, sizeof v));
	return v;
}

/* Whether the last call's record of rules holds r (a rule can change only
 * that record, what `explain` and the explorer's blame read). */
static inline bool applied(const np_machine *m, np_rule r)
{
	return m->trail.has[r / 64] >> (r % 64) & 1;
}

#endif
