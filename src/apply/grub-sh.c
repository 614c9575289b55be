/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * grub-sh.c: GRUB's configuration files read as the sh that grub-mkconfig
 * sources them with: assignments (a later one replaces an earlier one),
 * "double" and 'single' quotes, escapes, backslash-newline, $VAR and
 * ${VAR} (so the self-append "$GRUB_CMDLINE_LINUX elevator=x" works) and
 * export.  What it cannot evaluate (conditions, loops, $(...), `...`) is
 * skipped with a note naming file:line, since it could hide an elevator=.
 * Every character of a value keeps the file and line it was written on,
 * and elevator= tokens are found in values and in /proc/cmdline.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"
#include "grub-internal.h"
#include "grow.h"
#include "strv.h"

/* Append n characters written at at[0..n); what goes beyond GRUB_VALUE_MAX is dropped and marked. */
static int val_append(struct val *v, const char *s, const struct pos *at, size_t n)
{
        if (n > GRUB_VALUE_MAX - v->n) {
                n = GRUB_VALUE_MAX - v->n;
                v->cut = true;
        }
        if (!n)
                return 0;
        if (v->n + n + 1 > v->cap) {
                /* two arrays, one room: each grows from it, the room is what both have */
                size_t cap_s = v->cap, cap_at = v->cap;
                char *ns = ios_grow(v->s, &cap_s, v->n + n + 1, 1);
                struct pos *a;

                if (!ns)
                        return -ENOMEM;
                v->s = ns;
                a = ios_grow(v->at, &cap_at, v->n + n + 1, sizeof(*a));
                if (!a)
                        return -ENOMEM;
                v->at = a;
                v->cap = cap_s < cap_at ? cap_s : cap_at;
        }
        memcpy(v->s + v->n, s, n);
        memcpy(v->at + v->n, at, n * sizeof(*at));
        v->n += n;
        v->s[v->n] = '\0';
        return 0;
}

static int val_push(struct val *v, char c, struct pos at)
{
        return val_append(v, &c, &at, 1);
}

static bool is_sep(char c)
{
        return c == ' ' || c == '\t' || c == '\n' || c == '"' || c == '\'';
}

/* The next elevator=VALUE in s[*i..n): its value at *v, *l long; *i moves past it. */
static bool next_elevator(const char *s, size_t n, size_t *i, size_t *v, size_t *l)
{
        for (; *i + 9 <= n; (*i)++) {
                if (strncmp(s + *i, "elevator=", 9) != 0 || (*i > 0 && !is_sep(s[*i - 1])))
                        continue;
                *v = *i + 9;
                for (*l = 0; *v + *l < n && !is_sep(s[*v + *l]); (*l)++)
                        ;
                *i = *v + *l;
                if (*l)
                        return true;
        }
        return false;
}

char *apply_find_elevator(const char *text)
{
        size_t n = text ? strlen(text) : 0, i = 0, v, l, lv = 0, ll = 0;

        while (next_elevator(text, n, &i, &v, &l)) {
                lv = v;
                ll = l;
        }
        return ll ? strndup(text + lv, ll) : NULL;
}

/* FNV-1a of s[0..l), from h (the two hash sets below: tokens by where and value, variables by name) */
static size_t fnv1a(size_t h, const void *s, size_t l)
{
        for (size_t i = 0; i < l; i++)
                h = (h ^ ((const unsigned char *)s)[i]) * 1099511628211ULL;
        return h;
}

#define FNV_BASIS ((size_t)14695981039346656037ULL)

static size_t tok_hash(struct pos at, const char *s, size_t l)
{
        return fnv1a(fnv1a(FNV_BASIS, &at, sizeof(at)), s, l);
}

/* The slot of lit's set where the token (at, s[0..l)) is, or the empty one where it goes. */
static size_t *seen_slot(const struct toks *t, struct pos at, const char *s, size_t l)
{
        size_t mask = t->seen_cap - 1, i = tok_hash(at, s, l) & mask;

        for (;; i = (i + 1) & mask) {
                const struct tok *k = t->seen[i] ? &t->t[t->seen[i] - 1] : NULL;

                if (!k || (k->at.file == at.file && k->at.line == at.line && !strncmp(k->value, s, l) &&
                           !k->value[l]))
                        return &t->seen[i];
        }
}

struct tok *grub_lit_find(const struct elv *e, struct pos at, const char *value)
{
        size_t *slot = e->lit.seen_cap ? seen_slot(&e->lit, at, value, strlen(value)) : NULL;

        return slot && *slot ? &e->lit.t[*slot - 1] : NULL;
}

/* Room in lit's set for one more (load at most one half). */
static int seen_grow(struct toks *t)
{
        struct toks nt = *t;

        if (2 * (t->n + 1) <= t->seen_cap)
                return 0;
        nt.seen_cap = t->seen_cap ? 2 * t->seen_cap : 64;
        nt.seen = calloc(nt.seen_cap, sizeof(*nt.seen));
        if (!nt.seen)
                return -ENOMEM;
        for (size_t i = 0; i < t->n; i++)
                *seen_slot(&nt, t->t[i].at, t->t[i].value, strlen(t->t[i].value)) = i + 1;
        free(t->seen);
        t->seen = nt.seen;
        t->seen_cap = nt.seen_cap;
        return 0;
}

/* Append each elevator= of s to t, named by at (NULL: /proc/cmdline); to lit only once each. */
int grub_toks_scan(struct elv *e, struct toks *t, const char *s, size_t n, const struct pos *at, const char *var)
{
        bool lit = t == &e->lit && at;
        size_t i = 0, v, l;

        while (next_elevator(s, n, &i, &v, &l)) {
                struct tok nt = { NULL, NULL, var, at ? at[v] : (struct pos){ -1, 0 }, 0 }, *nts;
                size_t *slot = NULL;

                if (lit) {
                        if (seen_grow(t) < 0)
                                return -ENOMEM;
                        slot = seen_slot(t, nt.at, s + v, l);
                        if (*slot)
                                continue;       /* this one, from this line, is known */
                }
                nt.value = strndup(s + v, l);
                if (at ? asprintf(&nt.where, "%s:%u", e->files[nt.at.file], nt.at.line) < 0 :
                         !(nt.where = strdup(CMDLINE)))
                        nt.where = NULL;
                if (nt.where && nt.value && t->n == t->cap) {
                        nts = ios_grow(t->t, &t->cap, t->n + 1, sizeof(*nts));
                        if (nts)
                                t->t = nts;
                }
                if (!nt.where || !nt.value || t->n == t->cap) {
                        free(nt.value);
                        free(nt.where);
                        return -ENOMEM;
                }
                t->t[t->n++] = nt;
                if (slot)
                        *slot = t->n;
        }
        return 0;
}

void grub_elv_done(struct elv *e)
{
        struct toks *ts[] = { &e->run, &e->eff, &e->lit };

        for (size_t i = 0; i < e->nvars; i++) {
                free(e->vars[i].name);
                free(e->vars[i].set);
                free(e->vars[i].v.s);
                free(e->vars[i].v.at);
        }
        for (size_t k = 0; k < ELEMENTSOF(ts); k++) {
                for (size_t i = 0; i < ts[k]->n; i++) {
                        free(ts[k]->t[i].value);
                        free(ts[k]->t[i].where);
                }
                free(ts[k]->t);
                free(ts[k]->seen);
        }
        free(e->vars);
        free(e->var_idx);
        ios_strv_free(e->files);
        ios_strv_free(e->notes);
        *e = (struct elv){};
}

/* The slot of the variables' set where name[0..len) is, or the empty one where it goes. */
static size_t *var_slot(const struct elv *e, const char *name, size_t len)
{
        size_t mask = e->var_idx_cap - 1, i = fnv1a(FNV_BASIS, name, len) & mask;

        for (;; i = (i + 1) & mask) {
                const char *k = e->var_idx[i] ? e->vars[e->var_idx[i] - 1].name : NULL;

                if (!k || (!strncmp(k, name, len) && !k[len]))
                        return &e->var_idx[i];
        }
}

struct var *grub_var_find(const struct elv *e, const char *name, size_t len)
{
        size_t *slot = e->var_idx_cap ? var_slot(e, name, len) : NULL;

        return slot && *slot ? &e->vars[*slot - 1] : NULL;
}

/* A new variable named name (taken), its value empty: the array and the set grow by doubling. */
static struct var *var_add(struct elv *e, char *name)
{
        if (e->nvars == e->cap_vars) {
                struct var *nv = ios_grow(e->vars, &e->cap_vars, e->nvars + 1, sizeof(*nv));

                if (!nv)
                        return NULL;
                e->vars = nv;
        }
        if (2 * (e->nvars + 1) > e->var_idx_cap) {
                size_t cap = e->var_idx_cap ? 2 * e->var_idx_cap : 32, *old = e->var_idx, old_cap = e->var_idx_cap;

                e->var_idx = calloc(cap, sizeof(*e->var_idx));
                if (!e->var_idx) {
                        e->var_idx = old;
                        return NULL;
                }
                e->var_idx_cap = cap;
                for (size_t i = 0; i < old_cap; i++)
                        if (old[i])
                                *var_slot(e, e->vars[old[i] - 1].name, strlen(e->vars[old[i] - 1].name)) = old[i];
                free(old);
        }
        e->vars[e->nvars] = (struct var){ .name = name };
        *var_slot(e, name, strlen(name)) = ++e->nvars;
        return &e->vars[e->nvars - 1];
}

/* ---- a small sh reader: assignments, quotes, escapes, $VAR ---- */


static char adv(struct parser *ps)
{
        ps->line += *ps->p == '\n';
        return *ps->p++;
}

static size_t name_len(const char *p)
{
        size_t n = 0;

        while (p[n] == '_' || (p[n] >= 'A' && p[n] <= 'Z') || (p[n] >= 'a' && p[n] <= 'z') ||
               (n && p[n] >= '0' && p[n] <= '9'))
                n++;
        return n;
}

/* What we do not evaluate, `...`, $(...), ${VAR op word}: skipped, read as empty. */
static void skip_unsupported(struct parser *ps)
{
        char open = *ps->p, close = open == '`' ? '`' : open == '(' ? ')' : '}';
        unsigned depth = 0;

        adv(ps);
        while (*ps->p && (*ps->p != close || depth)) {
                depth += *ps->p == open && open != '`';
                depth -= *ps->p == close && depth;
                if (*ps->p == '\\' && ps->p[1])
                        adv(ps);
                adv(ps);
        }
        if (*ps->p)
                adv(ps);
        ps->unsupported = true;
}

/* At '$': append the expansion (of a variable the files set; any other is empty). */
static int expand(struct parser *ps, struct val *out, struct pos here)
{
        const char *p = ps->p + 1;
        bool brace = *p == '{';
        size_t l = name_len(p + brace);
        struct var *v;
        int e = 0;

        if (*p == '(' || (brace && !(l && p[1 + l] == '}'))) {
                ps->p = p;
                skip_unsupported(ps);
        } else if (l) {
                v = grub_var_find(ps->e, p + brace, l);
                ps->p = p + l + 2 * brace;
                if (v && v->v.n > GRUB_EXPAND_MAX - ps->e->expanded)
                        e = -E2BIG;             /* the budget of all expansions is spent */
                else if (v) {
                        ps->e->expanded += v->v.n;
                        e = val_append(out, v->v.s, v->v.at, v->v.n);
                }
        } else if (*p && strchr("0123456789@*#?$!-", *p))
                ps->p = p + 1;
        else {
                ps->p = p;
                e = val_push(out, '$', here);
        }
        return e;
}

/* One word, as an assignment's value: quotes removed, expanded, not split. */
static int parse_word(struct parser *ps, struct val *out)
{
        char quote = 0;
        int e = 0;

        while (*ps->p && e >= 0) {
                char c = *ps->p;
                struct pos here = { ps->file, ps->line };

                if (!quote && strchr(" \t\n;&|<>()", c))
                        break;
                if (c == quote || (!quote && (c == '\'' || c == '"'))) {
                        quote = quote ? 0 : c;
                        adv(ps);
                } else if (quote == '\'')
                        e = val_push(out, adv(ps), here);
                else if (c == '\\' && ps->p[1] && (!quote || strchr("$`\"\\\n", ps->p[1]))) {
                        adv(ps);
                        if (adv(ps) != '\n')            /* backslash-newline joins lines */
                                e = val_push(out, ps->p[-1], here);
                } else if (c == '$')
                        e = expand(ps, out, here);
                else if (c == '`')
                        skip_unsupported(ps);
                else
                        e = val_push(out, adv(ps), here);
        }
        return e;
}

/* A statement we do not evaluate, up to an unquoted newline or ';'; noted if it may set elevator=. */
static int skip_statement(struct parser *ps, unsigned line, const char *what)
{
        const char *start = ps->p;
        char quote = 0, prev = ' ';

        while (*ps->p && (quote || (*ps->p != '\n' && *ps->p != ';'))) {
                char c = adv(ps);

                if (!quote && c == '#' && strchr(" \t&|(", prev)) {
                        while (*ps->p && *ps->p != '\n')
                                adv(ps);
                        break;
                }
                if (c == '\\' && *ps->p && quote != '\'')
                        adv(ps);
                else if (c == quote || (!quote && (c == '\'' || c == '"')))
                        quote = quote ? 0 : c;
                prev = c;
        }
        if (!memmem(start, ps->p - start, "GRUB_CMDLINE_LINUX", 18) || !memmem(start, ps->p - start, "elevator=", 9))
                return 0;
        return ios_strv_pushf(&ps->e->notes, "%s:%u: elevator= %s, which iosched does not evaluate: ignored",
                              ps->e->files[ps->file], line, what);
}

/* NAME=v written at line (takes name, and v's value); inside a condition (depth) only noted. */
static int assign(struct parser *ps, char *name, struct val *v, unsigned line, unsigned depth)
{
        const char *tracked = NULL, *file = ps->e->files[ps->file];
        struct var *var = grub_var_find(ps->e, name, strlen(name));
        int e = 0;

        for (size_t i = 0; i < ELEMENTSOF(cmdline_vars); i++)
                tracked = streq(name, cmdline_vars[i]) ? cmdline_vars[i] : tracked;
        if (depth && tracked && v->s && strstr(v->s, "elevator="))
                e = ios_strv_pushf(&ps->e->notes, "%s:%u: elevator= in %s inside if, case or a loop, which iosched "
                                   "does not evaluate: ignored", file, line, name);
        else if (!depth && tracked && ps->unsupported)
                e = ios_strv_pushf(&ps->e->notes, "%s:%u: %s uses $(...), `...` or ${...} with an operator, which "
                                   "iosched does not evaluate: read as empty", file, line, name);
        if (!depth && e >= 0 && v->cut && !(var && var->cut))
                e = ios_strv_pushf(&ps->e->notes, "%s:%u: %s is longer than %d bytes once expanded: the rest is "
                                   "not read (said once)", file, line, name, GRUB_VALUE_MAX);
        if (!depth && e >= 0 && !var) {
                var = var_add(ps->e, name);
                if (var)
                        name = NULL;    /* the variable's now */
                else
                        e = -ENOMEM;
        }
        if (!depth && e >= 0) {
                free(var->v.s);
                free(var->v.at);
                var->cut = var->cut || v->cut;
                var->v = *v;
                *v = (struct val){};
                free(var->set);
                if (asprintf(&var->set, "%s:%u", file, line) < 0)
                        e = -ENOMEM, var->set = NULL;
                if (tracked && e >= 0)
                        e = grub_toks_scan(ps->e, &ps->e->lit, var->v.s, var->v.n, var->v.at, tracked);
        }
        free(name);
        return e;
}

/* Whether the word at p (l long) is one of list's, which begins and ends with a space. */
static bool word_in(const char *p, size_t l, const char *list)
{
        char w[16];

        return l < sizeof(w) - 2 && snprintf(w, sizeof(w), " %.*s ", (int)l, p) > 0 && strstr(list, w);
}

int grub_sh_parse(struct parser *ps)
{
        unsigned depth = 0;
        int e = 0;

        while (e >= 0) {
                unsigned line;
                size_t l;

                while (*ps->p && (strchr(" \t\n;", *ps->p) || (*ps->p == '\\' && ps->p[1] == '\n')))
                        adv(ps);
                if (*ps->p == '#')
                        while (*ps->p && *ps->p != '\n')
                                adv(ps);
                if (!*ps->p)
                        break;
                if (*ps->p == '\n')
                        continue;
                line = ps->line;
                l = strcspn(ps->p, " \t\n;&|");
                if (word_in(ps->p, l, " if case for while until elif ")) {
                        depth += !word_in(ps->p, l, " elif ");
                        e = skip_statement(ps, line, "in a condition");
                        continue;
                }
                if (word_in(ps->p, l, " fi esac done then else do { } ")) {
                        depth -= depth && word_in(ps->p, l, " fi esac done ");
                        ps->p += l;
                        continue;
                }
                if (word_in(ps->p, l, " export "))
                        for (ps->p += l; *ps->p == ' ' || *ps->p == '\t'; )
                                adv(ps);
                /* NAME=word [NAME=word...] [command...] */
                while (e >= 0 && (l = name_len(ps->p)) && ps->p[l] == '=') {
                        struct val v = {};
                        char *name = strndup(ps->p, l);

                        if (!name)
                                return -ENOMEM;
                        ps->p += l + 1;
                        ps->unsupported = false;
                        line = ps->line;
                        e = parse_word(ps, &v);
                        if (e == -E2BIG) {
                                ps->e->spent = true;
                                e = ios_strv_pushf(&ps->e->notes, "%s:%u: the expansions of GRUB's variables come to "
                                                   "more than %d bytes in all: this and what follows is not read",
                                                   ps->e->files[ps->file], line, GRUB_EXPAND_MAX);
                                e = e < 0 ? e : -E2BIG;
                        }
                        e = e < 0 ? e : assign(ps, TAKE_PTR(name), &v, line, depth);
                        free(name);
                        free(v.s);
                        free(v.at);
                        while (*ps->p == ' ' || *ps->p == '\t' || (*ps->p == '\\' && ps->p[1] == '\n'))
                                adv(ps);
                }
                if (e >= 0 && *ps->p && !strchr("\n;#", *ps->p))
                        e = skip_statement(ps, ps->line, "in a command iosched does not run");
        }
        return e == -E2BIG ? 0 : e;
}
