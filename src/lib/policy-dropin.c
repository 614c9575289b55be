/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policy-dropin.c: `--drop-in NAME=FILE`, a candidate drop-in for
 * provisioning tools' check mode.  FILE stands in for the drop-in NAME:
 * it replaces a drop-in of that name in whichever policy directory holds
 * it, or is added as if it were in /etc/iosched.d; FILE /dev/null means
 * "as if NAME were removed" (systemd's masking).  FILE is then read like
 * any policy file (policy-files.c: root-owned, not group/world-writable).
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "strv.h"

int ios_dropin_parse(const char *arg, struct ios_dropin *ret)
{
        const char *eq = strchr(arg, '=');
        _cleanup_free_ char *name = NULL;

        if (!eq || eq == arg || !eq[1])
                return -EINVAL;
        name = strndup(arg, (size_t)(eq - arg));
        if (!name)
                return -ENOMEM;
        /* a name the directories could hold: no path, a *.conf that is not hidden */
        if (strchr(name, '/') || fnmatch(IOS_POLICY_DROPIN_GLOB, name, FNM_PERIOD) != 0)
                return -EINVAL;
        ret->file = strdup(eq + 1);
        if (!ret->file)
                return -ENOMEM;
        ret->name = TAKE_PTR(name);
        return 0;
}

void ios_dropin_done(struct ios_dropin *d)
{
        free(d->name);
        free(d->file);
        *d = (struct ios_dropin){};
}

static const char *base(const char *p)
{
        const char *s = strrchr(p, '/');

        return s ? s + 1 : p;
}

struct entry {
        const char *name;       /* the drop-in's name, not FILE's */
        const char *path;       /* NULL: masked */
};

static int cmp_entry(const void *a, const void *b)
{
        return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

int ios_dropins_override(char ***paths, const struct ios_dropin *ov, size_t nov)
{
        size_t n = ios_strv_length(*paths);
        _cleanup_free_ struct entry *v = calloc(n + nov + 1, sizeof(*v));
        char **out = NULL;
        int e = 0;

        if (!v)
                return -ENOMEM;
        for (size_t i = 0; i < n; i++)
                v[i] = (struct entry){ base((*paths)[i]), (*paths)[i] };
        for (size_t o = 0; o < nov; o++) {
                size_t i;

                for (i = 0; i < n; i++)
                        if (streq(v[i].name, ov[o].name))
                                break;
                if (i == n)             /* added, as if in /etc/iosched.d */
                        v[n++].name = ov[o].name;
                /* the last --drop-in of a name counts */
                v[i].path = streq(ov[o].file, "/dev/null") ? NULL : ov[o].file;
        }
        qsort(v, n, sizeof(*v), cmp_entry);
        out = calloc(n + 1, sizeof(char *));
        if (!out)
                return -ENOMEM;
        for (size_t i = 0, k = 0; e >= 0 && i < n; i++)
                if (v[i].path) {
                        out[k] = strdup(v[i].path);
                        e = out[k++] ? 0 : -ENOMEM;
                }
        if (e < 0) {
                ios_strv_free(out);
                return e;
        }
        ios_strv_free(*paths);
        *paths = out;
        return 0;
}
