/* SPDX-License-Identifier: MIT */
/* SystemProcessorProfileControlArea (0x81): NtSetSystemInformation creates or
 * removes the current processor's PROCESSOR_PROFILE_CONTROL_AREA, the PEBS
 * DS save area (SPEC.md SY-6..SY-17). */
#include "sysinfo.h"

/* SY-17: the model's non-paged pool hands out cache-aligned blocks at
 * increasing kernel addresses and never reuses one, so that the addresses a
 * vector sees are deterministic. SY-9: an area of 0x60 bytes takes 0x80 in
 * 64-byte lines, one of 0xA0 bytes (K-PPCA-WIDE-FROM) 0xC0. */
#define POOL_BASE_32    0x8A100000ull
#define POOL_BASE_64    0xFFFFA00000100000ull
#define POOL_BLOCK      0x80ull     /* 0x60 bytes in 64-byte lines */
#define POOL_BLOCK_WIDE 0xC0ull     /* 0xA0 bytes */

static bool pool_allocate(np_machine *m, uint64_t *area)
{
	if (!np_allocate(m))
		return false;
	uint64_t block = np_ppca_is_wide(m) ? POOL_BLOCK_WIDE : POOL_BLOCK;
	uint64_t base = np_kernel_is_32bit(m->arch) ? POOL_BASE_32 : POOL_BASE_64;
	*area = base + block * m->pool_allocations++;
	return true;
}

/* SY-11: PEBS needs an Intel processor whose IA32_MISC_ENABLE has bit 7
 * (performance monitoring available) set and bit 12 (PEBS unavailable)
 * clear; a 32-bit kernel also needs CPUID leaf 1 ECX bit 2 (DTES64). */
static bool has_pebs(const np_machine *m, const np_cpu *c)
{
	return c->vendor == NP_VENDOR_INTEL &&
	       (c->misc_enable & NP_MISC_ENABLE_PERFMON_AVAILABLE) &&
	       !(c->misc_enable & NP_MISC_ENABLE_PEBS_UNAVAILABLE) &&
	       (!np_kernel_is_32bit(m->arch) || (c->cpuid1_ecx & NP_CPUID1_ECX_DTES64));
}

/* SY-9: the output is the pointer at offset 0, as wide as the caller's pointers. */
static bool write_output(const np_sysinfo *rq, unsigned pointer_size, uint64_t value)
{
	uint8_t bytes[8];
	for (unsigned i = 0; i < 8; i++)
		bytes[i] = (uint8_t)(value >> (8 * i));
	return np_sysinfo_write(rq, 0, bytes, pointer_size);
}

static np_result allocate(const np_sysinfo *rq, np_cpu *cpu, unsigned pointer_size)
{
	np_machine *m = rq->m;
	NP_APPLY(m, SY_17);
	uint64_t area;
	/* SY-10: the memory comes first, whatever the processor */
	if (!pool_allocate(m, &area)) {
		if (!write_output(rq, pointer_size, 0))
			return np_sysinfo_fault(m);                      /* SY-5 */
		return NP_DECIDE(m, SY_10, np_status(NP_STATUS_INSUFFICIENT_RESOURCES));
	}
	/* SY-11: the new area is freed; the output is not written */
	if (!has_pebs(m, cpu))
		return NP_DECIDE(m, SY_11, np_status(NP_STATUS_NOT_SUPPORTED));
	/* SY-12: the processor keeps the area it has; the new one is freed */
	if (cpu->control_area != 0) {
		if (!write_output(rq, pointer_size, cpu->control_area))
			return np_sysinfo_fault(m);                      /* SY-5 */
		return NP_DECIDE(m, SY_12, np_status(NP_STATUS_ADDRESS_ALREADY_EXISTS));
	}
	/* SY-13: attached to the processor, then reported */
	cpu->control_area = area;
	if (!write_output(rq, pointer_size, area))
		return np_sysinfo_fault(m);                              /* SY-5 */
	return NP_DECIDE(m, SY_13, np_status(NP_STATUS_SUCCESS));
}

static np_result release(const np_sysinfo *rq, np_cpu *cpu, unsigned pointer_size)
{
	np_machine *m = rq->m;
	/* SY-14: with K-PEBS-ON-FREE=checked the PEBS test of SY-11 comes
	 * first, before the output is touched */
	if (m->knobs.pebs_on_free == NP_PEBS_FREE_CHECKED && !has_pebs(m, cpu))
		return NP_DECIDE(m, SY_14, np_status(NP_STATUS_NOT_SUPPORTED));
	if (!write_output(rq, pointer_size, 0))
		return np_sysinfo_fault(m);                              /* SY-5 */
	if (cpu->control_area == 0)
		return NP_DECIDE(m, SY_14, np_status(NP_STATUS_MEMORY_NOT_ALLOCATED));
	cpu->control_area = 0;                                       /* detached and freed */
	return NP_DECIDE(m, SY_14, np_status(NP_STATUS_SUCCESS));
}

np_result np_processor_profile_control_area(const np_sysinfo *rq)
{
	np_machine *m = rq->m;
	/* SY-8: exactly the structure as the kernel declares it: 8 bytes on a
	 * 32-bit kernel, 16 on a 64-bit one, also for a WOW64 caller, whose
	 * buffer is passed through unconverted */
	unsigned pointer_size = np_kernel_is_32bit(m->arch) ? 4u : 8u;
	bool length_right = rq->length == 2 * pointer_size;
	np_result wrong_length = np_status(m->knobs.ppca_length_status == NP_PPCA_INVALID_PARAMETER
						   ? NP_STATUS_INVALID_PARAMETER
						   : NP_STATUS_INFO_LENGTH_MISMATCH);
	if (m->knobs.ppca_length_order == NP_PPCA_LENGTH_FIRST && !length_right)
		return NP_DECIDE(m, SY_8, wrong_length);
	if (m->previous_mode == NP_MODE_USER)
		return NP_DECIDE(m, SY_7, np_status(NP_STATUS_ACCESS_DENIED));
	if (!length_right)
		return NP_DECIDE(m, SY_8, wrong_length);
	NP_APPLY(m, SY_9);   /* the BOOLEAN Allocate follows the pointer; only its byte is read */
	uint8_t allocate_flag;
	if (!np_sysinfo_read(rq, pointer_size, &allocate_flag, 1))
		return np_sysinfo_fault(m);                              /* SY-5 */
	NP_APPLY(m, SY_15);   /* the work is done on the processor the thread runs on now */
	NP_APPLY(m, SY_16);   /* with that processor's PEBS state */
	np_cpu *cpu = &m->cpu[m->current_cpu];
	return allocate_flag ? allocate(rq, cpu, pointer_size) : release(rq, cpu, pointer_size);
}
