/* SPDX-License-Identifier: MIT */
/* What commands read before they run: FILE|DIR lists, the vectors they
 * name (or the fixtures), and the rule index of explain and trace. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

int cli_paths_add(const char *command, cli_paths *l, const char *path)
{
	if (l->count == CLI_MAX_PATHS) {
		fprintf(stderr, "ntprof: %s: %s: too many FILE|DIR arguments (at most %d)\n", command, path,
			CLI_MAX_PATHS);
		return EXIT_BAD_INPUT;
	}
	l->path[l->count++] = path;
	return 0;
}

/* The fixtures/ of the tree np_find_root finds; false after saying why
 * when there is none, else true with *ok whether they loaded. */
static bool load_tree_fixtures(np_vector_set *set, const char *root, np_error *err, bool *ok)
{
	const char *r = np_find_root(root);
	if (!r) {
		fprintf(stderr, "ntprof: cannot find fixtures/ (use --root DIR or name files)\n");
		return false;
	}
	char fixtures[600];
	snprintf(fixtures, sizeof fixtures, "%.580s/fixtures", r);
	*ok = np_vectors_load(set, fixtures, err);
	return true;
}

bool cli_load_vectors(np_vector_set *set, const cli_paths *paths, const char *root)
{
	np_error err;
	bool ok = true;
	memset(set, 0, sizeof *set);
	if (paths->count > 0) {
		for (unsigned i = 0; i < paths->count && ok; i++)
			ok = np_vectors_load(set, paths->path[i], &err);
	} else if (root || !cli_builtin_fixtures(set, &err, &ok)) {
		if (!load_tree_fixtures(set, root, &err, &ok))
			return false;
	}
	if (ok && set->count == 0) {
		/* an empty directory: nothing to run is bad input, not an empty report */
		fprintf(stderr, "ntprof: no vectors (no .vec file in %s)\n",
			paths->count == 1 ? paths->path[0] : paths->count ? "the FILE|DIR arguments" : "fixtures/");
		np_vectors_free(set);
		return false;
	}
	if (ok && np_vectors_check(set, &err))
		return true;
	fprintf(stderr, "%s\n", err.text);
	np_vectors_free(set);
	return false;
}

bool cli_load_index(const char *root, np_index *ix)
{
	const char *r = np_find_root(root);
	if (!r) {
		fprintf(stderr, "ntprof: cannot find SPEC.md and fixtures/ (use --root DIR)\n");
		return false;
	}
	np_error err;
	if (!np_index_build(ix, r, &err)) {
		fprintf(stderr, "%s\n", err.text);
		np_index_free(ix);
		return false;
	}
	return true;
}
