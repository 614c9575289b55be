/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * replay.c: the main() of a fuzz target built without libFuzzer (make
 * tests builds every target this way, plain and under ASan+UBSan, as
 * $(BUILDDIR)/tests/test-fuzz-NAME).  With file arguments it runs each
 * through LLVMFuzzerTestOneInput(); without, it replays the committed seed
 * corpus tests/fuzz/corpus/NAME and every input that once made the target
 * fail, tests/fuzz/regressions/NAME (the named regression tests), so a
 * crash, a leak or an abort() of the target's checks fails make check.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_NAME
#error "FUZZ_NAME is the target's name (fuzz.mk passes it)"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
        FILE *f = fopen(path, "rb");
        uint8_t *buf = NULL;
        size_t len = 0, cap = 0;

        if (!f) {
                fprintf(stderr, "replay: %s: cannot open\n", path);
                return -1;
        }
        for (;;) {
                if (len == cap) {
                        uint8_t *n = realloc(buf, cap = cap ? 2 * cap : 4096);
                        if (!n)
                                abort();
                        buf = n;
                }
                size_t r = fread(buf + len, 1, cap - len, f);
                if (r == 0)
                        break;
                len += r;
        }
        fclose(f);
        LLVMFuzzerTestOneInput(buf, len);
        free(buf);
        return 0;
}

static int cmp(const void *a, const void *b)
{
        return strcmp(*(char * const *)a, *(char * const *)b);
}

/* Every file of dir, in name order; the count run, or -1. */
static int run_dir(const char *dir, int must_exist)
{
        char **names = NULL;
        size_t n = 0;
        struct dirent *de;
        DIR *d = opendir(dir);
        int r = 0;

        if (!d) {
                if (must_exist)
                        fprintf(stderr, "replay: %s: cannot open\n", dir);
                return must_exist ? -1 : 0;
        }
        while ((de = readdir(d)))
                if (de->d_name[0] != '.') {
                        names = realloc(names, (n + 1) * sizeof(*names));
                        if (!names || !(names[n++] = strdup(de->d_name)))
                                abort();
                }
        closedir(d);
        qsort(names, n, sizeof(*names), cmp);
        for (size_t i = 0; i < n; i++) {
                char path[4096];

                snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
                fprintf(stderr, "%s\n", path);
                fflush(stderr);
                if (run_file(path) < 0)
                        r = -1;
                free(names[i]);
        }
        free(names);
        return r < 0 ? -1 : (int)n;
}

int main(int argc, char **argv)
{
        const char *top = getenv("IOS_TOP");
        char dir[4096];
        int n, m;

        if (argc > 1) {
                for (int i = 1; i < argc; i++)
                        if (run_file(argv[i]) < 0)
                                return 1;
                return 0;
        }
        snprintf(dir, sizeof(dir), "%s/tests/fuzz/corpus/" FUZZ_NAME, top ? top : ".");
        n = run_dir(dir, 1);
        snprintf(dir, sizeof(dir), "%s/tests/fuzz/regressions/" FUZZ_NAME, top ? top : ".");
        m = run_dir(dir, 0);
        if (n <= 0 || m < 0) {
                fprintf(stderr, "replay: " FUZZ_NAME ": no seed corpus or an unreadable input\n");
                return 1;
        }
        printf("fuzz-" FUZZ_NAME ": %d seed inputs and %d regression inputs replayed without a finding\n", n, m);
        return 0;
}
