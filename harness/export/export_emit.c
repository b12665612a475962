/* SPDX-License-Identifier: MIT */
/* The generated file as a whole (export.h): the header comment, the
 * prelude, a table of tests per family of vectors (the part of their IDs
 * before the '/'), one row per vector with a row per step in it (in
 * #ifdef _WIN64 where only one caller width has a test), a function per
 * table that runs its rows through nx_run, the vectors left out with why,
 * and the entry point. Nothing in it depends on when or where it is made:
 * the same vectors and options give the same file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "run/safety.h"
#include "vectors/catalog.h"

#define FUNCTION_IDS (NP_FN_INTERRUPTS + 1)

/* A vector's file as the header and comments name it: from "fixtures/" on
 * when it is in a tree's fixtures, so that the file does not depend on where
 * the tree is; as given otherwise. */
const char *np_export_shown_path(const char *file)
{
	const char *in = strstr(file, "/fixtures/");
	return in ? in + 1 : file;
}

static const char *width_condition(const np_export_plan *wide, const np_export_plan *narrow)
{
	return wide->usable && narrow->usable ? NULL : wide->usable ? "#ifdef _WIN64" : "#ifndef _WIN64";
}

static void comment_text(np_export_text *t, const char *text)
{
	for (; *text; text++)   /* a comment cannot hold its own end */
		np_export_printf(t, "%c", text[0] == '*' && text[1] == '/' ? '+' : text[0]);
}

/* text's words after first, on lines of at most 100 columns, each line
 * after the first starting with more. */
static void comment_wrapped(np_export_text *t, const char *first, const char *more, const char *text)
{
	size_t column = strlen(first);
	bool start = true;
	np_export_printf(t, "%s", first);
	while (*text) {
		size_t len = strcspn(text, " ");
		if (!start && column + 1 + len > 100) {
			np_export_printf(t, "\n%s", more);
			column = strlen(more);
			start = true;
		}
		np_export_printf(t, "%s%.*s", start ? "" : " ", (int)len, text);
		column += len + !start;
		start = false;
		text += len + (text[len] == ' ');
	}
	np_export_printf(t, "\n");
}

/* The lines text takes wrapped as a comment above a test's row. */
static unsigned comment_lines(const char *text)
{
	np_export_text c = { 0 };
	unsigned n = 0;
	comment_wrapped(&c, "    /* ", "     * ", text ? text : "");
	for (size_t i = 0; i < c.len; i++)
		n += c.s[i] == '\n';
	np_export_free(&c);
	return n;
}

/* Above a test's row: the vector's title, then its rules (the test's ID
 * finds the vector, and its sources, in the fixtures). Where they take
 * more than a line, the title is without its last "(aside)", then its
 * first clause (to "; " or ": ", at least 30 characters), and the rules
 * go to the end of the row's opening line (opener, its last line) where
 * they fit there and the comment above is a line shorter without. */
static void vector_comment(np_export_text *t, const np_vector *v, np_export_text *opener)
{
	np_export_text title = { 0 }, rules = { 0 }, both = { 0 };
	comment_text(&title, v->title);
	for (unsigned i = 0; i < v->nrule; i++)
		np_export_printf(&rules, "%s%s", i ? " " : "[", v->rule[i]);
	np_export_printf(&rules, "%s", v->nrule ? "]" : "");
	char *aside = title.s ? strrchr(title.s, '(') : NULL;
	if (aside && aside > title.s + 30 && aside[-1] == ' ' && title.s[title.len - 1] == ')' &&
	    7 + title.len + 1 + rules.len + 3 > 100)
		title.s[title.len = (size_t)(aside - 1 - title.s)] = '\0';
	if (title.len > 30 && 7 + title.len + 1 + rules.len + 3 > 100) {
		size_t cut = 30 + strcspn(title.s + 30, ";:");
		if (cut < title.len && title.s[cut + 1] == ' ')
			title.s[title.len = cut] = '\0';
	}
	np_export_printf(&both, "%s%s%s */", title.s ? title.s : "", v->nrule ? " " : "",
			 rules.s ? rules.s : "");
	np_export_printf(&title, " */");
	const char *line = opener->s ? strrchr(opener->s, '\n') : NULL;
	size_t width = opener->len - (line ? (size_t)(line + 1 - opener->s) : 0) + 4 + rules.len + 3;
	bool after = v->nrule && width <= 100 && comment_lines(title.s) < comment_lines(both.s);
	comment_wrapped(t, "    /* ", "     * ", after ? title.s : both.s ? both.s : "");
	if (after)
		np_export_printf(opener, " /* %s */", rules.s);
	t->failed = t->failed || title.failed || rules.failed || both.failed;
	np_export_free(&title);
	np_export_free(&rules);
	np_export_free(&both);
}

/* The machines the test runs on: those whose processors give what the
 * model's gave (export_expect.c probes them). groups 0: any; else the
 * first range of processors in group 0 between probes that fit, in one
 * group (1) or in any (2: where 64 in 2 groups fit too). Probes 0 to
 * NP_EXPORT_PROBES - 2 are one group, ascending. */
static void processors_guard(np_export_text *t, const np_export_plan *wide, const np_export_plan *narrow)
{
	bool fit[NP_EXPORT_PROBES], all = true;
	for (unsigned i = 0; i < NP_EXPORT_PROBES; i++) {
		fit[i] = (!wide->usable || wide->fits[i]) && (!narrow->usable || narrow->fits[i]);
		all = all && fit[i];
	}
	if (all)
		return;
	unsigned lo = 0, hi = 0, i = 0;
	while (i + 1 < NP_EXPORT_PROBES && !fit[i])
		i++;
	if (i + 1 < NP_EXPORT_PROBES) {   /* else no machine: 1 to 0 */
		lo = np_export_probe_cpus[i];
		while (i + 2 < NP_EXPORT_PROBES && fit[i + 1])
			i++;
		hi = np_export_probe_cpus[i];
	}
	bool groups = fit[NP_EXPORT_PROBES - 1] && fit[NP_EXPORT_PROBES - 2];
	np_export_printf(t, ".groups = %d, .cpus = { %u, %u }, ", groups ? 2 : 1, lo ? lo : 1, hi);
}

/* The test row's closing braces, on its last step's row where that row
 * (or its last wrapped line) is the last line (not one under #ifdef
 * _WIN64): a line less per test. */
static void close_test(np_export_text *row)
{
	static const char step[] = "        { NX_", wrapped[] = "          ";
	char *line = row->len > 1 && row->s[row->len - 1] == '\n' ? row->s + row->len - 1 : NULL;
	while (line && line > row->s && line[-1] != '\n')
		line--;
	char *comment = line ? strstr(line, "}, /* ") : NULL;
	char *comma = comment ? comment + 1 : row->s + row->len - 2;
	char tail[1024];
	if (!line || (strncmp(line, step, sizeof step - 1) != 0 && strncmp(line, wrapped, sizeof wrapped - 1) != 0) ||
	    *comma != ',' || strlen(comma + 1) >= sizeof tail ||
	    row->s + row->len - 1 - line + 4 > 100) {   /* the braces would make it wider than 100 */
		np_export_printf(row, "    } },\n");
		return;
	}
	snprintf(tail, sizeof tail, "%s", comma + 1);
	row->len = (size_t)(comma - row->s);
	row->s[row->len] = '\0';
	np_export_printf(row, " } },%s", tail);
}

/* The test row's opening line (the last of row), broken after the last
 * ", " before a named field that leaves it within 100 columns. */
static void opener_wrapped(np_export_text *row)
{
	char *line = row->s + row->len - 1, *at = NULL;
	while (line > row->s && line[-1] != '\n')
		line--;
	if (row->len - (size_t)(line - row->s) <= 101)
		return;
	for (char *c = strstr(line, ", ."); c && c + 1 - line <= 100; c = strstr(c + 1, ", ."))
		at = c;
	if (!at)
		return;
	char tail[1024];
	snprintf(tail, sizeof tail, "%s", at + 2);
	row->len = (size_t)(at - row->s);
	np_export_printf(row, ",\n      %s", tail);
}

/* The test row of a vector, its steps' rows in it; NULL, or why it cannot
 * be one (nothing of it is then written). */
static const char *test_row(np_export_text *t, const np_vector *v, const np_export_plan *wide,
			    const np_export_plan *narrow, const np_export_options *o, np_export_sizes *z)
{
	np_export_text row = { 0 };
	const char *cond = width_condition(wide, narrow);
	np_global g[8];
	unsigned ng = np_vector_globals(v, g, 8);
	bool privilege = false;
	for (unsigned i = 0; i < v->ngiven; i++)
		if (strcmp(v->given[i].name, "privilege") == 0)
			privilege = strcmp(v->given[i].value, "on") == 0;
	np_export_text op = { 0 };   /* the row's opening line(s) */
	np_export_printf(&row, "%s%s", cond ? cond : "", cond ? "\n" : "");
	np_export_printf(&op, "    { \"%s\", __LINE__, %s", v->id, privilege ? ".privilege = 1, " : "");
	processors_guard(&op, wide, narrow);
	bool sources = false;   /* a global other than ProfileTime's (0, the default) */
	for (unsigned i = 0; i < ng; i++)
		sources = sources || g[i].kind == NP_GLOBAL_ETW_TIME || g[i].source != 0;
	if (ng)
		np_export_printf(&op, ".nglobal = %u, ", ng);
	for (unsigned i = 0; i < ng && sources; i++)
		if (g[i].kind == NP_GLOBAL_ETW_TIME)
			np_export_printf(&op, "%sNX_ETW_TIME", i ? ", " : ".global = { ");
		else
			np_export_printf(&op, g[i].source < 10 ? "%s%u" : "%s0x%x", i ? ", " : ".global = { ",
					 (unsigned)g[i].source);
	np_export_printf(&op, "%s.step = {\n", sources ? " }, " : "");
	opener_wrapped(&op);
	if (op.s)
		op.s[--op.len] = '\0';   /* its newline, after the rules where they go there */
	vector_comment(&row, v, &op);
	np_export_printf(&row, "%s\n", op.s ? op.s : "");
	row.failed = row.failed || op.failed;
	np_export_free(&op);
	const char *bad = np_export_step_rows(&row, v, wide, narrow, o, z);
	close_test(&row);
	np_export_printf(&row, "%s", cond ? "#endif\n" : "");
	if (!bad && !row.failed) {
		np_export_printf(t, "%s", row.s);
		t->ok += row.ok;
		t->broken += row.broken;
		t->todo += row.todo;
		t->todo_ros += row.todo_ros;
		np_export_names_merge(t, &row);
		z->steps = v->nstep > z->steps ? v->nstep : z->steps;
		z->globals = ng > z->globals ? ng : z->globals;
	}
	t->failed = t->failed || row.failed;
	np_export_free(&row);
	return bad;
}

/* The tests of one family of vectors (the part of their IDs before the
 * '/'), together in the one table. */
typedef struct topic {
	char key[NP_TEXT_MAX];   /* the IDs' part */
	np_export_text rows;
} topic;

#define MAX_TOPICS 32

/* What one export is made of while it is being made. */
typedef struct export_parts {
	topic topic[MAX_TOPICS];
	unsigned ntopic;
	np_export_text omitted, counts;
	np_export_sizes sizes;
	unsigned char used[FUNCTION_IDS]; /* NP_SPELLED_NT, NP_SPELLED_ZW */
	unsigned exported, left_out;
} export_parts;

static topic *topic_of(export_parts *x, const np_vector *v)
{
	size_t len = strcspn(v->id, "/");
	for (unsigned i = 0; i < x->ntopic; i++)
		if (strlen(x->topic[i].key) == len && strncmp(x->topic[i].key, v->id, len) == 0)
			return &x->topic[i];
	if (x->ntopic == MAX_TOPICS)
		return &x->topic[MAX_TOPICS - 1];   /* the last family takes the rest */
	topic *p = &x->topic[x->ntopic++];
	snprintf(p->key, sizeof p->key, "%.*s", (int)len, v->id);
	return p;
}

static void left_out_line(export_parts *x, const np_vector *v, const char *why)
{
	np_export_text c = { 0 };
	char first[NP_TEXT_MAX + 16];
	snprintf(first, sizeof first, " *   %s: ", v->id);
	comment_text(&c, why);
	comment_wrapped(&x->omitted, first, " *     ", c.s ? c.s : "");
	x->omitted.failed = x->omitted.failed || c.failed;
	np_export_free(&c);
	x->left_out++;
}

static void one_vector(export_parts *x, const np_vector *v, const np_export_options *o, np_backend *model,
		       np_export_plan plan[2])
{
	char why[NP_TEXT_MAX * 2];
	const char *bad;
	if (np_vector_has_flag(v, "hazardous")) {
		left_out_line(x, v, "hazardous: it may crash a real kernel on some version");
		return;
	}
	if (np_export_left_out(v, o, model, why, sizeof why)) {
		left_out_line(x, v, why);
		return;
	}
	np_export_plan_width(model, v, o->since, true, &plan[0]);
	np_export_plan_width(model, v, o->since, false, &plan[1]);
	if (!plan[0].usable && !plan[1].usable) {
		snprintf(why, sizeof why, "64-bit: %.180s; 32-bit: %.180s", plan[0].why, plan[1].why);
		left_out_line(x, v, why);
		return;
	}
	topic *p = topic_of(x, v);
	if ((bad = test_row(&p->rows, v, &plan[0], &plan[1], o, &x->sizes)) != NULL) {
		left_out_line(x, v, bad);
		return;
	}
	for (unsigned s = 0; s < v->nstep; s++) {
		const np_function *f = v->step[s].catalog;
		bool zw = f->alias && strcmp(v->step[s].function, f->alias) == 0;
		x->used[f->id] |= zw ? NP_SPELLED_ZW : NP_SPELLED_NT;
	}
	x->exported++;
}

/* The files the vectors came from, each with how many were read, as many
 * to a line as fit in 100 columns. */
static void sources_list(np_export_text *t, const np_vector_set *set)
{
	size_t column = 0;
	for (unsigned i = 0; i < set->count; i++) {
		const char *file = set->v[i].file;
		if (i > 0 && strcmp(set->v[i - 1].file, file) == 0)
			continue;
		unsigned n = 0;
		for (unsigned k = i; k < set->count && strcmp(set->v[k].file, file) == 0; k++)
			n++;
		char item[NP_TEXT_MAX + 16];
		snprintf(item, sizeof item, "%s (%u)", np_export_shown_path(file), n);
		if (column && column + 2 + strlen(item) > 100) {
			np_export_printf(t, ",\n");
			column = 0;
		}
		np_export_printf(t, "%s%s", column ? ", " : " *   ", item);
		column += (column ? 2 : 5) + strlen(item);
	}
	if (column)
		np_export_printf(t, "\n");
}

static void header(np_export_text *t, const np_vector_set *set, const np_export_options *o,
		   const export_parts *x)
{
	np_export_printf(t, "/* SPDX-License-Identifier: MIT */\n/*\n"
			 " * Conformance tests of the Windows NT profiling calls, as Wine's dlls/ntdll/tests.\n"
			 " * Generated by ntprof %s (ntprof export --format wine); regenerate rather than edit.\n",
			 o->version);
	if (o->only)   /* --upstream: the selection's size, not every file read */
		np_export_printf(t, " * A test per vector, a row of its family's table: %u chosen by --upstream of %u read%s.\n",
				 x->exported, set->count, x->left_out ? "; some left out, listed below with why" : "");
	else
		np_export_printf(t, " * A test per vector, a row of its family's table: %u written, %u left out (listed\n"
				 " * below with why), of\n", x->exported, x->left_out);
	if (!o->only)
		sources_list(t, set);
	np_export_printf(t, " * The checks are the model's results for the caller this file is built as (_WIN64: x64;\n"
			 " * else x86 and WOW64): the newest Windows's as ok(), each other from %s on as broken().\n",
			 np_version_key(o->since));
	if (o->nknown) {
		np_export_printf(t, " * Known divergences of Wine, as todo_wine:");
		for (unsigned k = 0; k < o->nknown; k++)
			np_export_printf(t, "%s%s", k ? ",\n *   " : " ", np_export_shown_path(o->known[k]->path));
		np_export_printf(t, "\n");
	}
	if (o->nknown_ros) {
		np_export_printf(t, " * Known divergences of ReactOS, as todo_ros:");
		for (unsigned k = 0; k < o->nknown_ros; k++)
			np_export_printf(t, "%s%s", k ? ",\n *   " : " ", np_export_shown_path(o->known_ros[k]->path));
		np_export_printf(t, "\n");
	}
	np_export_printf(t, " * Checks: %u ok(), %u broken(), %u todo_wine", x->counts.ok, x->counts.broken,
			 x->counts.todo);
	if (o->nknown_ros)
		np_export_printf(t, ", %u todo_ros", x->counts.todo_ros);
	np_export_printf(t, ".\n */\n\n");
}

/* rows to t, an #endif and the same #ifdef right after it left out where
 * nothing came between: two tests of one caller width in one block (an
 * #endif after an #else is always written). */
static void rows_joined(np_export_text *t, const char *rows)
{
	char open[1024] = "", pending[1024] = "", line[1024];
	while (rows && *rows) {
		size_t len = strcspn(rows, "\n");
		snprintf(line, sizeof line, "%.*s", (int)len, rows);
		rows += len + (rows[len] == '\n');
		bool cond = strncmp(line, "#ifdef ", 7) == 0 || strncmp(line, "#ifndef ", 8) == 0;
		if (*pending && strcmp(line, pending) == 0) {   /* joined: neither is written */
			snprintf(open, sizeof open, "%s", pending);
			pending[0] = '\0';
			continue;
		}
		if (*pending)
			np_export_printf(t, "#endif\n");
		pending[0] = '\0';
		if (cond)
			snprintf(open, sizeof open, "%s", line);
		else if (strcmp(line, "#else") == 0)
			open[0] = '\0';
		if (strcmp(line, "#endif") == 0 && *open) {
			snprintf(pending, sizeof pending, "%s", open);
			open[0] = '\0';
		} else {
			np_export_printf(t, "%s\n", line);
		}
	}
	if (*pending)
		np_export_printf(t, "#endif\n");
}

/* The one table, family after family (rows: all of them), ended by a row
 * without an ID, so that it is never empty (a caller width may have no
 * test); then the entry point, which runs each row. */
static void tables(np_export_text *t, const char *rows, const np_export_options *o)
{
	np_export_printf(t, "\nstatic const nx_test tests[] =\n{\n");
	rows_joined(t, rows);
	np_export_printf(t, "    { .id = NULL }\n};\n");
	np_export_printf(t, "\nSTART_TEST(%s)\n{\n    const nx_test *t;\n    nx_init();\n"
			 "    nx_global(0, &nx_time_default, 0);\n    for (t = tests; t->id; t++) nx_run(t);\n}\n",
			 o->test_name);
}

static bool assemble(FILE *out, const np_vector_set *set, const np_export_options *o, export_parts *x)
{
	np_export_text all = { 0 }, rows = { 0 };
	for (unsigned i = 0; i < x->ntopic; i++)
		np_export_printf(&rows, "%s", x->topic[i].rows.s ? x->topic[i].rows.s : "");
	size_t table_len = rows.len;   /* the table's rows; after them, a symbol the prelude needs */
	for (unsigned i = 0; i < NP_EXPORT_FUNCTIONS; i++)   /* ReactOS's lacked exports' todo_ros */
		if (x->sizes.lacked[i] >> 2)
			np_export_printf(&rows, "%s", strstr(rows.s ? rows.s : "", "NX_TODO_ROS") ? "" : " NX_TODO_ROS");
	header(&all, set, o, x);
	np_export_prelude(&all, x->used, FUNCTION_IDS, set, o, &x->sizes, rows.s);
	np_export_name_defines(&all, &x->counts);
	if (rows.s && strstr(rows.s, "NX_WINE_NOTHING"))   /* the one message that names it */
		np_export_printf(&all, "\n#define NX_WINE_AS \"%s\" /* the Windows whose results Wine is checked against */\n",
				 np_version_key(o->wine_as));
	np_export_printf(&all, "\n/* The HAL's default ProfileTime interval: the model's, or this HAL's, read before any test. */\n"
			 "static ULONG nx_time_default = 0x%x;\n",
			 np_export_time_default());
	np_export_prelude_loop(&all, rows.s);
	if (x->left_out)
		np_export_printf(&all, "\n/*\n * Vectors left out, and why:\n%s */\n", x->omitted.s);
	if (rows.s)
		rows.s[table_len] = '\0';
	tables(&all, rows.s, o);
	bool ok = !all.failed && !rows.failed && !x->counts.failed && !x->omitted.failed &&
		  fwrite(all.s, 1, all.len, out) == all.len;
	np_export_free(&all);
	np_export_free(&rows);
	return ok;
}

/* The counts and the names of all tables, into x->counts. */
static void count_all(export_parts *x)
{
	for (unsigned i = 0; i < x->ntopic; i++) {
		const np_export_text *r = &x->topic[i].rows;
		x->counts.ok += r->ok;
		x->counts.broken += r->broken;
		x->counts.todo += r->todo;
		x->counts.todo_ros += r->todo_ros;
		x->counts.failed = x->counts.failed || r->failed;
		np_export_names_merge(&x->counts, r);
	}
	for (unsigned i = 0; i < NP_EXPORT_FUNCTIONS; i++) {   /* the exports' rows marked todo */
		unsigned lacked = x->sizes.lacked[i];
		x->counts.todo += (lacked & 1) + (lacked >> 1 & 1);
		x->counts.todo_ros += (lacked >> 2 & 1) + (lacked >> 3 & 1);
	}
}

bool np_export_wine(FILE *out, const np_vector_set *set, const np_export_options *o,
		    np_export_text *counts, char *err, size_t cap)
{
	np_backend *model = np_backend_model_new();
	np_export_plan *plan = calloc(2, sizeof *plan);
	export_parts *x = calloc(1, sizeof *x);
	bool ok = model && plan && x;
	if (x)
		x->sizes = (np_export_sizes){ .args = 1, .wants = 1, .steps = 1, .globals = 1 };
	for (unsigned i = 0; ok && i < set->count; i++)
		if (np_export_chosen(&set->v[i], o))
			one_vector(x, &set->v[i], o, model, plan);
	if (ok)
		count_all(x);
	if (ok && x->exported == 0) {
		snprintf(err, cap, "no vector can be exported (%u left out)", x->left_out);
		ok = false;
	} else if (ok && !assemble(out, set, o, x)) {
		snprintf(err, cap, "out of memory or cannot write");
		ok = false;
	} else if (!ok) {
		snprintf(err, cap, "out of memory");
	}
	if (ok) {
		counts->ok = x->counts.ok;
		counts->broken = x->counts.broken;
		counts->todo = x->counts.todo;
		counts->todo_ros = x->counts.todo_ros;
	}
	for (unsigned i = 0; x && i < x->ntopic; i++)
		np_export_free(&x->topic[i].rows);
	if (x) {
		np_export_free(&x->omitted);
		np_export_free(&x->counts);
	}
	free(x);
	free(plan);
	if (model)
		model->destroy(model);
	return ok;
}
