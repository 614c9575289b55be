/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jobtarget.c: the files a run's jobs work on.  Jobs that name the same
 * file (after realpath) share one target, opened once with the union of
 * what they need (writes, hence --allow-write and O_EXCL on a block device,
 * which a second exclusive open of the same device would fail); a job that
 * wants another O_DIRECT than the target was opened with gets a second,
 * non-exclusive descriptor.  directory= without filename= gives every thread
 * its own file named as fio names it, DIR/JOBNAME.THREAD.0, created with
 * size= (or filesize=) and removed afterwards like every file iosched-bench
 * creates; with neither filename= nor directory= the same names are made in
 * the current directory, as fio does.  Each
 * thread gets its target, descriptor and region (struct bench_file).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "bench.h"
#include "macro.h"

struct want {
        char *path, *key;               /* key NULL: never shared (the null engine) */
        const struct bench_opts *job;
        unsigned target;                /* index: 0 the first target, k others[k-1] */
};

/* What a target must be opened for: the union over the threads on it. */
struct need {
        unsigned first;                 /* the want whose job and path open it */
        bool writes;
        uint64_t create_size;
};

static struct bench_target *target_at(struct bench_target *t, unsigned k)
{
        return k == 0 ? t : &t->others[k - 1];
}

static int thread_path(const struct bench_opts *j, unsigned k, char **ret)
{
        if (j->engine->flags & BENCH_ENGINE_NOFILE)
                *ret = strdup(j->filename ? j->filename : "null");
        else if (j->directory && !j->filename)
                return asprintf(ret, "%s/%s.%u.0", j->directory, j->name, k) < 0 ? -ENOMEM : 0;
        else if (j->directory)
                return asprintf(ret, "%s/%s", j->directory, j->filename) < 0 ? -ENOMEM : 0;
        else if (!j->filename)          /* fio's default: JOBNAME.THREAD.0 in the current directory */
                return asprintf(ret, "%s.%u.0", j->name, k) < 0 ? -ENOMEM : 0;
        else
                *ret = strdup(j->filename);
        return *ret ? 0 : -ENOMEM;
}

/* Every thread's file; threads on the same file get the same target index. */
static int plan(const struct bench_opts *g, struct want *w, struct need *nd, unsigned *ret_ntargets)
{
        unsigned n = 0, nt = 0;
        int k;

        for (unsigned j = 0; j < g->njobs; j++) {
                const struct bench_opts *o = &g->jobs[j];
                uint64_t sz = o->filesize.set ? o->filesize.bytes :
                              o->size.set && o->size.pct == 0 ? o->offset.bytes + o->size.bytes : 0;
                bool nofile = o->engine->flags & BENCH_ENGINE_NOFILE;

                for (unsigned i = 0; i < o->numjobs; i++, n++) {
                        char real[PATH_MAX];
                        struct want *x = &w[n];

                        k = thread_path(o, i, &x->path);
                        if (k < 0)
                                return k;
                        if (!nofile && !(x->key = strdup(realpath(x->path, real) ? real : x->path)))
                                return -ENOMEM;
                        x->job = o;
                        x->target = nt;
                        if (nofile && i > 0)
                                x->target = w[n - 1].target;    /* a null job's threads: one pseudo target */
                        for (unsigned p = 0; p < n && x->key; p++)
                                if (w[p].key && streq(x->key, w[p].key)) {
                                        x->target = w[p].target;
                                        break;
                                }
                        if (x->target == nt)
                                nd[nt++] = (struct need) { .first = n };
                        nd[x->target].writes |= bench_rw_writes(o->rw);
                        if (sz > nd[x->target].create_size)
                                nd[x->target].create_size = sz;
                }
        }
        *ret_ntargets = nt;
        return 0;
}

/* --target-device=DEV: every target is the block device DEV (a path, or a name under /dev) */
static int check_target_device(const struct bench_opts *g, const struct want *w, const struct need *nd, unsigned nt,
                               struct bench_target *t, struct bench_error *e)
{
        _cleanup_free_ char *dev = NULL;
        struct stat st;

        if (asprintf(&dev, "%s%s", strchr(g->target_device, '/') ? "" : "/dev/", g->target_device) < 0)
                return -ENOMEM;
        if (stat(dev, &st) < 0 || !S_ISBLK(st.st_mode))
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "--target-device=%s: not a block device",
                                       g->target_device);
        for (unsigned i = 0; i < nt; i++) {
                const struct bench_target *x = target_at(t, i);

                if (!x->is_bdev || makedev(x->major, x->minor) != st.st_rdev)
                        return bench_error_set(e, BENCH_ERR_REFUSED, EPERM, "job '%s': %s is not --target-device %s",
                                               w[nd[i].first].job->name, x->path, g->target_device);
        }
        return 0;
}

int bench_target_open(const struct bench_opts *g, struct ios_ctx *r, struct bench_target *t,
                      struct bench_error *e)
{
        unsigned n = g->nthreads, nt = 0, th = 0;
        struct want *w = calloc(n, sizeof(*w));
        struct need *nd = calloc(n, sizeof(*nd));
        int k;

        struct bench_target *others = NULL;
        struct bench_file *files = NULL;

        memset(t, 0, sizeof(*t));
        t->fd = -1;
        k = !w || !nd || n == 0 ? -ENOMEM : plan(g, w, nd, &nt);
        if (k == 0 && nt > 1 && !(others = calloc(nt - 1, sizeof(*others))))
                k = -ENOMEM;
        if (k == 0 && !(files = calloc(n, sizeof(*files))))
                k = -ENOMEM;
        for (unsigned i = 0; k == 0 && i + 1 < nt; i++)
                others[i].fd = -1;
        /* open each target once, as its first thread's job, with the union of the writes */
        for (unsigned i = 0; i < nt && k == 0; i++)
                k = bench_target_open_path(w[nd[i].first].job, w[nd[i].first].path, nd[i].writes,
                                           nd[i].create_size, r, i == 0 ? t : &others[i - 1], e);
        /* t owns them all from here, also on failure */
        t->others = others;
        t->n_others = others ? nt - 1 : 0;
        t->files = files;
        t->n_files = files ? n : 0;
        /* each thread: its descriptor and region */
        for (unsigned j = 0; j < g->njobs && k == 0; j++) {
                const struct bench_opts *o = &g->jobs[j];

                for (unsigned i = 0; i < o->numjobs && k == 0; i++, th++) {
                        struct bench_target *tg = target_at(t, w[th].target);
                        struct bench_file *f = &t->files[th];

                        f->tg = tg;
                        f->fd = tg->fd;
                        if (tg->fd >= 0 && o->direct != tg->direct) {
                                f->fd = open(tg->path, (tg->writes ? O_RDWR : O_RDONLY) | O_CLOEXEC |
                                                       (o->direct ? O_DIRECT : 0));
                                if (f->fd < 0) {
                                        k = bench_error_set(e, BENCH_ERR_SYSTEM, errno, "cannot open %s: %s",
                                                            tg->path, ios_strerror(errno));
                                        break;
                                }
                                f->own_fd = true;
                        }
                        k = bench_target_region(o, tg, &f->region_start, &f->region_len, e);
                        if (k == 0 && g->compare && tg->fd >= 0 && (tg->major != t->major || tg->minor != t->minor))
                                k = bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                                    "--compare: job '%s' is on %s, another device than %s: "
                                                    "a comparison switches one device's scheduler",
                                                    o->name, tg->path, t->path);
                }
        }
        if (k == 0 && g->target_device)
                k = check_target_device(g, w, nd, nt, t, e);
        if (k == 0) {
                t->region_start = t->files[0].region_start;
                t->region_len = t->files[0].region_len;
        }
        for (unsigned i = 0; w && i < n; i++) {
                free(w[i].path);
                free(w[i].key);
        }
        free(w);
        free(nd);
        return k;
}

void bench_target_close(struct bench_target *t)
{
        for (unsigned i = 0; t->files && i < t->n_files; i++)
                if (t->files[i].own_fd && t->files[i].fd >= 0)
                        close(t->files[i].fd);
        free(t->files);
        t->files = NULL;
        t->n_files = 0;
        for (unsigned i = 0; t->others && i < t->n_others; i++)
                bench_target_close_one(&t->others[i]);
        free(t->others);
        t->others = NULL;
        t->n_others = 0;
        bench_target_close_one(t);
}

uint64_t bench_target_max_region(const struct bench_target *t)
{
        uint64_t m = t->region_len;

        for (unsigned i = 0; i < t->n_files; i++)
                if (t->files[i].region_len > m)
                        m = t->files[i].region_len;
        if (m)
                return m;
        /* no region resolved here (the fio backend's run): fio's default, the whole file or device */
        m = t->dev_size;
        for (unsigned i = 0; i < t->n_others; i++)
                if (t->others[i].dev_size > m)
                        m = t->others[i].dev_size;
        return m;
}
