/* SPDX-License-Identifier: MIT */
/* ntprof: configuring a machine with KEY=VALUE settings, the `given` keys of
 * a vector (fixtures/README.md, Given keys): privilege=on, cpus=4, hal=emon,
 * hal.SOURCE.FIELD=N, cpuN.pebs=off, K-HAL-CLAMP=store, ...
 *
 * A setting can be wrong in two ways: malformed (an unknown key, a value
 * that is not one of the key's spellings), which no machine can take, or
 * well formed but a state that this machine cannot be in (hal=emon on 5.1,
 * cpu=3 with cpus=2), which makes a vector not applicable there. */
#ifndef NTPROF_CONFIGURE_H
#define NTPROF_CONFIGURE_H

#include <stdbool.h>

#include "ntprof/machine.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct np_setting {
	const char *key;
	const char *value;
} np_setting;

/* Applies key=value to m. Returns NULL, or what is wrong; then *malformed
 * (unless NULL) tells a malformed setting (true) from a state m cannot take
 * (false), and m is as it was. A HAL row whose minimum would be above its
 * maximum is such a state (HL-2): set the limit that makes room first. */
np_config_error np_machine_configure(np_machine *m, const char *key, const char *value, bool *malformed);

/* The spelling check alone: NULL when key=value is well formed, whether or
 * not a given machine can take it; else the message np_machine_configure
 * gives for it. */
np_config_error np_config_check(const char *key, const char *value);
/* The given key nearest a mistyped one ("privlege": privilege), or NULL. */
const char *np_config_nearest(const char *key);

/* Applies n settings: every hal= first (it resets the HAL table), then every
 * cpus= (it decides which processors cpu= and cpuN.* may name), then the
 * rest in order. Stops at the first that fails and returns its message.
 * The HAL rows are judged once all are applied (HL-2: no supported row with
 * min above max), so a row's min= and max= may come in either order. */
np_config_error np_machine_configure_all(np_machine *m, const np_setting *settings, unsigned n);

/* ---- The knobs (ntprof/knobs.h), for `given`, `ntprof explain` and tests ---- */

#define NP_KNOB_MAX_VALUES 4

typedef struct np_knob_info {
	const char *name;                        /* K-HAL-CLAMP */
	const char *rule;                        /* the SPEC.md rules it qualifies */
	const char *values[NP_KNOB_MAX_VALUES];  /* spellings in enumeration order; NULL after the last.
						  * A version knob: its default, then "never" */
	unsigned def;                            /* index in values of the default */
} np_knob_info;

const np_knob_info *np_knob_table(unsigned *count);

/* The value knob k (an index of np_knob_table) has on m, as an index of its
 * values; -1 when a version knob holds a version other than its default. */
int np_knob_value(const np_machine *m, unsigned k);

#ifdef __cplusplus
}
#endif

#endif
