# diskscope — plain GNU make.  `make run` starts it, `make check` tests it.
# Missing Debian packages are installed first (tools/deps.sh), so pkg-config
# flags are expanded lazily, after the deps stamp exists.

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/diskscope
MANDIR  ?= $(PREFIX)/share/man
DESTDIR ?=

CC      ?= cc
B       := build
VERSION := 0.1.0

CORE_PKGS := libatasmart libpci liburing json-c inih sqlite3 libpq libnvme libudev
# libsgutils2 (sg3_utils' library) has no pkg-config file on Debian 12: linked by name
CORE_LIBS := -lsgutils2
UI_PKGS   := ncursesw
TEST_PKGS := cmocka

WARN    := -Wall -Wextra -Werror -Wno-unused-parameter
CSTD    := -std=c11 -D_GNU_SOURCE
OPT     ?= -O2 -g
SAN     ?=
CFLAGS_ALL = $(CSTD) $(OPT) $(SAN) $(WARN) -pthread -Isrc -I$(B) \
             -DDS_VERSION='"$(VERSION)"' -DDS_DATADIR='"$(DATADIR)"' \
             $(shell pkg-config --cflags $(CORE_PKGS) $(UI_PKGS))
LIBS_CORE = $(shell pkg-config --libs $(CORE_PKGS)) $(CORE_LIBS) -lm -pthread
LIBS_UI   = $(shell pkg-config --libs $(UI_PKGS))
LIBS_TEST = $(shell pkg-config --libs $(TEST_PKGS))

# main.c and main-tui.c are the bridge (the part main of tools/layers.txt):
# only they (and ui/) see ui/ headers.
MAIN_SRC := src/main.c src/main-tui.c
MAIN_OBJ := $(MAIN_SRC:%.c=$(B)/%.o)
CORE_SRC := $(filter-out $(MAIN_SRC),$(shell find src -name '*.c' | sort))
UI_SRC   := $(sort $(wildcard ui/*.c))
EMBED_IN := $(sort $(wildcard src/sim/models/*.drive src/sim/models/*.hba src/sim/models/*.rig \
              src/inventory/*.csv src/station/*.ini themes/*.theme))
CORE_OBJ := $(CORE_SRC:%.c=$(B)/%.o) $(B)/embedded.o
UI_OBJ   := $(UI_SRC:%.c=$(B)/%.o)
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
BENCH_SRC := $(sort $(wildcard tests/bench/*.c))
BENCH_BIN := $(BENCH_SRC:tests/bench/%.c=$(B)/bench/%)
# the frame and board benchmarks, one folder each (built by check, so they build)
FRAME_BENCH := $(patsubst tests/bench/%/,%,$(sort $(dir $(wildcard tests/bench/*/*.c))))
BENCH_BIN += $(addprefix $(B)/bench/,$(FRAME_BENCH))
DEPS_OK  := $(B)/.deps-ok
Q := $(if $(V),,@)

.PHONY: all run check deps install uninstall clean lint-core lint-layers lint-names lint-size lint-unknown man-lint asan bench print-core-pkgs
all: $(B)/diskscope

deps: $(DEPS_OK)
$(DEPS_OK): tools/deps.sh
	@mkdir -p $(B)
	@sh tools/deps.sh
	@touch $@

# The core must stay curses-free: only ui/ may include curses.
lint-core:
	@if grep -rnE '#[[:space:]]*include[[:space:]]*[<"](n)?curses(w)?[/.]' src; then \
	  echo "error: curses included under src/ (only ui/ may use curses)"; exit 1; fi

# src/ compiles without -Iui: the core cannot include a dashboard header.
$(MAIN_OBJ) $(UI_OBJ): CFLAGS_ALL += -Iui

# Parts include each other one way only: the parts, arrows and never-arrows
# are one table, tools/layers.txt (authoritative over DESIGN.md "Layers").
lint-layers:
	@sh tools/lint-layers.sh

lint-names:
	@sh tools/lint-names.sh

# No .c past 800 lines, no function past 120 without a "long:" reason
# (tools/size-allow.txt: the ones being shortened).
lint-size:
	@sh tools/lint-size.sh

# "Unknown" is said one way (util/known.h): no NAN, -1 or negative for an
# unknown value; what is no value is in tools/lint-unknown.allow with its reason.
lint-unknown:
	@sh tools/lint-unknown.sh

$(B)/%.o: %.c | $(DEPS_OK)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo '  CC      $<')
	$(Q)$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

# The install dir is compiled in (theme search): rebuild what uses it when
# PREFIX/DATADIR change, e.g. `make install PREFIX=/opt/ds` after `make`.
$(B)/datadir.stamp: FORCE
	@mkdir -p $(B)
	@echo '$(DATADIR)' | cmp -s - $@ 2>/dev/null || echo '$(DATADIR)' > $@
$(B)/ui/theme.o: $(B)/datadir.stamp
.PHONY: FORCE
FORCE:

$(B)/embedded.c: tools/embed.sh $(EMBED_IN) | $(DEPS_OK)
	@mkdir -p $(B)
	$(Q)sh tools/embed.sh $(EMBED_IN) > $@.tmp && mv $@.tmp $@

$(B)/embedded.o: $(B)/embedded.c
	$(Q)$(CC) $(CFLAGS_ALL) -c $< -o $@

$(B)/libdiskscope.a: $(CORE_OBJ)
	@rm -f $@
	$(Q)ar rcs $@ $^

$(B)/libdiskscope-ui.a: $(UI_OBJ)
	@rm -f $@
	$(Q)ar rcs $@ $^

$(B)/diskscope: $(MAIN_OBJ) $(B)/libdiskscope-ui.a $(B)/libdiskscope.a | lint-core lint-layers
	@$(if $(V),,echo '  LINK    $@')
	$(Q)$(CC) $(OPT) $(SAN) -o $@ $^ $(LIBS_UI) $(LIBS_CORE)

$(B)/tests/%: tests/unit/%.c $(B)/libdiskscope-ui.a $(B)/libdiskscope.a | $(DEPS_OK)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo '  TEST    $@')
	$(Q)$(CC) $(CFLAGS_ALL) -MMD -MP -Iui -Itests/unit -o $@ $< $(B)/libdiskscope-ui.a $(B)/libdiskscope.a $(TEST_LDFLAGS) $(LIBS_TEST) $(LIBS_UI) $(LIBS_CORE)

# test_hotpath counts the allocations, locks and runner hook calls of the I/O path.
$(B)/tests/test_hotpath: TEST_LDFLAGS = $(foreach f,malloc calloc realloc free pthread_mutex_lock \
  pthread_mutex_trylock pthread_cond_wait pthread_cond_timedwait acc_on_io,-Wl,--wrap=$(f))

$(B)/bench/%: tests/bench/%.c $(B)/libdiskscope.a | $(DEPS_OK)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS_ALL) -o $@ $< $(B)/libdiskscope.a $(LIBS_CORE)

# The frame and board benchmarks (tests/bench/NAME/NAME.c, `make bench`): the
# dashboard's code built with the flags above, as the unit tests are.
define frame_bench
$(B)/bench/$(1): tests/bench/$(1)/$(1).c $(B)/libdiskscope-ui.a $(B)/libdiskscope.a | $(DEPS_OK)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(CC) $$(CFLAGS_ALL) -Wno-unused-function -Iui -Itests/unit -o $$@ $$< $(B)/libdiskscope-ui.a \
	  $(B)/libdiskscope.a $$(LIBS_UI) $$(LIBS_CORE)
endef
$(foreach b,$(FRAME_BENCH),$(eval $(call frame_bench,$(b))))

# The fault device the tests/sys/fault-*.sh scenarios mount (tests/fault/README).
FAULT_SRC := $(sort $(wildcard tests/fault/*.c))
$(B)/tests/ds-faultdev: $(FAULT_SRC) tests/fault/faultdev.h | $(DEPS_OK)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo '  CC      $@')
	$(Q)$(CC) $(CSTD) $(OPT) $(SAN) $(WARN) -pthread $(shell pkg-config --cflags fuse3) -o $@ $(FAULT_SRC) \
	  $(shell pkg-config --libs fuse3) -lm

run: $(B)/diskscope
	./$(B)/diskscope $(ARGS)

# Every test: unit programs, then scripts (root, loop/zram, QEMU, tmux).
# tests/run.sh prints one line per test and ends with "N passed, N failed, N skipped".
check: $(B)/diskscope $(UNIT_BIN) $(BENCH_BIN) $(B)/tests/ds-faultdev lint-core lint-layers lint-names lint-size lint-unknown
	@sh tests/run.sh $(UNIT_BIN) $(filter-out %/lib-qemu.sh tests/%/lib.sh,$(sort $(wildcard tests/sys/*.sh tests/ui/*.sh tests/hw/*.sh tests/docs/*.sh)))

bench: $(B)/diskscope $(BENCH_BIN)
	@for b in tests/bench/*.sh; do sh $$b || exit 1; done

# Sanitizer builds, each into its own directory (tests/ui/asan.sh,
# tests/sys/sanitizers.sh): ASan+UBSan, and TSan (workers, sampler and UI
# share statistics).  `make asan-all`/`tsan-all` add the unit tests.
ASAN_VARS := B=build-asan OPT='-O1 -g -fno-omit-frame-pointer' SAN='-fsanitize=address,undefined -fno-sanitize-recover=undefined'
TSAN_VARS := B=build-tsan OPT='-O1 -g -fno-omit-frame-pointer' SAN='-fsanitize=thread'
.PHONY: tsan asan-all tsan-all san-bins
asan:
	$(MAKE) $(ASAN_VARS) build-asan/diskscope
tsan:
	$(MAKE) $(TSAN_VARS) build-tsan/diskscope
asan-all:
	$(MAKE) $(ASAN_VARS) san-bins
tsan-all:
	$(MAKE) $(TSAN_VARS) san-bins
san-bins: $(B)/diskscope $(UNIT_BIN)

# libFuzzer harnesses (tests/fuzz/fuzz_*.c), built with clang into their own
# directory; `make fuzz` runs each for FUZZ_SECS seconds (tests/fuzz/run.sh).
FUZZ_B    ?= build-fuzz
FUZZ_CC   ?= clang-14
FUZZ_SECS ?= 60
FUZZ_BIN   = $(patsubst tests/fuzz/%.c,$(FUZZ_B)/fuzz/%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
.PHONY: fuzz fuzz-build
fuzz-build:
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || sh tools/deps.sh fuzz
	$(MAKE) B=$(FUZZ_B) CC=$(FUZZ_CC) OPT='-O1 -g -fno-omit-frame-pointer' \
	  SAN='-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined' $(FUZZ_BIN)
fuzz: fuzz-build
	@FUZZ_SECS=$(FUZZ_SECS) FUZZ_B=$(FUZZ_B) sh tests/fuzz/run.sh

$(B)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(B)/libdiskscope-ui.a $(B)/libdiskscope.a | $(DEPS_OK)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo '  FUZZ    $@')
	$(Q)$(CC) $(CFLAGS_ALL) -fsanitize=fuzzer -Iui -Itests/fuzz -o $@ $< $(B)/libdiskscope-ui.a $(B)/libdiskscope.a $(LIBS_UI) $(LIBS_CORE)

man-lint:
	mandoc -Tlint -W warning man/diskscope.1 man/diskscope-theme.5

install: $(B)/diskscope
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/themes $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	install -m 755 $(B)/diskscope $(DESTDIR)$(BINDIR)/diskscope
	install -m 644 themes/*.theme $(DESTDIR)$(DATADIR)/themes/
	install -m 644 src/station/profiles.ini $(DESTDIR)$(DATADIR)/profiles.ini
	install -m 644 man/diskscope.1 $(DESTDIR)$(MANDIR)/man1/diskscope.1
	install -m 644 man/diskscope-theme.5 $(DESTDIR)$(MANDIR)/man5/diskscope-theme.5

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/diskscope $(DESTDIR)$(MANDIR)/man1/diskscope.1 \
	      $(DESTDIR)$(MANDIR)/man5/diskscope-theme.5
	rm -f $(DESTDIR)$(DATADIR)/themes/*.theme $(DESTDIR)$(DATADIR)/profiles.ini
	-rmdir $(DESTDIR)$(DATADIR)/themes $(DESTDIR)$(DATADIR)
	-rmdir $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 2>/dev/null

clean:
	rm -rf build build-asan build-tsan build-fuzz

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# the core's pkg-config packages, for scripts that link libdiskscope.a
# themselves (tests/bench/*.sh)
print-core-pkgs:
	@echo $(CORE_PKGS)
