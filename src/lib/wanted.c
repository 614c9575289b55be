/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * wanted.c: a list of settings (struct ios_wanted), one per key: the merged
 * settings of a disk (policy.c), a rule's [Set] (conf.c), a snapshot
 * (snapshot.c), what iosched-bench writes.  Setting a key that is there
 * replaces its value and source where it stands, so the order is the order
 * keys were first set.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "grow.h"
#include "strv.h"

const struct ios_setting *ios_wanted_get(const struct ios_wanted *w, const char *key)
{
        for (size_t i = 0; w && i < w->n; i++)
                if (streq(w->s[i].key, key))
                        return &w->s[i];
        return NULL;
}

const char *ios_wanted_value(const struct ios_wanted *w, const char *key)
{
        const struct ios_setting *s = ios_wanted_get(w, key);

        return s ? s->value : NULL;
}

/* A copy of s, NULL staying NULL; false when out of memory. */
static bool dup_or_null(const char *s, char **ret)
{
        *ret = s ? strdup(s) : NULL;
        return !s || *ret;
}

int ios_wanted_set(struct ios_wanted *w, const char *key, const char *value, const char *source)
{
        char *v, *src;
        struct ios_setting *ns;

        assert(w && key);
        if (!dup_or_null(value, &v))
                return -ENOMEM;
        if (!dup_or_null(source, &src)) {
                free(v);
                return -ENOMEM;
        }
        for (size_t i = 0; i < w->n; i++)
                if (streq(w->s[i].key, key)) {
                        free(w->s[i].value);
                        free(w->s[i].source);
                        w->s[i].value = v;
                        w->s[i].source = src;
                        return 0;
                }
        ns = ios_grow(w->s, &w->cap, w->n + 1, sizeof(*ns));
        if (ns)
                w->s = ns;
        if (!ns || !(ns[w->n].key = strdup(key))) {
                free(v);
                free(src);
                return -ENOMEM;
        }
        ns[w->n].value = v;
        ns[w->n].source = src;
        w->n++;
        return 0;
}

void ios_wanted_unset(struct ios_wanted *w, const char *key)
{
        for (size_t i = 0; i < w->n; i++)
                if (!key || streq(w->s[i].key, key)) {
                        free(w->s[i].key);
                        free(w->s[i].value);
                        free(w->s[i].source);
                        w->s[i--] = w->s[--w->n];
                }
}

int ios_wanted_copy(const struct ios_wanted *from, struct ios_wanted *to)
{
        *to = (struct ios_wanted){};
        for (size_t i = 0; i < from->n; i++)
                if (ios_wanted_set(to, from->s[i].key, from->s[i].value, from->s[i].source) < 0) {
                        ios_wanted_done(to);
                        return -ENOMEM;
                }
        return 0;
}

void ios_wanted_done(struct ios_wanted *w)
{
        for (size_t i = 0; i < w->nheld; i++) {
                free(w->held[i].key);
                free(w->held[i].source);
        }
        free(w->held);
        ios_wanted_unset(w, NULL);
        free(w->s);
        ios_strv_free(w->notes);
        *w = (struct ios_wanted){};
}
