/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * faketree.c: what a captured tree must do when written, as the kernel
 * would.  A captured tree (--sysroot, the test fixtures) is plain files, so
 * a write leaves exactly what was written, which is what the kernel shows
 * for every attribute but one: after a write of a scheduler's name,
 * queue/scheduler lists every scheduler offered with the active one in
 * brackets, and a name it does not offer is refused.  Only the write path
 * of a disk on a root that is not the running system comes here
 * (ios_device_write()); nothing else knows about it.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <string.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "device-internal.h"
#include "strv.h"

/* The kernel's queue/scheduler after a switch to name: "none [mq-deadline] kyber \n". */
static int write_scheduler(int dirfd, const char *value)
{
        _cleanup_free_ char *text = NULL, *cur = NULL, *name = NULL, *line = NULL;
        _cleanup_(ios_strv_freep) char **avail = NULL;
        size_t len = 2, n;
        int e;

        /* the kernel strips blanks around the name */
        while (isspace((unsigned char)*value))
                value++;
        n = strlen(value);
        while (n > 0 && isspace((unsigned char)value[n - 1]))
                n--;
        name = strndup(value, n);
        if (!name)
                return -ENOMEM;
        e = ios_sysfs_read_string(dirfd, "queue/scheduler", &text);
        if (e < 0)
                return e;
        e = ios_sched_parse(text, &cur, &avail);
        if (e < 0)
                return e;
        if (!ios_strv_contains(avail, name))
                return -EINVAL;         /* not offered (a fake tree loads no module) */
        for (char **a = avail; *a; a++)
                len += strlen(*a) + 3;
        line = calloc(1, len);
        if (!line)
                return -ENOMEM;
        for (char **a = avail; *a; a++) {
                bool on = streq(*a, name);

                strcat(line, on ? "[" : "");
                strcat(line, *a);
                strcat(line, on ? "] " : " ");
        }
        strcat(line, "\n");
        return ios_sysfs_write_regular(dirfd, "queue/scheduler", line);
}

int ios_faketree_write(int dirfd, const char *attr, const char *value)
{
        if (streq(attr, "queue/scheduler"))
                return write_scheduler(dirfd, value);
        return ios_sysfs_write_regular(dirfd, attr, value);
}
