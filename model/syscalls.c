/* SPDX-License-Identifier: MIT */
/* System-call numbers (SPEC.md, System-call numbers): the lookups over the
 * columns of j00ru's tables that model/syscall_table.c holds. */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "ntprof/names.h"
#include "ntprof/syscalls.h"
#include "syscall_table.h"

/* A WOW64 caller's 32-bit NTDLL passes the 64-bit kernel's own numbers, so
 * WOW64 reads the x64 columns. */
static const np_syscall_row *row_of(const char *function, np_arch a, const np_syscall_column **columns,
				    unsigned *count)
{
	const np_syscall_row *rows = a == NP_X86 ? np_syscall_x86_rows : np_syscall_x64_rows;
	*columns = a == NP_X86 ? np_syscall_x86_columns : np_syscall_x64_columns;
	*count = a == NP_X86 ? np_syscall_x86_column_count : np_syscall_x64_column_count;
	for (const np_syscall_row *r = rows; r->function; r++)
		if (strcmp(r->function, function) == 0)
			return r;
	return NULL;
}

const char *np_syscall_function(unsigned i)
{
	for (unsigned k = 0; np_syscall_x64_rows[k].function; k++)
		if (k == i)
			return np_syscall_x64_rows[k].function;
	return NULL;
}

bool np_syscall_function_known(const char *name)
{
	const np_syscall_column *columns;
	unsigned count;
	return row_of(name, NP_X64, &columns, &count) != NULL;
}

const char *np_syscall_function_nearest(const char *text)
{
	np_nearest n;
	np_nearest_start(&n, text);
	for (const np_syscall_row *r = np_syscall_x64_rows; r->function; r++)
		np_nearest_offer(&n, r->function);
	return np_nearest_found(&n);
}

/* The part of parts[0..*n) that holds number, a new one when none does. */
static np_syscall_part *part_for(np_syscall_part *parts, unsigned *n, uint16_t number)
{
	bool present = number != NP_SYSCALL_NONE;
	for (unsigned k = 0; k < *n; k++)
		if (parts[k].present == present && parts[k].number == number)
			return &parts[k];
	/* No key of the table has more: test_syscalls looks every key up and
	 * would stop here, so the line never runs. */
	if (*n == NP_SYSCALL_MAX_PARTS)
		NP_MODEL_BUG("more numbers in one version key than NP_SYSCALL_MAX_PARTS"); /* LCOV_EXCL_LINE */
	np_syscall_part *p = &parts[(*n)++];
	p->present = present;
	p->number = number;
	p->systems[0] = '\0';
	return p;
}

unsigned np_syscall_numbers(const char *function, np_ver v, np_arch a,
			    np_syscall_part part[NP_SYSCALL_MAX_PARTS])
{
	const np_syscall_column *columns;
	unsigned count, n = 0;
	const np_syscall_row *row = row_of(function, a, &columns, &count);
	for (unsigned c = 0; row && c < count; c++) {
		if (columns[c].v != v)
			continue;
		np_syscall_part *p = part_for(part, &n, row->number[c]);
		size_t used = strlen(p->systems);
		snprintf(p->systems + used, sizeof p->systems - used, "%s%s", used ? ", " : "", columns[c].name);
	}
	return n;
}
