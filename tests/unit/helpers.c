/* SPDX-License-Identifier: LGPL-2.1-or-later */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"

const char *t_fixture(const char *name)
{
        static char buf[PATH_MAX];
        const char *base = getenv("IOS_FIXTURES");

        snprintf(buf, sizeof(buf), "%s/%s", base ? base : "build/fixtures", name);
        return buf;
}

char *t_fixture_copy(const char *name)
{
        char tmpl[] = "/tmp/iosched-test-XXXXXX", cmd[PATH_MAX * 2 + 32];
        char *dir = mkdtemp(tmpl);

        if (!dir)
                return NULL;
        snprintf(cmd, sizeof(cmd), "cp -a '%s/.' '%s/'", t_fixture(name), dir);
        if (system(cmd) != 0)
                return NULL;
        return strdup(dir);
}

void t_rmtree(char *dir)
{
        char cmd[PATH_MAX + 16];

        if (dir && strncmp(dir, "/tmp/iosched-test-", 18) == 0) {
                snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
                (void)system(cmd);
        }
        free(dir);
}

int t_write_file(const char *path, const char *content)
{
        char tmp[PATH_MAX];
        FILE *f;

        snprintf(tmp, sizeof(tmp), "%s", path);
        for (char *p = tmp + 1; *p; p++)
                if (*p == '/') {
                        *p = '\0';
                        (void)mkdir(tmp, 0755);
                        *p = '/';
                }
        f = fopen(path, "we");
        if (!f)
                return -errno;
        fputs(content, f);
        return fclose(f) == 0 ? 0 : -errno;
}

const char *t_read_file(const char *path)
{
        static char buf[65536];
        size_t n;
        FILE *f = fopen(path, "re");

        if (!f)
                return NULL;
        n = fread(buf, 1, sizeof(buf) - 1, f);
        fclose(f);
        buf[n] = '\0';
        while (n > 0 && buf[n - 1] == '\n')
                buf[--n] = '\0';
        return buf;
}
