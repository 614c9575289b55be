/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * validate-verdict.c: what iosched-bench --compare -J found, said about the
 * policy's scheduler.  The report is read once, by the library
 * (ios_evidence_from_compare: every variant's runs, median, range, spread,
 * vs_best and left_at_default, the scheduler restored), and judged by its
 * one winner rule (ios_evidence_judge), the rule of the evidence and every
 * view: best, within_noise or beaten.  Here it is said: the verdict line,
 * the table and validate -J's members.  best and within_noise exit 0,
 * beaten 1 (validate.c).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iosched.h"
#include "iosched-evidence.h"
#include "macro.h"
#include "apply.h"
#include "strv.h"

static bool same(const char *a, const char *b)
{
        return a && b && streq(a, b);
}

int apply_verdict_read(const char *text, size_t len, const char *sched, struct ios_evidence *ev,
                       char **ret_msg)
{
        int e = ios_evidence_from_compare(text, len, ev, ret_msg);

        if (e < 0)
                return e;
        e = ios_evidence_judge(ev, sched, ret_msg);
        if (e == -ENOENT)
                e = -EINVAL;
        if (e < 0) {
                char *m = *ret_msg;

                ios_evidence_done(ev);
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

void apply_verdict_line(FILE *f, const char *dev, const char *who, const char *sched,
                        const struct ios_evidence *v)
{
        char p[32];

        fprintf(f, "%s: %s %s: ", dev, who, sched);
        switch (v->verdict) {
        case IOS_EVIDENCE_BEST:
                if (v->against)
                        fprintf(f, "best (%s than %s%s)\n", v->label, v->against, p_text(v->p_value, p, sizeof(p)));
                else
                        fprintf(f, "best (nothing else completed a run)\n");
                break;
        case IOS_EVIDENCE_WITHIN_NOISE:
                fprintf(f, "within the noise of %s (%s: %s%s, not significant)\n", v->against, v->best, v->label,
                        p_text(v->p_value, p, sizeof(p)));
                break;
        case IOS_EVIDENCE_BEATEN:
                fprintf(f, "beaten by %s, %s%s\n", v->against, v->label, p_text(v->p_value, p, sizeof(p)));
                break;
        case IOS_EVIDENCE_NONE:
                fprintf(f, "no verdict\n");
                break;
        }
}

/* An objective value in its unit: latencies are in ns, bandwidth in bytes/s, the rest a count. */
static void value_text(const struct ios_evidence *v, double x, char *buf, size_t len)
{
        if (isnan(x))
                snprintf(buf, len, "-");
        else if (v->lower_is_better)
                snprintf(buf, len, x >= 1e6 ? "%.1fms" : "%.1fus", x >= 1e6 ? x / 1e6 : x / 1e3);
        else if (v->objective && strstr(v->objective, "bw"))
                snprintf(buf, len, "%.1fMiB/s", x / 1048576);
        else
                snprintf(buf, len, "%.0f", x);
}

void apply_verdict_table(FILE *f, const char *sched, const struct ios_evidence *v)
{
        char a[32], b[32], c[32];
        int w = 11;

        for (size_t i = 0; i < v->nv; i++)
                w = (int)strlen(v->v[i].name) > w ? (int)strlen(v->v[i].name) : w;
        fprintf(f, "  %-*s %4s %10s %23s %7s  (objective %s, %s is better)\n", w + 2, "SCHEDULER", "RUNS", "MEDIAN",
                "[MIN - MAX]", "SPREAD", v->objective ? v->objective : "",
                v->lower_is_better ? "lower" : "higher");
        for (size_t i = 0; i < v->nv; i++) {
                const struct ios_evidence_variant *r = &v->v[i];
                char range[72];

                value_text(v, r->min, a, sizeof(a));
                value_text(v, r->max, b, sizeof(b));
                snprintf(range, sizeof(range), "[%s - %s]", a, b);
                value_text(v, r->median, c, sizeof(c));
                fprintf(f, "  %-*s%s %4u %10s %23s %6.1f%%%s\n", w, r->name,
                        same(r->name, v->best) ? " *" : "  ", r->runs, c, range,
                        isnan(r->spread_pct) ? 0.0 : r->spread_pct,
                        same(r->name, sched) ? "  the policy's" : "");
        }
        for (size_t i = 0; i < v->nv; i++)
                for (size_t k = 0; k < v->v[i].nleft; k++)
                        fprintf(f, "  %s ran with %s at its default: the kernel refuses the policy's %s "
                                "there: %s\n",
                                v->v[i].name, v->v[i].left[k].key, v->v[i].left[k].value,
                                v->v[i].left[k].why ? v->v[i].left[k].why : "");
        if (v->original_scheduler)
                fprintf(f, "  %s: scheduler %s and the queue tunables as found\n",
                        v->restored ? "restored" : "NOT restored", v->original_scheduler);
}

static void json_num(FILE *f, const char *key, double x)
{
        if (isnan(x) || isinf(x))
                fprintf(f, ", \"%s\": null", key);
        else
                fprintf(f, ", \"%s\": %.6g", key, x);
}

void apply_verdict_json(FILE *f, const struct ios_evidence *v)
{
        bool have = v && v->verdict != IOS_EVIDENCE_NONE;

        fputs(",\n \"objective\": ", f);
        ios_json_string(f, have ? v->objective ? v->objective : "" : NULL);
        fputs(", \"verdict\": ", f);
        ios_json_string(f, have ? ios_evidence_verdict_name(v->verdict) : NULL);
        fputs(", \"best\": ", f);
        ios_json_string(f, have ? v->best : NULL);
        fputs(", \"against\": ", f);
        ios_json_string(f, have ? v->against : NULL);
        fputs(", \"label\": ", f);
        ios_json_string(f, have ? v->label : NULL);
        json_num(f, "margin_pct", have ? v->effect_pct : NAN);
        json_num(f, "ratio", have ? v->ratio : NAN);
        json_num(f, "p_value", have ? v->p_value : NAN);
        if (have && v->label)
                fprintf(f, ", \"significant\": %s", v->significant ? "true" : "false");
        else
                fputs(", \"significant\": null", f);
        fputs(",\n \"left_at_default\": [", f);
        for (size_t i = 0, n = 0; have && i < v->nv; i++)
                for (size_t k = 0; k < v->v[i].nleft; k++) {
                        fputs(n++ ? ", {\"scheduler\": " : "{\"scheduler\": ", f);
                        ios_json_string(f, v->v[i].name);
                        fputs(", \"key\": ", f);
                        ios_json_string(f, v->v[i].left[k].key);
                        fputs(", \"value\": ", f);
                        ios_json_string(f, v->v[i].left[k].value);
                        fputs(", \"why\": ", f);
                        ios_json_string(f, v->v[i].left[k].why ? v->v[i].left[k].why : "");
                        fputc('}', f);
                }
        fputc(']', f);
}
