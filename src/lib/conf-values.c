/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * conf-values.c: the spelling of values in a policy file (conf.c reads the
 * lines): sizes with binary units, time intervals, blank-separated words
 * with "double quotes", and comments after a value.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "policy-internal.h"
#include "strv.h"

/* "4k", "100G", "2T" (binary units) -> bytes */
int ios_conf_parse_size(const char *s, uint64_t *ret)
{
        unsigned long long v;
        char *end;
        int shift = 0;

        if (!isdigit((unsigned char)*s))
                return -EINVAL;
        errno = 0;
        v = strtoull(s, &end, 10);
        if (errno)
                return -EINVAL;
        switch (toupper((unsigned char)*end)) {
        case '\0': break;
        case 'K': shift = 10; break;
        case 'M': shift = 20; break;
        case 'G': shift = 30; break;
        case 'T': shift = 40; break;
        case 'P': shift = 50; break;
        default: return -EINVAL;
        }
        if (*end && end[1] && !(toupper((unsigned char)end[1]) == 'B' && !end[2]) &&
            !(end[1] == 'i' && toupper((unsigned char)end[2]) == 'B' && !end[3]))
                return -EINVAL;
        if (shift && v > (UINT64_MAX >> shift))
                return -ERANGE;
        *ret = (uint64_t)v << shift;
        return 0;
}

/* "500ms", "30s", "2min", "0", "off" -> milliseconds */
int ios_parse_interval_ms(const char *s, uint64_t *ret)
{
        unsigned long long v;
        char *end;

        if (streq(s, "off") || streq(s, "no")) {
                *ret = 0;
                return 0;
        }
        if (!isdigit((unsigned char)*s))
                return -EINVAL;
        errno = 0;
        v = strtoull(s, &end, 10);
        if (errno || v > 86400000ULL)
                return -EINVAL;
        if (streq(end, "ms"))
                *ret = v;
        else if (!*end || streq(end, "s"))
                *ret = v * 1000;
        else if (streq(end, "min") || streq(end, "m"))
                *ret = v * 60000;
        else
                return -EINVAL;
        return 0;
}

/*
 * "Scheduler=none # why": a "#" or ";" that starts the value or follows a
 * blank, outside double quotes, starts a comment to the end of the line.
 */
void ios_conf_cut_comment(char *val)
{
        bool quoted = false;

        for (char *c = val; *c; c++) {
                if (*c == '"')
                        quoted = !quoted;
                else if (!quoted && (*c == '#' || *c == ';') && (c == val || c[-1] == ' ' || c[-1] == '\t')) {
                        *c = '\0';
                        ios_strip(val);
                        return;
                }
        }
}

/* Split on blanks; "double quotes" keep blanks inside one value (Model="PERC H700"). */
int ios_conf_split_words(const char *s, char ***ret)
{
        char **l = calloc(1, sizeof(char *));
        size_t len = 0, cap = 0;
        int e;

        if (!l)
                return -ENOMEM;
        while (*s) {
                const char *start;
                size_t n;

                s += strspn(s, " \t");
                if (!*s)
                        break;
                if (*s == '"') {
                        const char *end = strchr(s + 1, '"');
                        if (!end) {
                                ios_strv_free(l);
                                return -EINVAL;
                        }
                        start = s + 1;
                        n = (size_t)(end - start);
                        s = end + 1;
                } else {
                        start = s;
                        n = strcspn(s, " \t");
                        s += n;
                }
                e = ios_strv_push_fast(&l, &len, &cap, strndup(start, n));
                if (e < 0) {
                        ios_strv_free(l);
                        return e;
                }
        }
        *ret = l;
        return 0;
}
