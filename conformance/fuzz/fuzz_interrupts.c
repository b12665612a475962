/* SPDX-License-Identifier: MIT */
/* libFuzzer, differential: np_profile_interrupts (a run of pcs, the fast
 * loop the benchmark and sample replays use) against np_profile_interrupt
 * once per pc, on twin machines given the same profiles (IN-1..IN-7).
 *
 * The run is promised to be exactly that many single interrupts, in order,
 * stopping at a bug check (model/include/ntprof/calls.h). The input chooses
 * the version, architecture, processors and groups, the IN-4 and IN-7 knobs,
 * up to three profiles created and started through the calls (base, size,
 * bucket, buffer, source, process; a create the rules refuse is skipped on
 * both twins alike), the interrupt (source, processor, group, process) and
 * up to 512 pcs near the profiled region or anywhere. Any difference in the
 * result, the total counted, the halt, the bug-check code or a byte of the
 * buffers aborts. conformance/model/test_profile_interrupt.c has the fixed cases;
 * this explores the rest. Seeds: conformance/fuzz/interrupts/ (any bytes
 * decode). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ntprof/calls.h"
#include "ntprof/machine.h"
#include "ntprof/status.h"
#include "ntprof/version.h"

#define FUZZER "fuzz_interrupts"
#include "fuzz_support.h"

#define HCELL    0x10000u        /* RW page: the handle cell */
#define BUF      0x100000u       /* RW, 4 pages, zero: profile buffers */
#define BUF_LEN  0x4000u
#define REGION   0x10000000u     /* what the profiles cover */
#define MAX_PCS  512
#define MAX_PROFILES 3

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A size near the ones the rules care about (bucket edges, page, 4 GiB). */
static uint64_t size_of(input *in)
{
	static const uint64_t sizes[] = {
		0, 1, 3, 4, 5, 0x10, 0x3F, 0x40, 0x41, 0x100, 0x101, 0xFFF, 0x1000, 0x10000,
		0xFFFFFFFFu, 0x100000000ull,
	};
	unsigned how = byte(in);
	return how & 1 ? sizes[(how >> 1) % (sizeof sizes / sizeof *sizes)] : raw(in, 2);
}

typedef struct profile_spec {
	uint64_t base, size, buffer, process;
	uint32_t bucket, buffer_size, source;
} profile_spec;

typedef struct plan {
	np_ver version;
	np_arch arch;
	unsigned cpus, groups;
	np_knob_oob oob;
	bool inclusive;               /* K-INCLUSIVE-END on every version, or the default */
	unsigned nprofile;
	profile_spec profile[MAX_PROFILES];
	np_interrupt irq;
	uint64_t pc[MAX_PCS];
	size_t npc;
} plan;

static const uint32_t sources[] = {
	NP_PROFILE_TIME, NP_PROFILE_ALIGNMENT_FIXUP, 0x02u /* ProfileTotalIssues */, 0x7FFFFFFFu,
};

static void decode(input *in, plan *p)
{
	memset(p, 0, sizeof *p);
	p->version = (np_ver)(byte(in) % NP_VERSION_COUNT);
	p->arch = (np_arch)(byte(in) % NP_ARCH_COUNT);
	p->cpus = 1 + byte(in) % 4;
	p->groups = 1 + byte(in) % 2;
	p->oob = (np_knob_oob)(byte(in) % 4);
	p->inclusive = byte(in) & 1;
	p->nprofile = byte(in) % (MAX_PROFILES + 1);
	for (unsigned i = 0; i < p->nprofile; i++) {
		profile_spec *s = &p->profile[i];
		unsigned how = byte(in);
		s->base = how & 1 ? REGION + (byte(in) & 0xF0) : REGION;
		s->size = size_of(in);
		s->bucket = byte(in) % 34;
		s->buffer = BUF + (uint64_t)(byte(in) % 4) * 0x1000u + (how & 2 ? 2u : 0u);
		s->buffer_size = (uint32_t)size_of(in);
		s->source = sources[(how >> 2) % 4];
		s->process = how & 0x10 ? NP_HANDLE_CURRENT_PROCESS : 0;
	}
	unsigned how = byte(in);
	p->irq.source = sources[how % 4];
	p->irq.cpu = byte(in) % 5;
	p->irq.group = byte(in) % 3;
	p->irq.process = how & 4 ? NP_PROCESS_OTHER : NP_PROCESS_CURRENT;
	while (p->npc < MAX_PCS && in->at < in->n) {
		unsigned k = byte(in);
		p->pc[p->npc++] = k & 0x80 ? raw(in, 8) : REGION - 0x10 + (k | (uint64_t)byte(in) << 7) % 0x1200u;
	}
}

/* One twin: the machine the plan describes, its profiles started, in one of
 * two static machines (np_machine_init clears it; np_machine_fini after each
 * input frees what it holds). */
static np_machine *twin(np_machine *m, const plan *p)
{
	if (np_machine_init(m, p->version, p->arch) || np_machine_set_cpus(m, p->cpus) ||
	    np_machine_set_groups(m, p->groups) ||
	    np_mem_map(m, HCELL, NP_PAGE_SIZE, NP_PROT_READ | NP_PROT_WRITE, 0, 0) ||
	    np_mem_map(m, BUF, BUF_LEN, NP_PROT_READ | NP_PROT_WRITE, 0, 0)) {
		np_machine_fini(m);
		return NULL;        /* a machine that cannot exist (VR-3, MC-4) */
	}
	m->profile_privilege = true;
	m->knobs.oob = p->oob;
	if (p->inclusive) {
		m->knobs.inclusive_lo = (np_ver)0;
		m->knobs.inclusive_hi = (np_ver)(NP_VERSION_COUNT - 1);
	}
	for (unsigned i = 0; i < p->nprofile; i++) {
		const profile_spec *s = &p->profile[i];
		np_create_profile_args a = {
			.profile_handle = HCELL, .process = s->process, .profile_base = s->base,
			.profile_size = s->size, .bucket_size = s->bucket, .buffer = s->buffer,
			.buffer_size = s->buffer_size, .source = s->source, .affinity = NP_AFFINITY_ALL,
		};
		np_result r = np_nt_create_profile(m, &a);
		if (r.kind != NP_RESULT_STATUS || r.code != NP_STATUS_SUCCESS)
			continue;
		uint64_t h = 0;
		if (!np_mem_read(m, HCELL, &h, p->arch == NP_X64 ? 8 : 4))
			abort();
		np_nt_start_profile(m, h);   /* refused or not, the same on both twins */
	}
	return m;
}

static void differ(const char *what, unsigned long long one, unsigned long long run)
{
	fprintf(stderr, "fuzz_interrupts: %s: one at a time %llu, as a run %llu\n", what, one, run);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static plan p;
	input in = { data, size, 0 };
	decode(&in, &p);
	static np_machine twins[2];
	np_machine *one = twin(&twins[0], &p);
	if (!one)
		return 0;
	np_machine *run = twin(&twins[1], &p);
	if (!run)
		abort();            /* the same plan made one twin and not the other */

	uint64_t singles = 0, total = 0;
	np_result worst = { NP_RESULT_NONE, 0, NULL };
	np_interrupt irq = p.irq;
	for (size_t i = 0; i < p.npc; i++) {
		unsigned c = 0;
		irq.pc = p.pc[i];
		np_result r = np_profile_interrupt(one, &irq, &c);
		singles += c;
		if (r.kind != NP_RESULT_NONE)
			worst = r;
		if (r.kind == NP_RESULT_BUGCHECK || r.kind == NP_RESULT_NOT_APPLICABLE)
			break;
	}
	np_result r = np_profile_interrupts(run, &p.irq, p.pc, p.npc, &total);

	if (r.kind != worst.kind)
		differ("result kind", worst.kind, r.kind);
	if (r.code != worst.code)
		differ("result code", worst.code, r.code);
	if (total != singles)
		differ("counted", singles, total);
	if (run->halted != one->halted)
		differ("halted", one->halted, run->halted);
	if (run->halt_code != one->halt_code)
		differ("bug-check code", one->halt_code, run->halt_code);
	static uint8_t a[BUF_LEN], b[BUF_LEN];
	if (!np_mem_read(one, BUF, a, sizeof a) || !np_mem_read(run, BUF, b, sizeof b))
		abort();
	for (size_t i = 0; i < sizeof a; i++)
		if (a[i] != b[i])
			differ("buffer byte", a[i], b[i]);
	np_machine_fini(one);
	np_machine_fini(run);
	return 0;
}
