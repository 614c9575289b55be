/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the cmocka unit tests (prefix t_). */
#ifndef IOS_TEST_HELPERS_H
#define IOS_TEST_HELPERS_H

#include <stddef.h>

/* Path of an unpacked fixture tree ($IOS_FIXTURES/<name>); static buffer. */
const char *t_fixture(const char *name);
/* Copy a fixture into a fresh mkdtemp() directory for tests that write. */
char *t_fixture_copy(const char *name);
/* rm -rf a directory made by t_fixture_copy() and free the string. */
void t_rmtree(char *dir);
/* Write a file (creating parent directories); returns 0 or -errno. */
int t_write_file(const char *path, const char *content);
/* Read a file into a static buffer, trailing newline stripped; NULL on error. */
const char *t_read_file(const char *path);

#endif
