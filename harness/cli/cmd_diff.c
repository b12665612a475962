/* SPDX-License-Identifier: MIT */
/* ntprof diff: the steps whose outcome on the model differs between two
 * versions, on each architecture both have (or those chosen), grouped by
 * function. Exit 0 when nothing differs (nothing is printed), 1 when
 * something does, as diff(1); 2 on bad input. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "ntprof/matrix.h"

typedef struct diff_settings {
	const char *root;
	cli_arches arches;
	const char *side[2];   /* VERSION_A[/ARCH], VERSION_B[/ARCH] */
	unsigned nsides;
	cli_paths paths;
} diff_settings;

#define AT(field) offsetof(diff_settings, field)
static const cli_option diff_options[] = {
	{ "--arch", NULL, "LIST", AT(arches), cli_check_arches,
	  "--arch needs x86, x64 or wow64 (comma-separated)", "only these architectures" },
	{ "--root", NULL, "DIR", AT(root), NULL,
	  "--root needs a directory", "the tree whose fixtures/ to read" },
	{ NULL, NULL, NULL, 0, NULL, NULL, NULL },
};
#undef AT

/* The two versions first, then FILE|DIR. */
static int diff_operand(void *settings, char *arg)
{
	diff_settings *s = settings;
	if (s->nsides < 2) {
		s->side[s->nsides++] = arg;
		return 0;
	}
	return cli_paths_add("diff", &s->paths, arg);
}

static const cli_syntax diff_syntax = {
	.command = "diff",
	.options = diff_options,
	.operand = diff_operand,
};

static const char *const diff_usage[] = {
	"ntprof diff [--arch LIST] [--root DIR] VERSION_A[/ARCH] VERSION_B[/ARCH] [FILE|DIR]...",
	NULL,
};

/* One side of `ntprof diff`: VERSION[/ARCH]; false with the argument named. */
static bool diff_side(const char *what, const char *text, np_target *t, bool *has_arch)
{
	char version[NP_NAME_MAX];
	const char *slash = strchr(text, '/');
	size_t n = slash ? (size_t)(slash - text) : strlen(text);
	*has_arch = slash != NULL;
	if (n >= sizeof version || (memcpy(version, text, n), version[n] = '\0', !np_version_parse(version, &t->version))) {
		fprintf(stderr, "ntprof: diff: %s %s: unknown version (see `ntprof versions`)\n", what, text);
		return false;
	}
	t->arch = NP_X86;
	if (slash && !np_arch_parse(slash + 1, &t->arch)) {
		fprintf(stderr, "ntprof: diff: %s %s: unknown architecture (x86, x64 or wow64)\n", what, text);
		return false;
	}
	if (slash && !np_arch_exists(t->version, t->arch)) {
		fprintf(stderr, "ntprof: diff: %s %s: %s does not exist on %s (VR-3)\n", what, text,
			np_arch_name(t->arch), np_version_key(t->version));
		return false;
	}
	return true;
}

/* The pairs of targets to compare, a[k] against b[k]. */
typedef struct diff_pairs {
	np_target a[NP_ARCH_COUNT], b[NP_ARCH_COUNT];
	unsigned count;
} diff_pairs;

/* One pair, a side named with /ARCH; a side without /ARCH is read on the
 * other's architecture. False after saying why. */
static bool pair_named(const diff_settings *s, np_target ta, np_target tb, bool arch_a, bool arch_b,
		       diff_pairs *p)
{
	p->a[0] = ta;
	p->b[0] = tb;
	if (!arch_a)
		p->a[0].arch = tb.arch;
	if (!arch_b)
		p->b[0].arch = ta.arch;
	const np_target *lacking = !np_arch_exists(p->a[0].version, p->a[0].arch) ? &p->a[0]
				   : !np_arch_exists(p->b[0].version, p->b[0].arch) ? &p->b[0] : NULL;
	if (lacking) {
		fprintf(stderr, "ntprof: diff: %s: %s does not exist on %s (VR-3)\n",
			lacking == &p->a[0] ? s->side[0] : s->side[1], np_arch_name(lacking->arch),
			np_version_key(lacking->version));
		return false;
	}
	p->count = 1;
	return true;
}

/* A pair per architecture both versions have (of those --arch chose).
 * False after saying why. */
static bool pairs_common(const diff_settings *s, np_target ta, np_target tb, diff_pairs *p)
{
	p->count = 0;
	for (unsigned k = 0; k < NP_ARCH_COUNT; k++) {
		if (s->arches.any && !s->arches.chosen[k])
			continue;
		bool on_a = np_arch_exists(ta.version, (np_arch)k), on_b = np_arch_exists(tb.version, (np_arch)k);
		if (s->arches.any && (!on_a || !on_b)) {
			fprintf(stderr, "ntprof: diff: --arch %s: %s does not exist on %s (VR-3)\n",
				np_arch_name((np_arch)k), np_arch_name((np_arch)k),
				np_version_key(on_a ? tb.version : ta.version));
			return false;
		}
		if (on_a && on_b) {
			p->a[p->count] = (np_target){ ta.version, (np_arch)k };
			p->b[p->count++] = (np_target){ tb.version, (np_arch)k };
		}
	}
	if (p->count == 0) {
		fprintf(stderr, "ntprof: diff: %s and %s have no architecture in common (VR-3); "
			"name one for each, e.g. %s/x86 %s/x64\n", s->side[0], s->side[1], s->side[0], s->side[1]);
		return false;
	}
	return true;
}

/* The pairs the two sides and --arch name; 0, or the exit status after
 * saying why. */
static int diff_pairs_of(const diff_settings *s, diff_pairs *p)
{
	np_target ta, tb;
	bool arch_a, arch_b;
	if (!diff_side("VERSION_A", s->side[0], &ta, &arch_a) || !diff_side("VERSION_B", s->side[1], &tb, &arch_b))
		return EXIT_BAD_INPUT;
	if ((arch_a || arch_b) && s->arches.any)
		return cli_usage("diff: give architectures either with --arch or as VERSION/ARCH, not both");
	bool ok = arch_a || arch_b ? pair_named(s, ta, tb, arch_a, arch_b, p) : pairs_common(s, ta, tb, p);
	return ok ? 0 : EXIT_BAD_INPUT;
}

static int diff_main(int argc, char **argv)
{
	static diff_settings s;
	memset(&s, 0, sizeof s);
	int status = cli_parse(&diff_syntax, argc, argv, &s, NULL);
	if (status)
		return status;
	if (s.nsides < 2)
		return cli_usage("diff needs two versions, e.g. ntprof diff 6.1 6.2");
	diff_pairs p;
	if ((status = diff_pairs_of(&s, &p)))
		return status;
	np_vector_set set;
	if (!cli_load_vectors(&set, &s.paths, s.root))
		return EXIT_BAD_INPUT;
	bool versions[NP_VERSION_COUNT] = { false }, used[NP_ARCH_COUNT] = { false };
	for (unsigned k = 0; k < p.count; k++) {
		versions[p.a[k].version] = versions[p.b[k].version] = true;
		used[p.a[k].arch] = used[p.b[k].arch] = true;
	}
	np_backend *be = np_backend_model_new();
	np_matrix *m = be ? np_matrix_build(be, &set, versions, used) : NULL;
	if (!m) {
		fprintf(stderr, "ntprof: out of memory\n");
		status = EXIT_BAD_INPUT;
	} else {
		status = np_matrix_diff(stdout, m, p.a, p.b, p.count) ? EXIT_DIFFERENCE : 0;
		if (fflush(stdout) != 0)
			status = EXIT_BAD_INPUT;
	}
	np_matrix_free(m);
	if (be)
		be->destroy(be);
	np_vectors_free(&set);
	return status;
}

const cli_command cli_diff = {
	.name = "diff",
	.main = diff_main,
	.summary = "the steps whose outcome on the model differs between two versions",
	.usage = diff_usage,
	.syntax = &diff_syntax,
};
