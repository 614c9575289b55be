/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * textsafe.c: text output that cannot drive a terminal.  What iosched-apply
 * prints as text holds strings it did not choose: a disk's model, serial or
 * vendor (firmware-defined), policy file text and file names.  Every C0
 * control character but newline and tab, DEL, and the C1 controls encoded
 * in UTF-8 (U+0080..U+009F, where CSI is U+009B) are written as \xNN, as
 * libsmartcols does for list and status.  JSON has its own escaping.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"

void apply_write_safe(FILE *out, const char *s, size_t len)
{
        size_t run = 0;         /* start of the bytes not yet written, all safe */

        for (size_t i = 0; i < len; i++) {
                unsigned char c = (unsigned char)s[i];
                bool c0 = (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f;
                bool c1 = c == 0xc2 && i + 1 < len && (unsigned char)s[i + 1] >= 0x80 &&
                          (unsigned char)s[i + 1] <= 0x9f;

                if (!c0 && !c1)
                        continue;
                fwrite(s + run, 1, i - run, out);
                if (c1)
                        i++;
                fprintf(out, "\\x%02x", (unsigned char)s[i]);
                run = i + 1;
        }
        fwrite(s + run, 1, len - run, out);
}

char *apply_escape(const char *s)
{
        char *buf = NULL;
        size_t len = 0;
        FILE *m;

        if (!s)
                return NULL;
        m = open_memstream(&buf, &len);
        if (!m)
                return NULL;
        apply_write_safe(m, s, strlen(s));
        if (fclose(m) != 0) {
                free(buf);
                return NULL;
        }
        return buf;
}

int apply_text_begin(struct apply_text *t)
{
        *t = (struct apply_text){};
        t->f = open_memstream(&t->buf, &t->len);
        return t->f ? 0 : -ENOMEM;
}

int apply_text_end(struct apply_text *t, FILE *out)
{
        int e = fclose(t->f) == 0 ? 0 : -ENOMEM;

        if (e == 0)
                apply_write_safe(out, t->buf, t->len);
        free(t->buf);
        *t = (struct apply_text){};
        return e;
}
