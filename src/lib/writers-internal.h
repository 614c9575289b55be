/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* writers-internal.h: what writers.c, writers-tuned.c and writers-udev.c share. */
#pragma once

#include "iosched.h"

#define IOS_WRITERS_MAX_FILE (1 << 20)

/* A rule or profile file: never blocks, a regular file of at most IOS_WRITERS_MAX_FILE bytes. */
int ios_writers_read_text(const char *path, char **ret);
/* Appends a writer (strings copied), op SET: the caller sets the rest on the last entry. */
int ios_writers_add(struct ios_writers *ws, const char *kind, const char *name, const char *devglob,
                    const char *key, const char *value, const char *file, unsigned line);
/* The TuneD writers of the active profile under root (no trailing slash; "" for /). */
int ios_writers_scan_tuned(struct ios_writers *ws, const char *root);
/* The udev rules' writers under root, and their rules into ws->udev. */
int ios_writers_scan_udev(struct ios_writers *ws, const char *root);
void ios_udev_rules_free(struct ios_udev_rules *u);
/* Verdicts of the udev writers of ws for d (ret has ws->n entries; TuneD entries untouched). */
int ios_udev_rules_eval(const struct ios_writers *ws, struct ios_device *d, struct ios_writer_eval *ret);
