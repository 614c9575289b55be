/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * list.c: `iosched-apply list` and `explain`.  One column table drives
 * --help, -o parsing and the output; libsmartcols does table, raw and JSON.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <libsmartcols.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"
#include "strv.h"

/*
 * libsmartcols is opened when a table is printed, not at start-up: udev runs
 * iosched-apply --udev once per disk, and resolving a library's symbols is
 * most of what such a short process costs (valgrind: 424k -> see README).
 */
#define SCOLS_FUNCS(X) \
        X(scols_init_debug) X(scols_new_table) X(scols_table_enable_json) \
        X(scols_table_enable_raw) X(scols_table_enable_noheadings) X(scols_table_set_name) \
        X(scols_table_new_column) X(scols_column_set_json_type) X(scols_column_set_wrapfunc) \
        X(scols_wrapnl_chunksize) X(scols_wrapnl_nextchunk) X(scols_column_set_safechars) \
        X(scols_table_new_line) X(scols_line_refer_data) X(scols_print_table) X(scols_unref_table) \
        X(scols_print_table_to_string)

static struct {
        void *handle;
#define X(f) __typeof__(f) *f;
        SCOLS_FUNCS(X)
#undef X
} sc;

/*
 * A table as JSON, an empty array as [] whatever libsmartcols' version:
 * 2.38 (Debian 12) writes the array of an empty cell as [null], 2.40 as [].
 */
static int print_json_table(struct libscols_table *tb)
{
        _cleanup_free_ char *text = NULL;
        const char *p, *q;

        if (sc.scols_print_table_to_string(tb, &text) < 0 || !text)
                return -ENOMEM;
        for (p = text; (q = strchr(p, '[')); p = q) {
                const char *n = q + 1 + strspn(q + 1, " \n");

                fwrite(p, 1, (size_t)(q + 1 - p), stdout);
                q++;
                if (!strncmp(n, "null", 4) && n[4 + strspn(n + 4, " \n")] == ']')
                        q = n + 4 + strspn(n + 4, " \n");      /* to the ']': "[]" */
        }
        fputs(p, stdout);
        if (!*p || p[strlen(p) - 1] != '\n')
                fputc('\n', stdout);
        return 0;
}

static int scols_open(void)
{
        if (sc.handle)
                return 0;
        sc.handle = dlopen("libsmartcols.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!sc.handle)
                return -ENOENT;
#define X(f) \
        if (!(*(void **)&sc.f = dlsym(sc.handle, #f))) \
                return -ENOSYS;
        SCOLS_FUNCS(X)
#undef X
        return 0;
}

enum {
        COL_NAME, COL_MAJMIN, COL_CLASS, COL_ROTA, COL_SCHED, COL_AVAIL, COL_TRAN,
        COL_MODEL, COL_VENDOR, COL_SERIAL, COL_WWN, COL_SIZE, COL_ZONED, COL_RM,
        COL_HWQ, COL_DRIVER, COL_PCI, COL_HCTL, COL_SUBTYPE, COL_HIDDEN, COL_EVIDENCE,
        _COL_MAX,
};

/* CT_WORDS: an array in JSON, words joined by blanks in a table */
enum coltype { CT_STR, CT_NUM, CT_BOOL, CT_ARRAY, CT_WORDS };

static const struct colinfo {
        const char *name;
        double whint;
        int flags;
        enum coltype type;
        const char *help;
} infos[_COL_MAX] = {
        [COL_NAME] = { "NAME", 0.1, SCOLS_FL_NOEXTREMES, CT_STR, "kernel device name" },
        [COL_MAJMIN] = { "MAJ:MIN", 6, 0, CT_STR, "major:minor device number" },
        [COL_CLASS] = { "CLASS", 7, 0, CT_STR, "iosched device class" },
        [COL_ROTA] = { "ROTA", 1, SCOLS_FL_RIGHT, CT_BOOL, "queue/rotational (a multipath device: from its paths)" },
        [COL_SCHED] = { "SCHED", 0.1, 0, CT_STR, "active I/O scheduler" },
        [COL_AVAIL] = { "AVAILABLE", 0.2, 0, CT_WORDS, "schedulers the kernel offers" },
        [COL_TRAN] = { "TRAN", 0.1, 0, CT_STR, "transport (as lsblk)" },
        [COL_MODEL] = { "MODEL", 0.1, SCOLS_FL_TRUNC, CT_STR, "device model" },
        [COL_VENDOR] = { "VENDOR", 0.1, SCOLS_FL_TRUNC, CT_STR, "device vendor" },
        [COL_SERIAL] = { "SERIAL", 0.1, SCOLS_FL_TRUNC, CT_STR, "serial number" },
        [COL_WWN] = { "WWN", 0.1, SCOLS_FL_TRUNC, CT_STR, "world wide name" },
        [COL_SIZE] = { "SIZE", 5, SCOLS_FL_RIGHT, CT_NUM, "size (bytes with -b and in JSON)" },
        [COL_ZONED] = { "ZONED", 0.1, 0, CT_STR, "zoned model" },
        [COL_RM] = { "RM", 1, SCOLS_FL_RIGHT, CT_BOOL, "removable" },
        [COL_HWQ] = { "HWQ", 3, SCOLS_FL_RIGHT, CT_NUM, "hardware queues (blk-mq)" },
        [COL_DRIVER] = { "DRIVER", 0.1, 0, CT_STR, "controller driver" },
        [COL_PCI] = { "PCI", 9, 0, CT_STR, "controller PCI vendor:device" },
        [COL_HCTL] = { "HCTL", 10, 0, CT_STR, "SCSI Host:Channel:Target:Lun" },
        [COL_SUBTYPE] = { "SUBTYPE", 0.1, 0, CT_STR, "dm uuid prefix, md level, MMC type, NVMe transport" },
        [COL_HIDDEN] = { "HIDDEN", 1, SCOLS_FL_RIGHT, CT_BOOL, "hidden (NVMe multipath path device)" },
        [COL_EVIDENCE] = { "EVIDENCE", 0.3, SCOLS_FL_WRAP, CT_ARRAY, "why the class was chosen" },
};

static const int default_cols[] = {
        COL_NAME, COL_CLASS, COL_ROTA, COL_SCHED, COL_AVAIL, COL_TRAN, COL_MODEL,
};

void apply_list_help_columns(FILE *out)
{
        fputs("\nAvailable output columns:\n", out);
        for (int i = 0; i < _COL_MAX; i++)
                fprintf(out, " %11s  %s\n", infos[i].name, infos[i].help);
}

static int column_from_name(const char *s, size_t n)
{
        for (int i = 0; i < _COL_MAX; i++)
                if (strlen(infos[i].name) == n && strncasecmp(infos[i].name, s, n) == 0)
                        return i;
        return -1;
}

/* Parse "-o NAME,CLASS" or "-o +SERIAL" (append to the defaults). */
int apply_list_parse_columns(const char *arg, int *cols, size_t *ncols, const char **bad)
{
        size_t n = 0;

        if (arg && *arg == '+') {
                for (size_t i = 0; i < ELEMENTSOF(default_cols); i++)
                        cols[n++] = default_cols[i];
                arg++;
        }
        if (!arg) {
                for (size_t i = 0; i < ELEMENTSOF(default_cols); i++)
                        cols[n++] = default_cols[i];
                *ncols = n;
                return 0;
        }
        while (*arg) {
                size_t l = strcspn(arg, ",");
                int c = column_from_name(arg, l);

                if (c < 0 || n >= APPLY_LIST_MAX_COLS) {
                        *bad = arg;
                        return -EINVAL;
                }
                cols[n++] = c;
                arg += l;
                if (*arg == ',')
                        arg++;
        }
        *ncols = n;
        return 0;
}

bool apply_list_has_column(const struct apply_list_opts *o, const char *name)
{
        for (size_t i = 0; i < o->ncols; i++)
                if (streq(infos[o->cols[i]].name, name))
                        return true;
        return false;
}

bool apply_list_needs_extra(const struct apply_list_opts *o)
{
        for (size_t i = 0; i < o->ncols; i++)
                if (o->cols[i] == COL_SIZE || o->cols[i] == COL_RM)
                        return true;
        return false;
}

/*
 * lsblk's SIZE: binary units, one letter, one decimal when it is not .0
 * ("128M", "931.5G").
 */
char *apply_size_human(uint64_t bytes)
{
        static const char units[] = "BKMGTPE";
        uint64_t frac = 0, v = bytes;
        unsigned u = 0;
        char *s = NULL;

        while (v >= 1024 && u < sizeof(units) - 2) {
                frac = v % 1024;
                v /= 1024;
                u++;
        }
        if (u == 0)
                return asprintf(&s, "%lluB", (unsigned long long)v) < 0 ? NULL : s;
        /* one decimal, rounded */
        frac = (frac * 10 + 512) / 1024;
        if (frac == 10) {
                v++;
                frac = 0;
        }
        if (frac)
                return asprintf(&s, "%llu.%llu%c", (unsigned long long)v, (unsigned long long)frac, units[u]) < 0 ?
                       NULL : s;
        return asprintf(&s, "%llu%c", (unsigned long long)v, units[u]) < 0 ? NULL : s;
}

static char *cell(const struct ios_device *d, int col, const struct apply_list_opts *o)
{
        char *s = NULL;

        switch (col) {
        case COL_NAME: return strdup(d->name);
        case COL_MAJMIN:
                if (d->no_dev)
                        return NULL;    /* unknown: no dev file */
                return asprintf(&s, "%u:%u", d->major, d->minor) < 0 ? NULL : s;
        case COL_CLASS: return strdup(ios_class_to_string(d->cls));
        case COL_ROTA: return d->rotational < 0 ? NULL : strdup(d->rotational ? "1" : "0");
        case COL_SCHED: return d->sched_current ? strdup(d->sched_current) : NULL;
        case COL_AVAIL: return d->sched_current ? ios_strv_join(d->sched_avail, o->json ? "\n" : " ") : NULL;
        case COL_TRAN: return d->tran ? strdup(d->tran) : NULL;
        case COL_MODEL: return d->model ? strdup(d->model) : NULL;
        case COL_VENDOR: return d->vendor ? strdup(d->vendor) : NULL;
        case COL_SERIAL: return d->serial ? strdup(d->serial) : NULL;
        case COL_WWN: return d->wwn ? strdup(d->wwn) : NULL;
        case COL_SIZE:
                if (!o->json && !o->bytes)
                        return apply_size_human(d->size);
                return asprintf(&s, "%llu", (unsigned long long)d->size) < 0 ? NULL : s;
        case COL_ZONED: return strdup(ios_zoned_to_string(d->zoned));
        case COL_RM: return d->removable < 0 ? NULL : strdup(d->removable ? "1" : "0");
        case COL_HWQ: return d->blk_mq ? (asprintf(&s, "%u", d->nr_hw_queues) < 0 ? NULL : s) : NULL;
        case COL_DRIVER: return d->driver ? strdup(d->driver) : NULL;
        case COL_PCI: return d->pci_id ? strdup(d->pci_id) : NULL;
        case COL_HCTL: return d->hctl ? strdup(d->hctl) : NULL;
        case COL_SUBTYPE: return d->subtype ? strdup(d->subtype) : NULL;
        case COL_HIDDEN: return strdup(d->hidden ? "1" : "0");
        case COL_EVIDENCE: return ios_strv_join(d->evidence, "\n");
        }
        return NULL;
}

/* A table with the output options of o (libsmartcols loaded on first use). */
static int new_table(const struct apply_list_opts *o, bool json, struct libscols_table **ret)
{
        struct libscols_table *tb;

        if (scols_open() < 0)
                return -ELIBACC;
        sc.scols_init_debug(0);
        tb = sc.scols_new_table();
        if (!tb)
                return -ENOMEM;
        sc.scols_table_enable_json(tb, json);
        sc.scols_table_enable_raw(tb, o->raw);
        sc.scols_table_enable_noheadings(tb, o->noheadings);
        *ret = tb;
        return 0;
}

int apply_list_print(struct ios_device **devs, size_t n, const struct apply_list_opts *o)
{
        struct libscols_table *tb;
        size_t shown = 0;
        int e = new_table(o, o->json, &tb);

        if (e < 0)
                return e;
        if (o->json)
                sc.scols_table_set_name(tb, "blockdevices");

        for (size_t i = 0; i < o->ncols; i++) {
                const struct colinfo *ci = &infos[o->cols[i]];
                struct libscols_column *cl;
                int fl = ci->flags;

                if (o->raw || o->json)
                        fl &= ~SCOLS_FL_TRUNC;
                if (o->raw)
                        fl &= ~SCOLS_FL_WRAP;
                if (ci->type == CT_WORDS && o->json)
                        fl |= SCOLS_FL_WRAP;    /* libsmartcols splits an array cell where it wraps */
                cl = sc.scols_table_new_column(tb, ci->name, ci->whint, fl);
                if (!cl) {
                        e = -ENOMEM;
                        goto out;
                }
                if (o->json) {
                        int jt = ci->type == CT_NUM ? SCOLS_JSON_NUMBER :
                                 ci->type == CT_BOOL ? SCOLS_JSON_BOOLEAN :
                                 ci->type == CT_ARRAY || ci->type == CT_WORDS ? SCOLS_JSON_ARRAY_STRING :
                                 SCOLS_JSON_STRING;
                        sc.scols_column_set_json_type(cl, jt);
                }
                if ((ci->type == CT_ARRAY && !o->raw) || (ci->type == CT_WORDS && o->json)) {
                        sc.scols_column_set_wrapfunc(cl, sc.scols_wrapnl_chunksize, sc.scols_wrapnl_nextchunk, NULL);
                        sc.scols_column_set_safechars(cl, "\n");
                }
        }
        for (size_t i = 0; i < n; i++) {
                struct libscols_line *ln;

                /* as lsblk: no medium (size 0, a loop device without a file) unless -a or named */
                if (o->hide_empty && devs[i]->size == 0)
                        continue;
                shown++;
                ln = sc.scols_table_new_line(tb, NULL);
                if (!ln) {
                        e = -ENOMEM;
                        goto out;
                }
                for (size_t c = 0; c < o->ncols; c++) {
                        char *s;

                        errno = 0;
                        s = cell(devs[i], o->cols[c], o);
                        if (!s && errno == ENOMEM) {    /* an empty cell only for what is unknown */
                                e = -ENOMEM;
                                goto out;
                        }
                        /* libsmartcols copies bytes >= 0x80 as they are: JSON must be UTF-8 */
                        if (s && o->json) {
                                char *u = ios_utf8_sanitize(s);

                                free(s);
                                if (!u) {
                                        e = -ENOMEM;
                                        goto out;
                                }
                                s = u;
                        }
                        if (s && o->raw && infos[o->cols[c]].type == CT_ARRAY)
                                for (char *p = s; *p; p++)
                                        if (*p == '\n')
                                                *p = ';';
                        if (s && sc.scols_line_refer_data(ln, c, s) < 0) {
                                free(s);
                                e = -ENOMEM;
                                goto out;
                        }
                }
        }
        if (shown == 0 && !o->json && !o->noheadings) {
                /* libsmartcols prints nothing for a table without lines; the header is printed
                 * all the same (every disk hidden, e.g. all of size 0), each column as wide as its name */
                for (size_t c = 0; c < o->ncols; c++)
                        printf("%s%s", c ? " " : "", infos[o->cols[c]].name);
                e = putchar('\n') == EOF ? -EIO : 0;
        } else
                e = o->json ? print_json_table(tb) : sc.scols_print_table(tb);
        if (o->json)
                apply_json_mark_printed(o->out);
out:
        sc.scols_unref_table(tb);
        return e;
}

/* One "  label       value" line of explain; the value escaped as a field (textsafe.c). */
static void fact(FILE *out, const char *label, const char *v1, const char *sep, const char *v2)
{
        fprintf(out, "  %-12s", label);
        apply_write_field(out, v1);
        if (v1 && v2)
                fputs(sep, out);
        apply_write_field(out, v2);
        fputc('\n', out);
}

/*
 * explain: the class, the facts, and the evidence, one per line.  Every
 * string the disk chose (model, serial, scheduler names, evidence quoting
 * them) is a field: a newline or tab in it cannot make a line of its own.
 */
int apply_list_explain(FILE *out, const struct ios_device *d)
{
        _cleanup_free_ char *avail = ios_strv_join(d->sched_avail, " ");
        char num[64];

        apply_write_field(out, d->name);
        fprintf(out, ": %s\n", ios_class_to_string(d->cls));
        if (d->no_dev)
                fact(out, "device", "(no dev file)", " ", d->syspath);
        else {
                snprintf(num, sizeof(num), "%u:%u", d->major, d->minor);
                fact(out, "device", num, " ", d->syspath);
        }
        if (d->vendor || d->model)
                fact(out, "model", d->vendor, " ", d->model);
        if (d->serial)
                fact(out, "serial", d->serial, "", NULL);
        if (d->wwn)
                fact(out, "wwn", d->wwn, "", NULL);
        fprintf(out, "  size        %llu bytes\n", (unsigned long long)d->size);
        if (d->rotational >= 0)
                fprintf(out, "  rotational  %d\n", d->rotational);
        fprintf(out, "  zoned       %s\n", ios_zoned_to_string(d->zoned));
        if (d->removable >= 0)
                fprintf(out, "  removable   %d\n", d->removable);
        if (d->tran)
                fact(out, "transport", d->tran, "", NULL);
        if (d->driver)
                fact(out, "driver", d->driver, "", NULL);
        if (d->pci_id)
                fact(out, "pci", d->pci_id, "", NULL);
        if (d->hctl)
                fact(out, "scsi", d->hctl, "", NULL);
        if (d->blk_mq)
                fprintf(out, "  hw queues   %u\n", d->nr_hw_queues);
        else if (d->sched_current)     /* a scheduler but no mq/: before 5.0 */
                fprintf(out, "  queue       legacy request queue (single-queue block layer)\n");
        else
                fprintf(out, "  queue       bio-based\n");
        if (d->sched_current) {
                fputs("  scheduler   ", out);
                apply_write_field(out, d->sched_current);
                fputs(" (available: ", out);
                apply_write_field(out, avail ? avail : "");
                fputs(")\n", out);
        } else
                fprintf(out, "  scheduler   none to choose\n");
        fputs("  evidence:\n", out);
        for (char **e = d->evidence; e && *e; e++) {
                fputs("    - ", out);
                apply_write_field(out, *e);
                fputc('\n', out);
        }
        return 0;
}

/*
 * A plain table of strings (status): headers, right-aligned columns, and
 * nrows * ncols cells (NULL: empty), printed as list prints (table or
 * raw, headings or not).  The cells stay the caller's.
 */
int apply_table_print(const char * const *headers, const bool *right, size_t ncols, char * const *cells,
                      size_t nrows, const struct apply_list_opts *o)
{
        struct libscols_table *tb;
        int e = new_table(o, false, &tb);

        if (e < 0)
                return e;
        for (size_t c = 0; c < ncols; c++)
                if (!sc.scols_table_new_column(tb, headers[c], 0.1, right[c] ? SCOLS_FL_RIGHT : 0)) {
                        e = -ENOMEM;
                        goto out;
                }
        for (size_t i = 0; i < nrows; i++) {
                struct libscols_line *ln = sc.scols_table_new_line(tb, NULL);

                if (!ln) {
                        e = -ENOMEM;
                        goto out;
                }
                for (size_t c = 0; c < ncols; c++) {
                        char *s = cells[i * ncols + c] ? strdup(cells[i * ncols + c]) : NULL;

                        if (cells[i * ncols + c] && (!s || sc.scols_line_refer_data(ln, c, s) < 0)) {
                                free(s);
                                e = -ENOMEM;
                                goto out;
                        }
                }
        }
        e = sc.scols_print_table(tb);
out:
        sc.scols_unref_table(tb);
        return e;
}
