/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * errors.c: the errors of one iosched-apply run, kept for the JSON
 * contract (schema 1): every error printed on stderr is also recorded here
 * with its file, line, device and exit code, so that -J always prints one
 * JSON object on stdout, also when nothing else could be printed.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"

struct apply_error {
        char *file, *device, *message;
        unsigned line;
        int exit;
};

static struct apply_error *errs;
static size_t nerrs;
static bool json_printed;

void apply_error_add(const char *file, unsigned line, const char *device, int exit, const char *fmt, ...)
{
        struct apply_error *n, *e;
        va_list ap;
        int r;

        n = realloc(errs, (nerrs + 1) * sizeof(*n));
        if (!n)
                return;         /* the line went to stderr; the JSON loses it only when out of memory */
        errs = n;
        e = &errs[nerrs];
        *e = (struct apply_error){ .line = line, .exit = exit };
        va_start(ap, fmt);
        r = vasprintf(&e->message, fmt, ap);
        va_end(ap);
        if (r < 0)
                return;
        e->file = file ? strdup(file) : NULL;
        e->device = device ? strdup(device) : NULL;
        nerrs++;
}

size_t apply_errors_count(void)
{
        return nerrs;
}

void apply_errors_json(FILE *f)
{
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

void apply_errors_free(void)
{
        for (size_t i = 0; i < nerrs; i++) {
                free(errs[i].file);
                free(errs[i].device);
                free(errs[i].message);
        }
        free(errs);
        errs = NULL;
        nerrs = 0;
}

void apply_json_header(FILE *f, const char *command)
{
        json_printed = true;
        fprintf(f, "{\"schema\": %d, \"tool\": \"iosched-apply\", \"version\": ", APPLY_JSON_SCHEMA);
        ios_json_string(f, IOS_VERSION);
        if (command) {
                fputs(", \"command\": ", f);
                ios_json_string(f, command);
        }
}

void apply_json_mark_printed(void)
{
        json_printed = true;
}

bool apply_json_printed(void)
{
        return json_printed;
}

void apply_json_error_object(FILE *f, const char *command, const char *mode, int exit)
{
        apply_json_header(f, command);
        if (mode) {
                fputs(", \"mode\": ", f);
                ios_json_string(f, mode);
                fputs(", \"changed\": false", f);
        }
        fprintf(f, ", \"compliant\": false, \"exit\": %d,\n \"errors\": ", exit);
        apply_errors_json(f);
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

/*
 * Whether -J (or --format json) is on the command line, looked at before
 * the options are parsed so that a usage error is JSON too.  Short option
 * clusters count ("-nJ"), up to a letter that takes an argument.
 */
bool apply_json_requested(int argc, char **argv)
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
bool apply_prom_requested(int argc, char **argv)
{
        for (int i = 1; i < argc && !streq(argv[i], "--"); i++)
                if (streq(argv[i], "--format=prometheus") ||
                    (streq(argv[i], "--format") && i + 1 < argc && streq(argv[i + 1], "prometheus")))
                        return true;
        return false;
}

int apply_verror(const char *prog, int code, const char *device, const char *fmt, va_list ap)
{
        _cleanup_free_ char *msg = NULL;

        if (vasprintf(&msg, fmt, ap) < 0)
                msg = NULL;
        fprintf(stderr, "%s: %s%s%s\n", prog, device ? device : "", device ? ": " : "", msg ? msg : fmt);
        apply_error_add(NULL, 0, device, code, "%s", msg ? msg : fmt);
        return code;
}
