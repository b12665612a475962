/* Pieces the model's CMocka programs share: a machine a test owns (freed by
 * teardown; a bare test has none, a blank one a zeroed machine of its own), and the checks of a status and of a
 * ULONG in the machine's memory. Each program still maps its own memory
 * layout in its own machine_new(). */
#ifndef NTPROF_NP_MODEL_FIXTURE_H
#define NTPROF_NP_MODEL_FIXTURE_H

#include <stdint.h>
#include <stdlib.h>

#include "np_test.h"
#include "ntprof/calls.h"

static inline void machine_free(np_machine *m)
{
	np_machine_fini(m);
	free(m);
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

#endif
