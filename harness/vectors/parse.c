/* The vector file parser (fixtures/README.md). Every problem is reported as
 * "file:line: what was expected"; nothing is kept from a file that fails. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "vectors/catalog.h"
#include "ntprof/configure.h"
#include "ntprof/names.h"
#include "ntprof/status.h"
#include "ntprof/vector.h"

#define MAX_LINE   4096
#define MAX_FILE   (16u << 20)
#define MAX_TOKENS 64

/* Flags a vector may carry (fixtures/README.md). unknown:K-NAME names a knob. */
static const char *const known_flags[] = {
	"boundary", "order", "version-change", "documented", "observed", "inferred",
	"model-only", "hazardous", "alternative", NULL
};

static bool fail(np_error *err, const char *file, int line, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(err->text, sizeof err->text, "%s:%d: %s", file, line, msg);
	return false;
}

static bool copy_text(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);
	if (n >= cap)
		return false;
	memcpy(dst, src, n + 1);
	return true;
}

static const char *parse_arch_list(const char *text, bool arch[NP_ARCH_COUNT])
{
	char buf[NP_TEXT_MAX];
	if (!copy_text(buf, sizeof buf, text))
		return "architecture list too long";
	memset(arch, 0, sizeof(bool) * NP_ARCH_COUNT);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		np_arch a;
		if (!np_arch_parse(t, &a))
			return "architecture must be x86, x64 or wow64";
		arch[a] = true;
	}
	return NULL;
}

bool np_applies(const np_applicability *a, np_ver v, np_arch arch)
{
	return v >= a->lo && v <= a->hi && a->arch[arch];
}

static void all_arches(np_applicability *a)
{
	for (unsigned i = 0; i < NP_ARCH_COUNT; i++)
		a->arch[i] = true;
}

const char *np_parse_given_pair(const char *token, np_pair *pair)
{
	const char *eq = strchr(token, '=');
	if (!eq || eq == token || eq[1] == '\0')
		return "expected KEY=VALUE";
	size_t n = (size_t)(eq - token);
	if (n >= sizeof pair->name || strlen(eq + 1) >= sizeof pair->value)
		return "key or value too long";
	memcpy(pair->name, token, n);
	pair->name[n] = '\0';
	strcpy(pair->value, eq + 1);
	return np_config_check(pair->name, pair->value);
}

const char *np_parse_outcome(const char *const *tok, unsigned ntok, unsigned *used, np_outcome *out)
{
	*used = 1;
	if (ntok == 0 || strchr(tok[0], '=')) {
		*used = 0;
		out->kind = NP_OUT_NONE;
		out->code = 0;
		return NULL;
	}
	const char *t = tok[0];
	out->code = 0;
	if (strcmp(t, "not-exported") == 0) { out->kind = NP_OUT_NOT_EXPORTED; return NULL; }
	if (strcmp(t, "not-applicable") == 0) { out->kind = NP_OUT_NOT_APPLICABLE; return NULL; }
	if (strcmp(t, "stub") == 0) { out->kind = NP_OUT_STUB; return NULL; }
	if (strcmp(t, "crashed") == 0) { out->kind = NP_OUT_CRASHED; return NULL; }
	if (strcmp(t, "corruption") == 0) { out->kind = NP_OUT_CORRUPTION; return NULL; }
	if (strcmp(t, "fault") == 0 || strcmp(t, "bugcheck") == 0) {
		if (ntok < 2)
			return "fault and bugcheck need a name or number after them";
		*used = 2;
		if (t[0] == 'f') {
			out->kind = NP_OUT_FAULT;
			return np_status_parse(tok[1], &out->code) ? NULL : "unknown exception status";
		}
		out->kind = NP_OUT_BUGCHECK;
		return np_bugcheck_parse(tok[1], &out->code) ? NULL : "unknown bug check";
	}
	if (strncmp(t, "ERROR_", 6) == 0) {
		out->kind = NP_OUT_WIN32;
		return np_win32_parse(t, &out->code) ? NULL : "unknown Win32 error name";
	}
	out->kind = NP_OUT_STATUS;
	if (strncmp(t, "STATUS_", 7) == 0 || strncmp(t, "0x", 2) == 0)
		return np_status_parse(t, &out->code) ? NULL : "unknown NTSTATUS";
	return "expected an outcome: STATUS_*, ERROR_*, 0x........, fault S, bugcheck B, not-exported, not-applicable";
}

static unsigned tokenize(char *line, char **tok, unsigned max)
{
	unsigned n = 0;
	for (char *save = NULL, *t = strtok_r(line, " \t", &save); t && n < max;
	     t = strtok_r(NULL, " \t", &save))
		tok[n++] = t;
	return n;
}

/* A step line: FUNCTION Name=Value ... */
const char *np_parse_step(const char *line, np_step *step)
{
	char buf[MAX_LINE];
	char *tok[MAX_TOKENS];
	if (!copy_text(buf, sizeof buf, line))
		return "line too long";
	unsigned n = tokenize(buf, tok, MAX_TOKENS);
	memset(step, 0, sizeof *step);
	if (n == 0)
		return "expected a function name";
	const np_function *f = np_function_find(tok[0]);
	if (!f)
		return "unknown function (see fixtures/README.md, Steps)";
	copy_text(step->function, sizeof step->function, tok[0]);
	for (unsigned i = 1; i < n; i++) {
		np_pair *a = &step->arg[step->narg];
		const char *eq = strchr(tok[i], '=');
		if (!eq || eq == tok[i] || eq[1] == '\0')
			return "expected Name=Value arguments";
		if (step->narg == NP_MAX_ARGS)
			return "too many arguments";
		size_t kn = (size_t)(eq - tok[i]);
		if (kn >= sizeof a->name || strlen(eq + 1) >= sizeof a->value)
			return "argument name or value too long";
		memcpy(a->name, tok[i], kn);
		a->name[kn] = '\0';
		strcpy(a->value, eq + 1);
		const np_param *p = np_param_find(f, a->name);
		if (!p)
			return "unknown argument for this function";
		strcpy(a->name, p->name);   /* canonical spelling */
		for (unsigned j = 0; j < step->narg; j++)
			if (strcmp(step->arg[j].name, a->name) == 0)
				return "argument given twice";
		uint64_t num;
		uint32_t src;
		np_pointer_kind pk;
		switch (p->kind) {
		case NP_PARAM_U32:
			if (!(np_number_parse(a->value, &num) && num <= 0xFFFFFFFFu) &&
			    !(strcmp(a->value, "auto") == 0 && p->fallback && strcmp(p->fallback, "auto") == 0))
				return "expected a 32-bit number";
			break;
		case NP_PARAM_U64:
			if (!np_number_parse(a->value, &num))
				return "expected a number";
			break;
		case NP_PARAM_BYTE:
			if (!np_number_parse(a->value, &num) || num > 0xFF)
				return "expected a number from 0 to 255";
			break;
		case NP_PARAM_SOURCE:
			if (!np_source_parse(a->value, &src))
				return "expected a KPROFILE_SOURCE name or a 32-bit number";
			break;
		case NP_PARAM_POINTER:
			if (!np_pointer_parse(a->value, &pk, &num))
				return "expected a pointer: user, null, misaligned, readonly, unmapped, kernel, vanishing or a number";
			break;
		case NP_PARAM_OUT_HANDLE:
			if (a->value[0] == '>' ? !np_capture_name_ok(a->value + 1) : !np_pointer_parse(a->value, &pk, &num))
				return "expected a pointer (user, null, misaligned, readonly, unmapped, kernel, vanishing, a number) or >NAME to capture the handle";
			break;
		case NP_PARAM_BUFFER:
			if (a->value[0] == '>' ? !np_capture_name_ok(a->value + 1)
					       : !np_pointer_parse(a->value, &pk, &num) && !np_capture_name_ok(a->value))
				return "expected a buffer: a pointer symbol or number, >NAME (a fresh buffer, captured) or a captured NAME";
			break;
		case NP_PARAM_HANDLE:
			if (np_handle_parse(a->value, &num) == NP_HANDLE_NAME && !np_capture_name_ok(a->value))
				return "expected a handle: null, current, thread, invalid, other, noquery, a number or a captured NAME";
			break;
		case NP_PARAM_AFFINITY:
			if (strcmp(a->value, "all") != 0 && !np_number_parse(a->value, &num))
				return "expected an affinity: all or a number";
			break;
		case NP_PARAM_GROUPS: {
			np_group_element ge[NP_MAX_GROUP_ELEMENTS];
			unsigned ng;
			if (!np_groups_parse(a->value, ge, &ng))
				return "expected Groups=G:MASK[:RESERVED],... (at most 8 elements) or none";
			break;
		}
		case NP_PARAM_CAPTURED:
			if (!np_capture_name_ok(a->value))
				return "expected a captured buffer NAME";
			break;
		case NP_PARAM_CHOICE: {
			const char *c = p->choices;
			size_t len = strlen(a->value);
			bool ok = false;
			while (c && *c && !ok) {
				const char *bar = strchr(c, '|');
				size_t n = bar ? (size_t)(bar - c) : strlen(c);
				ok = n == len && strncmp(c, a->value, n) == 0;
				c = bar ? bar + 1 : NULL;
			}
			if (!ok)
				return "not one of the values this argument takes";
			break;
		}
		}
		step->narg++;
	}
	for (const np_param *p = f->param; p->name; p++)
		if (!p->fallback && !np_step_arg(step, p))
			return "a required argument is missing";
	return NULL;
}

/* expect/accept OUTCOME [Name=Value]... [on RANGE] [arch=LIST] [flag=NAME] */
static const char *parse_expect(char **tok, unsigned n, bool alternative, np_expect *e)
{
	unsigned used;
	memset(e, 0, sizeof *e);
	e->alternative = alternative;
	e->when.lo = 0;
	e->when.hi = NP_VERSION_COUNT - 1;
	all_arches(&e->when);
	const char *err = np_parse_outcome((const char *const *)tok, n, &used, &e->outcome);
	if (err)
		return err;
	for (unsigned i = used; i < n; i++) {
		if (strcmp(tok[i], "on") == 0) {
			if (i + 1 >= n)
				return "`on` needs a version range";
			np_applicability range;
			if ((err = np_parse_range(tok[++i], &range)))
				return err;
			e->when.lo = range.lo;
			e->when.hi = range.hi;
		} else if (strncmp(tok[i], "arch=", 5) == 0) {
			if ((err = parse_arch_list(tok[i] + 5, e->when.arch)))
				return err;
		} else if (strncmp(tok[i], "flag=", 5) == 0) {
			if (!copy_text(e->flag, sizeof e->flag, tok[i] + 5))
				return "flag name too long";
		} else {
			const char *eq = strchr(tok[i], '=');
			if (!eq || eq == tok[i] || eq[1] == '\0')
				return "expected Name=Value, `on RANGE`, arch=LIST or flag=NAME";
			if (e->nout == NP_MAX_OUTS)
				return "too many out-values";
			np_pair *o = &e->out[e->nout++];
			size_t kn = (size_t)(eq - tok[i]);
			if (kn >= sizeof o->name || strlen(eq + 1) >= sizeof o->value)
				return "out-value name or value too long";
			memcpy(o->name, tok[i], kn);
			o->name[kn] = '\0';
			strcpy(o->value, eq + 1);
		}
	}
	if (alternative && e->flag[0] == '\0')
		return "an `accept` line needs flag=NAME saying why the alternative is acceptable";
	if (!alternative && e->flag[0] != '\0')
		return "flag= belongs on `accept` lines only";
	return NULL;
}

static bool flag_known(const char *f)
{
	if (strncmp(f, "unknown:K-", 10) == 0 && f[10] != '\0')
		return true;
	for (unsigned i = 0; known_flags[i]; i++)
		if (strcmp(f, known_flags[i]) == 0)
			return true;
	return false;
}

bool np_vector_has_flag(const np_vector *v, const char *flag)
{
	for (unsigned i = 0; i < v->nflag; i++)
		if (strcmp(v->flag[i], flag) == 0 || (strncmp(v->flag[i], flag, strlen(flag)) == 0 &&
						       v->flag[i][strlen(flag)] == ':'))
			return true;
	return false;
}

/* Checks a finished vector: required fields, and that every step has a
 * primary expectation for every version and architecture it applies to. */
static bool finish(np_vector *v, np_error *err)
{
	if (v->title[0] == '\0')
		return fail(err, v->file, v->line, "vector %s: missing `title`", v->id);
	if (v->nrule == 0)
		return fail(err, v->file, v->line, "vector %s: missing `rules`", v->id);
	if (v->source[0] == '\0')
		return fail(err, v->file, v->line, "vector %s: missing `source` (where the expectation comes from)", v->id);
	if (v->nstep == 0)
		return fail(err, v->file, v->line, "vector %s: no `call` step", v->id);
	for (unsigned s = 0; s < v->nstep; s++) {
		np_step *st = &v->step[s];
		if (st->nexpect == 0)
			return fail(err, v->file, st->line, "step has no `expect` line");
		for (unsigned e = 0; e < st->nexpect; e++) {
			const char *flag = st->expect[e].flag;
			np_outcome_kind k = st->expect[e].outcome.kind;
			if ((k == NP_OUT_FAULT || k == NP_OUT_BUGCHECK || k == NP_OUT_CORRUPTION) &&
			    !np_vector_has_flag(v, "hazardous"))
				return fail(err, v->file, st->expect[e].line,
					    "a fault, bug check or corruption outcome needs the flag `hazardous`");
			if (st->expect[e].alternative && !np_vector_has_flag(v, flag))
				return fail(err, v->file, st->expect[e].line,
					    "accept flag=%s is not among the vector's flags", flag);
		}
		for (unsigned ver = v->applies.lo; ver <= v->applies.hi; ver++) {
			for (unsigned a = 0; a < NP_ARCH_COUNT; a++) {
				if (!v->applies.arch[a] || !np_arch_exists((np_ver)ver, (np_arch)a))
					continue;
				bool covered = false;
				for (unsigned e = 0; e < st->nexpect && !covered; e++)
					covered = !st->expect[e].alternative &&
						  np_applies(&st->expect[e].when, (np_ver)ver, (np_arch)a);
				if (!covered)
					return fail(err, v->file, st->line,
						    "no `expect` line covers %s/%s (the vector applies there)",
						    np_version_key((np_ver)ver), np_arch_name((np_arch)a));
			}
		}
	}
	return true;
}

static bool parse_line(np_vector_set *set, np_vector **cur, char *line, const char *file,
		       int lineno, np_error *err)
{
	char *tok[MAX_TOKENS];
	char raw[MAX_LINE + 1];
	strcpy(raw, line);
	unsigned n = tokenize(line, tok, MAX_TOKENS);
	if (n == 0 || tok[0][0] == '#')
		return true;
	if (n == MAX_TOKENS)
		return fail(err, file, lineno, "too many words on one line");
	const char *kw = tok[0];
	const char *rest = raw + (tok[0] - line) + strlen(kw);
	while (*rest == ' ' || *rest == '\t')
		rest++;
	if (strcmp(kw, "vector") == 0) {
		if (n != 2)
			return fail(err, file, lineno, "expected `vector ID` (one word)");
		if (*cur && !finish(*cur, err))
			return false;
		if (set->count == set->cap) {
			unsigned cap = set->cap ? set->cap * 2 : 64;
			np_vector *nv = realloc(set->v, cap * sizeof *nv);
			if (!nv)
				return fail(err, file, lineno, "out of memory");
			set->v = nv;
			set->cap = cap;
		}
		*cur = &set->v[set->count++];
		memset(*cur, 0, sizeof **cur);
		(*cur)->file = file;
		(*cur)->line = lineno;
		(*cur)->applies.hi = NP_VERSION_COUNT - 1;
		all_arches(&(*cur)->applies);
		if (!copy_text((*cur)->id, sizeof (*cur)->id, tok[1]))
			return fail(err, file, lineno, "vector ID too long");
		return true;
	}
	np_vector *v = *cur;
	if (!v)
		return fail(err, file, lineno, "expected `vector ID` before `%s`", kw);
	const char *e = NULL;
	if (strcmp(kw, "title") == 0 || strcmp(kw, "source") == 0) {
		char *dst = kw[0] == 't' ? v->title : v->source;
		if (*rest == '\0')
			return fail(err, file, lineno, "`%s` needs text", kw);
		if (dst[0])
			return fail(err, file, lineno, "`%s` given twice", kw);
		if (!copy_text(dst, NP_TEXT_MAX, rest))
			return fail(err, file, lineno, "`%s` text longer than %d characters", kw, NP_TEXT_MAX - 1);
	} else if (strcmp(kw, "rules") == 0) {
		for (unsigned i = 1; i < n; i++) {
			if (v->nrule == NP_MAX_RULES)
				return fail(err, file, lineno, "too many rules");
			const char *r = tok[i];
			size_t k = 0;
			while (r[k] >= 'A' && r[k] <= 'Z') k++;
			if (k < 2 || k > 4 || r[k] != '-' || r[k + 1] < '0' || r[k + 1] > '9')
				return fail(err, file, lineno, "expected a rule ID like SI-1, got `%s`", r);
			if (!copy_text(v->rule[v->nrule++], NP_NAME_MAX, r))
				return fail(err, file, lineno, "rule ID too long");
		}
	} else if (strcmp(kw, "flags") == 0) {
		for (unsigned i = 1; i < n; i++) {
			if (!flag_known(tok[i]))
				return fail(err, file, lineno, "unknown flag `%s` (see fixtures/README.md)", tok[i]);
			if (v->nflag == NP_MAX_FLAGS || !copy_text(v->flag[v->nflag++], NP_NAME_MAX, tok[i]))
				return fail(err, file, lineno, "too many or too long flags");
		}
	} else if (strcmp(kw, "applies") == 0) {
		if (n < 2 || n > 3)
			return fail(err, file, lineno, "expected `applies RANGE [arch=LIST]`");
		if ((e = np_parse_range(tok[1], &v->applies)))
			return fail(err, file, lineno, "%s", e);
		if (n == 3) {
			if (strncmp(tok[2], "arch=", 5) != 0)
				return fail(err, file, lineno, "expected arch=LIST after the range");
			if ((e = parse_arch_list(tok[2] + 5, v->applies.arch)))
				return fail(err, file, lineno, "%s", e);
		}
	} else if (strcmp(kw, "given") == 0) {
		for (unsigned i = 1; i < n; i++) {
			if (v->ngiven == NP_MAX_GIVEN)
				return fail(err, file, lineno, "too many given pairs");
			if ((e = np_parse_given_pair(tok[i], &v->given[v->ngiven])))
				return fail(err, file, lineno, "given %s: %s", tok[i], e);
			v->given_line[v->ngiven++] = lineno;
		}
	} else if (strcmp(kw, "call") == 0) {
		if (v->nstep == NP_MAX_STEPS)
			return fail(err, file, lineno, "too many steps");
		np_step *grown = realloc(v->step, (v->nstep + 1) * sizeof *grown);
		if (!grown)
			return fail(err, file, lineno, "out of memory");
		v->step = grown;
		if ((e = np_parse_step(rest, &v->step[v->nstep])) ||
		    (e = np_captures_check(v->step, v->nstep, &v->step[v->nstep])))
			return fail(err, file, lineno, "%s", e);
		v->step[v->nstep++].line = lineno;
	} else if (strcmp(kw, "expect") == 0 || strcmp(kw, "accept") == 0) {
		if (v->nstep == 0)
			return fail(err, file, lineno, "`%s` before any `call`", kw);
		np_step *st = &v->step[v->nstep - 1];
		if (st->nexpect == NP_MAX_EXPECTS)
			return fail(err, file, lineno, "too many expectations for one step");
		np_expect *grown = realloc(st->expect, (st->nexpect + 1) * sizeof *grown);
		if (!grown)
			return fail(err, file, lineno, "out of memory");
		st->expect = grown;
		if ((e = parse_expect(tok + 1, n - 1, kw[0] == 'a', &st->expect[st->nexpect])))
			return fail(err, file, lineno, "%s", e);
		st->expect[st->nexpect++].line = lineno;
	} else {
		return fail(err, file, lineno,
			    "unknown keyword `%s` (vector, title, rules, flags, source, applies, given, call, expect, accept)", kw);
	}
	return true;
}

static void free_vector(np_vector *v)
{
	for (unsigned s = 0; s < v->nstep; s++)
		free(v->step[s].expect);
	free(v->step);
	v->step = NULL;
	v->nstep = 0;
}

/* Registers name as a file of the set (vectors point at it for messages). */
static const char *keep_name(np_vector_set *set, const char *name)
{
	char *copy = strdup(name);
	char **files = realloc(set->files, (set->nfiles + 1) * sizeof *files);
	if (files)
		set->files = files;
	if (!copy || !files) {
		free(copy);
		return NULL;
	}
	set->files[set->nfiles++] = copy;
	return copy;
}

/* The one parser, for files and for text compiled into the program alike.
 * Lines end at '\n' (a '\r' before it is dropped); the text may hold any
 * bytes, NULs included: they are reported, never taken as the end. */
bool np_vectors_load_text(np_vector_set *set, const char *name, const char *text, size_t len,
			  np_error *err)
{
	name = keep_name(set, name);
	if (!name)
		return fail(err, "ntprof", 0, "out of memory");
	unsigned before = set->count;
	char buf[MAX_LINE + 1];
	int lineno = 0;
	bool ok = true;
	np_vector *cur = NULL;
	size_t pos = 0;
	while (ok && pos < len) {
		const char *start = text + pos;
		const char *nl = memchr(start, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - start) : len - pos;
		pos += n + (nl != NULL);
		lineno++;
		if (n && start[n - 1] == '\r')
			n--;
		if (pos > MAX_FILE) {
			ok = fail(err, name, lineno, "file larger than 16 MiB");
		} else if (n > MAX_LINE) {
			ok = fail(err, name, lineno, "line longer than %d characters", MAX_LINE);
		} else {
			for (size_t i = 0; i < n && ok; i++)
				if ((unsigned char)start[i] < 0x20 && start[i] != '\t')
					ok = fail(err, name, lineno, "control character 0x%02X in the line (binary file?)",
						  (unsigned char)start[i]);
		}
		if (ok) {
			memcpy(buf, start, n);
			buf[n] = '\0';
			ok = parse_line(set, &cur, buf, name, lineno, err);
		}
	}
	if (ok && cur)
		ok = finish(cur, err);
	if (ok && set->count == before)
		ok = fail(err, name, lineno, "no vectors in the file");
	if (!ok) {
		for (unsigned i = before; i < set->count; i++)
			free_vector(&set->v[i]);
		set->count = before;   /* nothing half-loaded */
	}
	return ok;
}

/* Reads the whole file (one byte past the 16 MiB limit at most, so that the
 * parser reports the line that crosses it) and parses it as text. */
static bool load_file(np_vector_set *set, const char *path, np_error *err)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return fail(err, path, 0, "cannot open: %s", strerror(errno));
	char *text = NULL;
	size_t len = 0, cap = 0;
	bool ok = true;
	while (len <= MAX_FILE) {
		if (len == cap) {
			size_t grown = cap ? cap * 2 : 16384;
			if (grown > MAX_FILE + 1)
				grown = MAX_FILE + 1;
			char *t = realloc(text, grown);
			if (!t) {
				ok = fail(err, path, 0, "out of memory");
				break;
			}
			text = t;
			cap = grown;
		}
		size_t got = fread(text + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ok && ferror(f))
		ok = fail(err, path, 0, "read error");
	fclose(f);
	if (ok)
		ok = np_vectors_load_text(set, path, text ? text : "", len, err);
	free(text);
	return ok;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

bool np_vectors_load(np_vector_set *set, const char *path, np_error *err)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return fail(err, path, 0, "cannot open: %s", strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return load_file(set, path, err);
	DIR *d = opendir(path);
	if (!d)
		return fail(err, path, 0, "cannot open directory: %s", strerror(errno));
	char **names = NULL;
	unsigned count = 0;
	bool ok = true;
	for (struct dirent *de; ok && (de = readdir(d));) {
		if (de->d_name[0] == '.')
			continue;
		size_t n = strlen(path) + strlen(de->d_name) + 2;
		char *full = malloc(n);
		char **grown = realloc(names, (count + 1) * sizeof *names);
		if (!full || !grown) {
			free(full);
			if (grown)
				names = grown;
			ok = fail(err, path, 0, "out of memory");
			break;
		}
		names = grown;
		snprintf(full, n, "%s/%s", path, de->d_name);
		struct stat sub;
		size_t ln = strlen(de->d_name);
		if (stat(full, &sub) == 0 && (S_ISDIR(sub.st_mode) ||
					      (ln > 4 && strcmp(de->d_name + ln - 4, ".vec") == 0)))
			names[count++] = full;
		else
			free(full);
	}
	closedir(d);
	qsort(names, count, sizeof *names, compare_names);
	for (unsigned i = 0; i < count; i++) {
		if (ok)
			ok = np_vectors_load(set, names[i], err);
		free(names[i]);
	}
	free(names);
	return ok;
}

bool np_vectors_check(const np_vector_set *set, np_error *err)
{
	for (unsigned i = 0; i < set->count; i++)
		for (unsigned j = 0; j < i; j++)
			if (strcmp(set->v[i].id, set->v[j].id) == 0)
				return fail(err, set->v[i].file, set->v[i].line,
					    "duplicate vector ID %s (first at %s:%d)", set->v[i].id,
					    set->v[j].file, set->v[j].line);
	return true;
}

void np_vectors_free(np_vector_set *set)
{
	for (unsigned i = 0; i < set->count; i++)
		free_vector(&set->v[i]);
	free(set->v);
	for (unsigned i = 0; i < set->nfiles; i++)
		free(set->files[i]);
	free(set->files);
	memset(set, 0, sizeof *set);
}

bool np_error_at(np_error *err, const char *path, int line, const char *fmt, ...)
{
	char msg[700];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(err->text, sizeof err->text, "%.300s:%d: %s", path, line, msg);
	return false;
}
