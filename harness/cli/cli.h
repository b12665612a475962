/* SPDX-License-Identifier: MIT */
/* The ntprof command line: the table of commands (commands.c), the option
 * parser every command drives with a table of its options (options.c), and
 * what several commands share: the output sink (sink.c), FILE|DIR lists and
 * loading vectors and the rule index (load.c), backends (backends.c),
 * --target, --arch and --given (targets.c), and what run and the Windows
 * exe's live share (run_shared.c). One file per command: cmd_NAME.c.
 *
 * What differs between the POSIX ntprof and the Windows exe sits in a file
 * only its build links (the Makefile selects it): cli/posix.c here,
 * win/cli_platform.c and win/cmd_live.c there. */
#ifndef NTPROF_CLI_H
#define NTPROF_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ntprof/backend.h"
#include "ntprof/rules_index.h"
#include "ntprof/known.h"
#include "ntprof/runner.h"
#include "ntprof/vector.h"
#include "ntprof/version.h"

/* Exit status: 0 all well, 1 a difference, 2 bad input. */
#define EXIT_DIFFERENCE 1
#define EXIT_BAD_INPUT  2

/* ---- options ------------------------------------------------------------ */

typedef struct cli_option cli_option;

/* Checks an option's value and stores it in field (the option's field of
 * the command's settings). 0, or the exit status after saying why (through
 * cli_usage when the usage is the answer). value is NULL for a flag. */
typedef int (*cli_check)(void *field, const char *value, const cli_option *o);

struct cli_option {
	const char *name;     /* "--output"; NULL ends a table */
	const char *alias;    /* another spelling ("-v"), or NULL */
	const char *value;    /* what the value is ("FILE"); NULL: a flag, takes none */
	size_t field;         /* offsetof the setting it sets in the command's settings */
	cli_check check;      /* NULL: a flag sets a bool, a value is kept as given (const char *) */
	const char *bad;      /* the usage error when the value is missing (or check refuses it) */
	const char *help;     /* what it does, one line */
};

/* How a command reads its arguments. */
typedef struct cli_syntax {
	const char *command;                     /* as messages name it: "run" */
	const cli_option *options;               /* its own */
	const cli_option *shared;                /* more, shared with another command; or NULL */
	int (*operand)(void *settings, char *arg);   /* a non-option; NULL: refused as unknown */
	const char *option_prefix;               /* what an option starts with; NULL: "-" */
	bool operands_last;                      /* the first operand ends the options */
	const char *unknown_usage;               /* the usage error for an unknown argument;
						    NULL: "ntprof: CMD: unknown option|argument ARG" */
} cli_syntax;

/* Reads argv into settings. 0, or the exit status after saying why. With
 * operands_last, *end is where the operands start (argc when none). */
int cli_parse(const cli_syntax *s, int argc, char **argv, void *settings, int *end);

/* ---- commands ----------------------------------------------------------- */

typedef struct cli_command {
	const char *name;              /* argv[1]; NULL: not in this build */
	int (*main)(int argc, char **argv);   /* given the arguments after the name */
	const char *summary;           /* what it does, one line */
	const char *const *usage;      /* its usage lines, NULL-ended; NULL: left out of the usage */
	const cli_syntax *syntax;      /* its options; NULL: it reads no options */
	const char *const *notes;      /* --help's lines after the options, NULL-ended; NULL: none */
} cli_command;

/* Every command, in the order of the usage text. */
extern const cli_command *const cli_commands[];
extern const unsigned cli_command_count;

extern const cli_command cli_run, cli_compare, cli_matrix, cli_diff, cli_call, cli_explore,
	cli_explain, cli_trace, cli_versions, cli_syscalls, cli_export;
/* The Windows exe's own (win/cmd_live.c): `live`, and `--child`, a vector's
 * session in a child process. The POSIX ntprof has neither (cli/posix.c). */
extern const cli_command cli_live, cli_child;

/* Prints "ntprof: WHY" (when why) and the usage of the command being run
 * (cli_set_current; of every command before one is found) to stderr;
 * returns EXIT_BAD_INPUT. */
int cli_usage(const char *why);
void cli_set_current(const cli_command *c);
/* A command's usage, summary and options on stdout; 0. */
int cli_help(const cli_command *c);
/* "ntprof VERSION" on stdout; 0. */
int cli_version(void);
/* The command named name (NULL: none), and the one nearest a mistyped name. */
const cli_command *cli_find_command(const char *name);
const char *cli_nearest_command(const char *name);
/* Refuses a command's operands when it takes none: 0, or EXIT_BAD_INPUT. */
int cli_no_operands(const char *command, int argc, char **argv);

/* ---- the output sink ---------------------------------------------------- */

/* Writes through a temporary file renamed into place: no half-written
 * output. path NULL: stdout. A character device or FIFO is written
 * directly; a symlink to a regular file is written through (the file is
 * replaced, the link stays); a directory, a dangling symlink or another
 * kind of file is refused. */
typedef struct cli_sink {
	FILE *f;
	char tmp[1100];
	char target[1100];   /* what the rename replaces: path, or what its symlink names */
	const char *path;
	bool direct;         /* written in place: a device or a FIFO */
	char why[200];       /* why opening or closing failed */
} cli_sink;

bool cli_sink_open(cli_sink *s, const char *path);
/* Flushes, or moves the temporary file over path; false when either fails. */
bool cli_sink_close(cli_sink *s);
/* Gives up an opened sink: its temporary file goes, the target stays as it was. */
void cli_sink_abort(cli_sink *s);
/* "ntprof: OPTION PATH: cannot write: WHY" on stderr; EXIT_BAD_INPUT. */
int cli_sink_error(const char *option, const char *path, const cli_sink *s);

/* ---- FILE|DIR lists, vectors, the rule index ----------------------------- */

/* The FILE|DIR arguments of run, live, matrix and diff: at most
 * CLI_MAX_PATHS, and one more is an error rather than an argument quietly
 * left out. */
#define CLI_MAX_PATHS 256
typedef struct cli_paths {
	const char *path[CLI_MAX_PATHS];
	unsigned count;
} cli_paths;

/* 0, or EXIT_BAD_INPUT after naming the command and the path. */
int cli_paths_add(const char *command, cli_paths *l, const char *path);

/* The vectors of the named files and directories; with none, the
 * repository's fixtures/ (or, in a build that carries its fixtures, those
 * compiled in, unless --root names a tree). False after printing why. */
bool cli_load_vectors(np_vector_set *set, const cli_paths *paths, const char *root);

/* The rule index of explain and trace, from the root np_find_root finds;
 * false (the reason on stderr, nothing left to free) when it cannot be had. */
bool cli_load_index(const char *root, np_index *ix);

/* ---- backends, targets, architectures, given pairs ---------------------- */

/* `model` or `dl:PATH`; NULL with why when it cannot be had. */
np_backend *cli_open_backend(const char *name, char *why, size_t cap);
/* A step timeout, as --step-timeout and NTPROF_STEP_TIMEOUT take it: how
 * it is refused, and its bounds in milliseconds (np_seconds_parse). */
#define CLI_STEP_TIMEOUT_TAKES "takes seconds, 0.001 to 86400, with at most three decimals"
#define CLI_STEP_TIMEOUT_MAX_MS 86400000u
/* An implementation's step timeout when no option gives one: into *ms,
 * NTPROF_STEP_TIMEOUT (unset or empty: 60 s, the live side's). False when
 * it is malformed, said on stderr naming it. */
bool cli_step_timeout_env(unsigned *ms);

/* --target VERSION[/ARCH] added to an np_target_list. */
int cli_check_target(void *targets, const char *value, const cli_option *o);
/* --target/--targets VERSION[/ARCH][,...] added to an np_target_list; the
 * error names the option as given. */
int cli_check_target_list(void *targets, const char *value, const cli_option *o);
/* A comma list of VERSION[/ARCH] added to targets: NULL, or why not with
 * item the one refused ("" for the list as a whole). */
const char *cli_targets_parse(np_target_list *targets, const char *list, char *item, size_t cap);

/* --arch LIST: comma-separated architectures. */
typedef struct cli_arches {
	bool chosen[NP_ARCH_COUNT];
	bool any;                   /* some --arch was given */
} cli_arches;
int cli_check_arches(void *arches, const char *value, const cli_option *o);

/* --given KEY=VALUE, repeatable. */
typedef struct cli_given {
	np_pair pair[NP_MAX_GIVEN];
	unsigned count;
} cli_given;
int cli_check_given(void *given, const char *value, const cli_option *o);

/* ---- what run and live share -------------------------------------------- */

/* The options both take (cli_run_shared_options sets these fields). */
typedef struct cli_run_settings {
	np_target_list targets;
	np_format format;
	const char *backend, *output, *root, *known, *known_write;
	bool verbose;
	cli_paths paths;
} cli_run_settings;

extern const cli_option cli_run_shared_options[];

/* Refuses --output and --known-write naming the same file, then reads the
 * known-divergence list and the vectors. 0, or the exit status after
 * saying why (nothing left to free). */
int cli_run_load(const cli_run_settings *s, np_known *known, np_vector_set *set);

/* Applies the known-divergence list to the run, writes the report and the
 * --known-write list, and gives the exit status. */
int cli_run_report(const cli_run_settings *s, np_run *run, np_known *known);

/* ---- what differs between the POSIX ntprof and the Windows exe ---------- */

/* Moves tmp over path in one step, replacing it. */
bool cli_replace_file(const char *tmp, const char *path);
/* Creates one directory; mkdir's result (errno set on failure). */
int cli_make_dir(const char *path);
/* Loads the fixtures compiled into the program, if any: false when there
 * are none, else true with *ok whether they loaded (err set if not). */
bool cli_builtin_fixtures(np_vector_set *set, np_error *err, bool *ok);
/* Gives the memory freed so far back to the system where the C library can
 * (a process that forks a child per evaluation then copies less). */
void cli_release_memory(void);

#endif
