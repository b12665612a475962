/* ntprof: run vectors against a backend, compare result files, evaluate calls
 * on the model, explore boundary combinations, explain rules. Exit status: 0
 * all well, 1 a difference (mismatch, unlisted or stale known divergence,
 * differing results, failed check, something the explorer found), 2 bad
 * input (usage, an unreadable or malformed file, an unknown version). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <sys/stat.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#ifdef _WIN32
#include <io.h>        /* mkdir(path) */
#include <windows.h>
#endif
#ifdef NTPROF_EMBEDDED_FIXTURES
#include "win/fixtures_embedded.h"
#endif
#ifdef _WIN32
#include "win/live.h"
#endif

#include "run/backend_dl.h"
#include "ntprof/backend.h"
#include "ntprof/rules_index.h"
#include "ntprof/rules_trace.h"
#include "vectors/catalog.h"
#include "ntprof/compare.h"
#include "ntprof/explore.h"
#include "ntprof/known.h"
#include "ntprof/matrix.h"
#include "ntprof/runner.h"
#include "ntprof/version.h"

#define EXIT_DIFFERENCE 1
#define EXIT_BAD_INPUT  2

static int usage(const char *why)
{
	if (why)
		fprintf(stderr, "ntprof: %s\n", why);
	fprintf(stderr,
		"usage: ntprof run [--backend model|dl:PATH.so] [--target VERSION[/ARCH]]... [--format text|tap|junit|json]\n"
		"                  [--output FILE] [--verbose] [--root DIR]\n"
		"                  [--reference model [--given KEY=VALUE]...]\n"
		"                  [--known FILE] [--known-write FILE] [FILE|DIR]...\n"
#ifdef _WIN32
		"       ntprof live [--format text|tap|junit|json] [--output FILE] [--verbose] [--root DIR]\n"
		"                  [--allow-hazard] [--allow-unsaved-intervals] [--known FILE] [--known-write FILE]\n"
		"                  [FILE|DIR]...\n"
#endif
		"       ntprof compare [--format text|markdown] [--output FILE] [--differences] RESULT.json...\n"
		"       ntprof matrix [--format text|markdown|html] [--arch LIST] [--output FILE] [--root DIR] [FILE|DIR]...\n"
		"       ntprof diff [--arch LIST] [--root DIR] VERSION_A[/ARCH] VERSION_B[/ARCH] [FILE|DIR]...\n"
		"       ntprof call [--target VERSION[/ARCH]] [--given KEY=VALUE]... STEP...\n"
		"       ntprof explore [--function F]... [--target VERSION[/ARCH]]... [--targets LIST]\n"
		"                      [--against model|dl:PATH.so] [--budget N | --seconds S] [--seed N]\n"
		"                      [--output FILE]\n"
		"       ntprof explain [--root DIR] RULE | --check\n"
		"       ntprof trace [--root DIR] [--output-dir DIR]\n"
		"       ntprof versions\n");
	return EXIT_BAD_INPUT;
}

/* Writes through a temporary file renamed into place: no half-written output. */
typedef struct sink {
	FILE *f;
	char tmp[1100];
	const char *path;
} sink;

static bool sink_open(sink *s, const char *path)
{
	s->path = path;
	if (!path) {
		s->f = stdout;
		return true;
	}
	snprintf(s->tmp, sizeof s->tmp, "%.1000s.tmp.%ld", path, (long)getpid());
	s->f = fopen(s->tmp, "w");
	return s->f != NULL;
}

/* Moves tmp over path in one step. POSIX rename() replaces an existing
 * file atomically; the C library's rename() on Windows refuses to, while
 * MoveFileEx with MOVEFILE_REPLACE_EXISTING replaces it without a moment
 * where path is missing (removing it first would leave one). */
static bool replace_file(const char *tmp, const char *path)
{
#ifdef _WIN32
	return MoveFileExA(tmp, path, MOVEFILE_REPLACE_EXISTING) != 0;
#else
	return rename(tmp, path) == 0;
#endif
}

static bool sink_close(sink *s)
{
	if (!s->path)
		return fflush(stdout) == 0;
	bool ok = fclose(s->f) == 0 && replace_file(s->tmp, s->path);
	if (!ok)
		remove(s->tmp);
	return ok;
}

/* Gives up an opened sink: its temporary file goes, the target stays as it was. */
static void sink_abort(sink *s)
{
	if (!s->path)
		return;
	fclose(s->f);
	remove(s->tmp);
}

static const char *need_value(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

/* The FILE|DIR arguments of run, live, matrix and diff: at most MAX_PATHS,
 * and one more is an error rather than an argument quietly left out. */
#define MAX_PATHS 256
static bool add_path(const char *cmd, const char **paths, unsigned *npaths, const char *path)
{
	if (*npaths == MAX_PATHS) {
		fprintf(stderr, "ntprof: %s: %s: too many FILE|DIR arguments (at most %d)\n", cmd, path,
			MAX_PATHS);
		return false;
	}
	paths[(*npaths)++] = path;
	return true;
}

#ifdef NTPROF_EMBEDDED_FIXTURES
/* The fixtures compiled into the program, in the order of their directory. */
static bool load_embedded(np_vector_set *set, np_error *err)
{
	for (unsigned i = 0; i < np_embedded_fixture_count; i++) {
		const np_embedded_file *f = &np_embedded_fixtures[i];
		if (!np_vectors_load_text(set, f->path, f->text, f->len, err))
			return false;
	}
	return true;
}
#endif

/* The vectors of the named files and directories; with none, the
 * repository's fixtures/ (or, in a build that carries its fixtures, those
 * compiled in, unless --root names a tree). False after printing why. */
static bool load_vectors(np_vector_set *set, const char *const *paths, unsigned npaths,
			 const char *root)
{
	np_error err;
	bool ok = true;
	memset(set, 0, sizeof *set);
	if (npaths > 0) {
		for (unsigned i = 0; i < npaths && ok; i++)
			ok = np_vectors_load(set, paths[i], &err);
	} else {
#ifdef NTPROF_EMBEDDED_FIXTURES
		if (!root)
			ok = load_embedded(set, &err);
		else
#endif
		{
			const char *r = np_find_root(root);
			if (!r) {
				fprintf(stderr, "ntprof: cannot find fixtures/ (use --root DIR or name files)\n");
				return false;
			}
			char fixtures[600];
			snprintf(fixtures, sizeof fixtures, "%.580s/fixtures", r);
			ok = np_vectors_load(set, fixtures, &err);
		}
	}
	if (ok && np_vectors_check(set, &err))
		return true;
	fprintf(stderr, "%s\n", err.text);
	np_vectors_free(set);
	return false;
}

/* `model` or `dl:PATH`; NULL with why when it cannot be had. */
static np_backend *open_backend(const char *name, char *why, size_t cap)
{
	if (strcmp(name, "model") == 0) {
		snprintf(why, cap, "out of memory");
		return np_backend_model_new();
	}
	if (strncmp(name, "dl:", 3) == 0 && name[3])
		return np_backend_dl_new(name + 3, why, cap);
	snprintf(why, cap, "unknown backend (available: model, dl:PATH)");
	return NULL;
}

/* --arch LIST: comma-separated architectures, added to chosen. */
static bool parse_arches(const char *list, bool chosen[NP_ARCH_COUNT])
{
	char word[16];
	for (const char *p = list;;) {
		size_t n = strcspn(p, ",");
		np_arch a;
		if (n == 0 || n >= sizeof word) {
			fprintf(stderr, "ntprof: --arch %s: expected x86, x64 or wow64, comma-separated\n", list);
			return false;
		}
		memcpy(word, p, n);
		word[n] = '\0';
		if (!np_arch_parse(word, &a)) {
			fprintf(stderr, "ntprof: --arch %s: unknown architecture %s (x86, x64 or wow64)\n", list, word);
			return false;
		}
		chosen[a] = true;
		if (!p[n])
			return true;
		p += n + 1;
	}
}

/* `run`, or with live set, `live` (Windows only): the vectors on the live
 * system, judged against the model that mirrors it. */
static int cmd_run(int argc, char **argv, bool live)
{
	bool allow_hazard = false, allow_unsaved = false;
	np_target_list targets = { .count = 0 };
	np_format fmt = NP_FORMAT_TEXT;
	const char *output = NULL, *root = NULL, *backend = "model";
	const char *known_path = NULL, *known_write = NULL;
	bool verbose = false, mirrored = false;   /* --reference/--given: judged by the mirrored model */
	np_pair extra[NP_MAX_GIVEN];
	unsigned nextra = 0;
	const char *paths[MAX_PATHS];
	unsigned npaths = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		if (strcmp(a, "--target") == 0) {
			if (!(v = need_value(argc, argv, &i)))
				return usage("--target needs VERSION[/ARCH]");
			const char *e = np_targets_add(&targets, v);
			if (e) {
				fprintf(stderr, "ntprof: --target %s: %s\n", v, e);
				return EXIT_BAD_INPUT;
			}
		} else if (strcmp(a, "--format") == 0) {
			if (!(v = need_value(argc, argv, &i)) || !np_format_parse(v, &fmt))
				return usage("--format takes text, tap, junit or json");
		} else if (strcmp(a, "--backend") == 0) {
			if (!(v = need_value(argc, argv, &i)))
				return usage("--backend needs a name");
			backend = v;
		} else if (strcmp(a, "--output") == 0) {
			if (!(output = need_value(argc, argv, &i)))
				return usage("--output needs a file");
		} else if (strcmp(a, "--root") == 0) {
			if (!(root = need_value(argc, argv, &i)))
				return usage("--root needs a directory");
		} else if (strcmp(a, "--known") == 0) {
			if (!(known_path = need_value(argc, argv, &i)))
				return usage("--known needs a known-divergence file");
		} else if (strcmp(a, "--known-write") == 0) {
			if (!(known_write = need_value(argc, argv, &i)))
				return usage("--known-write needs a file");
		} else if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) {
			verbose = true;
		} else if (live && strcmp(a, "--allow-hazard") == 0) {
			allow_hazard = true;
		} else if (live && strcmp(a, "--allow-unsaved-intervals") == 0) {
			allow_unsaved = true;
		} else if (live && (strcmp(a, "--target") == 0 || strcmp(a, "--backend") == 0 ||
				    strcmp(a, "--reference") == 0 || strcmp(a, "--given") == 0)) {
			fprintf(stderr, "ntprof: live: %s: the live system is the target, the backend and "
				"the given state; the model mirrors it\n", a);
			return usage(NULL);
		} else if (strcmp(a, "--reference") == 0) {
			if (!(v = need_value(argc, argv, &i)) || strcmp(v, "model") != 0)
				return usage("--reference takes model");
			mirrored = true;
		} else if (strcmp(a, "--given") == 0) {
			if (!(v = need_value(argc, argv, &i)))
				return usage("--given needs KEY=VALUE");
			if (nextra == NP_MAX_GIVEN)
				return usage("too many --given");
			const char *e = np_parse_given_pair(v, &extra[nextra]);
			if (e) {
				fprintf(stderr, "ntprof: --given %s: %s\n", v, e);
				return EXIT_BAD_INPUT;
			}
			nextra++;
			mirrored = true;
		} else if (a[0] == '-') {
			fprintf(stderr, "ntprof: %s: unknown option %s\n", live ? "live" : "run", a);
			return usage(NULL);
		} else if (!add_path(live ? "live" : "run", paths, &npaths, a)) {
			return EXIT_BAD_INPUT;
		}
	}
	if (mirrored && targets.count != 1)
		return usage("--reference and --given need exactly one --target VERSION/ARCH");
	if (targets.count == 0)
		np_targets_all(&targets);
	if (output && known_write && strcmp(output, known_write) == 0)
		return usage("--output and --known-write name the same file");

	/* Read before anything runs: a malformed file writes nothing. */
	np_known known = { 0 };
	np_error err;
	if (known_path && !np_known_load(&known, known_path, &err)) {
		fprintf(stderr, "%s\n", err.text);
		np_known_free(&known);
		return EXIT_BAD_INPUT;
	}
	np_vector_set set = { 0 };
	if (!load_vectors(&set, paths, npaths, root)) {
		np_known_free(&known);
		return EXIT_BAD_INPUT;
	}
	char why[400];
	np_backend *b = NULL;
#ifdef _WIN32
	np_live *live_run = NULL;
	if (live) {
		np_live_options opt = { allow_hazard, allow_unsaved };
		np_target t;
		live_run = np_live_open(&set, &opt);
		if (!live_run || !np_live_target(live_run, &t, why, sizeof why)) {
			fprintf(stderr, "ntprof: live: %s\n", live_run ? why : "out of memory");
			np_live_close(live_run);
			np_vectors_free(&set);
			np_known_free(&known);
			return EXIT_BAD_INPUT;
		}
		b = np_live_backend(live_run);
		targets.t[0] = t;
		targets.count = 1;
		mirrored = true;
		nextra = np_live_mirror(live_run, extra, NP_MAX_GIVEN);
		fprintf(stderr, "ntprof live: %s %s/%s, %u vectors, one child process each\n",
			b->name, np_version_key(t.version), np_arch_name(t.arch), set.count);
	}
#else
	(void)allow_hazard;
	(void)allow_unsaved;
#endif
	if (!b)
		b = open_backend(backend, why, sizeof why);
	if (!b) {
		fprintf(stderr, "ntprof: --backend %s: %s\n", backend, why);
		np_vectors_free(&set);
		np_known_free(&known);
		return EXIT_BAD_INPUT;
	}
	np_run run;
	np_backend *reference = mirrored ? np_backend_model_new() : NULL;
	bool ran = mirrored ? reference && np_run_mirrored(b, reference, &set, targets.t[0], extra,
							     nextra, &run)
			    : np_run_vectors(b, &set, &targets, &run);
	if (reference)
		reference->destroy(reference);
	if (!ran) {
		fprintf(stderr, "ntprof: out of memory\n");
#ifdef _WIN32
		if (live_run)
			np_live_finish(live_run, &run);   /* the intervals are restored all the same */
		np_live_close(live_run);
#endif
		np_known_free(&known);
		return EXIT_BAD_INPUT;
	}
#ifdef _WIN32
	if (live_run)
		np_live_finish(live_run, &run);   /* the environment, as probed */
	else
#endif
		for (unsigned i = 0; i < nextra; i++)
			np_run_env(&run, extra[i].name, extra[i].value);
	if (!mirrored && strcmp(backend, "model") != 0) {   /* the reference beside each difference */
		np_backend *model = np_backend_model_new();
		if (model) {
			np_run_beside(&run, model);
			model->destroy(model);
		}
	}
	if (known_path)
		np_known_apply(&known, &run);
	/* Both files open before either is written: a bad --known-write
	 * leaves no report behind, and the reverse. */
	sink out, kw;
	int status = 0;
	bool out_open = sink_open(&out, output);
	bool kw_open = out_open && (!known_write || sink_open(&kw, known_write));
	if (!out_open || !kw_open) {
		fprintf(stderr, "ntprof: %s %s: cannot write\n", out_open ? "--known-write" : "--output",
			out_open ? known_write : output);
		if (out_open)
			sink_abort(&out);
		status = EXIT_BAD_INPUT;
	} else {
		np_report(out.f, &run, fmt, verbose);
		if (known_write)
			np_known_write(kw.f, &run);
		if (!sink_close(&out)) {
			fprintf(stderr, "ntprof: --output %s: cannot write\n", output);
			status = EXIT_BAD_INPUT;
		}
		if (known_write && !sink_close(&kw)) {
			fprintf(stderr, "ntprof: --known-write %s: cannot write\n", known_write);
			status = EXIT_BAD_INPUT;
		}
	}
	if (status == 0) {
		for (unsigned c = 0; c < NP_CLASS_COUNT; c++)
			if (np_class_is_failure((np_class)c) && run.tally[c])
				status = EXIT_DIFFERENCE;
		if (known_path && np_known_failed(&known))
			status = EXIT_DIFFERENCE;
	}
	np_run_free(&run);
	b->destroy(b);
#ifdef _WIN32
	np_live_close(live_run);
#endif
	np_vectors_free(&set);
	np_known_free(&known);
	return status;
}

static int cmd_call(int argc, char **argv)
{
	np_target target = { NP_V11_24H2, NP_X64 };   /* the newest modelled version */
	static np_vector v;                           /* given pairs for the session */
	memset(&v, 0, sizeof v);
	int first_step = argc;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *val;
		if (strcmp(a, "--target") == 0) {
			np_target_list l = { .count = 0 };
			if (!(val = need_value(argc, argv, &i)))
				return usage("--target needs VERSION[/ARCH]");
			const char *e = np_targets_add(&l, val);
			if (e) {
				fprintf(stderr, "ntprof: --target %s: %s\n", val, e);
				return EXIT_BAD_INPUT;
			}
			/* VERSION alone: x64 where it exists, else x86 */
			target = l.t[0];
			for (unsigned k = 0; k < l.count; k++)
				if (l.t[k].arch == NP_X64 && !strchr(val, '/'))
					target = l.t[k];
		} else if (strcmp(a, "--given") == 0) {
			if (!(val = need_value(argc, argv, &i)))
				return usage("--given needs KEY=VALUE");
			if (v.ngiven == NP_MAX_GIVEN)
				return usage("too many --given");
			const char *e = np_parse_given_pair(val, &v.given[v.ngiven]);
			if (e) {
				fprintf(stderr, "ntprof: --given %s: %s\n", val, e);
				return EXIT_BAD_INPUT;
			}
			v.ngiven++;
		} else if (a[0] == '-' && a[1] == '-') {
			fprintf(stderr, "ntprof: call: unknown option %s\n", a);
			return usage(NULL);
		} else {
			first_step = i;
			break;
		}
	}
	if (first_step == argc)
		return usage("call needs at least one STEP, e.g. 'NtQueryIntervalProfile Source=ProfileTime'");
	static np_step steps[64];
	int nsteps = argc - first_step;
	if (nsteps > 64)
		return usage("too many steps");
	for (int i = 0; i < nsteps; i++) {
		const char *e = np_parse_step(argv[first_step + i], &steps[i]);
		if (!e)
			e = np_captures_check(steps, (unsigned)i, &steps[i]);
		if (e) {
			fprintf(stderr, "ntprof: step %d (%s): %s\n", i + 1, argv[first_step + i], e);
			return EXIT_BAD_INPUT;
		}
	}
	np_backend *b = np_backend_model_new();
	if (!b)
		return EXIT_BAD_INPUT;
	const char *why = b->begin(b, target, &v);
	int status = 0;
	if (why) {
		fprintf(stderr, "ntprof: that state cannot exist on %s/%s: %s\n",
			np_version_key(target.version), np_arch_name(target.arch), why);
		status = EXIT_BAD_INPUT;
	}
	for (int i = 0; i < nsteps && !status; i++) {
		np_record rec;
		char line[1024];
		b->step(b, &steps[i], &rec);
		np_format_record(steps[i].function, &rec, line, sizeof line);
		printf("%s\n", line);
	}
	b->destroy(b);
	return status;
}

/* Adds "VERSION[/ARCH],..." to a target list; NULL or why not. */
static const char *add_targets(np_target_list *l, const char *list)
{
	char buf[512];
	if (strlen(list) >= sizeof buf)
		return "list too long";
	strcpy(buf, list);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const char *e = np_targets_add(l, t);
		if (e)
			return e;
	}
	return NULL;
}

/* explore: exit 0 when nothing was found, 1 when the report holds a class
 * (a version difference, or a divergence of the --against backend), 2 on
 * bad input. The report goes through the sink; the figures to stderr. */
static int cmd_explore(int argc, char **argv)
{
	static np_explore_options o;
	memset(&o, 0, sizeof o);
	o.seed = 1;
	const char *output = NULL, *against = NULL;
	bool budget = false;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		uint64_t n;
		if (strcmp(a, "--function") == 0) {
			char buf[512];
			if (!(v = need_value(argc, argv, &i)) || strlen(v) >= sizeof buf)
				return usage("--function needs a function name (e.g. NtCreateProfile)");
			strcpy(buf, v);
			for (char *save = NULL, *f = strtok_r(buf, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
				const char *e = np_explore_check_function(f);
				if (e) {
					fprintf(stderr, "ntprof: --function %s: %s\n", f, e);
					return EXIT_BAD_INPUT;
				}
				if (o.nfunction == NP_EXPLORE_MAX_FUNCTIONS)
					return usage("too many --function");
				/* the catalog's own spelling outlives argv's copy */
				o.function[o.nfunction++] = np_function_find(f)->name;
			}
		} else if (strcmp(a, "--target") == 0 || strcmp(a, "--targets") == 0) {
			if (!(v = need_value(argc, argv, &i)))
				return usage("--targets needs VERSION[/ARCH][,...]");
			const char *e = add_targets(&o.targets, v);
			if (e) {
				fprintf(stderr, "ntprof: %s %s: %s\n", a, v, e);
				return EXIT_BAD_INPUT;
			}
		} else if (strcmp(a, "--against") == 0) {
			if (!(against = need_value(argc, argv, &i)))
				return usage("--against needs a backend (model or dl:PATH.so)");
		} else if (strcmp(a, "--budget") == 0) {
			if (!(v = need_value(argc, argv, &i)) || !np_number_parse(v, &n) || n == 0 ||
			    n > 100000000u)
				return usage("--budget takes a number of combinations from 1 to 100000000");
			o.budget = (unsigned long)n;
			budget = true;
		} else if (strcmp(a, "--seconds") == 0) {
			if (!(v = need_value(argc, argv, &i)) || !np_number_parse(v, &n) || n == 0 ||
			    n > 86400u)
				return usage("--seconds takes a whole number of seconds from 1 to 86400");
			o.seconds = (double)n;
		} else if (strcmp(a, "--seed") == 0) {
			if (!(v = need_value(argc, argv, &i)) || !np_number_parse(v, &n))
				return usage("--seed takes a number (decimal or 0x hex, up to 64 bits)");
			o.seed = n;
		} else if (strcmp(a, "--output") == 0) {
			if (!(output = need_value(argc, argv, &i)))
				return usage("--output needs a file");
		} else {
			fprintf(stderr, "ntprof: explore: unknown %s %s\n", a[0] == '-' ? "option" : "argument", a);
			return usage(NULL);
		}
	}
	if (budget && o.seconds > 0)
		return usage("--budget and --seconds exclude each other");
	char why[400];
	np_backend *model = np_backend_model_new(), *judged = NULL;
	if (!model) {
		fprintf(stderr, "ntprof: out of memory\n");
		return EXIT_BAD_INPUT;
	}
	if (against && !(judged = open_backend(against, why, sizeof why))) {
		fprintf(stderr, "ntprof: --against %s: %s\n", against, why);
		model->destroy(model);
		return EXIT_BAD_INPUT;
	}
	o.against = judged;
	o.against_name = against;
	sink out;
	int status = 0;
	np_explore_stats st;
	if (!sink_open(&out, output)) {
		fprintf(stderr, "ntprof: --output %s: cannot write\n", output);
		status = EXIT_BAD_INPUT;
	} else if (!np_explore(out.f, model, &o, &st)) {
		fprintf(stderr, "ntprof: out of memory\n");
		sink_abort(&out);
		status = EXIT_BAD_INPUT;
	} else if (!sink_close(&out)) {
		fprintf(stderr, "ntprof: --output %s: cannot write\n", output);
		status = EXIT_BAD_INPUT;
	} else {
		fprintf(stderr, "ntprof explore: %lu combinations, %lu evaluations, %.2f s (%.0f combinations/s)%s\n",
			st.combinations, st.evaluations, st.seconds,
			st.seconds > 0 ? (double)st.combinations / st.seconds : 0.0,
			st.stopped_by_time ? "; stopped by --seconds" : "");
		status = st.classes ? EXIT_DIFFERENCE : 0;
	}
	if (judged)
		judged->destroy(judged);
	model->destroy(model);
	return status;
}

/* The rule index of explain and trace, from the root np_find_root finds;
 * false (the reason on stderr, nothing left to free) when it cannot be had. */
static bool load_index(const char *root, np_index *ix)
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

static int cmd_explain(int argc, char **argv)
{
	const char *root = NULL, *rule = NULL;
	bool check = false;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--root") == 0) {
			if (!(root = need_value(argc, argv, &i)))
				return usage("--root needs a directory");
		} else if (strcmp(argv[i], "--check") == 0) {
			check = true;
		} else if (argv[i][0] == '-') {
			return usage("explain: unknown option");
		} else {
			rule = argv[i];
		}
	}
	if (!rule && !check)
		return usage("explain needs a RULE (e.g. SI-1) or --check");
	np_index ix;
	if (!load_index(root, &ix))
		return EXIT_BAD_INPUT;
	int status = 0;
	if (check) {
		unsigned problems = np_index_check(stdout, &ix);
		printf("rules: %u, problems: %u\n", ix.nrule, problems);
		status = problems ? EXIT_DIFFERENCE : 0;
	} else {
		const np_rule *found = np_index_rule(&ix, rule);
		if (!found) {
			fprintf(stderr, "ntprof: explain %s: SPEC.md has no such rule\n", rule);
			status = EXIT_BAD_INPUT;
		} else {
			np_explain(stdout, &ix, found);
		}
	}
	np_index_free(&ix);
	return status;
}

/* mkdir -p: each missing directory of path, in turn. */
static bool make_dirs(const char *path)
{
	char buf[1024];
	if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
		return false;
	for (char *p = buf + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;
		*p = '\0';
#ifdef _WIN32
		int rc = mkdir(buf);
#else
		int rc = mkdir(buf, 0777);
#endif
		if (rc != 0 && errno != EEXIST)
			return false;
		*p = c;
		if (c == '\0')
			return true;
	}
}

/* trace: the rule matrix (rules.md, rules.html) in the output directory,
 * the problems of `explain --check` on stdout; exit 1 when there are any.
 * The reports are written either way: they show the problems too. */
static int cmd_trace(int argc, char **argv)
{
	const char *root = NULL, *dir = "build/reports";
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--root") == 0) {
			if (!(root = need_value(argc, argv, &i)))
				return usage("--root needs a directory");
		} else if (strcmp(argv[i], "--output-dir") == 0) {
			if (!(dir = need_value(argc, argv, &i)))
				return usage("--output-dir needs a directory");
		} else {
			return usage("trace: unknown argument");
		}
	}
	np_index ix;
	if (!load_index(root, &ix))
		return EXIT_BAD_INPUT;
	if (!make_dirs(dir)) {
		fprintf(stderr, "ntprof: --output-dir %s: cannot create it\n", dir);
		np_index_free(&ix);
		return EXIT_BAD_INPUT;
	}
	unsigned problems = 0;
	char *text = np_trace_problems(&ix, &problems);
	if (!text) {
		fprintf(stderr, "ntprof: trace: out of memory\n");
		np_index_free(&ix);
		return EXIT_BAD_INPUT;
	}
	char md[1100], html[1100];
	snprintf(md, sizeof md, "%.1000s/rules.md", dir);
	snprintf(html, sizeof html, "%.1000s/rules.html", dir);
	sink smd, shtml;
	const char *failed = md;
	bool ok = sink_open(&smd, md);
	if (ok) {
		np_trace_markdown(smd.f, &ix, text);
		ok = sink_close(&smd);
	}
	if (ok) {
		failed = html;
		if ((ok = sink_open(&shtml, html))) {
			np_trace_html(shtml.f, &ix, text);
			ok = sink_close(&shtml);
		}
	}
	fputs(text, stdout);
	printf("rules: %u, problems: %u\n", ix.nrule, problems);
	free(text);
	np_index_free(&ix);
	if (!ok) {
		fprintf(stderr, "ntprof: trace: cannot write %s\n", failed);
		return EXIT_BAD_INPUT;
	}
	return problems ? EXIT_DIFFERENCE : 0;
}

/* compare: exit 0 when every row agrees, 1 when some differ (as diff does),
 * 2 on bad input; the table goes through the sink either way. */
static int cmd_compare(int argc, char **argv)
{
	np_table_format fmt = NP_TABLE_TEXT;
	const char *output = NULL;
	bool differences = false;
	int nfiles = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		if (strcmp(a, "--format") == 0) {
			if (!(v = need_value(argc, argv, &i)) || !np_table_format_parse(v, &fmt))
				return usage("compare: --format takes text or markdown");
		} else if (strcmp(a, "--output") == 0) {
			if (!(output = need_value(argc, argv, &i)))
				return usage("--output needs a file");
		} else if (strcmp(a, "--differences") == 0) {
			differences = true;
		} else if (a[0] == '-') {
			fprintf(stderr, "ntprof: compare: unknown option %s\n", a);
			return usage(NULL);
		} else {
			argv[nfiles++] = argv[i];   /* the files, in order, at the front */
		}
	}
	if (nfiles == 0)
		return usage("compare needs at least one JSON result file (ntprof run --format json)");
	np_compare *c = np_compare_new();
	np_error err;
	if (!c) {
		fprintf(stderr, "ntprof: out of memory\n");
		return EXIT_BAD_INPUT;
	}
	for (int i = 0; i < nfiles; i++)
		if (!np_compare_load(c, argv[i], &err)) {
			fprintf(stderr, "%s\n", err.text);
			np_compare_free(c);
			return EXIT_BAD_INPUT;
		}
	sink out;
	int status = np_compare_differing(c) ? EXIT_DIFFERENCE : 0;
	if (!sink_open(&out, output)) {
		fprintf(stderr, "ntprof: --output %s: cannot write\n", output);
		status = EXIT_BAD_INPUT;
	} else {
		np_compare_print(out.f, c, fmt, differences);
		if (!sink_close(&out)) {
			fprintf(stderr, "ntprof: --output %s: cannot write\n", output);
			status = EXIT_BAD_INPUT;
		}
	}
	np_compare_free(c);
	return status;
}

/* matrix: every vector on every version (and chosen architecture) of the
 * model, a row per vector and step, a column per version. Exit 0, or 2 on
 * bad input; the table goes through the sink. */
static int cmd_matrix(int argc, char **argv)
{
	np_matrix_format fmt = NP_MATRIX_TEXT;
	const char *output = NULL, *root = NULL;
	bool arches[NP_ARCH_COUNT] = { false }, any_arch = false;
	const char *paths[MAX_PATHS];
	unsigned npaths = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		if (strcmp(a, "--format") == 0) {
			if (!(v = need_value(argc, argv, &i)) || !np_matrix_format_parse(v, &fmt))
				return usage("matrix: --format takes text, markdown or html");
		} else if (strcmp(a, "--arch") == 0) {
			if (!(v = need_value(argc, argv, &i)))
				return usage("--arch needs x86, x64 or wow64 (comma-separated)");
			if (!parse_arches(v, arches))
				return EXIT_BAD_INPUT;
			any_arch = true;
		} else if (strcmp(a, "--output") == 0) {
			if (!(output = need_value(argc, argv, &i)))
				return usage("--output needs a file");
		} else if (strcmp(a, "--root") == 0) {
			if (!(root = need_value(argc, argv, &i)))
				return usage("--root needs a directory");
		} else if (a[0] == '-') {
			fprintf(stderr, "ntprof: matrix: unknown option %s\n", a);
			return usage(NULL);
		} else if (!add_path("matrix", paths, &npaths, a)) {
			return EXIT_BAD_INPUT;
		}
	}
	if (!any_arch)
		for (unsigned k = 0; k < NP_ARCH_COUNT; k++)
			arches[k] = true;
	/* The page embeds the rule texts: SPEC.md is read before anything runs. */
	np_index rules = { 0 };
	np_error err;
	if (fmt == NP_MATRIX_HTML) {
		const char *r = np_find_root(root);
		if (!r) {
			fprintf(stderr, "ntprof: matrix: cannot find SPEC.md for the rule texts (use --root DIR)\n");
			return EXIT_BAD_INPUT;
		}
		if (!np_spec_load(&rules, r, &err)) {
			fprintf(stderr, "%s\n", err.text);
			np_index_free(&rules);
			return EXIT_BAD_INPUT;
		}
	}
	np_vector_set set;
	if (!load_vectors(&set, paths, npaths, root)) {
		np_index_free(&rules);
		return EXIT_BAD_INPUT;
	}
	bool versions[NP_VERSION_COUNT];
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++)
		versions[v] = true;
	np_backend *b = np_backend_model_new();
	np_matrix *m = b ? np_matrix_build(b, &set, versions, arches) : NULL;
	int status = 0;
	sink out;
	if (!m) {
		fprintf(stderr, "ntprof: out of memory\n");
		status = EXIT_BAD_INPUT;
	} else if (!sink_open(&out, output)) {
		fprintf(stderr, "ntprof: --output %s: cannot write\n", output);
		status = EXIT_BAD_INPUT;
	} else {
		np_matrix_print(out.f, m, fmt, &rules);
		if (!sink_close(&out)) {
			fprintf(stderr, "ntprof: --output %s: cannot write\n", output);
			status = EXIT_BAD_INPUT;
		}
	}
	np_matrix_free(m);
	if (b)
		b->destroy(b);
	np_vectors_free(&set);
	np_index_free(&rules);
	return status;
}

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

/* diff: the steps whose outcome on the model differs between two versions,
 * on each architecture both have (or those chosen), grouped by function.
 * Exit 0 when nothing differs (nothing is printed), 1 when something does,
 * as diff(1); 2 on bad input. */
static int cmd_diff(int argc, char **argv)
{
	const char *root = NULL, *side[2] = { NULL, NULL };
	bool arches[NP_ARCH_COUNT] = { false }, any_arch = false;
	const char *paths[MAX_PATHS];
	unsigned npaths = 0, nsides = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		if (strcmp(a, "--arch") == 0) {
			if (!(v = need_value(argc, argv, &i)))
				return usage("--arch needs x86, x64 or wow64 (comma-separated)");
			if (!parse_arches(v, arches))
				return EXIT_BAD_INPUT;
			any_arch = true;
		} else if (strcmp(a, "--root") == 0) {
			if (!(root = need_value(argc, argv, &i)))
				return usage("--root needs a directory");
		} else if (a[0] == '-') {
			fprintf(stderr, "ntprof: diff: unknown option %s\n", a);
			return usage(NULL);
		} else if (nsides < 2) {
			side[nsides++] = a;
		} else if (!add_path("diff", paths, &npaths, a)) {
			return EXIT_BAD_INPUT;
		}
	}
	if (nsides < 2)
		return usage("diff needs two versions, e.g. ntprof diff 6.1 6.2");
	np_target ta, tb;
	bool arch_a, arch_b;
	if (!diff_side("VERSION_A", side[0], &ta, &arch_a) || !diff_side("VERSION_B", side[1], &tb, &arch_b))
		return EXIT_BAD_INPUT;
	if ((arch_a || arch_b) && any_arch)
		return usage("diff: give architectures either with --arch or as VERSION/ARCH, not both");
	np_target a[NP_ARCH_COUNT], b[NP_ARCH_COUNT];
	unsigned npairs = 0;
	if (arch_a || arch_b) {
		/* one pair; a side without /ARCH is read on the other's architecture */
		a[0] = ta;
		b[0] = tb;
		if (!arch_a)
			a[0].arch = tb.arch;
		if (!arch_b)
			b[0].arch = ta.arch;
		const np_target *lacking = !np_arch_exists(a[0].version, a[0].arch) ? &a[0]
					   : !np_arch_exists(b[0].version, b[0].arch) ? &b[0] : NULL;
		if (lacking) {
			fprintf(stderr, "ntprof: diff: %s: %s does not exist on %s (VR-3)\n",
				lacking == &a[0] ? side[0] : side[1], np_arch_name(lacking->arch),
				np_version_key(lacking->version));
			return EXIT_BAD_INPUT;
		}
		npairs = 1;
	} else {
		for (unsigned k = 0; k < NP_ARCH_COUNT; k++) {
			if (any_arch && !arches[k])
				continue;
			bool on_a = np_arch_exists(ta.version, (np_arch)k), on_b = np_arch_exists(tb.version, (np_arch)k);
			if (any_arch && (!on_a || !on_b)) {
				fprintf(stderr, "ntprof: diff: --arch %s: %s does not exist on %s (VR-3)\n",
					np_arch_name((np_arch)k), np_arch_name((np_arch)k),
					np_version_key(on_a ? tb.version : ta.version));
				return EXIT_BAD_INPUT;
			}
			if (on_a && on_b) {
				a[npairs] = (np_target){ ta.version, (np_arch)k };
				b[npairs++] = (np_target){ tb.version, (np_arch)k };
			}
		}
		if (npairs == 0) {
			fprintf(stderr, "ntprof: diff: %s and %s have no architecture in common (VR-3); "
				"name one for each, e.g. %s/x86 %s/x64\n", side[0], side[1], side[0], side[1]);
			return EXIT_BAD_INPUT;
		}
	}
	np_vector_set set;
	if (!load_vectors(&set, paths, npaths, root))
		return EXIT_BAD_INPUT;
	bool versions[NP_VERSION_COUNT] = { false }, used[NP_ARCH_COUNT] = { false };
	for (unsigned k = 0; k < npairs; k++) {
		versions[a[k].version] = versions[b[k].version] = true;
		used[a[k].arch] = used[b[k].arch] = true;
	}
	np_backend *be = np_backend_model_new();
	np_matrix *m = be ? np_matrix_build(be, &set, versions, used) : NULL;
	int status;
	if (!m) {
		fprintf(stderr, "ntprof: out of memory\n");
		status = EXIT_BAD_INPUT;
	} else {
		status = np_matrix_diff(stdout, m, a, b, npairs) ? EXIT_DIFFERENCE : 0;
		if (fflush(stdout) != 0)
			status = EXIT_BAD_INPUT;
	}
	np_matrix_free(m);
	if (be)
		be->destroy(be);
	np_vectors_free(&set);
	return status;
}

static int cmd_versions(void)
{
	for (unsigned v = 0; v < NP_VERSION_COUNT; v++) {
		const np_version_info *i = np_version_info_of((np_ver)v);
		char build[48];
		if (i->revision)
			snprintf(build, sizeof build, "%u.%u.%u.%u", i->major, i->minor, i->build, i->revision);
		else
			snprintf(build, sizeof build, "%u.%u.%u", i->major, i->minor, i->build);
		printf("%-8s %-16s %-28s %s%s%s\n", i->key, build, i->product,
		       np_arch_exists((np_ver)v, NP_X86) ? "x86 " : "",
		       np_arch_exists((np_ver)v, NP_X64) ? "x64 " : "",
		       np_arch_exists((np_ver)v, NP_WOW64) ? "wow64" : "");
	}
	return 0;
}

int main(int argc, char **argv)
{
#ifdef __GLIBC__
	/* Each vector opens and frees a ~90 KiB simulated machine at the top of
	 * the heap. glibc would give that memory back to the kernel and take it
	 * again for the next vector (two brk calls per vector: half of a run's
	 * time). Keeping up to 16 MiB of free heap avoids it. */
	mallopt(M_TRIM_THRESHOLD, 16 << 20);
#endif
	if (argc < 2)
		return usage(NULL);
	const char *cmd = argv[1];
	if (strcmp(cmd, "run") == 0)
		return cmd_run(argc - 2, argv + 2, false);
#ifdef _WIN32
	if (strcmp(cmd, "live") == 0)
		return cmd_run(argc - 2, argv + 2, true);
	if (strcmp(cmd, "--child") == 0)   /* a vector's session (harness/win/child.c) */
		return np_win_child_main();
#endif
	if (strcmp(cmd, "call") == 0)
		return cmd_call(argc - 2, argv + 2);
	if (strcmp(cmd, "compare") == 0)
		return cmd_compare(argc - 2, argv + 2);
	if (strcmp(cmd, "explain") == 0)
		return cmd_explain(argc - 2, argv + 2);
	if (strcmp(cmd, "trace") == 0)
		return cmd_trace(argc - 2, argv + 2);
	if (strcmp(cmd, "matrix") == 0)
		return cmd_matrix(argc - 2, argv + 2);
	if (strcmp(cmd, "diff") == 0)
		return cmd_diff(argc - 2, argv + 2);
	if (strcmp(cmd, "explore") == 0)
		return cmd_explore(argc - 2, argv + 2);
	if (strcmp(cmd, "versions") == 0)
		return cmd_versions();
	if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0) {
		usage(NULL);
		return 0;
	}
	fprintf(stderr, "ntprof: unknown command %s\n", cmd);
	return usage(NULL);
}
