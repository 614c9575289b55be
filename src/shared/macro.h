/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Small helpers shared by the library and the tools: cleanup attributes. */
#ifndef IOS_MACRO_H
#define IOS_MACRO_H

#include <stdlib.h>
#include <unistd.h>
#include <errno.h>

#define _cleanup_(f) __attribute__((cleanup(f)))
#define ELEMENTSOF(a) (sizeof(a) / sizeof((a)[0]))

static inline void freep(void *p) { free(*(void **)p); }
static inline void closep(int *fd) { if (*fd >= 0) { int e = errno; close(*fd); errno = e; } }
#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_close_ _cleanup_(closep)

#define TAKE_PTR(p) ({ __typeof__(p) _p = (p); (p) = NULL; _p; })
#define TAKE_FD(fd) ({ int _fd = (fd); (fd) = -1; _fd; })

#define streq(a, b) (strcmp((a), (b)) == 0)

static inline const char *startswith(const char *s, const char *prefix)
{
        size_t l = __builtin_strlen(prefix);
        return __builtin_strncmp(s, prefix, l) == 0 ? s + l : NULL;
}

#endif
