/* SPDX-License-Identifier: MIT */
/* Configures a machine with `given` keys (ntprof/configure.h). The spelling
 * of the keys and values is a stable contract (privilege, tracing, mode,
 * integrity, cpus, hal, pebs, cpuN.pebs, alloc); others are added here and
 * documented in fixtures/README.md.
 *
 * A setting is read first (read_setting: its spelling, no machine needed),
 * then applied (apply_setting: what the machine can take). */
#include <string.h>

#include "internal.h"
#include "ntprof/configure.h"
#include "ntprof/names.h"
#include "ntprof/number.h"

/* ---- The knobs, from ntprof/knobs.h ---- */

#define NP_KNOB_VALUE(enumerator, spelling) spelling,
#define NP_KNOB(name, field, rule, def, values) { name, rule, { values }, def },
#define NP_VERSION_KNOB(name, field, rule, def, spelling) { name, rule, { spelling, "never" }, 0 },
#define NP_RANGE_KNOB(name, field, rule, low, high, spelling) { name, rule, { spelling, "never" }, 0 },
static const np_knob_info knobs[] = {
#include "ntprof/knobs.h"
};
#define KNOB_COUNT (sizeof knobs / sizeof *knobs)

enum knob_id {
#define NP_KNOB_VALUE(enumerator, spelling)
#define NP_KNOB(name, field, rule, def, values) KNOB_##field,
#define NP_VERSION_KNOB(name, field, rule, def, spelling) KNOB_##field,
#define NP_RANGE_KNOB(name, field, rule, low, high, spelling) KNOB_##field,
#include "ntprof/knobs.h"
};

/* How each knob's value is read, and what a value it cannot read gets. */
typedef enum knob_kind { KNOB_WORDS, KNOB_VERSION, KNOB_RANGE } knob_kind;
static const struct knob_reading {
	knob_kind kind;
	const char *malformed;
} knob_reading[] = {
#define NP_KNOB_VALUE(enumerator, spelling)
#define NP_KNOB(name, field, rule, def, values) { KNOB_WORDS, "not a value of that knob (see SPEC.md, Knobs)" },
#define NP_VERSION_KNOB(name, field, rule, def, spelling) { KNOB_VERSION, name " takes a version key or never" },
#define NP_RANGE_KNOB(name, field, rule, low, high, spelling) \
	{ KNOB_RANGE, name " takes a version range (" spelling ") or never" },
#include "ntprof/knobs.h"
};

const np_knob_info *np_knob_table(unsigned *count)
{
	*count = KNOB_COUNT;
	return knobs;
}

int np_knob_value(const np_machine *m, unsigned k)
{
	const np_knobs *now = &m->knobs;
	switch ((enum knob_id)k) {
#define NP_KNOB_VALUE(enumerator, spelling)
#define NP_KNOB(name, field, rule, def, values) case KNOB_##field: return (int)now->field;
#define NP_VERSION_KNOB(name, field, rule, def, spelling) \
	case KNOB_##field: return now->field == def ? 0 : now->field == NP_VERSION_COUNT ? 1 : -1;
#define NP_RANGE_KNOB(name, field, rule, low, high, spelling) \
	case KNOB_##field: return now->field##_lo == low && now->field##_hi == high ? 0 \
			   : now->field##_lo > now->field##_hi ? 1 : -1;
#include "ntprof/knobs.h"
	}
	return -1;   /* no such knob */
}

/* ---- Reading a setting ---- */

typedef enum setting_kind {
	SET_PRIVILEGE, SET_TRACING, SET_MODE, SET_INTEGRITY, SET_ALLOC,
	SET_CPUS, SET_CPU, SET_ERRATA, SET_GROUPS, SET_GROUP, SET_STARTED_ELSEWHERE, SET_SANDBOXED,
	SET_HAL, SET_HAL_ROW, SET_PROCESSOR, SET_KNOB
} setting_kind;

enum hal_field { HAL_SUPPORTED, HAL_MIN, HAL_MAX, HAL_DEFAULT };
enum processor_property { PROP_PEBS, PROP_VENDOR, PROP_MISC_ENABLE, PROP_CPUID1_ECX };

/* A setting as read, before any machine sees it. */
typedef struct setting {
	setting_kind kind;
	uint64_t n;        /* the value: a word's index, a number, a HAL kind */
	unsigned which;    /* the source of a HAL row; the processor of a property
			    * (NP_MAX_CPUS: every one); the knob */
	unsigned field;    /* enum hal_field, enum processor_property */
	np_ver lo, hi;     /* a version knob's version (lo) or range */
} setting;

/* How a value is spelled: one of words (the value is its index) or, when
 * there are none, a number from min to max. */
typedef struct value_rule {
	const char *words[3];
	uint64_t min, max;
	const char *malformed;
} value_rule;

static bool read_value(const value_rule *r, const char *text, uint64_t *n)
{
	if (!r->words[0])
		return np_number_parse(text, n) && *n >= r->min && *n <= r->max;
	for (unsigned i = 0; i < 3 && r->words[i]; i++) {
		if (strcmp(text, r->words[i]) == 0) {
			*n = i;
			return true;
		}
	}
	return false;
}

/* The keys of the machine's own state. The words are in the order of the
 * enumeration they set (np_tracing, np_mode, np_integrity). */
static const struct machine_key {
	const char *key;
	setting_kind kind;
	value_rule value;
} machine_keys[] = {
	{ "privilege", SET_PRIVILEGE, { { "off", "on" }, 0, 0, "privilege takes on or off" } },
	{ "tracing", SET_TRACING, { { "off", "on", "late" }, 0, 0, "tracing takes on, off or late" } },
	{ "mode", SET_MODE, { { "user", "kernel" }, 0, 0, "mode takes user or kernel" } },
	{ "integrity", SET_INTEGRITY, { { "low", "medium", "high" }, 0, 0,
					"integrity takes low, medium or high" } },
	{ "cpus", SET_CPUS, { { NULL }, 1, NP_MAX_CPUS, "cpus takes a number from 1 to 64" } },
	{ "cpu", SET_CPU, { { NULL }, 0, NP_MAX_CPUS - 1, "cpu takes a number from 0 to 63" } },
	/* A knob of SPEC.md, spelled as one, but a number rather than a word:
	 * the machine keeps it beside its other numbers. */
	{ "K-ERRATA", SET_ERRATA, { { NULL }, 0, 0xFFFFFFFFu, "K-ERRATA takes a 32-bit interval (0 = none)" } },
	{ "groups", SET_GROUPS, { { NULL }, 1, NP_MAX_GROUPS, "groups takes a number from 1 to 20" } },
	{ "group", SET_GROUP, { { NULL }, 0, NP_MAX_GROUPS - 1, "group takes a number from 0 to 19" } },
	{ "started-elsewhere", SET_STARTED_ELSEWHERE, { { NULL }, 0, 0xFFFFFFFFu,
							"started-elsewhere takes a number of profiles" } },
	{ "alloc", SET_ALLOC, { { "ok", "fail" }, 0, 0, "alloc takes fail or ok" } },
	{ "sandboxed", SET_SANDBOXED, { { "off", "on" }, 0, 0, "sandboxed takes on or off" } },
};

/* SY-16: the properties of a processor, in enum processor_property order;
 * vendor's words in np_vendor order. */
static const struct processor_property_rule {
	const char *name;
	value_rule value;
} properties[] = {
	{ "pebs", { { "off", "on" }, 0, 0, "pebs takes on or off" } },
	{ "vendor", { { "intel", "amd", "other" }, 0, 0, "vendor takes intel, amd or other" } },
	{ "misc_enable", { { NULL }, 0, UINT64_MAX, "misc_enable takes a 64-bit number (IA32_MISC_ENABLE)" } },
	{ "cpuid1_ecx", { { NULL }, 0, 0xFFFFFFFFu, "cpuid1_ecx takes a 32-bit number (CPUID leaf 1, ECX)" } },
};
#define PROPERTY_COUNT (sizeof properties / sizeof *properties)

/* The longest SOURCE of hal.SOURCE.FIELD, and the most digits of the N of
 * cpuN.FIELD, that a key may have (longer ones are malformed). */
#define SOURCE_TEXT_MAX 48
#define CPU_DIGITS_MAX  8

/* hal.SOURCE.FIELD=VALUE: one row of the simulated HAL (HL-2). The value is
 * read before the field is known, so a bad number wins over a bad field. */
static const char *read_hal_row(const char *key, const char *value, setting *s)
{
	static const value_rule on_off = { { "off", "on" }, 0, 0, "hal.SOURCE.supported takes on or off" };
	static const char *const number_fields[] = { "min", "max", "default" };
	char source_text[SOURCE_TEXT_MAX];
	const char *name = key + 4, *dot = strchr(name, '.');
	if (!dot || (size_t)(dot - name) >= sizeof source_text)
		return "expected hal.SOURCE.FIELD=VALUE";
	memcpy(source_text, name, (size_t)(dot - name));
	source_text[dot - name] = '\0';
	uint32_t source;
	if (!np_source_parse(source_text, &source) || source >= NP_HAL_SOURCES)
		return "hal.SOURCE needs a source name or a number below 0x100";
	s->kind = SET_HAL_ROW;
	s->which = source;
	if (strcmp(dot + 1, "supported") == 0) {
		s->field = HAL_SUPPORTED;
		return read_value(&on_off, value, &s->n) ? NULL : on_off.malformed;
	}
	if (!np_number_parse(value, &s->n) || s->n > 0xFFFFFFFFu)
		return "hal.SOURCE.min/max/default take a 32-bit number";
	for (unsigned f = 0; f < 3; f++) {
		if (strcmp(dot + 1, number_fields[f]) == 0) {
			s->field = HAL_MIN + f;
			return NULL;
		}
	}
	return "hal.SOURCE.FIELD: FIELD is supported, min, max or default";
}

/* SY-16: one processor property (s->which says of which processors). */
static const char *read_property(const char *field, const char *value, setting *s)
{
	for (unsigned p = 0; p < PROPERTY_COUNT; p++) {
		if (strcmp(field, properties[p].name) != 0)
			continue;
		s->kind = SET_PROCESSOR;
		s->field = p;
		return read_value(&properties[p].value, value, &s->n) ? NULL : properties[p].value.malformed;
	}
	return "a processor property is pebs, vendor, misc_enable or cpuid1_ecx";
}

/* cpuN.FIELD=VALUE: one processor's property (SY-16). */
static const char *read_one_processor(const char *key, const char *value, setting *s)
{
	const char *digits = key + 3, *dot = strchr(digits, '.');
	size_t n = (size_t)(dot - digits);
	uint64_t cpu;
	if (n == 0 || n >= CPU_DIGITS_MAX || !np_number_parse_len(digits, n, &cpu) || cpu >= NP_MAX_CPUS)
		return "expected cpuN.FIELD=VALUE with N from 0 to 63";
	s->which = (unsigned)cpu;
	return read_property(dot + 1, value, s);
}

/* A knob's value: one of its words; a version key or never (K-FIX-1703);
 * a version range or never (K-INCLUSIVE-END, never being lo > hi). */
static bool read_knob_value(unsigned k, const char *value, setting *s)
{
	bool never = strcmp(value, "never") == 0;
	np_applicability range;
	switch (knob_reading[k].kind) {
	case KNOB_VERSION:
		s->lo = NP_VERSION_COUNT;
		return never || np_version_parse(value, &s->lo);
	case KNOB_RANGE:
		range.lo = NP_VERSION_COUNT - 1;
		range.hi = 0;
		if (!never && np_parse_range(value, &range))
			return false;
		s->lo = range.lo;
		s->hi = range.hi;
		return true;
	case KNOB_WORDS:
		break;
	}
	for (unsigned v = 0; v < NP_KNOB_MAX_VALUES && knobs[k].values[v]; v++) {
		if (strcmp(value, knobs[k].values[v]) == 0) {
			s->n = v;
			return true;
		}
	}
	return false;
}

static const char *read_knob(const char *key, const char *value, setting *s)
{
	for (unsigned k = 0; k < KNOB_COUNT; k++) {
		if (strcmp(key, knobs[k].name) != 0)
			continue;
		s->kind = SET_KNOB;
		s->which = k;
		return read_knob_value(k, value, s) ? NULL : knob_reading[k].malformed;
	}
	return "unknown knob (see SPEC.md, Knobs)";
}

/* NULL, or why key=value is malformed. */
static const char *read_setting(const char *key, const char *value, setting *s)
{
	memset(s, 0, sizeof *s);
	for (size_t i = 0; i < sizeof machine_keys / sizeof *machine_keys; i++) {
		if (strcmp(key, machine_keys[i].key) == 0) {
			s->kind = machine_keys[i].kind;
			return read_value(&machine_keys[i].value, value, &s->n) ? NULL : machine_keys[i].value.malformed;
		}
	}
	if (strcmp(key, "hal") == 0) {
		np_hal_kind kind;
		if (!np_hal_kind_parse(value, &kind))
			return "hal takes default, emon or amd64";
		s->kind = SET_HAL;
		s->n = kind;
		return NULL;
	}
	if (strncmp(key, "hal.", 4) == 0)
		return read_hal_row(key, value, s);
	if (strncmp(key, "K-", 2) == 0)
		return read_knob(key, value, s);
	for (unsigned p = 0; p < PROPERTY_COUNT; p++) {
		if (strcmp(key, properties[p].name) == 0) {
			s->which = NP_MAX_CPUS;
			return read_property(key, value, s);
		}
	}
	if (strncmp(key, "cpu", 3) == 0 && strchr(key, '.'))
		return read_one_processor(key, value, s);
	return "unknown given key";
}

/* ---- Applying a setting ---- */

/* HL-2: overrides one row of the simulated HAL. */
static void apply_hal_row(np_machine *m, const setting *s)
{
	np_hal_source *row = &m->hal.source[s->which];
	uint32_t n = (uint32_t)s->n;
	switch ((enum hal_field)s->field) {
	case HAL_SUPPORTED: row->supported = s->n == 1; break;
	case HAL_MIN: row->min = n; break;
	case HAL_MAX: row->max = n; break;
	case HAL_DEFAULT:
		row->def = n;
		row->interval = n;   /* on every processor (SI-4) */
		row->apart = 0;
		break;
	}
}

/* SY-16: one processor's property, or every processor's. */
static np_config_error apply_property(np_machine *m, const setting *s)
{
	unsigned first = 0, last = NP_MAX_CPUS - 1;
	if (s->which != NP_MAX_CPUS) {
		if (s->which >= m->cpus)
			return "cpuN names an inactive processor (N < cpus)";
		first = last = s->which;
	}
	for (unsigned c = first; c <= last; c++) {
		np_cpu *p = &m->cpu[c];
		switch ((enum processor_property)s->field) {
		case PROP_PEBS: np_cpu_set_pebs(p, s->n == 1); break;
		case PROP_VENDOR: p->vendor = (np_vendor)s->n; break;
		case PROP_MISC_ENABLE: p->misc_enable = s->n; break;
		case PROP_CPUID1_ECX: p->cpuid1_ecx = (uint32_t)s->n; break;
		}
	}
	return NULL;
}

static void apply_knob(np_knobs *k, const setting *s)
{
	switch ((enum knob_id)s->which) {
#define NP_KNOB_VALUE(enumerator, spelling)
#define NP_KNOB(name, field, rule, def, values) case KNOB_##field: k->field = (np_knob_##field)s->n; break;
#define NP_VERSION_KNOB(name, field, rule, def, spelling) case KNOB_##field: k->field = s->lo; break;
#define NP_RANGE_KNOB(name, field, rule, low, high, spelling) \
	case KNOB_##field: k->field##_lo = s->lo; k->field##_hi = s->hi; break;
#include "ntprof/knobs.h"
	}
}

/* NULL, or why m cannot take the setting (m unchanged then). */
static np_config_error apply_setting(np_machine *m, const setting *s)
{
	switch (s->kind) {
	case SET_PRIVILEGE: m->profile_privilege = s->n == 1; break;
	case SET_TRACING: m->tracing = (np_tracing)s->n; break;
	case SET_MODE: m->previous_mode = (np_mode)s->n; break;
	case SET_INTEGRITY: m->integrity = (np_integrity)s->n; break;
	case SET_ALLOC: m->alloc_failures = (unsigned)s->n; break;
	case SET_CPUS: return np_machine_set_cpus(m, (unsigned)s->n);
	case SET_CPU:
		if (s->n >= m->cpus)
			return "the caller's processor must be active (cpu < cpus)";
		m->current_cpu = (unsigned)s->n;
		break;
	case SET_ERRATA: m->errata_interval = (uint32_t)s->n; break;
	case SET_GROUPS: return np_machine_set_groups(m, (unsigned)s->n);
	case SET_GROUP:
		if (s->n >= m->groups)
			return "the caller's group must be active (group < groups)";
		m->current_group = (unsigned)s->n;
		break;
	case SET_STARTED_ELSEWHERE: m->started_elsewhere = (unsigned)s->n; break;
	case SET_SANDBOXED: m->sandboxed = s->n == 1; break;
	case SET_HAL: return np_machine_set_hal(m, (np_hal_kind)s->n);
	case SET_HAL_ROW: apply_hal_row(m, s); break;
	case SET_PROCESSOR: return apply_property(m, s);
	case SET_KNOB: apply_knob(&m->knobs, s); break;
	}
	return NULL;
}

/* ---- The API ---- */

/* HL-2: a HAL reports its limits as a range, minimum first; a supported row
 * with min > max is a state no machine can be in. (An unsupported row's
 * limits are never consulted or reported.) */
static const char hal_limits_impossible[] =
	"a supported HAL row has min above max, which no HAL reports (HL-2)";

/* Indexed from the machine, not through a pointer to its np_hal (whose
 * table is its last member, which the compiler does not bound): a bound one
 * too far is then an out-of-bounds index that UBSan reports (make mutants). */
static bool hal_row_possible(const np_machine *m, unsigned s)
{
	return !m->hal.source[s].supported || m->hal.source[s].min <= m->hal.source[s].max;
}

np_config_error np_config_check(const char *key, const char *value)
{
	setting s;
	return read_setting(key, value, &s);
}

np_config_error np_machine_configure(np_machine *m, const char *key, const char *value, bool *malformed)
{
	setting s;
	np_config_error e = read_setting(key, value, &s);
	if (malformed)
		*malformed = e != NULL;
	if (e)
		return e;
	if (s.kind != SET_HAL_ROW)
		return apply_setting(m, &s);
	np_hal_source before = m->hal.source[s.which];
	apply_hal_row(m, &s);
	if (hal_row_possible(m, s.which))
		return NULL;
	m->hal.source[s.which] = before;
	return hal_limits_impossible;
}

/* One setting of np_machine_configure_all: the HAL rows are judged once all
 * are applied, so that the order of a row's min= and max= does not matter. */
static np_config_error configure_unchecked(np_machine *m, const np_setting *setting_text, bool *hal_row)
{
	setting s;
	np_config_error e = read_setting(setting_text->key, setting_text->value, &s);
	*hal_row = *hal_row || s.kind == SET_HAL_ROW;
	return e ? e : apply_setting(m, &s);
}

/* The keys applied before all others, in this order: hal= resets the HAL
 * table, and cpus= decides which processors cpu= and cpuN.* may name. */
static const char *const early[] = { "hal", "cpus" };
#define EARLY_COUNT (sizeof early / sizeof *early)

static bool is_early(const char *key)
{
	for (unsigned k = 0; k < EARLY_COUNT; k++)
		if (strcmp(key, early[k]) == 0)
			return true;
	return false;
}

np_config_error np_machine_configure_all(np_machine *m, const np_setting *settings, unsigned n)
{
	np_config_error e;
	bool hal_row = false;   /* every HAL of HL-1 is possible: only a row set can make it not */
	for (unsigned k = 0; k < EARLY_COUNT; k++)
		for (unsigned i = 0; i < n; i++)
			if (strcmp(settings[i].key, early[k]) == 0 &&
			    (e = configure_unchecked(m, &settings[i], &hal_row)))
				return e;
	for (unsigned i = 0; i < n; i++)
		if (!is_early(settings[i].key) && (e = configure_unchecked(m, &settings[i], &hal_row)))
			return e;
	for (unsigned s = 0; hal_row && s < NP_HAL_SOURCES; s++)
		if (!hal_row_possible(m, s))
			return hal_limits_impossible;
	return NULL;
}

/* The given key nearest a mistyped one, for "did you mean": the machine's
 * own keys, hal, the properties and the knobs (hal.SOURCE.FIELD and
 * cpuN.FIELD are patterns, suggested by their words alone). */
const char *np_config_nearest(const char *key)
{
	np_nearest n;
	np_nearest_start(&n, key);
	for (size_t i = 0; i < sizeof machine_keys / sizeof *machine_keys; i++)
		np_nearest_offer(&n, machine_keys[i].key);
	np_nearest_offer(&n, "hal");
	for (unsigned p = 0; p < PROPERTY_COUNT; p++)
		np_nearest_offer(&n, properties[p].name);
	for (unsigned k = 0; k < KNOB_COUNT; k++)
		np_nearest_offer(&n, knobs[k].name);
	return np_nearest_found(&n);
}
