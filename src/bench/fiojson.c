/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fiojson.c: a small JSON reader for fio's --output-format=json+ (fio.c):
 * the text into a tree of values, and lookups by member name.  Strict
 * enough for fio's output (objects, arrays, strings with escapes, numbers,
 * true/false/null), bounded in depth, and it never reads past len.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fio.h"
#include "macro.h"

struct parser {
        const char *p, *end;
        unsigned depth;
};

static void skip_ws(struct parser *ps)
{
        while (ps->p < ps->end && isspace((unsigned char)*ps->p))
                ps->p++;
}

static int parse_value(struct parser *ps, struct bench_fj *v);

static int parse_string(struct parser *ps, char **ret)
{
        size_t cap = 16, n = 0;
        char *s = malloc(cap);

        if (!s)
                return -ENOMEM;
        ps->p++;                        /* the opening quote */
        while (ps->p < ps->end && *ps->p != '"') {
                char c = *ps->p++;

                if (c == '\\') {
                        if (ps->p >= ps->end)
                                break;
                        c = *ps->p++;
                        switch (c) {
                        case 'n': c = '\n'; break;
                        case 't': c = '\t'; break;
                        case 'r': c = '\r'; break;
                        case 'b': c = '\b'; break;
                        case 'f': c = '\f'; break;
                        case 'u':
                                /* fio writes plain ASCII; keep anything else as '?' */
                                if (ps->end - ps->p < 4) {
                                        free(s);
                                        return -EINVAL;
                                }
                                ps->p += 4;
                                c = '?';
                                break;
                        default:        /* \" \\ \/ */
                                break;
                        }
                }
                if (n + 2 > cap) {
                        char *t = ios_grow(s, &cap, n + 2, 1);

                        if (!t) {
                                free(s);
                                return -ENOMEM;
                        }
                        s = t;
                }
                s[n++] = c;
        }
        if (ps->p >= ps->end) {
                free(s);
                return -EINVAL;
        }
        ps->p++;                        /* the closing quote */
        s[n] = '\0';
        *ret = s;
        return 0;
}

/* Members of an object or elements of an array, until close. */
static int parse_list(struct parser *ps, struct bench_fj *v, char close)
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
                struct bench_fj *k;
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
                        struct bench_fj *t = ios_grow(v->kids, &cap, v->n + 1, sizeof(*t));

                        if (!t) {
                                free(key);
                                return -ENOMEM;
                        }
                        v->kids = t;
                }
                k = &v->kids[v->n++];
                *k = (struct bench_fj){ .key = key };
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

static int parse_value(struct parser *ps, struct bench_fj *v)
{
        skip_ws(ps);
        if (ps->p >= ps->end)
                return -EINVAL;
        switch (*ps->p) {
        case '{':
                v->type = BENCH_FJ_OBJ;
                return parse_list(ps, v, '}');
        case '[':
                v->type = BENCH_FJ_ARR;
                return parse_list(ps, v, ']');
        case '"':
                v->type = BENCH_FJ_STR;
                return parse_string(ps, &v->str);
        default:
                break;
        }
        if (ps->end - ps->p >= 4 && !strncmp(ps->p, "true", 4)) {
                v->type = BENCH_FJ_NUM;
                v->num = 1;
                ps->p += 4;
                return 0;
        }
        if (ps->end - ps->p >= 5 && !strncmp(ps->p, "false", 5)) {
                v->type = BENCH_FJ_NUM;
                ps->p += 5;
                return 0;
        }
        if (ps->end - ps->p >= 4 && !strncmp(ps->p, "null", 4)) {
                v->type = BENCH_FJ_NULL;
                ps->p += 4;
                return 0;
        }
        {
                char buf[64], *end;
                size_t n = 0;

                while (ps->p + n < ps->end && n < sizeof(buf) - 1 && strchr("+-0123456789.eE", ps->p[n]))
                        n++;
                if (n == 0)
                        return -EINVAL;
                memcpy(buf, ps->p, n);
                buf[n] = '\0';
                v->num = strtod(buf, &end);
                if (*end)
                        return -EINVAL;
                v->type = BENCH_FJ_NUM;
                ps->p += n;
                return 0;
        }
}

void bench_fj_free(struct bench_fj *v)
{
        if (!v)
                return;
        for (unsigned i = 0; i < v->n; i++)
                bench_fj_free(&v->kids[i]);
        free(v->kids);
        free(v->str);
        free(v->key);
        *v = (struct bench_fj){ 0 };
}

int bench_fj_parse(const char *text, size_t len, struct bench_fj *ret)
{
        struct parser ps = { .p = text, .end = text + len };
        int r;

        *ret = (struct bench_fj){ 0 };
        r = parse_value(&ps, ret);
        if (r == 0) {
                skip_ws(&ps);
                if (ps.p != ps.end)
                        r = -EINVAL;
        }
        if (r < 0)
                bench_fj_free(ret);
        return r;
}

const struct bench_fj *bench_fj_get(const struct bench_fj *v, const char *key)
{
        for (unsigned i = 0; v && v->type == BENCH_FJ_OBJ && i < v->n; i++)
                if (v->kids[i].key && streq(v->kids[i].key, key))
                        return &v->kids[i];
        return NULL;
}

double bench_fj_num(const struct bench_fj *v, double def)
{
        char *end;
        double d;

        if (!v)
                return def;
        if (v->type == BENCH_FJ_NUM)
                return v->num;
        if (v->type == BENCH_FJ_STR && v->str) {
                d = strtod(v->str, &end);
                if (end != v->str && !*end)
                        return d;
        }
        return def;
}

const char *bench_fj_str(const struct bench_fj *v)
{
        return v && v->type == BENCH_FJ_STR ? v->str : NULL;
}
