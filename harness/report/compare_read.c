/* SPDX-License-Identifier: MIT */
/* ntprof compare: reading JSON result files into the table: formats 2 and 3
 * (harness/report/report_json.c, schema/run-result-v3.schema.json). Format 1,
 * whose outcomes were text, is refused by name. Each file is read and checked
 * whole before it joins the table, so a bad file leaves the table as it was. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare_table.h"
#include "report/json.h"

#define MAX_FILE_BYTES (256u << 20)

static char *dup_text(const char *s)
{
	size_t n = strlen(s);
	char *d = malloc(n + 1);
	if (d)
		memcpy(d, s, n + 1);
	return d;
}

/* One result of the file, checked, before it joins the table. */
typedef struct entry {
	const char *vector;    /* in the JSON tree */
	char *key;             /* "VECTOR\nTARGET", for duplicates */
	char target[NP_NAME_MAX * 2];
	cell cell;
	int line;
} entry;

static const char *string_member(const np_json *obj, const char *name, const char *path, np_error *err,
				 bool required)
{
	const np_json *m = np_json_get(obj, name);
	if (!m) {
		if (required)
			np_error_at(err, path, obj->line, "a result without \"%s\"", name);
		return NULL;
	}
	if (m->type != NP_JSON_STRING) {
		np_error_at(err, path, m->line, "\"%s\" must be a string, not %s", name, np_json_type_name(m->type));
		return NULL;
	}
	return m->text;
}

static bool class_member(const np_json *obj, const char *name, const char *text, np_class *out,
			 const char *path, np_error *err)
{
	if (np_class_parse(text, out))
		return true;
	return np_error_at(err, path, np_json_get(obj, name)->line, "unknown class \"%.100s\" in \"%s\"", text, name);
}

/* A got object's code: a whole number of 32 bits. */
static bool code_member(const np_json *got, uint32_t *code, const char *path, np_error *err)
{
	const np_json *m = np_json_get(got, "code");
	if (!m || m->type != NP_JSON_NUMBER || m->number < 0 || m->number > 4294967295.0 ||
	    m->number != (double)(uint32_t)m->number)
		return np_error_at(err, path, m ? m->line : got->line,
				   "\"got\" of this kind needs \"code\": a whole number from 0 to 0xFFFFFFFF");
	*code = (uint32_t)m->number;
	return true;
}

/* A got object's out-values: an object of strings, or none. */
static bool out_member(const np_json *got, np_answer *a, const char *path, np_error *err)
{
	const np_json *out = np_json_get(got, "out");
	if (!out || out->type == NP_JSON_NULL)
		return true;
	if (out->type != NP_JSON_OBJECT)
		return np_error_at(err, path, out->line, "\"out\" must be an object of strings");
	for (const np_json *m = out->child; m; m = m->next) {
		if (m->type != NP_JSON_STRING)
			return np_error_at(err, path, m->line, "out-value \"%.100s\" must be a string", m->key);
		if (a->nout == NP_MAX_OUTS)
			return np_error_at(err, path, m->line, "more than %d out-values", NP_MAX_OUTS);
		np_answer_add(a, m->key, m->text);
	}
	return true;
}

/* The got object read by its fields (kind, code, out-values) into *out,
 * made here; NULL for null. Its "text" and "name" only say them again. */
static bool got_member(const np_json *r, np_answer **out, const char *path, np_error *err)
{
	const np_json *m = np_json_get(r, "got");
	*out = NULL;
	if (!m)
		return np_error_at(err, path, r->line, "a result without \"got\"");
	if (m->type == NP_JSON_NULL)
		return true;
	if (m->type != NP_JSON_OBJECT)
		return np_error_at(err, path, m->line, "\"got\" must be an object or null, not %s",
				   np_json_type_name(m->type));
	const char *kind = string_member(m, "kind", path, err, true);
	np_result_kind k;
	if (!kind)
		return false;
	if (!np_result_kind_parse(kind, &k))
		return np_error_at(err, path, np_json_get(m, "kind")->line, "unknown kind \"%.40s\" in \"got\"", kind);
	np_outcome o = { k, 0 };
	if (np_result_kind_coded(k) && !code_member(m, &o.code, path, err))
		return false;
	if (!(*out = malloc(sizeof **out)))
		return np_error_at(err, path, m->line, "out of memory");
	np_answer_outcome(*out, o);
	return out_member(m, *out, path, err);
}

/* The deciding step: a whole number from 0 to 1000, or null for none. */
static bool step_member(const np_json *r, int *out, const char *path, np_error *err)
{
	const np_json *step = np_json_get(r, "step");
	if (!step)
		return np_error_at(err, path, r->line, "a result without \"step\"");
	if (step->type == NP_JSON_NULL)
		return *out = 0, true;
	if (step->type != NP_JSON_NUMBER || step->number < 0 || step->number > 1000 ||
	    step->number != (double)(int)step->number)
		return np_error_at(err, path, step->line, "\"step\" must be a whole number from 0 to 1000, or null");
	*out = (int)step->number;
	return true;
}

static bool read_entry(const np_json *r, entry *e, const char *path, np_error *err)
{
	const char *version, *arch, *cls, *observed;
	memset(e, 0, sizeof *e);
	e->line = r->line;
	if (r->type != NP_JSON_OBJECT)
		return np_error_at(err, path, r->line, "a result must be an object, not %s", np_json_type_name(r->type));
	if (!(e->vector = string_member(r, "vector", path, err, true)) ||
	    !(version = string_member(r, "version", path, err, true)) ||
	    !(arch = string_member(r, "arch", path, err, true)) ||
	    !(cls = string_member(r, "class", path, err, true)) || !got_member(r, &e->cell.got, path, err))
		return false;
	observed = string_member(r, "observed", path, err, false);
	if (!observed && np_json_get(r, "observed"))
		return false;   /* there, but no string */
	if (!e->vector[0] || !version[0] || !arch[0])
		return np_error_at(err, path, r->line, "a result with an empty vector, version or arch");
	if (strlen(version) + strlen(arch) + 2 > sizeof e->target)
		return np_error_at(err, path, r->line, "version or arch too long");
	size_t nver = strlen(version);
	memcpy(e->target, version, nver);
	e->target[nver] = '/';
	memcpy(e->target + nver + 1, arch, strlen(arch) + 1);
	if (!class_member(r, "class", cls, &e->cell.cls, path, err))
		return false;
	e->cell.observed = e->cell.cls;
	if (observed && !class_member(r, "observed", observed, &e->cell.observed, path, err))
		return false;
	if (e->cell.cls == NP_CLASS_KNOWN ? !np_class_is_failure(e->cell.observed)
					 : e->cell.observed != e->cell.cls)
		return np_error_at(err, path, np_json_get(r, observed ? "observed" : "class")->line,
			    "class \"%s\" cannot have been observed as \"%s\"", cls, np_class_name(e->cell.observed));
	if (!step_member(r, &e->cell.step, path, err))
		return false;
	e->cell.present = true;
	size_t nv = strlen(e->vector), nt = strlen(e->target);
	if (!(e->key = malloc(nv + nt + 2)))
		return np_error_at(err, path, r->line, "out of memory");
	memcpy(e->key, e->vector, nv);
	e->key[nv] = '\n';
	memcpy(e->key + nv + 1, e->target, nt + 1);
	return true;
}

/* The label the environment gives: "label", else wine/os/version/build/arch. */
static char *env_label(const np_json *env)
{
	static const char *const keys[] = { "wine", "os", "version", "build", "arch" };
	char buf[400] = "";
	size_t used = 0;
	const np_json *m = np_json_get(env, "label");
	if (m && m->text[0])
		return dup_text(m->text);
	for (unsigned k = 0; k < sizeof keys / sizeof *keys; k++) {
		m = np_json_get(env, keys[k]);
		if (k == 0 && m && strcmp(m->text, "no") == 0)
			continue;   /* a live run on Windows says "wine": "no" */
		if (m && m->text[0] && used < sizeof buf)
			used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s%s", used ? " " : "",
						 k == 0 ? "wine " : "", m->text);
	}
	return used ? dup_text(buf) : NULL;
}

/* Whether the file's header is of a result file this reader takes: format 2
 * or 3 (3 adds "rule", which this reader ignores). */
static bool check_header(const np_json *root, const char *path, np_error *err)
{
	static const char what[] = "expected a result file of `ntprof run --format json` ({\"tool\":\"ntprof\",...})";
	if (root->type != NP_JSON_OBJECT)
		return np_error_at(err, path, root->line, "%s", what);
	const np_json *tool = np_json_get(root, "tool"), *format = np_json_get(root, "format");
	if (!tool || tool->type != NP_JSON_STRING || strcmp(tool->text, "ntprof") != 0)
		return np_error_at(err, path, tool ? tool->line : root->line, "%s", what);
	if (format && format->type == NP_JSON_NUMBER && format->number == 1)
		return np_error_at(err, path, format->line, "\"format\" 1 is no longer read (it was ntprof 0.1's, "
			    "outcomes as text; this ntprof reads formats 2 and 3)");
	if (!format || format->type != NP_JSON_NUMBER || (format->number != 2 && format->number != 3))
		return np_error_at(err, path, format ? format->line : root->line,
			    "\"format\" %s is not supported (this ntprof reads formats 2 and 3)",
			    format && format->type == NP_JSON_NUMBER ? format->text : "missing or not a number");
	const np_json *env = np_json_get(root, "environment");
	if (env && env->type != NP_JSON_OBJECT)
		return np_error_at(err, path, env->line, "\"environment\" must be an object");
	for (const np_json *m = env ? env->child : NULL; m; m = m->next)
		if (m->type != NP_JSON_STRING)
			return np_error_at(err, path, m->line, "environment \"%.100s\" must be a string", m->key);
	const np_json *results = np_json_get(root, "results");
	if (!results || results->type != NP_JSON_ARRAY)
		return np_error_at(err, path, results ? results->line : root->line, "expected \"results\": an array");
	return true;
}

static void free_entries(entry *e, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		free(e[i].key);
		free(e[i].cell.got);
	}
	free(e);
}

static bool read_file(const np_json *root, const char *path, entry **out, unsigned *count,
		      np_error *err)
{
	const np_json *results = np_json_get(root, "results");
	entry *e = calloc(results->count ? results->count : 1, sizeof *e);
	np_strmap seen = { 0 };
	char **keys = calloc(results->count ? results->count : 1, sizeof *keys);
	unsigned n = 0;
	bool ok = e && keys;
	if (!ok)
		np_error_at(err, path, root->line, "out of memory");
	for (const np_json *r = results->child; ok && r; r = r->next) {
		if (!(ok = read_entry(r, &e[n], path, err))) {
			free(e[n].key);
			free(e[n].cell.got);
			break;
		}
		keys[n] = e[n].key;
		if (!(ok = np_strmap_reserve(&seen, keys))) {
			np_error_at(err, path, r->line, "out of memory");
			n++;
			break;
		}
		unsigned *slot = np_strmap_slot(&seen, keys, e[n].key);
		if (*slot) {
			ok = np_error_at(err, path, r->line, "vector %.200s on %s is in this file twice (first at line %d)",
				  e[n].vector, e[n].target, e[*slot - 1].line);
			n++;
			break;
		}
		*slot = ++n;
		seen.count++;
	}
	np_strmap_free(&seen);
	free(keys);
	if (!ok) {
		free_entries(e, n);
		return false;
	}
	*out = e;
	*count = n;
	return true;
}

static bool set_cell(column *col, unsigned row, cell *from)
{
	if (row >= col->n) {
		unsigned n = row + 1 > 2 * col->n ? row + 1 : 2 * col->n;
		cell *grown = realloc(col->cell, n * sizeof *grown);
		if (!grown)
			return false;
		memset(grown + col->n, 0, (n - col->n) * sizeof *grown);
		col->cell = grown;
		col->n = n;
	}
	col->cell[row] = *from;
	from->got = NULL;   /* the column owns it now */
	return true;
}

/* The row of a vector, added when new. UINT_MAX-like ~0u on out of memory. */
static unsigned row_of(np_compare *c, const char *vector)
{
	if (!np_strmap_reserve(&c->rows, c->vector))
		return ~0u;
	unsigned *slot = np_strmap_slot(&c->rows, c->vector, vector);
	if (*slot)
		return *slot - 1;
	if (c->nrows == c->caprows) {
		unsigned cap = c->caprows ? c->caprows * 2 : 256;
		char **grown = realloc(c->vector, cap * sizeof *grown);
		if (!grown)
			return ~0u;
		c->vector = grown;
		c->caprows = cap;
	}
	if (!(c->vector[c->nrows] = dup_text(vector)))
		return ~0u;
	*slot = ++c->nrows;
	c->rows.count++;
	return c->nrows - 1;
}

/* Joins the checked entries of one file to the table. */
static bool commit(np_compare *c, const char *path, const np_json *root, entry *e, unsigned n, np_error *err)
{
	rfile *files = realloc(c->file, (c->nfiles + 1) * sizeof *files);
	if (!files)
		return np_error_at(err, path, 0, "out of memory");
	c->file = files;
	rfile *f = &c->file[c->nfiles];
	memset(f, 0, sizeof *f);
	if (!(f->path = dup_text(path)))
		return np_error_at(err, path, 0, "out of memory");
	f->env_label = env_label(np_json_get(root, "environment"));
	unsigned first = c->ncols;
	c->nfiles++;
	c->labelled = false;
	for (unsigned i = 0; i < n; i++) {
		unsigned k = first;
		while (k < c->ncols && strcmp(c->col[k].target, e[i].target) != 0)
			k++;
		if (k == c->ncols) {
			column *cols = realloc(c->col, (c->ncols + 1) * sizeof *cols);
			if (!cols)
				return np_error_at(err, path, e[i].line, "out of memory");
			c->col = cols;
			memset(&c->col[k], 0, sizeof c->col[k]);
			c->col[k].file = c->nfiles - 1;
			if (!(c->col[k].target = dup_text(e[i].target)))
				return np_error_at(err, path, e[i].line, "out of memory");
			c->ncols++;
			f->ncols++;
		}
		unsigned row = row_of(c, e[i].vector);
		if (row == ~0u || !set_cell(&c->col[k], row, &e[i].cell))
			return np_error_at(err, path, e[i].line, "out of memory");
	}
	return true;
}

bool np_compare_add(np_compare *c, const char *path, const char *text, size_t len, np_error *err)
{
	np_json *root = np_json_parse(text, len, path, err);
	entry *e = NULL;
	unsigned n = 0;
	bool ok = root && check_header(root, path, err) && read_file(root, path, &e, &n, err) && commit(c, path, root, e, n, err);
	if (e)
		free_entries(e, n);
	np_json_free(root);
	return ok;
}

bool np_compare_load(np_compare *c, const char *path, np_error *err)
{
	FILE *in = fopen(path, "rb");
	if (!in)
		return np_error_at(err, path, 0, "cannot open: %s", strerror(errno));
	size_t len = 0, cap = 1 << 16;
	char *text = malloc(cap);
	bool ok = text != NULL;
	while (ok) {
		if (len == cap) {
			char *grown = cap < MAX_FILE_BYTES ? realloc(text, cap * 2) : NULL;
			if (!grown) {
				ok = np_error_at(err, path, 0, cap < MAX_FILE_BYTES ? "out of memory" : "larger than %u MiB",
					  MAX_FILE_BYTES >> 20);
				break;
			}
			text = grown;
			cap *= 2;
		}
		size_t got = fread(text + len, 1, cap - len, in);
		len += got;
		if (got == 0)
			break;
	}
	if (ok && ferror(in))
		ok = np_error_at(err, path, 0, "read error");
	fclose(in);
	if (!text)
		return np_error_at(err, path, 0, "out of memory");
	ok = ok && np_compare_add(c, path, text, len, err);
	free(text);
	return ok;
}
