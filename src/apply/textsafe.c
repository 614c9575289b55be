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

/*
 * The length of the valid UTF-8 sequence at s (at most len bytes), or 0 if
 * the bytes there are not one: overlong forms, surrogates and code points
 * above U+10FFFF are not valid (RFC 3629).
 */
static size_t utf8_len(const unsigned char *s, size_t len)
{
        size_t n;
        unsigned min, cp;

        if (s[0] < 0x80)
                return 1;
        if (s[0] >= 0xc2 && s[0] <= 0xdf)
                n = 2, min = 0x80, cp = s[0] & 0x1f;
        else if (s[0] >= 0xe0 && s[0] <= 0xef)
                n = 3, min = 0x800, cp = s[0] & 0x0f;
        else if (s[0] >= 0xf0 && s[0] <= 0xf4)
                n = 4, min = 0x10000, cp = s[0] & 0x07;
        else
                return 0;
        if (n > len)
                return 0;
        for (size_t i = 1; i < n; i++) {
                if ((s[i] & 0xc0) != 0x80)
                        return 0;
                cp = cp << 6 | (s[i] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
                return 0;
        return n;
}

/*
 * The one escaping of text output: a byte that is a control (C0 but, in
 * layout text, newline and tab; DEL; the C1 controls U+0080..U+009F) or not
 * part of valid UTF-8 is written as \xNN, each byte of a C1 control's
 * encoding or of an invalid sequence apart.  A field (a string the disk or a
 * file chose, put inside a line) escapes newline and tab too, so that it
 * cannot start a line of its own or shift a column.
 */
static void write_escaped(FILE *out, const char *s, size_t len, bool field)
{
        const unsigned char *u = (const unsigned char *)s;
        size_t run = 0;         /* start of the bytes not yet written, all safe */

        for (size_t i = 0; i < len;) {
                size_t n = utf8_len(u + i, len - i);
                bool layout = u[i] == '\n' || u[i] == '\t';
                bool ctl = n == 1 ? (u[i] < 0x20 && (field || !layout)) || u[i] == 0x7f
                                  : n == 2 && u[i] == 0xc2 && u[i + 1] <= 0x9f;

                if (n && !ctl) {
                        i += n;
                        continue;
                }
                fwrite(s + run, 1, i - run, out);
                for (size_t k = 0; k < (n ? n : 1); k++)
                        fprintf(out, "\\x%02x", u[i + k]);
                i += n ? n : 1;
                run = i;
        }
        fwrite(s + run, 1, len - run, out);
}

void apply_write_safe(FILE *out, const char *s, size_t len)
{
        write_escaped(out, s, len, false);
}

void apply_write_field(FILE *out, const char *s)
{
        if (s)
                write_escaped(out, s, strlen(s), true);
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
        apply_write_field(m, s);
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
