/* SPDX-License-Identifier: MIT */
/* NtSetIntervalProfile on the model of Windows 10 1809 (x64), by a caller
 * without SeSystemProfilePrivilege and then by one that holds it.
 *   cc -std=c11 -o model_call model_call.c $(pkg-config --cflags --libs ntprof) */
#include <stdio.h>

#include <ntprof/calls.h>
#include <ntprof/status.h>

static void show(const char *who, np_result r)
{
	if (r.kind != NP_RESULT_STATUS) { /* a fault, a bug check, ... (np_result_kind) */
		printf("%s: outcome kind %d, code 0x%08X\n", who, (int)r.kind, (unsigned)r.code);
		return;
	}
	const char *name = np_status_name(r.code);
	printf("%s: %s (0x%08X)\n", who, name ? name : "?", (unsigned)r.code);
}

int main(void)
{
	np_machine m;
	np_config_error err = np_machine_init(&m, NP_V1809, NP_X64); /* SPEC.md MC-1 */
	if (err) {
		fprintf(stderr, "model_call: %s\n", err);
		return 1;
	}
	m.profile_privilege = false;
	show("without the privilege", np_nt_set_interval_profile(&m, 1000, NP_PROFILE_TIME));
	m.profile_privilege = true;
	show("with the privilege", np_nt_set_interval_profile(&m, 1000, NP_PROFILE_TIME));
	np_machine_fini(&m);
	return 0;
}
