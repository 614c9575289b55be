/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jsonread.h: a small JSON reader (jsonread.c), the text into a tree of
 * values and lookups by member name: what iosched-bench -J prints (read by
 * validate), the evidence records (evidence-read.c) and facts -J documents
 * (iosched-apply report).  Library-private; the programs include it too.
 */
#ifndef IOS_JSONREAD_H
#define IOS_JSONREAD_H

#include <stdbool.h>
#include <stddef.h>

enum ios_json_type { IOS_JSON_NULL, IOS_JSON_BOOL, IOS_JSON_NUM, IOS_JSON_STR, IOS_JSON_ARR, IOS_JSON_OBJ };
struct ios_json {
        enum ios_json_type type;
        char *key;                      /* the member's name, inside an object */
        char *str;
        double num;
        bool b;
        struct ios_json *kids;          /* an array's elements, an object's members */
        size_t n;
};
/* 0, -EINVAL for text that is not one JSON value, -ENOMEM; free ret with ios_json_done(). */
int ios_json_parse(const char *text, size_t len, struct ios_json *ret);
/* Control bytes (but NUL) inside strings taken as they stand: fio writes its job names and options so
 * (a TAB in a job's name or description reaches its report unescaped). */
#define IOS_JSON_RAW_CONTROL 1u
int ios_json_parse_flags(const char *text, size_t len, unsigned flags, struct ios_json *ret);
void ios_json_done(struct ios_json *v);
const struct ios_json *ios_json_get(const struct ios_json *obj, const char *key);  /* NULL: none */
const char *ios_json_str(const struct ios_json *v);             /* NULL: not a string */
bool ios_json_num(const struct ios_json *v, double *ret);       /* false: not a number */
bool ios_json_bool(const struct ios_json *v, bool *ret);        /* false: not true or false */

#endif
