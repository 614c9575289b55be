/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * prom.c: --format prometheus, a node_exporter textfile.  Health and time
 * come first and are printed on every run, also when the policy is broken
 * or nothing could be checked (apply_prom_failure), so that an alert
 * fires instead of the file going stale: iosched_policy_ok,
 * iosched_policy_errors, iosched_exit_code and
 * iosched_last_run_timestamp_seconds; then per disk compliance, drifting
 * and failed settings, other writers and the class/scheduler/wanted info;
 * per disk validated, the evidence's age, staleness and verdict against
 * the policy (iosched_validation_*).
 * --textfile (textfile.c) puts this in a file, atomically.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"
#include "strv.h"

/* A label value: valid UTF-8 (a stray byte becomes U+FFFD, as in the JSON), \" \\ \n escaped. */
static void label(FILE *f, const char *raw)
{
        _cleanup_free_ char *clean = raw ? ios_utf8_sanitize(raw) : NULL;
        const char *s = clean ? clean : "";

        fputc('"', f);
        for (; *s; s++) {
                if (*s == '"' || *s == '\\')
                        fputc('\\', f);
                if (*s == '\n') {
                        fputs("\\n", f);
                        continue;
                }
                fputc(*s, f);
        }
        fputc('"', f);
}

static void metric(FILE *f, const char *name, const char *help)
{
        fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* policy_ok: 1, 0, or -1 when the run ended before the policy was read (not printed then). */
static void health(struct apply_out *out, FILE *f, int policy_ok, size_t policy_errors, int exit)
{
        struct timespec ts;

        out->prom_printed = true;
        if (policy_ok >= 0) {
                metric(f, "iosched_policy_ok", "1 if every policy file was read, 0 if one is broken and holds its disks (iosched-apply cat-config shows which).");
                fprintf(f, "iosched_policy_ok %d\n", policy_ok);
                if (policy_errors != (size_t)-1) {
                        metric(f, "iosched_policy_errors", "Policy files and directories that could not be used (they give no rule and hold what they name).");
                        fprintf(f, "iosched_policy_errors %zu\n", policy_errors);
                }
        }
        metric(f, "iosched_exit_code", "Exit status of the check that wrote this file (0 compliant, 1 drift, 2 error).");
        fprintf(f, "iosched_exit_code %d\n", exit);
        (void)clock_gettime(CLOCK_REALTIME, &ts);
        metric(f, "iosched_last_run_timestamp_seconds", "Unix time of the check that wrote this file.");
        fprintf(f, "iosched_last_run_timestamp_seconds %lld\n", (long long)ts.tv_sec);
}

/* The scheduler the plan chose, or the preference list it could not meet; "" when the policy sets none. */
static const char *wanted_scheduler(const struct ios_plan *pl)
{
        for (size_t i = 0; i < pl->n; i++)
                if (streq(pl->c[i].key, "scheduler") && pl->c[i].wanted)
                        return pl->c[i].wanted;
        return "";
}

void apply_prom_failure(struct apply_out *out, FILE *f, int exit)
{
        health(out, f, out->policy_ok, (size_t)-1, exit);
}

/* Per disk: compliance, drifting and failed settings, other writers. */
static void disk_counts(FILE *f, const struct apply_run_opts *o, const struct apply_model *m)
{
        const struct apply_disk *d = m->disks;
        size_t n = m->n;

        metric(f, "iosched_device_compliant", "1 if the disk has every setting of its policy, else 0.");
        for (size_t i = 0; i < n; i++) {
                fputs("iosched_device_compliant{device=", f);
                label(f, d[i].dev->name);
                fputs(",class=", f);
                label(f, ios_class_to_string(d[i].dev->cls));
                fprintf(f, "} %d\n", d[i].compliant);
        }
        metric(f, "iosched_device_drift_settings", "Number of settings that differ from the policy.");
        for (size_t i = 0; i < n; i++) {
                fputs("iosched_device_drift_settings{device=", f);
                label(f, d[i].dev->name);
                fprintf(f, "} %zu\n", d[i].drift);
        }
        metric(f, "iosched_device_failed_settings",
               "Settings that cannot be set or were not kept (not offered, refused, unreadable disk).");
        for (size_t i = 0; i < n; i++) {
                fputs("iosched_device_failed_settings{device=", f);
                label(f, d[i].dev->name);
                fprintf(f, "} %zu\n",
                        ios_plan_count(&d[i].plan, IOS_CHANGE_FAILED) + (d[i].plan.error && !d[i].plan.n));
        }
        metric(f, "iosched_device_conflicting_writers",
               "Other writers (TuneD, udev rules, elevator=) of what the policy sets for the disk.");
        for (size_t i = 0; i < n; i++) {
                fputs("iosched_device_conflicting_writers{device=", f);
                label(f, d[i].dev->name);
                fprintf(f, "} %zu\n", apply_conflicts_count(o, &d[i].plan));
        }
}

/* Per disk with a validation record: its age, whether it is stale, whether it goes against the policy. */
static void validation(FILE *f, const struct apply_model *m)
{
        static const char * const names[] = { "iosched_validation_age_seconds", "iosched_validation_stale",
                                              "iosched_validation_against_policy" };
        static const char * const help[] = {
                "Seconds since the disk's last validation (iosched-apply validate); none: never validated.",
                "1 if the kernel, firmware, disk or rule changed since the disk's last validation, else 0.",
                "1 if the policy's scheduler lost with significance in the disk's last validation, else 0.",
        };
        struct timespec ts;
        size_t k = 0;

        for (size_t i = 0; i < m->n; i++)
                k += m->disks[i].ev.last != NULL;
        if (!m->evidence || k == 0)
                return;
        (void)clock_gettime(CLOCK_REALTIME, &ts);
        for (size_t j = 0; j < ELEMENTSOF(names); j++) {
                metric(f, names[j], help[j]);
                for (size_t i = 0; i < m->n; i++) {
                        const struct apply_disk *d = &m->disks[i];
                        long long age;

                        if (!d->ev.last)
                                continue;
                        fprintf(f, "%s{device=", names[j]);
                        label(f, d->dev->name);
                        age = (long long)ts.tv_sec - d->ev.last->time;
                        fprintf(f, "} %lld\n", j == 0 ? (age > 0 ? age : 0) :
                                               j == 1 ? d->ev.stale != 0 : d->ev.against_policy);
                }
        }
}

void apply_prom_run(FILE *f, const struct apply_run_opts *o, const struct apply_model *m, int exit)
{
        health(o->out, f, m->policy_errors == 0, m->policy_errors, exit);
        metric(f, "iosched_disks", "Disks checked (removable-media drives not counted).");
        fprintf(f, "iosched_disks %zu\n", m->n - m->ndrives);
        metric(f, "iosched_removable_media_drives",
               "Optical and floppy drives checked: removable-media drives, not disks.");
        fprintf(f, "iosched_removable_media_drives %zu\n", m->ndrives);
        disk_counts(f, o, m);
        metric(f, "iosched_device_info",
               "Class, active I/O scheduler and the scheduler the policy wants (empty: none set) of each disk.");
        for (size_t i = 0; i < m->n; i++) {
                fputs("iosched_device_info{device=", f);
                label(f, m->disks[i].dev->name);
                fputs(",class=", f);
                label(f, ios_class_to_string(m->disks[i].dev->cls));
                fputs(",scheduler=", f);
                label(f, m->disks[i].dev->sched_current ? m->disks[i].dev->sched_current : "");
                fputs(",wanted=", f);
                label(f, wanted_scheduler(&m->disks[i].plan));
                fputs("} 1\n", f);
        }
        validation(f, m);
}
