/* SPDX-License-Identifier: MIT */
/* The row of one step (export.h): the export it calls, its arguments as
 * data, what it may give (the newest Windows's result as the ok(), each
 * older one's as a broken() alternative, the one Wine is checked against),
 * what it keeps for later steps, and its marks: todo_wine or todo_ros where
 * a known list says Wine or ReactOS differs, or no check on Wine where the
 * Windows the lists are for gives nothing. The file's loop (nx_steps) ends
 * a test at a step that gave none of them, as the runner stops at the
 * first difference. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "export/export.h"
#include "ntprof/known.h"
#include "ntprof/names.h"
#include "ntprof/number.h"
#include "ntprof/status.h"
#include "vectors/catalog.h"

/* Where a step's row may be wrapped, and how wide its lines may be. */
#define BREAK "\001"
#define ROW_COLUMNS 100

/* The step (0-based) a known entry names in vector v, or -1: `step N`
 * names step N; `step FUNCTION` the first call of that function; an entry
 * for any step (`step *`) names none, since a test cannot tell in advance
 * which step will decide. A pattern names v as np_known_names says. */
static int named_step(const np_known_entry *e, const np_vector *v)
{
	if (!np_known_names(e, v))
		return -1;
	if (e->step > 0)
		return e->step - 1;
	for (unsigned s = 0; e->step_function && s < v->nstep; s++)
		if (np_function_find(v->step[s].function) == e->step_function)
			return (int)s;
	return -1;
}

/* Whether a known list names this step: with no call made (a missing
 * export or a stub: call_made false), or as a call that gave another
 * result (call_made true). The scope of an entry (on RANGE arch=LIST) does
 * not count, since on Wine the test checks one Windows's results (wine_as):
 * a call entry counts where its list's Windows gives there what wine_as
 * gives, since only then did the list judge Wine against that result; a
 * missing export or a stub is Wine's on every Windows. */
static bool known_as(const np_export_options *o, const np_vector *v, unsigned s, bool call_made,
		     const np_export_plan *p)
{
	for (unsigned k = 0; k < o->nknown; k++) {
		if (call_made && np_export_result_on(p, s, o->known_for[k]) != np_export_result_on(p, s, o->wine_as))
			continue;
		for (unsigned i = 0; i < o->known[k]->count; i++) {
			const np_known_entry *e = &o->known[k]->e[i];
			bool no_call = e->cls == NP_CLASS_NOT_EXPORTED || e->cls == NP_CLASS_STUB;
			if (named_step(e, v) == (int)s && no_call != call_made)
				return true;
		}
	}
	return false;
}

/* Whether some result the step accepts has this outcome. */
static bool accepted(const np_export_plan *p, unsigned s, const np_outcome *outcome)
{
	for (unsigned i = 0; i < p->step[s].count; i++)
		if (p->step[s].result[i].outcome.kind == outcome->kind && p->step[s].result[i].outcome.code == outcome->code)
			return true;
	return false;
}

/* Whether a ReactOS list names this step (todo_ros). ReactOS's broken() is
 * true, so there every result the step accepts passes: an entry whose
 * status is one of them needs no todo (it would be a todo that succeeds). */
static bool ros_as(const np_export_options *o, const np_vector *v, unsigned s, bool call_made,
		   const np_export_plan *p)
{
	for (unsigned k = 0; k < o->nknown_ros; k++)
		for (unsigned i = 0; i < o->known_ros[k]->count; i++) {
			const np_known_entry *e = &o->known_ros[k]->e[i];
			bool no_call = e->cls == NP_CLASS_NOT_EXPORTED || e->cls == NP_CLASS_STUB;
			if (named_step(e, v) != (int)s || no_call == call_made)
				continue;
			if (e->cls == NP_CLASS_STATUS_MISMATCH && !e->any_got && accepted(p, s, &e->value.outcome))
				continue;
			return true;
		}
	return false;
}

/* "5.1..6.1, 6.3": the versions a result comes from, on any architecture of
 * the width: the same comment for both widths lets their checks be one. */
static void versions_of(const np_export_result *r, char *buf, size_t cap)
{
	size_t used = 0;
	bool hit[NP_VERSION_COUNT] = { false };
	buf[0] = '\0';
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++)
		for (unsigned a = 0; a < NP_ARCH_COUNT; a++)
			hit[v] = hit[v] || r->hit[v][a];
	for (unsigned v = 0; v < NP_VERSION_COUNT && used < cap; v++) {
		if (!hit[v])
			continue;
		unsigned hi = v;
		while (hi + 1 < NP_VERSION_COUNT && hit[hi + 1])
			hi++;
		int n = snprintf(buf + used, cap - used, "%s%s%s%s", used ? ", " : "", np_version_key((np_ver)v),
				 hi == v ? "" : "..", hi == v ? "" : np_version_key((np_ver)hi));
		used += n > 0 ? (size_t)n : 0;
		v = hi;
	}
}

/* One result as a want: the status or error by name, then each out-value
 * the call's helper reads up to the last the result names (NX_ANY before
 * it where it names none). A handle (out-value 0 where the export has one)
 * as its status says, written where it succeeds, is left out: the runner
 * checks it so. NULL, or why it cannot be checked. */
static const char *want_text(np_export_text *t, const np_step *st, const np_export_result *r)
{
	const char *name = r->outcome.kind == NP_RESULT_WIN32 ? np_win32_name(r->outcome.code)
							       : np_status_name(r->outcome.code);
	const char *value[3] = { "NX_ANY", "NX_ANY", "NX_ANY" };
	char number[3][32];
	for (unsigned i = 0; i < r->nout; i++) {
		np_export_out_kind kind;
		uint64_t v;
		int k = np_export_out_index(st, r->out[i].name, &kind);
		bool is_number = np_number_parse(r->out[i].value, &v);
		if (k < 0)
			continue;
		if (strcmp(r->out[i].value, "-") == 0) {
			value[k] = "NX_UNWRITTEN";
		} else if (kind == NP_EXPORT_OUT_HANDLE) {
			value[k] = "1";   /* a capture name, or "written" */
		} else if (!is_number) {
			return "an out-value it expects is not a number the file can check";
		} else if (kind == NP_EXPORT_OUT_POINTER) {
			value[k] = v ? "1" : "0";
		} else if (v == np_export_time_default()) {
			value[k] = "NX_TIME_DEFAULT";
		} else {
			snprintf(number[k], sizeof number[k], v < 10 ? "%" PRIu64 : "0x%" PRIx64, v);
			value[k] = number[k];
		}
	}
	if (strstr(np_export_entry_of(st->catalog->id), "'h'")) {
		bool succeeds = r->outcome.kind == NP_RESULT_STATUS && (int32_t)r->outcome.code >= 0;
		if (strcmp(value[0], "NX_ANY") == 0)
			return "a handle it does not check (the file checks each, as its status says)";
		if (strcmp(value[0], succeeds ? "1" : "NX_UNWRITTEN") == 0)
			value[0] = "NX_ANY";
	}
	if (name) {
		np_export_printf(t, "{ %s", name);
		np_export_name_used(t, r->outcome);
	} else {
		np_export_printf(t, "{ 0x%08" PRIx32, r->outcome.code);
	}
	unsigned shown = np_export_out_count(st);   /* the out-values after the last checked one: left out */
	while (shown > 0 && strcmp(value[shown - 1], "NX_ANY") == 0)
		shown--;
	for (unsigned k = 0; k < shown; k++)   /* a row's 0 is NX_ANY: a 0 checked is NX_ZERO */
		np_export_printf(t, ", %s", strcmp(value[k], "0") == 0 ? "NX_ZERO" : value[k]);
	np_export_printf(t, " }");
	return NULL;
}

/* The alternatives' versions, in a comment after the row (whose last line
 * ends at column), on a line of its own where it would pass ROW_COLUMNS. */
static void alternatives_comment(np_export_text *t, const np_export_step *es, size_t column)
{
	char where[NP_TEXT_MAX * 2];
	np_export_text c = { 0 };
	for (unsigned i = 1; i < es->count; i++) {
		versions_of(&es->result[i], where, sizeof where);
		np_export_printf(&c, "%s[%u] ", i == 1 ? "/* " : "; ", i);
		if (es->result[i].accept)
			np_export_printf(&c, "%s: ", es->result[i].accept->flag);
		np_export_printf(&c, "%s", where);
	}
	if (c.s)
		np_export_printf(t, "%s%s */", column + 1 + c.len + 3 > ROW_COLUMNS ? "\n          " : " ", c.s);
	np_export_printf(t, "\n");
	t->failed = t->failed || c.failed;
	np_export_free(&c);
}

/* The step's marks, or'ed; nothing where it has none. A missing export's
 * todo is its row's in nx_exports (lacked). */
static void marks(np_export_text *t, const bool on[5])
{
	static const char *const name[5] = { "NX_TODO_WINE", "NX_TODO_ROS", NULL, NULL, "NX_WINE_NOTHING" };
	bool any = false;
	for (unsigned i = 0; i < 5; i++)
		if (on[i] && name[i]) {
			np_export_printf(t, "%s%s", any ? " | " : BREAK ".marks = ", name[i]);
			any = true;
		}
	np_export_printf(t, "%s", any ? "," : "");
}

/* The end of the longest head of piece (len bytes) that ends at a ", "
 * between its items (not within a want's braces) and fits in room
 * columns; len where none does. */
static size_t head_fitting(const char *piece, size_t len, size_t room)
{
	size_t best = 0;
	int depth = 0;
	for (size_t i = 0; i + 1 < len && i + 1 <= room; i++) {
		depth += (piece[i] == '{') - (piece[i] == '}');
		if (piece[i] == ',' && piece[i + 1] == ' ' && depth <= 1)
			best = i + 1;
	}
	return best ? best : len;
}

/* The row's pieces (split at BREAK) on as few lines of at most ROW_COLUMNS
 * as hold them, a line after the first indented 10 columns: a piece that
 * does not fit in what is left of a line is broken after its last comma
 * that does, or goes whole to the next line. The column the last line
 * ends at. */
static size_t wrapped(np_export_text *t, const char *row)
{
	size_t column = 0;
	while (*row) {
		size_t len = strcspn(row, BREAK), skip = row[len] != '\0';
		bool fits = !column || column + 1 + len <= ROW_COLUMNS;
		if (!fits) {   /* as much as fits here, broken after a comma; or on the next line */
			size_t head = head_fitting(row, len, column + 1 < ROW_COLUMNS ? ROW_COLUMNS - column - 1 : 0);
			fits = head < len;
			if (!fits && 10 + len > ROW_COLUMNS)
				head = head_fitting(row, len, ROW_COLUMNS - 10);
			skip = head < len ? 1 : skip;   /* the space after the comma */
			len = head;
		}
		if (!fits) {
			np_export_printf(t, "\n          ");
			column = 10;
		} else if (column) {
			np_export_printf(t, " ");
			column++;
		}
		np_export_printf(t, "%.*s", (int)len, row);
		column += len;
		row += len + skip;
	}
	return column;
}

/* The row of step s on one caller width; NULL, or why it cannot be one. */
static const char *step_row(np_export_text *t, const np_vector *v, unsigned s, const np_export_plan *p,
			    const np_export_options *o, np_export_sizes *z)
{
	const np_step *st = &v->step[s];
	const np_export_step *es = &p->step[s];
	int on_wine = np_export_result_on(p, s, o->wine_as);
	bool mark[5] = { known_as(o, v, s, true, p), ros_as(o, v, s, true, p), known_as(o, v, s, false, p),
			 ros_as(o, v, s, false, p), on_wine < 0 };
	unsigned nargs = 0;
	const char *bad;
	np_export_text row = { 0 }, keep = { 0 };
	np_export_printf(&row, "        { NX_%s," BREAK,
			 st->catalog->kind == NP_KIND_WIN32 ? st->catalog->name : st->function);
	if ((bad = np_export_args(&row, v, s, &nargs)) != NULL)
		goto done;
	np_export_printf(&row, "," BREAK "{ ");
	for (unsigned i = 0; i < es->count && !bad; i++) {
		np_export_printf(&row, "%s", i ? ", " : "");
		bad = want_text(&row, st, &es->result[i]);
	}
	if (bad)
		goto done;
	np_export_printf(&row, " },");
	if (es->count > 1)
		np_export_printf(&row, BREAK ".nwant = %u,", es->count);
	if (on_wine > 0)
		np_export_printf(&row, BREAK ".on_wine = %d,", on_wine);
	np_export_keep(&keep, v, s, &z->kept);
	if (keep.s && strcmp(keep.s, "0") != 0)
		np_export_printf(&row, BREAK ".keep = %s,", keep.s);
	marks(&row, mark);
	bool zw = st->catalog->alias && strcmp(st->function, st->catalog->alias) == 0;
	if ((unsigned)st->catalog->id < NP_EXPORT_FUNCTIONS)
		z->lacked[st->catalog->id] |= (unsigned char)((mark[2] | mark[3] << 2) * (zw ? NP_SPELLED_ZW : NP_SPELLED_NT));
	row.len--;   /* the last piece's comma */
	np_export_printf(&row, " },");
	t->failed = t->failed || row.failed || keep.failed;
	size_t column = t->failed ? 0 : wrapped(t, row.s);
	np_export_names_merge(t, &row);
	alternatives_comment(t, es, column);
	t->ok++;
	t->broken += es->count - 1;
	t->todo += mark[0];   /* a missing export's todo is counted once, at its row in nx_exports */
	t->todo_ros += mark[1];
	z->args = nargs > z->args ? nargs : z->args;
	z->wants = es->count > z->wants ? es->count : z->wants;
done:
	np_export_free(&row);
	np_export_free(&keep);
	return bad;
}

/* The steps that differ by caller width since the last that does not,
 * under one #ifdef _WIN64 (wide: the 64-bit caller's rows). */
static void flush_split(np_export_text *t, np_export_text *wide, np_export_text *narrow)
{
	if (wide->s || narrow->s)
		np_export_printf(t, "#ifdef _WIN64\n%s#else\n%s#endif\n", wide->s ? wide->s : "",
				 narrow->s ? narrow->s : "");
	t->failed = t->failed || wide->failed || narrow->failed;
	np_export_free(wide);
	np_export_free(narrow);
}

const char *np_export_step_rows(np_export_text *t, const np_vector *v, const np_export_plan *wide,
				const np_export_plan *narrow, const np_export_options *o, np_export_sizes *z)
{
	np_export_text split_a = { 0 }, split_b = { 0 };
	for (unsigned s = 0; s < v->nstep; s++) {
		np_export_text a = { 0 }, b = { 0 };
		const char *bad = wide->usable ? step_row(&a, v, s, wide, o, z) : NULL;
		if (!bad && narrow->usable)
			bad = step_row(&b, v, s, narrow, o, z);
		bool both = wide->usable && narrow->usable, same = both && a.s && b.s && strcmp(a.s, b.s) == 0;
		if (a.failed || b.failed) {
			t->failed = true;
		} else if (!bad && both && !same) {
			np_export_printf(&split_a, "%s", a.s);
			np_export_printf(&split_b, "%s", b.s);
		} else if (!bad) {
			flush_split(t, &split_a, &split_b);
			np_export_printf(t, "%s", wide->usable ? a.s : b.s);
		}
		t->ok += same ? a.ok : a.ok + b.ok;
		t->broken += same ? a.broken : a.broken + b.broken;
		t->todo += same ? a.todo : a.todo + b.todo;
		t->todo_ros += same ? a.todo_ros : a.todo_ros + b.todo_ros;
		np_export_names_merge(t, &a);
		np_export_names_merge(t, &b);
		np_export_free(&a);
		np_export_free(&b);
		if (bad) {
			flush_split(t, &split_a, &split_b);
			return bad;
		}
	}
	flush_split(t, &split_a, &split_b);
	return NULL;
}
