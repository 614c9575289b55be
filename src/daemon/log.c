/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * log.c: one line per message on stderr.  When stderr is the journal
 * (systemd sets $JOURNAL_STREAM to its device:inode) every line carries a
 * "<N>" syslog priority prefix, which journald turns into the entry's
 * PRIORITY=; elsewhere lines start with "ioschedd: ".  Each line goes out
 * in a single write(2) so lines never interleave.  IOSCHED_DEBUG=1 turns
 * on debug lines and the library's trace (each sysfs read and write, each
 * disk's class and the rules that set its values), as debug lines.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "daemon.h"

static int max_prio = LOG_INFO;
static bool journal;

static void trace(void *userdata, const char *msg)
{
        (void)userdata;
        iosd_log(LOG_DEBUG, "debug: %s", msg);
}

void iosd_log_setup(int prio)
{
        const char *e = getenv("JOURNAL_STREAM"), *debug = getenv("IOSCHED_DEBUG");
        unsigned long long dev, ino;
        struct stat st;

        max_prio = prio;
        if (debug && strcmp(debug, "1") == 0) {
                max_prio = LOG_DEBUG;
                ios_log_set(trace, NULL);
        }
        journal = e && sscanf(e, "%llu:%llu", &dev, &ino) == 2 &&
                  fstat(STDERR_FILENO, &st) == 0 &&
                  (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}

bool iosd_log_enabled(int prio)
{
        return prio <= max_prio;
}

void iosd_log(int prio, const char *fmt, ...)
{
        char buf[2048];
        va_list ap;
        int n, m;

        if (prio > max_prio)
                return;
        if (journal)
                n = snprintf(buf, sizeof(buf), "<%d>", prio);
        else
                n = snprintf(buf, sizeof(buf), "ioschedd: %s",
                             prio <= LOG_ERR ? "error: " : prio == LOG_WARNING ? "warning: " : "");
        va_start(ap, fmt);
        m = vsnprintf(buf + n, sizeof(buf) - (size_t)n - 1, fmt, ap);
        va_end(ap);
        if (m < 0)
                return;
        n += m;
        if ((size_t)n > sizeof(buf) - 2)
                n = sizeof(buf) - 2;
        buf[n++] = '\n';
        (void)!write(STDERR_FILENO, buf, (size_t)n);
}

const char *iosd_str(const char *s)
{
        return s ? s : "(unset)";
}
