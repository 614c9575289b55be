/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * iosched-internal.h: the parts of the library's API that only the library
 * (and its unit tests) call; include/iosched.h holds what the programs use.
 * The per-file private parts are in root-internal.h, device-internal.h,
 * classify-internal.h and policy-internal.h.
 */
#ifndef IOS_IOSCHED_INTERNAL_H
#define IOS_IOSCHED_INTERNAL_H

#include <sys/types.h>

#include "iosched.h"

/* ---- log.c: each sysfs read and write, each disk's class, each rule that sets a value on a disk ---- */

typedef void (*ios_log_fn)(void *userdata, const char *msg);
bool ios_log_enabled(void);
void ios_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

extern ios_log_fn ios_log_current;
/* A trace line, its arguments evaluated only when the trace is on. */
#define IOS_TRACE(...) do { if (ios_log_current) ios_log(__VA_ARGS__); } while (0)
/* s quoted for a trace line ("a\\nb"; cut with "..." past len, at least 10) into buf. */
const char *ios_log_quote(const char *s, char *buf, size_t len);
/* "DIR/name" for dirfd (its /proc/self/fd link) into buf, for a trace line. */
const char *ios_log_path(int dirfd, const char *name, char *buf, size_t len);

/* ---- root.c ---- */

/*
 * ios_ctx_realpath - canonicalise an absolute path inside the root,
 * following symlinks (relative and absolute) without ever leaving it.
 * The result is absolute and relative to the root ("/sys/devices/...").
 */
int ios_ctx_realpath(struct ios_ctx *r, const char *path, char **ret);
/* ios_ctx_open() that also returns the canonical path of what it opened. */
int ios_ctx_open_canon(struct ios_ctx *r, const char *path, int flags, char **ret_canon);
/*
 * The root's kernel release ("6.1.0-18-amd64" gives 6, 1): a captured
 * tree's proc/sys/kernel/osrelease, else the running kernel's for the host;
 * -ENOENT when a captured tree does not say.  For version-dependent rules.
 */
int ios_ctx_kernel_version(struct ios_ctx *r, unsigned *major, unsigned *minor);
/*
 * The root's kernel's tick rate (CONFIG_HZ from boot/config-RELEASE inside
 * the root, as Debian installs it), read once; 0 when it cannot be known.
 * For the values the kernel keeps in ticks (ios_tunable_kernel_value).
 */
unsigned ios_ctx_hz(struct ios_ctx *r);

/* ---- errclass.c, readfile.c, sysfs.c ---- */

/* The one phrase for a class ("device vanished", ...), or ios_strerror(e) for REFUSED, RETRY and FAILED. */
const char *ios_errno_reason(int e);
int ios_sysfs_read_int(int dirfd, const char *attr, int *ret);
int ios_sysfs_write_string(int dirfd, const char *attr, const char *value);
/* The same into a regular file of a captured tree: a failed write leaves it as it was. */
int ios_sysfs_write_regular(int dirfd, const char *attr, const char *value);

/* ---- suggest.c: "did you mean": a slip of the hand, by edit distance ---- */

#define IOS_DISTANCE_MAX 0xffffffffu
/* Edit distance without case (insert, delete, substitute, swap neighbours); huge past 64 bytes. */
unsigned ios_edit_distance(const char *a, const char *b);
/* Whether word is within a slip of known: distance 1 up to 4 letters, 2 up to 10, else 3. */
bool ios_near_miss(const char *word, const char *known);
/* The nearest of known[0..n) that word is a near miss of, or NULL. */
const char *ios_suggest(const char *word, const char * const *known, size_t n);

/* ---- scheduler.c, tunables.c ---- */

/*
 * Choose the first of prefs (in order) that the queue offers, mapping each
 * through ios_sched_alias() for the queue's family (kyber has no legacy
 * twin: cfq stands in only when no preference fits otherwise).  loadable
 * names blk-mq schedulers that are not listed but whose module the kernel
 * can load on write (NULL: none).  Returns the index into prefs of the
 * match and its kernel spelling in *ret, or -ENOENT.
 */
int ios_sched_choose(char * const *prefs, char * const *avail, char * const *loadable,
                     const char **ret);
#define IOS_SCHED_TWIN_DIFFERS 4u /* its ios_sched_alias() only stands in for it (cfq -> bfq) */
#define IOS_SCHED_TWIN_LAST 8u  /* ... and only when no preference fits otherwise (kyber -> cfq) */
/* name's IOS_SCHED_* flags; 0 for a name the table does not know. */
unsigned ios_sched_flags(const char *name);
/* Module name the kernel loads for a scheduler ("kyber-iosched"), or NULL. */
const char *ios_sched_module(const char *name);
/* The known scheduler name (the table) that name is a misspelling of, or NULL. */
const char *ios_sched_name_suggest(const char *name);
/* The known names, blank-separated ("none mq-deadline ..."), for messages. */
const char *ios_sched_names_text(void);
/* A key a policy may set ("Scheduler", "queue/...") that key is a misspelling of, in buf; or NULL. */
const char *ios_tunable_suggest(const char *key, char *buf, size_t n);
/* Whether the kernel's value shows the wanted one (numbers, jiffies rounding). */
bool ios_tunable_same(const char *key, const char *kernel, const char *wanted, unsigned hz);
/* The kernel shows wanted as another number because it keeps it in ticks (read_expire=250 as 252). */
bool ios_tunable_rounded(const char *key, const char *kernel, const char *wanted);
/* Why the kernel shows kernel for wanted, a value it keeps in its own form ("whole pages", "its next
 * tick", ...), or NULL when it is the number wanted or not what the kernel makes of it (tunables.c). */
const char *ios_tunable_kept_why(const char *key, const char *kernel, const char *wanted);

/* ---- udevdb.c, names.c, classify.c ---- */

int ios_props_load(struct ios_ctx *r, unsigned major, unsigned minor, struct ios_props *p);
const char *ios_props_get(const struct ios_props *p, const char *key);
void ios_props_done(struct ios_props *p);
enum ios_class ios_class_from_string(const char *s);
/* The class a misspelt name meant ("HDD": "hdd", "sdd": "ssd"), or NULL. */
const char *ios_class_suggest(const char *s);
enum ios_zoned ios_zoned_from_string(const char *s);
/* classify.c: fills cls and evidence from the facts already read. */
int ios_device_classify(struct ios_device *d);

/* ---- conf.c, policy-dropin.c ---- */

/*
 * The hook in ios_policy_load(): paths, the drop-in files in the order
 * read (sorted by file name), with ov applied; replaced by a new vector.
 */
int ios_dropins_override(char ***paths, const struct ios_dropin *ov, size_t nov);

/* Whether writing by makes kernel major.minor (0.0: not known) recompute key (tunables.c's table). */
bool ios_tunable_resets(const char *key, const char *by, unsigned major, unsigned minor);
/* The first key whose write makes some kernel reset key to a value of its own, or NULL: the write order
 * (apply-order.c) writes the resetting keys first. */
const char *ios_tunable_reset_by(const char *key);
/* The other spelling of a value the kernel moved (queue/iosched/async_depth, queue/async_depth),
 * and the release that has the second; NULL for a key never moved. */
const char *ios_tunable_moved(const char *key, unsigned *ret_major, unsigned *ret_minor);


#endif
