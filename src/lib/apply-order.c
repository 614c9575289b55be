/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * apply-order.c: the order apply.c writes in and the final state it
 * checks.  Which file the running kernel keeps a value in (a value the
 * kernel moved, tunables.c's moved table), the rank of each write (the
 * scheduler, nr_requests, queue/, then what those queue/ writes make the
 * kernel recompute, then iosched/), whether a write of this run reset a
 * value already in place, and the final read-back (settle) that catches
 * what the table does not know.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "device-internal.h"
#include "apply-internal.h"
#include "strv.h"

void ios_kver_get(struct ios_device *d, struct ios_kver *k)
{
        if (k->known)
                return;
        k->known = true;
        if (ios_ctx_kernel_version(d->ctx, &k->major, &k->minor) < 0)
                k->major = k->minor = 0;
}

bool ios_tunable_reset_on(struct ios_device *d, const char *key, const char *by)
{
        struct ios_kver k = {};

        ios_kver_get(d, &k);
        return ios_tunable_resets(key, by, k.major, k.minor);
}

/* Order rank without the others: scheduler, nr_requests, other queue/, iosched/. */
static int rank_of(const char *key)
{
        if (streq(key, "scheduler"))
                return 0;
        if (streq(key, "queue/nr_requests"))
                return 1;
        if (startswith(key, "queue/iosched/"))
                return 4;
        return 2;
}

/*
 * Order rank: a queue/ attribute that another wanted queue/ write makes the
 * running kernel recompute (read_ahead_kb after a queue-limits write on
 * 6.11+, tunables.c) goes after every such write: rank 3.
 */
int ios_apply_rank(struct ios_device *d, const struct ios_wanted *w, const char *key, struct ios_kver *k)
{
        int r = rank_of(key);

        if (r != 2 || !ios_tunable_reset_by(key))
                return r;
        for (size_t i = 0; i < w->n; i++) {
                if (streq(w->s[i].key, key) || rank_of(w->s[i].key) != 2 ||
                    !ios_tunable_resets(key, w->s[i].key, 0, 0))
                        continue;
                ios_kver_get(d, k);
                if (ios_tunable_resets(key, w->s[i].key, k->major, k->minor))
                        return 3;
        }
        return 2;
}

/*
 * The file the running kernel keeps a moved value in (tunables.c's moved
 * table: queue/iosched/async_depth is queue/async_depth from 7.2): the
 * newer spelling where the queue has it or the kernel is that new, the
 * older one else.  Either spelling in a policy lands in the kernel's file.
 */
const char *ios_apply_kernel_key(struct ios_device *d, const char *key, struct ios_kver *k)
{
        unsigned ma, mi;
        const char *other = ios_tunable_moved(key, &ma, &mi), *newer, *older;

        if (!other)
                return key;
        newer = startswith(key, "queue/iosched/") ? other : key;
        older = newer == key ? other : key;
        if (ios_sysfs_exists(d->fd, newer))
                return newer;
        ios_kver_get(d, k);
        return k->major && (k->major > ma || (k->major == ma && k->minor >= mi)) ? newer : older;
}

/* The key of a write before change i, done in this run, that makes the kernel recompute it, or NULL. */
const char *ios_apply_reset_by_write(const struct ios_plan *pl, size_t i, struct ios_kver *k)
{
        const char *key = pl->c[i].key;

        if (!ios_tunable_reset_by(key))
                return NULL;
        for (size_t j = 0; j < i; j++) {
                if (pl->c[j].state != IOS_CHANGE_APPLIED || !ios_tunable_resets(key, pl->c[j].key, 0, 0))
                        continue;
                ios_kver_get(pl->dev, k);
                if (ios_tunable_resets(key, pl->c[j].key, k->major, k->minor))
                        return pl->c[j].key;
        }
        return NULL;
}


/* The keys of the writes after change i that took effect, "a, b", and how many. */
static char *writes_after(const struct ios_plan *pl, size_t i, size_t *ret_n)
{
        char *list = NULL;

        *ret_n = 0;
        for (size_t k = i + 1; k < pl->n; k++)
                if (pl->c[k].state == IOS_CHANGE_APPLIED) {
                        char *t = NULL;

                        if (asprintf(&t, "%s%s%s", list ? list : "", list ? ", " : "", pl->c[k].key) < 0) {
                                free(list);
                                return NULL;
                        }
                        free(list);
                        list = t;
                        (*ret_n)++;
                }
        return list;
}

/*
 * The final state, not each write: once every write is done, each setting
 * is read once more.  A later write can make the kernel recompute an
 * earlier one (on 6.x a queue-limits update recomputes read_ahead_kb from
 * io_opt, and a driver may update its limits on its own meanwhile); such a
 * setting is written again, last, and said in a note naming the writes
 * after it.  Writes that keep undoing each other are a failure after
 * three rounds, with both values: never "applied" for what the kernel
 * does not hold at the end.
 */
int ios_apply_settle(struct ios_plan *pl)
{
        struct ios_device *d = pl->dev;
        int first = 0;

        size_t written = 0;

        for (size_t i = 0; i < pl->n; i++)
                written += pl->c[i].state == IOS_CHANGE_APPLIED;
        /* nothing written, nothing reset: no read more on a disk already in place */
        if (!written)
                return 0;
        for (int round = 0; round < 3; round++) {
                bool again = false;

                for (size_t i = 0; i < pl->n; i++) {
                        struct ios_change *c = &pl->c[i];
                        _cleanup_free_ char *now = NULL, *later = NULL;
                        size_t nlater;
                        int e;

                        if ((c->state != IOS_CHANGE_APPLIED && c->state != IOS_CHANGE_OK) ||
                            streq(c->key, "scheduler"))
                                continue;
                        if (ios_sysfs_read_string(d->fd, c->key, &now) < 0 ||
                            ios_apply_same(d, c->key, now, c->wanted))
                                continue;
                        later = writes_after(pl, i, &nlater);
                        if (round == 2) {
                                c->state = IOS_CHANGE_FAILED;
                                c->error = -EINVAL;
                                ios_apply_msg(
                                        c,
                                        "%s: the kernel holds \"%s\", not \"%s\": written again after %s, "
                                        "it was changed again",
                                        c->key, now, c->wanted, later ? later : "the other writes");
                                if (!first)
                                        first = -EINVAL;
                                continue;
                        }
                        e = ios_apply_write_setting(d, c, false);
                        if (e < 0) {
                                if (!first)
                                        first = e;
                                continue;
                        }
                        again = true;
                        if (round == 0 &&
                            ios_strv_pushf(&pl->notes,
                                           "%s: the kernel had %s after %s%s; written again, last", c->key,
                                           now,
                                           nlater == 1 ? "the write of " :
                                           later       ? "the writes of " :
                                                         "",
                                           later ? later : "the other writes") < 0)
                                return -ENOMEM;
                }
                if (!again)
                        break;
        }
        return first;
}
