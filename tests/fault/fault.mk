# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/fault/fault.mk (included by tests/fuzz/fuzz.mk): the fault-injection
# shim, built by make tests as $(BUILDDIR)/tests/libiosfault.so, never with
# the sanitizers (it is loaded ahead of them; see fault.c).
FAULT_SHIM := $(BUILDDIR)/tests/libiosfault.so

$(FAULT_SHIM): tests/fault/fault.c $(BUILDDIR)/flags.stamp
	@mkdir -p $(dir $@)
	$(Q_LINK)$(CC) -std=c11 -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror) -O2 -g -fPIC -shared $(CFLAGS_FAULT) -o $@ $< -ldl

tests: $(FAULT_SHIM)
