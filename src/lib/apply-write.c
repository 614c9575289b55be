/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * apply-write.c: one setting written and read back, and what counts as the
 * value written (the root's tick rate, where the kernel keeps a time in
 * ticks); the message a change carries.  apply.c's plan and apply-order.c's
 * order and final read-back both write through here.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "device-internal.h"
#include "apply-internal.h"

void ios_apply_msg(struct ios_change *c, const char *fmt, ...)
{
        va_list ap;

        free(c->msg);
        c->msg = NULL;
        va_start(ap, fmt);
        if (vasprintf(&c->msg, fmt, ap) < 0)
                c->msg = NULL;
        va_end(ap);
}


/*
 * ios_tunable_same() at the root's tick rate, which is read (a whole
 * boot/config file, once per process) only when the answer depends on it:
 * a time kept in ticks that differs from the wish as a rounding would.
 * udev runs iosched-apply once per disk at boot: nothing more is read there.
 */
bool ios_apply_same(struct ios_device *d, const char *key, const char *kernel, const char *wanted)
{
        int def = streq(key, "queue/wbt_lat_usec") ? ios_apply_wbt_default(d, kernel, wanted) : -1;

        if (def >= 0)
                return def;
        if (ios_apply_kept_by_disk(d, key, kernel, wanted))
                return true;
        if (!ios_tunable_rounded(key, kernel, wanted))
                return ios_tunable_same(key, kernel, wanted, 0);
        return ios_tunable_same(key, kernel, wanted, ios_ctx_hz(d->ctx));
}


/*
 * Write one attribute and read it back.  0: applied (or found as wanted
 * after a scheduler switch), 1: skipped (the kernel has no such
 * attribute), -errno: failed, with c->msg said.
 */
int ios_apply_write_setting(struct ios_device *d, struct ios_change *c, bool switched)
{
        _cleanup_free_ char *now = NULL;
        int e;

        if (switched) {
                /* the switch reset queue/ values and rebuilt iosched/: look again */
                e = ios_sysfs_read_string(d->fd, c->key, &now);
                if (e == 0 && ios_apply_same(d, c->key, now, c->wanted)) {
                        if (c->state == IOS_CHANGE_DRIFT)
                                c->state = IOS_CHANGE_OK;
                        free(c->after);
                        c->after = TAKE_PTR(now);
                        if (!c->current)
                                c->current = strdup(c->after);
                        return 0;
                }
                if (e == 0 && !c->current)
                        c->current = TAKE_PTR(now);
        }
        e = ios_device_write(d, c->key, c->wanted);
        if (e == -ENOENT && ios_sysfs_exists(d->fd, "queue/scheduler")) {
                /* the disk is there; this kernel (or scheduler) has no such attribute */
                c->state = IOS_CHANGE_SKIPPED;
                ios_apply_msg(c, "%s is not offered by this kernel or device", c->key);
                return 1;
        }
        if (e < 0) {
                c->state = IOS_CHANGE_FAILED;
                c->error = e;
                ios_apply_msg(c, "cannot set %s to \"%s\": %s", c->key, c->wanted,
                           e == -EINVAL ? "value refused by the kernel" : ios_errno_reason(e));
                return e;
        }
        free(c->after);
        c->after = NULL;
        e = ios_sysfs_read_string(d->fd, c->key, &c->after);
        if (e < 0) {
                c->state = IOS_CHANGE_FAILED;
                c->error = e;
                ios_apply_msg(c, "%s: cannot read back after writing \"%s\": %s", c->key, c->wanted, ios_errno_reason(e));
                return e;
        }
        if (!ios_apply_same(d, c->key, c->after, c->wanted)) {
                c->state = IOS_CHANGE_FAILED;
                c->error = -EINVAL;
                ios_apply_msg(c, "%s: kernel stored \"%s\", not \"%s\"", c->key, c->after, c->wanted);
                return -EINVAL;
        }
        c->state = IOS_CHANGE_APPLIED;
        return 0;
}
