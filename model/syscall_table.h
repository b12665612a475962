/* SPDX-License-Identifier: MIT */
/* The shape of model/syscall_table.c, the data tools/syscall-table.sh
 * generates from j00ru's tables, as model/syscalls.c reads it. Not
 * installed. */
#ifndef NTPROF_MODEL_SYSCALL_TABLE_H
#define NTPROF_MODEL_SYSCALL_TABLE_H

#include <stdint.h>

#include "ntprof/syscalls.h"
#include "ntprof/version.h"

/* A system's table lacks the function. */
#define NP_SYSCALL_NONE 0xFFFFu
/* At least either architecture's column count (39 x86, 34 x64). */
#define NP_SYSCALL_MAX_COLUMNS 48

/* A system of j00ru's table: the version key it belongs to, its short name. */
typedef struct np_syscall_column {
	np_ver v;
	const char *name;
} np_syscall_column;

/* A function's number in each column, in the columns' order. */
typedef struct np_syscall_row {
	const char *function;
	uint16_t number[NP_SYSCALL_MAX_COLUMNS];
} np_syscall_row;

/* A column past the count is all zero: 3.10 with no name, never read. */
extern const np_syscall_column np_syscall_x86_columns[NP_SYSCALL_MAX_COLUMNS];
extern const np_syscall_column np_syscall_x64_columns[NP_SYSCALL_MAX_COLUMNS];
extern const unsigned np_syscall_x86_column_count, np_syscall_x64_column_count;
/* The rows end with one whose function is NULL. */
extern const np_syscall_row np_syscall_x86_rows[NP_SYSCALL_FUNCTIONS + 1];
extern const np_syscall_row np_syscall_x64_rows[NP_SYSCALL_FUNCTIONS + 1];

#endif
