/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * facts.c: `iosched-apply facts -J`, what a fleet inventory wants of a host
 * (the JSON contract, schema 1): the kernel, whether the policy loaded,
 * and per disk its class and evidence, identity, controller (driver, PCI
 * slot, id and subsystem id), scheduler, compliance and validation
 * evidence (evidence-view.c, what `iosched-apply report` reads): a renderer
 * of the run model (model.c).  Read only.  The per-disk facts are shared with
 * `explain -J`.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"
#include "strv.h"

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

static char *kernel_release(struct ios_ctx *r)
{
        char *s = NULL;

        if (ios_ctx_read_file(r, "/proc/sys/kernel/osrelease", &s, NULL) < 0)
                return NULL;
        s[strcspn(s, "\n")] = '\0';
        return s;
}

static void json_disks(FILE *f, const struct apply_run_opts *o, const struct apply_model *m)
{
        /* optical and floppy drives are listed apart: removable-media drives, not disks */
        for (int drives = 0; drives <= 1; drives++) {
                size_t k = 0;

                fputs(drives ? ",\n \"removable_media_drives\": [" : ",\n \"disks\": [", f);
                for (size_t i = 0; i < m->n; i++) {
                        const struct apply_disk *d = &m->disks[i];

                        if (ios_class_is_media_drive(d->dev->cls) != (drives == 1))
                                continue;
                        fprintf(f, "%s\n    {", k++ ? "," : "");
                        apply_json_disk_facts(f, d->dev);
                        fputs(",\n     \"wanted_scheduler\": ", f);
                        ios_json_string(f, d->wanted);
                        fprintf(f, ", \"compliant\": %s, \"drift\": %zu", d->compliant ? "true" : "false",
                                d->drift);
                        apply_conflicts_json(f, o, &d->plan);
                        apply_evidence_json(f, d);
                        fputc('}', f);
                }
                fprintf(f, "%s]", k ? "\n  " : "");
        }
}

/* The facts object, also without -J: a disk that could not be read is in "errors", not said on stderr. */
int apply_facts_render(const struct apply_view *v)
{
        const struct apply_run_opts *o = v->o;
        const struct apply_model *m = v->m;
        _cleanup_free_ char *kernel = kernel_release(o->ctx);
        FILE *f = stdout;

        apply_model_disk_errors(o->out, m, false);
        apply_json_header(o->out, f, "facts");
        fputs(", \"kernel\": ", f);
        ios_json_string(f, kernel);
        fprintf(f, ", \"policy_ok\": %s, \"policy_errors\": ", m->policy_errors ? "false" : "true");
        apply_json_policy_errors(f, m->policy);
        fprintf(f, ",\n \"compliant\": %s, \"drift\": %zu, \"exit\": %d, \"errors\": ",
                m->compliant ? "true" : "false", m->drift, o->out->exit_of(m->outcome));
        apply_errors_json(o->out, f);
        json_disks(f, o, m);
        fputs("}\n", f);
        return m->outcome;
}
