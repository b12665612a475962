/* SPDX-License-Identifier: MIT */
/* `--backend dl:PATH`: an implementation of ntprof/impl.h in a shared
 * object, driven by the same interpreter as the model. The object is checked
 * before anything runs: its entry point, its ABI version and every call the
 * interpreter needs (the simulation steps may be missing). */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "run/backend_dl.h"
#include "vectors/catalog.h"
#include "ntprof/capability.h"
#include "ntprof/impl.h"

#ifdef _WIN32
#include <windows.h>
#define dl_open(p)     ((void *)LoadLibraryA(p))
#define dl_sym(h, s)   ((void *)GetProcAddress((HMODULE)(h), (s)))
#define dl_close(h)    FreeLibrary((HMODULE)(h))
static const char *dl_error(void) { return "LoadLibrary failed"; }
#else
#include <dlfcn.h>
#define dl_open(p)     dlopen((p), RTLD_NOW | RTLD_LOCAL)
#define dl_sym(h, s)   dlsym((h), (s))
#define dl_close(h)    dlclose(h)
static const char *dl_error(void) { const char *e = dlerror(); return e ? e : "dlopen failed"; }
#endif

typedef struct dl_backend {
	np_backend *inner;        /* the interpreter over table, below */
	void *handle;
	ntprof_impl table;        /* the object's, copied whole */
} dl_backend;

/* Whether the object lists function in its implements (NULL: every one). */
static bool dl_implements(np_backend *self, const char *function)
{
	const char *const *list = ((dl_backend *)self->state)->table.implements;
	if (!list)
		return true;
	for (; *list; list++)
		if (strcmp(*list, function) == 0)
			return true;
	return false;
}

/* The member a pseudo-step's capability needs (ntprof/capability.h). */
static bool has_member(const ntprof_impl *t, const char *capability)
{
	static const struct { const char *name; size_t at; } members[] = {
		{ "Interrupt", offsetof(ntprof_impl, interrupt) },
		{ "Inject", offsetof(ntprof_impl, inject) },
		{ "ReadEvents", offsetof(ntprof_impl, read_events) },
		{ "MoveThread", offsetof(ntprof_impl, move_thread) },
		{ "SetCpus", offsetof(ntprof_impl, set_cpus) },
		{ "SetIntervalElsewhere", offsetof(ntprof_impl, set_interval_elsewhere) },
		{ "Protect", offsetof(ntprof_impl, protect) },
	};
	for (size_t i = 0; i < sizeof members / sizeof *members; i++)
		if (strcmp(members[i].name, capability) == 0) {
			void *member;
			memcpy(&member, (const char *)t + members[i].at, sizeof member);
			return member != NULL;
		}
	return true;   /* a given key or a pointer: the object's word alone */
}

/* Whether the object declares the capability: in its implements, or by
 * claiming everything (implements NULL); a pseudo-step only when its table
 * has the member too. */
static bool dl_can(np_backend *self, const char *capability)
{
	const ntprof_impl *t = &((dl_backend *)self->state)->table;
	return has_member(t, capability) &&
	       (!t->implements || np_capability_declared(t->implements, capability));
}

/* The first entry of implements that is neither a function of the catalog
 * nor a capability (a misspelt claim would hold the object to nothing), or
 * NULL. */
static const char *unknown_claim(const ntprof_impl *t)
{
	for (const char *const *c = t->implements; c && *c; c++) {
		const np_function *f = np_function_find(*c);
		if (!(f && np_function_is_call(f) && strcmp(f->name, *c) == 0) && !np_capability_name(*c))
			return *c;
	}
	return NULL;
}

/* The first required member the table lacks, or NULL. */
static const char *missing_member(const ntprof_impl *t)
{
#define NEED(m) if (!t->m) return #m
	NEED(open); NEED(close); NEED(exported); NEED(map); NEED(read); NEED(write); NEED(poke);
	NEED(release); NEED(open_process); NEED(set_interval_profile); NEED(query_interval_profile);
	NEED(create_profile); NEED(create_profile_ex); NEED(start_profile); NEED(stop_profile);
	NEED(close_handle); NEED(duplicate_object); NEED(set_system_information);
	NEED(query_system_information); NEED(trace_set_information); NEED(trace_query_information);
#undef NEED
	return NULL;
}

static const char *dl_begin(np_backend *self, np_target t, const np_vector *v)
{
	np_backend *in = ((dl_backend *)self->state)->inner;
	return in->begin(in, t, v);
}

static void dl_step(np_backend *self, const np_step *st, np_record *r)
{
	np_backend *in = ((dl_backend *)self->state)->inner;
	in->step(in, st, r);
}

static void dl_end(np_backend *self)
{
	np_backend *in = ((dl_backend *)self->state)->inner;
	in->end(in);
}

static void dl_destroy(np_backend *self)
{
	dl_backend *d = self->state;
	d->inner->destroy(d->inner);
	dl_close(d->handle);
	free(d);
	free(self);
}

np_backend *np_backend_dl_new(const char *path, char *err, size_t cap)
{
	void *h = dl_open(path);
	if (!h) {
		snprintf(err, cap, "cannot load it: %s", dl_error());
		return NULL;
	}
	ntprof_impl_entry_fn *entry;
	void *sym = dl_sym(h, NTPROF_IMPL_ENTRY);
	memcpy(&entry, &sym, sizeof entry);   /* object pointer to function pointer, as POSIX allows */
	const ntprof_impl *t = sym ? entry() : NULL;
	const char *lack = NULL;
	if (!sym)
		snprintf(err, cap, "it does not export %s", NTPROF_IMPL_ENTRY);
	else if (!t)
		snprintf(err, cap, "%s returned NULL", NTPROF_IMPL_ENTRY);
	else if (t->abi != NTPROF_IMPL_ABI)
		snprintf(err, cap, "its ABI is %u; this ntprof loads only ABI %u", t->abi, NTPROF_IMPL_ABI);
	else if ((lack = missing_member(t)) != NULL)
		snprintf(err, cap, "its table has no %s", lack);
	else if ((lack = unknown_claim(t)) != NULL)
		snprintf(err, cap, "its implements lists \"%.100s\", neither a function (NtSetIntervalProfile, ...) "
			 "nor a capability (Interrupt, given:KEY, pointer:vanishing, reading:K-NAME=VALUE "
			 "of ntprof/knobs.h, ...)", lack);
	if (!sym || !t || t->abi != NTPROF_IMPL_ABI || lack) {
		dl_close(h);
		return NULL;
	}
	np_backend *b = calloc(1, sizeof *b);
	dl_backend *d = calloc(1, sizeof *d);
	if (d)
		d->table = *t;
	np_backend *inner = d ? np_backend_native_new(&d->table) : NULL;
	if (!b || !d || !inner) {
		snprintf(err, cap, "out of memory");
		free(b);
		free(d);
		if (inner)
			inner->destroy(inner);
		dl_close(h);
		return NULL;
	}
	d->inner = inner;
	d->handle = h;
	*b = (np_backend){ .name = t->name ? t->name : "dl", .begin = dl_begin, .step = dl_step,
			   .end = dl_end, .destroy = dl_destroy, .state = d, .under_test = true,
			   .implements = dl_implements, .can = dl_can, .emulates = d->table.emulates,
			   .declared = d->table.abi >= 2 ? d->table.implements : NULL };
	return b;
}
