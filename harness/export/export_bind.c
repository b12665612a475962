/* SPDX-License-Identifier: MIT */
/* The calls of a generated test file, bound once (export.h): a pointer per
 * export the file calls, set by nx_init before any test runs, as Wine's own
 * tests bind theirs with GetProcAddress, in a table with what the step
 * runner needs to know of each (export_prelude_calls.c). A missing export stays NULL and
 * reads as not exported (a win_skip: an older Windows lacks it). A function
 * a known list says raises the stub exception where its platform runs
 * (Wine's unimplemented exports) is set to NULL there as well: calling it
 * would end the program, and catching that needs compiler-specific code.
 * The rows name the exports they call (NX_NtSetIntervalProfile, ...), and
 * nx_call makes each one's call in its case of one switch. */
#include <stdio.h>
#include <string.h>

#include "export/export.h"
#include "vectors/catalog.h"

/* The families the shared helpers call whatever the tests are: the
 * intervals saved and put back, and profiles stopped after a test. */
static bool always_bound(np_function_id id)
{
	return id == NP_FN_SET_INTERVAL || id == NP_FN_QUERY_INTERVAL || id == NP_FN_TRACE_SET ||
	       id == NP_FN_TRACE_QUERY || id == NP_FN_STOP_PROFILE;
}

/* Which spellings of f the file binds: those the rows call, and the Nt
 * one of the families the shared helpers call. */
static unsigned bound(const np_function *f, const unsigned char used[], unsigned nused)
{
	unsigned spelled = (unsigned)f->id < nused ? used[f->id] : 0;
	if (!np_export_case_of(f->id))
		return 0;
	return always_bound(f->id) ? spelled | NP_SPELLED_NT : spelled;
}

/* f's name in the spelling (NP_SPELLED_NT or NP_SPELLED_ZW). */
static const char *spelling(const np_function *f, unsigned spelled)
{
	return spelled == NP_SPELLED_ZW ? f->alias : f->name;
}

/* The exports a platform's lists say are unimplemented stubs there, each
 * once, with the first list that says so. */
#define MAX_STUBS 16
typedef struct stubs {
	char name[MAX_STUBS][NP_TEXT_MAX];
	const char *list[MAX_STUBS];
	unsigned n;
} stubs;

static void add_stub(stubs *st, const char *name, size_t len, const char *list)
{
	for (unsigned i = 0; i < st->n; i++)
		if (strlen(st->name[i]) == len && strncmp(st->name[i], name, len) == 0)
			return;
	if (st->n == MAX_STUBS || len >= NP_TEXT_MAX)
		return;
	memcpy(st->name[st->n], name, len);
	st->name[st->n][len] = '\0';
	st->list[st->n++] = list;
}

/* The list's stub entries: the call of the step each names, in the
 * vectors of the set it names. */
static void entry_stubs(stubs *st, const np_known *k, const np_vector_set *set)
{
	for (unsigned i = 0; i < k->count; i++) {
		const np_known_entry *e = &k->e[i];
		for (unsigned v = 0; e->cls == NP_CLASS_STUB && v < set->count; v++) {
			const np_vector *vec = &set->v[v];
			const char *name = NULL;
			if (!np_known_names(e, vec))
				continue;
			if (e->step_function)
				name = e->step_function->name;
			else if (e->step > 0 && (unsigned)e->step <= vec->nstep)
				name = vec->step[e->step - 1].function;
			if (name)
				add_stub(st, name, strlen(name), k->path);
		}
	}
}

/* A stub the live run met outside any vector's steps (saving an interval)
 * is in the list's `# env` lines only, as "stub: MODULE.dll.NAME is an
 * unimplemented stub": a list for a Windows whose vectors never call NAME
 * has no entry for it. */
static void env_stubs(stubs *st, const np_known *k)
{
	static const char tail[] = " is an unimplemented stub";
	char line[1024];
	FILE *in = fopen(k->path, "r");
	while (in && fgets(line, sizeof line, in)) {
		for (char *at = strstr(line, "stub: "); strncmp(line, "# env ", 6) == 0 && at;
		     at = strstr(at + 1, "stub: ")) {
			char *name = at + 6, *end = name + strcspn(name, " \n");
			if (strncmp(end, tail, sizeof tail - 1) != 0)
				continue;
			for (char *dot = name; dot < end; dot++)
				if (*dot == '.')
					name = dot + 1;
			add_stub(st, name, (size_t)(end - name), k->path);
		}
	}
	if (in)
		fclose(in);
}

static void unbind_stubs(np_export_text *t, const np_known *const lists[], unsigned nlists,
			 const np_vector_set *set, const char *platform, const unsigned char used[], unsigned nused)
{
	stubs st = { .n = 0 };
	for (unsigned k = 0; k < nlists; k++) {
		entry_stubs(&st, lists[k], set);
		env_stubs(&st, lists[k]);
	}
	for (unsigned i = 0; i < st.n; i++) {
		const np_function *f = np_function_find(st.name[i]);
		unsigned spelled = f && strcmp(f->name, st.name[i]) == 0 ? NP_SPELLED_NT : NP_SPELLED_ZW;
		if (f && (bound(f, used, nused) & spelled))
			np_export_printf(t, "    /* a stub on %s, which ends the program (%s) */\n"
					 "    if (!strcmp(winetest_platform, \"%s\")) nx_fn[NX_%s] = NULL;\n",
					 platform, np_export_shown_path(st.list[i]), platform, st.name[i]);
	}
}


/* Whether the steps call f (its case in nx_call is written). */
static bool stepped(const np_function *f, const unsigned char used[], unsigned nused)
{
	return (unsigned)f->id < nused && used[f->id] && np_export_case_of(f->id);
}

/* The list of items, as few lines of at most 100 columns as hold it. */
static void wrapped(np_export_text *t, const char *const *item, unsigned n)
{
	size_t column = 0;
	for (unsigned i = 0; i < n; i++) {
		size_t len = strlen(item[i]) + 2;
		if (column && column + len > 100) {
			np_export_printf(t, "\n");
			column = 0;
		}
		np_export_printf(t, "%s%s,", column ? " " : "    ", item[i]);
		column += column ? len : len + 3;
	}
	np_export_printf(t, "\n");
}

/* The exports the file binds, as the rows name them (NX_NAME; 0 ends a
 * test), then the number of them. */
static void export_enum(np_export_text *t, const unsigned char used[], unsigned nused)
{
	static char text[64][NP_TEXT_MAX + 8];
	const char *item[64];
	const np_function *f;
	unsigned n = 0;
	item[n++] = "NX_NONE";
	for (unsigned i = 0; (f = np_function_at(i)) != NULL; i++)
		for (unsigned k = NP_SPELLED_NT; k <= NP_SPELLED_ZW && n < 63; k++)
			if (bound(f, used, nused) & k) {
				snprintf(text[n], sizeof text[n], "NX_%s", spelling(f, k));
				item[n] = text[n];
				n++;
			}
	item[n++] = "NX_FNS";
	np_export_printf(t, "enum\n{\n");
	wrapped(t, item, n);
	np_export_printf(t, "};\n");
}

/* The case labels of f's spellings the rows call. */
static void case_labels(np_export_text *t, const np_function *f, const unsigned char used[])
{
	for (unsigned k = NP_SPELLED_NT; k <= NP_SPELLED_ZW; k++)
		if (used[f->id] & k)
			np_export_printf(t, " case NX_%s:", spelling(f, k));
}

/* Each call's case, once: the calls whose cases are the same text share
 * one, under the labels of all of them. */
void np_export_dispatch(np_export_text *t, const unsigned char used[], unsigned nused)
{
	const np_function *f, *g;
	for (unsigned i = 0; (f = np_function_at(i)) != NULL; i++) {
		const char *const *text = np_export_case_of(f->id);
		bool earlier = false;
		for (unsigned j = 0; j < i; j++)
			earlier = earlier || (stepped(g = np_function_at(j), used, nused) && np_export_case_of(g->id) == text);
		if (!stepped(f, used, nused) || earlier)
			continue;
		np_export_printf(t, "   ");
		for (unsigned j = i; (g = np_function_at(j)) != NULL; j++)
			if (stepped(g, used, nused) && np_export_case_of(g->id) == text)
				case_labels(t, g, used);
		np_export_printf(t, "\n");
		for (; *text; text++)
			np_export_printf(t, "%s", *text);
		if (strcmp(text[-1], "    }\n") != 0)
			np_export_printf(t, "        break;\n");
	}
}

/* A row of nx_exports, its out-values on a line of their own where the
 * row would be wider than 100 columns. */
static void entry(np_export_text *t, const char *name, const char *rest)
{
	const char *out = strstr(rest, ", .out");
	size_t first = strcspn(rest, "\n");
	if (out && 10 + strlen(name) + first > 100)
		np_export_printf(t, "    { \"%s\", %.*s,\n      %s },\n", name, (int)(out - rest), rest, out + 2);
	else
		np_export_printf(t, "    { \"%s\", %s },\n", name, rest);
}

/* Its row after the name: rest, with the todo of a platform whose known
 * list says the spelling is missing there (before the out-values). */
static const char *with_todo(char *buf, size_t cap, const char *rest, unsigned lacked)
{
	static const char *const todo[4] = { "", "NX_TODO_WINE", "NX_TODO_ROS", "NX_TODO_WINE | NX_TODO_ROS" };
	const char *out = strstr(rest, ".out");
	size_t head = out ? (size_t)(out - rest) : strlen(rest);
	if (!lacked)
		return rest;
	if (out && head == 0)
		snprintf(buf, cap, ".todo = %s, %s", todo[lacked], rest);
	else
		snprintf(buf, cap, "%.*s, .todo = %s%s%s", (int)(out ? head - 2 : head), rest, todo[lacked],
			 out ? ", " : "", out ? out : "");
	return buf;
}

void np_export_bind(np_export_text *t, const unsigned char used[], unsigned nused, const np_vector_set *set,
		    const np_export_options *o, const np_export_sizes *z)
{
	char buf[512];   /* a row with its todo */
	const np_function *f;
	np_export_printf(t, "\n/* The exports the rows call, bound by nx_init; each out-value's argument, offset and type. */\n");
	export_enum(t, used, nused);
	np_export_printf(t, "\nstatic const struct nx_export\n{\n    const char *name;\n    int kind, todo; /* todo: NX_TODO_WINE where a known list says Wine lacks it */\n"
			 "    struct nx_out { const char *name; int arg, offset; char type; } out[3];\n"
			 "} nx_exports[NX_FNS] =\n{\n    { .name = \"\" },\n");
	static char plain[64][NP_TEXT_MAX + 512 + 16];   /* the rows without out-values, as many to a line as fit */
	const char *item[64];
	unsigned n = 0;
	for (unsigned i = 0; (f = np_function_at(i)) != NULL; i++)
		for (unsigned k = NP_SPELLED_NT; k <= NP_SPELLED_ZW; k++) {
			unsigned lacked = (unsigned)f->id < NP_EXPORT_FUNCTIONS ? z->lacked[f->id] : 0;
			const char *rest = np_export_entry_of(f->id);
			if (!(bound(f, used, nused) & k))
				continue;
			rest = with_todo(buf, sizeof buf, rest, (lacked & k ? 1 : 0) | (lacked & k << 2 ? 2 : 0));
			if (!strstr(rest, ".out") && n < 64) {
				snprintf(plain[n], sizeof plain[n], "{ \"%s\", %s }", spelling(f, k), rest);
				item[n] = plain[n];
				n++;
				continue;
			}
			if (n)
				wrapped(t, item, n);
			n = 0;
			entry(t, spelling(f, k), rest);
		}
	if (n)
		wrapped(t, item, n);
	np_export_printf(t, "};\nstatic void *nx_fn[NX_FNS];\n\n"
			 "static void nx_init(void)\n{\n    int i;\n"
			 "    for (i = 1; i < NX_FNS; i++) nx_fn[i] = nx_lookup(nx_exports[i].name);\n"
			 "    pRtlAdjustPrivilege = nx_lookup(\"RtlAdjustPrivilege\");\n"
			 "    pGetActiveProcessorCount = nx_lookup(\"GetActiveProcessorCount\");\n"
			 "    pGetActiveProcessorGroupCount = nx_lookup(\"GetActiveProcessorGroupCount\");\n");
	unbind_stubs(t, o->known, o->nknown, set, "wine", used, nused);
	unbind_stubs(t, o->known_ros, o->nknown_ros, set, "reactos", used, nused);
	np_export_printf(t, "}\n");
}
