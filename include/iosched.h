/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libiosched, the API of iosched-apply, ioschedd and iosched-bench (what
 * only the library itself uses is in src/lib/iosched-internal.h).  Every
 * function returns 0 (or a count) on success and a negative errno on
 * failure, and never prints.  Objects returned through ret_* out-parameters
 * are owned by the caller and written only on success.
 */
#ifndef IOSCHED_H
#define IOSCHED_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* IOS_VERSION comes from the file VERSION, through the Makefile. */
#ifndef IOS_VERSION
#error "IOS_VERSION is not defined: build with the Makefile (it reads the file VERSION)"
#endif

/* ---- root.c: the library context, the one place that resolves paths under its root ---- */

/*
 * The library context: the root every path is opened under, and what
 * ios_device_new() probes.  One per program; devices borrow it.
 */
struct ios_ctx;

/* A context on a root prefix ("/" or NULL for the running system, or a directory holding a
 * captured sys/ and run/udev/data/ tree): 0, -ENOENT / -ENOTDIR if the prefix is no directory. */
int ios_ctx_new(const char *prefix, struct ios_ctx **ret);
struct ios_ctx *ios_ctx_free(struct ios_ctx *r);
/* "" for the running system, else the prefix without a trailing slash. */
const char *ios_ctx_prefix(const struct ios_ctx *r);
bool ios_ctx_is_host(const struct ios_ctx *r);

/* What ios_device_new() reads beyond what classification and the scheduler need (each attribute
 * costs system calls, and udev runs us per disk), and what a caller can do without. */
enum {
        IOS_PROBE_EXTRA = 1 << 0,       /* size, removable */
        IOS_PROBE_SIZE = 1 << 1,        /* size only (what lsblk's "no medium" needs) */
        IOS_PROBE_NO_HWQ = 1 << 2,      /* blk_mq, nr_hw_queues left false, 0 (but for dm- devices) */
};
void ios_ctx_set_probe(struct ios_ctx *r, unsigned flags);
unsigned ios_ctx_get_probe(const struct ios_ctx *r);

/* Open a path inside the root (O_CLOEXEC added, symlinks resolved inside the root): the fd or -errno. */
int ios_ctx_open(struct ios_ctx *r, const char *path, int flags);

void ios_log_set(void (*fn)(void *data, const char *line), void *data); /* the debug trace; NULL: off */

/*
 * The wording of a negative errno in every message (errclass.c): strerror(),
 * except -EBADFD, which the library returns for a FIFO, socket or device
 * node where a regular file must be (an attribute, a udev database entry, a
 * policy file): said as such.
 */
const char *ios_strerror(int e);

/*
 * What a negative errno from the library means for the disk it was about,
 * decided here once for the CLI, the udev path and the daemon alike
 * (errclass.c):
 *   GONE      ENOENT ENODEV ENXIO: the disk went away (a remove event follows)
 *   READONLY  EROFS EACCES EPERM: /sys cannot be written here; no write can work
 *   REFUSED   EINVAL: the kernel refused the value
 *   RETRY     EAGAIN EINTR EBUSY ENOMEM EMFILE ENFILE: transient, try again
 *   FAILED    anything else (EIO, EBADFD, ...)
 * 0 (and positive values) are IOS_ERRNO_OK.
 */
enum ios_errno_class {
        IOS_ERRNO_OK,
        IOS_ERRNO_GONE,
        IOS_ERRNO_READONLY,
        IOS_ERRNO_REFUSED,
        IOS_ERRNO_RETRY,
        IOS_ERRNO_FAILED,
};
enum ios_errno_class ios_errno_class(int e);

/* Read a whole (small) file inside the root; NUL-terminated, not stripped. */
int ios_ctx_read_file(struct ios_ctx *r, const char *path, char **ret, size_t *ret_len);

/* ---- sysfs.c: typed attribute I/O relative to a directory fd from root.c ---- */

/* Attribute names are relative and must not contain "..". */
int ios_sysfs_read_string(int dirfd, const char *attr, char **ret);     /* newline stripped */
int ios_sysfs_read_u64(int dirfd, const char *attr, uint64_t *ret);
bool ios_sysfs_exists(int dirfd, const char *attr);
/* Last path component of a symlink's target ("driver" -> "ahci"). */
int ios_sysfs_read_link_base(int dirfd, const char *attr, char **ret);
/*
 * The names in directory sub of dirfd ("." for dirfd itself; any directory, sysfs or not), those
 * starting with "." left out, sorted by strcmp().  Returns their count and, unless ret_names is
 * NULL, the names as a vector; -ENOENT when sub does not exist, -ENOTDIR or -ELOOP when it is no
 * directory or a symlink (sub's last component is never followed).
 */
int ios_sysfs_list(int dirfd, const char *sub, char ***ret_names);

/* ---- benchlock.c: iosched-bench's lock on a disk, which ioschedd yields to ---- */

#define IOS_BENCH_LOCK_DIR "/run/iosched-bench"
/* the names (proc/PID/comm) of the bench and of its guard, which lock holders are known by */
#define IOS_BENCH_COMM "iosched-bench"
#define IOS_BENCH_GUARD_COMM "iosched-guard"
/* "/run/iosched-bench/MAJ:MIN.lock"; -ENAMETOOLONG if size is too small. */
int ios_bench_lock_path(unsigned major, unsigned minor, char *buf, size_t size);
/*
 * 1 while a live iosched-bench running as root holds the disk's lock (its
 * pid in *ret_pid), 2 while its guard (a root process named iosched-guard)
 * holds it to put the disk back after the bench was killed, 0 when none
 * does, or a negative errno.  Only a root-owned 0600 regular file counts,
 * and only if the flock holder (proc/locks; else the pids in the file,
 * "BENCH [GUARD START]") is such a process.  Under r's root.
 */
int ios_bench_lock_holder(struct ios_ctx *r, unsigned major, unsigned minor, long *ret_pid);

/* ---- scheduler.c, tunables.c: the scheduler file; what a policy may set, types and ranges ---- */

/*
 * Parse the contents of queue/scheduler ("none [mq-deadline] kyber \n").
 * ret_current gets the bracketed name, or NULL when there is none (bio-based
 * queue, or a file without brackets); ret_avail every listed name.
 */
int ios_sched_parse(const char *text, char **ret_current, char ***ret_avail);
/* A scheduler of iosched's table (blk-mq and legacy names). */
bool ios_sched_name_known(const char *name);
#define IOS_SCHED_LEGACY  1u    /* a single-queue scheduler (kernels before 5.0) */
#define IOS_SCHED_MODULAR 2u    /* blk-mq, may be a module the kernel loads on write */
/* The table's i-th scheduler and its IOS_SCHED_* flags (ret_flags may be NULL); NULL past the end. */
const char *ios_sched_nth(size_t i, unsigned *ret_flags);
/* The name the other queue family uses ("noop" <-> "none", kyber -> cfq), or NULL. */
const char *ios_sched_alias(const char *name, bool want_legacy);
/* Could be a scheduler's name in the kernel (out-of-tree ones included). */
bool ios_sched_name_valid(const char *name);
/* Whether the table knows sched's queue/iosched/ files ("none" has none). */
bool ios_sched_tunables_known(const char *sched);
/* Whether scheduler sched has the queue/iosched/ file tunable. */
bool ios_iosched_tunable_of(const char *sched, const char *tunable);
/* "queue/nr_requests", "queue/iosched/read_expire": a key a policy may set. */
bool ios_tunable_known(const char *key);
/*
 * Check value against key's type and range: 0, -ENOENT (unknown key),
 * -EINVAL (not of the type) or -ERANGE, with one line in msg.
 */
int ios_tunable_check(const char *key, const char *value, char *msg, size_t msglen);

/* ---- names.c: the class and zoned model of a disk, and their spellings ---- */

enum ios_class {
        IOS_CLASS_HDD,
        IOS_CLASS_SSD,
        IOS_CLASS_NVME,
        IOS_CLASS_RAID,
        IOS_CLASS_VIRTUAL,
        IOS_CLASS_MMC,
        IOS_CLASS_USB,
        IOS_CLASS_DM,
        IOS_CLASS_MD,
        IOS_CLASS_LOOP,
        IOS_CLASS_ZRAM,
        IOS_CLASS_NBD,
        IOS_CLASS_OTHER,
        IOS_CLASS_MULTIPATH,            /* request-based dm-multipath (dm/uuid "mpath-") */
        IOS_CLASS_OPTICAL,              /* CD/DVD/BD drive: a removable-media drive, not a disk */
        IOS_CLASS_FLOPPY,               /* floppy drive: a removable-media drive, not a disk */
        IOS_CLASS_RAM,                  /* RAM-backed: brd ram*, pmem*, scsi_debug */
        IOS_CLASS_ARRAY,                /* a LUN of an external storage array (FC, iSCSI, SAS) */
        _IOS_CLASS_MAX,
        _IOS_CLASS_INVALID = -EINVAL,
};
const char *ios_class_to_string(enum ios_class c);
/* Optical and floppy: removable-media drives, counted apart from disks. */
bool ios_class_is_media_drive(enum ios_class c);

enum ios_zoned {
        IOS_ZONED_NONE,
        IOS_ZONED_HOST_AWARE,
        IOS_ZONED_HOST_MANAGED,
        _IOS_ZONED_MAX,
        _IOS_ZONED_INVALID = -EINVAL,
};
const char *ios_zoned_to_string(enum ios_zoned z);

/* ---- device.c: a whole disk (lookup, life); enumerate.c: every disk ---- */

/* udevdb.c: udev properties from run/udev/data/b<maj>:<min> */
struct ios_props {
        char **kv;      /* "KEY=value" strings, NULL-terminated */
};
struct ios_device {
        struct ios_ctx *ctx;           /* borrowed */
        char *name;                     /* kernel name: "sda", "cciss!c0d0" */
        unsigned major, minor;
        char *syspath;                  /* canonical, inside the root */
        int fd;                         /* directory fd of syspath */

        /* Facts (probe-queue.c, probe-bus.c, classify.c). Strings may be NULL. */
        enum ios_class cls;
        int rotational;                 /* 0, 1, or -1 when unknown */
        enum ios_zoned zoned;
        int removable;                  /* 0, 1, or -1 */
        bool hidden;                    /* NVMe multipath path node */
        bool no_dev;                    /* no dev file in sys/block/<name>: no dev_t (listed, warned) */
        int scsi_type;                  /* SCSI peripheral type (0 disk, 5 CD/DVD), -1 unknown */
        bool blk_mq;
        unsigned nr_hw_queues;
        uint64_t size;                  /* bytes */
        char *tran;                     /* lsblk-style transport */
        char *driver;                   /* controller driver (SCSI host proc_name, ...) */
        char *pci_id;                   /* "1000:0079" of the controller */
        char *vendor, *model, *serial, *wwn;
        char *hctl;                     /* SCSI H:C:T:L, NULL if not SCSI */
        char *subtype;                  /* dm uuid prefix, md level, mmc type, nvme transport */
        char *ctrl_path;                /* canonical controller (PCI function) dir, or NULL */
        char *pci_class;                /* "010400" */
        char *sched_current;            /* NULL: no scheduler choice */
        char **sched_avail;             /* offered by the kernel */
        char **evidence;                /* why cls was chosen, in order */
        /* multipath.c: dm-multipath, both ways */
        bool mpath_path;                /* a path of a dm-multipath device (its scheduler is bypassed) */
        char *mpath_holder;             /* that device ("dm-2"), NULL when only udev says so */
        char **mpath_paths;             /* a multipath device: its paths, "sdb" */
        enum ios_class *mpath_path_cls; /* and their classes */
        int mpath_kernel_rotational;    /* its own queue/rotational before the paths decided */
        struct ios_props props;         /* udev database */
};

/*
 * Look up one whole disk by kernel name ("sda"), device node ("/dev/sda", a /dev/disk/by-*
 * link), "MAJ:MIN", or partition (its parent disk is returned), read its facts and classify
 * it.  Returns -ENODEV if no such block device exists.
 */
int ios_device_new(struct ios_ctx *r, const char *name, struct ios_device **ret);
struct ios_device *ios_device_free(struct ios_device *d);

/* Every whole disk in sys/block, in natural name order. */
int ios_device_enumerate(struct ios_ctx *r, struct ios_device ***ret, size_t *ret_n);
/* The disk whose lookup made the last ios_device_enumerate() fail ("sda"), or NULL. */
const char *ios_ctx_failed_disk(const struct ios_ctx *r);
void ios_device_list_free(struct ios_device **l, size_t n);

/* probe-queue.c: re-read the scheduler fields (after a write). */
int ios_device_refresh_sched(struct ios_device *d);

/* ---- policy.c: the policy, which rules match a disk, what it gets ---- */

struct ios_policy;

/* Built-in policy only (no files). */
int ios_policy_new_builtin(struct ios_policy **ret);
/* The built-in rules as policy text; its line N is the source "built-in:N". */
const char *ios_policy_builtin_text(void);
/* Whether p holds the built-in rules (not loaded with IOS_POLICY_NO_BUILTIN). */
bool ios_policy_has_builtin(const struct ios_policy *p);
struct ios_policy *ios_policy_free(struct ios_policy *p);
/* Files read, in order (for logs and inotify watches). */
char * const *ios_policy_files(const struct ios_policy *p);
/*
 * Sources ("file:line") of the rules from files whose [Match] holds for
 * none of devs (built-in rules are not listed).
 */
int ios_policy_unmatched(const struct ios_policy *p, struct ios_device * const *devs, size_t n,
                         char ***ret);
/* [Daemon] DriftInterval= in milliseconds, 0 = drift enforcement off. */
uint64_t ios_policy_drift_interval_ms(const struct ios_policy *p);
/*
 * What ios_device_new() must read for the policy's rules to match: the one
 * decision of the probe flags from a policy (IOS_PROBE_EXTRA when a rule
 * matches on size or removable), for ios_ctx_set_probe().
 */
unsigned ios_policy_probe_flags(const struct ios_policy *p);

/* One setting the policy wants for a disk. */
struct ios_setting {
        char *key;              /* "scheduler", "queue/nr_requests", "queue/iosched/read_expire" */
        char *value;            /* wanted; for the scheduler the preference list as written */
        char *source;           /* "file:line" or "built-in" */
};

/*
 * A setting held: left as the disk has it because a policy file that names
 * it for this disk has an error (its rule, and every earlier one, do not
 * count for that setting; a later file's rule still does).
 */
struct ios_held {
        char *key;              /* "scheduler", "queue/read_ahead_kb"; "*": every setting */
        char *source;           /* "file:line" of the error */
        size_t error;           /* its index in ios_policy_errors() */
};

/* The merged settings for one disk (every matching rule, later overriding earlier). */
struct ios_wanted {
        struct ios_setting *s;
        size_t n, cap;          /* cap: room in s (ios_grow) */
        char **notes;           /* e.g. the zoned safety rule overriding a rule */
        struct ios_held *held;  /* what a broken file holds on this disk */
        size_t nheld, capheld;
};
int ios_policy_resolve(const struct ios_policy *p, const struct ios_device *d, struct ios_wanted *ret);

/* wanted.c: a settings list, one setting per key */
/* key's setting in w (w may be NULL), or NULL. */
const struct ios_setting *ios_wanted_get(const struct ios_wanted *w, const char *key);
/* key's value in w (w may be NULL), or NULL. */
const char *ios_wanted_value(const struct ios_wanted *w, const char *key);
/*
 * Add key with copies of value and source (either may be NULL), or, when w
 * has key, replace its value and source where it stands.  0, or -ENOMEM
 * with w as it was.
 */
int ios_wanted_set(struct ios_wanted *w, const char *key, const char *value, const char *source);
/* Drop key's setting (NULL: every one); the last setting takes its place. */
void ios_wanted_unset(struct ios_wanted *w, const char *key);
/* A copy of from's settings into to (its notes and holds are not copied). */
int ios_wanted_copy(const struct ios_wanted *from, struct ios_wanted *to);
/* Free everything w holds, settings, notes and holds; w is empty after. */
void ios_wanted_done(struct ios_wanted *w);

/* ---- conf.c: the policy file format ---- */

/* Where a problem is: config errors name file:line. */
struct ios_error {
        char file[256];
        unsigned line;
        char msg[512];
        int code;               /* -errno, in ios_policy_errors() */
        /*
         * In ios_policy_errors(): what the file (or directory) would match
         * cannot be known (unreadable, refused, a [Match] with an error):
         * while it stands no disk is changed at all.  Else its rules hold,
         * on the disks they match, the settings they name (struct ios_held).
         */
        bool holds_all;
        bool holds_nothing;     /* its rules name no setting (a [Match] without [Set]): nothing to hold */
};

/*
 * The limits of a policy file, said in iosched.conf(5): a larger file, or a
 * longer line (without its newline), is refused whole with -EFBIG at
 * file:line; parsing is linear in the size of the text.
 */
#define IOS_POLICY_FILE_MAX (1u << 20)
#define IOS_POLICY_LINE_MAX (64u * 1024u)
/* "500ms", "30s", "2min", "0"/"off" (a DriftInterval= value) -> milliseconds. */
int ios_parse_interval_ms(const char *s, uint64_t *ret);

/* ---- policy-files.c: where the policy is read from, what is skipped ---- */

/*
 * Load built-in defaults, then /etc/iosched.conf, then every *.conf of /usr/lib/iosched (vendor),
 * /etc/iosched.d and /run/iosched.d in the byte order of their names, whatever the directory (a
 * file in a later directory masks a same-named earlier one).  conf_root prefixes those paths (NULL =
 * "/").  With file set, only built-in defaults plus that file are read.  Files writable by group or
 * others, or not owned by root (unless IOS_POLICY_ANY_OWNER), are refused.  A file that does not
 * parse gives no rule, but holds (struct ios_held) on the disks its [Match] selects every setting
 * it names; a file that cannot be read or is refused, a refused directory, or a [Match] with an
 * error holds everything (holds_all).  Returns 0 with those files in ios_policy_errors() (the first
 * also in err), or -ENOMEM.
 */
enum {
        IOS_POLICY_ANY_OWNER = 1 << 0,  /* tests: accept files not owned by root */
        IOS_POLICY_NO_BUILTIN = 1 << 1, /* start from an empty policy */
};
int ios_policy_load(const char *conf_root, const char *file, unsigned flags,
                    struct ios_policy **ret, struct ios_error *err);
/*
 * Where ios_policy_load() reads, the one owner of those paths: the files read by name (conf_root's
 * /etc/iosched.conf, or just file when given) and the drop-in directories whose
 * IOS_POLICY_DROPIN_GLOB files are read (conf_root's vendor directory, /etc/iosched.d,
 * /run/iosched.d; none when file is given), each in order, whether they exist or not.
 */
#define IOS_POLICY_DROPIN_GLOB "*.conf"
int ios_policy_search_paths(const char *conf_root, const char *file, char ***ret_files, char ***ret_dirs);
/*
 * policy-dropin.c: --drop-in NAME=FILE.  FILE stands in for the drop-in NAME (a *.conf name, no
 * path): it replaces a drop-in of that name in any policy directory, or is added as if it were in
 * /etc/iosched.d; FILE /dev/null removes NAME.  FILE is then read and checked like every policy
 * file.  ios_policy_load_dropins() is ios_policy_load() with such overrides (none with file set:
 * only built-in and that file are read).
 */
struct ios_dropin {
        char *name;             /* "60-perc.conf" */
        char *file;             /* "/tmp/cand.conf", "/dev/null" */
};
/* "NAME=FILE": 0, -EINVAL (no '=', empty, NAME not a *.conf name or with a '/'), -ENOMEM. */
int ios_dropin_parse(const char *arg, struct ios_dropin *ret);
void ios_dropin_done(struct ios_dropin *d);
int ios_policy_load_dropins(const char *conf_root, const char *file, unsigned flags,
                            const struct ios_dropin *ov, size_t nov, struct ios_policy **ret, struct ios_error *err);
/* "file:line", or "file" for an error not on a line, in buf. */
const char *ios_error_where(const struct ios_error *e, char *buf, size_t n);
/* Files and directories skipped whole, each with file:line, message and -errno. */
const struct ios_error *ios_policy_errors(const struct ios_policy *p, size_t *ret_n);
/* Diagnostics that did not stop a file from loading: "file:line: message". */
char * const *ios_policy_warnings(const struct ios_policy *p);

/* ---- apply.c: plan (current vs wanted), check, apply ---- */

enum ios_change_state {
        IOS_CHANGE_OK,          /* already as wanted */
        IOS_CHANGE_DRIFT,       /* differs (plan/check) */
        IOS_CHANGE_APPLIED,     /* written and read back as wanted */
        IOS_CHANGE_FAILED,      /* refused, or the kernel kept another value: error, msg */
        IOS_CHANGE_SKIPPED,     /* not applicable (tunable of another scheduler, not offered) */
        IOS_CHANGE_NOT_APPLIED, /* not reached: an earlier write failed (msg says why) */
};

struct ios_change {
        char *key;
        char *current;          /* found before (NULL: not known until the switch) */
        char *wanted, *source;
        char *after;            /* read back after the write (apply only) */
        enum ios_change_state state;
        int error;              /* -errno when FAILED (-EINVAL: refused or not kept) */
        char *msg;              /* one clear line when FAILED, SKIPPED or NOT_APPLIED */
};

struct ios_plan {
        struct ios_device *dev;         /* borrowed */
        struct ios_change *c;
        size_t n, cap;          /* cap: room in c (ios_grow) */
        char **notes;
        int error;              /* first -errno of a failed write, or of planning */
        char *error_msg;
        char **sched_prefs;     /* the policy's scheduler preference list */
        struct ios_held *held;  /* from the ios_wanted: settings a broken file holds */
        size_t nheld;
};

/*
 * The one owner of how settings reach the kernel.  A plan lists, in the
 * only order the kernel allows, what a disk has and what is wanted: the
 * scheduler first (a switch rebuilds queue/iosched/ and resets
 * nr_requests), then queue/nr_requests, the other queue/ attributes, and
 * last the queue/iosched/ tunables of the scheduler that ends up active.
 */
/* Compute what the policy would change; reads only. */
int ios_plan_build(const struct ios_policy *p, struct ios_device *d, struct ios_plan *ret);
/* The same for a given list of settings ("scheduler" holds a preference list). */
int ios_plan_from_settings(struct ios_device *d, const struct ios_wanted *w, struct ios_plan *ret);
/*
 * Write every DRIFT change in order and read each back: APPLIED only when
 * the kernel shows the wanted value, else FAILED with both values.
 * Returns 0 or the first -errno.
 */
int ios_plan_apply(struct ios_plan *plan);
/*
 * Whether a write of by makes d's kernel reset key to a value of its own
 * ("queue/nr_requests" resets "queue/iosched/async_depth"; on 6.11+ a queue-limits
 * write recomputes "queue/read_ahead_kb"); every kernel the table names when d's is unknown.
 */
bool ios_tunable_reset_on(struct ios_device *d, const char *key, const char *by);
/*
 * Whether d's kernel will refuse value for the queue file key once the
 * queue's scheduler is sched_after (NULL or "none": none), by the bounds
 * the disk sets (nr_requests and the tag depth, max_sectors_kb and
 * max_hw_sectors_kb ...), the rule apply and --dry-run use: 1 with the
 * bound in why ("at most 128 without a scheduler ..."), 0 when it takes
 * it or cannot tell.
 */
int ios_tunable_refused(struct ios_device *d, const char *key, const char *value, const char *sched_after,
                        char *why, size_t whylen);
/*
 * The one spelling of a change: "key: before -> after (source)", before
 * "(default)" when unknown ("(after switch)" for a planned one), after the
 * value read back when applied, else the wanted one.  Returns buf.
 */
const char *ios_change_line(const struct ios_change *c, char *buf, size_t n);
/* Number of changes in a state. */
size_t ios_plan_count(const struct ios_plan *plan, enum ios_change_state state);
/* No error, and nothing drifting, failed or not applied. */
bool ios_plan_compliant(const struct ios_plan *plan);
void ios_plan_done(struct ios_plan *plan);

/* ---- snapshot.c: a disk's scheduler state, to put back later ---- */

/*
 * The scheduler and every readable, writable attribute of queue/ and
 * queue/iosched/, as settings (source "saved") that ios_plan_from_settings()
 * turns into the plan that restores them.
 */
int ios_snapshot_take(struct ios_device *d, struct ios_wanted *ret);

/* ---- writers*.c: who else writes a disk's queue attributes ---- */

/* Another writer of a queue attribute: TuneD's [disk]/[sysfs] keys (writers-tuned.c), a udev rule's
 * ATTR{queue/...} or RUN that drops iosched's rule (writers-udev.c).  Values as written. */
enum ios_writer_op { IOS_WRITER_SET, IOS_WRITER_MULTIPLY /* readahead_multiply */, IOS_WRITER_RUN_FINAL };
struct ios_writer {
        char *kind, *name;      /* "tuned" or "udev"; the TuneD profile, NULL for udev */
        char *devglob;          /* disks it is limited to (devices=, KERNEL==, /sys/block/GLOB), NULL: all */
        char *key, *value;      /* "queue/scheduler", ...; "*" for RUN_FINAL */
        char *file; unsigned line;      /* where (with conf_root) */
        enum ios_writer_op op; bool final;      /* final: udev ":=" */
};
struct ios_writers {
        struct ios_writer *w;
        size_t n, cap;          /* cap: room in w (ios_grow) */
        struct ios_udev_rules *udev;    /* the rules' matches and flow */
};
/* Every writer under conf_root (NULL: "/"): its TuneD profile and udev rules directories. */
int ios_writers_scan(const char *conf_root, struct ios_writers *ret);
/* Whether w writes key (NULL: any) of disk dev by its name alone (devices=, KERNEL==). */
bool ios_writer_applies(const struct ios_writer *w, const char *dev, const char *key);
enum ios_writer_verdict { IOS_WRITER_NO, IOS_WRITER_YES, IOS_WRITER_MAYBE /* a key not evaluated */ };
/* why: for MAYBE, the key not evaluated ("ATTRS{vendor}"), borrowed from ws */
struct ios_writer_eval { enum ios_writer_verdict verdict; const char *why; };
/* Each writer of ws against disk d (writers-udev.c says which keys are evaluated); ret: ws->n, malloc'd. */
int ios_writers_eval(const struct ios_writers *ws, struct ios_device *d, struct ios_writer_eval **ret);
/* "TuneD profile P sets queue/scheduler=bfq (FILE:LINE)", "udev rule sets ATTR{K}="V" (FILE:LINE)" */
const char *ios_writer_line(const struct ios_writer *w, char *buf, size_t n);
void ios_writers_done(struct ios_writers *w);

/* The root's kernel release (host: uname(); a tree: proc/sys/kernel/osrelease), malloc'd; NULL: unknown */
char *ios_ctx_kernel_release(struct ios_ctx *r);
/* Parse one file's text (name is used in errors and sources). */
int ios_policy_parse(struct ios_policy *p, const char *name, const char *text, struct ios_error *err);
#endif
