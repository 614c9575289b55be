/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * evidence-write.c: a validation record, with the disk it measured, added
 * to its model's document, or its disk's where it has no model
 * (ROOT/var/lib/iosched/evidence/NAME.json, schema/iosched-evidence.schema.json);
 * a model's first record takes in its disk's document of earlier versions.
 * The directory is opened from ROOT one component at a time with no symbolic
 * link followed (created 0755 where missing), and must be its owner's only
 * (the caller's: root on a system) and writable by no one else: a record
 * is what `--adopt` and the fleet report trust.  The document is rewritten
 * whole into a temporary file of a random name beside it, created O_EXCL
 * mode 0644, and renamed over it: a reader sees the old or the new one.
 * Only the last `keep` records stay.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "iosched.h"
#include "iosched-evidence.h"
#include "evidence-internal.h"
#include "iosched-internal.h"
#include "macro.h"
#include "strv.h"
#include "readfile.h"

#define DOC_MAX (4u << 20)

static void num(FILE *f, const char *key, double x)
{
        if (isnan(x) || isinf(x))
                fprintf(f, ", \"%s\": null", key);
        else
                fprintf(f, ", \"%s\": %.6g", key, x);
}

static void str(FILE *f, const char *sep, const char *key, const char *s)
{
        fprintf(f, "%s\"%s\": ", sep, key);
        ios_json_string(f, s);
}

static void tunables(FILE *f, char * const *t)
{
        fputs(", \"tunables\": {", f);
        for (size_t i = 0; t && t[i]; i++) {
                const char *eq = strchr(t[i], '=');
                _cleanup_free_ char *k = strndup(t[i], eq ? (size_t)(eq - t[i]) : strlen(t[i]));

                fputs(i ? ", " : "", f);
                ios_json_string(f, k ? k : "");
                fputs(": ", f);
                ios_json_string(f, eq ? eq + 1 : "");
        }
        fputc('}', f);
}

static void variant(FILE *f, const struct ios_evidence_variant *v, const char *ind)
{
        str(f, ind, "name", v->name);
        str(f, ", ", "scheduler", v->scheduler);
        tunables(f, v->tunables);
        fprintf(f, ", \"runs\": %u", v->runs);
        num(f, "median", v->median);
        num(f, "min", v->min);
        num(f, "max", v->max);
        num(f, "spread_pct", v->spread_pct);
        fputs(",\n", f);
        fprintf(f, "%s\"vs_best\": ", ind);
        if (!v->has_vs) {
                fputs("null", f);
                return;
        }
        fprintf(f, "{\"significant\": %s", v->vs_significant ? "true" : "false");
        num(f, "margin_pct", v->vs_margin_pct);
        num(f, "p_value", v->vs_p_value);
        str(f, ", ", "label", v->vs_label);
        fputc('}', f);
}

void ios_evidence_json(FILE *f, const struct ios_evidence *ev, const char *ind)
{
        char date[32] = "";
        time_t t = (time_t)ev->time;
        struct tm tm;

        if (gmtime_r(&t, &tm))
                strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
        fprintf(f, "{\"date\": \"%s\", \"time\": %lld", date, ev->time);
        str(f, ", ", "tool", ev->tool);
        str(f, ", ", "version", ev->version);
        str(f, ", ", "kernel", ev->kernel);
        str(f, ", ", "device", ev->device);
        fprintf(f, ",\n%s\"disk\": {", ind);
        str(f, "", "firmware", ev->firmware);
        str(f, ", ", "wwn", ev->wwn);
        str(f, ", ", "serial", ev->serial);
        fprintf(f, "},\n%s", ind);
        str(f, "", "rule", ev->rule);
        str(f, ", ", "policy_scheduler", ev->policy_scheduler);
        fprintf(f, ",\n%s\"workload\": {", ind);
        str(f, "", "backend", ev->backend);
        str(f, ", ", "job_digest", ev->job_digest);
        str(f, ", ", "job_text", ev->job_text);
        fprintf(f, "},\n%s", ind);
        str(f, "", "objective", ev->objective);
        fprintf(f, ", \"lower_is_better\": %s, \"rounds\": %u,\n%s\"variants\": [",
                ev->lower_is_better ? "true" : "false", ev->rounds, ind);
        for (size_t i = 0; i < ev->nv; i++) {
                _cleanup_free_ char *in = NULL;

                fprintf(f, "%s\n%s  {", i ? "," : "", ind);
                if (asprintf(&in, "%s   ", ind) < 0)
                        in = NULL;
                variant(f, &ev->v[i], in ? in : "");
                fputc('}', f);
        }
        fprintf(f, "],\n%s", ind);
        str(f, "", "best", ev->best);
        str(f, ", ", "runner_up", ev->runner_up);
        fprintf(f, ",\n%s", ind);
        str(f, "", "verdict", ios_evidence_verdict_name(ev->verdict));
        str(f, ", ", "against", ev->against);
        str(f, ", ", "label", ev->label);
        num(f, "effect_pct", ev->effect_pct);
        num(f, "p_value", ev->p_value);
        fprintf(f, ", \"significant\": %s, \"against_policy\": %s}", ev->significant ? "true" : "false",
                ios_evidence_against_policy(ev) ? "true" : "false");
}

/* A model's document names no disk in its identity (each record its own); a disk's document names it. */
static void doc_json(FILE *f, const struct ios_evidence_id *id, const struct ios_evidence *r, size_t n,
                     const struct ios_evidence *last)
{
        bool model = ios_evidence_id_per_model(id);

        fprintf(f, "{\"schema\": %d, \"kind\": \"iosched-evidence\",\n \"identity\": {", IOS_EVIDENCE_SCHEMA);
        str(f, "", "vendor", id->vendor);
        str(f, ", ", "model", id->model);
        str(f, ", ", "firmware", model ? NULL : id->firmware);
        str(f, ", ", "wwn", model ? NULL : id->wwn);
        str(f, ", ", "serial", model ? NULL : id->serial);
        str(f, ", ", "class", id->cls);
        fputs("},\n \"records\": [", f);
        for (size_t i = 0; i <= n; i++) {
                const struct ios_evidence *ev = i < n ? &r[i] : last;

                fprintf(f, "%s\n  ", i ? "," : "");
                ios_evidence_json(f, ev, "   ");
        }
        fputs("\n ]}\n", f);
}

/* ROOT/var/lib/iosched/evidence, opened (made where missing), no link followed; owned by the caller */
static int open_dir(const char *root)
{
        _cleanup_free_ char *rel = strdup(IOS_EVIDENCE_DIR + 1);
        struct stat st;
        int cur;

        if (!rel)
                return -ENOMEM;
        cur = open(root && *root ? root : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (cur < 0)
                return -errno;
        for (char *p = rel, *next; *p; p = next) {
                int fd;

                next = p + strcspn(p, "/");
                if (*next)
                        *next++ = '\0';
                fd = openat(cur, p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (fd < 0 && errno == ENOENT && (mkdirat(cur, p, 0755) == 0 || errno == EEXIST))
                        fd = openat(cur, p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (fd < 0) {
                        int e = errno == ENOTDIR ? -ELOOP : -errno;     /* O_NOFOLLOW on a link: ENOTDIR */

                        close(cur);
                        return e;
                }
                close(cur);
                cur = fd;
        }
        if (fstat(cur, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
                close(cur);
                return -EPERM;
        }
        return cur;
}

/* The document now in dirfd (an empty one when there is none). */
static int read_doc(int dirfd, const char *name, struct ios_evidence_doc *doc)
{
        _cleanup_close_ int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        _cleanup_free_ char *text = NULL;
        struct stat st;
        size_t len = 0;
        int e;

        *doc = (struct ios_evidence_doc){};
        if (fd < 0)
                return errno == ENOENT ? 0 : errno == ELOOP ? -EBADMSG : -errno;
        if (fstat(fd, &st) < 0)
                return -errno;
        if (!S_ISREG(st.st_mode))
                return -EBADMSG;
        e = ios_read_fd_max(fd, DOC_MAX, &text, &len);
        if (e < 0)
                return e == -EFBIG ? -EBADMSG : e;
        return ios_evidence_parse(text, len, doc);
}

static int write_tmp(int dirfd, const char *name, char **ret_tmp, FILE **ret_f)
{
        static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        int fd = -1;

        for (int tries = 0; fd < 0 && tries < 100; tries++) {
                unsigned char rnd[6];
                char sfx[7];

                if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
                        return -errno;
                for (size_t i = 0; i < sizeof(rnd); i++)
                        sfx[i] = chars[rnd[i] % (sizeof(chars) - 1)];
                sfx[6] = '\0';
                free(*ret_tmp);
                if (asprintf(ret_tmp, ".%s.%s", name, sfx) < 0) {
                        *ret_tmp = NULL;
                        return -ENOMEM;
                }
                fd = openat(dirfd, *ret_tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
                if (fd < 0 && errno != EEXIST)
                        return -errno;
        }
        if (fd < 0)
                return -EEXIST;
        if (fchmod(fd, 0644) < 0 || !(*ret_f = fdopen(fd, "w"))) {
                int e = -errno;

                close(fd);
                (void)unlinkat(dirfd, *ret_tmp, 0);
                return e;
        }
        return 0;
}

const char *ios_evidence_record_strerror(int e)
{
        switch (e) {
        case -ENODATA:
                return "the disk has no model, WWN or serial to key it by, so that no other disk's record "
                       "counts as its own";
        case -EPERM: return "its directory is not root's alone (owner, mode)";
        case -ELOOP: return "a symbolic link on the way to it";
        case -EBADMSG: return "the file there is not an evidence document (left as it is)";
        default: return ios_strerror(-e);
        }
}

int ios_evidence_record(const char *root, const struct ios_evidence_id *id, const struct ios_evidence *ev,
                        unsigned keep, char **ret_path)
{
        _cleanup_free_ char *name = ios_evidence_file_name(id), *own = NULL, *tmp = NULL;
        _cleanup_close_ int dirfd = -1;
        struct ios_evidence_doc old = {};
        struct ios_evidence cur = *ev;  /* ev, measured on id's disk (shallow: nothing freed) */
        FILE *f = NULL;
        size_t from;
        int e;

        if (ret_path)
                *ret_path = NULL;
        if (!ios_evidence_id_keyed(id))
                return -ENODATA;
        if (!name)
                return -ENOMEM;
        if (ret_path && asprintf(ret_path, "%s%s/%s", root && strcmp(root, "/") ? root : "", IOS_EVIDENCE_DIR,
                                 name) < 0)
                *ret_path = NULL;
        cur.firmware = id->firmware;
        cur.wwn = id->wwn;
        cur.serial = id->serial;
        dirfd = open_dir(root);
        if (dirfd < 0)
                return dirfd;
        e = read_doc(dirfd, name, &old);
        /* the model's first record: this disk's document of earlier versions goes into it, then away */
        if (e == 0 && old.n == 0 && ios_evidence_id_per_model(id)) {
                ios_evidence_doc_done(&old);
                own = ios_evidence_file_name_per_disk(id);
                e = own ? read_doc(dirfd, own, &old) : -ENOMEM;
                if (e == -EBADMSG)
                        e = 0;  /* not a document: left as it is, the model's starts empty */
                if (old.n == 0) {
                        free(own);
                        own = NULL;
                }
        }
        if (e < 0)
                return e;
        keep = keep ? keep : IOS_EVIDENCE_KEEP;
        from = old.n >= keep ? old.n - (keep - 1) : 0;
        e = write_tmp(dirfd, name, &tmp, &f);
        if (e == 0) {
                doc_json(f, id, old.r + from, old.n - from, &cur);
                errno = 0;
                if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) < 0)
                        e = errno ? -errno : -EIO;
                if (fclose(f) != 0 && e == 0)
                        e = -errno;
                if (e == 0 && renameat(dirfd, tmp, dirfd, name) < 0)
                        e = -errno;
                if (e < 0)
                        (void)unlinkat(dirfd, tmp, 0);
                else {
                        if (own)
                                (void)unlinkat(dirfd, own, 0);
                        (void)fsync(dirfd);
                }
        }
        ios_evidence_doc_done(&old);
        return e;
}
