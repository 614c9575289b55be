/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * validate-verdict.c: what iosched-bench --compare -J found, said about the
 * policy's scheduler.  The bench names the best variant and, for every
 * other one, how the best beat it (compare.schedulers[].vs_best: margin,
 * ratio, p, whether that is significant by the bench's one rule, and a
 * label such as "31% lower reader p99").  The policy's scheduler is then
 *   best          it is the best, significantly ahead of the runner-up;
 *   within_noise  it is the best but not significantly ahead of the
 *                 runner-up, or another is best but not significantly;
 *   beaten        another is best, significantly.
 * The first two exit 0, the last 1 (validate.c).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"
#include "strv.h"

const char *apply_verdict_name(enum apply_verdict_kind k)
{
        switch (k) {
        case APPLY_VERDICT_BEST: return "best";
        case APPLY_VERDICT_WITHIN_NOISE: return "within_noise";
        case APPLY_VERDICT_BEATEN: return "beaten";
        case APPLY_VERDICT_NONE: break;
        }
        return NULL;
}

void apply_verdict_done(struct apply_verdict *v)
{
        for (size_t i = 0; i < v->nrows; i++) {
                free(v->rows[i].name);
                ios_wanted_done(&v->rows[i].left);
        }
        free(v->rows);
        free(v->sched);
        free(v->best);
        free(v->against);
        free(v->label);
        free(v->objective);
        free(v->original);
        *v = (struct apply_verdict){};
}

static bool same(const char *a, const char *b)
{
        return a && b && streq(a, b);
}

static int fail(char **ret_msg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(char **ret_msg, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        if (vasprintf(ret_msg, fmt, ap) < 0)
                *ret_msg = NULL;
        va_end(ap);
        return -EINVAL;
}

static double num_or_nan(const struct ios_json *o, const char *key)
{
        double d;

        return ios_json_num(ios_json_get(o, key), &d) ? d : NAN;
}

/* The element of schedulers[] for name: its "name" first, else its "scheduler". */
static const struct ios_json *find_variant(const struct ios_json *scheds, const char *name)
{
        for (size_t i = 0; i < scheds->n; i++)
                if (same(ios_json_str(ios_json_get(&scheds->kids[i], "name")), name))
                        return &scheds->kids[i];
        for (size_t i = 0; i < scheds->n; i++)
                if (same(ios_json_str(ios_json_get(&scheds->kids[i], "scheduler")), name))
                        return &scheds->kids[i];
        return NULL;
}

/* A variant's left_at_default: the policy values the kernel refused under it (absent: none). */
static int read_left(const struct ios_json *a, struct ios_wanted *left)
{
        for (size_t i = 0; a && a->type == IOS_JSON_ARR && i < a->n; i++) {
                const char *key = ios_json_str(ios_json_get(&a->kids[i], "key"));
                const char *value = ios_json_str(ios_json_get(&a->kids[i], "value"));
                const char *why = ios_json_str(ios_json_get(&a->kids[i], "why"));

                if (key && value && ios_wanted_set(left, key, value, why ? why : "") < 0)
                        return -ENOMEM;
        }
        return 0;
}

/* The rows of the text table: every variant's median, range and spread of the objective. */
static int read_rows(const struct ios_json *scheds, struct apply_verdict *v)
{
        int r;

        v->rows = calloc(scheds->n ? scheds->n : 1, sizeof(*v->rows));
        if (!v->rows)
                return -ENOMEM;
        for (size_t i = 0; i < scheds->n; i++) {
                const struct ios_json *s = &scheds->kids[i];
                const char *name = ios_json_str(ios_json_get(s, "name"));
                double runs = 0;

                if (!name)
                        return -EINVAL;
                v->rows[i].name = strdup(name);
                if (!v->rows[i].name)
                        return -ENOMEM;
                v->nrows++;
                (void)ios_json_num(ios_json_get(s, "runs"), &runs);
                v->rows[i].runs = runs > 0 ? (unsigned)runs : 0;
                v->rows[i].median = num_or_nan(s, "median");
                v->rows[i].min = num_or_nan(s, "min");
                v->rows[i].max = num_or_nan(s, "max");
                v->rows[i].spread = num_or_nan(s, "spread_pct");
                r = read_left(ios_json_get(s, "left_at_default"), &v->rows[i].left);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* How the best beat the variant e (its vs_best object): into v. */
static int read_vs_best(const struct ios_json *e, const char *name, struct apply_verdict *v, char **ret_msg)
{
        const struct ios_json *vs = ios_json_get(e, "vs_best"), *sig;
        const char *label;

        if (!vs || vs->type != IOS_JSON_OBJ)
                return fail(ret_msg, "iosched-bench gave no vs_best for %s: it is older than this iosched-apply", name);
        sig = ios_json_get(vs, "significant");
        label = ios_json_str(ios_json_get(vs, "label"));
        if (!sig || sig->type != IOS_JSON_BOOL || !label)
                return fail(ret_msg, "iosched-bench's vs_best for %s has no significant or label", name);
        v->significant = sig->b;
        v->margin_pct = num_or_nan(vs, "margin_pct");
        v->ratio = num_or_nan(vs, "ratio");
        v->p_value = num_or_nan(vs, "p_value");
        v->label = strdup(label);
        return v->label ? 0 : -ENOMEM;
}

static int decide(const struct ios_json *cmp, const struct ios_json *scheds, const struct ios_json *mine,
                  struct apply_verdict *v, char **ret_msg)
{
        const char *best = ios_json_str(ios_json_get(cmp, "best"));
        const char *second = ios_json_str(ios_json_get(cmp, "runner_up"));
        const char *my = ios_json_str(ios_json_get(mine, "name"));
        const struct ios_json *other;
        int e;

        if (!best || !*best)
                return fail(ret_msg, "iosched-bench named no best scheduler: no run completed");
        v->best = strdup(best);
        if (!v->best)
                return -ENOMEM;
        if (same(best, my)) {
                if (!second || !*second) {
                        /* nothing else completed: best, against nothing */
                        v->kind = APPLY_VERDICT_BEST;
                        return 0;
                }
                other = find_variant(scheds, second);
                if (!other)
                        return fail(ret_msg, "iosched-bench's runner-up %s is not among its schedulers", second);
                e = read_vs_best(other, second, v, ret_msg);
                if (e < 0)
                        return e;
                v->against = strdup(second);
                v->kind = v->significant ? APPLY_VERDICT_BEST : APPLY_VERDICT_WITHIN_NOISE;
        } else {
                e = read_vs_best(mine, my, v, ret_msg);
                if (e < 0)
                        return e;
                v->against = strdup(best);
                v->kind = v->significant ? APPLY_VERDICT_BEATEN : APPLY_VERDICT_WITHIN_NOISE;
        }
        return v->against ? 0 : -ENOMEM;
}

int apply_verdict_read(const char *text, size_t len, const char *sched, struct apply_verdict *v, char **ret_msg)
{
        struct ios_json doc;
        const struct ios_json *cmp, *scheds, *mine, *lib;
        const char *obj;
        double runs = 0;
        int e;

        *v = (struct apply_verdict){ .margin_pct = NAN, .ratio = NAN, .p_value = NAN };
        *ret_msg = NULL;
        e = ios_json_parse(text, len, &doc);
        if (e == -ENOMEM)
                return e;
        if (e < 0)
                return fail(ret_msg, "iosched-bench's output is not one JSON object (%zu bytes)", len);
        cmp = ios_json_get(&doc, "compare");
        scheds = ios_json_get(cmp, "schedulers");
        if (!scheds || scheds->type != IOS_JSON_ARR) {
                e = fail(ret_msg, "iosched-bench's output has no compare.schedulers");
                goto out;
        }
        lib = ios_json_get(cmp, "lower_is_better");
        v->lower_is_better = lib && lib->type == IOS_JSON_BOOL && lib->b;
        lib = ios_json_get(cmp, "restored");
        v->restored = lib && lib->type == IOS_JSON_BOOL && lib->b;
        obj = ios_json_str(ios_json_get(cmp, "original_scheduler"));
        if (obj && !(v->original = strdup(obj))) {
                e = -ENOMEM;
                goto out;
        }
        obj = ios_json_str(ios_json_get(cmp, "objective"));
        v->objective = strdup(obj ? obj : "");
        v->sched = strdup(sched);
        e = v->objective && v->sched ? read_rows(scheds, v) : -ENOMEM;
        if (e == -EINVAL)
                e = fail(ret_msg, "iosched-bench's output has a scheduler without a name");
        if (e < 0)
                goto out;
        mine = find_variant(scheds, sched);
        if (!mine) {
                e = fail(ret_msg, "the policy's %s was not measured", sched);
                goto out;
        }
        (void)ios_json_num(ios_json_get(mine, "runs"), &runs);
        if (runs < 1) {
                e = fail(ret_msg, "the policy's %s completed no run", sched);
                goto out;
        }
        e = decide(cmp, scheds, mine, v, ret_msg);
out:
        ios_json_done(&doc);
        if (e < 0) {
                char *m = *ret_msg;

                apply_verdict_done(v);
                *ret_msg = m;
        }
        return e;
}

/* "p=0.03", or "" when the bench gave none. */
static const char *p_text(double p, char *buf, size_t len)
{
        if (isnan(p))
                return "";
        snprintf(buf, len, ", p=%.2g", p);
        return buf;
}

void apply_verdict_line(FILE *f, const char *dev, const char *who, const struct apply_verdict *v)
{
        char p[32];

        fprintf(f, "%s: %s %s: ", dev, who, v->sched);
        switch (v->kind) {
        case APPLY_VERDICT_BEST:
                if (v->against)
                        fprintf(f, "best (%s than %s%s)\n", v->label, v->against, p_text(v->p_value, p, sizeof(p)));
                else
                        fprintf(f, "best (nothing else completed a run)\n");
                break;
        case APPLY_VERDICT_WITHIN_NOISE:
                fprintf(f, "within the noise of %s (%s: %s%s, not significant)\n", v->against, v->best, v->label,
                        p_text(v->p_value, p, sizeof(p)));
                break;
        case APPLY_VERDICT_BEATEN:
                fprintf(f, "beaten by %s, %s%s\n", v->against, v->label, p_text(v->p_value, p, sizeof(p)));
                break;
        case APPLY_VERDICT_NONE:
                fprintf(f, "no verdict\n");
                break;
        }
}

/* An objective value in its unit: latencies are in ns, bandwidth in bytes/s, the rest a count. */
static void value_text(const struct apply_verdict *v, double x, char *buf, size_t len)
{
        if (isnan(x))
                snprintf(buf, len, "-");
        else if (v->lower_is_better)
                snprintf(buf, len, x >= 1e6 ? "%.1fms" : "%.1fus", x >= 1e6 ? x / 1e6 : x / 1e3);
        else if (strstr(v->objective, "bw"))
                snprintf(buf, len, "%.1fMiB/s", x / 1048576);
        else
                snprintf(buf, len, "%.0f", x);
}

void apply_verdict_table(FILE *f, const struct apply_verdict *v)
{
        char a[32], b[32], c[32];
        int w = 11;

        for (size_t i = 0; i < v->nrows; i++)
                w = (int)strlen(v->rows[i].name) > w ? (int)strlen(v->rows[i].name) : w;
        fprintf(f, "  %-*s %4s %10s %23s %7s  (objective %s, %s is better)\n", w + 2, "SCHEDULER", "RUNS", "MEDIAN",
                "[MIN - MAX]", "SPREAD", v->objective, v->lower_is_better ? "lower" : "higher");
        for (size_t i = 0; i < v->nrows; i++) {
                char range[72];

                value_text(v, v->rows[i].min, a, sizeof(a));
                value_text(v, v->rows[i].max, b, sizeof(b));
                snprintf(range, sizeof(range), "[%s - %s]", a, b);
                value_text(v, v->rows[i].median, c, sizeof(c));
                fprintf(f, "  %-*s%s %4u %10s %23s %6.1f%%%s\n", w, v->rows[i].name,
                        same(v->rows[i].name, v->best) ? " *" : "  ", v->rows[i].runs, c, range,
                        isnan(v->rows[i].spread) ? 0.0 : v->rows[i].spread,
                        same(v->rows[i].name, v->sched) ? "  the policy's" : "");
        }
        for (size_t i = 0; i < v->nrows; i++)
                for (size_t k = 0; k < v->rows[i].left.n; k++)
                        fprintf(f, "  %s ran with %s at its default: the kernel refuses the policy's %s "
                                "there: %s\n",
                                v->rows[i].name, v->rows[i].left.s[k].key, v->rows[i].left.s[k].value,
                                v->rows[i].left.s[k].source);
        if (v->original)
                fprintf(f, "  %s: scheduler %s and the queue tunables as found\n",
                        v->restored ? "restored" : "NOT restored", v->original);
}

static void json_num(FILE *f, const char *key, double x)
{
        if (isnan(x) || isinf(x))
                fprintf(f, ", \"%s\": null", key);
        else
                fprintf(f, ", \"%s\": %.6g", key, x);
}

void apply_verdict_json(FILE *f, const struct apply_verdict *v)
{
        bool have = v->kind != APPLY_VERDICT_NONE;

        fputs(",\n \"objective\": ", f);
        ios_json_string(f, have ? v->objective : NULL);
        fputs(", \"verdict\": ", f);
        ios_json_string(f, apply_verdict_name(v->kind));
        fputs(", \"best\": ", f);
        ios_json_string(f, have ? v->best : NULL);
        fputs(", \"against\": ", f);
        ios_json_string(f, have ? v->against : NULL);
        fputs(", \"label\": ", f);
        ios_json_string(f, have ? v->label : NULL);
        json_num(f, "margin_pct", have ? v->margin_pct : NAN);
        json_num(f, "ratio", have ? v->ratio : NAN);
        json_num(f, "p_value", have ? v->p_value : NAN);
        if (have && v->label)
                fprintf(f, ", \"significant\": %s", v->significant ? "true" : "false");
        else
                fputs(", \"significant\": null", f);
        fputs(",\n \"left_at_default\": [", f);
        for (size_t i = 0, n = 0; have && i < v->nrows; i++)
                for (size_t k = 0; k < v->rows[i].left.n; k++) {
                        fputs(n++ ? ", {\"scheduler\": " : "{\"scheduler\": ", f);
                        ios_json_string(f, v->rows[i].name);
                        fputs(", \"key\": ", f);
                        ios_json_string(f, v->rows[i].left.s[k].key);
                        fputs(", \"value\": ", f);
                        ios_json_string(f, v->rows[i].left.s[k].value);
                        fputs(", \"why\": ", f);
                        ios_json_string(f, v->rows[i].left.s[k].source);
                        fputc('}', f);
                }
        fputc(']', f);
}
