/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz-util.h: what the fuzz targets share: a private scratch directory
 * (on /dev/shm when it is there), writing and removing files in it, and
 * splitting one input into several parts at NUL bytes (one part per file
 * or argument).  Header-only: each target is one .c, built either with
 * libFuzzer (make fuzz) or with replay.c's main (make tests).
 */
#ifndef IOS_FUZZ_UTIL_H
#define IOS_FUZZ_UTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A directory of our own, made once per process and removed at exit. */
static char fuzz_scratch[256];

static inline void fuzz_rm_rf_at(int dfd, const char *name)
{
        int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        DIR *d;
        struct dirent *de;

        if (fd < 0) {
                unlinkat(dfd, name, 0);
                return;
        }
        d = fdopendir(fd);
        if (!d) {
                close(fd);
                return;
        }
        while ((de = readdir(d)))
                if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
                        fuzz_rm_rf_at(dirfd(d), de->d_name);
        closedir(d);
        unlinkat(dfd, name, AT_REMOVEDIR);
}

static inline void fuzz_rm_rf(const char *path)
{
        fuzz_rm_rf_at(AT_FDCWD, path);
}

static inline void fuzz_scratch_cleanup(void)
{
        if (fuzz_scratch[0])
                fuzz_rm_rf(fuzz_scratch);
}

static inline const char *fuzz_scratch_dir(void)
{
        if (!fuzz_scratch[0]) {
                const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

                snprintf(fuzz_scratch, sizeof(fuzz_scratch), "%s/ios-fuzz-XXXXXX", base);
                if (!mkdtemp(fuzz_scratch)) {
                        perror("fuzz: mkdtemp");
                        abort();
                }
                atexit(fuzz_scratch_cleanup);
        }
        return fuzz_scratch;
}

/* mkdir -p of path's parent directories (path itself excluded). */
static inline void fuzz_mkparents(const char *path)
{
        char buf[4096];

        snprintf(buf, sizeof(buf), "%s", path);
        for (char *s = buf + 1; (s = strchr(s, '/')); s++) {
                *s = '\0';
                mkdir(buf, 0755);
                *s = '/';
        }
}

/* Write len bytes to path (parents made, file replaced); 0 or -errno. */
static inline int fuzz_write(const char *path, const void *data, size_t len)
{
        int fd;
        ssize_t n;

        fuzz_mkparents(path);
        unlink(path);
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd < 0)
                return -errno;
        n = len ? write(fd, data, len) : 0;
        close(fd);
        return n == (ssize_t)len ? 0 : -EIO;
}

/* The parts of data between NUL bytes (at most max), NUL-terminated copies. */
struct fuzz_parts {
        char *p[16];
        size_t len[16];
        size_t n;
};

static inline void fuzz_split(const uint8_t *data, size_t size, size_t max, struct fuzz_parts *out)
{
        size_t start = 0;

        if (max > 16)
                max = 16;
        out->n = 0;
        for (size_t i = 0; i <= size && out->n < max; i++) {
                if (i < size && (data[i] != '\0' || out->n + 1 == max))
                        continue;
                out->len[out->n] = i - start;
                out->p[out->n] = malloc(i - start + 1);
                if (!out->p[out->n])
                        abort();
                memcpy(out->p[out->n], data + start, i - start);
                out->p[out->n][i - start] = '\0';
                out->n++;
                start = i + 1;
        }
}

static inline void fuzz_parts_free(struct fuzz_parts *parts)
{
        for (size_t i = 0; i < parts->n; i++)
                free(parts->p[i]);
        parts->n = 0;
}

#endif
