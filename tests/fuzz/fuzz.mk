# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/fuzz/fuzz.mk: the fuzz targets, included by the Makefile.
#
#   make tests        also builds every target with replay.c's main as
#                     $(BUILDDIR)/tests/test-fuzz-NAME: tests/run.sh runs it,
#                     replaying the seed corpus and the regression inputs
#                     (plain, and under ASan+UBSan in make check)
#   make fuzz         builds the targets with libFuzzer, ASan and UBSan into
#                     $(FUZZ_BUILDDIR) and runs each for FUZZ_SECONDS seconds
#                     (FUZZ_TARGETS="policy grub" for some only; make -j2 fuzz
#                     runs two targets at a time); new inputs
#                     go to $(FUZZ_BUILDDIR)/corpus/NAME, findings to
#                     $(FUZZ_BUILDDIR)/artifacts/, figures to .../logs/NAME.log
#
# A target is tests/fuzz/fuzz-NAME.c with its seeds in tests/fuzz/corpus/NAME,
# its dictionary tests/fuzz/NAME.dict and the inputs that once failed in
# tests/fuzz/regressions/NAME.

FUZZ_TARGETS   ?= policy udevdb grub bench-options sysfs evidence $(if $(wildcard src/bench/jobfile.c),bench-jobfile) bench-fiojson
FUZZ_SECONDS   ?= 60
FUZZ_BUILDDIR  ?= build-fuzz
FUZZ_CC        ?= $(or $(shell command -v clang-14 2>/dev/null),clang)
FUZZ_FLAGS     ?=

FUZZ_REPLAY := $(FUZZ_TARGETS:%=$(BUILDDIR)/tests/test-fuzz-%)
FUZZ_LIBS    = $(LIBAPPLY) $(LIBBENCH) $(LIBIOS) $(LIBSHARED)
FUZZ_LDLIBS  = $(SMARTCOLS_LIBS) $(URING_LIBS) $(AIO_LIBS) $(MOUNT_LIBS) -ldl -lpthread -lm

$(BUILDDIR)/tests/fuzz/%.o: OBJ_CPPFLAGS = -Isrc/lib -Isrc/apply -Isrc/bench -DFUZZ_TOP='"$(CURDIR)"'
.SECONDARY: $(FUZZ_TARGETS:%=$(BUILDDIR)/tests/fuzz/fuzz-%.o) $(FUZZ_TARGETS:%=$(BUILDDIR)/tests/fuzz/replay-%.o)

$(BUILDDIR)/tests/fuzz/replay-%.o: tests/fuzz/replay.c $(BUILDDIR)/flags.stamp
	@mkdir -p $(dir $@)
	$(Q_CC)$(CC) $(ALL_CPPFLAGS) -DFUZZ_NAME='"$*"' $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILDDIR)/tests/test-fuzz-%: $(BUILDDIR)/tests/fuzz/fuzz-%.o $(BUILDDIR)/tests/fuzz/replay-%.o $(FUZZ_LIBS)
	$(Q_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(FUZZ_LDLIBS)

tests: $(FUZZ_REPLAY)

# the libFuzzer binaries (only in $(FUZZ_BUILDDIR), through make fuzz)
$(BUILDDIR)/fuzz/fuzz-%: $(BUILDDIR)/tests/fuzz/fuzz-%.o $(FUZZ_LIBS)
	@mkdir -p $(dir $@)
	$(Q_LINK)$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(FUZZ_LDLIBS)

fuzz-build: $(FUZZ_TARGETS:%=$(BUILDDIR)/fuzz/fuzz-%)

fuzz:
	@command -v $(FUZZ_CC) >/dev/null || { echo "make fuzz: no clang (apt-get install clang-14)" >&2; exit 1; }
	$(MAKE) BUILDDIR=$(FUZZ_BUILDDIR) SANITIZE=1 CC=$(FUZZ_CC) CFLAGS='-O1 -g -fsanitize=fuzzer-no-link' fuzz-build
	$(MAKE) $(FUZZ_TARGETS:%=fuzz-run-%)

# one campaign per target: each is one process on one core, so make -j2 fuzz
# runs two at once, each for its full FUZZ_SECONDS
$(FUZZ_TARGETS:%=fuzz-run-%): fuzz-run-%:
	@tests/fuzz/run-one.sh $(FUZZ_BUILDDIR) $* $(FUZZ_SECONDS) $(FUZZ_FLAGS)

.PHONY: fuzz fuzz-build $(FUZZ_TARGETS:%=fuzz-run-%)

fuzz-clean:
	rm -rf $(FUZZ_BUILDDIR)
clean: fuzz-clean
.PHONY: fuzz-clean
include tests/fault/fault.mk
