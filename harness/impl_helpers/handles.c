/* SPDX-License-Identifier: MIT */
/* The caller's handle table (ntprof/impl_helpers.h): handle values, the
 * pseudo-handles, references with their type and access checks (MC-3),
 * close and duplicate (MC-5), objects released with their last handle. */
#include <stdlib.h>
#include <string.h>

#include "ntprof/impl_helpers.h"

int ntprof_handles_init(ntprof_handles *t, const char *arch)
{
	memset(t, 0, sizeof *t);
	if (strcmp(arch, "x86") == 0 || strcmp(arch, "wow64") == 0)
		t->narrow = 1;
	else if (strcmp(arch, "x64") != 0)
		return 0;
	t->other_process.other = 1;
	t->this_thread.process = &t->this_process;
	return 1;
}

/* The entry a handle names, free or not; NULL out of the table. Values are
 * multiples of 4 (the low two bits ignored) and 0 names nothing. */
static ntprof_handle_entry *slot(const ntprof_handles *t, uint64_t handle)
{
	uint64_t index = ntprof_handles_widen(t, handle) >> 2;
	if (index == 0 || index > t->capacity)
		return NULL;
	return &t->entry[index - 1];
}

/* Frees the entry; the object goes with its last handle. */
static void drop(ntprof_handles *t, ntprof_handle_entry *e)
{
	ntprof_handle_entry old = *e;
	memset(e, 0, sizeof *e);
	if ((size_t)(e - t->entry) < t->first_free)
		t->first_free = (size_t)(e - t->entry);
	const ntprof_object_type *type = &t->type[old.type];
	if (type->release && ntprof_handles_count(t, old.object) == 0)
		type->release(type->ctx, old.type, old.object);
}

void ntprof_handles_fini(ntprof_handles *t)
{
	for (size_t i = 0; i < t->capacity; i++)
		if (t->entry[i].type)
			drop(t, &t->entry[i]);
	free(t->entry);
	memset(t, 0, sizeof *t);
}

int ntprof_handles_define_type(ntprof_handles *t, uint32_t type, uint32_t valid_access,
			       ntprof_object_release_fn *release, void *ctx)
{
	if (type < NTPROF_OBJECT_USER || type >= NTPROF_OBJECT_TAGS)
		return 0;
	t->type[type] = (ntprof_object_type){ valid_access, release, ctx };
	return 1;
}

/* MC-3: WOW64 sign-extends a 32-bit caller's handle so that -1 and -2 keep
 * their meaning; an x86 kernel sees the same 32 bits. */
uint64_t ntprof_handles_widen(const ntprof_handles *t, uint64_t handle)
{
	return t->narrow ? (uint64_t)(int64_t)(int32_t)(uint32_t)handle : handle;
}

/* The lowest free entry, the table grown (doubled) when none is. The
 * search starts at first_free, so that filling a table is not quadratic. */
static ntprof_handle_entry *free_slot(ntprof_handles *t)
{
	for (size_t i = t->first_free; i < t->capacity; i++)
		if (!t->entry[i].type)
			return &t->entry[i];
	if (t->capacity == NTPROF_HANDLES_MAX)
		return NULL;
	size_t first = t->capacity, cap = first ? 2 * first : 16;
	ntprof_handle_entry *e = realloc(t->entry, cap * sizeof *e);
	if (!e)
		return NULL;
	memset(e + first, 0, (cap - first) * sizeof *e);
	t->entry = e;
	t->capacity = cap;
	return &e[first];
}

uint64_t ntprof_handles_open(ntprof_handles *t, uint32_t type, void *object, uint32_t access)
{
	if (type == 0 || type >= NTPROF_OBJECT_TAGS)
		return 0;
	ntprof_handle_entry *e = free_slot(t);
	if (!e)
		return 0;
	*e = (ntprof_handle_entry){ type, access, object };
	t->first_free = (size_t)(e - t->entry) + 1;
	return 4u * (uint64_t)(e - t->entry + 1);
}

uint64_t ntprof_handles_open_process(ntprof_handles *t, int other, uint32_t access)
{
	return ntprof_handles_open(t, NTPROF_OBJECT_PROCESS, other ? &t->other_process : &t->this_process,
				   access);
}

const ntprof_handle_entry *ntprof_handles_lookup(const ntprof_handles *t, uint64_t handle)
{
	const ntprof_handle_entry *e = slot(t, handle);
	return e && e->type ? e : NULL;
}

/* MC-3: what ObReferenceObjectByHandle does for these calls. */
uint32_t ntprof_handles_reference(const ntprof_handles *t, uint64_t handle, uint32_t type,
				  uint32_t access, int check_access, void **object)
{
	handle = ntprof_handles_widen(t, handle);
	if (handle == NTPROF_CURRENT_PROCESS || handle == NTPROF_CURRENT_THREAD) {
		int process = handle == NTPROF_CURRENT_PROCESS;
		if (type != (process ? NTPROF_OBJECT_PROCESS : NTPROF_OBJECT_THREAD))
			return NTPROF_STATUS_OBJECT_TYPE_MISMATCH;
		*object = process ? (void *)&t->this_process : (void *)&t->this_thread;
		return NTPROF_STATUS_SUCCESS;
	}
	const ntprof_handle_entry *e = ntprof_handles_lookup(t, handle);
	if (!e)
		return NTPROF_STATUS_INVALID_HANDLE;
	if (e->type != type)
		return NTPROF_STATUS_OBJECT_TYPE_MISMATCH;
	if (check_access && (e->access & access) != access)
		return NTPROF_STATUS_ACCESS_DENIED;
	*object = e->object;
	return NTPROF_STATUS_SUCCESS;
}

uint32_t ntprof_handles_close(ntprof_handles *t, uint64_t handle)
{
	ntprof_handle_entry *e = slot(t, handle);
	if (!e || !e->type)
		return NTPROF_STATUS_INVALID_HANDLE;
	drop(t, e);
	return NTPROF_STATUS_SUCCESS;
}

/* MC-5: exactly the access asked for, within what the type defines. */
uint32_t ntprof_handles_duplicate(ntprof_handles *t, uint64_t handle, uint32_t access,
				  uint64_t *duplicate)
{
	*duplicate = 0;
	const ntprof_handle_entry *e = ntprof_handles_lookup(t, handle);
	if (!e)
		return NTPROF_STATUS_INVALID_HANDLE;
	uint32_t valid = t->type[e->type].valid_access;
	*duplicate = ntprof_handles_open(t, e->type, e->object, valid ? access & valid : access);
	return *duplicate ? NTPROF_STATUS_SUCCESS : NTPROF_STATUS_INSUFFICIENT_RESOURCES;
}

size_t ntprof_handles_count(const ntprof_handles *t, const void *object)
{
	size_t n = 0;
	for (size_t i = 0; i < t->capacity; i++)
		n += t->entry[i].type && t->entry[i].object == object;
	return n;
}
