/* SPDX-License-Identifier: MIT */
/* The caller's handle table and the object-manager calls vectors need
 * around profiles (MC-3, MC-5). */
#include <string.h>

#include "internal.h"

/* MC-3: WOW64 sign-extends a 32-bit caller's handle, so that the pseudo-
 * handles -1 and -2 keep their meaning; an x86 kernel sees 32 bits anyway. */
uint64_t np_handle_widen(const np_machine *m, uint64_t handle)
{
	if (m->arch == NP_X64)
		return handle;
	return (uint64_t)(int64_t)(int32_t)(uint32_t)handle;
}

/* MC-3: handle values are multiples of 4; the low two bits are ignored.
 * 0 (and so 1..3) never names an object. */
np_handle_entry *np_handle_lookup(np_machine *m, uint64_t handle)
{
	uint64_t index = handle >> 2;
	if (index == 0 || index > NP_MAX_HANDLES)
		return NULL;
	np_handle_entry *e = &m->handle[index - 1];
	return e->type == NP_OBJ_NONE ? NULL : e;
}

/* MC-3: what ObReferenceObjectByHandle does for these calls: the pseudo-
 * handles are the current process and thread; a table handle must name an
 * object of the wanted type and, for a user-mode request, grant the access. */
uint32_t np_handle_reference(np_machine *m, uint64_t handle, np_object_type type, uint32_t access,
			     unsigned *object)
{
	NP_APPLY(m, MC_3);
	handle = np_handle_widen(m, handle);
	if (handle == NP_HANDLE_CURRENT_PROCESS || handle == NP_HANDLE_CURRENT_THREAD) {
		np_object_type pseudo = handle == NP_HANDLE_CURRENT_PROCESS ? NP_OBJ_PROCESS : NP_OBJ_THREAD;
		if (pseudo != type)
			return NP_STATUS_OBJECT_TYPE_MISMATCH;
		*object = NP_PROCESS_CURRENT;
		return NP_STATUS_SUCCESS;
	}
	const np_handle_entry *e = np_handle_lookup(m, handle);
	if (!e)
		return NP_STATUS_INVALID_HANDLE;
	if (e->type != type)
		return NP_STATUS_OBJECT_TYPE_MISMATCH;
	if (m->previous_mode == NP_MODE_USER && (e->access & access) != access)
		return NP_STATUS_ACCESS_DENIED;
	*object = e->object;
	return NP_STATUS_SUCCESS;
}

uint64_t np_handle_open(np_machine *m, np_object_type type, unsigned object, uint32_t access)
{
	for (unsigned i = 0; i < NP_MAX_HANDLES; i++) {
		if (m->handle[i].type == NP_OBJ_NONE) {
			m->handle[i] = (np_handle_entry){ type, object, access };
			if (type == NP_OBJ_PROFILE)
				m->profile[object].handles++;
			return 4u * (i + 1u);
		}
	}
	return 0;
}

/* SP-5: the last handle's close deletes the profile, and a started profile
 * stops counting with it. */
static void release_profile(np_machine *m, unsigned index)
{
	np_profile *p = &m->profile[index];
	NP_APPLY(m, SP_5);
	if (--p->handles == 0) {
		m->started_profiles &= ~(1ull << index);
		m->profiles &= ~(1ull << index);
		memset(p, 0, sizeof *p);
	}
}

/* MC-5 */
np_result np_nt_close(np_machine *m, uint64_t handle)
{
	np_trail_clear(m);
	if (m->halted)
		return NP_DECIDE(m, IN_7, np_bugcheck(m->halt_code));
	np_handle_entry *e = np_handle_lookup(m, np_handle_widen(m, handle));
	if (!e)
		return NP_DECIDE(m, MC_5, np_status(NP_STATUS_INVALID_HANDLE));
	np_handle_entry old = *e;
	memset(e, 0, sizeof *e);
	if (old.type == NP_OBJ_PROFILE)
		release_profile(m, old.object);
	return NP_DECIDE(m, MC_5, np_status(NP_STATUS_SUCCESS));
}

/* MC-5: a duplicate within the caller's process with exactly the access
 * asked for (for a profile, within PROFILE_ALL_ACCESS). */
np_result np_nt_duplicate_object(np_machine *m, uint64_t handle, uint32_t access,
				 uint64_t *duplicate)
{
	np_trail_clear(m);
	*duplicate = 0;
	if (m->halted)
		return NP_DECIDE(m, IN_7, np_bugcheck(m->halt_code));
	np_handle_entry *e = np_handle_lookup(m, np_handle_widen(m, handle));
	if (!e)
		return NP_DECIDE(m, MC_5, np_status(NP_STATUS_INVALID_HANDLE));
	if (e->type == NP_OBJ_PROFILE)
		access &= NP_PROFILE_ALL_ACCESS;
	*duplicate = np_handle_open(m, e->type, e->object, access);
	return NP_DECIDE(m, MC_5, np_status(*duplicate ? NP_STATUS_SUCCESS : NP_STATUS_INSUFFICIENT_RESOURCES));
}
