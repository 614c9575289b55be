/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * writers.c: who else writes a disk's queue attributes: the list that
 * writers-tuned.c (the active TuneD profile) and writers-udev.c (udev
 * rules) build in writers-list.c, read under conf_root so a captured tree
 * shows its own writers; a writer against a disk, and its line.
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "writers-internal.h"
#include "strv.h"

int ios_writers_scan(const char *conf_root, struct ios_writers *ret)
{
        struct ios_writers ws = {};
        const char *root = conf_root ? conf_root : "";
        _cleanup_free_ char *r = strdup(root);
        int e;

        if (!r)
                return -ENOMEM;
        for (size_t l = strlen(r); l > 0 && r[l - 1] == '/'; l--)
                r[l - 1] = '\0';
        e = ios_writers_scan_tuned(&ws, r);
        if (e >= 0)
                e = ios_writers_scan_udev(&ws, r);
        if (e < 0) {
                ios_writers_done(&ws);
                return e;
        }
        *ret = ws;
        return 0;
}

/* TuneD's devices= ("sda,sdb", "!sdc", "sd*") or a udev KERNEL=="glob" against a disk name. */
static bool devglob_matches(const char *glob, const char *dev)
{
        _cleanup_(ios_strv_freep) char **l = NULL;
        bool any_positive = false, hit = false;

        if (!glob)
                return true;
        if (ios_strv_split(glob, ",| \t", &l) < 0)
                return true;    /* out of memory: rather name a writer too many */
        for (char **p = l; p && *p; p++) {
                if (**p == '!') {
                        if (fnmatch(*p + 1, dev, 0) == 0)
                                return false;
                        continue;
                }
                any_positive = true;
                hit = hit || fnmatch(*p, dev, 0) == 0;
        }
        return any_positive ? hit : true;
}

bool ios_writer_applies(const struct ios_writer *w, const char *dev, const char *key)
{
        if (key && !streq(w->key, key) && !streq(w->key, "*"))
                return false;
        return devglob_matches(w->devglob, dev);
}

int ios_writers_eval(const struct ios_writers *ws, struct ios_device *d, struct ios_writer_eval **ret)
{
        struct ios_writer_eval *v = calloc(ws->n + 1, sizeof(*v));
        int e;

        if (!v)
                return -ENOMEM;
        for (size_t i = 0; i < ws->n; i++)
                v[i].verdict = devglob_matches(ws->w[i].devglob, d->name) ? IOS_WRITER_YES : IOS_WRITER_NO;
        e = ios_udev_rules_eval(ws, d, v);
        if (e < 0) {
                free(v);
                return e;
        }
        *ret = v;
        return 0;
}

const char *ios_writer_line(const struct ios_writer *w, char *buf, size_t n)
{
        if (streq(w->kind, "tuned") && w->op == IOS_WRITER_MULTIPLY)
                snprintf(buf, n, "TuneD profile %s sets %s to its own value times %s "
                         "(readahead_multiply, %s:%u)",
                         w->name ? w->name : "?", w->key, w->value, w->file, w->line);
        else if (streq(w->kind, "tuned"))
                snprintf(buf, n, "TuneD profile %s sets %s=%s (%s:%u)", w->name ? w->name : "?", w->key, w->value,
                         w->file, w->line);
        else if (w->op == IOS_WRITER_RUN_FINAL)
                snprintf(buf, n, "udev rule sets RUN%s\"%s\": iosched's rule does not run for the disk, "
                         "that rule wins for good (%s:%u)",
                         w->final ? ":=" : "=", w->value, w->file, w->line);
        else
                snprintf(buf, n, "udev rule sets ATTR{%s}%s\"%s\"%s (%s:%u)", w->key, w->final ? ":=" : "=",
                         w->value, w->final ? " (udev reads := as = for ATTR)" : "", w->file, w->line);
        return buf;
}

void ios_writers_done(struct ios_writers *ws)
{
        for (size_t i = 0; i < ws->n; i++) {
                free(ws->w[i].kind);
                free(ws->w[i].name);
                free(ws->w[i].devglob);
                free(ws->w[i].key);
                free(ws->w[i].value);
                free(ws->w[i].file);
        }
        free(ws->w);
        ios_udev_rules_free(ws->udev);
        *ws = (struct ios_writers){};
}
