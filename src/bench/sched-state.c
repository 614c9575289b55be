/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sched-state.c: save, switch and restore a disk's I/O scheduler state, for
 * --compare here and for a later `iosched-apply validate`.  A snapshot is
 * taken before the first change and holds the scheduler and every writable
 * attribute under queue/ and queue/iosched/, because a switch changes more
 * than the scheduler: the kernel resets nr_requests to the new elevator's
 * default, bfq turns writeback throttling (wbt_lat_usec) off and the next
 * elevator turns it back on, and the old elevator's iosched/ tunables vanish
 * and come back with defaults.  Restore therefore writes the scheduler
 * first, then its iosched/ values, then queue/ tunables, each only where it
 * differs from the snapshot, and reads everything back.  It never depends on
 * the run having worked: the caller arms the snapshot, and an atexit()
 * handler restores it if the process exits before the main path did (signals
 * only set a flag; the main path restores).  All sysfs I/O goes through the
 * library's attribute helpers on the disk's directory fd.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "macro.h"

static void attrs_free(struct bench_attr *a, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                free(a[i].attr);
                free(a[i].value);
        }
        free(a);
}

void bench_sched_state_done(struct bench_sched_state *s)
{
        free(s->scheduler);
        attrs_free(s->queue, s->n_queue);
        attrs_free(s->iosched, s->n_iosched);
        memset(s, 0, sizeof(*s));
}

const char *bench_sched_state_get(const struct bench_sched_state *s, const char *attr)
{
        if (streq(attr, "queue/scheduler"))
                return s->scheduler;
        for (size_t i = 0; i < s->n_queue; i++)
                if (streq(s->queue[i].attr, attr))
                        return s->queue[i].value;
        for (size_t i = 0; i < s->n_iosched; i++)
                if (streq(s->iosched[i].attr, attr))
                        return s->iosched[i].value;
        return NULL;
}

static int cmp_attr(const void *a, const void *b)
{
        return strcmp(((const struct bench_attr *)a)->attr, ((const struct bench_attr *)b)->attr);
}

/* Every readable, owner-writable regular file in dir (relative to the disk). */
static int snapshot_dir(int diskfd, const char *dir, struct bench_attr **ret, size_t *ret_n)
{
        _cleanup_close_ int fd = openat(diskfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        struct bench_attr *l = NULL;
        size_t n = 0, cap = 0;
        struct dirent *de;
        DIR *d;

        *ret = NULL;
        *ret_n = 0;
        if (fd < 0)
                return errno == ENOENT ? 0 : -errno;
        d = fdopendir(fd);
        if (!d)
                return -errno;
        fd = -1;
        while ((de = readdir(d))) {
                _cleanup_free_ char *attr = NULL, *val = NULL;
                struct stat st;

                if (de->d_name[0] == '.' || streq(de->d_name, "scheduler"))
                        continue;
                if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
                    !S_ISREG(st.st_mode) || !(st.st_mode & S_IWUSR))
                        continue;
                if (asprintf(&attr, "%s/%s", dir, de->d_name) < 0)
                        goto nomem;
                /* write-only or erroring attributes cannot be restored anyway */
                if (ios_sysfs_read_string(diskfd, attr, &val) < 0)
                        continue;
                if (n == cap) {
                        struct bench_attr *nl = realloc(l, (cap = cap ? cap * 2 : 32) * sizeof(*l));
                        if (!nl)
                                goto nomem;
                        l = nl;
                }
                l[n].attr = TAKE_PTR(attr);
                l[n].value = TAKE_PTR(val);
                n++;
        }
        closedir(d);
        if (n)
                qsort(l, n, sizeof(*l), cmp_attr);
        *ret = l;
        *ret_n = n;
        return 0;
nomem:
        closedir(d);
        attrs_free(l, n);
        return -ENOMEM;
}

int bench_sched_save(struct ios_device *d, struct bench_sched_state *s)
{
        _cleanup_free_ char *text = NULL;
        char **avail = NULL;
        int r;

        memset(s, 0, sizeof(*s));
        s->dev = d;
        r = ios_sysfs_read_string(d->fd, "queue/scheduler", &text);
        if (r < 0 && r != -ENOENT)
                return r;
        if (r == 0) {
                r = ios_sched_parse(text, &s->scheduler, &avail);
                ios_strv_free(avail);
                if (r < 0)
                        return r;
        }
        r = snapshot_dir(d->fd, "queue", &s->queue, &s->n_queue);
        if (r >= 0)
                r = snapshot_dir(d->fd, "queue/iosched", &s->iosched, &s->n_iosched);
        if (r < 0) {
                bench_sched_state_done(s);
                return r;
        }
        return 0;
}

static bool sched_is(const struct ios_device *d, const char *sched)
{
        const char *alias;

        if (!d->sched_current)
                return false;
        if (streq(d->sched_current, sched))
                return true;
        alias = ios_sched_alias(sched, !d->blk_mq);
        return alias && streq(d->sched_current, alias);
}

int bench_sched_switch(struct ios_device *d, const char *sched,
                       const struct bench_attr *extra, size_t n_extra)
{
        int r;

        r = ios_sysfs_write_string(d->fd, "queue/scheduler", sched);
        if (r < 0)
                return r;
        r = ios_device_refresh_sched(d);
        if (r < 0)
                return r;
        if (!sched_is(d, sched))
                return -EIO;            /* the kernel kept another one */
        for (size_t i = 0; i < n_extra; i++) {
                r = ios_sysfs_write_string(d->fd, extra[i].attr, extra[i].value);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* Write attr back to want if it reads differently; 0, or -errno. */
static int put_back(int fd, const char *attr, const char *want)
{
        _cleanup_free_ char *now = NULL;
        int r;

        r = ios_sysfs_read_string(fd, attr, &now);
        if (r == 0 && streq(now, want))
                return 0;
        return ios_sysfs_write_string(fd, attr, want);
}

static int add_bad(char ***bad, const char *attr, const char *want, const char *now)
{
        if (!bad)
                return 0;
        return ios_strv_pushf(bad, "%s: want \"%s\", is \"%s\"", attr, want, now ? now : "(unreadable)");
}

int bench_sched_verify(const struct bench_sched_state *s, char ***ret_bad)
{
        const struct bench_attr *lists[2] = { s->iosched, s->queue };
        const size_t ns[2] = { s->n_iosched, s->n_queue };
        char **bad = NULL;
        int r;

        if (s->scheduler) {
                _cleanup_free_ char *text = NULL, *cur = NULL;
                char **avail = NULL;

                r = ios_sysfs_read_string(s->dev->fd, "queue/scheduler", &text);
                if (r == 0 && ios_sched_parse(text, &cur, &avail) == 0)
                        ios_strv_free(avail);
                if (!cur || !streq(cur, s->scheduler))
                        add_bad(&bad, "queue/scheduler", s->scheduler, cur);
        }
        for (int k = 0; k < 2; k++)
                for (size_t i = 0; i < ns[k]; i++) {
                        _cleanup_free_ char *now = NULL;

                        if (ios_sysfs_read_string(s->dev->fd, lists[k][i].attr, &now) < 0 ||
                            !streq(now, lists[k][i].value))
                                add_bad(&bad, lists[k][i].attr, lists[k][i].value, now);
                }
        if (bad) {
                if (ret_bad)
                        *ret_bad = bad;
                else
                        ios_strv_free(bad);
                return -EIO;
        }
        return 0;
}

static struct bench_sched_state *armed;
static void (*armed_report)(const struct bench_sched_state *s, int r, char **bad);

static void restore_atexit(void)
{
        char **bad = NULL;
        int r;

        if (!armed || !armed->armed)
                return;
        r = bench_sched_restore(armed, &bad);
        if (armed_report)
                armed_report(armed, r, bad);
        ios_strv_free(bad);
}

void bench_sched_arm(struct bench_sched_state *s,
                     void (*report)(const struct bench_sched_state *s, int r, char **bad))
{
        static bool registered;

        if (!registered && atexit(restore_atexit) == 0)
                registered = true;
        armed = s;
        armed_report = report;
        s->armed = true;
}

int bench_sched_restore(struct bench_sched_state *s, char ***ret_bad)
{
        int r, first = 0;

        s->armed = false;
        if (armed == s)
                armed = NULL;
        /* 1. the scheduler: a switch resets what follows */
        if (s->scheduler) {
                _cleanup_free_ char *text = NULL, *cur = NULL;
                char **avail = NULL;

                if (ios_sysfs_read_string(s->dev->fd, "queue/scheduler", &text) == 0 &&
                    ios_sched_parse(text, &cur, &avail) == 0)
                        ios_strv_free(avail);
                if (!cur || !streq(cur, s->scheduler)) {
                        r = ios_sysfs_write_string(s->dev->fd, "queue/scheduler", s->scheduler);
                        if (r < 0 && !first)
                                first = r;
                }
        }
        /* 2. the elevator's own tunables, 3. the queue's (nr_requests, wbt ...) */
        for (size_t i = 0; i < s->n_iosched; i++) {
                r = put_back(s->dev->fd, s->iosched[i].attr, s->iosched[i].value);
                if (r < 0 && !first)
                        first = r;
        }
        for (size_t i = 0; i < s->n_queue; i++) {
                r = put_back(s->dev->fd, s->queue[i].attr, s->queue[i].value);
                if (r < 0 && !first)
                        first = r;
        }
        (void)ios_device_refresh_sched(s->dev);
        r = bench_sched_verify(s, ret_bad);
        if (r < 0)
                return r;
        /* a write that failed but left the right value behind is not a failure */
        (void)first;
        return 0;
}
