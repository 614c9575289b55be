/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * validate-policy.c: the policy validate hands iosched-bench.  The bench's
 * --policy reads the system's policy (bare) or the built-in rules and one
 * FILE (--policy=FILE), as `iosched-apply --config FILE` does; it has no
 * --config-root, --no-builtin or --drop-in.  With any of those, validate
 * writes what the policy resolves to for the disk as one rule in a new
 * file (root's, in a directory of its own) and passes that: the same
 * settings reach the bench.  The file is read back as the bench will read
 * it (built-in rules first, the same ownership checks) and must resolve to
 * the same settings on the disk; where it does not (the built-in rules add
 * a setting a --no-builtin policy lacks) validate refuses to measure
 * something else, and says what differs.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"
#include "strv.h"

/* "KEY=VALUE" of a that b lacks or has another value for, joined with ", " into *l. */
static int differ(const struct ios_wanted *a, const struct ios_wanted *b, const char *what, char ***l)
{
        for (size_t i = 0; i < a->n; i++) {
                const char *v = ios_wanted_value(b, a->s[i].key);

                if ((!v || !streq(v, a->s[i].value)) &&
                    ios_strv_pushf(l, "%s %s=%s", what, a->s[i].key, a->s[i].value) < 0)
                        return -ENOMEM;
        }
        return 0;
}

static int write_rule(const char *path, const char *dev, const struct ios_wanted *w)
{
        FILE *f = fopen(path, "wxe");
        int e = 0;

        if (!f)
                return -errno;
        if (fchmod(fileno(f), 0644) < 0) {     /* the bench refuses a file others may write */
                e = -errno;
                fclose(f);
                return e;
        }
        fprintf(f, "# iosched-apply validate: the policy's settings for %s, for iosched-bench --policy\n"
                "[Match]\nName=%s\n[Set]\n", dev, dev);
        for (size_t i = 0; i < w->n; i++)
                fprintf(f, "%s=%s\n", streq(w->s[i].key, "scheduler") ? "Scheduler" : w->s[i].key, w->s[i].value);
        if (fflush(f) != 0 || ferror(f))
                e = -EIO;
        if (fclose(f) != 0 && e == 0)
                e = -errno;
        return e;
}

/* The file read back as iosched-bench reads it: the same settings on d, or one line why not. */
static int check_rule(const char *path, const struct ios_device *d, const struct ios_wanted *w, char **ret_msg)
{
        _cleanup_(ios_strv_freep) char **l = NULL;
        struct ios_policy *back = NULL;
        struct ios_wanted got = {};
        struct ios_error pe = {};
        size_t nerr = 0;
        int e;

        e = ios_policy_load(NULL, path, 0, &back, &pe);
        if (e >= 0 && ios_policy_errors(back, &nerr) && nerr) {
                const struct ios_error *pe1 = ios_policy_errors(back, &nerr);
                char where[300];

                if (asprintf(ret_msg, "the policy for iosched-bench does not load as written: %s: %s",
                             ios_error_where(pe1, where, sizeof(where)), pe1->msg) < 0)
                        *ret_msg = NULL;
                ios_policy_free(back);
                return -EINVAL;
        }
        if (e < 0) {
                if (asprintf(ret_msg, "the policy for iosched-bench does not load as written: %s",
                             pe.msg[0] ? pe.msg : ios_strerror(-e)) < 0)
                        *ret_msg = NULL;
                return e;
        }
        e = ios_policy_resolve(back, d, &got);
        ios_policy_free(back);
        if (e < 0)
                return e;
        e = differ(&got, w, "iosched-bench --policy (built-in rules first) would also set", &l);
        if (e >= 0)
                e = differ(w, &got, "would not set", &l);
        ios_wanted_done(&got);
        if (e < 0)
                return e;
        if (!l)
                return 0;
        {
                _cleanup_free_ char *j = ios_strv_join(l, "; ");

                if (asprintf(ret_msg, "the policy cannot reach iosched-bench as it is (%s): not measuring something "
                             "else", j ? j : "settings differ") < 0)
                        *ret_msg = NULL;
        }
        return -EINVAL;
}

int apply_validate_policy_arg(const struct apply_validate_opts *o, char **ret_arg, char **ret_dir, char **ret_msg)
{
        _cleanup_free_ char *dir = NULL, *path = NULL;
        const char *tmp = getenv("TMPDIR");
        struct ios_wanted w = {};
        int e;

        *ret_arg = *ret_dir = *ret_msg = NULL;
        /* what the bench can read itself: the system's policy, or the built-in rules and one file */
        if (!o->conf_root && !o->no_builtin && o->ndropins == 0) {
                if (!o->config)
                        return (*ret_arg = strdup("--policy")) ? 0 : -ENOMEM;
                return asprintf(ret_arg, "--policy=%s", o->config) < 0 ? -ENOMEM : 0;
        }
        e = ios_policy_resolve(o->policy, o->dev, &w);
        if (e < 0) {
                if (asprintf(ret_msg, "cannot resolve the policy: %s", ios_strerror(-e)) < 0)
                        *ret_msg = NULL;
                return e;
        }
        if (asprintf(&dir, "%s/iosched-validate.XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp") < 0) {
                ios_wanted_done(&w);
                return -ENOMEM;
        }
        if (!mkdtemp(dir)) {
                e = -errno;
                ios_wanted_done(&w);
                if (asprintf(ret_msg, "cannot make a directory for iosched-bench's policy (%s): %s", dir,
                             ios_strerror(-e)) < 0)
                        *ret_msg = NULL;
                return e;
        }
        *ret_dir = strdup(dir);
        if (!*ret_dir || asprintf(&path, "%s/policy.conf", dir) < 0) {
                ios_wanted_done(&w);
                (void)rmdir(dir);
                return -ENOMEM;
        }
        e = write_rule(path, o->dev->name, &w);
        if (e < 0 && asprintf(ret_msg, "cannot write %s: %s", path, ios_strerror(-e)) < 0)
                *ret_msg = NULL;
        if (e >= 0)
                e = check_rule(path, o->dev, &w, ret_msg);
        ios_wanted_done(&w);
        if (e >= 0 && asprintf(ret_arg, "--policy=%s", path) < 0)
                e = -ENOMEM;
        return e;
}

void apply_validate_policy_remove(char *dir)
{
        _cleanup_free_ char *path = NULL;

        if (!dir)
                return;
        if (asprintf(&path, "%s/policy.conf", dir) >= 0)
                (void)unlink(path);
        (void)rmdir(dir);
        free(dir);
}
