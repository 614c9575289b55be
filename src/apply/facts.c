/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * facts.c: `iosched-apply facts -J`, what a fleet inventory wants of a host
 * (the JSON contract, schema 1): the kernel, whether the policy loaded,
 * and per disk its class and evidence, identity, controller (driver, PCI
 * slot, id and subsystem id), scheduler and compliance.  Read only.  The
 * per-disk facts are shared with `explain -J`.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"

static void json_bool_or_null(FILE *f, int v)
{
        fputs(v < 0 ? "null" : v ? "true" : "false", f);
}

/* "0x1028" -> "1028" */
static const char *hex_id(const char *s)
{
        return s && startswith(s, "0x") ? s + 2 : s;
}

/* The controller's PCI function: driver, slot, vendor:device and subsystem ids. */
static void json_controller(FILE *f, const struct ios_device *d)
{
        _cleanup_free_ char *sv = NULL, *sd = NULL, *drv = NULL;
        _cleanup_close_ int fd = -1;
        const char *slot;

        if (!d->ctrl_path) {
                fputs("null", f);
                return;
        }
        fd = ios_ctx_open(d->ctx, d->ctrl_path, O_PATH | O_DIRECTORY);
        if (fd >= 0) {
                (void)ios_sysfs_read_string(fd, "subsystem_vendor", &sv);
                (void)ios_sysfs_read_string(fd, "subsystem_device", &sd);
                (void)ios_sysfs_read_link_base(fd, "driver", &drv);
        }
        slot = strrchr(d->ctrl_path, '/');
        slot = slot ? slot + 1 : d->ctrl_path;
        fputs("{\"driver\": ", f);
        /* the PCI function's driver; the SCSI host's name when sysfs has no link */
        ios_json_string(f, drv ? drv : d->driver);
        fputs(", \"pci_slot\": ", f);
        ios_json_string(f, slot);
        fputs(", \"pci_id\": ", f);
        ios_json_string(f, d->pci_id);
        fputs(", \"pci_subsystem\": ", f);
        if (sv && sd)
                fprintf(f, "\"%s:%s\"", hex_id(sv), hex_id(sd));
        else
                fputs("null", f);
        fputc('}', f);
}

void apply_json_disk_facts(FILE *f, const struct ios_device *d)
{
        fputs("\"name\": ", f);
        ios_json_string(f, d->name);
        fprintf(f, ", \"maj_min\": \"%u:%u\", \"class\": ", d->major, d->minor);
        ios_json_string(f, ios_class_to_string(d->cls));
        fputs(",\n     \"evidence\": ", f);
        apply_json_strv(f, d->evidence);
        fputs(",\n     \"rotational\": ", f);
        json_bool_or_null(f, d->rotational);
        fprintf(f, ", \"size_bytes\": %llu, \"removable\": ", (unsigned long long)d->size);
        json_bool_or_null(f, d->removable);
        fputs(", \"model\": ", f);
        ios_json_string(f, d->model);
        fputs(", \"vendor\": ", f);
        ios_json_string(f, d->vendor);
        fputs(", \"tran\": ", f);
        ios_json_string(f, d->tran);
        fputs(",\n     \"controller\": ", f);
        json_controller(f, d);
        fputs(",\n     \"scheduler\": ", f);
        ios_json_string(f, d->sched_current);
        fputs(", \"available\": ", f);
        apply_json_strv(f, d->sched_current ? d->sched_avail : NULL);
}

/* The scheduler the plan chose for the disk, or NULL when the policy sets none. */
const char *apply_plan_wanted_scheduler(const struct ios_plan *pl)
{
        for (size_t i = 0; i < pl->n; i++)
                if (streq(pl->c[i].key, "scheduler") && pl->c[i].state != IOS_CHANGE_SKIPPED)
                        return pl->c[i].wanted;
        return NULL;
}

char *apply_kernel_release(struct ios_ctx *r)
{
        char *s = NULL;

        if (ios_ctx_read_file(r, "/proc/sys/kernel/osrelease", &s, NULL) < 0)
                return NULL;
        s[strcspn(s, "\n")] = '\0';
        return s;
}

void apply_json_policy_errors(FILE *f, const struct ios_policy *p)
{
        size_t nerr = 0;
        const struct ios_error *pe = ios_policy_errors(p, &nerr);

        fputc('[', f);
        for (size_t i = 0; i < nerr; i++) {
                fprintf(f, "%s{\"file\": ", i ? ", " : "");
                ios_json_string(f, pe[i].file);
                fprintf(f, ", \"line\": %u, \"message\": ", pe[i].line);
                ios_json_string(f, pe[i].msg);
                fputc('}', f);
        }
        fputc(']', f);
}

int apply_facts(FILE *f, const struct apply_run_opts *o, const struct ios_policy *p, struct ios_device **devs,
                size_t n, int exit)
{
        _cleanup_free_ char *kernel = apply_kernel_release(o->ctx);
        struct ios_plan *pls = calloc(n ? n : 1, sizeof(*pls));
        size_t nerr = 0, drift = 0;
        bool compliant;

        if (!pls)
                return -ENOMEM;
        (void)ios_policy_errors(p, &nerr);
        compliant = nerr == 0;
        for (size_t i = 0; i < n; i++) {
                int e = ios_plan_build(p, devs[i], &pls[i]);

                pls[i].dev = devs[i];
                if (e < 0) {
                        pls[i].error = e;
                        exit = exit ? exit : 2;
                        apply_error_add(o->out, NULL, 0, devs[i]->name, 2, "cannot read current settings: %s", strerror(-e));
                }
                drift += ios_plan_count(&pls[i], IOS_CHANGE_DRIFT);
                compliant = compliant && apply_plan_compliant(&pls[i]);
        }
        apply_json_header(o->out, f, "facts");
        fputs(", \"kernel\": ", f);
        ios_json_string(f, kernel);
        fprintf(f, ", \"policy_ok\": %s, \"policy_errors\": ", nerr ? "false" : "true");
        apply_json_policy_errors(f, p);
        fprintf(f, ",\n \"compliant\": %s, \"drift\": %zu, \"exit\": %d, \"errors\": ", compliant ? "true" : "false",
                drift, exit);
        apply_errors_json(o->out, f);
        /* optical and floppy drives are listed apart: removable-media drives, not disks */
        for (int drives = 0; drives <= 1; drives++) {
                size_t k = 0;

                fputs(drives ? ",\n \"removable_media_drives\": [" : ",\n \"disks\": [", f);
                for (size_t i = 0; i < n; i++) {
                        if (ios_class_is_media_drive(devs[i]->cls) != (drives == 1))
                                continue;
                        fprintf(f, "%s\n    {", k++ ? "," : "");
                        apply_json_disk_facts(f, devs[i]);
                        fputs(",\n     \"wanted_scheduler\": ", f);
                        ios_json_string(f, apply_plan_wanted_scheduler(&pls[i]));
                        fprintf(f, ", \"compliant\": %s, \"drift\": %zu", apply_plan_compliant(&pls[i]) ? "true" : "false",
                                ios_plan_count(&pls[i], IOS_CHANGE_DRIFT));
                        apply_conflicts_json(f, o, &pls[i]);
                        fputc('}', f);
                }
                fprintf(f, "%s]", k ? "\n  " : "");
        }
        fputs("}\n", f);
        for (size_t i = 0; i < n; i++)
                ios_plan_done(&pls[i]);
        free(pls);
        return exit;
}
