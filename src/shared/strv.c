/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* strv.c: NULL-terminated vectors of owned strings, and their JSON spelling. */
#define _GNU_SOURCE
#include <assert.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "macro.h"
#include "strv.h"
#include "grow.h"

char **ios_strv_free(char **l)
{
        if (!l)
                return NULL;
        for (char **p = l; *p; p++)
                free(*p);
        free(l);
        return NULL;
}

size_t ios_strv_length(char * const *l)
{
        size_t n = 0;

        while (l && l[n])
                n++;
        return n;
}

int ios_strv_push(char ***l, char *s)
{
        size_t n, cap;
        char **nl;

        assert(l);
        if (!s)
                return -ENOMEM;
        n = ios_strv_length(*l);
        cap = *l ? n + 1 : 0;           /* what the vector surely has */
        nl = ios_grow(*l, &cap, n + 2, sizeof(char *));
        if (!nl) {
                free(s);
                return -ENOMEM;
        }
        nl[n] = s;
        nl[n + 1] = NULL;
        *l = nl;
        return 0;
}

/*
 * ios_strv_push() walks the vector to find its end: fine for a few entries,
 * quadratic for a long list of words or a big udev database.  Here the
 * caller keeps the length and the room, and the room doubles.
 */
int ios_strv_push_fast(char ***l, size_t *n, size_t *cap, char *s)
{
        if (!s)
                return -ENOMEM;
        if (*cap == 0) {
                *n = ios_strv_length(*l);
                *cap = *l ? *n + 1 : 0;         /* what the vector surely has */
        }
        if (*n + 2 > *cap) {
                char **nl = ios_grow(*l, cap, *n + 2, sizeof(char *));

                if (!nl) {
                        free(s);
                        return -ENOMEM;
                }
                *l = nl;
        }
        (*l)[(*n)++] = s;
        (*l)[*n] = NULL;
        return 0;
}

int ios_strv_pushf(char ***l, const char *fmt, ...)
{
        va_list ap;
        char *s;
        int r;

        va_start(ap, fmt);
        r = vasprintf(&s, fmt, ap);
        va_end(ap);
        if (r < 0)
                return -ENOMEM;
        return ios_strv_push(l, s);
}

bool ios_strv_contains(char * const *l, const char *s)
{
        for (; l && *l; l++)
                if (streq(*l, s))
                        return true;
        return false;
}

int ios_strv_split(const char *s, const char *sep, char ***ret)
{
        char **l = NULL;
        size_t len = 0, cap = 0;
        int r;

        l = calloc(1, sizeof(char *));
        if (!l)
                return -ENOMEM;
        while (s && *s) {
                size_t n;

                s += strspn(s, sep);
                n = strcspn(s, sep);
                if (n == 0)
                        break;
                r = ios_strv_push_fast(&l, &len, &cap, strndup(s, n));
                if (r < 0) {
                        ios_strv_free(l);
                        return r;
                }
                s += n;
        }
        *ret = l;
        return 0;
}

char *ios_strv_join(char * const *l, const char *sep)
{
        size_t len = 1, sl = strlen(sep);
        char *s, *p;

        for (char * const *i = l; i && *i; i++)
                len += strlen(*i) + sl;
        s = p = malloc(len);
        if (!s)
                return NULL;
        *p = '\0';
        for (char * const *i = l; i && *i; i++) {
                if (i != l)
                        p = stpcpy(p, sep);
                p = stpcpy(p, *i);
        }
        return s;
}

/* Length of the well-formed UTF-8 sequence at s (RFC 3629) within its n bytes, or 0. */
static size_t utf8_seq_n(const unsigned char *s, size_t n)
{
        unsigned char c = s[0], lo = 0x80, hi = 0xbf;

        if (c < 0x80)
                return 1;
        if (c >= 0xc2 && c <= 0xdf)
                return n >= 2 && (s[1] & 0xc0) == 0x80 ? 2 : 0;
        if (c >= 0xe0 && c <= 0xef) {
                if (c == 0xe0)
                        lo = 0xa0;              /* no overlong forms */
                if (c == 0xed)
                        hi = 0x9f;              /* no surrogates */
                return n >= 3 && s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 ? 3 : 0;
        }
        if (c >= 0xf0 && c <= 0xf4) {
                if (c == 0xf0)
                        lo = 0x90;
                if (c == 0xf4)
                        hi = 0x8f;              /* nothing beyond U+10FFFF */
                return n >= 4 && s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 && (s[3] & 0xc0) == 0x80
                               ? 4
                               : 0;
        }
        return 0;
}

/* The same in a string: its NUL ends any sequence it cuts */
static size_t utf8_seq(const unsigned char *s)
{
        return utf8_seq_n(s, strnlen((const char *)s, 4));
}

void ios_mask_controls(char *buf, size_t n, bool layout)
{
        unsigned char *u = (unsigned char *)buf;

        for (size_t i = 0; i < n;) {
                size_t k = utf8_seq_n(u + i, n - i);
                bool kept = layout && (u[i] == '\t' || u[i] == '\n' || u[i] == '\r');
                bool ctl = k == 1 ? (u[i] < 0x20 && !kept) || u[i] == 0x7f
                                  : k == 2 ? u[i] == 0xc2 && u[i + 1] <= 0x9f
                                           : !k && u[i] >= 0x80 && u[i] <= 0x9f;

                if (ctl)
                        memset(u + i, '?', k ? k : 1);
                i += k ? k : 1;
        }
}

#define UTF8_REPLACEMENT "\xef\xbf\xbd"   /* U+FFFD */

char *ios_utf8_sanitize(const char *s)
{
        const unsigned char *p = (const unsigned char *)s;
        size_t n = 0;
        char *out, *o;

        for (const unsigned char *q = p; *q;) {
                size_t k = utf8_seq(q);

                n += k ? k : 3;
                q += k ? k : 1;
        }
        out = o = malloc(n + 1);
        if (!out)
                return NULL;
        while (*p) {
                size_t k = utf8_seq(p);

                if (k) {
                        memcpy(o, p, k);
                        o += k;
                        p += k;
                } else {
                        o = stpcpy(o, UTF8_REPLACEMENT);
                        p++;
                }
        }
        *o = '\0';
        return out;
}

void ios_json_string(FILE *f, const char *s)
{
        const unsigned char *p = (const unsigned char *)s;

        if (!s) {
                fputs("null", f);
                return;
        }
        fputc('"', f);
        while (*p) {
                unsigned char c = *p;
                size_t k = utf8_seq(p);

                if (!k) {
                        fputs(UTF8_REPLACEMENT, f);
                        p++;
                        continue;
                }
                if (c == '"' || c == '\\')
                        fprintf(f, "\\%c", c);
                else if (c < 0x20 || c == 0x7f)
                        fprintf(f, "\\u%04x", c);
                else
                        fwrite(p, 1, k, f);
                p += k;
        }
        fputc('"', f);
}

char *ios_strip(char *s)
{
        char *e;

        while (isspace((unsigned char)*s))
                s++;
        e = s + strlen(s);
        while (e > s && isspace((unsigned char)e[-1]))
                *--e = '\0';
        return s;
}
