# SPDX-License-Identifier: LGPL-2.1-or-later
# iosched: a plain Makefile in liburing's style.
#   make                  build the tools
#   make check            unit, golden and loop-device tests, then again under ASan+UBSan
#                         (make -j2 check: both at once; check-plain, check-san: one)
#   make check-fast       the same, plain build only
#   make check-vm         boot real kernels under QEMU with real disks (tests/vm)
#   make check-vm-pkg     the Debian package in a QEMU guest (tests/vm/pkg.sh)
#   make check-contrib    the Ansible collection, Puppet module and cloud-init snippet
#                         on loop devices (tests/contrib; installs ansible, puppet,
#                         facter, cloud-init with apt-get when missing)
#   make install          DESTDIR, PREFIX, SBINDIR, MANDIR, UDEVDIR, SYSTEMDUNITDIR,
#                         INITRAMFSDIR, DRACUTDIR, BASHCOMPDIR honoured (see below)
#   make dist             iosched-$(VERSION).tar.gz of the files git tracks
#   make distcheck        make dist, unpack it under $(BUILDDIR) and run check-fast there
#   make deb              the Debian packages (tests/pkg/deb-build.sh) into build/deb
#   make SANITIZE=1       build with AddressSanitizer + UndefinedBehaviorSanitizer
#   make WERROR=1         warnings are errors (check, check-fast, check-contrib, tests, valgrind set it)
#   make V=1              show the full commands
#
# CPPFLAGS, CFLAGS and LDFLAGS from the environment or the command line are
# used as given (a distribution's hardening flags reach every compile and
# link line); what the project itself needs is added to them, never replaces
# them.  Objects are rebuilt when the compiler or the flags change.
#
# Install directories: with PREFIX=/usr (a distribution package) the udev,
# systemd, initramfs-tools, dracut and bash-completion files go where the
# system's own packages say (pkg-config), else where Debian/Fedora put them.
# With any other PREFIX (the default /usr/local, /opt/x, ...) they stay under
# $(PREFIX): nothing is written into the distribution's directories unless
# asked, e.g. `make install UDEVDIR=/etc/udev INITRAMFSDIR=/etc/initramfs-tools`.
# An empty directory variable (INITRAMFSDIR= DRACUTDIR=) skips that part.

VERSION   := $(shell cat VERSION)
PREFIX    ?= /usr/local
SBINDIR   ?= $(PREFIX)/sbin
DATADIR   ?= $(PREFIX)/share
MANDIR    ?= $(DATADIR)/man
LIBDIR_IOSCHED ?= $(PREFIX)/lib/iosched
SYSCONFDIR ?= /etc
PKG_CONFIG ?= pkg-config
INSTALL   ?= install

pc_var = $(or $(shell $(PKG_CONFIG) --variable=$(1) $(2) 2>/dev/null),$(3))
ifeq ($(PREFIX),/usr)
UDEVDIR        ?= $(call pc_var,udevdir,udev,/lib/udev)
SYSTEMDUNITDIR ?= $(call pc_var,systemdsystemunitdir,systemd,/lib/systemd/system)
INITRAMFSDIR   ?= /usr/share/initramfs-tools
DRACUTDIR      ?= $(call pc_var,dracutmodulesdir,dracut,/usr/lib/dracut/modules.d)
BASHCOMPDIR    ?= $(call pc_var,completionsdir,bash-completion,/usr/share/bash-completion/completions)
else
UDEVDIR        ?= $(PREFIX)/lib/udev
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
INITRAMFSDIR   ?= $(DATADIR)/initramfs-tools
DRACUTDIR      ?= $(PREFIX)/lib/dracut/modules.d
BASHCOMPDIR    ?= $(DATADIR)/bash-completion/completions
endif

CC      ?= cc
CFLAGS  ?= -O2 -g
CPPFLAGS ?=
LDFLAGS ?=
# the project's own checks treat warnings as errors; a packager's build does
# not (WERROR=0 on the command line or in the environment undoes it)
ifneq ($(filter check check-plain check-san check-fast check-contrib tests valgrind distcheck,$(MAKECMDGOALS)),)
WERROR  ?= 1
endif
WERROR  ?= 0

# what the project adds to the user's flags (theirs come last, so they win)
# the version's one source is the file VERSION
IOS_CPPFLAGS := -Iinclude -Isrc/shared -DIOS_VERSION='"$(VERSION)"'
IOS_CFLAGS   := -std=c11 -Wall -Wextra
ifeq ($(WERROR),1)
IOS_CFLAGS += -Werror
endif
IOS_LDFLAGS  :=

ifeq ($(SANITIZE),1)
BUILDDIR ?= build-san
IOS_CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
IOS_LDFLAGS += -fsanitize=address,undefined
else
BUILDDIR ?= build
endif

pc_cflags = $(shell $(PKG_CONFIG) --cflags $(1) 2>/dev/null)
pc_libs   = $(shell $(PKG_CONFIG) --libs $(1) 2>/dev/null || echo $(2))

SMARTCOLS_LIBS := $(call pc_libs,smartcols,-lsmartcols)
UDEV_LIBS      := $(call pc_libs,libudev,-ludev)
SYSTEMD_LIBS   := $(call pc_libs,libsystemd,-lsystemd)
URING_LIBS     := $(call pc_libs,liburing,-luring)
AIO_LIBS       := $(call pc_libs,libaio,-laio)
CMOCKA_LIBS    := $(call pc_libs,cmocka,-lcmocka)
MOUNT_LIBS     := $(call pc_libs,mount,-lmount)
IOS_CPPFLAGS   += $(call pc_cflags,smartcols liburing mount)

ALL_CPPFLAGS = $(IOS_CPPFLAGS) $(CPPFLAGS)
ALL_CFLAGS   = $(IOS_CFLAGS) $(CFLAGS)
ALL_LDFLAGS  = $(IOS_CFLAGS) $(CFLAGS) $(IOS_LDFLAGS) $(LDFLAGS)
# the vendor policy directory is compiled in, into the objects whose source
# names it (so a PREFIX change rebuilds those only)
VENDOR_CPPFLAGS = -DIOS_VENDOR_DIR='"$(LIBDIR_IOSCHED)"'

ifndef V
Q_CC   = @echo '    CC   ' $@;
Q_LINK = @echo '    LINK ' $@;
Q_AR   = @echo '    AR   ' $@;
Q_GEN  = @echo '    GEN  ' $@;
endif

# src/shared: generic helpers (string vectors, growth, file reads, the JSON
# reader) below the library and the programs, an archive of their own
SHARED_SRCS := $(sort $(wildcard src/shared/*.c))
SHARED_OBJS := $(SHARED_SRCS:%.c=$(BUILDDIR)/%.o)
LIBSHARED   := $(BUILDDIR)/libshared.a

LIB_SRCS   := $(sort $(wildcard src/lib/*.c))
LIB_OBJS   := $(LIB_SRCS:%.c=$(BUILDDIR)/%.o)
LIBIOS     := $(BUILDDIR)/libiosched.a

APPLY_SRCS := $(sort $(wildcard src/apply/*.c))
DAEMON_SRCS := $(sort $(wildcard src/daemon/*.c))
BENCH_SRCS := $(sort $(wildcard src/bench/*.c src/bench/fio/*.c src/bench/native/*.c))
VENDOR_OBJS := $(patsubst %.c,$(BUILDDIR)/%.o,$(shell grep -l IOS_VENDOR_DIR $(LIB_SRCS) $(APPLY_SRCS) $(DAEMON_SRCS) $(BENCH_SRCS) 2>/dev/null))

PROGS := $(BUILDDIR)/iosched-apply
ifneq ($(DAEMON_SRCS),)
PROGS += $(BUILDDIR)/ioschedd
endif
ifneq ($(BENCH_SRCS),)
PROGS += $(BUILDDIR)/iosched-bench
endif

TEST_SRCS  := $(sort $(wildcard tests/unit/test-*.c))
TEST_BINS  := $(TEST_SRCS:tests/unit/%.c=$(BUILDDIR)/tests/%)
TEST_HELPER_OBJS := $(BUILDDIR)/tests/unit/helpers.o
# kept after the link (make would delete them as intermediate files of a
# fresh build directory, and build them again next time)
.SECONDARY: $(TEST_SRCS:%.c=$(BUILDDIR)/%.o) $(TEST_HELPER_OBJS)

# Files with the install paths in them: the udev rule and the unit name the
# programs by their installed path (udev runs relative RUN programs only from
# its own directory), the manual pages name the vendor directory and SBINDIR.
# The sources carry the defaults of PREFIX=/usr/local; these are rewritten.
MAN_SRCS  := $(sort $(wildcard man/*.[578]))
MAN_PAGES := $(MAN_SRCS:man/%=$(BUILDDIR)/man/%)
GENERATED := $(BUILDDIR)/60-iosched.rules $(MAN_PAGES)
ifneq ($(wildcard systemd/ioschedd.service),)
GENERATED += $(BUILDDIR)/ioschedd.service
endif
ifneq ($(wildcard systemd/iosched-textfile.service),)
GENERATED += $(BUILDDIR)/iosched-textfile.service
endif
COMPLETIONS := $(wildcard completion/iosched-apply completion/ioschedd completion/iosched-bench)

all: $(PROGS) $(GENERATED)

# Stamps: what went into the objects (compiler and flags) and into the
# generated files (install paths), rewritten while the Makefile is read and
# only when it changed, so that a change rebuilds what depends on it and
# nothing else (also under make -n)
sq = $(subst ','\'',$(1))
FLAGS_SIG = $(CC) | $(ALL_CPPFLAGS) | $(ALL_CFLAGS) | $(ALL_LDFLAGS)
PATHS_SIG = $(SBINDIR) | $(LIBDIR_IOSCHED)
write_stamp = $(shell mkdir -p $(BUILDDIR) && { printf '%s\n' '$(call sq,$(2))' | cmp -s - $(BUILDDIR)/$(1) || \
	printf '%s\n' '$(call sq,$(2))' > $(BUILDDIR)/$(1); })
ifneq ($(filter-out clean dist deb check-vm check-vm-pkg fuzz fuzz-run-%,$(or $(MAKECMDGOALS),all)),)
_ := $(call write_stamp,flags.stamp,$(FLAGS_SIG))$(call write_stamp,paths.stamp,$(PATHS_SIG))
endif
$(VENDOR_OBJS): $(BUILDDIR)/paths.stamp
$(VENDOR_OBJS): OBJ_CPPFLAGS = $(VENDOR_CPPFLAGS)

$(BUILDDIR)/60-iosched.rules: udev/60-iosched.rules.in $(BUILDDIR)/paths.stamp
	@mkdir -p $(dir $@)
	$(Q_GEN)sed 's|@SBINDIR@|$(SBINDIR)|g' $< > $@

# the unit's source runs a bare "ioschedd" (systemd finds it in /usr/sbin or
# /usr/local/sbin): installed, it names the program by its path
$(BUILDDIR)/ioschedd.service: systemd/ioschedd.service $(BUILDDIR)/paths.stamp
	@mkdir -p $(dir $@)
	$(Q_GEN)sed 's|^ExecStart=ioschedd\b|ExecStart=$(SBINDIR)/ioschedd|' $< > $@
	@grep -q '^ExecStart=$(SBINDIR)/ioschedd' $@ || { echo "$<: no ExecStart=ioschedd line to rewrite" >&2; exit 1; }

$(BUILDDIR)/iosched-textfile.service: systemd/iosched-textfile.service $(BUILDDIR)/paths.stamp
	@mkdir -p $(dir $@)
	$(Q_GEN)sed 's|^ExecStart=iosched-apply\b|ExecStart=$(SBINDIR)/iosched-apply|' $< > $@
	@grep -q '^ExecStart=$(SBINDIR)/iosched-apply ' $@ || { echo "$<: no ExecStart=iosched-apply line to rewrite" >&2; exit 1; }

$(BUILDDIR)/man/%: man/% $(BUILDDIR)/paths.stamp
	@mkdir -p $(dir $@)
	$(Q_GEN)sed -e 's|/usr/local/lib/iosched|$(LIBDIR_IOSCHED)|g' -e 's|/usr/local/sbin/|$(SBINDIR)/|g' $< > $@

$(BUILDDIR)/%.o: %.c $(BUILDDIR)/flags.stamp
	@mkdir -p $(dir $@)
	$(Q_CC)$(CC) $(ALL_CPPFLAGS) $(DIR_CPPFLAGS) $(OBJ_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(LIBIOS): $(LIB_OBJS)
	$(Q_AR)rm -f $@ && $(AR) rcs $@ $^
$(LIBSHARED): $(SHARED_OBJS)
	$(Q_AR)rm -f $@ && $(AR) rcs $@ $^
# the library's private headers are for the library (and its unit tests and
# fuzzers) only: the programs see include/ and src/shared/
$(LIB_OBJS) $(TEST_HELPER_OBJS): DIR_CPPFLAGS = -Isrc/lib
$(TEST_SRCS:%.c=$(BUILDDIR)/%.o): DIR_CPPFLAGS = -Isrc/lib -Isrc/bench
# iosched-bench's runners (src/bench/fio, src/bench/native) include the
# bench's headers by name, so that a header's dependency is one path
$(BENCH_SRCS:%.c=$(BUILDDIR)/%.o): DIR_CPPFLAGS = -Isrc/bench

# Each tool's code, apart from its main.c, is an archive too, so unit tests
# link exactly the objects they use.
LIBAPPLY := $(BUILDDIR)/libapply.a
LIBBENCH := $(BUILDDIR)/libbench.a
LIBDAEMON := $(BUILDDIR)/libdaemon.a
$(LIBAPPLY): $(filter-out %/main.o,$(APPLY_SRCS:%.c=$(BUILDDIR)/%.o))
	$(Q_AR)rm -f $@ && $(AR) rcs $@ $^
$(LIBBENCH): $(filter-out %/main.o,$(BENCH_SRCS:%.c=$(BUILDDIR)/%.o))
	$(Q_AR)rm -f $@ && $(AR) rcs $@ $^
$(LIBDAEMON): $(filter-out %/main.o,$(DAEMON_SRCS:%.c=$(BUILDDIR)/%.o))
	$(Q_AR)rm -f $@ && $(AR) rcs $@ $^

$(BUILDDIR)/iosched-apply: $(BUILDDIR)/src/apply/main.o $(LIBAPPLY) $(LIBIOS) $(LIBSHARED)
	$(Q_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ -ldl

$(BUILDDIR)/ioschedd: $(BUILDDIR)/src/daemon/main.o $(LIBDAEMON) $(LIBIOS) $(LIBSHARED)
	$(Q_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(UDEV_LIBS) $(SYSTEMD_LIBS)

$(BUILDDIR)/iosched-bench: $(BUILDDIR)/src/bench/main.o $(LIBBENCH) $(LIBIOS) $(LIBSHARED)
	$(Q_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(URING_LIBS) $(AIO_LIBS) $(MOUNT_LIBS) -lpthread -lm

# test-bench-* link the benchmark's code, test-daemon-* the daemon's, the
# others the library and iosched-apply's
$(BUILDDIR)/tests/test-bench-%: $(BUILDDIR)/tests/unit/test-bench-%.o $(TEST_HELPER_OBJS) $(LIBBENCH) $(LIBIOS) $(LIBSHARED)
	$(Q_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(URING_LIBS) $(AIO_LIBS) $(MOUNT_LIBS) -lpthread -lm

$(BUILDDIR)/tests/test-daemon-%: $(BUILDDIR)/tests/unit/test-daemon-%.o $(TEST_HELPER_OBJS) $(LIBDAEMON) $(LIBIOS) $(LIBSHARED)
	$(Q_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(UDEV_LIBS) $(SYSTEMD_LIBS)

$(BUILDDIR)/tests/%: $(BUILDDIR)/tests/unit/%.o $(TEST_HELPER_OBJS) $(LIBAPPLY) $(LIBIOS) $(LIBSHARED)
	$(Q_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(SMARTCOLS_LIBS)

tests: all $(TEST_BINS)
include tests/fuzz/fuzz.mk

# The whole suite twice: the plain build and the same suite under ASan+UBSan.
# The two halves are independent targets: `make -j2 check` runs them side by
# side (tests/run.sh keeps the machine-wide tests, daemons and live udev, from
# overlapping), plain `make check` one after the other as before.
# Each half runs RUN_JOBS tests at a time (tests/run.sh; its lock keeps the
# machine-wide tests apart). PLAIN_DONE="pattern ...": tests the plain half
# leaves out because they ran on this same build just before (.ci/run's quick
# stage: unit/ golden/); the ASan half runs every test.
RUN_JOBS ?= 2
check: check-plain check-san

check-plain: tests
	BUILDDIR=$(BUILDDIR) RUN_TAG=plain RUN_JOBS=$(RUN_JOBS) TESTS_SKIP="$(PLAIN_DONE)" tests/run.sh

check-san:
	$(MAKE) SANITIZE=1 tests
	BUILDDIR=build-san RUN_TAG=asan RUN_JOBS=$(RUN_JOBS) TESTS_SKIP= ASAN_OPTIONS=detect_leaks=1 \
		UBSAN_OPTIONS=print_stacktrace=1 tests/run.sh

check-fast: tests
	BUILDDIR=$(BUILDDIR) RUN_JOBS=$(RUN_JOBS) tests/run.sh

# tests/vm/run.sh builds the tree it installs in the guest itself, in a
# directory of its own (tests/vm/mk-image.sh): build/ is not touched
check-vm:
	tests/vm/run.sh

check-vm-pkg:
	tests/vm/pkg.sh

# valgrind 3.19 (Debian 12) does not know openat2 (it prints a warning and
# answers ENOSYS), so under valgrind openat2 answers ENOSYS before it reaches
# valgrind (the test shim, tests/fault/fault.c: IOS_FAULT_NO_OPENAT2=1) and
# the programs resolve with the component walk from the start: valgrind
# checks the walk, the plain and ASan runs of `make check` the openat2 path,
# and tests/unit/test-sysfs-beneath and test-root run both in every run.
# Configuration management (contrib/): real ansible-playbook and puppet apply
# runs and the cloud-init snippet, against loop devices and a temporary policy
# root, with the build's iosched-apply.
check-contrib: all
	BUILDDIR=$(BUILDDIR) tests/contrib/run.sh

valgrind: tests
	BUILDDIR=$(BUILDDIR) VALGRIND=1 IOS_FAULT_NO_OPENAT2=1 LD_PRELOAD=$(abspath $(BUILDDIR))/tests/libiosfault.so tests/run.sh

install: all
	$(INSTALL) -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(MANDIR)/man8
	$(INSTALL) -m 0755 $(PROGS) $(DESTDIR)$(SBINDIR)/
	for m in $(MAN_PAGES); do $(INSTALL) -m 0644 $$m $(DESTDIR)$(MANDIR)/man$${m##*.}/; done
	$(INSTALL) -d $(DESTDIR)$(LIBDIR_IOSCHED)
	$(if $(UDEVDIR),$(INSTALL) -d $(DESTDIR)$(UDEVDIR)/rules.d)
	$(if $(UDEVDIR),$(INSTALL) -m 0644 $(BUILDDIR)/60-iosched.rules $(DESTDIR)$(UDEVDIR)/rules.d/60-iosched.rules)
	$(if $(and $(SYSTEMDUNITDIR),$(filter %/ioschedd.service,$(GENERATED))),$(INSTALL) -d $(DESTDIR)$(SYSTEMDUNITDIR))
	$(if $(and $(SYSTEMDUNITDIR),$(filter %/ioschedd.service,$(GENERATED))),$(INSTALL) -m 0644 $(BUILDDIR)/ioschedd.service $(DESTDIR)$(SYSTEMDUNITDIR)/ioschedd.service)
	$(if $(and $(SYSTEMDUNITDIR),$(filter %/iosched-textfile.service,$(GENERATED))),$(INSTALL) -d $(DESTDIR)$(SYSTEMDUNITDIR) && \
		$(INSTALL) -m 0644 $(BUILDDIR)/iosched-textfile.service systemd/iosched-textfile.timer $(DESTDIR)$(SYSTEMDUNITDIR)/)
	$(if $(INITRAMFSDIR),if [ -x initramfs/hooks/iosched ]; then \
		$(INSTALL) -d $(DESTDIR)$(INITRAMFSDIR)/hooks && $(INSTALL) -m 0755 initramfs/hooks/iosched $(DESTDIR)$(INITRAMFSDIR)/hooks/iosched; fi)
	$(if $(DRACUTDIR),if [ -d dracut/90iosched ]; then \
		$(INSTALL) -d $(DESTDIR)$(DRACUTDIR)/90iosched && $(INSTALL) -m 0755 dracut/90iosched/* $(DESTDIR)$(DRACUTDIR)/90iosched/; fi)
	$(if $(and $(BASHCOMPDIR),$(COMPLETIONS)),$(INSTALL) -d $(DESTDIR)$(BASHCOMPDIR))
	$(if $(and $(BASHCOMPDIR),$(COMPLETIONS)),$(INSTALL) -m 0644 $(COMPLETIONS) $(DESTDIR)$(BASHCOMPDIR)/)
	$(INSTALL) -d $(DESTDIR)$(DATADIR)/iosched
	$(INSTALL) -m 0644 schema/iosched-apply.schema.json schema/iosched-evidence.schema.json $(DESTDIR)$(DATADIR)/iosched/

uninstall:
	rm -f $(addprefix $(DESTDIR)$(SBINDIR)/,$(notdir $(PROGS)))
	for m in $(MAN_SRCS); do rm -f $(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/}; done
	$(if $(UDEVDIR),rm -f $(DESTDIR)$(UDEVDIR)/rules.d/60-iosched.rules)
	$(if $(SYSTEMDUNITDIR),rm -f $(DESTDIR)$(SYSTEMDUNITDIR)/ioschedd.service)
	$(if $(SYSTEMDUNITDIR),rm -f $(DESTDIR)$(SYSTEMDUNITDIR)/iosched-textfile.service $(DESTDIR)$(SYSTEMDUNITDIR)/iosched-textfile.timer)
	$(if $(INITRAMFSDIR),rm -f $(DESTDIR)$(INITRAMFSDIR)/hooks/iosched)
	$(if $(DRACUTDIR),rm -rf $(DESTDIR)$(DRACUTDIR)/90iosched)
	$(if $(BASHCOMPDIR),rm -f $(addprefix $(DESTDIR)$(BASHCOMPDIR)/,$(notdir $(COMPLETIONS))))
	rm -f $(DESTDIR)$(DATADIR)/iosched/iosched-apply.schema.json $(DESTDIR)$(DATADIR)/iosched/iosched-evidence.schema.json
	-rmdir $(DESTDIR)$(DATADIR)/iosched 2>/dev/null
	-rmdir $(DESTDIR)$(LIBDIR_IOSCHED) 2>/dev/null

# The release tarball: every file git tracks, as it is in the work tree, under
# iosched-$(VERSION)/, with the time of the last commit, owned by root (the
# same tree gives the same bytes)
DIST := iosched-$(VERSION)
dist:
	@git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "make dist: not a git work tree" >&2; exit 1; }
	t=$$(git log -1 --format=%ct 2>/dev/null); \
	git ls-files -z | LC_ALL=C tar --null -T - --ignore-failed-read --transform 's|^|$(DIST)/|S' \
		--sort=name --owner=0 --group=0 --numeric-owner --mode=go-w \
		--mtime="@$${t:-$$(date +%s)}" -cf - | gzip -9n > $(DIST).tar.gz.tmp
	mv $(DIST).tar.gz.tmp $(DIST).tar.gz
	@echo "$(DIST).tar.gz: $$(tar -tzf $(DIST).tar.gz | grep -vc '/$$') files"

distcheck: dist
	rm -rf $(BUILDDIR)/distcheck
	mkdir -p $(BUILDDIR)/distcheck
	tar -xzf $(DIST).tar.gz -C $(BUILDDIR)/distcheck
	$(MAKE) -C $(BUILDDIR)/distcheck/$(DIST) BUILDDIR=build check-fast
	$(MAKE) -C $(BUILDDIR)/distcheck/$(DIST) BUILDDIR=build DESTDIR=$(abspath $(BUILDDIR))/distcheck/dest install
	rm -rf $(BUILDDIR)/distcheck
	@echo "$(DIST).tar.gz: builds, passes check-fast and installs"

deb:
	tests/pkg/deb-build.sh build/deb

clean:
	rm -rf build build-san

.PHONY: all tests check check-plain check-san check-fast check-vm check-vm-pkg check-contrib valgrind install uninstall dist distcheck deb clean
.DELETE_ON_ERROR:

# the compiler's header dependencies for whichever build directory this is
# (BUILDDIR=... for packaging and the VM image, build-san for SANITIZE=1):
# files beside the objects only (build/ also holds the package builds, whose
# trees have directories such as etc/iosched.d while CI's lanes run)
-include $(shell find $(BUILDDIR)/src $(BUILDDIR)/tests -name '*.d' -type f 2>/dev/null)
