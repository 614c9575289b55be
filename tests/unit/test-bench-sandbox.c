/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the kernel's fence around fio (sandbox.c, Landlock), alone,
 * without the up-front model: fio is run on job forms that write, delete,
 * lay out, append an iolog or run a program, once unfenced (each must do
 * its harm, or the case proves nothing) and once inside a fence that allows
 * no write; fenced, the file stays byte-identical and no marker appears.
 * One write beneath an access.create directory succeeds (the fence is not
 * "deny all"), a fence that cannot be built names its step and error, the
 * fenced cannot signal a process outside (Landlock ABI 6), and
 * a program's ELF interpreter is read from its PT_INTERP.
 * Skips (77) when not root, without fio, or without Landlock.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../src/bench/fio/fio.h"

#define PRECIOUS "precious data\n"

static char *fio;
static char dir[64];

/* fio on args (NULL-terminated), fenced with a when a is not NULL; fio's exit status, or 128 + signal */
static int run_fio(const struct bench_fio_access *a, char **args)
{
        char *argv[32] = { fio, "--output-format=json", "--eta=never" };
        int n = 3, status;
        pid_t pid;

        for (char **p = args; *p && n < 31; p++)
                argv[n++] = *p;
        pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
                const char *step;
                int null = open("/dev/null", O_WRONLY);

                dup2(null, STDOUT_FILENO);
                dup2(null, STDERR_FILENO);
                if (chdir(dir) < 0 || (a && bench_sandbox_enter(a, fio, &step) < 0))
                        _exit(200);
                execv(fio, argv);
                _exit(201);
        }
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(!WIFEXITED(status) || WEXITSTATUS(status) < 200);   /* fenced and started */
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static char *path(const char *name)
{
        static char buf[4][128];
        static int i;

        i = (i + 1) % 4;
        snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
        return buf[i];
}

static void put_victim(void)
{
        FILE *f = fopen(path("victim"), "we");

        assert_non_null(f);
        fputs(PRECIOUS, f);
        assert_int_equal(fclose(f), 0);
        (void)unlink(path("marker"));
}

/* Is the victim byte-identical, and no marker there? */
static bool intact(void)
{
        char buf[64] = "";
        FILE *f = fopen(path("victim"), "re");
        size_t n;

        if (!f)
                return false;
        n = fread(buf, 1, sizeof(buf) - 1, f);
        fclose(f);
        return n == strlen(PRECIOUS) && !memcmp(buf, PRECIOUS, n) && access(path("marker"), F_OK) < 0;
}

struct form {
        const char *what;
        char *args[12];
};

static void test_no_write_escapes(void **state)
{
        char victim[128], data[128], touch[160], marker[128], iolog[160];
        const struct form forms[] = {
                { "write", { "--name=w", "--rw=write", "--size=64k", victim } },
                { "unlink=1", { "--name=u", "--rw=read", "--size=4k", "--unlink=1", victim } },
                { "ioengine=filedelete", { "--name=d", "--ioengine=filedelete", "--rw=read", "--size=4k", victim } },
                { "layout of a smaller file", { "--name=l", "--rw=read", "--size=1m", victim } },
                { "write_iolog", { "--name=i", "--rw=read", "--size=64k", data, iolog } },
                { "exec_prerun", { "--name=e", "--rw=read", "--size=64k", data, touch } },
                { "ioengine=exec", { "--name=x", "--ioengine=exec", "--program=/usr/bin/touch", marker, "--runtime=1" } },
        };
        char *rd[] = { dir, NULL };
        const struct bench_fio_access none = { .read = rd, .resolved = true };

        (void)state;
        snprintf(victim, sizeof(victim), "--filename=%s", path("victim"));
        snprintf(data, sizeof(data), "--filename=%s", path("data"));
        snprintf(touch, sizeof(touch), "--exec_prerun=touch %s", path("marker"));
        snprintf(marker, sizeof(marker), "--arguments=%s", path("marker"));
        snprintf(iolog, sizeof(iolog), "--write_iolog=%s", path("victim"));
        for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
                put_victim();
                (void)run_fio(NULL, (char **)forms[i].args);
                if (intact())
                        fail_msg("%s: unfenced, fio did no harm: the case proves nothing", forms[i].what);
                put_victim();
                (void)run_fio(&none, (char **)forms[i].args);
                if (!intact())
                        fail_msg("%s: fenced with no write allowed, fio still wrote", forms[i].what);
        }
}

static void test_create_dir_allowed(void **state)
{
        char *rd[] = { dir, NULL }, *cr[] = { dir, NULL };
        const struct bench_fio_access a = { .read = rd, .create = cr, .resolved = true };
        char name[160];
        char *args[] = { "--name=n", "--rw=write", "--size=64k", name, NULL };
        struct stat st;

        (void)state;
        snprintf(name, sizeof(name), "--filename=%s", path("new"));
        (void)unlink(path("new"));
        assert_int_equal(run_fio(&a, args), 0);
        assert_int_equal(stat(path("new"), &st), 0);
        assert_int_equal(st.st_size, 65536);
        /* and the victim beside it is still fenced: writing it is not making a file */
        put_victim();
        snprintf(name, sizeof(name), "--filename=%s", path("victim"));
        (void)run_fio(&(struct bench_fio_access){ .read = rd, .resolved = true }, args);
        assert_true(intact());
}

static void test_interp(void **state)
{
        char buf[256];

        (void)state;
        assert_int_equal(bench_sandbox_interp(fio, buf, sizeof(buf)), 1);
        assert_true(buf[0] == '/' && strstr(buf, "ld"));
        assert_int_equal(bench_sandbox_interp(path("victim"), buf, sizeof(buf)), 0);     /* not ELF */
}

/* A fence that cannot be built says which step and why, and fio is never run unconfined (fio.c). */
static void test_fence_fails(void **state)
{
        char *wr[] = { path("loop"), NULL };
        const struct bench_fio_access a = { .write = wr, .resolved = true };
        struct { int r; char step[32]; } m = { 0 };
        int p[2], status;
        pid_t pid;

        (void)state;
        assert_int_equal(symlink("loop", path("loop")), 0);    /* a link to itself: ELOOP */
        assert_int_equal(pipe(p), 0);
        pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
                const char *step = NULL;

                m.r = bench_sandbox_enter(&a, fio, &step);
                snprintf(m.step, sizeof(m.step), "%s", step ? step : "");
                _exit(write(p[1], &m, sizeof(m)) == (ssize_t)sizeof(m) ? 0 : 1);
        }
        close(p[1]);
        assert_int_equal(read(p[0], &m, sizeof(m)), (ssize_t)sizeof(m));
        close(p[0]);
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_int_equal(m.r, -ELOOP);
        assert_string_equal(m.step, "write access");
        assert_int_equal(unlink(path("loop")), 0);
}

/* From ABI 6 the fenced may not signal a process outside the fence: here its parent. */
static void test_signal_scope(void **state)
{
        char *rd[] = { dir, NULL };
        const struct bench_fio_access a = { .read = rd, .resolved = true };
        int status;
        pid_t pid;

        (void)state;
        if (bench_sandbox_abi() < 6)
                skip();
        pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
                const char *step;

                if (bench_sandbox_enter(&a, fio, &step) < 0)
                        _exit(2);
                _exit(kill(getppid(), 0) < 0 && errno == EPERM ? 0 : 1);
        }
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
}

static int setup(void **state)
{
        int fd;
        char block[4096];

        (void)state;
        snprintf(dir, sizeof(dir), "/tmp/iosched-sandbox-XXXXXX");
        if (!mkdtemp(dir))
                return -1;
        fd = open(path("data"), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0)
                return -1;
        memset(block, 0x5a, sizeof(block));
        for (int i = 0; i < 256; i++)
                if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
                        return -1;
        close(fd);
        put_victim();
        return 0;
}

static int teardown(void **state)
{
        /* and what fio leaves in its working directory: exec_prerun's and the exec engine's output */
        const char *names[] = { "data", "victim", "marker", "new", "e.prerun.txt", "x.stdout", "x.stderr" };

        (void)state;
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
                (void)unlink(path(names[i]));
        if (rmdir(dir) < 0)
                fprintf(stderr, "cannot remove %s: %m\n", dir);
        return 0;
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_interp),
                cmocka_unit_test(test_no_write_escapes),
                cmocka_unit_test(test_create_dir_allowed),
                cmocka_unit_test(test_fence_fails),
                cmocka_unit_test(test_signal_scope),
        };

        if (geteuid() != 0) {
                printf("SKIP: needs root\n");
                return 77;
        }
        fio = bench_fio_find();
        if (!fio) {
                printf("SKIP: no fio\n");
                return 77;
        }
        if (bench_sandbox_abi() <= 0) {
                printf("SKIP: no Landlock in this kernel\n");
                return 77;
        }
        return cmocka_run_group_tests(tests, setup, teardown);
}
