/* SPDX-License-Identifier: MIT */
/* Reading vector files: a file or a directory of them, line by line, each
 * line handed to the parser (parse.c). Every problem is reported as
 * "file:line: what was expected"; nothing is kept from a file that fails. */
#define _DEFAULT_SOURCE   /* MAP_ANONYMOUS: the sealed block */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#ifndef _WIN32
#include <sys/mman.h>
#endif

#include "vectors/parse_internal.h"
#include "ntprof/vector.h"

#define MAX_FILE   (16u << 20)

bool np_vectors_vfail(np_error *err, const char *file, int line, const char *fmt, va_list ap)
{
	char msg[700];
	vsnprintf(msg, sizeof msg, fmt, ap);
	if (line > 0)
		snprintf(err->text, sizeof err->text, "%.300s:%d: %s", file, line, msg);
	else   /* the file as a whole: no line to name */
		snprintf(err->text, sizeof err->text, "%.300s: %s", file, msg);
	return false;
}

bool np_copy_text(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);
	if (n >= cap)
		return false;
	memcpy(dst, src, n + 1);
	return true;
}

unsigned np_tokenize(char *line, char **tok, unsigned max)
{
	unsigned n = 0;
	for (char *save = NULL, *t = strtok_r(line, " \t", &save); t && n < max;
	     t = strtok_r(NULL, " \t", &save))
		tok[n++] = t;
	return n;
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
		return np_error_at(err, "ntprof", 0, "out of memory");
	unsigned before = set->count;
	char buf[NP_LINE_MAX + 1];
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
			ok = np_error_at(err, name, lineno, "file larger than 16 MiB");
		} else if (n > NP_LINE_MAX) {
			ok = np_error_at(err, name, lineno, "line longer than %d characters", NP_LINE_MAX);
		} else {
			for (size_t i = 0; i < n && ok; i++)
				if ((unsigned char)start[i] < 0x20 && start[i] != '\t')
					ok = np_error_at(err, name, lineno, "control character 0x%02X in the line (binary file?)",
						  (unsigned char)start[i]);
		}
		if (ok) {
			memcpy(buf, start, n);
			buf[n] = '\0';
			ok = np_parse_line(set, &cur, buf, name, lineno, err);
		}
	}
	if (ok && cur)
		ok = np_vector_finish(cur, err);
	if (ok && set->count == before)
		ok = np_error_at(err, name, lineno, "no vectors in the file");
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
		return np_error_at(err, path, 0, "cannot open: %s", strerror(errno));
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
				ok = np_error_at(err, path, 0, "out of memory");
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
		ok = np_error_at(err, path, 0, "cannot read: %s", strerror(errno));
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
		return np_error_at(err, path, 0, "cannot open: %s", strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return load_file(set, path, err);
	DIR *d = opendir(path);
	if (!d)
		return np_error_at(err, path, 0, "cannot open directory: %s", strerror(errno));
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
			ok = np_error_at(err, path, 0, "out of memory");
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
	if (count > 1)   /* qsort wants a non-NULL array even for none */
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
				return np_error_at(err, set->v[i].file, set->v[i].line,
					    "duplicate vector ID %s (first at %s:%d)", set->v[i].id,
					    set->v[j].file, set->v[j].line);
	return true;
}

void np_vectors_free(np_vector_set *set)
{
#ifndef _WIN32
	if (set->block) {
		munmap(set->block, set->block_size);
		set->v = NULL;
		set->count = 0;
	}
#endif
	for (unsigned i = 0; i < set->count; i++)
		free_vector(&set->v[i]);
	free(set->v);
	for (unsigned i = 0; i < set->nfiles; i++)
		free(set->files[i]);
	free(set->files);
	memset(set, 0, sizeof *set);
}

void np_vectors_keep(np_vector_set *set, bool (*keep)(const np_vector *v))
{
	if (set->block)
		return;
	unsigned kept = 0;
	for (unsigned i = 0; i < set->count; i++) {
		if (keep(&set->v[i]))
			set->v[kept++] = set->v[i];
		else
			free_vector(&set->v[i]);
	}
	set->count = kept;
	/* the array shrinks to what is kept (one entry at least, so that the
	 * pointer stays the array's); a failed shrink leaves it as it was */
	unsigned cap = kept ? kept : 1;
	np_vector *fitted = set->v ? realloc(set->v, cap * sizeof *fitted) : NULL;
	if (fitted) {
		set->v = fitted;
		set->cap = cap;
	}
}

#ifdef _WIN32

bool np_vectors_seal(np_vector_set *set)
{
	(void)set;
	return false;
}

#else

static size_t aligned(size_t at, size_t alignment)
{
	return (at + alignment - 1) / alignment * alignment;
}

/* The bytes of the block: the vectors, then each one's steps (an array),
 * then their expectations. place() lays them out the same way. */
static size_t block_bytes(const np_vector_set *set)
{
	size_t at = set->count * sizeof(np_vector);
	for (unsigned i = 0; i < set->count; i++) {
		at = aligned(at, _Alignof(np_step)) + set->v[i].nstep * sizeof(np_step);
		for (unsigned k = 0; k < set->v[i].nstep; k++)
			at = aligned(at, _Alignof(np_expect)) + set->v[i].step[k].nexpect * sizeof(np_expect);
	}
	return at;
}

/* Copies vector v's steps and expectations into block at *at; v points there. */
static void place(np_vector *v, char *block, size_t *at)
{
	const np_step *from = v->step;
	*at = aligned(*at, _Alignof(np_step));
	v->step = v->nstep ? (np_step *)(block + *at) : NULL;
	if (v->nstep)
		memcpy(v->step, from, v->nstep * sizeof *v->step);
	*at += v->nstep * sizeof *v->step;
	for (unsigned k = 0; k < v->nstep; k++) {
		np_step *st = &v->step[k];
		*at = aligned(*at, _Alignof(np_expect));
		st->expect = st->nexpect ? (np_expect *)(block + *at) : NULL;
		if (st->nexpect)
			memcpy(st->expect, from[k].expect, st->nexpect * sizeof *st->expect);
		*at += st->nexpect * sizeof *st->expect;
	}
}

bool np_vectors_seal(np_vector_set *set)
{
	if (set->block || set->count == 0)
		return set->block != NULL;
	size_t size = block_bytes(set);
	char *block = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (block == MAP_FAILED)
		return false;
	np_vector *v = (np_vector *)block;
	memcpy(v, set->v, set->count * sizeof *v);
	size_t at = set->count * sizeof *v;
	for (unsigned i = 0; i < set->count; i++) {
		place(&v[i], block, &at);
		free_vector(&set->v[i]);
	}
	free(set->v);
	set->v = v;
	set->cap = set->count;
	set->block = block;
	set->block_size = size;
	mprotect(block, size, PROT_READ);   /* a child's stray write faults, not the parent's vectors */
	return true;
}

#endif

bool np_error_at(np_error *err, const char *path, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	np_vectors_vfail(err, path, line, fmt, ap);
	va_end(ap);
	return false;
}
