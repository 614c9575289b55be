/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* strv.h: NULL-terminated vectors of owned strings, JSON strings and terminal-safe text (strv.c). */
#ifndef IOS_STRV_H
#define IOS_STRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

char **ios_strv_free(char **l);
static inline void ios_strv_freep(char ***l) { ios_strv_free(*l); }
size_t ios_strv_length(char * const *l);
int ios_strv_push(char ***l, char *s);            /* takes ownership of s */
/* The same in amortized O(1): the caller keeps the length *n and the room *cap (0 at first). */
int ios_strv_push_fast(char ***l, size_t *n, size_t *cap, char *s);
int ios_strv_pushf(char ***l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool ios_strv_contains(char * const *l, const char *s);
int ios_strv_split(const char *s, const char *sep, char ***ret);
char *ios_strv_join(char * const *l, const char *sep);
/* s without leading and trailing blanks: the trailing ones are cut in place. */
char *ios_strip(char *s);
/*
 * Write s as a JSON string (quoted, escaped), or null.  The output is valid UTF-8 whatever s holds:
 * every byte that does not start a well-formed UTF-8 sequence (stray bytes like \xff, overlong
 * forms, surrogates, beyond U+10FFFF, cut-off sequences) is written as U+FFFD, control characters
 * as \u00XX.
 */
void ios_json_string(FILE *f, const char *s);
/* A copy of s with the same U+FFFD replacement (for JSON written by libsmartcols); NULL on ENOMEM. */
char *ios_utf8_sanitize(const char *s);
/*
 * The n bytes at buf made safe for a terminal in place: each byte of a control character becomes
 * '?' (C0 but, with layout, tab, newline and carriage return; DEL; a C1 control, U+0080..U+009F as
 * UTF-8 or a lone byte 0x80..0x9f outside a well-formed sequence).  Other text, Latin-1 included,
 * is kept.
 */
void ios_mask_controls(char *buf, size_t n, bool layout);

#endif
