/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fioproc.c: the life of every fio process iosched-bench starts (the run
 * in fio.c, fio's own readings in fiocapture.c).  Between fork and exec
 * the child takes a process group of its own, the parent-death signal
 * (checked against a parent already gone), the run's cgroup (runcg.c)
 * and an IPC namespace of its own, so that fio and the jobs it forks into
 * sessions of their own are reached by cgroup.kill, by the guard after a
 * kill -9 (told the group: guard.c), and by the end below on every way
 * out (the fork puts fio in a PID namespace of its own:
 * bench_fio_proc_fork()); and what they make in System V IPC ends with
 * the last of them
 * (fio marks its mem=shm buffer for removal only when it frees it, so a
 * killed fio would leave it on the machine until a reboot; the
 * namespace's end removes it).  Without the right to make one (not root:
 * EPERM; a kernel without IPC namespaces: EINVAL) fio shares the bench's.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fio.h"
#include "guard.h"
#include "iosched.h"
#include "macro.h"

/*
 * fio's environment: iosched-bench's, with TMPDIR the root-only directory
 * of the benchmark's locks.  While jobs run, fio removes
 * $TMPDIR/fio-dump-status, /tmp's where TMPDIR is unset, and prints its
 * running figures into the report when there was one (stat.c
 * check_status_file()): where any user may make that file, fio removed
 * it, run by root, and every run's JSON was spoiled.  Only root makes a
 * file in /run.  Built once, in the parent: the child only reads it.
 */
char **bench_fio_environ(void)
{
        static char **env;
        size_t n = 0, k = 0;
        char **v;

        if (env)
                return env;
        for (char **e = environ; *e; e++)
                n++;
        v = calloc(n + 2, sizeof(*v));
        if (!v)
                return NULL;
        for (char **e = environ; *e; e++)
                if (strncmp(*e, "TMPDIR=", 7) != 0)
                        v[k++] = *e;
        v[k] = (char *)"TMPDIR=" IOS_BENCH_LOCK_DIR;
        return env = v;
}

/* the children iosched-bench had before it became a subreaper (its caller's, across exec; the guard) */
static pid_t inherited[1024];
static size_t ninherited;
static bool subreaper;

int bench_fio_proc_subreaper(void)
{
        if (subreaper)
                return 0;
        ninherited = bench_proc_children(getpid(), inherited, ELEMENTSOF(inherited));
        if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
                return -errno;
        subreaper = true;
        return 0;
}

/*
 * fork() with the child in a PID namespace of its own, where it is pid 1:
 * fio and all it starts see, and so reach by a pid, a process group or a
 * user, only the run's processes (setpriority, ioprio_set, prlimit,
 * sched_setaffinity and the rest on a process outside, or PRIO_USER over
 * all of root's: the kernel skips a process the caller's namespace does
 * not see), and all of them end with fio (the kernel kills a namespace's
 * processes when its first one ends).  The bench's own later children
 * (the guard) and threads stay in its namespace.  Without the right (not
 * root: EPERM) or the namespaces (EINVAL), a plain fork().
 */
pid_t bench_fio_proc_fork(void)
{
        static int own = -2;    /* the bench's PID namespace, to go back to after the fork */
        pid_t pid;
        int e;

        if (own == -2)
                own = open("/proc/self/ns/pid", O_RDONLY | O_CLOEXEC);
        if (own < 0 || unshare(CLONE_NEWPID) < 0)
                return fork();
        pid = fork();
        if (pid == 0)
                return 0;       /* pid 1 of the namespace, whose children are born in it too */
        e = errno;
        if (setns(own, CLONE_NEWPID) < 0) {
                /* never seen: the bench's own namespace is always its to go back to */
                e = errno;
                if (pid > 0) {
                        (void)kill(pid, SIGKILL);
                        (void)waitpid(pid, NULL, 0);
                }
                pid = -1;
        }
        errno = e;
        return pid;
}

int bench_fio_proc_enter(pid_t parent, const char **step)
{
        setpgid(0, 0);
        signal(SIGPIPE, SIG_DFL);
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0) {
                *step = "set the parent-death signal";
                return -errno;
        }
        /* the parent gone before the signal was set; in a PID namespace of its own (0) the parent is
         * not seen, and the run's cgroup, which the guard ends, holds the child */
        if (getppid() != parent && getppid() != 0)
                return -ECHILD;
        if (bench_runcg_join() < 0) {   /* fio and all it starts in the run's cgroup (runcg.c) */
                *step = "join the run's cgroup";
                return -errno;
        }
        if (unshare(CLONE_NEWIPC) < 0 && errno != EPERM && errno != EINVAL) {
                *step = "make fio's IPC namespace";
                return -errno;
        }
        return 0;
}

void bench_fio_proc_started(pid_t pid)
{
        setpgid(pid, pid);
        bench_guard_fio(pid);
}

static bool was_inherited(pid_t pid)
{
        for (size_t i = 0; i < ninherited; i++)
                if (inherited[i] == pid)
                        return true;
        return false;
}

/*
 * What fio's processes left behind them (a daemon a job forked, in a
 * session of its own): orphans come to iosched-bench, a child subreaper
 * (set before fio starts), not to init, and are killed and reaped here,
 * their own orphans in turn, a chain of any depth; not the guard, nor a
 * child iosched-bench had before (a caller's, across exec: such a pid,
 * alive or a zombie, is never reaped here, so never another's).  All that
 * is bounded by 10 s in all: those the kill cannot end at once (in
 * uninterruptible sleep) are then left.
 * Where the run has a cgroup, cgroup.kill has ended them already.
 */
static void end_orphans(void)
{
        pid_t kids[1024], guard = bench_guard_pid();
        uint64_t end = bench_clock_gettime_ns() + 10000000000ull;

        while (bench_clock_gettime_ns() < end) {
                size_t n = bench_proc_children(getpid(), kids, ELEMENTSOF(kids)), k = 0;

                for (size_t i = 0; i < n; i++)
                        if (kids[i] != guard && !was_inherited(kids[i]) && kill(kids[i], SIGKILL) == 0)
                                kids[k++] = kids[i];
                if (k == 0)
                        return;
                for (size_t i = 0; i < k; i++)
                        for (;;) {
                                pid_t w = waitpid(kids[i], NULL, WNOHANG);

                                if (w != 0 && !(w < 0 && errno == EINTR))
                                        break;
                                if (bench_clock_gettime_ns() >= end)
                                        return;
                                usleep(10000);
                        }
        }
}

/* Has fio ended (not reaped yet)? */
bool bench_fio_proc_exited(pid_t pid)
{
        siginfo_t si = { .si_pid = 0 };

        return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid;
}

/* Does a process other than a zombie remain in process group pgid (proc/N/stat: state, pgrp)? */
static bool group_alive(pid_t pgid)
{
        DIR *d = opendir("/proc");
        struct dirent *de;
        bool alive = false;

        if (!d)
                return false;
        while (!alive && (de = readdir(d))) {
                char buf[512], state;
                int pgrp;

                if (de->d_name[0] < '1' || de->d_name[0] > '9')
                        continue;
                alive = bench_proc_stat((pid_t)atoi(de->d_name), buf, sizeof(buf)) == 0 &&
                        sscanf(buf, "%c %*d %d", &state, &pgrp) == 2 && pgrp == pgid && state != 'Z';
        }
        closedir(d);
        return alive;
}

/* fio's job processes, each in a session of its own (fio's setsid): killed with their groups */
static void kill_jobs(pid_t pid)
{
        pid_t kids[1024];
        size_t n = bench_proc_children(pid, kids, ELEMENTSOF(kids));

        for (size_t i = 0; i < n; i++) {
                kill(-kids[i], SIGKILL);
                kill(kids[i], SIGKILL);
        }
}

/*
 * fio has ended (or is made to: TERM, then KILL after grace_ms), and
 * whatever is left of its process group is killed while fio is not yet
 * reaped (its group id cannot be anyone else's until then); then reaped.
 */
void bench_fio_proc_end(pid_t pid, bool term, unsigned grace_ms, int *status)
{
        siginfo_t si;

        if (term && grace_ms)
                kill(-pid, SIGTERM);
        for (unsigned i = 0; term && i < grace_ms / 100 && !bench_fio_proc_exited(pid); i++)
                usleep(100000);
        if (term && !bench_fio_proc_exited(pid)) {
                kill_jobs(pid);      /* while fio lives: its children are still its own */
                kill(-pid, SIGKILL);
        }
        /* a fio run through a wrapper: the real fio, in the group, ends its jobs on TERM too */
        for (int i = 0; term && i < 20 && group_alive(pid); i++)
                usleep(50000);
        while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
                ;
        (void)bench_runcg_kill();       /* whatever fio left, in any session */
        kill(-pid, SIGKILL);
        while (waitpid(pid, status, 0) < 0 && errno == EINTR)
                ;
        end_orphans();
        bench_guard_fio(0);
}
