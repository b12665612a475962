/* Applies `given` keys to a model machine. The spelling of the keys and
 * values is a stable contract (issue: privilege, tracing, mode, integrity,
 * cpus, hal, pebs, cpuN.pebs, alloc); others are added here and documented
 * in fixtures/README.md. */
#include <stdio.h>
#include <string.h>

#include "vectors/catalog.h"
#include "vectors/given.h"
#include "ntprof/calls.h"
#include "ntprof/names.h"

static const np_knob_info knobs[] = {
	{ "K-HAL-CLAMP", { "clamp", "ignore", "store", NULL } },
	{ "K-QI-ALIGN", { "checked", "none", NULL, NULL } },
	{ "K-QI-WRITE-FAULT", { "success", "exception", NULL, NULL } },
	{ "K-ETW-TIME", { "shared", "separate", NULL, NULL } },
	{ "K-ETW-TIME-PRIV", { "required", "none", NULL, NULL } },
	{ "K-SRCLIST-LEN", { "bad-length", "more-data", NULL, NULL } },
	{ "K-TQI-RETLEN", { "always", "right-length", NULL, NULL } },
	{ "K-SEG-SMALLBUF", { "param7", "invalid-parameter", NULL, NULL } },
	{ "K-PRE-SP4-DIV0", { "fault", "bugcheck", NULL, NULL } },
	{ "K-LOG2-0", { "clamp", "reject", NULL, NULL } },
	{ "K-ZERO-SIZE", { "accept", "one-counter", NULL, NULL } },
	{ "K-ALIGNFIXUP-CREATE", { "not-supported", "accept", NULL, NULL } },
	{ "K-ORDER-PROBE", { "after-source", "before-source", "after-processors", NULL } },
	{ "K-GROUPS", { "merge", "reject", NULL, NULL } },
	{ "K-GLOBAL-PRIV-SCOPE", { "user-base", "always", NULL, NULL } },
	{ "K-RESTRICTED-BOUNDARY", { "last-byte", "end", "base", NULL } },
	{ "K-OB-FAIL", { "insufficient-resources", "quota-exceeded", NULL, NULL } },
	{ "K-HANDLE-WRITE-FAULT", { "success", "exception", NULL, NULL } },
	{ "K-LIMIT", { "active", "maximum", NULL, NULL } },
	{ "K-LOCK-FAIL", { "access-violation", "working-set-quota", "insufficient-resources", NULL } },
	{ "K-ZERO-ON-START", { "no", "yes", NULL, NULL } },
	{ "K-SRC16", { "full", "low16", NULL, NULL } },
	{ "K-OOB-POLICY", { "page", "bugcheck", "corruption", "ignore" } },
	{ "K-PEBS-ON-FREE", { "checked", "unchecked", NULL, NULL } },
	{ "K-PPCA-LENGTH-ORDER", { "mode-first", "length-first", NULL, NULL } },
	{ "K-PPCA-LENGTH-STATUS", { "info-length-mismatch", "invalid-parameter", NULL, NULL } },
	/* these two take a version (range) or never: see apply_version_knob */
	{ "K-FIX-1703", { "1703", "never", NULL, NULL } },
	{ "K-INCLUSIVE-END", { "6.2..1803", "never", NULL, NULL } },
};

const np_knob_info *np_knob_table(unsigned *count)
{
	*count = sizeof knobs / sizeof *knobs;
	return knobs;
}

/* Index of value in a NULL-terminated list, or -1. */
static int choice(const char *value, const char *const *list, unsigned n)
{
	for (unsigned i = 0; i < n && list[i]; i++)
		if (strcmp(value, list[i]) == 0)
			return (int)i;
	return -1;
}

#define CHOICE(v, ...) choice((v), (const char *const[]){ __VA_ARGS__, NULL }, 8)

static void set_knob(np_machine *m, unsigned k, int v)
{
	switch (k) {
	case 0: m->knobs.hal_clamp = (np_knob_hal_clamp)v; break;
	case 1: m->knobs.qi_align = (np_knob_qi_align)v; break;
	case 2: m->knobs.qi_write_fault = (np_knob_qi_write_fault)v; break;
	case 3: m->knobs.etw_time = (np_knob_etw_time)v; break;
	case 4: m->knobs.etw_time_priv = (np_knob_etw_time_priv)v; break;
	case 5: m->knobs.srclist_len = (np_knob_srclist_len)v; break;
	case 6: m->knobs.tqi_retlen = (np_knob_tqi_retlen)v; break;
	case 7: m->knobs.seg_smallbuf = (np_knob_seg_smallbuf)v; break;
	case 8: m->knobs.pre_sp4_div0 = (np_knob_pre_sp4_div0)v; break;
	case 9: m->knobs.log2_0 = (np_knob_log2_0)v; break;
	case 10: m->knobs.zero_size = (np_knob_zero_size)v; break;
	case 11: m->knobs.alignfixup_create = (np_knob_alignfixup_create)v; break;
	case 12: m->knobs.order_probe = (np_knob_order_probe)v; break;
	case 13: m->knobs.groups = (np_knob_groups)v; break;
	case 14: m->knobs.global_priv = (np_knob_global_priv)v; break;
	case 15: m->knobs.restricted = (np_knob_restricted)v; break;
	case 16: m->knobs.ob_fail = (np_knob_ob_fail)v; break;
	case 17: m->knobs.handle_fault = (np_knob_handle_fault)v; break;
	case 18: m->knobs.limit = (np_knob_limit)v; break;
	case 19: m->knobs.lock_fail = (np_knob_lock_fail)v; break;
	case 20: m->knobs.zero_on_start = v == 1; break;
	case 21: m->knobs.src16 = (np_knob_src16)v; break;
	case 22: m->knobs.oob = (np_knob_oob)v; break;
	case 23: m->knobs.pebs_on_free = (np_knob_pebs_on_free)v; break;
	case 24: m->knobs.ppca_length_order = (np_knob_ppca_length_order)v; break;
	default: m->knobs.ppca_length_status = (np_knob_ppca_length_status)v; break;
	}
}

/* K-FIX-1703 takes a version key (the first fixed version) or never;
 * K-INCLUSIVE-END a version range or never. */
static const char *apply_version_knob(np_machine *m, const char *k, const char *v, bool *syntax)
{
	bool never = strcmp(v, "never") == 0;
	if (strcmp(k, "K-FIX-1703") == 0) {
		np_ver ver = NP_VERSION_COUNT;
		if (!never && !np_version_parse(v, &ver))
			return *syntax = true, "K-FIX-1703 takes a version key or never";
		m->knobs.fixed_capacity_from = ver;
		return NULL;
	}
	np_applicability range = { .lo = NP_V6_2, .hi = NP_V1803 };
	if (never) {
		range.lo = NP_VERSION_COUNT - 1;
		range.hi = 0;
	} else if (np_parse_range(v, &range)) {
		return *syntax = true, "K-INCLUSIVE-END takes a version range (6.2..1803) or never";
	}
	m->knobs.inclusive_lo = range.lo;
	m->knobs.inclusive_hi = range.hi;
	return NULL;
}

/* hal.SOURCE.FIELD=VALUE: overrides one row of the simulated HAL (HL-2). */
static const char *apply_hal_row(np_machine *m, const char *key, const char *value, bool *syntax)
{
	char source_text[NP_NAME_MAX];
	const char *dot = strchr(key + 4, '.');
	if (!dot || (size_t)(dot - (key + 4)) >= sizeof source_text)
		return *syntax = true, "expected hal.SOURCE.FIELD=VALUE";
	memcpy(source_text, key + 4, (size_t)(dot - (key + 4)));
	source_text[dot - (key + 4)] = '\0';
	uint32_t source;
	if (!np_source_parse(source_text, &source) || source >= NP_HAL_SOURCES)
		return *syntax = true, "hal.SOURCE needs a source name or a number below 0x100";
	np_hal_source *row = &m->hal.source[source];
	const char *field = dot + 1;
	if (strcmp(field, "supported") == 0) {
		int on = CHOICE(value, "off", "on");
		if (on < 0)
			return *syntax = true, "hal.SOURCE.supported takes on or off";
		row->supported = on == 1;
		return NULL;
	}
	uint64_t n;
	if (!np_number_parse(value, &n) || n > 0xFFFFFFFFu)
		return *syntax = true, "hal.SOURCE.min/max/default take a 32-bit number";
	if (strcmp(field, "min") == 0) {
		row->min = (uint32_t)n;
	} else if (strcmp(field, "max") == 0) {
		row->max = (uint32_t)n;
	} else if (strcmp(field, "default") == 0) {
		row->def = (uint32_t)n;
		for (unsigned c = 0; c < NP_MAX_CPUS; c++)
			row->interval[c] = (uint32_t)n;
	} else {
		return *syntax = true, "hal.SOURCE.FIELD: FIELD is supported, min, max or default";
	}
	return NULL;
}

/* SY-16: one processor property; cpu is NULL for "every processor". */
static const char *apply_cpu_field(np_machine *m, np_cpu *one, const char *field, const char *value,
				   bool *syntax)
{
	np_cpu *first = one ? one : &m->cpu[0];
	np_cpu *last = one ? one : &m->cpu[NP_MAX_CPUS - 1];
	uint64_t n = 0;
	int c = -1;
	if (strcmp(field, "pebs") == 0) {
		if ((c = CHOICE(value, "off", "on")) < 0)
			return *syntax = true, "pebs takes on or off";
	} else if (strcmp(field, "vendor") == 0) {
		if ((c = CHOICE(value, "intel", "amd", "other")) < 0)
			return *syntax = true, "vendor takes intel, amd or other";
	} else if (strcmp(field, "misc_enable") == 0) {
		if (!np_number_parse(value, &n))
			return *syntax = true, "misc_enable takes a 64-bit number (IA32_MISC_ENABLE)";
	} else if (strcmp(field, "cpuid1_ecx") == 0) {
		if (!np_number_parse(value, &n) || n > 0xFFFFFFFFu)
			return *syntax = true, "cpuid1_ecx takes a 32-bit number (CPUID leaf 1, ECX)";
	} else {
		return *syntax = true, "a processor property is pebs, vendor, misc_enable or cpuid1_ecx";
	}
	for (np_cpu *p = first; p <= last; p++) {
		switch (field[0]) {
		case 'p': np_cpu_set_pebs(p, c == 1); break;
		case 'v': p->vendor = (np_vendor)c; break;
		case 'm': p->misc_enable = n; break;
		default:  p->cpuid1_ecx = (uint32_t)n; break;
		}
	}
	return NULL;
}

/* cpuN.FIELD=VALUE: one processor's property (SY-16). */
static const char *apply_one_cpu(np_machine *m, const char *key, const char *value, bool *syntax)
{
	const char *dot = strchr(key, '.');
	char digits[8];
	size_t n = (size_t)(dot - (key + 3));
	uint64_t cpu;
	if (n == 0 || n >= sizeof digits)
		return *syntax = true, "expected cpuN.FIELD=VALUE with N from 0 to 63";
	memcpy(digits, key + 3, n);
	digits[n] = '\0';
	if (!np_number_parse(digits, &cpu) || cpu >= NP_MAX_CPUS)
		return *syntax = true, "expected cpuN.FIELD=VALUE with N from 0 to 63";
	const char *e = apply_cpu_field(m, &m->cpu[cpu], dot + 1, value, syntax);
	if (!e && cpu >= m->cpus)
		return "cpuN names an inactive processor (N < cpus)";
	return e;
}

static const char *apply_number(const char *value, uint64_t max, uint64_t *out, bool *syntax,
				const char *what)
{
	if (!np_number_parse(value, out) || *out > max)
		return *syntax = true, what;
	return NULL;
}

/* Applies one pair. *syntax tells a malformed pair from a state the machine cannot take. */
static const char *apply(np_machine *m, const np_pair *p, bool *syntax)
{
	const char *k = p->name, *v = p->value;
	uint64_t n;
	int c;
	*syntax = false;
	if (strcmp(k, "privilege") == 0) {
		if ((c = CHOICE(v, "off", "on")) < 0)
			return *syntax = true, "privilege takes on or off";
		m->profile_privilege = c == 1;
	} else if (strcmp(k, "tracing") == 0) {
		if ((c = CHOICE(v, "off", "on", "late")) < 0)
			return *syntax = true, "tracing takes on, off or late";
		m->tracing = (np_tracing)c;
	} else if (strcmp(k, "mode") == 0) {
		if ((c = CHOICE(v, "user", "kernel")) < 0)
			return *syntax = true, "mode takes user or kernel";
		m->previous_mode = (np_mode)c;
	} else if (strcmp(k, "integrity") == 0) {
		if ((c = CHOICE(v, "low", "medium", "high")) < 0)
			return *syntax = true, "integrity takes low, medium or high";
		m->integrity = (np_integrity)c;
	} else if (strcmp(k, "cpus") == 0) {
		const char *e = apply_number(v, NP_MAX_CPUS, &n, syntax, "cpus takes a number from 1 to 64");
		if (e || n == 0)
			return *syntax = true, "cpus takes a number from 1 to 64";
		return np_machine_set_cpus(m, (unsigned)n);
	} else if (strcmp(k, "cpu") == 0) {
		const char *e = apply_number(v, NP_MAX_CPUS - 1, &n, syntax, "cpu takes a number from 0 to 63");
		if (e)
			return e;
		if (n >= m->cpus)
			return "the caller's processor must be active (cpu < cpus)";
		m->current_cpu = (unsigned)n;
	} else if (strcmp(k, "hal") == 0) {
		np_hal_kind kind;
		if (!np_hal_kind_parse(v, &kind))
			return *syntax = true, "hal takes default, emon or amd64";
		return np_machine_set_hal(m, kind);
	} else if (strcmp(k, "errata") == 0) {
		const char *e = apply_number(v, 0xFFFFFFFFu, &n, syntax,
					     "errata takes a 32-bit interval (0 = none)");
		if (e)
			return e;
		m->errata_interval = (uint32_t)n;
	} else if (strcmp(k, "groups") == 0) {
		const char *e = apply_number(v, NP_MAX_GROUPS, &n, syntax, "groups takes a number from 1 to 4");
		if (e || n == 0)
			return *syntax = true, "groups takes a number from 1 to 4";
		return np_machine_set_groups(m, (unsigned)n);
	} else if (strcmp(k, "group") == 0) {
		const char *e = apply_number(v, NP_MAX_GROUPS - 1, &n, syntax, "group takes a number from 0 to 3");
		if (e)
			return e;
		if (n >= m->groups)
			return "the caller's group must be active (group < groups)";
		m->current_group = (unsigned)n;
	} else if (strcmp(k, "started-elsewhere") == 0) {
		const char *e = apply_number(v, 0xFFFFFFFFu, &n, syntax,
					     "started-elsewhere takes a number of profiles");
		if (e)
			return e;
		m->started_elsewhere = (unsigned)n;
	} else if (strcmp(k, "alloc") == 0) {
		if ((c = CHOICE(v, "ok", "fail")) < 0)
			return *syntax = true, "alloc takes fail or ok";
		m->alloc_failures = (unsigned)c;
	} else if (strncmp(k, "hal.", 4) == 0) {
		return apply_hal_row(m, k, v, syntax);
	} else if (strcmp(k, "K-FIX-1703") == 0 || strcmp(k, "K-INCLUSIVE-END") == 0) {
		return apply_version_knob(m, k, v, syntax);
	} else if (strcmp(k, "pebs") == 0 || strcmp(k, "vendor") == 0 || strcmp(k, "misc_enable") == 0 ||
		   strcmp(k, "cpuid1_ecx") == 0) {
		return apply_cpu_field(m, NULL, k, v, syntax);
	} else if (strncmp(k, "cpu", 3) == 0 && strchr(k, '.')) {
		return apply_one_cpu(m, k, v, syntax);
	} else if (strncmp(k, "K-", 2) == 0) {
		for (unsigned i = 0; i < sizeof knobs / sizeof *knobs; i++) {
			if (strcmp(k, knobs[i].name) != 0)
				continue;
			if ((c = choice(v, knobs[i].values, 4)) < 0)
				return *syntax = true, "not a value of that knob (see SPEC.md, Knobs)";
			set_knob(m, i, c);
			return NULL;
		}
		return *syntax = true, "unknown knob (see SPEC.md, Knobs)";
	} else {
		return *syntax = true, "unknown given key";
	}
	return NULL;
}

const char *np_given_check(const np_pair *p)
{
	np_machine scratch;
	bool syntax;
	np_machine_init(&scratch, NP_V11_24H2, NP_X64);
	scratch.cpus = NP_MAX_CPUS;   /* so that cpu=N and group=N are judged on spelling only */
	scratch.groups = NP_MAX_GROUPS;
	const char *e = apply(&scratch, p, &syntax);
	np_machine_fini(&scratch);
	return syntax ? e : NULL;
}

/* The keys applied before all others, in this order: hal= resets the HAL
 * table, and cpus= decides which processors cpu= and cpuN.* may name. */
static const char *const early[] = { "hal", "cpus" };

static bool is_early(const char *name)
{
	return strcmp(name, early[0]) == 0 || strcmp(name, early[1]) == 0;
}

const char *np_given_apply_all(np_machine *m, const np_pair *given, unsigned n)
{
	bool syntax;
	for (unsigned k = 0; k < 2; k++) {
		for (unsigned i = 0; i < n; i++) {
			if (strcmp(given[i].name, early[k]) != 0)
				continue;
			const char *e = apply(m, &given[i], &syntax);
			if (e)
				return e;
		}
	}
	for (unsigned i = 0; i < n; i++) {
		if (is_early(given[i].name))
			continue;
		const char *e = apply(m, &given[i], &syntax);
		if (e)
			return e;
	}
	return NULL;
}
