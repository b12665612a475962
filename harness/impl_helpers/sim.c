/* SPDX-License-Identifier: MIT */
/* The address space and the handle table behind impl.h's table
 * (ntprof/impl_helpers.h): the members as they are, results, and stubs
 * for the calls an implementation leaves out. */
#include <string.h>

#include "ntprof/impl_helpers.h"

int ntprof_sim_init(ntprof_sim *sim, const char *arch)
{
	memset(sim, 0, sizeof *sim);
	if (!ntprof_memory_init(&sim->memory, arch) || !ntprof_handles_init(&sim->handles, arch)) {
		memset(sim, 0, sizeof *sim);
		return 0;
	}
	sim->pointer_size = strcmp(arch, "x64") == 0 ? 8u : 4u;
	return 1;
}

void ntprof_sim_fini(ntprof_sim *sim)
{
	ntprof_handles_fini(&sim->handles);
	ntprof_memory_fini(&sim->memory);
	sim->pointer_size = 0;
}

/* Little-endian, as every architecture of impl.h is. */
uint32_t ntprof_sim_copy_out_pointer(ntprof_sim *sim, uint64_t addr, uint64_t value)
{
	uint8_t bytes[8];
	for (unsigned i = 0; i < 8; i++)
		bytes[i] = (uint8_t)(value >> (8 * i));
	return ntprof_memory_copy_out(&sim->memory, addr, bytes, sim->pointer_size);
}

/* The system struct begins with its ntprof_sim (impl_helpers.h). */
static ntprof_sim *sim_of(void *sys)
{
	return (ntprof_sim *)sys;
}

uint64_t ntprof_sim_map(void *sys, uint64_t size, unsigned prot, unsigned flags, uint8_t fill)
{
	return ntprof_memory_map(&sim_of(sys)->memory, size, prot, flags, fill);
}

int ntprof_sim_read(void *sys, uint64_t addr, void *out, size_t n)
{
	return ntprof_memory_read(&sim_of(sys)->memory, addr, out, n);
}

int ntprof_sim_write(void *sys, uint64_t addr, const void *in, size_t n)
{
	return ntprof_memory_write(&sim_of(sys)->memory, addr, in, n);
}

int ntprof_sim_poke(void *sys, uint64_t addr, const void *in, size_t n)
{
	return ntprof_memory_poke(&sim_of(sys)->memory, addr, in, n);
}

int ntprof_sim_release(void *sys, uint64_t addr)
{
	return ntprof_memory_release(&sim_of(sys)->memory, addr);
}

ntprof_result ntprof_sim_protect(void *sys, uint64_t addr, uint64_t size, unsigned prot)
{
	if (ntprof_memory_protect(&sim_of(sys)->memory, addr, size, prot))
		return (ntprof_result){ NTPROF_NONE, 0, NULL };
	return ntprof_result_not_applicable("a protection change takes whole pages of one mapped region");
}

uint64_t ntprof_sim_open_process(void *sys, int other, uint32_t access)
{
	return ntprof_handles_open_process(&sim_of(sys)->handles, other, access);
}

ntprof_result ntprof_sim_close_handle(void *sys, const char *function, uint64_t handle)
{
	(void)function;
	return ntprof_result_status(ntprof_handles_close(&sim_of(sys)->handles, handle));
}

ntprof_result ntprof_sim_duplicate_object(void *sys, const char *function, uint64_t handle,
					  uint32_t access, uint64_t target_handle)
{
	ntprof_sim *sim = sim_of(sys);
	uint64_t duplicate;
	(void)function;
	uint32_t status = ntprof_handles_duplicate(&sim->handles, handle, access, &duplicate);
	if (duplicate)
		ntprof_sim_copy_out_pointer(sim, target_handle, duplicate);
	return ntprof_result_status(status);
}

ntprof_result ntprof_result_status(uint32_t status)
{
	ntprof_result r = { NTPROF_STATUS, status, NULL };
	return r;
}

ntprof_result ntprof_result_not_applicable(const char *why)
{
	ntprof_result r = { NTPROF_NOT_APPLICABLE, 0, why };
	return r;
}

ntprof_result ntprof_sim_result(const ntprof_sim *sim, uint32_t status)
{
	const char *why = ntprof_memory_error(&sim->memory);
	return why ? ntprof_result_not_applicable(why) : ntprof_result_status(status);
}

/* ---- Stubs: one per signature of impl.h's calls ---- */

static const char NOT_HERE[] = "not implemented here";

static ntprof_result stub_u32_u32(void *sys, const char *fn, uint32_t a, uint32_t b)
{
	(void)sys, (void)fn, (void)a, (void)b;
	return ntprof_result_not_applicable(NOT_HERE);
}

static ntprof_result stub_query_interval(void *sys, const char *fn, uint32_t source, uint64_t p)
{
	(void)sys, (void)fn, (void)source, (void)p;
	return ntprof_result_not_applicable(NOT_HERE);
}

static ntprof_result stub_create(void *sys, const char *fn, const ntprof_create_args *a)
{
	(void)sys, (void)fn, (void)a;
	return ntprof_result_not_applicable(NOT_HERE);
}

static ntprof_result stub_handle(void *sys, const char *fn, uint64_t handle)
{
	(void)sys, (void)fn, (void)handle;
	return ntprof_result_not_applicable(NOT_HERE);
}

static ntprof_result stub_duplicate(void *sys, const char *fn, uint64_t handle, uint32_t access,
				    uint64_t target)
{
	(void)sys, (void)fn, (void)handle, (void)access, (void)target;
	return ntprof_result_not_applicable(NOT_HERE);
}

static ntprof_result stub_set_sysinfo(void *sys, const char *fn, uint32_t cls, uint64_t buf,
				      uint32_t len)
{
	(void)sys, (void)fn, (void)cls, (void)buf, (void)len;
	return ntprof_result_not_applicable(NOT_HERE);
}

static ntprof_result stub_query_sysinfo(void *sys, const char *fn, uint32_t cls, uint64_t buf,
					uint32_t len, uint64_t ret)
{
	(void)sys, (void)fn, (void)cls, (void)buf, (void)len, (void)ret;
	return ntprof_result_not_applicable(NOT_HERE);
}

static ntprof_result stub_trace_set(void *sys, uint64_t session, uint32_t cls, uint64_t buf,
				    uint32_t len)
{
	(void)sys, (void)session, (void)cls, (void)buf, (void)len;
	return ntprof_result_not_applicable(NOT_HERE);
}

static ntprof_result stub_trace_query(void *sys, uint64_t session, uint32_t cls, uint64_t buf,
				      uint32_t len, uint64_t ret)
{
	(void)sys, (void)session, (void)cls, (void)buf, (void)len, (void)ret;
	return ntprof_result_not_applicable(NOT_HERE);
}

#define STUB(member, fn) if (!table->member) table->member = fn

void ntprof_impl_stub_missing(ntprof_impl *table)
{
	STUB(set_interval_profile, stub_u32_u32);
	STUB(query_interval_profile, stub_query_interval);
	STUB(create_profile, stub_create);
	STUB(create_profile_ex, stub_create);
	STUB(start_profile, stub_handle);
	STUB(stop_profile, stub_handle);
	STUB(close_handle, stub_handle);
	STUB(duplicate_object, stub_duplicate);
	STUB(set_system_information, stub_set_sysinfo);
	STUB(query_system_information, stub_query_sysinfo);
	STUB(trace_set_information, stub_trace_set);
	STUB(trace_query_information, stub_trace_query);
}
