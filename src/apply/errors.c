/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * errors.c: the output context of one iosched-apply run and the JSON
 * contract (schema 1): every error printed on stderr is also recorded here
 * with its file, line, device and exit code, and whether the command printed
 * its JSON object (or its Prometheus health) is known here, so that
 * apply_out_finish() prints one in its place when it did not: -J always
 * prints one JSON object on stdout, also when nothing else could be printed.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"
#include "grow.h"
#include "strv.h"

const char * const apply_mode_names[] = { "apply", "dry-run", "check" };

struct apply_error {
        char *file, *device, *message;
        unsigned line;
        int exit;
};

void apply_error_add(struct apply_out *out, const char *file, unsigned line, const char *device, int exit,
                     const char *fmt, ...)
{
        struct apply_error *n, *e;
        va_list ap;
        int r;

        n = ios_grow(out->errs, &out->caperrs, out->nerrs + 1, sizeof(*n));
        if (!n)
                return;         /* the line went to stderr; the JSON loses it only when out of memory */
        out->errs = n;
        e = &out->errs[out->nerrs];
        *e = (struct apply_error){ .line = line, .exit = exit };
        va_start(ap, fmt);
        r = vasprintf(&e->message, fmt, ap);
        va_end(ap);
        if (r < 0)
                return;
        e->file = file ? strdup(file) : NULL;
        e->device = device ? strdup(device) : NULL;
        out->nerrs++;
}

size_t apply_errors_count(const struct apply_out *out)
{
        return out->nerrs;
}

void apply_errors_json(const struct apply_out *out, FILE *f)
{
        const struct apply_error *errs = out->errs;
        size_t nerrs = out->nerrs;

        fputc('[', f);
        for (size_t i = 0; i < nerrs; i++) {
                fprintf(f, "%s\n    {\"file\": ", i ? "," : "");
                ios_json_string(f, errs[i].file);
                if (errs[i].line)
                        fprintf(f, ", \"line\": %u", errs[i].line);
                else
                        fputs(", \"line\": null", f);
                fputs(", \"device\": ", f);
                ios_json_string(f, errs[i].device);
                fputs(", \"message\": ", f);
                ios_json_string(f, errs[i].message);
                fprintf(f, ", \"exit\": %d}", errs[i].exit);
        }
        fputs(nerrs ? "\n  ]" : "]", f);
}

void apply_out_done(struct apply_out *out)
{
        for (size_t i = 0; i < out->nerrs; i++) {
                free(out->errs[i].file);
                free(out->errs[i].device);
                free(out->errs[i].message);
        }
        free(out->errs);
        out->errs = NULL;
        out->nerrs = 0;
}

void apply_json_header(struct apply_out *out, FILE *f, const char *command)
{
        out->json_printed = true;
        fprintf(f, "{\"schema\": %d, \"tool\": \"iosched-apply\", \"version\": ", APPLY_JSON_SCHEMA);
        ios_json_string(f, IOS_VERSION);
        if (command) {
                fputs(", \"command\": ", f);
                ios_json_string(f, command);
        }
}

void apply_json_mark_printed(struct apply_out *out)
{
        out->json_printed = true;
}

/* The object of a run that could not print its own. */
static void json_error_object(struct apply_out *out, FILE *f, const char *command, const char *mode, int exit)
{
        apply_json_header(out, f, command);
        if (mode) {
                fputs(", \"mode\": ", f);
                ios_json_string(f, mode);
                fputs(", \"changed\": false", f);
        }
        fprintf(f, ", \"compliant\": false, \"exit\": %d,\n \"errors\": ", exit);
        apply_errors_json(out, f);
        if (mode)
                fputs(",\n \"policy_errors\": [], \"warnings\": [], \"devices\": []", f);
        fputs("}\n", f);
}

void apply_json_strv(FILE *f, char * const *l)
{
        fputc('[', f);
        for (char * const *p = l; p && *p; p++) {
                fputs(p == l ? "" : ", ", f);
                ios_json_string(f, *p);
        }
        fputc(']', f);
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

/*
 * Whether -J (or --format json) is on the command line, looked at before
 * the options are parsed so that a usage error is JSON too.  Short option
 * clusters count ("-nJ"), up to a letter that takes an argument.
 */
static bool json_requested(int argc, char **argv)
{
        for (int i = 1; i < argc; i++) {
                const char *a = argv[i];

                if (streq(a, "--"))
                        break;
                if (streq(a, "--json") || streq(a, "--format=json") ||
                    (streq(a, "--format") && i + 1 < argc && streq(argv[i + 1], "json")))
                        return true;
                if (a[0] == '-' && a[1] != '-')
                        for (const char *c = a + 1; *c && !strchr("oc", *c); c++)
                                if (*c == 'J')
                                        return true;
        }
        return false;
}

/* Whether --format prometheus is on the command line (the textfile of a run that ends early). */
static bool prom_requested(int argc, char **argv)
{
        for (int i = 1; i < argc && !streq(argv[i], "--"); i++)
                if (streq(argv[i], "--format=prometheus") ||
                    (streq(argv[i], "--format") && i + 1 < argc && streq(argv[i + 1], "prometheus")))
                        return true;
        return false;
}

int apply_verr(struct apply_out *out, int code, const char *device, const char *fmt, va_list ap)
{
        char msg[2048];

        /* on the stack: an error is said also when memory runs out (a longer one is cut) */
        if (vsnprintf(msg, sizeof(msg), fmt, ap) < 0)
                snprintf(msg, sizeof(msg), "%s", fmt);
        fprintf(stderr, "%s: %s%s%s\n", out->prog, device ? device : "", device ? ": " : "", msg);
        apply_error_add(out, NULL, 0, device, code, "%s", msg);
        return code;
}

int apply_err(struct apply_out *out, int code, const char *device, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        code = apply_verr(out, code, device, fmt, ap);
        va_end(ap);
        return code;
}

/*
 * The format is known before the options are parsed, so that a usage error
 * is JSON (or the textfile's health) too.  -J and --format prometheus
 * together are a usage error: its object is JSON, and nothing else.
 */
void apply_out_init(struct apply_out *out, const char *prog, int argc, char **argv)
{
        *out = (struct apply_out){ .prog = prog, .mode = -1, .policy_ok = -1 };
        if (json_requested(argc, argv))
                out->format = APPLY_FORMAT_JSON;
        else if (prom_requested(argc, argv) || apply_textfile_requested(argc, argv))
                out->format = APPLY_FORMAT_PROMETHEUS;
}

int apply_out_finish(struct apply_out *out, int rc)
{
        if (rc == 0)
                return rc;
        /* -J: one JSON object on stdout, whatever happened */
        if (out->format == APPLY_FORMAT_JSON && !out->json_printed)
                json_error_object(out, stdout, out->command, out->mode >= 0 ? apply_mode_names[out->mode] : NULL,
                                  rc);
        /* --format prometheus: health and time, so that an alert fires instead of a stale file */
        else if (out->format == APPLY_FORMAT_PROMETHEUS && !out->prom_printed)
                apply_prom_failure(out, stdout, rc);
        (void)fflush(stdout);   /* rc is not 0: a write error does not change it */
        return rc;
}
