/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz-sysfs: the sysfs side.  The input turns a captured tree
 * (tests/fixtures/NAME.tar.gz, unpacked once) into a damaged one, then the
 * library runs on it as iosched-apply --sysroot TREE --dry-run does: list
 * every disk (read facts, classify), load a policy, plan, and print the
 * dry run and the explanation.
 *
 * Input: the first byte chooses the fixture; the rest are lines
 *      w PATH CONTENT    write CONTENT (\n, \t, \\, \0 and \xHH unescaped)
 *      d PATH            remove (a whole directory too)
 *      m PATH            make a directory
 *      l PATH TARGET     make PATH a symlink to TARGET
 * PATH is relative to the tree, "@" standing for the first disk's directory
 * (sys/block/NAME resolved).  A TARGET may loop, dangle, or leave the tree:
 * "OUT/..." points at a directory beside the tree, "/sys/block/..." and
 * "/run/udev/..." are absolute (the library must resolve them inside the
 * tree), and relative ones may climb out of it, as far as this process's
 * scratch directory (the harness itself never reaches further).
 */
#define _GNU_SOURCE
#include <sys/resource.h>

#include "fuzz-util.h"
#include "apply.h"
#include "iosched.h"
#include "iosched-internal.h"

#ifndef FUZZ_TOP
#define FUZZ_TOP "."
#endif

static const char *fixtures[] = {
        "loop", "virtio-blk", "nvme", "ahci-sata-hdd", "usb-stick", "md-raid1", "dm-linear",
        "nvme-zoned", "megaraid-ld", "sd-card", "nbd", "zram", "virtio-scsi-rot", "nvme-multipath",
        "loop-under-dm", "megaraid-jbod-6.12",
};
#define NFIX (sizeof(fixtures) / sizeof(fixtures[0]))

static const char test_policy[] =
        "[Match]\nClass=hdd\n[Set]\nScheduler=bfq mq-deadline\nqueue/iosched/slice_idle=0\nqueue/read_ahead_kb=4096\n"
        "[Match]\nClass=ssd nvme\n[Set]\nScheduler=none kyber\nqueue/nr_requests=256\n"
        "[Match]\nRotational=1\nName=sd* vd*\n[Set]\nScheduler=mq-deadline\nqueue/iosched/read_expire=250\n"
        "queue/iosched/fifo_batch=8\n"
        "[Match]\nProperty=ID_BUS=usb\n[Set]\nqueue/max_sectors_kb=512\n"
        "[Daemon]\nDriftInterval=30s\n";

/* the sanitizers' reports keep the real stderr while the tool's own lines go to /dev/null */
void __sanitizer_set_report_fd(void *fd) __attribute__((weak));

static struct ios_policy *policy;
static char base[512], tree[512], outside[512];
static bool have[NFIX];
static int devnull = -1;

static void copy_tree(int sfd, int dfd)
{
        DIR *d = fdopendir(sfd);
        struct dirent *de;

        if (!d) {
                close(sfd);
                return;
        }
        while ((de = readdir(d))) {
                struct stat st;
                char target[4096];
                ssize_t n;
                int s, t;

                if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                        continue;
                if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                        continue;
                if (S_ISLNK(st.st_mode)) {
                        n = readlinkat(dirfd(d), de->d_name, target, sizeof(target) - 1);
                        if (n >= 0) {
                                target[n] = '\0';
                                symlinkat(target, dfd, de->d_name);
                        }
                } else if (S_ISDIR(st.st_mode)) {
                        if (mkdirat(dfd, de->d_name, 0755) < 0)
                                continue;
                        s = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                        t = openat(dfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                        if (s >= 0 && t >= 0)
                                copy_tree(s, t);
                        else if (s >= 0)
                                close(s);
                        if (t >= 0)
                                close(t);
                } else if (S_ISREG(st.st_mode)) {
                        char buf[65536];

                        s = openat(dirfd(d), de->d_name, O_RDONLY | O_CLOEXEC);
                        t = openat(dfd, de->d_name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, st.st_mode & 0777);
                        while (s >= 0 && t >= 0 && (n = read(s, buf, sizeof(buf))) > 0)
                                if (write(t, buf, (size_t)n) != n)
                                        break;
                        if (s >= 0)
                                close(s);
                        if (t >= 0)
                                close(t);
                }
        }
        closedir(d);
}

static void setup(void)
{
        const char *top = getenv("IOS_TOP") ? getenv("IOS_TOP") : FUZZ_TOP;
        struct ios_error err = {};
        char cmd[2048], path[1024];
        struct rlimit rl;

        snprintf(base, sizeof(base), "%s/base", fuzz_scratch_dir());
        snprintf(tree, sizeof(tree), "%s/t/root", fuzz_scratch_dir());
        snprintf(outside, sizeof(outside), "%s/t/OUT", fuzz_scratch_dir());
        for (size_t i = 0; i < NFIX; i++) {
                snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s' && tar -xzf '%s/tests/fixtures/%s.tar.gz' -C '%s/%s' --wildcards './sys' './run' './proc' 2>/dev/null",
                         base, fixtures[i], top, fixtures[i], base, fixtures[i]);
                snprintf(path, sizeof(path), "%s/%s/sys/block", base, fixtures[i]);
                have[i] = system(cmd) >= 0 && access(path, F_OK) == 0;
        }
        if (!have[0]) {
                fprintf(stderr, "fuzz-sysfs: cannot unpack %s/tests/fixtures/loop.tar.gz\n", top);
                abort();
        }
        if (ios_policy_new_builtin(&policy) < 0 || ios_policy_parse(policy, "fuzz.conf", test_policy, &err) < 0)
                abort();
        devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (__sanitizer_set_report_fd)
                __sanitizer_set_report_fd((void *)(intptr_t)fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3));
        /* a descriptor leak shows as EMFILE after some thousand runs */
        if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur > 1024) {
                rl.rlim_cur = 1024;
                setrlimit(RLIMIT_NOFILE, &rl);
        }
}

/* PATH of an op, inside the tree; false if it would not be. */
static bool op_path(const char *p, const char *disk, char *out, size_t n)
{
        if (!*p || *p == '/' || strstr(p, ".."))
                return false;
        if (*p == '@')
                snprintf(out, n, "%s/%s%s", tree, disk, p + 1);
        else
                snprintf(out, n, "%s/%s", tree, p);
        return true;
}

/* Whether a relative link target, seen from the link's directory, stays in the scratch directory. */
static bool target_ok(const char *linkpath, const char *target)
{
        int depth = 0;
        const char *s = fuzz_scratch_dir();

        for (const char *q = linkpath + strlen(s); *q; q++)
                depth += *q == '/';
        depth--;        /* the link's own name */
        for (const char *q = target; *q; ) {
                size_t l = strcspn(q, "/");
                if (l == 2 && q[0] == '.' && q[1] == '.')
                        depth--;
                else if (l && !(l == 1 && q[0] == '.'))
                        depth++;
                if (depth < 0)
                        return false;
                q += l;
                q += *q == '/';
        }
        return true;
}

static void unescape(char *s)
{
        char *o = s;

        for (; *s; s++) {
                if (*s != '\\' || !s[1]) {
                        *o++ = *s;
                        continue;
                }
                s++;
                switch (*s) {
                case 'n': *o++ = '\n'; break;
                case 't': *o++ = '\t'; break;
                case 'x':
                        if (s[1] && s[2]) {
                                char h[3] = { s[1], s[2], 0 };
                                *o++ = (char)strtoul(h, NULL, 16);
                                s += 2;
                        }
                        break;
                default: *o++ = *s;
                }
        }
        *o = '\0';
}

static void run_ops(char *text)
{
        char disk[1024] = "sys/block/none", path[2048], real[4096], target[2048];
        char *save = NULL;
        unsigned nops = 0;

        snprintf(path, sizeof(path), "%s/sys/block", tree);
        {
                DIR *d = opendir(path);
                struct dirent *de;
                while (d && (de = readdir(d)))
                        if (de->d_name[0] != '.') {
                                snprintf(path, sizeof(path), "%s/sys/block/%s", tree, de->d_name);
                                if (realpath(path, real) && !strncmp(real, tree, strlen(tree)))
                                        snprintf(disk, sizeof(disk), "%s", real + strlen(tree) + 1);
                                break;
                        }
                if (d)
                        closedir(d);
        }
        for (char *l = strtok_r(text, "\n", &save); l && nops < 64; l = strtok_r(NULL, "\n", &save), nops++) {
                char op = l[0], *arg, *rest;

                if (!op || l[1] != ' ')
                        continue;
                arg = l + 2;
                rest = strchr(arg, ' ');
                if (rest)
                        *rest++ = '\0';
                if (!op_path(arg, disk, path, sizeof(path)))
                        continue;
                switch (op) {
                case 'w':
                        if (rest)
                                unescape(rest);
                        fuzz_rm_rf(path);
                        fuzz_write(path, rest ? rest : "", rest ? strlen(rest) : 0);
                        break;
                case 'd':
                        fuzz_rm_rf(path);
                        break;
                case 'm':
                        fuzz_mkparents(path);
                        mkdir(path, 0755);
                        break;
                case 'l':
                        if (!rest || !*rest)
                                break;
                        if (!strncmp(rest, "OUT", 3))
                                snprintf(target, sizeof(target), "%s%s", outside, rest + 3);
                        else if (*rest == '/' && (!strncmp(rest, "/sys/block/", 11) || !strncmp(rest, "/run/udev/", 10)))
                                snprintf(target, sizeof(target), "%s", rest);
                        else if (*rest != '/' && target_ok(path, rest))
                                snprintf(target, sizeof(target), "%s", rest);
                        else
                                break;
                        if (strstr(target, "/..") && !strncmp(rest, "OUT", 3))
                                break;
                        fuzz_rm_rf(path);
                        fuzz_mkparents(path);
                        symlink(target, path);
                        break;
                }
        }
}

/* iosched-apply's main.c maps outcomes to exit codes; any mapping does here */
static int exit_of(enum apply_outcome o)
{
        return (int)o;
}

static void dry_run(struct ios_ctx *ctx)
{
        struct apply_out out = { .prog = "iosched-apply", .exit_of = exit_of, .mode = -1, .policy_ok = -1 };
        struct apply_run_opts o = { .prog = "iosched-apply", .mode = APPLY_MODE_DRY_RUN, .out = &out };
        struct ios_device **devs = NULL, *one = NULL;
        size_t n = 0;
        int saved, saved_err;

        if (ios_device_enumerate(ctx, &devs, &n) < 0)
                return;
        fflush(stdout);
        fflush(stderr);
        saved = dup(STDOUT_FILENO);
        saved_err = dup(STDERR_FILENO);
        dup2(devnull, STDOUT_FILENO);
        dup2(devnull, STDERR_FILENO);
        for (size_t i = 0; i < n; i++) {
                struct ios_plan plan = {};
                char line[1024];

                if (!devs[i]->name || ios_class_to_string(devs[i]->cls) == NULL)
                        abort();
                if (ios_plan_build(policy, devs[i], &plan) >= 0) {
                        for (size_t k = 0; k < plan.n; k++)
                                ios_change_line(&plan.c[k], line, sizeof(line));
                        ios_plan_done(&plan);
                }
                apply_list_explain(stdout, devs[i]);
        }
        (void)apply_run(&o, policy, devs, n);
        o.json = true;
        (void)apply_run(&o, policy, devs, n);
        apply_out_done(&out);
        if (n > 0 && ios_device_new(ctx, devs[0]->name, &one) >= 0)
                ios_device_free(one);
        if (ios_device_new(ctx, "8:0", &one) >= 0)
                ios_device_free(one);
        fflush(stdout);
        fflush(stderr);
        dup2(saved, STDOUT_FILENO);
        dup2(saved_err, STDERR_FILENO);
        close(saved);
        close(saved_err);
        ios_device_list_free(devs, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct ios_ctx *ctx = NULL;
        char *text;
        size_t fix;
        int sfd, dfd;
        char path[1024];

        if (!policy)
                setup();
        if (size < 1 || size > 16384)
                return 0;
        fix = data[0] % NFIX;
        if (!have[fix])
                fix = 0;
        snprintf(path, sizeof(path), "%s/t", fuzz_scratch_dir());
        fuzz_rm_rf(path);
        mkdir(path, 0755);
        mkdir(outside, 0755);
        snprintf(path, sizeof(path), "%s/scheduler", outside);
        fuzz_write(path, "none [mq-deadline]\n", 19);
        mkdir(tree, 0755);
        snprintf(path, sizeof(path), "%s/%s", base, fixtures[fix]);
        sfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        dfd = open(tree, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (sfd < 0 || dfd < 0)
                abort();
        copy_tree(sfd, dfd);
        close(dfd);

        text = malloc(size);
        if (!text)
                abort();
        memcpy(text, data + 1, size - 1);
        text[size - 1] = '\0';
        run_ops(text);
        free(text);

        if (ios_ctx_new(tree, &ctx) < 0)
                return 0;
        dry_run(ctx);
        ios_ctx_free(ctx);
        return 0;
}
