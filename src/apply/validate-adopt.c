/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * validate-adopt.c: `validate --adopt`: when another scheduler beat the
 * policy's with significance, a drop-in for the disk's model
 * (/etc/iosched.d/70-adopted-VENDOR-MODEL.conf under --config-root):
 * [Match] on its vendor and model (its class when it reports neither), the
 * winner and its tunables in [Set], and a comment naming the evidence.  It
 * is refused, and why said, for any other verdict, without a record to
 * name, or with --config (which reads no drop-in).  Before it is written
 * the drop-in goes through the policy parser as every file does
 * (ios_policy_parse), and the whole policy with it must choose the winner
 * for this disk (a later file could still override it); the diff against
 * the file it replaces is shown first.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "iosched.h"
#include "iosched-evidence.h"
#include "macro.h"
#include "cli.h"
#include "validate.h"
#include "readfile.h"

#define DROPIN_DIR "/etc/iosched.d"

static int refuse(struct validate *s, const char *why)
{
        fprintf(stderr, "%s: %s: --adopt: not adopting: %s\n", s->o->out->prog, s->dev, why);
        return 0;
}

/* a [Match] value: one quoted alternative, glob characters and quotes as one-character classes or '?' */
static void match_value(FILE *f, const char *key, const char *v)
{
        fprintf(f, "%s=\"", key);
        for (const char *p = v; *p; p++) {
                if (strchr("*?[", *p))
                        fprintf(f, "[%c]", *p);
                else if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20)
                        fputc('?', f);
                else
                        fputc(*p, f);
        }
        fputs("\"\n", f);
}

static char *dropin_text(struct validate *s, const struct ios_evidence_variant *win, const char *sched)
{
        const struct ios_device *d = s->o->dev;
        const struct ios_evidence *ev = &s->ev;
        char *text = NULL, date[32] = "";
        size_t len = 0;
        time_t t = (time_t)ev->time;
        struct tm tm;
        FILE *f = open_memstream(&text, &len);

        if (!f)
                return NULL;
        if (gmtime_r(&t, &tm))
                strftime(date, sizeof(date), "%Y-%m-%d", &tm);
        fprintf(f, "# Adopted by iosched-apply validate --adopt, %s, on %s (kernel %s):\n", date, s->dev,
                ev->kernel ? ev->kernel : "unknown");
        fprintf(f, "# %s beat the policy's %s (%s): %s, p=%.2g, %u rounds.\n", sched, s->want,
                s->rule ? s->rule : "no rule", ev->label ? ev->label : "", ev->p_value, ev->rounds);
        fprintf(f, "# Evidence: %s\n", s->record);
        fputs("[Match]\n", f);
        if (d->vendor && *d->vendor)
                match_value(f, "Vendor", d->vendor);
        if (d->model && *d->model)
                match_value(f, "Model", d->model);
        if (!(d->model && *d->model) && !(d->vendor && *d->vendor)) {
                fputs("# the disk reports no vendor or model: its class\n", f);
                fprintf(f, "Class=%s\n", ios_class_to_string(d->cls));
        }
        fprintf(f, "[Set]\nScheduler=%s\n", sched);
        for (char **k = win->tunables; k && *k; k++)
                fprintf(f, "%s\n", *k);
        if (fclose(f) != 0) {
                free(text);
                return NULL;
        }
        return text;
}

/* The drop-in read as every policy file is, then the whole policy with it: its scheduler for this disk. */
static int check(struct validate *s, const char *name, const char *text, const char *sched, char **ret_msg)
{
        const struct apply_validate_opts *o = s->o;
        struct ios_policy *p = NULL;
        struct ios_error pe = {};
        struct ios_wanted w = {};
        char tmp[] = "/tmp/iosched-adopt-XXXXXX";
        const char *got;
        struct ios_dropin ov;
        int fd, e;

        e = ios_policy_new_builtin(&p);
        if (e >= 0)
                e = ios_policy_parse(p, name, text, &pe);
        ios_policy_free(p);
        p = NULL;
        if (e < 0)
                return asprintf(ret_msg, "the drop-in does not pass the policy parser: line %u: %s", pe.line,
                                pe.msg) < 0 ? -ENOMEM : -EINVAL;
        fd = mkstemp(tmp);
        if (fd < 0)
                return -errno;
        e = write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -EIO;
        close(fd);
        ov = (struct ios_dropin){ .name = (char *)name, .file = tmp };
        if (e == 0)
                e = ios_policy_load_dropins(o->conf_root, NULL, o->no_builtin ? IOS_POLICY_NO_BUILTIN : 0,
                                            &ov, 1, &p, &pe);
        unlink(tmp);
        if (e == 0 && pe.file[0] == '\0')
                e = ios_policy_resolve(p, o->dev, &w);
        else if (e == 0)
                e = asprintf(ret_msg, "the policy with it does not load: %s:%u: %s", pe.file, pe.line,
                             pe.msg) < 0 ?
                            -ENOMEM :
                            -EINVAL;
        got = e == 0 ? ios_wanted_value(&w, "scheduler") : NULL;
        if (e == 0 &&
            (!got || strncmp(got, sched, strlen(sched)) || (got[strlen(sched)] && got[strlen(sched)] != ' ')))
                e = asprintf(ret_msg, "with it the policy still chooses %s for %s (%s): a later rule wins",
                             got ? got : "no scheduler", s->dev,
                             ios_wanted_get(&w, "scheduler") ? ios_wanted_get(&w, "scheduler")->source :
                                                               "-") < 0 ?
                            -ENOMEM :
                            -EINVAL;
        ios_wanted_done(&w);
        ios_policy_free(p);
        return e;
}

/* The old file's lines with "-", the new one's with "+". */
static void show_diff(FILE *f, const char *path, const char *old, const char *text)
{
        fprintf(f, "--- %s\n+++ %s\n", old ? path : "/dev/null", path);
        for (const char *p = old; p && *p;) {
                size_t n = strcspn(p, "\n");

                fprintf(f, "-%.*s\n", (int)n, p);
                p += n + (p[n] == '\n');
        }
        for (const char *p = text; *p;) {
                size_t n = strcspn(p, "\n");

                fprintf(f, "+%.*s\n", (int)n, p);
                p += n + (p[n] == '\n');
        }
}

/* text as dir/name: a temporary file renamed over it, 0644; the directory made 0755 if missing. */
static int write_dropin(const char *dir, const char *name, const char *text)
{
        _cleanup_free_ char *tmp = NULL;
        _cleanup_close_ int dfd = -1;
        int fd, e = 0;

        if (mkdir(dir, 0755) < 0 && errno != EEXIST)
                return -errno;
        dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dfd < 0)
                return -errno;
        if (asprintf(&tmp, ".%s.%ld", name, (long)getpid()) < 0)
                return -ENOMEM;
        fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0)
                return -errno;
        if (fchmod(fd, 0644) < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) || fsync(fd) < 0)
                e = errno ? -errno : -EIO;
        close(fd);
        if (e == 0 && renameat(dfd, tmp, dfd, name) < 0)
                e = -errno;
        if (e < 0)
                (void)unlinkat(dfd, tmp, 0);
        return e;
}

static const struct ios_evidence_variant *winner(const struct validate *s)
{
        for (size_t i = 0; i < s->ev.nv; i++)
                if (s->ev.v[i].name && s->ev.against && streq(s->ev.v[i].name, s->ev.against))
                        return &s->ev.v[i];
        return NULL;
}

int apply_validate_adopt(struct validate *s)
{
        const struct apply_validate_opts *o = s->o;
        const struct ios_evidence_variant *win = winner(s);
        _cleanup_free_ char *stem = NULL, *name = NULL, *dir = NULL, *path = NULL, *text = NULL, *old = NULL,
                            *msg = NULL;
        const char *sched;
        int e;

        if (!s->want)
                return refuse(s, "the policy sets no scheduler here: there is nothing to replace");
        if (s->ev.verdict == IOS_EVIDENCE_BEST)
                return refuse(s, "the policy's scheduler is the best");
        if (s->ev.verdict == IOS_EVIDENCE_WITHIN_NOISE)
                return refuse(s, "no significant difference (within the noise): the policy stands");
        if (o->config)
                return refuse(s, "--config reads no drop-in: adopt with the system policy or --config-root");
        if (!s->record)
                return refuse(
                        s,
                        "the verdict is not recorded (--no-record, or it could not be): a drop-in names its "
                        "evidence");
        if (!win || !s->have_ev)
                return refuse(s, "the winner is not among the variants the bench reported");
        sched = win->scheduler ? win->scheduler : win->name;
        /* the model's document name, VENDOR_MODEL (VENDOR_unknown without a model, CLASS with neither) */
        stem = ios_evidence_file_name(&(struct ios_evidence_id){
                .vendor = s->id.vendor || s->id.model ? s->id.vendor : s->id.cls,
                .model = s->id.model && *s->id.model ? s->id.model : "unknown" });
        if (stem && strrchr(stem, '.'))
                *strrchr(stem, '.') = '\0';    /* ".json" */
        if (stem && !(s->id.vendor || s->id.model) && strrchr(stem, '_'))
                *strrchr(stem, '_') = '\0';    /* CLASS_unknown */
        if (!stem || asprintf(&name, "70-adopted-%s.conf", stem) < 0 ||
            asprintf(&dir, "%s%s", o->conf_root && strcmp(o->conf_root, "/") ? o->conf_root : "",
                     DROPIN_DIR) < 0 ||
            asprintf(&path, "%s/%s", dir, name) < 0 || !(text = dropin_text(s, win, sched)))
                return apply_err(o->out, APPLY_EXIT_ERROR, s->dev, "--adopt: out of memory");
        e = check(s, name, text, sched, &msg);
        if (e < 0)
                return apply_err(o->out, APPLY_EXIT_ERROR, s->dev, "--adopt: %s: not written: %s", path,
                                 msg ? msg : ios_strerror(-e));
        (void)ios_read_regular_file(path, IOS_POLICY_FILE_MAX, &old, NULL);
        show_diff(o->json ? stderr : stdout, path, old, text);
        e = write_dropin(dir, name, text);
        if (e < 0)
                return apply_err(o->out, APPLY_EXIT_ERROR, s->dev, "--adopt: cannot write %s: %s", path,
                                 ios_strerror(-e));
        fprintf(stderr, "%s: %s: adopted: %s (iosched-apply applies it to every disk of this model)\n",
                o->out->prog, s->dev, path);
        s->adopted = path;
        path = NULL;
        return 0;
}
