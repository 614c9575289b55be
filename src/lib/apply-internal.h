/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* apply-internal.h: what apply.c and apply-order.c share (not part of the library's interface). */
#pragma once

#include <stdbool.h>
#include "iosched.h"

/* The running kernel's release, read once per plan and only when a rule depends on it. */
struct ios_kver {
        bool known;
        unsigned major, minor;  /* 0.0: not known (every kernel a rule names) */
};

void ios_kver_get(struct ios_device *d, struct ios_kver *k);
/* Write rank of key among the wanted settings w: 0 scheduler .. 4 iosched/. */
int ios_apply_rank(struct ios_device *d, const struct ios_wanted *w, const char *key, struct ios_kver *k);
/* The file the running kernel keeps key in (the other spelling of a moved value), or key. */
const char *ios_apply_kernel_key(struct ios_device *d, const char *key, struct ios_kver *k);
/* The key of a write before change i, done in this run, that makes the kernel recompute it, or NULL. */
const char *ios_apply_reset_by_write(const struct ios_plan *pl, size_t i, struct ios_kver *k);
/* After every write: each setting read once more, a reset one written again, last. */
int ios_apply_settle(struct ios_plan *pl);

/* apply-limits.c: whether kernel is what a bound of the disk makes of wanted (kept, in place) */
bool ios_apply_kept_by_disk(struct ios_device *d, const char *key, const char *kernel, const char *wanted);
int ios_apply_wbt_default(struct ios_device *d, const char *kernel, const char *wanted);

/* apply.c */
/* c->msg, formatted (NULL when out of memory) */
void ios_apply_msg(struct ios_change *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool ios_apply_same(struct ios_device *d, const char *key, const char *kernel, const char *wanted);
int ios_apply_write_setting(struct ios_device *d, struct ios_change *c, bool switched);
