/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * units.c: numbers with units, both ways.  In: fio's grammar for sizes
 * (4k, 1.5g, 0x1000, kb and KiB spellings, kb_base), percentages of the
 * target (50%), times (10 = 10s, 500ms, 2h), booleans (1/0, on/off ...),
 * plain counts, "r,w" pairs and percentile lists.  Out: the short human
 * forms the reports and the progress line print (1.2k, 977MiB, 55.0us).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "macro.h"

/* Digits (decimal or 0x hex) of s into *ret; *end after them. */
static int parse_number(const char *s, uint64_t *ret, double *ret_frac, const char **end)
{
        char *e;
        unsigned long long v;

        if (!s || !isdigit((unsigned char)*s))
                return -EINVAL;
        errno = 0;
        if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
                v = strtoull(s + 2, &e, 16);
                if (e == s + 2)
                        return -EINVAL;
                *ret_frac = 0;
        } else {
                v = strtoull(s, &e, 10);
                *ret_frac = 0;
                if (*e == '.') {
                        /* "1.5g", "2.5ms": a fraction of the unit */
                        char *f;
                        double d = strtod(e, &f);
                        if (f == e + 1)
                                return -EINVAL;
                        *ret_frac = d;
                        e = f;
                }
        }
        if (errno)
                return -ERANGE;
        *ret = v;
        *end = e;
        return 0;
}

static int scale(uint64_t v, double frac, uint64_t mult, uint64_t *ret)
{
        long double x = ((long double)v + frac) * (long double)mult;

        if (x >= 18446744073709551615.0L)
                return -ERANGE;
        *ret = (uint64_t)(x + 0.5L);
        return 0;
}

/*
 * fio's rule (parse.c __get_mult_bytes): with kb_base=1024, fio's default, k,
 * kb, m, mb ... are powers of 1024 and kib, mib ... powers of 1000 (fio
 * inverts the IEC and SI prefixes, for old job files); with kb_base=1000 the
 * other way round.
 */
int bench_parse_size_base(const char *s, unsigned kb_base, uint64_t *ret)
{
        static const struct { const char *sfx; unsigned pow; bool iec; } units[] = {
                { "", 0, false },    { "b", 0, false },
                { "k", 1, false },   { "kb", 1, false },  { "kib", 1, true },
                { "m", 2, false },   { "mb", 2, false },  { "mib", 2, true },
                { "g", 3, false },   { "gb", 3, false },  { "gib", 3, true },
                { "t", 4, false },   { "tb", 4, false },  { "tib", 4, true },
                { "p", 5, false },   { "pb", 5, false },  { "pib", 5, true },
        };
        const char *end;
        uint64_t v;
        double frac;
        int r;

        if (kb_base != 1024 && kb_base != 1000)
                return -EINVAL;
        r = parse_number(s, &v, &frac, &end);
        if (r < 0)
                return r;
        for (size_t i = 0; i < ELEMENTSOF(units); i++)
                if (strcasecmp(end, units[i].sfx) == 0) {
                        uint64_t base = units[i].iec ? 2024 - kb_base : kb_base, mult = 1;

                        for (unsigned k = 0; k < units[i].pow; k++)
                                mult *= base;
                        return scale(v, frac, mult, ret);
                }
        return -EINVAL;
}

int bench_parse_size(const char *s, uint64_t *ret)
{
        return bench_parse_size_base(s, 1024, ret);
}

int bench_parse_size_most(const char *s, uint64_t *ret)
{
        uint64_t a, b;
        int r = bench_parse_size_base(s, 1024, &a);

        if (r < 0)
                return r;
        r = bench_parse_size_base(s, 1000, &b);
        if (r < 0)
                return r;
        *ret = a > b ? a : b;
        return 0;
}

int bench_parse_size_pct(const char *s, struct bench_size *ret)
{
        size_t l = s ? strlen(s) : 0;

        if (l > 1 && s[l - 1] == '%') {
                char *e;
                double p;

                if (!isdigit((unsigned char)s[0]))
                        return -EINVAL;
                p = strtod(s, &e);
                if (e != s + l - 1 || !(p >= 0) || p > 100)
                        return -EINVAL;
                /* 0% is 0 bytes (an offset; a size of 0 is refused by its caller) */
                *ret = (struct bench_size) { .pct = p, .set = true };
                return 0;
        }
        uint64_t v;
        int r = bench_parse_size(s, &v);
        if (r < 0)
                return r;
        *ret = (struct bench_size) { .bytes = v, .set = true };
        return 0;
}

int bench_parse_time(const char *s, uint64_t *ret_ns)
{
        static const struct { const char *sfx; uint64_t ns; } units[] = {
                { "", 1000000000ull },  /* fio: a bare number is seconds */
                { "ns", 1 }, { "nsec", 1 },
                { "us", 1000 }, { "usec", 1000 },
                { "ms", 1000000 }, { "msec", 1000000 },
                { "s", 1000000000ull }, { "sec", 1000000000ull },
                { "m", 60000000000ull }, { "min", 60000000000ull },
                { "h", 3600000000000ull }, { "d", 86400000000000ull },
        };
        const char *end;
        uint64_t v;
        double frac;
        int r;

        r = parse_number(s, &v, &frac, &end);
        if (r < 0)
                return r;
        for (size_t i = 0; i < ELEMENTSOF(units); i++)
                if (strcasecmp(end, units[i].sfx) == 0)
                        return scale(v, frac, units[i].ns, ret_ns);
        return -EINVAL;
}

int bench_parse_bool(const char *s, bool *ret)
{
        if (!s)
                return -EINVAL;
        if (streq(s, "1") || !strcasecmp(s, "true") || !strcasecmp(s, "yes") || !strcasecmp(s, "on")) {
                *ret = true;
                return 0;
        }
        if (streq(s, "0") || !strcasecmp(s, "false") || !strcasecmp(s, "no") || !strcasecmp(s, "off")) {
                *ret = false;
                return 0;
        }
        return -EINVAL;
}

int bench_parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *ret)
{
        char *e;
        unsigned long v;

        if (!s || !isdigit((unsigned char)*s))
                return -EINVAL;
        errno = 0;
        v = strtoul(s, &e, 10);
        if (errno || *e || v < lo || v > hi)
                return -ERANGE;
        *ret = (unsigned)v;
        return 0;
}

/* fio's "r,w" pairs: "x" both, "x,y", ",y" writes only, "x," reads only */
int bench_parse_pair(const char *s, int (*one)(const char *, uint64_t *), uint64_t ret[BENCH_NDIR])
{
        _cleanup_free_ char *copy = strdup(s);
        char *comma, *part[2];
        uint64_t v[2] = { 0, 0 };

        if (!copy)
                return -ENOMEM;
        comma = strchr(copy, ',');
        if (comma)
                *comma++ = '\0';
        part[0] = copy;
        part[1] = comma ? comma : copy;
        if (comma && strchr(comma, ','))
                return -EOPNOTSUPP;     /* a third (trim) value: fio's */
        if (!*part[0] && !*part[1])
                return -EINVAL;
        for (int i = 0; i < 2; i++)
                if (*part[i] && one(part[i], &v[i]) < 0)
                        return -EINVAL;
        ret[BENCH_READ] = v[0];
        ret[BENCH_WRITE] = v[1];
        return 0;
}

int bench_parse_count64(const char *s, uint64_t *ret)
{
        char *end;

        if (!s || *s < '0' || *s > '9')
                return -EINVAL;
        errno = 0;
        *ret = strtoull(s, &end, 10);
        return errno || *end ? -EINVAL : 0;
}

/* A time whose bare number is in unit_ns (fio: seconds for most, µs for thinktime). */
int bench_parse_time_unit(const char *s, uint64_t unit_ns, uint64_t *ret)
{
        size_t l = strlen(s);

        if (l && s[l - 1] >= '0' && s[l - 1] <= '9' && unit_ns != 1000000000ull) {
                uint64_t n;

                if (bench_parse_count64(s, &n) < 0 || n > UINT64_MAX / unit_ns)
                        return -EINVAL;
                *ret = n * unit_ns;
                return 0;
        }
        return bench_parse_time(s, ret);
}

int bench_parse_percentiles(const char *s, double *ret, unsigned max, unsigned *ret_n)
{
        _cleanup_free_ char *copy = strdup(s);
        unsigned n = 0;
        char *save = NULL;

        if (!copy)
                return -ENOMEM;
        for (char *t = strtok_r(copy, ":", &save); t; t = strtok_r(NULL, ":", &save)) {
                char *end;
                double p = strtod(t, &end);

                if (end == t || *end || !(p > 0) || p > 100 || n == max)
                        return -EINVAL;
                ret[n++] = p;
        }
        if (n == 0)
                return -EINVAL;
        *ret_n = n;
        return 0;
}

const char *bench_fmt_num(char *buf, size_t len, double v)
{
        if (v < 10000)
                snprintf(buf, len, "%.0f", v);
        else if (v < 1e6)
                snprintf(buf, len, "%.1fk", v / 1e3);
        else if (v < 1e9)
                snprintf(buf, len, "%.2fM", v / 1e6);
        else
                snprintf(buf, len, "%.2fG", v / 1e9);
        return buf;
}

const char *bench_fmt_bytes(char *buf, size_t len, double v)
{
        static const char *u[] = { "B", "KiB", "MiB", "GiB", "TiB" };
        unsigned i = 0;

        /* 4096 is "4KiB", 1536 "1536B", 1e9 "954MiB": exact or >= 10 units */
        while (i < ELEMENTSOF(u) - 1 && (v >= 1024 * 10 || (v >= 1024 && fmod(v, 1024) == 0))) {
                v /= 1024;
                i++;
        }
        snprintf(buf, len, "%.*f%s", v < 100 && i > 0 && v != floor(v) ? 1 : 0, v, u[i]);
        return buf;
}

const char *bench_fmt_ns(char *buf, size_t len, double ns)
{
        if (ns < 1000)
                snprintf(buf, len, "%.0fns", ns);
        else if (ns < 1e6)
                snprintf(buf, len, "%.1fus", ns / 1e3);
        else if (ns < 1e9)
                snprintf(buf, len, "%.2fms", ns / 1e6);
        else
                snprintf(buf, len, "%.2fs", ns / 1e9);
        return buf;
}
