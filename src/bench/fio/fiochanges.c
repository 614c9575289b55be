/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fiochanges.c: what a job changes of the files it opens, by fio's rules
 * (fiojob.c applies it to each file): rw= with write or trim (or a value
 * that is neither read nor randread), trim_*, fill_device (verify= alone
 * writes nothing: fio opens a read job's files O_RDONLY), zonemode=zbd,
 * the engines falloc, e4defrag and filecreate (writes), ftruncate
 * (truncates), libpmem (fills, sizes and allocates), filedelete, unlink
 * and unlink_each_loop (deletes), write_hint= (fio sets the write hint of
 * each file or device, F_SET_RW_HINT, which its inode keeps after the
 * run, read job or not, whatever the value: none too), and the bytes
 * each file must hold (filesize='s least, or its start, offset= plus
 * offset_increment= for each clone of numjobs, plus size over the job's
 * files, each as fio keeps it when given twice), else fio lays it out
 * again, read job or not.  The one reader of rw='s directions, fio's
 * td_read(), td_write() and td_trim().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fioread.h"
#include "macro.h"

bool bench_fio_value_is(const char *v, const char *ival)
{
        size_t n = strchr(v, ',') ? (size_t)(strchr(v, ',') - v) : strcspn(v, ":");

        return strlen(ival) == n && !strncmp(v, ival, n);
}

unsigned bench_fio_ddir(const char *rw)
{
        enum { R = BENCH_FIO_DDIR_READ, W = BENCH_FIO_DDIR_WRITE, T = BENCH_FIO_DDIR_TRIM };
        /* fio's table of rw= (options.c), matched as parse.c does (value_is) */
        static const struct {
                const char *name;
                unsigned ddir;
        } table[] = {
                { "read", R },  { "randread", R },  { "write", W },    { "randwrite", W },
                { "trim", T },  { "randtrim", T },  { "rw", R | W },   { "readwrite", R | W },
                { "randrw", R | W }, { "trimwrite", T | W }, { "randtrimwrite", T | W },
        };

        if (!rw)
                return R;       /* fio's default */
        for (size_t i = 0; i < ELEMENTSOF(table); i++)
                if (bench_fio_value_is(rw, table[i].name))
                        return table[i].ddir;
        return R | W | T;       /* a value fio's table does not have: every direction */
}

/*
 * How fio takes size=, offset= and offset_increment= given more than once
 * (options.c str_size_cb, str_offset_cb, str_offset_increment_cb): a
 * share (N%) or a zone count (Nz) replaces the other and zeroes the bytes,
 * but bytes leave an earlier share or zone count in force.  So the last
 * share or zone count rules, whatever follows it: its value (*special,
 * and true) when there is one; *plain the last value after it, if any.
 * A share is 0% to 100% only (parse.h parse_is_percent()): fio reads 101%
 * as 2^64 - 102 bytes, which the checks cannot read (a plain value).
 */
static bool share(const char *v)
{
        char *end;
        long long p;

        errno = 0;
        p = strtoll(v, &end, strstr(v, "0x") || strstr(v, "0X") ? 16 : 10);
        return end != v && errno == 0 && p >= 0 && p <= 100;
}

static bool in_force(const struct bench_fio_kvs *kv, const char *key, const char **special,
                     const char **plain)
{
        *special = *plain = NULL;
        for (size_t i = 0; i < kv->n; i++) {
                const char *v = kv->v[i].val;
                size_t n = v ? strlen(v) : 0;

                if (!v || !streq(kv->v[i].key, key))
                        continue;
                if ((strchr(v, '%') && share(v)) || (n && (v[n - 1] == 'z' || v[n - 1] == 'Z'))) {
                        *special = v;
                        *plain = NULL;
                } else
                        *plain = v;
        }
        return *special != NULL;
}

/*
 * The largest offset where a job's I/O starts in a file (fio's
 * get_start_offset()): offset= plus offset_increment= times the last of
 * numjobs' clones; -ERANGE where it depends on the file's size: a share
 * of it (fio then aligns it up to a block the checks do not know), or
 * file_append=, which starts at its end; -EINVAL or -EOVERFLOW where a
 * value is unreadable (a zone count) or too large.
 */
static int file_offset(const struct bench_fio_kvs *kv, uint64_t *ret)
{
        const char *off, *inc, *soff, *sinc, *nj = bench_fio_kv_get(kv, "numjobs");
        uint64_t o = 0, i = 0;
        unsigned clones = 1;

        if (!bench_fio_falsy(bench_fio_kv_get(kv, "file_append")))
                return -ERANGE;
        if (in_force(kv, "offset", &soff, &off) | in_force(kv, "offset_increment", &sinc, &inc))
                return (soff && strchr(soff, '%')) || (sinc && strchr(sinc, '%')) ? -ERANGE : -EINVAL;
        if ((off && bench_parse_size_most(off, &o) < 0) || (inc && bench_parse_size_most(inc, &i) < 0) ||
            (nj && bench_parse_uint(nj, 1, 1u << 20, &clones) < 0))
                return -EINVAL;
        if (__builtin_mul_overflow(i, (uint64_t)(clones - 1), &i) || __builtin_add_overflow(o, i, &o))
                return -EOVERFLOW;
        *ret = o;
        return 0;
}

/* What a job changes of the files it opens (fio's rules, conservative where a value is unreadable). */
void bench_fio_changes(const struct bench_fio_def *j, struct jobsum *js, unsigned nrfiles)
{
        /* verify= alone writes nothing: a read job verifies what is there, opened O_RDONLY */
        static const char * const writing[] = { "trim_percentage", "trim_backlog", "fill_device" };
        const struct bench_fio_kvs *kv = &j->kv;
        const char *rw = bench_fio_kv_get(kv, "rw"), *eng = bench_fio_kv_get(kv, "ioengine");
        const char *size, *ssize, *fsz = bench_fio_kv_get(kv, "filesize");
        const char *zm = bench_fio_kv_get(kv, "zonemode");
        uint64_t s = 0, o = 0;

        if (rw) {
                unsigned d = bench_fio_ddir(rw);

                js->ddir_write = d & BENCH_FIO_DDIR_WRITE;
                js->writes |= d & (BENCH_FIO_DDIR_WRITE | BENCH_FIO_DDIR_TRIM);
        }
        for (size_t i = 0; i < ELEMENTSOF(writing); i++)
                js->writes |= !bench_fio_falsy(bench_fio_kv_get(kv, writing[i])) && bench_fio_kv_get(kv, writing[i]);
        js->writes |= zm && bench_fio_value_is(zm, "zbd");
        /* libpmem: fio fills each file before the job (its prepopulate_file, read job or not), and
         * pmem_map_file() sizes it to the job's size and allocates it (engines/libpmem.c) */
        js->writes |= bench_fio_engine_is(eng, "falloc", "e4defrag", "filecreate", "libpmem");
        js->truncates = bench_fio_engine_is(eng, "ftruncate", "libpmem");
        js->hints = bench_fio_kv_get(kv, "write_hint") != NULL;
        js->deletes = bench_fio_engine_is(eng, "filedelete") ||
                      !bench_fio_falsy(bench_fio_kv_get(kv, "unlink")) ||
                      !bench_fio_falsy(bench_fio_kv_get(kv, "unlink_each_loop"));
        /* the bytes each file must hold, else fio lays it out (writes it), read job or not */
        if (fsz) {
                /* filesize=a or a-b: fio lays out only a file smaller than a (one larger than b it
                 * reads a share of), to a size of a to b counted from the file's start, offset or not */
                char lo[64];
                size_t n = strcspn(fsz, "-:");

                if (strchr(fsz, '%') || n >= sizeof(lo)) {
                        js->need_unsure = true;
                } else {
                        memcpy(lo, fsz, n);
                        lo[n] = '\0';
                        js->need_unsure |= bench_parse_size_most(lo, &s) < 0;
                }
        } else if (in_force(kv, "size", &ssize, &size)) {
                /* a share of each file with bytes given after it (fio keeps both), or a zone count */
                js->need_unsure |= strchr(ssize, '%') == NULL || size != NULL;
        } else if (size) {
                uint64_t n = nrfiles ? nrfiles : 1;

                js->need_unsure |= bench_parse_size_most(size, &s) < 0;
                /* fio gives the first files a block more where size does not divide: less than the rest */
                s = s / n + s % n;
                if (s) {
                        int r = file_offset(kv, &o);

                        js->need_share = r == -ERANGE;
                        js->need_unsure |= r < 0 || __builtin_add_overflow(s, o, &s);
                }
        }
        js->need = s;
}

