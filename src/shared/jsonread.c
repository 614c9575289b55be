/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jsonread.c: a small JSON reader, for what iosched-bench -J prints
 * (validate reads its verdict; iosched-apply does not link the bench's own
 * reader), the evidence records and facts -J documents.  The text into
 * a tree of values, and lookups by member name.  Strict: objects, arrays,
 * strings with every escape (\uXXXX as UTF-8, surrogate pairs joined),
 * numbers, true, false, null; one value and nothing after it; bounded in
 * depth; it never reads past len.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "jsonread.h"
#include "grow.h"

struct parser {
        const char *p, *end;
        unsigned depth;
        unsigned flags;                 /* IOS_JSON_* */
};

static void skip_ws(struct parser *ps)
{
        while (ps->p < ps->end && strchr(" \t\r\n", *ps->p) && *ps->p)
                ps->p++;
}

static int parse_value(struct parser *ps, struct ios_json *v);

static int hex4(struct parser *ps, unsigned *ret)
{
        unsigned u = 0;

        if (ps->end - ps->p < 4)
                return -EINVAL;
        for (int i = 0; i < 4; i++) {
                char c = *ps->p++;

                if (!isxdigit((unsigned char)c))
                        return -EINVAL;
                u = u * 16 +
                    (unsigned)(isdigit((unsigned char)c) ? c - '0' : (tolower((unsigned char)c) - 'a' + 10));
        }
        *ret = u;
        return 0;
}

/* \uXXXX (and its low surrogate) as UTF-8 into out (room for 4); returns the length or -EINVAL. */
static int unicode_escape(struct parser *ps, char *out)
{
        unsigned u, lo;

        if (hex4(ps, &u) < 0)
                return -EINVAL;
        if (u >= 0xd800 && u < 0xdc00) {
                if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u')
                        return -EINVAL;
                ps->p += 2;
                if (hex4(ps, &lo) < 0 || lo < 0xdc00 || lo > 0xdfff)
                        return -EINVAL;
                u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
        } else if (u >= 0xdc00 && u < 0xe000)
                return -EINVAL;
        if (u == 0)
                return -EINVAL;         /* a C string cannot hold it */
        if (u < 0x80) {
                out[0] = (char)u;
                return 1;
        }
        if (u < 0x800) {
                out[0] = (char)(0xc0 | (u >> 6));
                out[1] = (char)(0x80 | (u & 0x3f));
                return 2;
        }
        if (u < 0x10000) {
                out[0] = (char)(0xe0 | (u >> 12));
                out[1] = (char)(0x80 | ((u >> 6) & 0x3f));
                out[2] = (char)(0x80 | (u & 0x3f));
                return 3;
        }
        out[0] = (char)(0xf0 | (u >> 18));
        out[1] = (char)(0x80 | ((u >> 12) & 0x3f));
        out[2] = (char)(0x80 | ((u >> 6) & 0x3f));
        out[3] = (char)(0x80 | (u & 0x3f));
        return 4;
}

static int parse_string(struct parser *ps, char **ret)
{
        size_t cap = 0, n = 0;
        char *s = NULL;
        int r = -EINVAL;

        ps->p++;                        /* the opening quote */
        while (ps->p < ps->end && *ps->p != '"') {
                char c = *ps->p++, u[4];
                int len = 1;

                if (c == '\0' || ((unsigned char)c < 0x20 && !(ps->flags & IOS_JSON_RAW_CONTROL)))
                        goto fail;
                u[0] = c;
                if (c == '\\') {
                        if (ps->p >= ps->end)
                                goto fail;
                        c = *ps->p++;
                        switch (c) {
                        case 'n': u[0] = '\n'; break;
                        case 't': u[0] = '\t'; break;
                        case 'r': u[0] = '\r'; break;
                        case 'b': u[0] = '\b'; break;
                        case 'f': u[0] = '\f'; break;
                        case '"': case '\\': case '/': u[0] = c; break;
                        case 'u':
                                len = unicode_escape(ps, u);
                                if (len < 0)
                                        goto fail;
                                break;
                        default:
                                goto fail;
                        }
                }
                if (n + (size_t)len + 1 > cap) {
                        char *t = ios_grow(s, &cap, n + (size_t)len + 1, 1);

                        if (!t) {
                                r = -ENOMEM;
                                goto fail;
                        }
                        s = t;
                }
                memcpy(s + n, u, (size_t)len);
                n += (size_t)len;
        }
        if (ps->p >= ps->end)
                goto fail;
        ps->p++;                        /* the closing quote */
        if (!s && !(s = malloc(1)))
                return -ENOMEM;
        s[n] = '\0';
        *ret = s;
        return 0;
fail:
        free(s);
        return r;
}

/* Members of an object or elements of an array, until close. */
static int parse_list(struct parser *ps, struct ios_json *v, char close)
{
        size_t cap = 0;
        int r;

        if (++ps->depth > 64)
                return -EINVAL;
        ps->p++;
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == close) {
                ps->p++;
                ps->depth--;
                return 0;
        }
        for (;;) {
                struct ios_json *k;
                char *key = NULL;

                skip_ws(ps);
                if (close == '}') {
                        if (ps->p >= ps->end || *ps->p != '"')
                                return -EINVAL;
                        r = parse_string(ps, &key);
                        if (r < 0)
                                return r;
                        skip_ws(ps);
                        if (ps->p >= ps->end || *ps->p != ':') {
                                free(key);
                                return -EINVAL;
                        }
                        ps->p++;
                }
                if (v->n == cap) {
                        struct ios_json *t = ios_grow(v->kids, &cap, v->n + 1, sizeof(*t));

                        if (!t) {
                                free(key);
                                return -ENOMEM;
                        }
                        v->kids = t;
                }
                k = &v->kids[v->n++];
                *k = (struct ios_json){ .key = key };
                r = parse_value(ps, k);
                if (r < 0)
                        return r;
                skip_ws(ps);
                if (ps->p >= ps->end)
                        return -EINVAL;
                if (*ps->p == ',') {
                        ps->p++;
                        continue;
                }
                if (*ps->p != close)
                        return -EINVAL;
                ps->p++;
                ps->depth--;
                return 0;
        }
}

static bool word(struct parser *ps, const char *w)
{
        size_t l = strlen(w);

        if ((size_t)(ps->end - ps->p) < l || strncmp(ps->p, w, l))
                return false;
        ps->p += l;
        return true;
}

static int parse_number(struct parser *ps, struct ios_json *v)
{
        char buf[64], *end;
        size_t n = 0;

        while (ps->p + n < ps->end && n < sizeof(buf) - 1 && ps->p[n] && strchr("+-0123456789.eE", ps->p[n]))
                n++;
        if (n == 0 || n == sizeof(buf) - 1)
                return -EINVAL;
        memcpy(buf, ps->p, n);
        buf[n] = '\0';
        /* JSON's grammar, not strtod's: no "inf", "nan", hex, leading '+' or '.' */
        if (buf[0] == '+' || buf[0] == '.' || (buf[0] == '-' && !isdigit((unsigned char)buf[1])))
                return -EINVAL;
        v->num = strtod(buf, &end);
        if (*end)
                return -EINVAL;
        v->type = IOS_JSON_NUM;
        ps->p += n;
        return 0;
}

static int parse_value(struct parser *ps, struct ios_json *v)
{
        skip_ws(ps);
        if (ps->p >= ps->end)
                return -EINVAL;
        switch (*ps->p) {
        case '{':
                v->type = IOS_JSON_OBJ;
                return parse_list(ps, v, '}');
        case '[':
                v->type = IOS_JSON_ARR;
                return parse_list(ps, v, ']');
        case '"':
                v->type = IOS_JSON_STR;
                return parse_string(ps, &v->str);
        default:
                break;
        }
        if (word(ps, "true") || word(ps, "false")) {
                v->type = IOS_JSON_BOOL;
                v->b = ps->p[-1] == 'e' && ps->p[-2] == 'u';
                return 0;
        }
        if (word(ps, "null")) {
                v->type = IOS_JSON_NULL;
                return 0;
        }
        return parse_number(ps, v);
}

void ios_json_done(struct ios_json *v)
{
        if (!v)
                return;
        for (size_t i = 0; i < v->n; i++)
                ios_json_done(&v->kids[i]);
        free(v->kids);
        free(v->str);
        free(v->key);
        *v = (struct ios_json){};
}

int ios_json_parse(const char *text, size_t len, struct ios_json *ret)
{
        return ios_json_parse_flags(text, len, 0, ret);
}

int ios_json_parse_flags(const char *text, size_t len, unsigned flags, struct ios_json *ret)
{
        struct parser ps = { .p = text, .end = text + len, .flags = flags };
        int r;

        *ret = (struct ios_json){};
        r = parse_value(&ps, ret);
        if (r == 0) {
                skip_ws(&ps);
                if (ps.p != ps.end)
                        r = -EINVAL;
        }
        if (r < 0)
                ios_json_done(ret);
        return r;
}

const struct ios_json *ios_json_get(const struct ios_json *v, const char *key)
{
        for (size_t i = 0; v && v->type == IOS_JSON_OBJ && i < v->n; i++)
                if (v->kids[i].key && streq(v->kids[i].key, key))
                        return &v->kids[i];
        return NULL;
}

const char *ios_json_str(const struct ios_json *v)
{
        return v && v->type == IOS_JSON_STR ? v->str : NULL;
}

bool ios_json_num(const struct ios_json *v, double *ret)
{
        if (!v || v->type != IOS_JSON_NUM)
                return false;
        *ret = v->num;
        return true;
}

bool ios_json_bool(const struct ios_json *v, bool *ret)
{
        if (!v || v->type != IOS_JSON_BOOL)
                return false;
        *ret = v->b;
        return true;
}
