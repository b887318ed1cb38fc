# envpreflight - plain make, pkg-config for the three libraries.
#
#   make            build ./envpreflight
#   make run        install deps, build, audit examples/webapp
#   make check      install deps, build, run every test
#   make asan       the tests under AddressSanitizer + UBSan
#   make install    PREFIX=/usr/local DESTDIR=

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
CC      ?= cc
PKGS    := libcjson inih yaml-0.1
BUILD   ?= build

# Debian packages: to build, and (the second list) to run the tests.
DEPS_BUILD := pkg-config libcjson-dev libinih-dev libyaml-dev
DEPS_TEST  := libxml2-utils iproute2 lsof valgrind man-db git nodejs python3 util-linux \
              python3-jsonschema

WARN    := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wstrict-prototypes \
           -Wmissing-prototypes -Wvla -Wpointer-arith -Wno-unused-parameter
CFLAGS  ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) -Iinclude \
             $(shell pkg-config --cflags $(PKGS) 2>/dev/null) $(CFLAGS) $(SAN)
LDLIBS  = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lpthread -lm
ASAN    := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

SRCS    := $(wildcard src/*.c)
SCHEMA  := src/schema/envpreflight-1.schema.json
OBJS    := $(SRCS:src/%.c=$(BUILD)/%.o) $(BUILD)/schema.o
LIBOBJS := $(filter-out $(BUILD)/main.o,$(OBJS))
UNITS   := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,\
             $(filter-out tests/unit/test_main.c,$(wildcard tests/unit/test_*.c)))
HDRS    := $(wildcard include/*.h include/*.def)

all: envpreflight

envpreflight: $(BUILD)/envpreflight
	cp $< $@

$(BUILD)/envpreflight: $(OBJS)
	$(CC) $(ALL_CFLAGS) -o $@ $(OBJS) $(LDLIBS)

$(BUILD)/%.o: src/%.c $(HDRS) | $(BUILD)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# the schema file as a C string: each line quoted, \ and " escaped
$(BUILD)/schema.c: $(SCHEMA) | $(BUILD)
	{ echo '/* generated from $(SCHEMA): do not edit */'; \
	  echo '#include "schema.h"'; echo 'const char schema_text[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $(SCHEMA); \
	  echo ';'; } >$@

$(BUILD)/schema.o: $(BUILD)/schema.c include/schema.h
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/test_main.o: tests/unit/test_main.c tests/unit/test.h | $(BUILD)
	$(CC) $(ALL_CFLAGS) -Itests/unit -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/tests/test_main.o $(LIBOBJS) tests/unit/test.h
	$(CC) $(ALL_CFLAGS) -Wno-missing-field-initializers -Itests/unit -o $@ $< $(BUILD)/tests/test_main.o $(LIBOBJS) $(LDLIBS)

$(BUILD):
	mkdir -p $(BUILD)/tests

units: $(UNITS)

deps:
	@missing=""; for p in $(DEPS_BUILD) $(DEPS_TEST); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all present"; \
	elif [ "$$(id -u)" = 0 ]; then \
	  echo "deps: installing$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	else echo "deps: missing packages; run: sudo apt-get install$$missing"; exit 1; fi

run: deps envpreflight
	@[ -f examples/webapp/.env ] || cp examples/webapp/.env.dev examples/webapp/.env
	./envpreflight examples/webapp; st=$$?; [ $$st -le 1 ]

check: deps
	$(MAKE) envpreflight units
	tests/run.sh ./envpreflight $(BUILD)

asan: deps
	$(MAKE) BUILD=build-asan SAN="$(ASAN)" CFLAGS="-O1 -g" build-asan/envpreflight units
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  tests/run.sh build-asan/envpreflight build-asan

install: envpreflight
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 0755 envpreflight $(DESTDIR)$(BINDIR)/envpreflight
	install -m 0644 man/envpreflight.1 $(DESTDIR)$(MANDIR)/man1/envpreflight.1

clean:
	rm -rf build build-asan envpreflight

.PHONY: all units deps run check asan install clean
