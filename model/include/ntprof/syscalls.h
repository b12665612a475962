/* SPDX-License-Identifier: MIT */
/* ntprof: the system-call numbers of the catalog's functions, per version
 * key and architecture (SPEC.md, System-call numbers).
 *
 * Facts, not behaviour: the numbers are j00ru's public tables
 * (https://github.com/j00ru/windows-syscalls, x86/csv/nt.csv and
 * x64/csv/nt.csv), one column per system j00ru lists, each column given the
 * version key it belongs to. WOW64 callers use the x64 numbers. A key none
 * of whose systems j00ru lists has no number: unknown, never a guess. */
#ifndef NTPROF_SYSCALLS_H
#define NTPROF_SYSCALLS_H

#include <stdbool.h>
#include <stdint.h>

#include "ntprof/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The functions the table has: the catalog's eight native calls. */
#define NP_SYSCALL_FUNCTIONS 8
/* The i-th function's name ("NtCreateProfile"), or NULL past the end. */
const char *np_syscall_function(unsigned i);
/* Whether name is one of them (case matters, as in an export table), and
 * the one nearest a mistyped name, or NULL (ntprof/names.h's measure). */
bool np_syscall_function_known(const char *name);
const char *np_syscall_function_nearest(const char *text);

/* One number of a function on a version key, with the systems of j00ru's
 * table that give it: one part when the key's systems agree, one per number
 * where a service pack changes it ("Vista SP0" and "Vista SP1, Vista SP2"). */
typedef struct np_syscall_part {
	bool present;          /* false: those systems' tables lack the function */
	uint16_t number;
	char systems[160];     /* "Vista SP1, Vista SP2" */
} np_syscall_part;

#define NP_SYSCALL_MAX_PARTS 6
/* The numbers of function on v/a, in the order of j00ru's columns; how many
 * parts were written. 0: the table has no system of v/a (or function is not
 * one of the eight), so the number is unknown. */
unsigned np_syscall_numbers(const char *function, np_ver v, np_arch a,
			    np_syscall_part part[NP_SYSCALL_MAX_PARTS]);

#ifdef __cplusplus
}
#endif

#endif
