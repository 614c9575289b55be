/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * upfront.c: what a run that switches a disk's scheduler (--compare) says
 * before the first switch, on stderr: which disk and why that one (the
 * device the job names, or the disk holding the file, or the current
 * directory when the job names no path), for how long (rounds x variants x
 * a round, a round being a time or "until each job has done its size", fio's
 * end conditions, jobs.c), and what the disk holds: filesystems mounted
 * from it or its partitions (/proc/self/mountinfo by device number), swap on
 * it (/proc/swaps), and md/dm devices built on it (holders/ in sysfs).
 * Every file is read through the library's root (ios_ctx), so a --sysroot
 * tree answers for sysfs; what cannot be read is said, never guessed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "bench.h"
#include "compare.h"
#include "macro.h"
#include "strv.h"

/*
 * A job's end: by its amount (bytes, per thread), by time, or both (the
 * first).  region: the bytes of a thread's region, which end a job that is
 * not time_based when nothing smaller does (fio's rule; 0: not known).
 */
static void job_end(const struct bench_opts *j, uint64_t region, uint64_t *amount, uint64_t *time_ns)
{
        *amount = 0;
        *time_ns = j->runtime_ns;
        if (j->time_based)
                return;         /* its runtime=, whatever its amount (fio's rule, jobs.c) */
        if (j->io_size.set)
                *amount = j->io_size.bytes;
        else if (j->size.set && j->size.pct == 0)
                *amount = j->size.bytes;        /* not yet settled (the fio backend's job) */
        if (j->number_ios) {
                uint64_t n = j->number_ios * j->bs[bench_rw_reads(j->rw) ? BENCH_READ : BENCH_WRITE];

                *amount = !*amount || n < *amount ? n : *amount;
        }
        *amount = bench_job_passes(j, *amount);
        if (!*amount)
                *amount = bench_job_amount(j, region);  /* as the run's loop ends it */
        if (*amount && !j->runtime_set)
                *time_ns = 0;
}

double bench_round_words(const struct bench_opts *o, uint64_t region, char *buf, size_t len)
{
        unsigned n = o->njobs ? o->njobs : 1, by_amount = 0;
        _cleanup_free_ struct bench_window *w = calloc(n, sizeof(*w));
        uint64_t amount = 0, t, ramp, idle, end = 0;
        char a[32], c[32];

        if (!w) {
                snprintf(buf, len, "of a length not worked out (no memory)");
                return 0;
        }
        /* each job's end, and where fio starts it (place.c): jobs one after another add up */
        for (unsigned i = 0; i < n; i++) {
                uint64_t am;

                w[i].job = o->njobs ? &o->jobs[i] : o;
                job_end(w[i].job, region, &am, &w[i].len);
                by_amount += am > 0;
                amount = am > amount ? am : amount;
        }
        bench_jobs_place(w, n);
        for (unsigned i = 0; i < n; i++)
                end = w[i].to > end ? w[i].to : end;
        t = bench_windows_cover(w, n, false);
        ramp = bench_windows_cover(w, n, true) - t;
        /* none running, a startdelay= not yet over: known only when every job's length is */
        idle = by_amount ? 0 : end - t - ramp;
        snprintf(c, sizeof(c), "%.1fs ramp, then ", (double)ramp / 1e9);
        bench_fmt_bytes(a, sizeof(a), (double)amount);
        if (by_amount == n && t == 0)
                snprintf(buf, len, "%suntil each job has done its size (%s%s per thread)", ramp ? c : "",
                         n > 1 ? "up to " : "", a);
        else if (by_amount)
                snprintf(buf, len, "%sup to %.1fs or %s per thread, whichever comes first", ramp ? c : "",
                         (double)t / 1e9, a);
        else if (idle)
                snprintf(buf, len, "%.1fs (+%.1fs ramp, +%.1fs start delay)", (double)t / 1e9,
                         (double)ramp / 1e9, (double)idle / 1e9);
        else
                snprintf(buf, len, "%.1fs (+%.1fs ramp)", (double)t / 1e9, (double)ramp / 1e9);
        return t ? (double)end / 1e9 : 0;
}

/* Every dev_t of the disk and its partitions, and their names; the partitions through sysfs. */
struct parts {
        dev_t dev[256];
        char *name[256];
        unsigned n;
};

static void parts_read(const struct ios_device *disk, struct parts *p)
{
        _cleanup_(ios_strv_freep) char **names = NULL;

        p->dev[0] = makedev(disk->major, disk->minor);
        p->name[0] = strdup(disk->name);
        p->n = p->name[0] ? 1 : 0;
        if (ios_sysfs_list(disk->fd, ".", &names) < 0)
                return;
        for (char **s = names; s && *s && p->n < ELEMENTSOF(p->dev); s++) {
                _cleanup_free_ char *dev = NULL;
                char attr[300];
                unsigned ma, mi;

                snprintf(attr, sizeof(attr), "%s/partition", *s);
                if (!ios_sysfs_exists(disk->fd, attr))
                        continue;
                snprintf(attr, sizeof(attr), "%s/dev", *s);
                if (ios_sysfs_read_string(disk->fd, attr, &dev) < 0 || sscanf(dev, "%u:%u", &ma, &mi) != 2)
                        continue;
                p->dev[p->n] = makedev(ma, mi);
                p->name[p->n] = strdup(*s);
                if (p->name[p->n])
                        p->n++;
        }
}

static const char *parts_find(const struct parts *p, dev_t d)
{
        for (unsigned i = 0; i < p->n; i++)
                if (p->dev[i] == d)
                        return p->name[i];
        return NULL;
}

/* /proc/swaps writes space, tab, newline and backslash as \040 etc. */
static void unescape(char *s)
{
        char *w = s;

        for (; *s; s++)
                if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
                        *w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
                        s += 3;
                } else
                        *w++ = *s;
        *w = '\0';
}

/* "ext4 mounted on /mnt (loop3p1)" for each mount of p's devices, on m;
 * -errno when mountinfo cannot be read. */
static int held_mounts(struct ios_ctx *r, const struct parts *p, FILE *m, unsigned *k)
{
        _cleanup_free_ char *mi = NULL;
        struct bench_mount *l = NULL;
        size_t n = 0;
        int e = ios_ctx_read_file(r, "/proc/self/mountinfo", &mi, NULL);

        if (e >= 0)
                e = bench_mounts_of(mi, p->dev, p->n, &l, &n);   /* mounts.c */
        if (e < 0)
                return e;
        for (size_t i = 0; i < n; i++)
                fprintf(m, "%s%s mounted on %s (%s)", (*k)++ ? ", " : "", l[i].fstype, l[i].target,
                        parts_find(p, l[i].dev));
        bench_mounts_free(l, n);
        return 0;
}

/* "swap /dev/loop3p2" (a device of p) or "swap file /swapfile" (on a filesystem of p). */
static int held_swap(struct ios_ctx *r, const struct parts *p, FILE *m, unsigned *k)
{
        _cleanup_free_ char *sw = NULL;
        int e = ios_ctx_read_file(r, "/proc/swaps", &sw, NULL);
        bool first = true;

        if (e < 0)
                return e;
        for (char *line = sw, *nl; line && *line; line = nl) {
                char path[4096];
                struct stat st;
                int fd;

                nl = strchr(line, '\n');
                if (nl)
                        *nl++ = '\0';
                if (first || sscanf(line, "%4095s", path) != 1) {
                        first = false;          /* the header */
                        continue;
                }
                unescape(path);
                fd = ios_ctx_open(r, path, O_PATH);
                if (fd < 0)
                        continue;
                if (fstat(fd, &st) == 0 && (S_ISBLK(st.st_mode) ? parts_find(p, st.st_rdev) : parts_find(p, st.st_dev)))
                        fprintf(m, "%sswap %s%s", (*k)++ ? ", " : "", S_ISBLK(st.st_mode) ? "" : "file ", path);
                close(fd);
        }
        return 0;
}

/* "dm-0 (vg-root) over loop3p3", "md0 over loop3" for each holder of p's devices. */
static void held_holders(struct ios_ctx *r, const struct ios_device *disk, const struct parts *p, FILE *m,
                         unsigned *k)
{
        for (unsigned i = 0; i < p->n; i++) {
                _cleanup_(ios_strv_freep) char **h = NULL;
                char sub[300];

                snprintf(sub, sizeof(sub), "%s/holders", i == 0 ? "." : p->name[i]);
                if (ios_sysfs_list(disk->fd, sub, &h) < 0)
                        continue;
                for (char **s = h; s && *s; s++) {
                        _cleanup_free_ char *dmname = NULL;
                        char path[300];

                        snprintf(path, sizeof(path), "/sys/class/block/%s/dm/name", *s);
                        if (ios_ctx_read_file(r, path, &dmname, NULL) == 0)
                                dmname[strcspn(dmname, "\n")] = '\0';
                        fprintf(m, "%s%s%s%s%s over %s", (*k)++ ? ", " : "", *s, dmname ? " (" : "",
                                dmname ? dmname : "", dmname ? ")" : "", p->name[i]);
                }
        }
}

/* Why this disk: the device the job names, the disk of the file, or of the current directory. */
static void why_disk(const struct bench_opts *o, const char *path, bool is_bdev, char *buf, size_t len)
{
        const char *named = o->filename ? o->filename : o->directory;
        char cwd[4096];

        if (is_bdev) {
                snprintf(buf, len, "the device %s names, %s", o->observe ? "--observe" : "the job", path);
                return;
        }
        if (named && named[0] == '/') {
                snprintf(buf, len, "the disk holding %s", path ? path : named);
                return;
        }
        if (!getcwd(cwd, sizeof(cwd)))
                snprintf(cwd, sizeof(cwd), ".");
        snprintf(buf, len, "the disk holding the current directory %s: the job names %s%s%s", cwd,
                 named ? "the relative path '" : "no file", named ? named : "", named ? "'" : "");
}

void bench_upfront_print(FILE *f, const struct bench_opts *o, const struct ios_device *disk, const char *path,
                         bool is_bdev, uint64_t region, unsigned nvariants, const char *note)
{
        struct ios_ctx *r = disk->ctx;
        struct parts p = { .n = 0 };
        char why[4400], round[160], total[64] = "";
        double secs;
        _cleanup_free_ char *held = NULL;
        size_t hlen = 0;
        unsigned k = 0;
        FILE *m;
        int em, es;

        why_disk(o, path, is_bdev, why, sizeof(why));
        secs = bench_round_words(o, region, round, sizeof(round));
        fprintf(f, "iosched-bench: %s will switch the I/O scheduler of %s (%s), restored at the end\n",
                o->observe ? "--observe" : "--compare", disk->name, why);
        if (secs > 0)
                snprintf(total, sizeof(total), ": %s%.0fs in all",
                         strstr(round, "up to") ? "up to " : "about ", secs * o->loops * nvariants);
        fprintf(f, "iosched-bench: for %u %s x %u %s, each round %s%s\n", o->loops,
                o->loops == 1 ? "round" : "rounds", nvariants, nvariants == 1 ? "variant" : "variants", round, total);
        parts_read(disk, &p);
        m = open_memstream(&held, &hlen);
        if (m) {
                em = held_mounts(r, &p, m, &k);
                es = held_swap(r, &p, m, &k);
                held_holders(r, disk, &p, m, &k);
                if (em < 0 || es < 0)
                        fprintf(m, "%s(cannot read %s)", k++ ? ", " : "",
                                em < 0 && es < 0 ? "mountinfo or swaps" : em < 0 ? "mountinfo" : "swaps");
                fclose(m);
        }
        if (k)
                fprintf(f, "iosched-bench: %s holds: %s\n", disk->name, held ? held : "");
        else
                fprintf(f, "iosched-bench: %s holds no mounted filesystem, no swap and no md/dm member\n", disk->name);
        if (note)
                fprintf(f, "iosched-bench: note: %s\n", note);
        for (unsigned i = 0; i < p.n; i++)
                free(p.name[i]);
}
