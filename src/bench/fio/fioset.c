/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fioset.c: the sets fiojob.c keeps so that its model stays linear in jobs
 * x files: a set of strings (FNV-1a, open addressing), each with a count
 * (the occurrences of a name), and a NULL-terminated
 * list that grows in amortised O(1).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "iosched.h"
#include "fioset.h"
#include "macro.h"
#include "grow.h"

static size_t hash(const char *s)
{
        size_t h = 1469598103934665603ull;

        for (; *s; s++)
                h = (h ^ (unsigned char)*s) * 1099511628211ull;
        return h;
}

/* the slot of key, added if missing (*added): < 0 error */
static long slot(struct bench_sset *s, const char *key, bool *added)
{
        size_t i;

        *added = false;
        if (2 * (s->n + 1) > s->cap) {
                size_t cap = s->cap ? 2 * s->cap : 64;
                char **v = calloc(cap, sizeof(*v));
                unsigned *c = calloc(cap, sizeof(*c));

                if (!v || !c) {
                        free(v);
                        free(c);
                        return -ENOMEM;
                }
                for (size_t k = 0; k < s->cap; k++)
                        if (s->v[k]) {
                                for (i = hash(s->v[k]) & (cap - 1); v[i]; i = (i + 1) & (cap - 1))
                                        ;
                                v[i] = s->v[k];
                                c[i] = s->c[k];
                        }
                free(s->v);
                free(s->c);
                s->v = v;
                s->c = c;
                s->cap = cap;
        }
        for (i = hash(key) & (s->cap - 1); s->v[i]; i = (i + 1) & (s->cap - 1))
                if (streq(s->v[i], key))
                        return (long)i;
        s->v[i] = strdup(key);
        if (!s->v[i])
                return -ENOMEM;
        s->n++;
        *added = true;
        return (long)i;
}

/* 1 added, 0 already there, < 0 error */
int bench_sset_add(struct bench_sset *s, const char *key)
{
        bool added;
        long i = slot(s, key, &added);

        return i < 0 ? (int)i : added;
}

int bench_sset_count(struct bench_sset *s, const char *key, unsigned *ret)
{
        bool added;
        long i = slot(s, key, &added);

        if (i < 0)
                return (int)i;
        *ret = ++s->c[i];
        return 0;
}

unsigned bench_sset_counted(const struct bench_sset *s, const char *key)
{
        if (!s->cap)
                return 0;
        for (size_t i = hash(key) & (s->cap - 1); s->v[i]; i = (i + 1) & (s->cap - 1))
                if (streq(s->v[i], key))
                        return s->c[i];
        return 0;
}

void bench_sset_donep(struct bench_sset *s)
{
        bench_sset_done(s);
}

bool bench_sset_has(const struct bench_sset *s, const char *key)
{
        if (!s->cap)
                return false;
        for (size_t i = hash(key) & (s->cap - 1); s->v[i]; i = (i + 1) & (s->cap - 1))
                if (streq(s->v[i], key))
                        return true;
        return false;
}

void bench_sset_done(struct bench_sset *s)
{
        for (size_t i = 0; i < s->cap; i++)
                free(s->v[i]);
        free(s->v);
        free(s->c);
        *s = (struct bench_sset){};
}

int bench_list_push(struct bench_list *l, const char *s)
{
        char **v = ios_grow(*l->v, &l->cap, l->n + 2, sizeof(*v));

        if (!v)
                return -ENOMEM;
        *l->v = v;
        v[l->n] = strdup(s);
        if (!v[l->n])
                return -ENOMEM;
        v[++l->n] = NULL;
        return 0;
}

