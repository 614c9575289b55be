/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* iosched-apply's own modules (not the library). */
#ifndef IOS_APPLY_H
#define IOS_APPLY_H

#include <stdbool.h>
#include <stdio.h>

#include "iosched.h"

#define IOS_LIST_MAX_COLS 64

struct ios_list_opts {
        bool json, raw, noheadings;
        int cols[IOS_LIST_MAX_COLS];
        size_t ncols;
};

void ios_list_help_columns(FILE *out);
int ios_list_parse_columns(const char *arg, int *cols, size_t *ncols, const char **bad);
bool ios_list_needs_extra(const struct ios_list_opts *o);
int ios_list_print(struct ios_device **devs, size_t n, const struct ios_list_opts *o);
int ios_list_explain(FILE *out, const struct ios_device *d);

#endif
