/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fight.c: a value the drift check puts back again and again means that
 * something else keeps writing it.  The second time the same disk and key
 * is restored within IOSD_FIGHT_WINDOW_MS, say so once (the attribute,
 * both values and the other writers the library can see: the active TuneD
 * profile, udev rules) instead of fighting silently.  A disk removed and
 * added again under the same number (loop devices, a SCSI rescan) starts
 * with the kernel's defaults: a new disk sequence number (diskseq, 5.15+)
 * starts the count again, it is no fight.  Once the kernel has shown a
 * diskseq, a disk whose diskseq cannot be read is being removed (its sysfs
 * directory is emptied): no fight either.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <sys/sysmacros.h>

#include "state.h"
#include "macro.h"
#include "grow.h"

#define IOSD_FIGHT_WINDOW_MS (10 * 60 * 1000ULL)

static struct fight {
        dev_t dev;
        uint64_t seq;           /* diskseq, 0 when the kernel has none */
        char *key;
        uint64_t last_ms;
        bool warned;
} *fights;
static size_t nfights, capfights;

/* The writers of attr that apply to this disk, each judged against it as
 * status and --check judge them (ios_writers_eval: a udev rule whose match
 * keys say no is none; one with a key not evaluated "may" write it). */
static void warn(const struct iosd_daemon *d, struct ios_device *dev, const struct ios_change *c)
{
        /* the plan's "scheduler" is the writers' queue/scheduler */
        const char *attr = streq(c->key, "scheduler") ? "queue/scheduler" : c->key, *name = dev->name;
        _cleanup_free_ struct ios_writer_eval *ev = NULL;
        struct ios_writers ws = {};
        char *list = NULL;
        size_t len = 0;
        FILE *f;

        f = open_memstream(&list, &len);
        if (f && ios_writers_scan(d->o->config_root, &ws) >= 0) {
                if (ws.n && ios_writers_eval(&ws, dev, &ev) < 0)
                        ev = NULL;      /* out of memory: by name alone */
                for (size_t i = 0; i < ws.n; i++) {
                        char line[1024];

                        if (!ios_writer_applies(&ws.w[i], name, attr) || (ev && ev[i].verdict == IOS_WRITER_NO))
                                continue;
                        fprintf(f, "%s%s", ftell(f) ? "; " : "", ios_writer_line(&ws.w[i], line, sizeof(line)));
                        if (ev && ev[i].verdict == IOS_WRITER_MAYBE)
                                fprintf(f, " (may apply: %s not evaluated)", ev[i].why ? ev[i].why : "a key");
                }
        }
        if (f)
                fclose(f);
        iosd_log(LOG_WARNING, "%s: %s keeps being changed by something else (found '%s', policy wants '%s'); "
                 "other writers: %s; restoring it each drift check, said once",
                 name, attr, iosd_str(c->current), iosd_str(c->wanted),
                 list && *list ? list : "none visible (TuneD, udev rules): look for a service or script");
        free(list);
        ios_writers_done(&ws);
}

void iosd_fight_note(const struct iosd_daemon *d, struct ios_device *disk, uint64_t seq, const struct ios_change *c)
{
        dev_t dev = makedev(disk->major, disk->minor);
        static bool have_seq;
        uint64_t now = iosd_now_ms();
        struct fight *n;

        if (seq)
                have_seq = true;
        else if (have_seq)
                return;         /* the disk is going away */
        for (size_t i = 0; i < nfights; i++) {
                struct fight *f = &fights[i];

                if (f->dev != dev || !streq(f->key, c->key))
                        continue;
                if (f->seq != seq) {            /* another disk under this number */
                        f->seq = seq;
                        f->warned = false;
                } else if (!f->warned && now - f->last_ms <= IOSD_FIGHT_WINDOW_MS) {
                        warn(d, disk, c);
                        f->warned = true;
                }
                f->last_ms = now;
                return;
        }
        n = ios_grow(fights, &capfights, nfights + 1, sizeof(*n));
        if (!n)
                return;         /* out of memory: the restore is still logged */
        fights = n;
        fights[nfights] = (struct fight){ .dev = dev, .seq = seq, .key = strdup(c->key), .last_ms = now };
        if (fights[nfights].key)
                nfights++;
}
