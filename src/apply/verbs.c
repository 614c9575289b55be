/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * verbs.c: what each of iosched-apply's verbs does, and the table of them:
 * its word, the output formats it has, whether what follows "--" is its
 * own (validate's iosched-bench options) or disks, whether it reads the
 * policy and what it probes.  apply_cli_run() sets up what every verb
 * shares (the root, the policy) and runs one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "iosched.h"
#include "macro.h"
#include "cli.h"
#include "report.h"
#include "strv.h"
#include "nofile.h"

static int err(struct apply_cli *c, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int err(struct apply_cli *c, int code, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        code = apply_verr(c->out, code, NULL, fmt, ap);
        va_end(ap);
        return code;
}

/*
 * The disks named, or every disk when none is.  c->devs gets the ones found,
 * in the order named.  A name that is not a block device, or that cannot be
 * read, is reported on one line and skipped: it does not stop the others.
 * The return value is then the exit code it earns (APPLY_EXIT_ERROR) for the
 * caller to merge into the run's, and *ret_err (if given) the first such
 * -errno.  Only ios_errno_class()'s GONE means "not a block device"; anything else
 * (EAGAIN from a lookup that kept racing renames, EACCES, ENOMEM) is named
 * as what it is.  Nonzero with c->ndevs == 0: nothing to work on.
 */
static int load_devices_err(struct apply_cli *c, char **names, int nnames, int *ret_err)
{
        struct ios_device **l;
        size_t n = 0;
        int e, rc = 0;

        if (ret_err)
                *ret_err = 0;
        if (nnames == 0) {
                e = ios_device_enumerate(c->root, &c->devs, &c->ndevs);
                if (e < 0) {
                        if (ret_err)
                                *ret_err = e;
                        const char *disk = ios_ctx_failed_disk(c->root);

                        return err(c, APPLY_EXIT_ERROR, "cannot enumerate %s/sys/block: %s%s%s",
                                   ios_ctx_prefix(c->root), disk ? disk : "", disk ? ": " : "", ios_strerror(e));
                }
                return 0;
        }
        l = calloc((size_t)nnames, sizeof(*l));
        if (!l) {
                if (ret_err)
                        *ret_err = -ENOMEM;
                return err(c, APPLY_EXIT_ERROR, "out of memory");
        }
        for (int i = 0; i < nnames; i++) {
                e = ios_device_new(c->root, names[i], &l[n]);
                if (e >= 0) {
                        n++;
                        continue;
                }
                if (ret_err && *ret_err == 0)
                        *ret_err = e;
                if (ios_errno_class(e) == IOS_ERRNO_GONE)
                        rc = apply_err(c->out, APPLY_EXIT_ERROR, names[i], "not a block device");
                else
                        rc = apply_err(c->out, APPLY_EXIT_ERROR, names[i], "%s", ios_strerror(e));
        }
        c->devs = l;
        c->ndevs = n;
        return rc;
}

static int load_devices(struct apply_cli *c)
{
        return load_devices_err(c, c->args, c->nargs, NULL);
}

/*
 * Load the policy.  A file that cannot be used gives no rule but holds what
 * it names on its disks (held.c says so, with the disks once they are
 * known: defer); the run's exit status is then at least APPLY_EXIT_ERROR,
 * in c->policy_rc.  Returns non-zero only when there is no policy.
 */
static int load_policy(struct apply_cli *c, bool defer)
{
        struct ios_error pe = {};
        unsigned flags = (c->policy_in_capture ? IOS_POLICY_ANY_OWNER : 0) |
                         (c->no_builtin ? IOS_POLICY_NO_BUILTIN : 0);
        size_t nerr = 0;
        int e;

        c->policy_rc = 0;
        e = ios_policy_load_dropins(c->conf_root, c->config, flags, c->dropins, c->ndropins, &c->policy, &pe);
        if (e < 0 && pe.msg[0])
                return err(c, APPLY_EXIT_ERROR, "%s: %s", pe.file, pe.msg);
        if (e < 0)
                return err(c, APPLY_EXIT_ERROR, "cannot load policy: %s", ios_strerror(e));
        (void)ios_policy_errors(c->policy, &nerr);
        if (!defer)
                apply_policy_errors_report(&c->ro, c->policy, NULL);
        for (char * const *w = ios_policy_warnings(c->policy); !c->ro.quiet && !c->ro.udev && w && *w; w++) {
                _cleanup_free_ char *esc = apply_escape(*w);

                fprintf(stderr, "%s: warning: %s\n", c->out->prog, esc ? esc : *w);
        }
        if (nerr)
                c->policy_rc = APPLY_EXIT_ERROR;
        return 0;
}

static int run_import_grub(struct apply_cli *c)
{
        _cleanup_free_ char *msg = NULL;
        _cleanup_(ios_strv_freep) char **notes = NULL;
        int e;

        /* conflicts and what was not evaluated: one line each, the policy still printed */
        e = apply_import_grub(stdout, c->root, c->conf_root, &msg, &notes);
        for (char **n = notes; n && *n; n++)
                fprintf(stderr, "%s: warning: %s\n", c->out->prog, *n);
        if (e < 0)
                return msg ? err(c, APPLY_EXIT_ERROR, "%s", msg) :
                             err(c, APPLY_EXIT_ERROR, "--import-grub: %s", ios_strerror(e));
        return 0;
}

/* list's rule for every view and run, as lsblk and the udev rule: a disk without a medium (size 0,
 * a loop device without a file) is left out unless -a or named */
static bool hides_empty(const struct apply_cli *c)
{
        return !c->show_all && c->nargs == 0 && !c->udev_dev;
}

static int run_list(struct apply_cli *c)
{
        struct apply_list_opts *lo = &c->lo;
        const char *bad = NULL;
        unsigned probe;
        int e, rc;

        if (apply_list_parse_columns(c->cols, lo->cols, &lo->ncols, &bad) < 0)
                return err(c, APPLY_EXIT_ERROR, "unknown column: %.*s", (int)strcspn(bad, ","), bad);
        lo->hide_empty = hides_empty(c);
        /* the RM and SIZE columns need both; leaving out disks with no medium, the size alone */
        probe = apply_list_needs_extra(lo) ? IOS_PROBE_EXTRA : lo->hide_empty ? IOS_PROBE_SIZE : 0;
        ios_ctx_set_probe(c->root, probe | (apply_list_has_column(lo, "HWQ") ? 0 : IOS_PROBE_NO_HWQ));
        (void)ios_raise_nofile();
        /* as lsblk: a missing name is reported, the others are listed, exit 2 */
        rc = load_devices(c);
        if (rc && c->ndevs == 0)
                return rc;
        for (size_t i = 0; i < c->ndevs; i++)
                if (c->devs[i]->no_dev && !(lo->hide_empty && c->devs[i]->size == 0))
                        fprintf(stderr, "%s: warning: %s: no dev file in sys/block/%s: listed without a "
                                "device number\n", c->out->prog, c->devs[i]->name, c->devs[i]->name);
        e = apply_list_print(c->devs, c->ndevs, lo);
        if (e < 0)
                rc = err(c, APPLY_EXIT_ERROR, "cannot print: %s", ios_strerror(e));
        return rc;
}

/* validate DEVICE [-- options for iosched-bench] */
static int run_validate(struct apply_cli *c)
{
        int rc;

        if (c->nargs != 1)
                return err(c, APPLY_EXIT_ERROR, "validate takes exactly one DEVICE");
        if (c->sysroot)
                return err(c, APPLY_EXIT_ERROR, "validate measures the running system's disk: no --sysroot");
        if (c->policy_rc)
                return err(c, c->policy_rc, "validate: not measuring with a policy that has skipped files");
        rc = load_devices(c);
        if (rc)
                return rc;
        return apply_validate(&(struct apply_validate_opts){
                .out = c->out, .policy = c->policy, .dev = c->devs[0], .config = c->config,
                .conf_root = c->conf_root, .no_builtin = c->no_builtin, .json = c->ro.json,
                .ndropins = c->ndropins, .bench_args = c->bench_args, .nbench_args = c->nbench_args,
                .no_record = c->no_record, .adopt = c->adopt });
}

/*
 * The run model of the disks loaded, rendered by the verb's renderer: base
 * is what happened before (a disk named and missing, a broken policy file
 * that is an error of the verb).  Returns the exit status.
 */
static int render_model(struct apply_cli *c, const struct apply_model_opts *mo)
{
        struct apply_model_opts o = *mo;
        struct apply_model m;
        int e;

        c->ro.ctx = c->root;
        c->ro.conf_root = o.evidence_root = c->conf_root;
        e = apply_model_build(&m, &o, c->policy, c->devs, c->ndevs);
        if (e >= 0)
                e = c->verb->render(
                        &(struct apply_view){ .o = &c->ro, .lo = &c->lo, .columns = c->cols, .m = &m });
        apply_model_done(&m);
        if (e < 0 && !mo->report) {
                /* apply: said as what it is, before a disk was planned */
                fprintf(stderr, "%s: out of memory\n", c->out->prog);
                return c->out->exit_of(APPLY_FAILED);
        }
        if (e < 0)
                return err(c, APPLY_EXIT_ERROR, "%s: %s", c->verb->shown, ios_strerror(e));
        return c->out->exit_of(e);
}

/* explain, status, facts: every disk when none is named; one that is missing does not stop the others */
static int run_report(struct apply_cli *c)
{
        const struct apply_verb *v = c->verb;
        int devices_rc;

        (void)ios_raise_nofile();
        devices_rc = load_devices(c);
        if (devices_rc && c->ndevs == 0)
                return devices_rc;
        c->lo.hide_empty = hides_empty(c);
        c->ro.all_disks = c->nargs == 0;        /* explain: a rule that matches none of them is said */
        return render_model(c, &(struct apply_model_opts){
                .report = true, .hide_empty = c->lo.hide_empty, .evidence = true,
                .base = devices_rc || (c->policy_rc && !v->policy_fact) ? APPLY_FAILED : APPLY_OK });
}

/* report FILE...|-: facts -J documents of many hosts, one table per disk model (report.c) */
static int run_fleet_report(struct apply_cli *c)
{
        return apply_fleet_report(c->out, c->args, c->nargs, c->ro.json);
}

static int run_cat_config(struct apply_cli *c)
{
        int e;

        if (c->nargs != 0)
                return err(c, APPLY_EXIT_ERROR, "cat-config takes no DEVICE");
        e = apply_cat_config(stdout, c->policy);
        return e < 0 ? err(c, APPLY_EXIT_ERROR, "cat-config: %s", ios_strerror(e)) : c->policy_rc;
}

/* --udev DEVNAME: the one disk, unless it is gone or a benchmark holds it; -1: go on */
static int load_udev_disk(struct apply_cli *c)
{
        char *one[] = { (char *)c->udev_dev };
        long bench_pid;
        int e, rc;

        rc = load_devices_err(c, one, 1, &e);
        if (rc) {
                /* only a disk that is gone is "removed"; a transient or
                 * system error is a failure udev's caller must see */
                if (ios_errno_class(e) == IOS_ERRNO_GONE) {
                        apply_log(LOG_WARNING, "%s: not a block device (removed?)", c->udev_dev);
                        return APPLY_EXIT_VANISHED;
                }
                apply_log(LOG_ERR, "%s: policy not applied: cannot read the disk: %s", c->udev_dev,
                          ios_strerror(e));
                return rc;
        }
        /* a benchmark switches this disk and restores it itself; the
         * rule's apply in between would change what it measures */
        e = ios_bench_lock_holder(c->root, c->devs[0]->major, c->devs[0]->minor, &bench_pid);
        if (e == 2) {
                apply_log(LOG_INFO, "%s: left alone: the guard (pid %ld) of a killed iosched-bench is "
                          "putting it back", c->udev_dev, bench_pid);
                return 0;
        }
        if (e > 0) {
                apply_log(LOG_INFO, "%s: left alone: iosched-bench (pid %ld) is comparing schedulers on it",
                          c->udev_dev, bench_pid);
                return 0;
        }
        return -1;
}

/* apply, --dry-run, --check, --udev */
static int run_apply(struct apply_cli *c)
{
        struct apply_run_opts *ro = &c->ro;
        int rc, devices_rc = 0;         /* the worst exit code of disks named but not loaded */

        if (c->udev_dev) {
                rc = load_udev_disk(c);
                if (rc >= 0)
                        return rc;
        } else {
                if (!ro->json && !ro->prometheus)
                        apply_warn_elevator(c->out->prog, c->root, c->conf_root);
                (void)ios_raise_nofile();
                /* a disk named that is missing is reported and does not stop
                 * the others; its exit code is merged in at the end */
                devices_rc = load_devices(c);
                if (devices_rc && c->ndevs == 0)
                        return devices_rc;
        }
        ro->all_disks = !c->udev_dev && c->nargs == 0;
        ro->base = c->policy_rc || devices_rc ? APPLY_FAILED : APPLY_OK;
        /* a skipped policy file or a missing disk named: the others still done, exit 2 */
        /* the evidence is a view's: --check and prometheus show it; apply and --udev never read it */
        return render_model(c, &(struct apply_model_opts){
                .mode = ro->mode, .base = ro->base, .hide_empty = hides_empty(c),
                .evidence = !c->udev_dev && (ro->mode == APPLY_MODE_CHECK || ro->prometheus) });
}

#define F_TEXT (1u << APPLY_FORMAT_TEXT)
#define F_JSON (1u << APPLY_FORMAT_JSON)
#define F_PROM (1u << APPLY_FORMAT_PROMETHEUS)

const struct apply_verb apply_verb_apply = {
        .shown = "apply", .formats = F_TEXT | F_JSON | F_PROM, .policy = true, .held_by_disk = true,
        .run = run_apply, .render = apply_run_render,
};
const struct apply_verb apply_verb_import_grub = {
        .shown = "--import-grub", .json_command = "import-grub", .formats = F_TEXT,
        .run = run_import_grub,
};

/* a verb named by a word after the options: also its name in messages and in the JSON */
#define WORD(w) .name = w, .shown = w, .json_command = w

static const struct apply_verb verbs[] = {
        { WORD("list"), .formats = F_TEXT | F_JSON, .run = run_list },
        { WORD("explain"), .formats = F_TEXT | F_JSON, .policy = true, .probe = PROBE_EXTRA,
          .run = run_report, .render = apply_explain_render },
        { WORD("validate"), .formats = F_TEXT | F_JSON, .bench_args = true, .policy = true,
          .run = run_validate },
        { WORD("status"), .formats = F_TEXT | F_JSON, .policy = true,
          .probe = PROBE_EXTRA_UNLESS_ALL, .run = run_report, .render = apply_status_render },
        { WORD("facts"), .formats = F_TEXT | F_JSON, .policy = true, .policy_fact = true,
          .probe = PROBE_EXTRA, .run = run_report, .render = apply_facts_render },
        { WORD("cat-config"), .formats = F_TEXT, .policy = true, .run = run_cat_config },
        { WORD("report"), .formats = F_TEXT | F_JSON, .run = run_fleet_report },
};

const struct apply_verb *apply_verb_find(const char *word)
{
        for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
                if (streq(word, verbs[i].name))
                        return &verbs[i];
        return NULL;
}

int apply_cli_run(struct apply_cli *c)
{
        const struct apply_verb *v = c->verb;
        bool extra;
        int e, rc;

        e = ios_ctx_new(c->sysroot, &c->root);
        if (e < 0)
                return err(c, APPLY_EXIT_ERROR, "%s: %s", c->sysroot ? c->sysroot : "/", ios_strerror(e));
        /* /etc/default/grub lives with the policy, or in the captured tree */
        if (!c->conf_root && c->sysroot) {
                c->conf_root = c->sysroot;
                c->policy_in_capture = true;
        }
        if (v->policy) {
                if (c->udev_dev) {
                        /* udev: quiet, syslog (the journal; the kernel log in the initramfs), one disk */
                        apply_log_open(c->out->prog);
                        c->ro.udev = c->ro.quiet = true;
                }
                rc = load_policy(c, v->held_by_disk);
                c->out->policy_ok = rc ? 0 : !c->policy_rc;
                if (rc) {
                        if (c->udev_dev)
                                apply_log(LOG_ERR, "%s: policy not applied: cannot load the policy", c->udev_dev);
                        return rc;
                }
                /* what the policy matches on; explain shows every fact */
                extra = v->probe == PROBE_EXTRA || (v->probe == PROBE_EXTRA_UNLESS_ALL && !c->show_all);
                ios_ctx_set_probe(c->root, ios_policy_probe_flags(c->policy) | (extra ? IOS_PROBE_EXTRA : 0) |
                                                   (hides_empty(c) ? IOS_PROBE_SIZE : 0));
        }
        return v->run(c);
}

/* What the run held; a broken policy file is the worst of its exit status. */
void apply_cli_done(struct apply_cli *c, int *rc)
{
        /* explain and validate too: a broken file is worst (facts reports it as a fact) */
        if (c->policy_rc && !c->verb->policy_fact)
                *rc = APPLY_EXIT_ERROR;
        if (c->policy)          /* a run that ended before its disks were planned */
                apply_policy_errors_report(&c->ro, c->policy, NULL);
        ios_device_list_free(c->devs, c->ndevs);
        apply_conflicts_free();
        for (size_t i = 0; i < c->ndropins; i++)
                ios_dropin_done(&c->dropins[i]);
        free(c->dropins);
        ios_policy_free(c->policy);
        ios_ctx_free(c->root);
}
