# SPDX-License-Identifier: LGPL-2.1-or-later
# iosched: a plain Makefile in liburing's style.
#   make                  build the tools
#   make check            unit, golden and loop-device tests, then again under ASan+UBSan
#   make check-vm         boot real kernels under QEMU with real disks (tests/vm)
#   make install          DESTDIR, PREFIX, SBINDIR, MANDIR, UDEVDIR, SYSTEMDUNITDIR honoured
#   make SANITIZE=1       build with AddressSanitizer + UndefinedBehaviorSanitizer
#   make V=1              show the full commands

VERSION   := $(shell cat VERSION)
PREFIX    ?= /usr/local
SBINDIR   ?= $(PREFIX)/sbin
MANDIR    ?= $(PREFIX)/share/man
LIBDIR_IOSCHED ?= $(PREFIX)/lib/iosched
SYSCONFDIR ?= /etc
PKG_CONFIG ?= pkg-config
UDEVDIR   ?= $(shell $(PKG_CONFIG) --variable=udevdir udev 2>/dev/null || echo /lib/udev)
SYSTEMDUNITDIR ?= $(shell $(PKG_CONFIG) --variable=systemdsystemunitdir systemd 2>/dev/null || echo /lib/systemd/system)
INITRAMFSDIR ?= /usr/share/initramfs-tools
DRACUTDIR ?= /usr/lib/dracut/modules.d

CC      ?= cc
CFLAGS  ?= -O2 -g
override CFLAGS += -std=c11 -Wall -Wextra -Werror -Iinclude -Isrc/lib \
	-DIOS_VENDOR_DIR='"$(LIBDIR_IOSCHED)"' -MMD -MP
LDFLAGS ?=

ifeq ($(SANITIZE),1)
BUILDDIR ?= build-san
override CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
override LDFLAGS += -fsanitize=address,undefined
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
override CFLAGS += $(call pc_cflags,smartcols liburing)

ifndef V
Q_CC   = @echo '    CC   ' $@;
Q_LINK = @echo '    LINK ' $@;
Q_AR   = @echo '    AR   ' $@;
endif

LIB_SRCS   := $(sort $(wildcard src/lib/*.c))
LIB_OBJS   := $(LIB_SRCS:%.c=$(BUILDDIR)/%.o)
LIBIOS     := $(BUILDDIR)/libiosched.a

APPLY_SRCS := $(sort $(wildcard src/apply/*.c))
DAEMON_SRCS := $(sort $(wildcard src/daemon/*.c))
BENCH_SRCS := $(sort $(wildcard src/bench/*.c))

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

all: $(PROGS) $(BUILDDIR)/60-iosched.rules

# udev looks up relative RUN programs only in its own directory: give the rule
# the installed path of iosched-apply
$(BUILDDIR)/60-iosched.rules: udev/60-iosched.rules.in
	@mkdir -p $(dir $@)
	sed 's|@SBINDIR@|$(SBINDIR)|g' $< > $@

$(BUILDDIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q_CC)$(CC) $(CFLAGS) -c -o $@ $<

# the vendor policy directory is compiled in: rebuild policy-files.o when PREFIX changes
$(BUILDDIR)/prefix.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo '$(LIBDIR_IOSCHED)' | cmp -s - $@ || echo '$(LIBDIR_IOSCHED)' > $@
$(BUILDDIR)/src/lib/policy-files.o: $(BUILDDIR)/prefix.stamp

$(LIBIOS): $(LIB_OBJS)
	$(Q_AR)rm -f $@ && $(AR) rcs $@ $^

# Each tool's code, apart from its main.c, is an archive too, so unit tests
# link exactly the objects they use.
LIBAPPLY := $(BUILDDIR)/libapply.a
LIBBENCH := $(BUILDDIR)/libbench.a
$(LIBAPPLY): $(filter-out %/main.o,$(APPLY_SRCS:%.c=$(BUILDDIR)/%.o))
	$(Q_AR)rm -f $@ && $(AR) rcs $@ $^
$(LIBBENCH): $(filter-out %/main.o,$(BENCH_SRCS:%.c=$(BUILDDIR)/%.o))
	$(Q_AR)rm -f $@ && $(AR) rcs $@ $^

$(BUILDDIR)/iosched-apply: $(BUILDDIR)/src/apply/main.o $(LIBAPPLY) $(LIBIOS)
	$(Q_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ -ldl

$(BUILDDIR)/ioschedd: $(DAEMON_SRCS:%.c=$(BUILDDIR)/%.o) $(LIBIOS)
	$(Q_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(UDEV_LIBS) $(SYSTEMD_LIBS)

$(BUILDDIR)/iosched-bench: $(BUILDDIR)/src/bench/main.o $(LIBBENCH) $(LIBIOS)
	$(Q_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(URING_LIBS) $(AIO_LIBS) -lpthread -lm

# test-bench-* link the benchmark's code, the others the library and iosched-apply's
$(BUILDDIR)/tests/test-bench-%: $(BUILDDIR)/tests/unit/test-bench-%.o $(TEST_HELPER_OBJS) $(LIBBENCH) $(LIBIOS)
	$(Q_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(URING_LIBS) $(AIO_LIBS) -lpthread -lm

$(BUILDDIR)/tests/%: $(BUILDDIR)/tests/unit/%.o $(TEST_HELPER_OBJS) $(LIBAPPLY) $(LIBIOS)
	$(Q_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(SMARTCOLS_LIBS)

tests: all $(TEST_BINS)

# The whole suite: plain build, then the same suite under ASan+UBSan.
check: tests
	BUILDDIR=$(BUILDDIR) tests/run.sh
	$(MAKE) SANITIZE=1 tests
	BUILDDIR=build-san ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 tests/run.sh

check-fast: tests
	BUILDDIR=$(BUILDDIR) tests/run.sh

check-vm: all
	tests/vm/run.sh

valgrind: tests
	BUILDDIR=$(BUILDDIR) VALGRIND=1 tests/run.sh

install: all
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(MANDIR)/man8
	install -m 0755 $(PROGS) $(DESTDIR)$(SBINDIR)/
	for m in man/*.[578]; do install -m 0644 $$m $(DESTDIR)$(MANDIR)/man$${m##*.}/; done
	# the rule names the program by its installed path: made here, from the SBINDIR of this install
	install -d $(DESTDIR)$(UDEVDIR)/rules.d
	sed 's|@SBINDIR@|$(SBINDIR)|g' udev/60-iosched.rules.in > $(DESTDIR)$(UDEVDIR)/rules.d/60-iosched.rules
	chmod 0644 $(DESTDIR)$(UDEVDIR)/rules.d/60-iosched.rules
	if ls systemd/*.service >/dev/null 2>&1; then \
		install -d $(DESTDIR)$(SYSTEMDUNITDIR) && install -m 0644 systemd/*.service $(DESTDIR)$(SYSTEMDUNITDIR)/; fi
	install -d $(DESTDIR)$(LIBDIR_IOSCHED)
	if [ -x initramfs/hooks/iosched ]; then \
		install -d $(DESTDIR)$(INITRAMFSDIR)/hooks && install -m 0755 initramfs/hooks/iosched $(DESTDIR)$(INITRAMFSDIR)/hooks/iosched; fi
	if [ -d dracut/90iosched ]; then \
		install -d $(DESTDIR)$(DRACUTDIR)/90iosched && install -m 0755 dracut/90iosched/* $(DESTDIR)$(DRACUTDIR)/90iosched/; fi

uninstall:
	rm -f $(addprefix $(DESTDIR)$(SBINDIR)/,$(notdir $(PROGS)))
	for m in man/*.[578]; do rm -f $(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/}; done
	rm -f $(DESTDIR)$(UDEVDIR)/rules.d/60-iosched.rules
	rm -f $(DESTDIR)$(SYSTEMDUNITDIR)/ioschedd.service
	rm -f $(DESTDIR)$(INITRAMFSDIR)/hooks/iosched
	rm -rf $(DESTDIR)$(DRACUTDIR)/90iosched
	-rmdir $(DESTDIR)$(LIBDIR_IOSCHED) 2>/dev/null

clean:
	rm -rf build build-san

.PHONY: all tests check check-fast check-vm valgrind install uninstall clean FORCE
.DELETE_ON_ERROR:

# the compiler's header dependencies for whichever build directory this is
# (BUILDDIR=... for packaging and the VM image, build-san for SANITIZE=1)
-include $(shell find $(BUILDDIR) -name '*.d' 2>/dev/null)
