/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * target.c: what the benchmark reads and writes, and the rules that keep it
 * from destroying data.  Reads are allowed on any block device or file.
 * Writes to a block device need --allow-write and are refused (exit 3) when
 * the device or, for a whole disk, any of its partitions is mounted
 * (/proc/self/mountinfo) or has holders (dm, md, ... in sysfs holders/), and
 * the device is then opened O_EXCL, which the kernel refuses with EBUSY
 * while anything else claims it, and which keeps anyone from claiming it
 * during the run.  Writes to an existing regular file also need
 * --allow-write; a path that does not exist, or a directory, gets a file we
 * create, lay out and remove again (by directory handle: created.c), also
 * on signals and errors (atexit).
 * A file or directory on a kernel interface's filesystem (sysfs, procfs:
 * storage.c) is refused, read or write.
 * The region (--offset, --size) is checked against the target here, and the
 * I/O loop never leaves it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "bench.h"
#include "guard.h"
#include "macro.h"
#include "strv.h"

/* The files we created, removed by directory handle (created.c), also from atexit() if the run ends early. */
void bench_target_atexit(void)
{
        bench_created_remove_all();
}

void bench_target_close_one(struct bench_target *t)
{
        if (t->fd >= 0)
                close(t->fd);
        t->fd = -1;
        if (t->created) {
                (void)bench_created_remove(t->created);
                free(t->created);
                t->created = NULL;
        }
        free(t->path);
        t->path = NULL;
}

static int read_all(const char *path, char **ret)
{
        FILE *f = fopen(path, "re");
        char *buf = NULL;
        size_t len = 0;
        int r = 0;

        if (!f)
                return -errno;
        {
                FILE *m = open_memstream(&buf, &len);
                char chunk[4096];
                size_t n;

                if (!m) {
                        fclose(f);
                        return -ENOMEM;
                }
                while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
                        fwrite(chunk, 1, n, m);
                if (ferror(f))
                        r = -EIO;
                fclose(m);
        }
        fclose(f);
        if (r < 0 || !buf) {
                free(buf);
                return r < 0 ? r : -ENOMEM;
        }
        *ret = buf;
        return 0;
}

static int count_dir(int dirfd, const char *sub)
{
        int n = ios_sysfs_list(dirfd, sub, NULL);

        return n == -ENOENT ? 0 : n;
}

/*
 * The block devices a write to maj:min would hit: the device itself and,
 * when it is the whole disk, every partition (which may have another major:
 * loop and NVMe partitions often get extended numbers).  Fills majors and
 * minors and reports the first one with holders.
 */
static int collect_devices(struct ios_device *disk, unsigned major, unsigned minor, unsigned *majors,
                           unsigned *minors, size_t max, size_t *ret_n, char **ret_held)
{
        _cleanup_(ios_strv_freep) char **names = NULL;
        bool whole = disk->major == major && disk->minor == minor;
        size_t n = 0;
        int r;

        majors[n] = major;
        minors[n++] = minor;
        if (whole) {
                r = count_dir(disk->fd, "holders");
                if (r > 0 && !(*ret_held = strdup(disk->name)))
                        return -ENOMEM;
        }
        r = ios_sysfs_list(disk->fd, ".", &names);
        if (r < 0)
                return r;
        for (char **nm = names; *nm; nm++) {
                _cleanup_free_ char *dev = NULL, *attr = NULL, *hold = NULL;
                unsigned ma, mi;

                if (asprintf(&attr, "%s/partition", *nm) < 0 || !ios_sysfs_exists(disk->fd, attr))
                        continue;
                free(attr);
                attr = NULL;
                if (asprintf(&attr, "%s/dev", *nm) < 0 ||
                    ios_sysfs_read_string(disk->fd, attr, &dev) < 0 || sscanf(dev, "%u:%u", &ma, &mi) != 2)
                        continue;
                if (!whole && !(ma == major && mi == minor))
                        continue;
                if (whole && n < max) {
                        majors[n] = ma;
                        minors[n++] = mi;
                }
                if (asprintf(&hold, "%s/holders", *nm) >= 0 && count_dir(disk->fd, hold) > 0 &&
                    !*ret_held && !(*ret_held = strdup(*nm)))
                        return -ENOMEM;
        }
        *ret_n = n;
        return 0;
}

static int check_bdev_write(const char *path, struct ios_ctx *r, unsigned major, unsigned minor,
                            struct bench_error *e)
{
        _cleanup_free_ char *held = NULL, *mi = NULL, *mnt = NULL, *devname = NULL;
        struct ios_device *disk = NULL;
        unsigned majors[256], minors[256];
        size_t n = 0;
        int k;

        if (asprintf(&devname, "%u:%u", major, minor) < 0)
                return -ENOMEM;
        k = ios_device_new(r, devname, &disk);
        if (k < 0)
                return bench_error_set(e, BENCH_ERR_REFUSED, -k,
                                       "%s: refusing to write: cannot inspect the device in sysfs (%s)",
                                       path, ios_strerror(k));
        k = collect_devices(disk, major, minor, majors, minors, ELEMENTSOF(minors), &n, &held);
        if (k < 0) {
                ios_device_free(disk);
                return bench_error_set(e, BENCH_ERR_REFUSED, -k, "%s: refusing to write: cannot list partitions (%s)",
                                       path, ios_strerror(k));
        }
        k = read_all("/proc/self/mountinfo", &mi);
        if (k < 0) {
                ios_device_free(disk);
                return bench_error_set(e, BENCH_ERR_REFUSED, -k, "%s: refusing to write: cannot read mountinfo (%s)",
                                       path, ios_strerror(k));
        }
        k = bench_mountinfo_find(mi, majors, minors, n, &mnt);
        if (k > 0) {
                ios_device_free(disk);
                return bench_error_set(e, BENCH_ERR_REFUSED, EBUSY, "%s: refusing to write: mounted on %s",
                                       path, mnt);
        }
        if (held) {
                ios_device_free(disk);
                return bench_error_set(e, BENCH_ERR_REFUSED, EBUSY,
                                       "%s: refusing to write: %s has holders (in use by dm, md or similar)",
                                       path, held);
        }
        ios_device_free(disk);
        return k < 0 ? k : 0;
}

/* Write the whole file once so reads see real blocks, as fio's layout does. */
static int layout(int fd, uint64_t size)
{
        const size_t chunk = 1u << 20;
        uint64_t seed = 0x5eed, done = 0;
        uint64_t *buf = malloc(chunk);

        if (!buf)
                return -ENOMEM;
        for (size_t i = 0; i < chunk / 8; i++) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                buf[i] = seed;
        }
        while (done < size) {
                size_t n = size - done < chunk ? (size_t)(size - done) : chunk;
                ssize_t w;

                if (bench_stop_signal) {
                        free(buf);
                        return -EINTR;  /* the caller removes the file */
                }
                w = pwrite(fd, buf, n, (off_t)done);
                if (w < 0 && errno == EINTR)
                        continue;
                if (w <= 0) {
                        int err = w < 0 ? -errno : -EIO;
                        free(buf);
                        return err;
                }
                done += (uint64_t)w;
        }
        free(buf);
        return fsync(fd) < 0 ? -errno : 0;
}

static int create_file(const struct bench_opts *o, uint64_t size, const char *path, bool in_dir,
                       struct bench_target *t, struct bench_error *e)
{
        _cleanup_close_ int fd = -1;
        int r;

        /* a new file is a write: laid out for the run (size= of random bytes), removed after it */
        if (!o->allow_write)
                return bench_error_set(e, BENCH_ERR_REFUSED, EPERM,
                                       "refusing to make %s%s without --allow-write (a new file, laid out "
                                       "for the run and removed after it)", in_dir ? "a file in " : "", path);
        if (size == 0)
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                       "%s does not exist: give --size (in bytes) to create it", path);
        if (in_dir) {
                char *p;

                if (asprintf(&p, "%s/iosched-bench.XXXXXX", path) < 0)
                        return -ENOMEM;
                fd = mkostemp(p, O_CLOEXEC);
                if (fd < 0) {
                        r = -errno;
                        free(p);
                        return bench_error_set(e, BENCH_ERR_SYSTEM, -r, "cannot create a file in %s: %s",
                                               path, ios_strerror(r));
                }
                t->created = p;
        } else {
                fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
                if (fd < 0) {
                        r = -errno;
                        return bench_error_set(e, r == -ENOENT ? BENCH_ERR_USAGE : BENCH_ERR_SYSTEM, -r,
                                               "cannot create %s: %s", path, ios_strerror(r));
                }
                t->created = strdup(path);
                if (!t->created) {
                        (void)unlink(path);
                        return -ENOMEM;
                }
        }
        r = bench_created_add(t->created, fd);
        if (r < 0) {
                if (r == -EEXIST)
                        return bench_error_set(e, BENCH_ERR_SYSTEM, EEXIST, "%s changed while it was created: left alone",
                                               t->created);
                (void)unlink(t->created);
                return r;
        }
        r = layout(fd, size);
        if (r < 0)
                return bench_error_set(e, BENCH_ERR_SYSTEM, -r, "cannot lay out %s: %s", t->created,
                                       ios_strerror(r));
        return 0;
}

int bench_target_region(const struct bench_opts *o, const struct bench_target *t, uint64_t *ret_start,
                        uint64_t *ret_len, struct bench_error *e)
{
        uint32_t maxbs = 0;
        uint64_t off, len;

        if (bench_rw_reads(o->rw))
                maxbs = o->bs[BENCH_READ];
        if (bench_rw_writes(o->rw) && o->bs[BENCH_WRITE] > maxbs)
                maxbs = o->bs[BENCH_WRITE];
        off = o->offset.pct > 0 ? (uint64_t)((long double)t->dev_size * o->offset.pct / 100.0L) : o->offset.bytes;
        off -= off % t->lbs;
        if (o->offset.pct == 0 && o->offset.bytes % t->lbs)
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                       "--offset=%" PRIu64 " is not a multiple of the block size %u of %s",
                                       o->offset.bytes, t->lbs, t->path);
        if (off >= t->dev_size)
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "--offset is beyond the end of %s (%" PRIu64 " bytes)",
                                       t->path, t->dev_size);
        if (!o->size.set)
                len = t->dev_size - off;
        else if (o->size.pct > 0)
                len = (uint64_t)((long double)t->dev_size * o->size.pct / 100.0L);
        else
                len = o->size.bytes;
        if (off + len > t->dev_size) {
                if (o->size.pct > 0)
                        len = t->dev_size - off;
                else
                        return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                               "--offset + --size (%" PRIu64 ") is beyond the end of %s (%" PRIu64 " bytes)",
                                               off + len, t->path, t->dev_size);
        }
        for (int d = 0; d < BENCH_NDIR; d++)
                if (o->direct && o->bs[d] % t->lbs)
                        return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                               "--bs=%u is not a multiple of the logical block size %u of %s",
                                               o->bs[d], t->lbs, t->path);
        if (len < maxbs)
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                       "the region (%" PRIu64 " bytes) is smaller than --bs", len);
        *ret_start = off;
        *ret_len = len;
        return 0;
}

/* A file or directory on a filesystem that is a kernel interface (storage.c): refused, exit 3. */
static int not_storage(const char *path, struct bench_error *e)
{
        const char *fs = bench_storage_kernel_fs(path);

        return fs ? bench_error_set(e, BENCH_ERR_REFUSED, EPERM,
                                    "refusing %s: it is on %s, a kernel interface, not storage", path, fs)
                  : 0;
}

int bench_target_open_path(const struct bench_opts *o, const char *path, bool writes, uint64_t create_size,
                           struct ios_ctx *r, struct bench_target *t, struct bench_error *e)
{
        struct stat st;
        int flags, k;

        memset(t, 0, sizeof(*t));
        t->fd = -1;
        t->lbs = 512;
        t->writes = writes;
        t->direct = o->direct;
        if (o->engine->flags & BENCH_ENGINE_NOFILE) {
                /* nothing is opened: a region of --size (default 1 GiB) in thin air */
                t->dev_size = o->size.set && o->size.pct == 0 ? o->offset.bytes + o->size.bytes : 1ull << 30;
                t->path = strdup(path ? path : "null");
                return t->path ? 0 : -ENOMEM;
        }
        t->path = strdup(path);
        if (!t->path)
                return -ENOMEM;

        if (stat(path, &st) < 0) {
                char dir[PATH_MAX];
                const char *slash = strrchr(path, '/');

                if (errno != ENOENT)
                        return bench_error_set(e, BENCH_ERR_USAGE, errno, "%s: %s", path,
                                               ios_strerror(errno));
                snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
                k = not_storage(dir, e);
                if (k < 0)
                        return k;
                k = create_file(o, create_size, path, false, t, e);
                if (k < 0)
                        return k;
        } else if (S_ISDIR(st.st_mode)) {
                k = not_storage(path, e);
                if (k < 0)
                        return k;
                k = create_file(o, create_size, path, true, t, e);
                if (k < 0)
                        return k;
        } else if (S_ISBLK(st.st_mode)) {
                t->is_bdev = true;
                t->major = major(st.st_rdev);
                t->minor = minor(st.st_rdev);
        } else if (!S_ISREG(st.st_mode))
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "%s is not a block device, file or directory",
                                       path);
        else if ((k = not_storage(path, e)) < 0)
                return k;

        if (t->created) {
                free(t->path);
                t->path = strdup(t->created);
                if (!t->path)
                        return -ENOMEM;
        } else if (writes && !o->allow_write)
                return bench_error_set(e, BENCH_ERR_REFUSED, EPERM,
                                       "refusing to write to %s without --allow-write (its data would be overwritten)",
                                       path);
        if (t->is_bdev && writes) {
                k = check_bdev_write(path, r, t->major, t->minor, e);
                if (k < 0)
                        return k;
        }

        flags = (writes ? O_RDWR : O_RDONLY) | O_CLOEXEC | (o->direct ? O_DIRECT : 0);
        /* O_EXCL on a block device: EBUSY while mounted, swapped on or held */
        if (t->is_bdev && writes)
                flags |= O_EXCL;
        t->fd = open(t->path, flags);
        if (t->fd < 0) {
                k = -errno;
                if (k == -EBUSY)
                        return bench_error_set(e, BENCH_ERR_REFUSED, EBUSY,
                                               "%s: refusing to write: the device is in use (exclusive open failed)",
                                               t->path);
                if (k == -EINVAL && o->direct)
                        return bench_error_set(e, BENCH_ERR_SYSTEM, EINVAL,
                                               "%s: O_DIRECT is not supported here (try --direct=0)", t->path);
                return bench_error_set(e, BENCH_ERR_SYSTEM, -k, "cannot open %s: %s", t->path,
                                       ios_strerror(k));
        }
        if (fstat(t->fd, &st) < 0)
                return bench_error_set(e, BENCH_ERR_SYSTEM, errno, "%s: %s", t->path, ios_strerror(errno));
        if (t->is_bdev) {
                uint64_t sz;
                int lbs;

                if (ioctl(t->fd, BLKGETSIZE64, &sz) < 0)
                        return bench_error_set(e, BENCH_ERR_SYSTEM, errno, "%s: cannot read its size: %s",
                                               t->path, ios_strerror(errno));
                t->dev_size = sz;
                if (ioctl(t->fd, BLKSSZGET, &lbs) == 0 && lbs > 0)
                        t->lbs = (unsigned)lbs;
        } else {
                struct statx sx;

                t->dev_size = (uint64_t)st.st_size;
                t->major = major(st.st_dev);
                t->minor = minor(st.st_dev);
                /* the file system's O_DIRECT alignment, where the kernel tells (6.1+) */
                if (o->direct && statx(t->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 &&
                    (sx.stx_mask & STATX_DIOALIGN) && sx.stx_dio_offset_align > 0)
                        t->lbs = sx.stx_dio_offset_align;
                if (!o->direct)
                        t->lbs = 1;
        }
        if (t->dev_size == 0)
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "%s is empty", t->path);
        if (!o->direct && t->is_bdev)
                t->lbs = 1;
        return 0;
}
