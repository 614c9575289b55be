/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * log.c: the library's debug trace.  A program that is asked for it
 * (IOSCHED_DEBUG=1) gives a function (ios_log_set); the library then says
 * each sysfs read and write (sysfs.c), each disk's class (classify.c) and
 * each rule that sets a value on a disk (policy.c) to it, one line a call,
 * (and a decision of a program, through ios_log()).  Off (the
 * default), a trace point costs one test of a pointer: IOS_TRACE() does not
 * evaluate its arguments.  Process-wide, like the programs that use it.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "iosched.h"
#include "iosched-internal.h"

ios_log_fn ios_log_current;
static void *log_userdata;

void ios_log_set(ios_log_fn fn, void *userdata)
{
        ios_log_current = fn;
        log_userdata = userdata;
}

bool ios_log_enabled(void)
{
        return ios_log_current != NULL;
}

void ios_log(const char *fmt, ...)
{
        char msg[1024];
        va_list ap;

        if (!ios_log_current)
                return;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        ios_log_current(log_userdata, msg);
}

const char *ios_log_quote(const char *s, char *buf, size_t len)
{
        size_t o = 1;

        buf[0] = '"';
        /* room kept for the longest escape (4) and the end ("... and NUL, 5) */
        for (; *s && o + 9 < len; s++) {
                unsigned char c = (unsigned char)*s;

                if (c == '\n')
                        o += (size_t)snprintf(buf + o, len - o, "\\n");
                else if (c == '"' || c == '\\')
                        o += (size_t)snprintf(buf + o, len - o, "\\%c", c);
                else if (c < 0x20 || c == 0x7f)
                        o += (size_t)snprintf(buf + o, len - o, "\\x%02x", c);
                else
                        buf[o++] = (char)c;
        }
        snprintf(buf + o, len - o, "\"%s", *s ? "..." : "");
        return buf;
}

const char *ios_log_path(int dirfd, const char *name, char *buf, size_t len)
{
        char link[64];
        ssize_t n;

        snprintf(link, sizeof(link), "/proc/self/fd/%d", dirfd);
        n = readlink(link, buf, len > 1 ? len - 1 : 0);
        if (n <= 0 || (size_t)n >= len - 1) {
                snprintf(buf, len, "fd %d/%s", dirfd, name);
                return buf;
        }
        snprintf(buf + n, len - (size_t)n, "/%s", name);
        return buf;
}
