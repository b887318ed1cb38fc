# envpreflight - plain make, pkg-config for the four libraries (zlib: yarn's install state).
#
#   make            build ./envpreflight (says what to install when the
#                   libraries are missing)
#   make run        install what building needs, build, audit examples/webapp
#   make check      install what testing needs (Debian packages, and the
#                   test clients from npm), build, run every test
#   make golden     the golden cases; UPDATE=1 rewrites their expectations
#   make asan       the tests under AddressSanitizer + UBSan, clang's (make asan-build:
#                   the build alone, for make check TWIN=, see check below)
#   make tsan       the threaded tests under ThreadSanitizer (clang)
#   make lint       cppcheck and clang-tidy over src/ (.clang-tidy, .cppcheck),
#                   the static analyzer in its shallow mode (make lint-deep:
#                   deep, four times slower; tests/lint.sh)
#   make fuzz       every libFuzzer target for FUZZ_SECONDS each (clang)
#   make fuzz-smoke the same for FUZZ_SMOKE_SECONDS each (what .ci/run does)
#   make install    PREFIX=/usr/local DESTDIR= (binary, man page, completions,
#                   the JSON Schema)
#   make deb        envpreflight_VERSION_ARCH.deb (src/debian/build.sh)
#   make check-deb  the package built, installed into a throw-away root, run,
#                   and lintian (tests/deb.sh)
#
# CPPFLAGS, CFLAGS and LDFLAGS are honoured; objects depend on the headers
# they include (-MMD -MP).

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR  ?= $(DATADIR)/man
# where each shell looks for completions below a prefix; Debian's zsh does
# not search /usr/share/zsh/site-functions, so make deb installs into
# vendor-completions instead
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR  ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
SCHEMADIR   ?= $(DATADIR)/envpreflight
# the version, said once: include/version.h
VERSION := $(shell sed -n 's/^\#define EP_VERSION "\(.*\)"$$/\1/p' include/version.h)
CC      ?= cc
PKGS    := libcjson inih yaml-0.1 zlib
BUILD   ?= build

# Debian packages: to build, to run the tests, and for the clang-based
# checks (asan, tsan, lint, fuzz).  clang 14 finds libFuzzer and the sanitizer
# runtimes in libclang-rt-14-dev, which bookworm's clang only recommends;
# llvm gives llvm-symbolizer for readable sanitizer stacks; bubblewrap is
# a real sandbox for the sandbox probe's tests.  make run
# installs DEPS_BUILD only; the test toolchain comes with make check.
DEPS_BUILD := gcc libc6-dev pkg-config libcjson-dev libinih-dev libyaml-dev zlib1g-dev
DEPS_TEST  := libxml2-utils iproute2 lsof valgrind man-db git nodejs python3 python3-venv util-linux \
              python3-jsonschema python3-yaml python3-poetry-core python3-poetry ruby rbenv perl bash-completion zsh fish \
              bubblewrap
# make deb (dpkg-shlibdeps, dpkg-buildflags; dpkg-deb is dpkg's) and make
# check-deb (lintian); no fakeroot: dpkg-deb --root-owner-group
DEPS_PKG   := dpkg-dev lintian
DEPS_ASAN  := clang libclang-rt-14-dev llvm
DEPS_CLANG := $(DEPS_ASAN) cppcheck clang-tidy

WARN    := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wstrict-prototypes \
           -Wmissing-prototypes -Wvla -Wpointer-arith -Wno-unused-parameter
CFLAGS  ?= -O2 -g
# Read when make reads this file: a target that installs the libraries
# first (run, check, asan, ...) builds in a make of its own, started after
# the install, which reads it again (tests/integration/makefile.sh).
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
ALL_CPPFLAGS = -D_GNU_SOURCE -Iinclude $(PKG_CFLAGS) $(CPPFLAGS)
ALL_CFLAGS = -std=c11 $(WARN) $(CFLAGS) $(SAN)
# Each object waits on its .d file (rebuilt if that is lost), so it must
# be the newer of the two: clang writes the .d after the object (gcc
# before), and without the touch every clang build (asan, tsan, fuzz) was
# made again whole by the next make.  The rule's "touch $@" is Paul
# Smith's POSTCOMPILE, "Auto-Dependency Generation" (make.mad-scientist.net).
DEPFLAGS = -MMD -MP
POSTCOMPILE = touch $@
LDLIBS  = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lpthread -lm
# One build (build-asan) is the sanitizers' and the fuzzers': its objects
# carry libFuzzer's edge counters as well (fuzzer-no-link), which the
# binary and the unit programs never read, and an audit by it takes the
# CPU it took without them (107 and 115 ms, perf stat -r 5, within the
# noise); the fuzz targets link against it instead of a third build of
# every object.
ASAN    := -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
           -fno-sanitize-recover=all
# Its programs are linked at a fixed address (not PIE, as the release
# build is): a PIE of it holds 95,000 relocations that ld.so applies at
# every start, and an audit by it with the leak check at exit took 76 ms
# of CPU, 68 without them (perf stat -r 20, interleaved), in a suite that
# starts it thousands of times.  asan-build and fuzz-build make it with
# the same command: other flags would make every object again (.flags).
ASAN_LDFLAGS := -no-pie
# (a rule that runs it says +: make knows a sub-make by a $(MAKE) written in
# the rule itself, and without either the sub-make gets no share of make
# -jN's jobs: "jobserver unavailable: using -j1", and asan-build took
# 126 s of one core)
ASAN_MAKE = $(MAKE) CC=clang BUILD=build-asan SAN="$(ASAN)" CFLAGS="-O1 -g" \
            LDFLAGS="$(strip $(LDFLAGS) $(ASAN_LDFLAGS))"
TSAN    := -fsanitize=thread -fno-omit-frame-pointer

# src/ is one folder a layer (src/README; tests/integration/layers.sh
# holds the rule of which layer may use which, and checks it on the
# objects); a layer's private headers sit beside its code, include/ holds
# what crosses layers.  The unit tests see every layer's headers.
LAYERS  := util parse os model engine probes runtimes cli
SRCS    := $(foreach l,$(LAYERS),$(wildcard src/$(l)/*.c))
SCHEMA  := src/schema/envpreflight-1.schema.json
OBJS    := $(SRCS:src/%.c=$(BUILD)/%.o) $(BUILD)/schema.o
TEST_CPPFLAGS := -Itests/unit $(LAYERS:%=-Isrc/%)
LIBOBJS := $(filter-out $(BUILD)/cli/main.o,$(OBJS))
UNITS   := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,\
             $(filter-out tests/unit/test_main.c,$(wildcard tests/unit/test_*.c)))

# fuzz targets: tests/fuzz/fuzz_NAME.c, listed in tests/fuzz/targets.def
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS  := $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%)
REPLAY     := $(BUILD)/tests/test_fuzz
REPLAY_OBJS := $(FUZZ_NAMES:%=$(BUILD)/fuzz/replay_%.o) $(BUILD)/fuzz/fuzz.o
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 2

# the threaded tests, for make tsan
TSAN_UNITS := test_threads test_probes test_procnet test_compose test_spawnrun \
              test_peek test_runtimes test_docker test_spec

all: envpreflight

# copied then renamed: a binary some process is running is replaced, not
# rewritten in place ("text file busy")
envpreflight: $(BUILD)/envpreflight
	cp $< $@.tmp && mv -f $@.tmp $@

# The compiler and flags a build was made with, kept as git's Makefile
# keeps GIT-CFLAGS: when they change (CC=, SAN=, CFLAGS=; make asan-build
# moved from gcc to clang), every object of that build is made again
# instead of being linked with objects of the other compiler.
BUILD_FLAGS = $(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS)
$(BUILD)/.flags: FORCE | $(BUILD)
	@printf '%s\n' '$(subst ','\'',$(BUILD_FLAGS))' | cmp -s - $@ || \
	  printf '%s\n' '$(subst ','\'',$(BUILD_FLAGS))' >$@
FORCE:

$(BUILD)/envpreflight: $(OBJS) $(BUILD)/.flags
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

$(BUILD)/%.o: src/%.c $(BUILD)/%.d $(BUILD)/.flags | $(BUILD) libs-present
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<
	$(POSTCOMPILE)

# the schema file as a C string: each line quoted, \ and " escaped
$(BUILD)/schema.c: $(SCHEMA) | $(BUILD)
	{ echo '/* generated from $(SCHEMA): do not edit */'; \
	  echo '#include "schema.h"'; echo 'const char schema_text[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $(SCHEMA); \
	  echo ';'; } >$@

$(BUILD)/schema.o: $(BUILD)/schema.c src/cli/schema.h $(BUILD)/.flags
	$(CC) $(ALL_CPPFLAGS) -Isrc/cli $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/test_main.o: tests/unit/test_main.c $(BUILD)/tests/test_main.d $(BUILD)/.flags | $(BUILD)
	$(CC) $(ALL_CPPFLAGS) $(TEST_CPPFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<
	$(POSTCOMPILE)

# the unit programs and the replay link the archive of the objects, not
# every object: the linker takes what the test reaches (a unit of the ASan
# build linked in 0.4 s of CPU instead of 0.7, and is 2 MB instead of 12)
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/tests/%.d $(BUILD)/tests/test_main.o $(BUILD)/libenvpreflight.a
	$(CC) $(ALL_CPPFLAGS) $(TEST_CPPFLAGS) $(ALL_CFLAGS) -Wno-missing-field-initializers \
	  $(DEPFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/tests/test_main.o $(BUILD)/libenvpreflight.a $(LDLIBS)
	$(POSTCOMPILE)

# the fuzz targets in the ordinary build, each under its own name, linked
# into one replay program that tests/run.sh runs like any unit test
$(BUILD)/fuzz/replay_%.o: tests/fuzz/fuzz_%.c $(BUILD)/fuzz/replay_%.d $(BUILD)/.flags
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(TEST_CPPFLAGS) $(ALL_CFLAGS) -DLLVMFuzzerTestOneInput=fuzz_$*_one \
	  $(DEPFLAGS) -c -o $@ $<
	$(POSTCOMPILE)

$(BUILD)/fuzz/fuzz.o: tests/fuzz/fuzz.c $(BUILD)/fuzz/fuzz.d $(BUILD)/.flags
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(TEST_CPPFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<
	$(POSTCOMPILE)

$(REPLAY): tests/fuzz/replay.c $(REPLAY).d $(BUILD)/tests/test_main.o $(REPLAY_OBJS) $(BUILD)/libenvpreflight.a
	$(CC) $(ALL_CPPFLAGS) $(TEST_CPPFLAGS) -Itests/fuzz $(ALL_CFLAGS) $(DEPFLAGS) \
	  $(LDFLAGS) -o $@ $< $(BUILD)/tests/test_main.o $(REPLAY_OBJS) $(BUILD)/libenvpreflight.a $(LDLIBS)
	$(POSTCOMPILE)

# the libFuzzer binaries (BUILD=build-asan, CC=clang, SAN=ASAN), each
# linked against an archive of the objects so that it holds (and libFuzzer
# counts the edges of) only what its parser uses.  The target's object is
# the replay program's (the ASan build's flags carry fuzzer-no-link), its
# entry point named back to libFuzzer's by the linker: made once for
# both, not compiled a second time.
$(BUILD)/libenvpreflight.a: $(LIBOBJS)
	rm -f $@ && $(AR) rcs $@ $(LIBOBJS)

$(BUILD)/fuzz/fuzz_%: $(BUILD)/fuzz/replay_%.o $(BUILD)/fuzz/fuzz.o $(BUILD)/libenvpreflight.a
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -Wl,--defsym=LLVMFuzzerTestOneInput=fuzz_$*_one \
	  $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD):
	mkdir -p $(BUILD)/tests $(BUILD)/fuzz

# Before the first object: the four libraries, or what to run to get them
# (a build without them would stop at the first #include <cJSON.h>).
libs-present:
	@pkg-config --exists $(PKGS) 2>/dev/null || { \
	  echo "envpreflight: cannot build: the libraries are missing (pkg-config $(PKGS))"; \
	  echo "  run 'make deps-build' (it installs: $(DEPS_BUILD)), or 'make run', which does it first"; \
	  exit 1; } >&2

units: $(UNITS) $(REPLAY)

fuzz-bins: $(FUZZ_BINS)

# header dependencies, written by the compiler (-MMD -MP); a missing one
# (an object built before them) is a target without a recipe, which makes
# the object out of date so that its rebuild writes it
DEPFILES := $(OBJS:.o=.d) $(UNITS:=.d) $(BUILD)/tests/test_main.d $(REPLAY).d \
            $(REPLAY_OBJS:.o=.d)
$(DEPFILES):
-include $(wildcard $(DEPFILES))

# apt-get install what is missing of the packages in $(1): as root; as
# another user through sudo where sudo can ask (a terminal) or needs no
# password, after printing the one line it runs; else that line is printed
# and make stops.  A failed install names the packages and stops: nothing
# is built half-way, and the next make tries again.
define install_missing
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	[ -n "$$missing" ] || exit 0; \
	sudo=; if [ "$$(id -u)" != 0 ]; then \
	  if command -v sudo >/dev/null 2>&1 && { [ -t 0 ] || sudo -n true 2>/dev/null; }; then sudo=sudo; \
	  else echo "deps: missing Debian packages; run: sudo apt-get install$$missing" >&2; exit 1; fi; \
	fi; \
	echo "deps: installing:$$missing"; \
	[ -z "$$sudo" ] || echo "deps: running: sudo apt-get install$$missing"; \
	log=$$(mktemp "$${TMPDIR:-/tmp}/envpreflight-apt.XXXXXX") || exit 1; \
	if $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing >"$$log" 2>&1 || \
	   { $$sudo apt-get update -q >>"$$log" 2>&1 && \
	     $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing >>"$$log" 2>&1; }; then \
	  rm -f "$$log"; \
	else \
	  grep -E '^(E|W|Err):' "$$log" | tail -n 5 | sed 's/^/deps:   /' >&2; rm -f "$$log"; \
	  echo "deps: could not install:$$missing (apt-get failed: see above); install them and run make again" >&2; \
	  exit 1; \
	fi
endef

# npm ci of the test client in $(1), pinned by its package-lock.json, into
# $(1)/node_modules, for the test named $(3); $(2) a file the install must
# hold; $(4) more options for npm ci.  A stamp says the install finished
# (npm ci starts by removing node_modules, so a cut one is never taken for
# whole) and holds the cksum of the package-lock.json installed: one
# that differs (a pull that pins another package) is installed again.  Offline, npm's own
# error is shown and the test says it is skipped; nothing else needs it.
define npm_install
	@[ -e $(1)/node_modules/$(2) ] && \
	  [ "$$(cat $(1)/node_modules/.envpreflight-ok 2>/dev/null)" = "$$(cksum <$(1)/package-lock.json)" ] && exit 0; \
	if ! command -v npm >/dev/null 2>&1; then \
	  echo "deps: npm is missing (apt-get install npm): $(3) will be skipped"; exit 0; \
	fi; \
	log=$$(mktemp "$${TMPDIR:-/tmp}/envpreflight-npm.XXXXXX") || exit 1; \
	if npm ci --prefix $(1) $(4) --no-audit --no-fund --loglevel=error >"$$log" 2>&1; then \
	  cksum <$(1)/package-lock.json >$(1)/node_modules/.envpreflight-ok; \
	  echo "deps: installed $(2) into $(1)/node_modules"; \
	else \
	  echo "deps: npm ci in $(1) failed: $(3) will be skipped; npm said:"; \
	  grep -E 'npm (ERR|error)' "$$log" | head -n 4 | sed 's/^/deps:   /'; \
	fi; rm -f "$$log"
endef

# npm itself, for the test clients below, from Debian where node has none
# (nodesource's nodejs brings its own npm)
npm-deps:
	@command -v npm >/dev/null 2>&1 || $(MAKE) -s apt-npm
apt-npm:
	$(call install_missing,npm)

# The official MCP TypeScript SDK, the client of tests/integration/mcp.sh,
# and tap-parser, the TAP 14 parser of tests/integration/tap.sh
MCP_TEST := tests/mcp
TAP_TEST := tests/tap
mcp-deps: npm-deps
	$(call npm_install,$(MCP_TEST),@modelcontextprotocol/sdk,the MCP SDK client test)
tap-deps: npm-deps
	$(call npm_install,$(TAP_TEST),tap-parser,the TAP 14 parser test)
# the package managers the deps tests take as the oracle (tests/managers:
# pnpm 8, 9, 10 and 12, yarn 3 and 4, bun; no install script is run)
MGR_TEST := tests/managers
managers-deps: npm-deps
	$(call npm_install,$(MGR_TEST),bun/bin/bun,the tests against real package managers,--ignore-scripts)

# everything any target needs (a bare machine: make deps, then .ci/run)
deps:
	$(call install_missing,$(DEPS_BUILD) $(DEPS_TEST) $(DEPS_CLANG) $(DEPS_PKG))
	@$(MAKE) -s mcp-deps tap-deps managers-deps

# what make check needs: no clang
deps-check:
	$(call install_missing,$(DEPS_BUILD) $(DEPS_TEST))
	@$(MAKE) -s mcp-deps tap-deps managers-deps

# and make asan: clang with its sanitizer runtimes and symbolizer
deps-asan:
	$(call install_missing,$(DEPS_ASAN))

# what make run needs: a compiler and the four libraries
deps-build:
	$(call install_missing,$(DEPS_BUILD))

# what make deb and make check-deb need
deps-deb:
	$(call install_missing,$(DEPS_BUILD) $(DEPS_PKG))

# the build in a make of its own, after the install (see PKG_CFLAGS)
run: deps-build
	@$(MAKE) -s envpreflight
	@[ -f examples/webapp/.env ] || cp examples/webapp/.env.dev examples/webapp/.env
	./envpreflight examples/webapp; st=$$?; [ $$st -le 1 ]

# TWIN=build-asan/envpreflight (after make asan-build): the twinned
# scripts (read-only audits: the states the real package managers build,
# github.sh's, ...; tests/run.sh) also run that binary on each state; make
# asan TWINNED=1 then leaves them out, so that each state is built and
# each script run once (.ci/run); with SPLIT=1 as well, make check leaves
# to make asan what make asan runs anyway (the unit programs, the golden
# cases, the scripts that write or signal), each then judged once, by the
# ASan build (.ci/run: CI's two cores have no idle time to spare)
check: deps-check
	$(MAKE) envpreflight units
	TEST_TWIN_BIN='$(TWIN)' TEST_SPLIT='$(SPLIT)' tests/run.sh ./envpreflight $(BUILD)

# The golden cases (tests/cases/*/, see tests/cases/README) against the
# binary, as make check runs them; UPDATE=1 rewrites their expected output,
# status and stderr instead (refusing any that holds this machine's paths
# or user name): review the diff before committing it.  CASES='env-*'
# picks some.
golden: envpreflight
	@t=$$(mktemp -d "$${TMPDIR:-/tmp}/envpreflight-golden.XXXXXX") && \
	  TEST_TMPDIR=$$t EP_BIN=$(CURDIR)/envpreflight UPDATE=$(UPDATE) CASES='$(CASES)' \
	  sh tests/golden.sh; st=$$?; rm -rf "$$t"; \
	  if [ "$(UPDATE)" = 1 ]; then git status --short tests/cases 2>/dev/null; fi; \
	  exit $$st

asan: asan-build
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  TEST_TWINNED='$(TWINNED)' tests/run.sh build-asan/envpreflight build-asan

# clang's, not gcc's: a process of clang's build (its runtime linked in,
# not libasan.so) starts and does its leak check at exit in 70 ms here,
# gcc's in 100 ms, and the suite starts thousands (.ci/run)
asan-build: deps-check deps-asan
	+$(ASAN_MAKE) build-asan/envpreflight units

# -O0: the threaded programs ran as fast as at -O1 here (16.5 against
# 17 s), and their objects compiled in 17.5 s instead of 24
tsan: deps
	$(MAKE) CC=clang BUILD=build-tsan SAN="$(TSAN)" CFLAGS="-O0 -g" \
	  $(TSAN_UNITS:%=build-tsan/tests/%)
	tests/tsan.sh build-tsan $(TSAN_UNITS)

lint: deps
	tests/lint.sh

lint-deep: deps
	LINT_ANALYZER=deep tests/lint.sh

fuzz-build: deps deps-asan
	+$(ASAN_MAKE) fuzz-bins

fuzz: fuzz-build
	tests/fuzz/run.sh build-asan $(FUZZ_SECONDS) $(FUZZ)

fuzz-smoke: fuzz-build
	tests/fuzz/run.sh build-asan $(FUZZ_SMOKE_SECONDS) $(FUZZ)

# the man page as installed: its footer names the version of
# include/version.h, whatever the source page says
$(BUILD)/envpreflight.1: man/envpreflight.1 include/version.h | $(BUILD)
	sed 's/^\(\.TH .* "envpreflight \)[^"]*"/\1$(VERSION)"/' man/envpreflight.1 >$@

# from $(BUILD), so that make deb's build (BUILD=build-deb/obj) leaves
# ./envpreflight alone
install: $(BUILD)/envpreflight $(BUILD)/envpreflight.1
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) \
	  $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR) $(DESTDIR)$(SCHEMADIR)
	install -m 0755 $(BUILD)/envpreflight $(DESTDIR)$(BINDIR)/envpreflight
	install -m 0644 $(BUILD)/envpreflight.1 $(DESTDIR)$(MANDIR)/man1/envpreflight.1
	install -m 0644 src/completions/envpreflight.bash $(DESTDIR)$(BASHCOMPDIR)/envpreflight
	install -m 0644 src/completions/_envpreflight $(DESTDIR)$(ZSHCOMPDIR)/_envpreflight
	install -m 0644 src/completions/envpreflight.fish $(DESTDIR)$(FISHCOMPDIR)/envpreflight.fish
	install -m 0644 $(SCHEMA) $(DESTDIR)$(SCHEMADIR)/envpreflight-1.schema.json

# the Debian package, and its test (a throw-away root, lintian)
DEB_BUILD ?= build-deb
DEB_OUT ?= .
DEB_MAINTAINER ?= envpreflight developers <dev@envpreflight.invalid>
# (+: the build inside is a make of its own, which shares make -jN's jobs)
deb: deps-deb
	+sh src/debian/build.sh '$(VERSION)' $(DEB_BUILD) $(DEB_OUT) '$(DEB_MAINTAINER)'

check-deb: deb
	sh tests/deb.sh '$(VERSION)' $(DEB_OUT)

clean:
	rm -rf build build-asan build-tsan build-fuzz build-deb envpreflight envpreflight_*.deb

.PHONY: FORCE all units fuzz-bins libs-present deps deps-build deps-check deps-asan deps-deb npm-deps apt-npm managers-deps \
        mcp-deps tap-deps run check golden \
        asan asan-build tsan lint lint-deep fuzz-build fuzz fuzz-smoke install deb check-deb clean
