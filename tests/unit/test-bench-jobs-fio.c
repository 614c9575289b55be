/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: fio job files and command lines as admins write them
 * (issue 22): the unsupported-option contract (every fio option or value
 * the native engine lacks collected with FILE:LINE in g->unsupported,
 * -EOPNOTSUPP with all of them in one message; a real error is -EINVAL and
 * wins), name=/description= in [global], thread(s), the sync and pvsync
 * engines, random_generator=lfsr, bssplit=, random_distribution=, filesize=,
 * fio's reporting options accepted into g->ignored, the default JOBNAME.N.0
 * files, --readonly, and the table of fio's option names.  Issue 27: the
 * command line's settings as understood for fio (the space form
 * "--filename DEV" is filename=DEV, not a job file), fio's names for a
 * job's files, its aliases, and the engines a job file makes fio load.
 * The directions of rw= by fio's table (bench_fio_ddir()), and the bytes
 * a read job's file must hold (offset=, offset_increment= with numjobs,
 * shares of the file's size, file_append=).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../src/bench/bench.h"
#include "../../src/bench/jobs.h"
#include "../../src/bench/fio/fioread.h"
#include "strv.h"

static char jobfile[64];

static void write_jobfile(const char *text)
{
        int fd;

        strcpy(jobfile, "/tmp/test-bench-jobs-fio.XXXXXX");
        fd = mkstemp(jobfile);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
        close(fd);
}

/* Parse argv (NULL-terminated, after the program name) into o. */
static int parse(struct bench_opts *o, struct bench_error *e, ...)
{
        char *argv[32];
        int argc = 0, r;
        va_list ap;
        FILE *out = fopen("/dev/null", "we");

        argv[argc++] = (char *)"iosched-bench";
        va_start(ap, e);
        for (char *a; (a = va_arg(ap, char *)) && argc < 31;)
                argv[argc++] = a;
        va_end(ap);
        argv[argc] = NULL;
        bench_opts_init(o);
        memset(e, 0, sizeof(*e));
        r = bench_opts_parse(argc, argv, o, out, e);
        fclose(out);
        return r;
}

static void test_unsupported_all_at_once(void **state)
{
        struct bench_opts o;
        struct bench_error e;
        char want[5][256];

        (void)state;
        write_jobfile("; an admin's job file\n"
                      "[global]\n"
                      "verify=crc32c\n"
                      "ioengine=libaio\n"
                      "\n"
                      "[writer]\n"
                      "rw=randwrite\n"
                      "zonemode=zbd\n"
                      "ioengine=posixaio\n"
                      "rw=randtrim\n");
        assert_int_equal(parse(&o, &e, "--filename=/dev/null", "--flow=2", "--section", "writer", jobfile, NULL),
                         -EOPNOTSUPP);
        assert_int_equal(e.cls, BENCH_ERR_USAGE);
        snprintf(want[0], sizeof(want[0]), "%s:3: verify=crc32c", jobfile);
        snprintf(want[1], sizeof(want[1]), "%s:8: zonemode=zbd", jobfile);
        snprintf(want[2], sizeof(want[2]), "%s:9: ioengine=posixaio", jobfile);
        snprintf(want[3], sizeof(want[3]), "%s:10: rw=randtrim", jobfile);
        /* the command line's first (job files are read at the end), then the file's in order */
        assert_non_null(o.unsupported);
        assert_int_equal(ios_strv_length(o.unsupported), 6);
        assert_string_equal(o.unsupported[0], "--flow=2");
        assert_string_equal(o.unsupported[1], "--section=writer");
        for (int i = 0; i < 4; i++) {
                assert_string_equal(o.unsupported[2 + i], want[i]);
                assert_non_null(strstr(e.msg, want[i]));
        }
        assert_true(strncmp(e.msg, "the native engine does not implement: --flow=2, --section=writer, ", 66) == 0);
        assert_null(strchr(e.msg, '\n'));
        bench_opts_done(&o);
        unlink(jobfile);

        /* a real error (a bad value of an option we have) is -EINVAL with FILE:LINE, even after unsupported ones */
        write_jobfile("[a]\nverify=md5\nbs=huge\nflow=1\n");
        assert_int_equal(parse(&o, &e, "--filename=/dev/null", jobfile, NULL), -EINVAL);
        assert_non_null(strstr(e.msg, ":3: invalid bs 'huge'"));
        bench_opts_done(&o);
        /* an option neither we nor fio know is -EINVAL too */
        assert_int_equal(parse(&o, &e, "--filename=/dev/null", "--verifyy=md5", NULL), -EINVAL);
        assert_non_null(strstr(e.msg, "unknown option --verifyy"));
        bench_opts_done(&o);
        unlink(jobfile);

        /* a long list is cut in the message, whole in the strv */
        {
                char text[8192] = "[a]\n";

                for (int i = 0; i < 60; i++)
                        strcat(text, "verify=crc32c\n");
                write_jobfile(text);
                assert_int_equal(parse(&o, &e, "--filename=/dev/null", jobfile, NULL), -EOPNOTSUPP);
                assert_int_equal(ios_strv_length(o.unsupported), 60);
                assert_non_null(strstr(e.msg, "... (60 in all)"));
                bench_opts_done(&o);
                unlink(jobfile);
        }
}

static void test_admin_styles(void **state)
{
        struct bench_opts o;
        struct bench_error e;

        (void)state;
        /* fio's examples: name= and description= in [global], threads, reporting options */
        write_jobfile("[global]\n"
                      "name=fio-rand-read\n"
                      "description=random reads; blog style\n"
                      "thread\n"
                      "threads=1\n"
                      "gtod_reduce=1\n"
                      "per_job_logs=0\n"
                      "group_reporting\n"
                      "ioengine=sync\n"
                      "random_generator=lfsr\n"
                      "\n"
                      "[reader]\n"
                      "description=the reader ; fio ends a line at a blank and ';'\n"
                      "size=64m # or '#'\n"
                      "rw=randread\n"
                      "bssplit=4k/60:16k/:64k/\n"
                      "random_distribution=zipf:1.2\n"
                      "[writer]\n"
                      "name=bulk-writer\n"
                      "ioengine=pvsync\n"
                      "rw=write\n"
                      "filesize=64m\n"
                      "end_fsync=1\n"
                      "invalidate=0\n"
                      "refill_buffers\n"
                      "random_distribution=pareto:0.9\n");
        assert_int_equal(parse(&o, &e, "--filename=/dev/null", "--eta-newline=1", "--allow-write", jobfile, NULL), 0);
        assert_null(o.unsupported);
        assert_int_equal(o.njobs, 2);
        assert_string_equal(o.jobs[0].name, "reader");           /* fio: [global]'s name names no job */
        assert_string_equal(o.jobs[1].name, "bulk-writer");
        assert_ptr_equal(o.jobs[0].engine, &bench_engine_sync);
        assert_ptr_equal(o.jobs[1].engine, &bench_engine_pvsync);
        assert_int_equal(o.jobs[0].iodepth, 1);
        assert_int_equal(o.jobs[0].rng, BENCH_RNG_LFSR);
        assert_true(o.jobs[0].size.set && o.jobs[0].size.bytes == 64ull << 20);
        assert_int_equal(o.jobs[0].n_bssplit[BENCH_READ], 3);
        assert_int_equal(o.jobs[0].bssplit[BENCH_READ][0].perc, 60);
        assert_int_equal(o.jobs[0].bssplit[BENCH_READ][1].perc, 20);     /* the rest, shared */
        assert_int_equal(o.jobs[0].bssplit[BENCH_READ][2].perc, 20);
        assert_int_equal(o.jobs[0].bssplit[BENCH_WRITE][2].bs, 65536);
        assert_int_equal(o.jobs[0].bs[BENCH_READ], 65536);               /* the slots hold the largest */
        assert_int_equal(o.jobs[0].dist, BENCH_DIST_ZIPF);
        assert_true(o.jobs[0].dist_param == 1.2);
        assert_int_equal(o.jobs[1].dist, BENCH_DIST_PARETO);
        assert_true(o.jobs[1].filesize.set && o.jobs[1].filesize.bytes == 64ull << 20);
        assert_true(o.jobs[1].end_fsync && !o.jobs[1].invalidate && o.jobs[1].refill_buffers);
        assert_true(o.jobs[0].invalidate && !o.jobs[0].refill_buffers);
        assert_true(o.jobs[0].group_reporting);
        assert_int_equal(ios_strv_length(o.ignored), 3);
        assert_string_equal(o.ignored[0], "--eta-newline=1");
        assert_non_null(strstr(o.ignored[1], ":6: gtod_reduce=1"));
        assert_non_null(strstr(o.ignored[2], ":7: per_job_logs=0"));
        bench_opts_done(&o);
        unlink(jobfile);

        /* no filename: fio's JOBNAME.N.0 files, which need a size */
        assert_int_equal(parse(&o, &e, "--name=j", "--size=1m", NULL), 0);
        assert_null(o.jobs[0].filename);
        bench_opts_done(&o);
        assert_int_equal(parse(&o, &e, "--name=j", "--filesize=1m", NULL), 0);
        bench_opts_done(&o);
        assert_int_equal(parse(&o, &e, "--name=j", NULL), -EINVAL);
        assert_non_null(strstr(e.msg, "missing --filename (a block device, a file or a directory), or --size for the files ./j.N.0"));
        bench_opts_done(&o);

        /* --readonly refuses a job that writes */
        assert_int_equal(parse(&o, &e, "--readonly", "--filename=/dev/null", "--rw=randwrite", NULL), -EINVAL);
        assert_non_null(strstr(e.msg, "--readonly: job 'iosched-bench' writes (rw=randwrite)"));
        bench_opts_done(&o);
        assert_int_equal(parse(&o, &e, "--readonly", "--filename=/dev/null", "--rw=randread", NULL), 0);
        bench_opts_done(&o);
}

static void test_values(void **state)
{
        static const struct { const char *arg; int r; } cases[] = {
                { "--bssplit=4k/50:64k/50", 0 },
                { "--bssplit=4k/50:64k/50,8k/100", 0 },
                { "--bssplit=4k", 0 },
                { "--bssplit=4k/60:8k/60", -EINVAL },           /* over 100 */
                { "--bssplit=1000/100", -EINVAL },
                { "--bssplit=4k/x", -EINVAL },
                { "--bssplit=4k/50,8k/50,16k/100", -EOPNOTSUPP },   /* trims */
                { "--random_distribution=random", 0 },
                { "--random_distribution=zipf:0.8", 0 },
                { "--random_distribution=zipf:1", -EINVAL },
                { "--random_distribution=zipf", -EINVAL },
                { "--random_distribution=pareto:0.3", 0 },
                { "--random_distribution=pareto:1", -EINVAL },
                { "--random_distribution=normal:10", 0 },
                { "--random_distribution=normal:101", -EINVAL },
                { "--random_distribution=zipf:1.2:0.5", -EOPNOTSUPP },
                { "--random_distribution=zoned:60/10:40/90", -EOPNOTSUPP },
                { "--random_distribution=cubic:2", -EINVAL },
                { "--random_generator=tausworthe64", 0 },
                { "--random_generator=lfsr", 0 },
                { "--ioengine=sync", 0 },
                { "--ioengine=pvsync", 0 },
                { "--ioengine=mmap", -EOPNOTSUPP },
                { "--rw=randread:8", -EOPNOTSUPP },
                { "--rw=trimwrite", -EOPNOTSUPP },
                { "--filesize=1k-4k", -EOPNOTSUPP },
                { "--filesize=0", -EINVAL },
                { "--end_fsync=1", 0 },
                { "--invalidate=0", 0 },
                { "--refill_buffers", 0 },
                { "--description=words", 0 },
                { "--write_lat_log=lat", -EOPNOTSUPP },         /* asks for log files: fio's */
                /* what fio's own examples use */
                { "--timeout=2", 0 },                           /* fio's alias of runtime */
                { "--fileoffset=4k", 0 },
                { "--allrandrepeat=1", 0 },
                { "--disable_bw=1", 0 },
                { "--offset=0%", 0 },
                { "--size=0%", -EINVAL },
                { "--bs=64", -EOPNOTSUPP },                     /* a size fio does, not ours */
                { "--bs=512,512,16384", -EOPNOTSUPP },          /* trims */
                { "--rate=300,300,300", -EOPNOTSUPP },
                { "--size=8z", -EOPNOTSUPP },                   /* zones */
                { "--size=5*1024*1024", -EOPNOTSUPP },          /* fio's arithmetic */
                { "--bs=$pagesize", -EOPNOTSUPP },
                { "--ioengine=cpp_null", -EOPNOTSUPP },         /* any engine not ours is fio's */
                { "--cpuload=10", -EOPNOTSUPP },                /* an engine's option */
                { "--ratemin=1m", -EOPNOTSUPP },                /* an alias */
                { "--sg_write_mode=verify", -EOPNOTSUPP },
        };
        struct bench_opts o;
        struct bench_error e;

        (void)state;
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                int r = parse(&o, &e, "--filename=/dev/null", cases[i].arg, NULL);

                if (r != cases[i].r)
                        fail_msg("%s: got %d '%s', want %d", cases[i].arg, r, e.msg, cases[i].r);
                bench_opts_done(&o);
        }
}

static void test_fio_names(void **state)
{
        (void)state;
        /* the table is sorted (bsearch finds every one of these) and knows the arguments */
        assert_int_equal(bench_fio_option_arg("verify"), 'v');
        assert_int_equal(bench_fio_option_arg("zonemode"), 'v');
        assert_int_equal(bench_fio_option_arg("allow_file_create"), 'b');
        assert_int_equal(bench_fio_option_arg("zero_buffers"), 'b');
        assert_int_equal(bench_fio_option_arg("eta-newline"), 'v');
        assert_int_equal(bench_fio_option_arg("readonly"), 'b');
        assert_int_equal(bench_fio_option_arg("sqthread_poll"), 'b');
        /* io_uring's and libaio's command priorities take values; cmdprio_hint is fio 3.39's */
        assert_int_equal(bench_fio_option_arg("cmdprio_class"), 'v');
        assert_int_equal(bench_fio_option_arg("cmdprio_hint"), 'v');
        assert_int_equal(bench_fio_option_arg("frobnicate"), 0);
        assert_int_equal(bench_fio_option_arg(""), 0);
        assert_int_equal(bench_fio_option_arg(NULL), 0);
        /* the same table folds aliases and marks fio's program options */
        assert_string_equal(bench_fio_canonical("readwrite"), "rw");
        assert_string_equal(bench_fio_canonical("timeout"), "runtime");
        assert_string_equal(bench_fio_canonical("single-instance"), "single_instance");
        assert_string_equal(bench_fio_canonical("rw"), "rw");
        assert_string_equal(bench_fio_canonical("frobnicate"), "frobnicate");
        assert_int_equal(bench_fio_prog_option("aux-path"), 1);
        assert_int_equal(bench_fio_prog_option("trigger-remote"), 1);
        assert_int_equal(bench_fio_prog_option("output"), -1);
        assert_int_equal(bench_fio_prog_option("merge-blktrace-only"), -1);
        assert_int_equal(bench_fio_prog_option("bs"), 0);
        assert_int_equal(bench_fio_prog_option("frobnicate"), 0);
}

static void test_settings_for_fio(void **state)
{
        struct bench_opts o;
        struct bench_error e;

        (void)state;
        /* the space form, with an option only fio has (the pre-check once read the device as a job file) */
        assert_int_equal(parse(&o, &e, "--filename", "/dev/loop7", "--rw=write", "--size=1m", "--verify", "crc32c",
                               "--readwrite", "randwrite", "--name=b", "--stonewall", NULL), -EOPNOTSUPP);
        assert_null(o.jobfiles);
        assert_non_null(o.fio_settings);
        assert_string_equal(o.fio_settings[0], "filename=/dev/loop7");
        assert_string_equal(o.fio_settings[1], "rw=write");
        assert_string_equal(o.fio_settings[2], "size=1m");
        assert_string_equal(o.fio_settings[3], "verify=crc32c");
        assert_string_equal(o.fio_settings[4], "readwrite=randwrite");
        assert_string_equal(o.fio_settings[5], "name=b");
        assert_string_equal(o.fio_settings[6], "stonewall");
        assert_null(o.fio_settings[7]);
        bench_opts_done(&o);
        assert_int_equal(parse(&o, &e, "--allow-exec", "--target-device=loop3", "--filename=/dev/loop3", NULL), 0);
        assert_true(o.allow_exec);
        assert_string_equal(o.target_device, "loop3");
        bench_opts_done(&o);
        assert_string_equal(bench_fio_canonical("readwrite"), "rw");
        assert_string_equal(bench_fio_canonical("nr_files"), "nrfiles");
        assert_string_equal(bench_fio_canonical("wait_for_previous"), "stonewall");
        assert_string_equal(bench_fio_canonical("filename"), "filename");
}

static void test_fio_file_names(void **state)
{
        char out[256];
        const char *p;

        (void)state;
        assert_int_equal(bench_fio_format_name(NULL, "job", 2, 3, out, sizeof(out)), 0);
        assert_string_equal(out, "job.2.3");
        assert_int_equal(bench_fio_format_name("$JOBNAME-$jobnum/f$filenum", "a", 2, 3, out, sizeof(out)), 0);
        assert_string_equal(out, "a-2/f3");
        /* fio's make_filename(): keyword by keyword, so one in the job name is replaced too */
        assert_int_equal(bench_fio_format_name("$jobname", "a$filenum", 0, 3, out, sizeof(out)), 0);
        assert_string_equal(out, "a3");
        assert_int_equal(bench_fio_format_name("/v$jobname$jobname", "$clientuid$CLIENTUID", 0, 0, out,
                                               sizeof(out)), 0);
        assert_string_equal(out, "/v");
        assert_int_equal(bench_fio_format_name("$filenum$jobname", "$jobnum", 7, 1, out, sizeof(out)), 0);
        assert_string_equal(out, "17");
        assert_true(bench_fio_format_name("$jobname", "x$jobname", 0, 0, out, sizeof(out)) < 0);
        assert_true(bench_fio_format_name("$jobname", "$JobName", 0, 0, out, sizeof(out)) < 0);
        /* fio's get_next_str(): a ':' where an entry would start is skipped, so empty entries are none */
        assert_int_equal(bench_fio_count_parts("a\\:b:c::d"), 3);
        p = bench_fio_next_part("a\\:b:c", out, sizeof(out));
        assert_string_equal(out, "a:b");
        p = bench_fio_next_part(p, out, sizeof(out));
        assert_string_equal(out, "c");
        assert_null(p);
        p = bench_fio_next_part("::/a::/b", out, sizeof(out));
        assert_string_equal(out, "/a");
        p = bench_fio_next_part(p, out, sizeof(out));
        assert_string_equal(out, "/b");
        assert_null(p);
        assert_int_equal(bench_fio_count_parts(":"), 1);        /* get_max_str_idx(): one, empty */
        assert_int_equal(bench_fio_count_parts(""), 0);
        assert_int_equal(bench_fio_count_names(":"), 0);
        assert_int_equal(bench_fio_count_names("a:"), 1);
        assert_int_equal(bench_fio_count_names("::a::b:"), 2);
        assert_int_equal(bench_fio_count_names("a\\::b"), 2);        /* "a:" and "b" */
        bench_fio_dir_entry("/x::/y", 1, out, sizeof(out));
        assert_string_equal(out, "/y");
        bench_fio_dir_entry("/x:/y", 3, out, sizeof(out));
        assert_string_equal(out, "/y");
        bench_fio_dir_entry("/x:/y", 0, out, sizeof(out));
        assert_string_equal(out, "/x");
        bench_fio_dir_part("file", out, sizeof(out));
        assert_string_equal(out, ".");
        bench_fio_dir_part("/d/e/file", out, sizeof(out));
        assert_string_equal(out, "/d/e");
}

/* fio's --debug=file lines: the name each add_file() gives, and nothing from any other line */
static void test_fio_added_names(void **state)
{
        static const struct {
                const char *line, *name;
        } cases[] = {
                { "file     2783  file 0x7fc74f295110 \"/tmp/d/j1.0.0\" added at 0", "/tmp/d/j1.0.0" },
                { "file     12    file 0x1 \"a:b\" added at 17", "a:b" },
                /* a name holding the text itself: the last one ends it */
                { "file 9 file 0x1 \"x\" added at 1\" added at 2", "x\" added at 1" },
                { "file 9 file 0x1 \"\" added at 0", "" },
                /* not fio's line: another debug line, a job's header, a cut line, no number at the end */
                { "file     2783  add file j1.0.0", NULL },
                { "file 1 file 0x1 \"/etc/x\" added at 0: (g=0): rw=read", NULL },
                { "j: (g=0): rw=read, file 0x1 \"/etc/x\" added at 0", NULL },
                { "file 9 file 0x1 \"/etc/x", NULL },
                { "file 9 file 0x1 \"/etc/x\" added at ", NULL },
                { "file x file 0x1 \"/etc/x\" added at 0", NULL },
                { "", NULL },
        };

        (void)state;
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                char *name = bench_fio_added_name(cases[i].line, strlen(cases[i].line));

                if (cases[i].name)
                        assert_string_equal(name, cases[i].name);
                else
                        assert_null(name);
                free(name);
        }
}

static void test_fio_engines(void **state)
{
        struct bench_sset sections = {};
        char *what = NULL;

        (void)state;
        assert_int_equal(bench_fio_engine_runs_code("libaio"), 0);
        assert_int_equal(bench_fio_engine_runs_code("io_uring"), 0);
        assert_int_equal(bench_fio_engine_runs_code("exec"), 1);
        assert_int_equal(bench_fio_engine_runs_code("external:/tmp/x.so"), 1);
        assert_int_equal(bench_fio_engine_runs_code("/tmp/x.so"), 1);
        assert_int_equal(bench_fio_gate("[a]\nioengine=libaio\n[b]\n[a]\n", "t.fio", &what, &sections), 0);
        /* each [name] by its occurrence: [a] twice is two jobs */
        assert_int_equal(sections.n, 3);
        assert_true(bench_sset_has(&sections, "a\n2"));
        assert_false(bench_sset_has(&sections, "b\n2"));
        /* each name counted beside the set (fioset.c), its counts kept as the set grows */
        {
                struct bench_sset c = {};
                char key[16];
                unsigned k = 0;

                assert_int_equal(bench_sset_counted(&c, "x"), 0);
                for (unsigned i = 1; i <= 200; i++) {
                        assert_int_equal(bench_sset_count(&c, "x", &k), 0);
                        assert_int_equal(k, i);
                        snprintf(key, sizeof(key), "k%u", i);
                        assert_int_equal(bench_sset_count(&c, key, &k), 0);
                        assert_int_equal(k, 1);
                }
                assert_int_equal(bench_sset_counted(&c, "x"), 200);
                assert_int_equal(bench_sset_counted(&c, "k7"), 1);
                assert_int_equal(bench_sset_counted(&c, "k201"), 0);
                assert_int_equal(bench_sset_add(&c, "x"), 0);
                assert_int_equal(c.n, 201);
                bench_sset_done(&c);
        }
        assert_int_equal(bench_fio_gate("[m]\n[m]\n[m]\n", "t.fio", &what, &sections), 0);
        assert_true(bench_sset_has(&sections, "m\n3"));
        assert_false(bench_sset_has(&sections, "m\n4"));
        setenv("TEST_ENGINE", "/tmp/evil.so", 1);
        assert_int_equal(bench_fio_gate("[a]\n  ioengine = ${TEST_ENGINE} ; a comment\n", "t.fio", &what,
                                        &sections), 1);
        assert_non_null(strstr(what, "/tmp/evil.so"));
        free(what);
        what = NULL;
        /* fio's arithmetic runs programs; fio's line buffer cuts a long comment line */
        assert_int_equal(bench_fio_gate("[c]\nsize=$mb_memory/2\n", "t.fio", &what, &sections), 1);
        assert_non_null(strstr(what, "sh, which and bc"));
        free(what);
        what = NULL;
        assert_int_equal(bench_fio_gate("[c]\nsize=$mb_memory\nbs=$pagesize\n", "t.fio", &what, &sections), 0);
        {
                char text[9000] = "[d]\n#";

                memset(text + 5, 'c', 8190);
                strcpy(text + 8195, "ioengine=/tmp/x.so\n");
                assert_int_equal(bench_fio_gate(text, "t.fio", &what, &sections), 1);
                free(what);
                what = NULL;
        }
        /* what fio's reading would not show as it is */
        assert_int_equal(bench_fio_gate("[e]\n[global]\nbs=8k\n[f]\n", "t.fio", &what, &sections), -EBADMSG);
        free(what);
        what = NULL;
        assert_int_equal(bench_fio_gate("[g]\nname=h\n[h]\n", "t.fio", &what, &sections), -EBADMSG);
        free(what);
        bench_sset_done(&sections);
}

static bool has(char **list, const char *s)
{
        for (char **p = list; p && *p; p++)
                if (!strcmp(*p, s))
                        return true;
        return false;
}

/* What the model hands the fence (struct bench_fio_access), and every problem at once without leave. */
static void test_model_access(void **state)
{
        char dir[] = "/tmp/test-bench-model.XXXXXX", file[128], fa[160], fb[160], nb0[160], nb1[160];
        char pre[160];
        char cwd[4096], buf[8192] = { 0 };
        struct bench_opts o;
        struct bench_error e;
        struct bench_fio_defs d;
        struct bench_fio f;
        struct bench_target tg;
        int fd;

        (void)state;
        assert_non_null(mkdtemp(dir));
        snprintf(file, sizeof(file), "%s/f", dir);
        fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0600);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, buf, sizeof(buf)), (ssize_t)sizeof(buf));
        close(fd);
        snprintf(fa, sizeof(fa), "--filename=%s", file);
        snprintf(fb, sizeof(fb), "--directory=%s", dir);
        snprintf(nb0, sizeof(nb0), "%s/b.0.0", dir);
        snprintf(nb1, sizeof(nb1), "%s/b.0.1", dir);
        snprintf(pre, sizeof(pre), "%s/a.prerun.txt", dir);
        assert_non_null(getcwd(cwd, sizeof(cwd)));
        assert_int_equal(chdir(dir), 0);       /* where fio writes exec_prerun's output */
        for (int allowed = 1; allowed >= 0; allowed--) {
                int r = allowed ? parse(&o, &e, "--allow-write", "--allow-exec", "--name=a", fa, "--rw=write",
                                        "--exec_prerun=true", "--name=b", fb, "--nrfiles=2", "--size=8k", NULL)
                                : parse(&o, &e, "--name=a", fa, "--rw=write", "--exec_prerun=true", "--name=b", fb,
                                        "--nrfiles=2", "--size=8k", NULL);

                assert_true(r == 0 || r == -EOPNOTSUPP);
                f = (struct bench_fio){};
                tg = (struct bench_target){ .fd = -1 };
                assert_int_equal(bench_fio_read(&o, "/nonexistent/fio", &d, &e), 0);
                assert_int_equal(d.n, 2);
                assert_int_equal(bench_fio_model(&o, &d, NULL, &f, &tg, &e), 0);
                assert_true(f.access.resolved);
                if (allowed) {
                        char s0[200], s1[200];

                        /* b's new files in the run's scratch directory in dir: the only one with rights to
                         * make files */
                        assert_int_equal(d.nproblems, 0);
                        assert_non_null(f.access.create);
                        assert_null(f.access.create[1]);
                        assert_ptr_equal(strstr(f.access.create[0], dir), f.access.create[0]);
                        assert_non_null(strstr(f.access.create[0], "/.iosched-bench."));
                        snprintf(s0, sizeof(s0), "%s/b.0.0", f.access.create[0]);
                        snprintf(s1, sizeof(s1), "%s/b.0.1", f.access.create[0]);
                        assert_true(has(f.created, s0) && has(f.created, s1));
                        assert_false(has(f.created, nb0));
                        assert_string_equal(bench_fio_kv_get(&d.jobs[1].kv, "directory"), f.access.create[0]);
                        assert_true(has(f.access.write, file));
                        /* exec_prerun's output file, made here empty, written by fio alone */
                        assert_true(has(f.access.write, pre));
                        assert_int_equal(access(pre, F_OK), 0);
                        assert_true(has(f.access.exec, "/bin/sh"));
                        assert_true(f.access.allow_exec);
                        assert_true(f.writes);
                } else {
                        /* a's write, a's command, b's new files: all at once */
                        assert_true(has(f.created, nb0) && has(f.created, nb1));
                        assert_int_equal(d.nproblems, 3);
                        assert_null(f.access.write);
                        assert_null(f.access.create);
                        assert_true(has(f.access.read, file));
                }
                bench_fio_defs_done(&d);
                bench_target_close_one(&tg);
                bench_fio_scratch_done(&f);     /* removed: rmdir(dir) below fails otherwise */
                ios_strv_free(f.created);
                ios_strv_free(f.access.read);
                ios_strv_free(f.access.write);
                ios_strv_free(f.access.create);
                ios_strv_free(f.access.exec);
                bench_opts_done(&o);
        }
        assert_int_equal(chdir(cwd), 0);
        unlink(file);
        assert_int_equal(unlink(pre), 0);
        assert_int_equal(rmdir(dir), 0);
}

/* rw='s directions as fio's table has them, matched as fio's parser matches a value */
static void test_ddir(void **state)
{
        enum { R = BENCH_FIO_DDIR_READ, W = BENCH_FIO_DDIR_WRITE, T = BENCH_FIO_DDIR_TRIM };
        static const struct {
                const char *rw;
                unsigned ddir;
        } cases[] = {
                { "read", R }, { "randread", R }, { "randread:8", R }, { "read,x", R }, { "write", W },
                { "randwrite:4k", W }, { "trim", T }, { "randtrim", T }, { "rw", R | W }, { "rw:2", R | W },
                { "readwrite", R | W }, { "randrw", R | W }, { "trimwrite", T | W },
                { "randtrimwrite", T | W },
                /* values fio's table does not have (fio refuses them): every direction */
                { "", R | W | T }, { "Read", R | W | T }, { "readx", R | W | T }, { "rwx", R | W | T },
                { "randreadwrite", R | W | T },
        };

        (void)state;
        assert_int_equal(bench_fio_ddir(NULL), R);
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                if (bench_fio_ddir(cases[i].rw) != cases[i].ddir)
                        fail_msg("rw=%s: %u, not %u", cases[i].rw, bench_fio_ddir(cases[i].rw),
                                 cases[i].ddir);
        }
}

/* The bytes a read job's file must hold, else fio lays it out anew: its start (get_start_offset()) plus
 * its size; 0 with unsure where that start depends on the file's size */
static void test_need(void **state)
{
        static const struct {
                const char *kv[8];
                unsigned nrfiles;
                uint64_t need;
                bool unsure;
                bool share;     /* unsure as the start is a share of the file or its end */
        } cases[] = {
                { { "size", "8k" }, 1, 8192, false, false },
                { { "size", "8k", "offset", "4k" }, 1, 12288, false, false },
                { { "size", "8k", "numjobs", "3", "offset_increment", "4k" }, 1, 16384, false, false },
                { { "size", "8k", "offset", "1k", "numjobs", "2", "offset_increment", "4k" }, 1, 13312,
                  false, false },
                /* one clone: no increment */
                { { "size", "8k", "offset_increment", "4k" }, 1, 8192, false, false },
                /* 10/4, plus the bound of the block more fio gives the first files */
                { { "size", "10", "nrfiles", "4" }, 4, 4, false, false },
                /* filesize=: laid out only below its least, counted from the file's start */
                { { "filesize", "4k-16k", "offset", "1k" }, 1, 4096, false, false },
                { { "filesize", "8k:16k" }, 1, 8192, false, false },
                { { "filesize", "12k", "offset", "4k", "numjobs", "2", "offset_increment", "4k" }, 1, 12288,
                  false, false },
                { { "size", "8k", "offset", "50%" }, 1, 8192, true, true },
                { { "size", "8k", "numjobs", "2", "offset_increment", "10%" }, 1, 8192, true, true },
                { { "size", "8k", "file_append", "1" }, 1, 8192, true, true },
                { { "size", "8k", "file_append", "0", "offset", "2k" }, 1, 10240, false, false },
                { { "size", "8k", "numjobs", "2", "offset_increment", "16e" }, 1, 8192, true, false },
                /* fio's arithmetic, which the checks do not read */
                { { "size", "(8*1024)" }, 1, 0, true, false },
                /* a share of the file: never past it */
                { { "size", "50%", "offset", "50%" }, 1, 0, false, false },
                { { "size", "8k", "size", "50%" }, 1, 0, false, false },
                /* bytes after a share or a zone count leave it in force (options.c str_offset_cb) */
                { { "size", "8k", "offset", "50%", "offset", "0" }, 1, 8192, true, true },
                { { "size", "8k", "numjobs", "2", "offset_increment", "50%", "offset_increment", "0" }, 1,
                  8192, true, true },
                { { "size", "8k", "offset", "2z", "offset", "0" }, 1, 8192, true, false },
                { { "size", "2z", "size", "8k" }, 1, 0, true, false },
                { { "size", "50%", "size", "8k" }, 1, 0, true, false },
                { { "size", "8k", "offset", "2z", "offset", "50%", "offset", "4k" }, 1, 8192, true, true },
                /* the larger of fio's two readings (kb_base=1024: 1MiB is 10^6; kb_base=1000: 2^20) */
                { { "size", "1MiB", "offset", "1k" }, 1, 1048576 + 1024, false, false },
        };

        (void)state;
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                struct bench_fio_defs d = { 0 };
                struct bench_fio_def *j;
                struct jobsum js = { .name = "j" };

                assert_int_equal(bench_fio_job_add(&d, "j", &j), 0);
                for (size_t k = 0; k < 8 && cases[i].kv[k]; k += 2)
                        assert_int_equal(bench_fio_kv_add(&j->kv, cases[i].kv[k], cases[i].kv[k + 1]), 0);
                bench_fio_changes(j, &js, cases[i].nrfiles);
                if (js.need_unsure != cases[i].unsure || (!js.need_unsure && js.need != cases[i].need))
                        fail_msg("case %zu: need %ju%s, not %ju%s", i, (uintmax_t)js.need,
                                 js.need_unsure ? " (unsure)" : "", (uintmax_t)cases[i].need,
                                 cases[i].unsure ? " (unsure)" : "");
                if (js.need_share != cases[i].share)
                        fail_msg("case %zu: need_share %d, not %d", i, js.need_share, cases[i].share);
                assert_false(js.writes);
                bench_fio_defs_done(&d);
        }
        /* zonemode=zbd resets zones, a write; fio matches a value up to a ',' (parse.c str_match_len) */
        for (size_t i = 0; i < 3; i++) {
                static const char * const zm[] = { "zbd", "zbd,1", "zbd:x" };
                struct bench_fio_defs d = { 0 };
                struct bench_fio_def *j;
                struct jobsum js = { .name = "j" };

                assert_int_equal(bench_fio_job_add(&d, "j", &j), 0);
                assert_int_equal(bench_fio_kv_add(&j->kv, "zonemode", zm[i]), 0);
                bench_fio_changes(j, &js, 1);
                assert_true(js.writes);
                bench_fio_defs_done(&d);
        }
}

/* The memory a job makes fio take: numjobs x (lockmem= + iodepth x the largest block size) */
static void test_memory(void **state)
{
        static const struct {
                const char *kv[8];
                uint64_t bytes;
                int r;
        } cases[] = {
                { { NULL }, 4096, 0 },
                { { "lockmem", "1g", "numjobs", "3" }, 3 * ((1ULL << 30) + 4096), 0 },
                { { "bs", "4k,64k", "iodepth", "32" }, 32 * 65536, 0 },
                { { "bsrange", "4k-1m", "iodepth", "2", "numjobs", "4" }, 4 * 2 * 1048576, 0 },
                { { "bssplit", "4k/50:256k/50", "iodepth", "8" }, 8 * 262144, 0 },
                { { "bs", "16m", "iodepth", "65536", "numjobs", "64" }, 64ULL * 65536 * 16777216, 0 },
                { { "lockmem", "(1<<30)" }, 0, -EINVAL },
        };

        (void)state;
        assert_true(bench_memory_max() > 0);
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                struct bench_fio_defs d = { 0 };
                struct bench_fio_def *j;
                uint64_t bytes = 0;
                int r;

                assert_int_equal(bench_fio_job_add(&d, "j", &j), 0);
                for (size_t k = 0; k < 8 && cases[i].kv[k]; k += 2)
                        assert_int_equal(bench_fio_kv_add(&j->kv, cases[i].kv[k], cases[i].kv[k + 1]), 0);
                r = bench_fio_memory(j, &bytes);
                if (r != cases[i].r || (r == 0 && bytes != cases[i].bytes))
                        fail_msg("case %zu: %d, %ju bytes, not %d, %ju", i, r, (uintmax_t)bytes, cases[i].r,
                                 (uintmax_t)cases[i].bytes);
                bench_fio_defs_done(&d);
        }
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_unsupported_all_at_once),
                cmocka_unit_test(test_admin_styles),
                cmocka_unit_test(test_values),
                cmocka_unit_test(test_fio_names),
                cmocka_unit_test(test_settings_for_fio),
                cmocka_unit_test(test_fio_file_names),
                cmocka_unit_test(test_fio_added_names),
                cmocka_unit_test(test_fio_engines),
                cmocka_unit_test(test_model_access),
                cmocka_unit_test(test_ddir),
                cmocka_unit_test(test_need),
                cmocka_unit_test(test_memory),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
