/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fiojob.c: what the jobs touch, before fio starts, modelled on fio's
 * rules (the jobs as fio read them: fioread.c).  Per job, its files:
 * filename= (':'-separated, '\:' a colon) under directory='s first entry;
 * else fio's names (filename_format, default $jobname.$jobnum.$filenum,
 * nrfiles per clone, numjobs clones, clone N in directory= entry N mod
 * the count), or the job's own name when that is an existing non-regular
 * file; opendir='s tree; the logs fio writes (write_iolog, write_*_log,
 * verify state).  Whether it changes them: rw= with write or trim,
 * verify, trim_*, fill_device, zonemode=zbd writes, the engines that
 * change files (ftruncate, falloc, filecreate, filedelete, e4defrag), a
 * file smaller than offset+size (fio lays it out again, also for a read
 * job), unlink/unlink_each_loop (an existing file deleted), and a new file
 * (fio lays it out in its directory); readonly does not stop all of it, so
 * it counts for nothing.  What runs code: exec_prerun/exec_postrun,
 * trigger*, ioengine=exec, external: and any engine fio loads.  Every
 * problem is said at once: a change without --allow-write, code without
 * --allow-exec, a mounted or held device (target.c's checks; one open per
 * device, shared by every job on it), targets on several disks with
 * --compare, a target that is not --target-device, read_iolog replays,
 * cgroup=, ioscheduler=, sg, e4defrag and the dir* engines (not_run()),
 * an existing file fio would remove (delete, lay out anew,
 * --trigger-file); and what the
 * model cannot resolve, without Landlock to hold fio.  With --allow-write
 * a new file is placed in the run's scratch directory for its directory
 * (fioscratch.c), in fio's command line: filename= parts as whole paths
 * (directory= then dropped), directory= entries for fio's own names, a
 * log's prefix, --aux-path for the verify state and verify_dump's
 * blocks.  Then, with Landlock, the files as fio itself names them
 * (fionamed.c) go through the same checks: what the model missed is one
 * more target, a new file outside the scratch directories a problem.
 * The model is linear in jobs x files (hash sets) and stops on a signal.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fioread.h"
#include "macro.h"
#include "strv.h"

struct model {
        const struct bench_opts *g;
        struct bench_fio_defs *d;
        struct bench_fio *f;
        struct ios_ctx *root;
        struct bench_target *tg;
        bool have_tg, tg_bdev;
        struct bench_sset seen, seen_w, dirs, disks;
        struct bench_list created, rd, wr, cr, ex, in, ls;
        struct bench_list out;          /* exec_output(): files fio writes a command's output to */
        dev_t want_rdev;                /* --target-device's */
        char disk1[64];                 /* the first target's disk */
        unsigned thread;                /* the first thread of the job met, counted over all jobs */
        char last_dir[PATH_MAX];        /* the directory of the last new file noted */
        uint64_t nfiles;                /* the files of the jobs met so far (numjobs x nrfiles each) */
        uint64_t memory;                /* the memory the jobs met so far make fio take (fiomemory.c) */
        bool aux_placed;                /* fio's --aux-path set to a scratch directory (or left) */
        bool loads;                     /* a job loads its verify state (verify_state_load=1) */
        bool triggered;                 /* a trigger may fire: every job's verify state saved */
};

/* The most files the jobs of one run may name together: each is resolved and kept before fio starts. */
#define FIO_FILES_MAX (1U << 22)
/* The most files fio is asked to name before it runs (fionamed.c): its output is kept in memory. */
#define FIO_NAMED_MAX (1U << 16)

/* the whole disk holding maj:min ("sda" for sda1), by sysfs */
static void disk_of(unsigned maj, unsigned min, char *name, size_t len)
{
        char p[64], real[PATH_MAX], part[PATH_MAX + 16];
        char *slash;

        snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", maj, min);
        if (!realpath(p, real)) {
                snprintf(name, len, "%u:%u", maj, min);
                return;
        }
        snprintf(part, sizeof(part), "%s/partition", real);
        if (access(part, F_OK) == 0 && (slash = strrchr(real, '/')))
                *slash = '\0';
        slash = strrchr(real, '/');
        snprintf(name, len, "%.63s", slash ? slash + 1 : real);
}

static int note_disk(struct model *m, unsigned maj, unsigned min)
{
        char name[64];

        disk_of(maj, min, name, sizeof(name));
        if (!m->disk1[0])
                snprintf(m->disk1, sizeof(m->disk1), "%s", name);
        return bench_sset_add(&m->disks, name);
}

/* a directory fio makes files in (the run's scratch directory); data: the job's own files there (its disk is
 * a target's) */
static int note_dir(struct model *m, const char *dir, bool data)
{
        struct stat st;
        char real[PATH_MAX], key[PATH_MAX + 2];
        int r;

        snprintf(key, sizeof(key), "%c%s", data ? 'D' : 'L', dir);
        r = bench_sset_add(&m->dirs, key);
        if (r <= 0)
                return r;
        if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
                return 0;               /* fio fails to make the file, as it says */
        if (!data)
                r = 0;
        else if (!m->have_tg) {
                *m->tg = (struct bench_target){ .fd = -1, .path = strdup(dir), .major = major(st.st_dev),
                                                .minor = minor(st.st_dev) };
                m->have_tg = m->tg->path != NULL;
        }
        if (data)
                r = note_disk(m, major(st.st_dev), minor(st.st_dev));
        if (r >= 0 && m->g->allow_write && realpath(dir, real) && bench_fio_scratch_is(m->f, real) &&
            bench_sset_add(&m->dirs, real) > 0)
                r = bench_list_push(&m->cr, real);
        return r < 0 ? r : 0;
}

/*
 * The run's scratch directory for a directory fio would make files in
 * (fioscratch.c), the only place fio may make one: 1 with out set; 0 (out:
 * dir) without --allow-write (a new file is refused) or when dir is no
 * directory (fio says so); -errno.
 */
static int place_dir(struct model *m, const char *dir, const char *what, char *out, size_t len)
{
        char real[PATH_MAX];
        const char *scratch;
        struct stat st;
        int r;

        if (snprintf(out, len, "%s", dir) >= (int)len)
                return -ENAMETOOLONG;
        if (!m->g->allow_write)
                return 0;
        if (!realpath(dir, real)) {
                if (errno != ENOENT && errno != ENOTDIR)
                        return 0;       /* fio cannot make the file either, and says so */
                /* fio would make the directory (and the ones above): it may make none */
                return bench_fio_problem(m->d,
                                         "fio would make %s in %s, which does not exist: fio makes new "
                                         "files only in the run's scratch directory, and no directory; "
                                         "make %s first",
                                         what, dir, dir);
        }
        if (stat(real, &st) < 0 || !S_ISDIR(st.st_mode))
                return 0;
        if (bench_storage_kernel_fs(real))
                return bench_fio_problem(m->d, "fio would make %s in %s, which is on %s, a kernel interface, "
                                         "not storage: not with iosched-bench",
                                         what, real, bench_storage_kernel_fs(real));
        r = bench_fio_scratch_dir(m->f, real, &scratch);
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return bench_fio_problem(m->d,
                                         "cannot make the run's scratch directory in %s (where fio "
                                         "would make %s): %s",
                                         real, what, ios_strerror(r));
        return snprintf(out, len, "%s", scratch) >= (int)len ? -ENAMETOOLONG : 1;
}

/* The path fio is given for a file of the job: path when it exists, else its name in place_dir(). */
static int place(struct model *m, const char *path, char *out, size_t len)
{
        char dir[PATH_MAX];
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        struct stat st;
        int r;

        if (snprintf(out, len, "%s", path) >= (int)len)
                return -ENAMETOOLONG;
        if (!m->g->allow_write || stat(path, &st) == 0 || errno != ENOENT || !*base || streq(base, ".") ||
            streq(base, ".."))
                return 0;
        bench_fio_dir_part(path, dir, sizeof(dir));
        r = place_dir(m, dir, path, out, len);
        if (r <= 0) {
                snprintf(out, len, "%s", path);
                return r;
        }
        return strlen(out) + 1 + strlen(base) >= len ? -ENAMETOOLONG : (strcat(strcat(out, "/"), base), 1);
}

static void first(char *buf, size_t len, unsigned *count, const char *path)
{
        size_t n = strlen(path);

        if ((*count)++ == 0) {
                n = n < len ? n : len - 1;      /* a long name said in part */
                memcpy(buf, path, n);
                buf[n] = '\0';
        }
}

/* A block device: target.c's checks (--allow-write, mounted, held, O_EXCL) once per device. */
static int check_bdev(struct model *m, const char *path, const struct stat *st, bool change)
{
        char key[64];
        struct bench_opts chk = *m->g;
        struct bench_target t;
        struct bench_error e = {};
        int r;

        snprintf(key, sizeof(key), "b:%lx", (unsigned long)st->st_rdev);
        r = bench_sset_add(change ? &m->seen_w : &m->seen, key);
        if (r <= 0)
                return r;               /* checked already: the bench's own open counts as itself */
        if (change && m->have_tg && m->tg_bdev && m->tg->fd >= 0 && m->tg->writes &&
            makedev(m->tg->major, m->tg->minor) == st->st_rdev)
                return 0;
        chk.engine = bench_engine_find("psync");        /* the checks of a plain open */
        chk.direct = false;
        r = bench_target_open_path(&chk, path, change, 0, m->root, &t, &e);
        if (r < 0) {
                bench_target_close_one(&t);
                return r == -ENOMEM ? r : bench_fio_problem(m->d, "%s", e.msg);
        }
        if (!m->have_tg || !m->tg_bdev) {
                if (m->have_tg)
                        bench_target_close_one(m->tg);
                *m->tg = t;
                m->have_tg = m->tg_bdev = true;
        } else if (change && makedev(m->tg->major, m->tg->minor) == st->st_rdev) {
                bench_target_close_one(m->tg);  /* the same device, now opened for writing */
                *m->tg = t;
        } else
                bench_target_close_one(&t);
        return 0;
}

/*
 * A job's offset plus size past its device's end (the kernel's size of it, in sysfs): fio would do a
 * few I/Os there, or none, and report them as a figure.  A job that cannot be (exit 2), as natively
 * (target.c).  Unknown sizes are fio's to find.
 */
static int region_fits(struct model *m, const struct jobsum *js, const char *path, dev_t rdev)
{
        _cleanup_free_ char *text = NULL;
        char p[64];
        uint64_t sectors;
        int r;

        snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/size", major(rdev), minor(rdev));
        if (ios_ctx_read_file(m->root, p, &text, NULL) < 0 || sscanf(text, "%" SCNu64, &sectors) != 1 ||
            sectors > UINT64_MAX / 512 || js->need <= sectors * 512)
                return 0;
        r = bench_fio_problem(m->d, "job '%s': its offset plus size (%ju bytes) is beyond the end of %s (%ju "
                              "bytes)", js->name, (uintmax_t)js->need, path, (uintmax_t)(sectors * 512));
        m->d->nusage += r >= 0;
        return r;
}

/* A file a job names on a kernel interface's filesystem (storage.c): refused, read or write. */
static int not_storage(struct model *m, const struct jobsum *js, const char *path, const char *fs)
{
        return bench_fio_problem(m->d, "job '%s': %s is on %s, a kernel interface, not storage: not with "
                                 "iosched-bench",
                                 js->name, path, fs);
}

/* One file or device a job names. */
static int one_path(struct model *m, struct jobsum *js, const char *path)
{
        struct stat st;
        char real[PATH_MAX], key[64];
        bool change = js->writes;
        int r;

        if (stat(path, &st) < 0) {
                char dir[PATH_MAX];

                if (errno != ENOENT)    /* what cannot be looked up is not checked, whatever fio opens */
                        return bench_fio_problem(m->d, "job '%s': %s cannot be looked up (%s): not with "
                                                 "iosched-bench", js->name, path, ios_strerror(errno));
                if (m->g->target_device && !js->log)
                        return bench_fio_problem(m->d, "job '%s': %s is not --target-device %s (a new file)",
                                                 js->name, path, m->g->target_device);
                bench_fio_dir_part(path, dir, sizeof(dir));
                if (bench_storage_kernel_fs(dir))
                        return not_storage(m, js, path, bench_storage_kernel_fs(dir));
                first(js->first_new, sizeof(js->first_new), &js->nnew, path);
                r = js->keep ? 0 : bench_list_push(&m->created, path);
                if (r < 0 || (!js->log && streq(dir, m->last_dir)))
                        return r;       /* the same directory as the file before (numjobs x nrfiles) */
                if (!js->log)
                        snprintf(m->last_dir, sizeof(m->last_dir), "%s", dir);
                return note_dir(m, dir, !js->log);
        }
        if (m->g->target_device && !js->log && (!S_ISBLK(st.st_mode) || st.st_rdev != m->want_rdev))
                return bench_fio_problem(m->d, "job '%s': %s is not --target-device %s", js->name, path,
                                         m->g->target_device);
        if (S_ISDIR(st.st_mode))
                return 0;               /* fio refuses a directory as a file */
        /* a pipe or socket (/dev/stdout: fio's own output, where its report goes) is no file to measure */
        if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
                return bench_fio_problem(m->d, "job '%s': %s is a %s, not a file or a device: not with "
                                         "iosched-bench",
                                         js->name, path, S_ISFIFO(st.st_mode) ? "pipe" : "socket");
        if (S_ISREG(st.st_mode) && bench_storage_kernel_fs(path))
                return not_storage(m, js, path, bench_storage_kernel_fs(path));
        if (S_ISREG(st.st_mode)) {
                change |= js->deletes || js->truncates || js->hints || js->need_unsure ||
                          (js->need && (uint64_t)st.st_size < js->need);
                r = js->log ? 0 : note_disk(m, major(st.st_dev), minor(st.st_dev));
                if (r >= 0 && !m->have_tg && !js->log) {
                        *m->tg = (struct bench_target){ .fd = -1, .path = strdup(path), .major = major(st.st_dev),
                                                        .minor = minor(st.st_dev) };
                        m->have_tg = m->tg->path != NULL;
                }
                snprintf(key, sizeof(key), "f:%lx:%lx", (unsigned long)st.st_dev, (unsigned long)st.st_ino);
        } else {
                change |= js->deletes || js->truncates || (js->hints && S_ISBLK(st.st_mode));
                js->chardev |= S_ISCHR(st.st_mode) && !js->log;
                /* a driver's character device: reading it is no safer than writing it (sandbox.c) */
                if (S_ISCHR(st.st_mode) && !bench_sandbox_harmless_rdev(st.st_rdev)) {
                        static const char why[] =
                                "is a character device, not a block device: one open only for reading still "
                                "takes passthrough commands from root (NVMe and SCSI generic), writes too: "
                                "needs --allow-write";
                        char cls[64];

                        r = bench_storage_chardev(m->root, st.st_rdev, cls, sizeof(cls));
                        if (r < 0)
                                return r;
                        if (r == 0)
                                return bench_fio_problem(m->d, "job '%s': %s is a character device of class "
                                                         "%s, not storage (NVMe generic, SCSI generic, bsg, "
                                                         "DAX, MTD): not with iosched-bench",
                                                         js->name, path, cls);
                        if (!m->g->allow_write)
                                return bench_fio_problem(m->d, "job '%s': %s %s", js->name, path, why);
                        change = true;
                }
                r = S_ISBLK(st.st_mode) ? note_disk(m, major(st.st_rdev), minor(st.st_rdev)) : 0;
                /* a block device by its node (the fence's rule is on the node a job names) */
                if (S_ISBLK(st.st_mode))
                        snprintf(key, sizeof(key), "b:%lx:%lx", (unsigned long)st.st_dev,
                                 (unsigned long)st.st_ino);
                else
                        snprintf(key, sizeof(key), "c:%lx", (unsigned long)st.st_rdev);
        }
        if (r < 0)
                return r;
        if (change && !m->g->allow_write) {
                first(js->first_change, sizeof(js->first_change), &js->nchange, path);
                change = false;         /* said once for the job; still read below */
        }
        if (S_ISBLK(st.st_mode) && (r = check_bdev(m, path, &st, change)) < 0)
                return r;
        if (S_ISBLK(st.st_mode) && !js->log && js->need && !js->need_unsure && !js->need_share &&
            (r = region_fits(m, js, path, st.st_rdev)) < 0)
                return r;
        m->f->writes |= change;
        if (!realpath(path, real))
                snprintf(real, sizeof(real), "%s", path);
        /* each file once in the fence's lists; each job's use of it checked below all the same */
        r = bench_sset_add(change ? &m->seen_w : &m->seen, key);
        if (r > 0)
                r = bench_list_push(change ? &m->wr : &m->rd, real);
        /* fio removes a file it deletes, and one it lays out again (to make it anew): the fence lets it
         * remove only what it made, in the run's scratch directory */
        if (r >= 0 && change && S_ISREG(st.st_mode) && js->deletes)
                r = bench_fio_problem(m->d,
                                      "job '%s' would delete %s (unlink=, unlink_each_loop= or "
                                      "ioengine=filedelete): fio may remove only the files it makes; "
                                      "name a new file",
                                      js->name, path);
        else if (r >= 0 && change && S_ISREG(st.st_mode) && js->need && (uint64_t)st.st_size < js->need)
                r = bench_fio_problem(m->d,
                                      "job '%s' needs %ju bytes of %s, which has %jd: fio would remove it "
                                      "and lay it out anew, and may remove only the files it makes; "
                                      "name a new file, or make this one %ju bytes first",
                                      js->name, (uintmax_t)js->need, path, (intmax_t)st.st_size,
                                      (uintmax_t)js->need);
        return r;
}

/* opendir=: fio lists the tree as it reads the setting, so the fence lets it list it (nothing more) */
static int listed(struct model *m, const char *dir)
{
        char real[PATH_MAX], key[PATH_MAX + 2];
        int r;

        if (!realpath(dir, real))
                return 0;       /* fio cannot list it either, and says so */
        snprintf(key, sizeof(key), "T%s", real);
        r = bench_sset_add(&m->dirs, key);
        return r <= 0 ? r : bench_list_push(&m->ls, real);
}

/* opendir=: every file under the tree, checked (or only counted in *n while js is NULL) */
static int walk(struct model *m, struct jobsum *js, const char *path, int depth, bool *resolved, unsigned *n)
{
        DIR *d = depth < 64 ? opendir(path) : NULL;
        struct dirent *de;
        int r = 0;

        if (!d) {
                *resolved = false;
                return 0;
        }
        while (r >= 0 && (de = readdir(d))) {
                char p[PATH_MAX];
                struct stat st;

                if (streq(de->d_name, ".") || streq(de->d_name, ".."))
                        continue;
                if (bench_stop_signal)
                        r = -EINTR;
                else if (bench_fio_joined(path, de->d_name, p, sizeof(p)) < 0 || lstat(p, &st) < 0)
                        *resolved = false;
                else if (S_ISDIR(st.st_mode))
                        r = walk(m, js, p, depth + 1, resolved, n);
                else if (S_ISREG(st.st_mode) && js)
                        r = one_path(m, js, p);
                else if (S_ISREG(st.st_mode) && ++*n > FIO_FILES_MAX)
                        r = -E2BIG;
        }
        closedir(d);
        return r;
}

/*
 * fio runs exec_prerun= and exec_postrun= as "CMD > JOB.prerun.txt 2>&1"
 * in its working directory, and ioengine=exec's program with its output
 * in JOB.stdout and JOB.stderr there (std_redirect, on unless set off).
 * Such a file (JOB.suffix) is made, empty, when it is not there (and
 * kept, as fio leaves it), once the run is not refused (make_outputs()),
 * and the fence lets fio write that file alone: it may make no file
 * there.  what: the option whose output it is.
 */
static int exec_output(struct model *m, const struct bench_fio_def *j, const char *suffix, const char *what)
{
        char path[PATH_MAX];
        struct stat st;
        int r;

        if (snprintf(path, sizeof(path), "%s.%s", j->name, suffix) >= (int)sizeof(path))
                return -ENAMETOOLONG;
        /* fio names the file after the job: a '/' in its name would put it in another directory */
        if (strchr(j->name, '/'))
                return bench_fio_problem(m->d,
                                         "job '%s': fio writes the output of %s to %s, outside the working "
                                         "directory: not with a '/' in the job's name", j->name, what, path);
        if (!m->g->allow_write)
                return bench_fio_problem(m->d,
                                         "job '%s': fio writes the output of %s to %s: needs --allow-write",
                                         j->name, what, path);
        r = lstat(path, &st) < 0 ? -errno : 0;
        if (r < 0 && r != -ENOENT)
                return bench_fio_problem(m->d, "job '%s': %s (where fio writes the output of %s): %s",
                                         j->name, path, what, ios_strerror(r));
        if (r == 0 && !S_ISREG(st.st_mode))
                return bench_fio_problem(m->d,
                                         "job '%s': %s (where fio writes the output of %s) is not a "
                                         "regular file",
                                         j->name, path, what);
        return bench_list_push(&m->out, path);
}

/* The output files of exec_output(), made where they are not there, for fio to write alone. */
static int make_outputs(struct model *m)
{
        for (size_t i = 0; i < m->out.n; i++) {
                const char *path = (*m->out.v)[i];
                char real[PATH_MAX];
                struct stat st;
                int fd;

                fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
                if (fd < 0)
                        return bench_fio_problem(m->d, "%s, where fio writes a command's output: %s", path,
                                                 ios_strerror(-errno));
                if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
                        close(fd);
                        return bench_fio_problem(m->d, "%s, where fio writes a command's output, is not a "
                                                 "regular file", path);
                }
                close(fd);
                if (!realpath(path, real))
                        snprintf(real, sizeof(real), "%s", path);
                if (bench_list_push(&m->wr, real) < 0)
                        return -ENOMEM;
        }
        return 0;
}

/* What in the job runs code: each needs --allow-exec; with it, the programs for the fence. */
static int code(struct model *m, const struct bench_fio_def *j)
{
        static const char * const shells[] = { "exec_prerun", "exec_postrun" };
        const char *eng = bench_fio_kv_get(&j->kv, "ioengine"), *redirect;
        int r = 0;

        for (size_t i = 0; r >= 0 && i < ELEMENTSOF(shells); i++) {
                const char *v = bench_fio_kv_get(&j->kv, shells[i]);

                if (!v || !*v)
                        continue;
                r = m->g->allow_exec ? bench_list_push(&m->ex, "/bin/sh")
                                     : bench_fio_problem(m->d, "job '%s': %s=%s runs a command: needs --allow-exec",
                                                         j->name, shells[i], v);
                if (r >= 0 && m->g->allow_exec)
                        r = exec_output(m, j, i == 0 ? "prerun.txt" : "postrun.txt", shells[i]);
        }
        if (r < 0 || !eng || !bench_fio_engine_runs_code(eng))
                return r;
        if (!m->g->allow_exec && bench_fio_engine_is(eng, "exec"))
                return bench_fio_problem(m->d, "job '%s': ioengine=exec runs a program: needs --allow-exec",
                                         j->name);
        if (!m->g->allow_exec)
                return bench_fio_problem(m->d, "job '%s': ioengine=%s loads code fio does not build in: "
                                         "needs --allow-exec", j->name, eng);
        redirect = bench_fio_kv_get(&j->kv, "std_redirect");
        if (bench_fio_engine_is(eng, "exec") && (!redirect || !bench_fio_falsy(redirect))) {
                r = exec_output(m, j, "stdout", "ioengine=exec");
                if (r >= 0)
                        r = exec_output(m, j, "stderr", "ioengine=exec");
                if (r < 0)
                        return r;
        }
        if (bench_fio_engine_is(eng, "exec") && bench_fio_kv_get(&j->kv, "program"))
                return bench_list_push(&m->ex, bench_fio_kv_get(&j->kv, "program"));
        if (!strncmp(eng, "external:", 9))
                return bench_list_push(&m->ex, eng + 9);
        return bench_list_push(&m->ex, eng);
}

/* A name of a ':' list as fio reads it back ('\\:' for a colon). */
static void put_part(FILE *s, const char *name, bool first)
{
        if (!first)
                fputc(':', s);
        for (const char *c = name; *c; c++)
                if (*c == ':')
                        fputs("\\:", s);
                else
                        fputc(*c, s);
}

/*
 * One filename= list: each file as fio opens it (under dir, directory='s
 * first entry then), a new one placed in the run's scratch directory;
 * *out the list of the paths fio is to be given, *moved when one is new.
 */
static int filename_parts(struct model *m, struct jobsum *js, const char *v, const char *dir, char **out,
                          bool *moved, bool *resolved)
{
        char name[PATH_MAX], path[PATH_MAX], placed[PATH_MAX];
        size_t len = 0;
        bool first = true;
        FILE *s = open_memstream(out, &len);
        int r = 0;

        if (!s)
                return -ENOMEM;
        for (const char *p = v; r >= 0 && p;) {
                p = bench_fio_next_part(p, name, sizeof(name));
                if (!*name)
                        break;          /* the list's end ("a:") */
                if (streq(name, "-")) {
                        put_part(s, name, first);       /* stdin/stdout */
                        first = false;
                        continue;
                }
                if (bench_fio_joined(dir, name, path, sizeof(path)) < 0) {
                        *resolved = false;
                        put_part(s, name, first);
                } else if ((r = m->g->target_device ? 0 : place(m, path, placed, sizeof(placed))) >= 0) {
                        if (r == 0)     /* a new file with --target-device: refused in the job's words */
                                snprintf(placed, sizeof(placed), "%s", path);
                        *moved |= r > 0;
                        put_part(s, placed, first);
                        r = one_path(m, js, placed);
                }
                first = false;
        }
        if (fclose(s) != 0 && r >= 0)
                r = -ENOMEM;
        return r;
}

/*
 * A job with fio's own names for its files: when one of them is new (and
 * --allow-write), every directory= entry (or the working directory) becomes
 * its scratch directory, so that fio makes them all there.
 */
static int place_defaults(struct model *m, struct bench_fio_def *j, unsigned numjobs, unsigned nrfiles)
{
        const char *dirs = bench_fio_kv_get(&j->kv, "directory");
        const char *fmt = bench_fio_kv_get(&j->kv, "filename_format");
        char d0[PATH_MAX] = "", name[PATH_MAX], path[PATH_MAX], placed[PATH_MAX], what[PATH_MAX];
        _cleanup_free_ char *list = NULL;
        bool any = false;
        unsigned nd = dirs ? bench_fio_count_parts(dirs) : 1;
        size_t len = 0;
        FILE *s;
        int r = 0;

        if (!m->g->allow_write || m->g->target_device)
                return 0;       /* a new file with --target-device: refused in the job's words */
        for (unsigned c = 0; !any && c < numjobs; c++) {
                if (dirs)
                        bench_fio_dir_entry(dirs, c, d0, sizeof(d0));
                for (unsigned k = 0; !any && k < nrfiles; k++) {
                        struct stat st;

                        if (((c * nrfiles + k) & 4095) == 0 && bench_stop_signal)
                                return -EINTR;
                        any = bench_fio_format_name(fmt, j->name, c, k, name, sizeof(name)) == 0 &&
                              bench_fio_joined(dirs ? d0 : NULL, name, path, sizeof(path)) == 0 &&
                              stat(path, &st) < 0 && errno == ENOENT;
                }
        }
        if (!any)
                return 0;
        if (strchr(name, '/'))
                return bench_fio_problem(m->d,
                                         "job '%s': fio would make %s in a directory of its own name: "
                                         "iosched-bench has fio make new files in one scratch directory; "
                                         "name them without '/'",
                                         j->name, name);
        s = open_memstream(&list, &len);
        if (!s)
                return -ENOMEM;
        for (unsigned i = 0; r >= 0 && i < nd; i++) {
                if (dirs)
                        bench_fio_dir_entry(dirs, i, d0, sizeof(d0));
                snprintf(what, sizeof(what), "the files of job '%s'", j->name);
                r = place_dir(m, dirs ? d0 : ".", what, placed, sizeof(placed));
                put_part(s, placed, i == 0);
        }
        if (fclose(s) != 0 && r >= 0)
                r = -ENOMEM;
        return r < 0 ? r : bench_fio_kv_set(&j->kv, "directory", list);
}

/* A setting of job j that is set, and not to an off value */
static bool truthy(const struct bench_fio_def *j, const char *key)
{
        const char *v = bench_fio_kv_get(&j->kv, key);

        return v && !bench_fio_falsy(v);
}

/*
 * The files a job names: fio adds the files of every filename= and
 * opendir= as it meets them (not the last one only), each under
 * directory='s first entry as set at that point, into *nnamed; size= is
 * split over *nr, fio's nr_files: the first list sets it to its files,
 * each later one adds its own, and nrfiles= sets it anew (options.c
 * str_filename_cb, str_opendir_cb: a later nrfiles=1 gives each file all
 * of size=).  A first list that names no file (an empty tree) sets *nr
 * to 0 all the same.
 */
static int count_named(struct model *m, const struct bench_fio_kvs *kv, bool *resolved, unsigned *nnamed,
                       unsigned *nr)
{
        int r = 0;

        for (size_t i = 0; r >= 0 && i < kv->n; i++) {
                const char *k = kv->v[i].key, *v = kv->v[i].val;
                unsigned added = 0;

                if (v && (streq(k, "filename") || streq(k, "opendir"))) {
                        if (streq(k, "filename"))
                                added = bench_fio_count_names(v);
                        else
                                r = walk(m, NULL, v, 0, resolved, &added);
                        *nr = *nnamed ? *nr + added : added;
                        *nnamed += added;
                } else if (streq(k, "nrfiles") && (!v || bench_parse_uint(v, 1, 1u << 24, nr) < 0))
                        *resolved = false;
        }
        return r;
}

/*
 * A job of an engine that opens no file: none laid out, but fio still keeps each in memory (the same
 * bound), and removes the job's files at its end with unlink= (any engine: filesetup.c
 * close_and_free_files()).
 */
static int fileless_files(struct model *m, const struct bench_fio_def *j, const char *eng, unsigned numjobs,
                          unsigned nrfiles)
{
        m->nfiles += (uint64_t)numjobs * nrfiles;
        if (m->nfiles > FIO_FILES_MAX)
                return bench_fio_problem(m->d,
                                         "job '%s': numjobs=%u x nrfiles=%u: the jobs name more than %u "
                                         "files, more than iosched-bench lets fio keep",
                                         j->name, numjobs, nrfiles, FIO_FILES_MAX);
        if (!truthy(j, "unlink") && !truthy(j, "unlink_each_loop"))
                return 0;
        return bench_fio_problem(m->d, "job '%s': ioengine=%s does no I/O on the files the job names, but "
                                 "with unlink= fio removes them at its end: not with iosched-bench",
                                 j->name, eng);
}

/* Every file one job opens, in fio's order of rules. */
static int job_files(struct model *m, struct bench_fio_def *j, struct jobsum *js, bool *resolved)
{
        struct bench_fio_kvs *kv = &j->kv;
        const char *fn = bench_fio_kv_get(kv, "filename"), *dirs = bench_fio_kv_get(kv, "directory");
        const char *fmt = bench_fio_kv_get(kv, "filename_format"), *od = bench_fio_kv_get(kv, "opendir");
        const char *eng = bench_fio_kv_get(kv, "ioengine");
        unsigned numjobs = 1, nrfiles = 1, nnamed = 0, nr = 1;
        char d0[PATH_MAX] = "", name[PATH_MAX], path[PATH_MAX], **named;
        const char *cur = NULL;
        bool moved = false, by_name;
        struct stat st;
        int r = 0;

        if (bench_fio_kv_get(kv, "numjobs") &&
            bench_parse_uint(bench_fio_kv_get(kv, "numjobs"), 1, 1u << 20, &numjobs) < 0)
                *resolved = false;
        if (bench_fio_kv_get(kv, "nrfiles") &&
            bench_parse_uint(bench_fio_kv_get(kv, "nrfiles"), 1, 1u << 24, &nrfiles) < 0)
                *resolved = false;
        if (eng && bench_fio_engine_fileless(eng))
                return fileless_files(m, j, eng, numjobs, nrfiles);
        r = count_named(m, kv, resolved, &nnamed, &nr);
        if (r == -E2BIG || nnamed > FIO_FILES_MAX)
                return bench_fio_problem(m->d,
                                         "job '%s': its filename= and opendir= name more than %u files, "
                                         "more than iosched-bench resolves before fio starts",
                                         j->name, FIO_FILES_MAX);
        if (r < 0)
                return r;
        /* opendir= of an empty tree leaves fio its own names, nr_files of them: none unless a later nrfiles=
         * (init.c add_job: no filename= and no file added) */
        by_name = nnamed > 0 || fn;
        if (!by_name && od)
                nrfiles = nr;
        bench_fio_changes(j, js, by_name ? nr : nrfiles);
        /* memory bounded whatever the job says: past the limit, said once, nothing more resolved */
        if (m->nfiles <= FIO_FILES_MAX) {
                m->nfiles += by_name ? nnamed : (uint64_t)numjobs * nrfiles;
                if (m->nfiles > FIO_FILES_MAX)
                        return bench_fio_problem(m->d,
                                                 "job '%s': numjobs=%u x nrfiles=%u: the jobs name more "
                                                 "than %u files, more than iosched-bench resolves before "
                                                 "fio starts",
                                                 j->name, numjobs, nrfiles, FIO_FILES_MAX);
        } else
                return 0;
        named = calloc(kv->n + 1, sizeof(*named));
        if (!named)
                return -ENOMEM;
        for (size_t i = 0; r >= 0 && i < kv->n; i++) {
                const char *k = kv->v[i].key, *v = kv->v[i].val;

                if (!v)
                        continue;
                if (streq(k, "directory")) {
                        cur = v;
                        bench_fio_dir_entry(cur, 0, d0, sizeof(d0));
                } else if (streq(k, "opendir") && bench_storage_kernel_fs(v)) {
                        r = not_storage(m, js, v, bench_storage_kernel_fs(v));
                } else if (streq(k, "opendir")) {
                        *resolved &= !cur;      /* fio puts directory= before each file it finds */
                        r = listed(m, v);
                        if (r >= 0)
                                r = walk(m, js, v, 0, resolved, NULL);
                } else if (streq(k, "filename"))
                        r = filename_parts(m, js, v, cur ? d0 : NULL, &named[i], &moved, resolved);
        }
        r = r < 0 ? r : moved && od && dirs ? bench_fio_problem(m->d, "job '%s': new files with opendir= and "
                                                               "directory=: not with iosched-bench", j->name)
                                           : 0;
        /* the new files named are in the scratch directories: every name whole, directory= gone */
        for (size_t i = 0; i < kv->n; i++)
                if (named[i] && r >= 0 && moved) {
                        free(kv->v[i].val);
                        kv->v[i].val = named[i];
                } else
                        free(named[i]);
        free(named);
        if (r >= 0 && moved)
                bench_fio_kv_drop(kv, "directory");
        if (r < 0 || by_name)
                return r;
        /* fio: a job alone on an existing non-regular file of its own name (a device, a link: init.c's
         * exists_and_not_regfile() takes lstat()'s word) */
        if (nrfiles == 1 && lstat(j->name, &st) == 0 && !S_ISREG(st.st_mode)) {
                for (unsigned c = 0; r >= 0 && c < numjobs; c++) {
                        if (dirs)
                                bench_fio_dir_entry(dirs, c, d0, sizeof(d0));
                        r = bench_fio_joined(dirs ? d0 : NULL, j->name, path, sizeof(path));
                        r = r < 0 ? (*resolved = false, 0) : one_path(m, js, path);
                }
                return r;
        }
        r = place_defaults(m, j, numjobs, nrfiles);
        dirs = bench_fio_kv_get(kv, "directory");
        for (unsigned c = 0; r >= 0 && c < numjobs; c++) {
                if (dirs)
                        bench_fio_dir_entry(dirs, c, d0, sizeof(d0));
                for (unsigned k = 0; r >= 0 && k < nrfiles; k++) {
                        if (((c * nrfiles + k) & 4095) == 0 && bench_stop_signal)
                                return -EINTR;
                        if (bench_fio_format_name(fmt, j->name, c, k, name, sizeof(name)) < 0 ||
                            bench_fio_joined(dirs ? d0 : NULL, name, path, sizeof(path)) < 0) {
                                *resolved = false;
                                continue;
                        }
                        r = one_path(m, js, path);
                }
        }
        return r;
}

/* A log of the job fio makes in a scratch directory (path): named so in fio's command line, moved out at
 * the end (fioscratch.c) */
static int keep_log(struct model *m, struct bench_fio_def *j, const char *key, const char *path, bool prefix)
{
        char dir[PATH_MAX];
        int r = bench_fio_kv_set(&j->kv, key, path);

        bench_fio_dir_part(path, dir, sizeof(dir));
        if (r < 0)
                return r;
        return bench_fio_scratch_keep(m->f, dir, prefix ? BENCH_FIO_KEEP_LOGS : BENCH_FIO_KEEP_NAME,
                                      strrchr(path, '/') + 1);
}

/* verify_dump=1's files: made in the scratch directory that is --aux-path, moved out at the end */
static int dumps_kept(struct model *m, const struct jobsum *js, const char *aux)
{
        static const char beside[] = "job '%s': verify_dump=1: fio would write the blocks that fail "
                                     "verification in %s, where a job of the run loads its verify "
                                     "state (one --aux-path), outside the run's scratch directory";
        int r;

        if (m->loads)
                return bench_fio_problem(m->d, beside, js->name, aux ? aux : "the working directory");
        if (!aux || !bench_fio_scratch_is(m->f, aux))
                return 0;       /* place_dir() said why, or fio cannot make them and says so */
        r = note_dir(m, aux, false);
        return r < 0 ? r : bench_fio_scratch_keep(m->f, aux, BENCH_FIO_KEEP_DUMPS, NULL);
}

/*
 * The files fio writes besides the job's: its logs and verify state, new
 * or existing.  A new one is made in the run's scratch directory: a log
 * is moved to where the job names it at the end, the verify state
 * removed with the directory.
 */
static int logs(struct model *m, struct bench_fio_def *j, struct jobsum *js, unsigned numjobs)
{
        static const char no_state[] = "job '%s': verify_state_load=1 and no saved verify state %s",
                          beside[] = "job '%s': fio would save its verify state %s where a job of the run "
                                     "loads one (one --aux-path), outside the run's scratch directory; "
                                     "verify_state_save=0 keeps it";
        static const char * const log_keys[] = { "write_iolog", "write_bw_log", "write_lat_log", "write_iops_log",
                                                  "write_hist_log" };
        const char *aux;
        struct jobsum lj = { .name = js->name, .writes = true, .log = true };
        char dir[PATH_MAX], placed[PATH_MAX], prefix[PATH_MAX];
        int r = 0;

        for (size_t i = 0; r >= 0 && i < ELEMENTSOF(log_keys); i++) {
                const struct bench_fio_kv *e = bench_fio_kv_last(&j->kv, log_keys[i]);
                const char *v = bench_fio_kv_get(&j->kv, log_keys[i]);

                if (!v)
                        continue;
                if (i == 0) {
                        /* fio appends to it */
                        r = place(m, v, placed, sizeof(placed));
                        if (r > 0)
                                r = keep_log(m, j, log_keys[i], placed, false);
                        lj.keep = true;
                        r = r < 0 ? r : one_path(m, &lj, placed);
                        lj.keep = false;
                        continue;
                }
                /* PREFIX_bw.N.log and the like: made in PREFIX's directory; any value is a prefix ("0"
                 * and "off" too: options.c str_write_bw_log_cb), the option alone or empty the job's name */
                snprintf(prefix, sizeof(prefix), "%s", e->val && e->val[0] ? e->val : j->name);
                first(lj.first_new, sizeof(lj.first_new), &lj.nnew, prefix);
                bench_fio_dir_part(prefix, dir, sizeof(dir));
                r = place_dir(m, dir, prefix, placed, sizeof(placed));
                if (r > 0) {
                        r = note_dir(m, placed, false);
                        if (r >= 0 && strlen(placed) + strlen(prefix) + 1 >= sizeof(placed))
                                r = -ENAMETOOLONG;
                        if (r >= 0) {
                                const char *base = strrchr(prefix, '/') ? strrchr(prefix, '/') + 1 : prefix;

                                strcat(strcat(placed, "/"), base);
                                r = keep_log(m, j, log_keys[i], placed, true);
                        }
                }
        }
        /*
         * The verify state, AUX/local-JOB-THREAD-verify.state (THREAD counted
         * over all jobs): a writing job with verify= saves it at its end, one
         * with verify_state_load=1 reads it before it starts; a trigger
         * (--trigger-file, --trigger-timeout) saves every job's, whatever
         * its settings (fio's verify_save_state()).  A new one is
         * made in a scratch directory, unless a job of the run loads its own
         * (m->loads): fio has one --aux-path for both.
         */
        bool own = js->ddir_write && truthy(j, "verify") &&
                   (!bench_fio_kv_get(&j->kv, "verify_state_save") || truthy(j, "verify_state_save"));
        bool save = own || m->triggered, load = truthy(j, "verify_state_load");
        /* on a verify failure fio writes the block read and the one expected (or the header) to new
         * files, named after the target and the offset, in the --aux-path directory (verify.c dump_buf()) */
        bool dumps = truthy(j, "verify") && truthy(j, "verify_dump");
        unsigned nlogs = lj.nnew;

        if (r >= 0 && dumps && !m->g->allow_write) {
                aux = bench_fio_kv_get(&m->d->prog, "aux-path");
                r = bench_fio_problem(m->d, "job '%s': verify_dump=1: fio would write each block that fails "
                                      "verification to a new file in %s: needs --allow-write",
                                      js->name, aux ? aux : "the working directory");
        }
        if (r >= 0 && (save || load || (dumps && m->g->allow_write))) {
                aux = bench_fio_kv_get(&m->d->prog, "aux-path");
                if (!m->aux_placed && m->g->allow_write && !m->loads) {
                        m->aux_placed = true;   /* fio's --aux-path: one for the run */
                        r = place_dir(m, aux ? aux : ".", "the verify state", placed, sizeof(placed));
                        if (r > 0)
                                r = bench_fio_kv_set(&m->d->prog, "aux-path", placed);
                        aux = bench_fio_kv_get(&m->d->prog, "aux-path");
                }
                if (dumps)
                        r = dumps_kept(m, js, aux);
                lj.writes = save;
                for (unsigned n = 0; r >= 0 && (save || load) && n < numjobs; n++) {
                        char p[PATH_MAX];

                        /* fio saves it under the job's name cut to 63 bytes (verify-state.h's name[64],
                         * verify.c get_all_io_list()) and loads it under the whole name */
                        bool cut = strlen(j->name) > 63;

                        for (int whole = save ? 0 : 1; r >= 0 && whole < (load ? 2 : 1); whole++) {
                                /* missing: the state to load, or (cut: the name saved) a new one beside */
                                const char *missing = (cut ? whole : load) ? no_state : beside;

                                snprintf(p, sizeof(p), "%s%slocal-%.*s-%u-verify.state", aux ? aux : "",
                                         aux ? "/" : "", whole ? (int)strlen(j->name) : 63, j->name,
                                         m->thread + n);
                                if (m->loads && access(p, F_OK) < 0 && errno == ENOENT)
                                        r = bench_fio_problem(m->d, missing, js->name, p);
                                else
                                        r = one_path(m, &lj, p);
                                if (!cut)
                                        break;
                        }
                }
        }
        if (r >= 0 && lj.nchange)
                r = bench_fio_problem(m->d, "job '%s': fio would write its log %s: needs --allow-write", js->name,
                                      lj.first_change);
        if (r >= 0 && lj.nnew && !nlogs && !own && !load && !m->g->allow_write)
                r = bench_fio_problem(m->d, "job '%s': fio would save its verify state %s when its trigger "
                                      "fires (--trigger-file, --trigger-timeout): needs --allow-write",
                                      js->name, lj.first_new);
        else if (r >= 0 && lj.nnew && !m->g->allow_write)
                r = bench_fio_problem(m->d, "job '%s': fio would write %s (a log or state file): needs --allow-write",
                                      js->name, lj.first_new);
        return r;
}

/* What a job would do that its flags do not allow, said once for the job. */
static int job_said(struct model *m, const struct bench_fio_def *j, const struct jobsum *js)
{
        bool hint_only = js->hints && !(js->writes || js->deletes || js->truncates);
        const char *what = js->deletes ? "delete or change" : js->truncates ? "truncate"
                                                          : hint_only       ? "set the write hint of"
                                                                            : "write";
        static const char relaid_why[] =
                " (smaller than the job's offset plus size: fio lays it out again, read job or not)",
                          share_why[] = " (the job's offset in it is a share of its size or its end: "
                                        "offset=N%, offset_increment=N% or file_append=; fio lays it "
                                        "out again if it is smaller than that plus the job's size, read "
                                        "job or not)",
                          unsure_why[] = " (the checks cannot read the job's size or offset in it: fio lays "
                                         "it out again if it is smaller, read job or not)",
                          hint_why[] = " (write_hint=: its inode keeps the hint after the run)";
        bool relaid = !(js->writes || js->deletes || js->truncates || js->hints);
        int r = 0;

        if (js->nchange)
                r = bench_fio_problem(m->d, "refusing to write to %s without --allow-write: job '%s' would "
                                      "%s it%s%s",
                                      js->first_change, j->name, what,
                                      relaid ? (js->need_share    ? share_why
                                                : js->need_unsure ? unsure_why
                                                                  : relaid_why)
                                             : hint_only ? hint_why : "",
                                      js->nchange > 1 ? ", and more files" : "");
        if (r >= 0 && js->nnew && !m->g->allow_write)
                r = bench_fio_problem(m->d,
                                      "job '%s': fio would lay out %u new file%s (%s): needs --allow-write",
                                      j->name, js->nnew, js->nnew > 1 ? "s" : "", js->first_new);
        return r;
}

/*
 * mem=mmap:FILE (mmaphuge:, mmapshared:): fio maps the job's I/O buffers
 * on FILE, opened O_RDWR|O_CREAT: an existing one is truncated to the
 * buffers' size (mmap:) or written through them (the others) and kept, a
 * new one made and removed at the end.  A new one is made in the run's
 * scratch directory with --allow-write; an existing one is no target of
 * the job and is refused, as fio may change only the files it makes.
 */
static int buffers_file(struct model *m, struct bench_fio_def *j)
{
        static const char * const kinds[] = { "mmap", "mmaphuge", "mmapshared" };
        const char *mem = bench_fio_kv_get(&j->kv, "mem"), *colon = mem ? strchr(mem, ':') : NULL;
        struct jobsum bj = { .name = j->name, .writes = true, .truncates = true, .log = true };
        char placed[PATH_MAX], val[PATH_MAX + 16], file[PATH_MAX];
        bool mapped = false;
        size_t len;
        int r;

        /* fio's str_mem_cb(): the type as any value (mmap,x:F is mmap), the file after the first ':' with
         * blanks taken off both ends (get_opt_postfix()) */
        for (size_t i = 0; colon && i < ELEMENTSOF(kinds); i++)
                mapped |= bench_fio_value_is(mem, kinds[i]);
        if (!mapped)
                return 0;
        colon += 1 + strspn(colon + 1, " \t");
        for (len = strlen(colon); len > 0 && (colon[len - 1] == ' ' || colon[len - 1] == '\t');)
                len--;
        if (len == 0)
                return 0;
        if (len >= sizeof(file))
                return -ENAMETOOLONG;
        memcpy(file, colon, len);
        file[len] = '\0';
        if (!m->g->allow_write)
                return bench_fio_problem(m->d,
                                         "job '%s': mem=%s: fio maps the job's buffers on %s, making or "
                                         "truncating it: needs --allow-write",
                                         j->name, mem, file);
        r = place(m, file, placed, sizeof(placed));
        if (r == 0 && access(file, F_OK) == 0)
                return bench_fio_problem(m->d,
                                         "job '%s': mem=%s: fio would map the job's buffers on %s, an "
                                         "existing file, truncating or writing it: fio may change only the "
                                         "files it makes; name a new file",
                                         j->name, mem, file);
        if (r > 0) {
                if (snprintf(val, sizeof(val), "%.*s%s", (int)(strchr(mem, ':') + 1 - mem), mem, placed) >=
                    (int)sizeof(val))
                        return -ENAMETOOLONG;
                r = bench_fio_kv_set(&j->kv, "mem", val);
        }
        return r < 0 ? r : one_path(m, &bj, placed);
}

/* The files a job's patterns name ('FILE'): fio reads each as it reads the setting, so the fence lets it. */
static int pattern_files(struct model *m, const struct bench_fio_def *j)
{
        _cleanup_(ios_strv_freep) char **files = NULL;
        int r = 0;

        for (size_t i = 0; r >= 0 && i < j->kv.n; i++)
                r = bench_fio_pattern_files(j->kv.v[i].key, j->kv.v[i].val, &files);
        for (char **p = files; r >= 0 && p && *p; p++) {
                char real[PATH_MAX];
                const char *why;
                int c = bench_fio_pattern_check(*p, &why);

                if (c < 0 || !realpath(*p, real))
                        continue;       /* fio cannot read it either, and says so */
                if (c > 0)
                        r = bench_fio_problem(m->d, "job '%s': the pattern's file %s %s", j->name, *p, why);
                else if (bench_sset_add(&m->seen, real) > 0)
                        r = bench_list_push(&m->in, real);
        }
        return r;
}

/* net and netsplice with protocol=unix: a job that reads listens, on a socket made at filename= after
 * fio removes what is there (engines/net.c fio_netio_setup_listen_unix()) */
static bool unix_receiver(const struct bench_fio_def *j)
{
        const char *proto = bench_fio_kv_get(&j->kv, "protocol");

        if (!proto || !bench_fio_value_is(proto, "unix") || !bench_fio_kv_get(&j->kv, "filename"))
                return false;   /* fio needs filename= for it, and says so */
        return bench_fio_ddir(bench_fio_kv_get(&j->kv, "rw")) & BENCH_FIO_DDIR_READ;
}

/*
 * What a job would do that iosched-bench never lets fio do: run a built-in
 * test's jobs beside its own (profile=: fio takes it as its --profile),
 * leave the run's cgroup for one it makes (cgroup=; cgroup_nodelete=1 leaves it),
 * switch the disk's scheduler for good (ioscheduler=: fio writes it at
 * the job's start and does not put it back; the bench switches and
 * restores it), send SCSI commands (ioengine=sg: SG_IO, an ioctl the
 * fence denies, even to read capacity), or swap blocks with a file the
 * job does not name (ioengine=e4defrag: fio makes or extends donorname=
 * first; its I/O, EXT4_IOC_MOVE_EXT, is an ioctl the fence denies),
 * replace a file with a socket (net, netsplice: protocol=unix), make
 * and remove directories (dircreate, dirstat, dirdelete), write a log
 * where no job names one (gfapi, gfapi_async: /tmp/fio_gfapi.log,
 * engines/glusterfs.c), write a pool a read job names with sizes after
 * its path (pmemblk), or take from a file anyone may have written
 * where its library writes (rados conf=: ceph's configuration names its
 * log files; one root's and no one else's, as a pattern's file, is the
 * admin's).  Nor, with --allow-exec, io_uring: the filter denies it to
 * every fenced process then (through its requests a program a job runs
 * set extended attributes and ACLs and reached sockets, which the filter
 * denies as system calls); nor ceph's engines (rbd, rados) without
 * --allow-net, which they need for their monitors (without sockets
 * ceph retries for minutes), or without Landlock, where ceph reads its
 * configuration from files the job picks (clustername=, CLUSTER.conf in
 * the working directory) and writes its log where they say.
 */
static int not_run(struct model *m, const struct bench_fio_def *j)
{
        const char *sched = bench_fio_kv_get(&j->kv, "ioscheduler");
        const char *eng = bench_fio_kv_get(&j->kv, "ioengine");
        const char *cg = bench_fio_kv_get(&j->kv, "cgroup");
        const char *prof = bench_fio_kv_get(&j->kv, "profile");
        int r = 0;

        /* on fio's command line a job's profile= is the program's --profile (init.c, exec_profile) */
        if (prof)
                r = bench_fio_problem(m->d, "job '%s': profile=%s: fio would run a built-in test's jobs "
                                      "beside the job's (tiobench writes files in the working directory, "
                                      "sizes worked out by sh and bc; act reads and writes the devices its "
                                      "device-names= names): not with iosched-bench",
                                      j->name, prof);
        if (r >= 0 && cg)
                r = bench_fio_problem(m->d, "job '%s': cgroup=%s: fio would make that cgroup and move the "
                                      "job into it, out of the run's own, which ends it (and "
                                      "cgroup_nodelete=1 leaves it): not with iosched-bench", j->name, cg);
        if (r >= 0 && sched)
                r = bench_fio_problem(m->d, "job '%s': ioscheduler=%s: fio would switch the disk's "
                                      "scheduler and leave it so; iosched-bench switches it (--compare, "
                                      "one scheduler or more) and puts it back", j->name, sched);
        if (r >= 0 && bench_fio_engine_is(eng, "sg"))
                r = bench_fio_problem(m->d, "job '%s': ioengine=sg sends every SCSI command by the SG_IO "
                                      "ioctl (READ CAPACITY first), which the fence denies on every device, "
                                      "as one open only for reading still takes writes from root: not with "
                                      "iosched-bench", j->name);
        if (r >= 0 && bench_fio_engine_is(eng, "e4defrag"))
                r = bench_fio_problem(m->d, "job '%s': ioengine=e4defrag swaps the target's blocks with "
                                      "donorname='s file (EXT4_IOC_MOVE_EXT, an ioctl the fence denies), a "
                                      "file the run does not hold: not with iosched-bench", j->name);
        if (r >= 0 && unix_receiver(j) && bench_fio_engine_is(eng, "net", "netsplice"))
                r = bench_fio_problem(m->d, "job '%s': ioengine=%s with protocol=unix receives on a "
                                      "socket it makes at its filename= (%s), removing what is there first: "
                                      "not with iosched-bench",
                                      j->name, eng, bench_fio_kv_get(&j->kv, "filename"));
        /* fio 3.37's: their files are directories, which dircreate makes and dirdelete (and unlink=1 with
         * any of them) removes; fio's other engines refuse a directory as a file */
        if (r >= 0 && bench_fio_engine_is(eng, "dircreate", "dirstat", "dirdelete"))
                r = bench_fio_problem(m->d, "job '%s': ioengine=%s makes, reads or removes directories, no "
                                      "block I/O, and the run makes and removes no directory: not with "
                                      "iosched-bench", j->name, eng);
        /* pmemblk (fio up to 3.34): a filename= of PATH,BSIZE,FSIZEMiB names the pool PATH, which it
         * creates and opens read-write, read job or not (engines/pmemblk.c pmb_parse_path, pmb_open) */
        if (r >= 0 && bench_fio_engine_is(eng, "pmemblk"))
                r = bench_fio_problem(m->d, "job '%s': ioengine=pmemblk creates or opens for writing a "
                                      "pool named by a path with sizes after it, read job or not: not with "
                                      "iosched-bench", j->name);
        if (r >= 0 && bench_fio_engine_is(eng, "gfapi", "gfapi_async"))
                r = bench_fio_problem(m->d, "job '%s': ioengine=%s writes its log to /tmp/fio_gfapi.log, a "
                                      "file the run does not hold: not with iosched-bench", j->name, eng);
        if (r >= 0 && m->g->allow_exec && bench_fio_engine_is(eng, "io_uring", "io_uring_cmd"))
                r = bench_fio_problem(m->d, "job '%s': ioengine=%s with --allow-exec: the fence closes "
                                      "io_uring to every process of such a run (through it a program a job "
                                      "runs would reach what the system call filter denies): use "
                                      "ioengine=libaio", j->name, eng);
        if (r >= 0 && bench_fio_engine_is(eng, "rbd", "rados") &&
            (!m->g->allow_net || bench_sandbox_abi() == 0))
                r = bench_fio_problem(m->d, "job '%s': ioengine=%s %s", j->name, eng,
                                      !m->g->allow_net ? "talks to ceph's monitors: needs --allow-net" :
                                      "reads ceph's configuration from files the job picks (clustername=, "
                                      "the working directory) and writes its log where they say, which "
                                      "only Landlock holds: not on this kernel");
        if (r >= 0 && bench_fio_engine_is(eng, "rados") && bench_fio_kv_get(&j->kv, "conf")) {
                const char *conf = bench_fio_kv_get(&j->kv, "conf"), *why;

                if (bench_fio_pattern_check(conf, &why) > 0)
                        r = bench_fio_problem(m->d, "job '%s': conf=%s, ceph's configuration, which says "
                                              "where ceph writes its logs, %s", j->name, conf, why);
        }
        return r;
}

/* The memory job j makes fio take, with the jobs before it: at most half of the machine's, said once. */
static int memory(struct model *m, const struct bench_fio_def *j)
{
        uint64_t mem, max = bench_memory_max();
        char b1[32], b2[32];
        bool over = m->memory > max;

        if (bench_fio_memory(j, &mem) < 0)
                return bench_fio_problem(m->d, "job '%s': lockmem=%s: iosched-bench cannot read how much "
                                         "memory fio would pin",
                                         j->name, bench_fio_kv_get(&j->kv, "lockmem"));
        if (__builtin_add_overflow(m->memory, mem, &m->memory))
                m->memory = UINT64_MAX;
        if (over || m->memory <= max)
                return 0;
        return bench_fio_problem(m->d, "job '%s': the run's jobs would make fio take %s of memory (numjobs x "
                                 "(lockmem= + iodepth= x the largest block size)), more than half of this "
                                 "machine's (%s): not with iosched-bench",
                                 j->name, bench_fmt_bytes(b1, sizeof(b1), (double)m->memory),
                                 bench_fmt_bytes(b2, sizeof(b2), (double)max));
}

/* One job: what runs code, its files, logs, buffers and patterns; *js_out what it does to its files. */
static int one_job(struct model *m, struct bench_fio_def *j, struct jobsum *js_out, bool *resolved)
{
        struct jobsum js = { .name = j->name };
        unsigned numjobs = 1;
        const char *replay;
        int r = code(m, j);

        if (r < 0)
                return r;
        replay = bench_fio_kv_get(&j->kv, "read_iolog") ? bench_fio_kv_get(&j->kv, "read_iolog")
                                                         : bench_fio_kv_get(&j->kv, "merge_blktrace_file");
        if (replay)
                return bench_fio_problem(m->d, "job '%s': read_iolog=%s replays I/O on the files the log names, "
                                         "which iosched-bench does not resolve: not with iosched-bench", j->name, replay);
        r = not_run(m, j);
        if (r < 0)
                return r;
        r = job_files(m, j, &js, resolved);
        /* the native engine's direct=1 (fio's default is 0), but on a character device: no O_DIRECT there */
        if (r >= 0 && !js.chardev && !bench_fio_kv_get(&j->kv, "direct") &&
            !bench_fio_kv_get(&j->kv, "buffered"))
                r = bench_fio_kv_add(&j->kv, "direct", "1");
        m->f->writes |= js.writes || js.deletes || js.truncates || js.hints;
        m->f->sets_hints |= js.hints;
        if (bench_fio_kv_get(&j->kv, "numjobs"))
                (void)bench_parse_uint(bench_fio_kv_get(&j->kv, "numjobs"), 1, 1u << 20, &numjobs);
        if (r >= 0)
                r = logs(m, j, &js, numjobs);
        if (r >= 0)
                r = buffers_file(m, j);
        if (r >= 0)
                r = pattern_files(m, j);
        if (r >= 0)
                r = memory(m, j);
        m->thread += numjobs;
        *js_out = js;
        return r < 0 ? r : job_said(m, j, &js);
}

/*
 * One file as fio names it (fionamed.c): an existing one checked as the
 * model's are (met again when the model named it too: checked once); a new
 * one is in a scratch directory, where the model placed it, or a problem.
 */
static int fio_named(struct model *m, struct jobsum *js, const char *path)
{
        char dir[PATH_MAX], real[PATH_MAX];
        struct stat st;

        if (streq(path, "-"))
                return 0;               /* standard input or output */
        if (stat(path, &st) == 0)
                return one_path(m, js, path);
        if (errno != ENOENT)
                return 0;               /* fio cannot open it either, and says so */
        bench_fio_dir_part(path, dir, sizeof(dir));
        if (realpath(dir, real) && bench_fio_scratch_is(m->f, real))
                return 0;
        return bench_fio_problem(m->d,
                                 "job '%s': fio would make %s, a new file iosched-bench's reading of the job "
                                 "did not find%s: not run",
                                 js->name, path,
                                 m->g->allow_write ? ", outside the run's scratch directory"
                                                   : " (needs --allow-write)");
}

/*
 * The jobs' files as fio names them (fionamed.c), each checked as the
 * model's: what the model named is met again, what it missed is one more
 * target (read; written only with --allow-write, mounted and held devices
 * refused), a new file outside the scratch directories a problem.  sums:
 * what each job does to its files, from one_job().
 */
static int fio_reading(struct model *m, const struct jobsum *sums, struct bench_error *e)
{
        _cleanup_(bench_fio_named_done) struct bench_fio_named n = {};
        int r;

        if (m->nfiles > FIO_NAMED_MAX) {
                fprintf(stderr,
                        "iosched-bench: note: the jobs name %ju files, more than the %u fio is asked to name "
                        "before it runs: the checks use iosched-bench's reading of the jobs\n",
                        (uintmax_t)m->nfiles, FIO_NAMED_MAX);
                return 0;
        }
        /* fio's reading adds a marker job after each job asked: past fio's own limit on jobs, not asked */
        if ((uint64_t)m->thread + m->d->n > BENCH_JOBS_MAX) {
                fprintf(stderr,
                        "iosched-bench: note: the jobs and their clones are %u, too many for fio to be asked "
                        "to name their files (with a marker after each, past fio's %d): the checks use "
                        "iosched-bench's reading of the jobs\n",
                        m->thread, BENCH_JOBS_MAX);
                return 0;
        }
        r = bench_fio_named(m->d, m->f->exe, &m->f->access, &n, e);
        for (size_t i = 0; r >= 0 && i < n.n; i++) {
                struct jobsum js = sums[i];

                if (!n.asked[i])
                        continue;
                js.nnew = js.nchange = 0;
                for (char **p = n.names[i]; r >= 0 && p && *p; p++)
                        r = bench_stop_signal ? -EINTR : fio_named(m, &js, *p);
                if (r >= 0)
                        r = job_said(m, &m->d->jobs[i], &js);
        }
        return r;
}

/*
 * fio's trigger: --trigger-file is removed as fio finds it (an existing
 * one at once), and when it is found or --trigger-timeout passes fio saves
 * every job's verify state, then runs --trigger/--trigger-remote.
 */
static int prog_code(struct model *m)
{
        static const char * const trig[] = { "trigger", "trigger-file", "trigger-remote" };
        const char *tf = bench_fio_kv_get(&m->d->prog, "trigger-file");
        struct stat st;

        m->triggered = tf || bench_fio_kv_get(&m->d->prog, "trigger-timeout");
        if (tf && lstat(tf, &st) == 0) {
                int r = bench_fio_problem(m->d, "--trigger-file=%s exists: fio would remove it as it starts",
                                          tf);

                if (r < 0)
                        return r;
        }

        for (size_t i = 0; i < ELEMENTSOF(trig); i++) {
                const char *v = bench_fio_kv_get(&m->d->prog, trig[i]);
                int r;

                if (!v || (i == 1 && !bench_fio_kv_get(&m->d->prog, "trigger") &&
                           !bench_fio_kv_get(&m->d->prog, "trigger-remote")))
                        continue;       /* a trigger file alone runs nothing */
                r = m->g->allow_exec ? bench_list_push(&m->ex, "/bin/sh")
                                     : bench_fio_problem(m->d, "--%s=%s runs a command: needs --allow-exec", trig[i], v);
                if (r < 0)
                        return r;
        }
        return 0;
}

static int target_device(struct model *m)
{
        _cleanup_free_ char *dev = NULL;
        struct stat st;
        const char *t = m->g->target_device;

        if (!t)
                return 0;
        if (asprintf(&dev, "%s%s", strchr(t, '/') ? "" : "/dev/", t) < 0)
                return -ENOMEM;
        if (stat(dev, &st) < 0 || !S_ISBLK(st.st_mode))
                return bench_fio_problem(m->d, "--target-device=%s: not a block device", t);
        m->want_rdev = st.st_rdev;
        return 0;
}

int bench_fio_model(const struct bench_opts *g, struct bench_fio_defs *d, struct ios_ctx *root,
                    struct bench_fio *f, struct bench_target *tg, struct bench_error *e)
{
        struct model m = { .g = g, .d = d, .f = f, .root = root, .tg = tg };
        _cleanup_(ios_strv_freep) char **out = NULL;
        _cleanup_free_ struct jobsum *sums = NULL;
        bool resolved = true;
        int r;

        m.created = (struct bench_list){ .v = &f->created };
        m.rd = (struct bench_list){ .v = &f->access.read };
        m.wr = (struct bench_list){ .v = &f->access.write };
        m.cr = (struct bench_list){ .v = &f->access.create };
        m.ex = (struct bench_list){ .v = &f->access.exec };
        m.in = (struct bench_list){ .v = &f->access.input };
        m.ls = (struct bench_list){ .v = &f->access.listed };
        m.out = (struct bench_list){ .v = &out };
        f->access.allow_exec = g->allow_exec;
        r = target_device(&m);
        if (r >= 0)
                r = prog_code(&m);
        sums = calloc(d->n + 1, sizeof(*sums));
        if (!sums)
                r = -ENOMEM;
        for (size_t i = 0; i < d->n; i++)
                m.loads |= truthy(&d->jobs[i], "verify_state_load");
        for (size_t i = 0; r >= 0 && i < d->n; i++)
                r = bench_stop_signal ? -EINTR : one_job(&m, &d->jobs[i], &sums[i], &resolved);
        /* fio's own names for the files, asked inside a fence that grants none */
        if (r >= 0 && !d->nproblems && f->exe && bench_sandbox_abi() > 0)
                r = fio_reading(&m, sums, e);
        if (r >= 0 && g->compare && m.disks.n > 1) {
                _cleanup_free_ char *list = NULL;
                size_t len = 0;
                FILE *s = open_memstream(&list, &len);

                for (size_t i = 0; s && i < m.disks.cap; i++)
                        if (m.disks.v[i])
                                fprintf(s, "%s%s", len || ftell(s) ? ", " : "", m.disks.v[i]);
                if (s)
                        fclose(s);
                r = bench_fio_problem(d, "--compare switches one disk's scheduler, and the jobs' targets are on "
                                      "%zu disks (%s)", m.disks.n, list ? list : "?");
        }
        f->access.resolved = resolved;
        if (r >= 0 && !resolved && bench_sandbox_abi() == 0)
                r = bench_fio_problem(d, "cannot confine fio on this kernel (no Landlock) and cannot resolve every "
                                      "file the jobs name: refusing");
        /* nothing made for a refused run */
        if (r >= 0 && !d->nproblems)
                r = make_outputs(&m);
        if (r == -EINTR)
                r = bench_error_set(e, BENCH_ERR_INTERRUPTED, EINTR, "interrupted by signal %d", bench_stop_signal);
        bench_sset_done(&m.seen);
        bench_sset_done(&m.seen_w);
        bench_sset_done(&m.dirs);
        bench_sset_done(&m.disks);
        return r;
}

void bench_fio_access_done(struct bench_fio_access *a)
{
        ios_strv_free(a->read);
        ios_strv_free(a->input);
        ios_strv_free(a->listed);
        ios_strv_free(a->write);
        ios_strv_free(a->create);
        ios_strv_free(a->exec);
        *a = (struct bench_fio_access){};
}
