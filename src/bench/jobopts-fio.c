/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jobopts-fio.c: the names fio 3.33 knows, so that a job option iosched-bench
 * does not implement is told apart from a typo: the first is "unsupported"
 * (-EOPNOTSUPP, a job the fio backend can run), the second an error.  The
 * list is fio's option names (`fio --cmdhelp=all`), the options of the
 * engines the native engine shares with fio (`fio --enghelp=io_uring` ...),
 * the option and alias names of fio's sources (options.c and engines/, for
 * the engines not built into the installed fio), and fio's own command-line
 * options; 'b' marks an option that
 * may stand alone (a boolean), so "--flow 1" and "--verify crc32c" take
 * their value from the next argument and "--refill_buffers" does not.
 * It is the one table of fio's option names: an alias says the name it
 * stands for (fio's reading folds it, fioread.c), fio's program options
 * (fio --help) are marked as passed on with a job or refused, and the logs
 * fio names after the job when set alone are marked LOG.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "jobs.h"
#include "macro.h"

struct fio_name {
        const char *name;
        char arg;               /* 'b' boolean (may stand alone), 'v' needs a value */
        const char *alias;      /* an alias (options.c's .alias): the name it stands for */
        signed char prog;       /* fio's program option: 1 passed on with a job, -1 refused; 0 a job option */
        bool log;               /* a log that, alone in a job file, fio names after the job */
};

#define N(name, arg) { name, arg, NULL, 0, false }
#define ALIAS(name, arg, of) { name, arg, of, 0, false }
#define PROG(name, arg, prog) { name, arg, NULL, prog, false }
#define LOG(name) { name, 'v', NULL, 0, true }
/* sorted by name (strcmp), for bsearch */
static const struct fio_name fio_names[] = {
        PROG("alloc-size", 'v', 1), N("allow_file_create", 'b'), N("allow_mounted_write", 'b'),
        N("allrandrepeat", 'b'), PROG("append-terse", 'b', -1), N("apptag", 'v'), N("apptag_mask", 'v'),
        N("arguments", 'v'), N("atomic", 'b'), PROG("aux-path", 'v', 1), N("ba", 'v'),
        PROG("bandwidth-log", 'b', -1), N("bindname", 'v'), N("block_error_percentiles", 'b'),
        ALIAS("blockalign", 'v', "ba"), ALIAS("blocksize", 'v', "bs"),
        ALIAS("blocksize_range", 'v', "bsrange"), ALIAS("blocksize_unaligned", 'b', "bs_unaligned"),
        N("brick", 'v'), N("bs", 'v'), N("bs_is_seq_rand", 'b'), N("bs_unaligned", 'b'), N("bsrange", 'v'),
        N("bssplit", 'v'), N("buffer_compress_chunk", 'v'), N("buffer_compress_percentage", 'v'),
        N("buffer_pattern", 'v'), N("buffered", 'b'), N("busy_poll", 'b'), N("bwavgtime", 'v'),
        N("cdb_len", 'v'), N("cgroup", 'v'), N("cgroup_nodelete", 'b'), N("cgroup_weight", 'v'),
        ALIAS("chunck_size", 'v', "chunk_size"), N("chunk_size", 'v'), N("clat_percentiles", 'b'),
        PROG("client", 'v', -1), N("clientname", 'v'), N("clocksource", 'v'), N("clustername", 'v'),
        N("cmd_type", 'b'), PROG("cmdhelp", 'b', -1), N("cmdprio", 'v'), N("cmdprio_bssplit", 'v'),
        N("cmdprio_class", 'v'), N("cmdprio_hint", 'v'), N("cmdprio_percentage", 'v'), N("comm", 'v'),
        N("conf", 'v'), N("cont", 'v'),
        N("continue_on_error", 'v'), N("cpuchunks", 'v'), PROG("cpuclock-test", 'b', -1), N("cpuload", 'v'),
        N("cpumask", 'v'), N("cpumode", 'v'), N("cpus_allowed", 'v'), N("cpus_allowed_policy", 'v'),
        PROG("crctest", 'b', -1), N("create_fsync", 'b'), N("create_on_open", 'b'), N("create_only", 'b'),
        N("create_serialize", 'b'), N("cuda_io", 'v'), PROG("daemonize", 'v', -1), N("data_placement", 'v'),
        N("dataplacement", 'v'), N("deac", 'b'), PROG("debug", 'v', -1), N("dedupe_global", 'b'),
        N("dedupe_mode", 'v'), N("dedupe_percentage", 'v'), N("dedupe_working_set_percentage", 'v'),
        N("description", 'v'), N("direct", 'b'), N("directory", 'v'),
        ALIAS("disable_bw", 'b', "disable_bw_measurement"), N("disable_bw_measurement", 'b'),
        N("disable_clat", 'b'), N("disable_lat", 'b'), N("disable_slat", 'b'), N("disk_util", 'b'),
        N("do_verify", 'b'), N("donorname", 'v'), N("dp_scheme", 'v'), N("dummy", 'b'), N("end_fsync", 'b'),
        N("end_syncfs", 'b'), PROG("enghelp", 'b', -1), N("error_dump", 'b'), PROG("eta-interval", 'v', 1),
        PROG("eta-newline", 'v', 1), N("exec_postrun", 'v'), N("exec_prerun", 'v'), N("exit_on_io_done", 'b'),
        N("exit_what", 'v'), N("exitall", 'b'), N("exitall_on_error", 'b'), N("experimental_verify", 'b'),
        N("fadvise_hint", 'v'), N("fallocate", 'v'), N("fdatasync", 'v'), N("fdp", 'b'), N("fdp_pli", 'v'),
        N("fdp_pli_select", 'v'), N("file_append", 'b'), N("file_service_type", 'v'), N("filename", 'v'),
        N("filename_format", 'v'), ALIAS("fileoffset", 'v', "offset"), N("filesize", 'v'), N("filetype", 'v'),
        N("fill_device", 'b'), ALIAS("fill_fs", 'b', "fill_device"), N("fixedbufs", 'b'), N("flow", 'v'),
        N("flow_id", 'v'), N("flow_sleep", 'v'), N("flow_watermark", 'v'), N("force_async", 'b'),
        N("fsync", 'v'), N("fsync_on_close", 'b'), N("gid", 'v'), N("gpu_dev_id", 'v'), N("gpu_dev_ids", 'v'),
        N("grace_time", 'v'), N("group_reporting", 'b'), N("gtod_cpu", 'v'), N("gtod_reduce", 'b'),
        N("hdfs_use_direct", 'b'), N("hdfsdirectory", 'v'), N("hipri", 'b'), N("hipri_percentage", 'b'),
        N("hostname", 'v'), N("http_host", 'v'), N("http_mode", 'v'), N("http_object_mode", 'v'),
        N("http_pass", 'v'), N("http_s3_key", 'v'), N("http_s3_keyid", 'v'), N("http_s3_region", 'v'),
        N("http_s3_security_token", 'v'), N("http_s3_sse_customer_algorithm", 'v'),
        N("http_s3_sse_customer_key", 'v'), N("http_s3_storage_class", 'v'), N("http_swift_auth_token", 'v'),
        N("http_user", 'v'), N("http_verbose", 'v'), N("https", 'v'), N("hugepage-size", 'v'),
        PROG("idle-prof", 'v', 1), N("ignore_error", 'v'), N("ignore_zone_limits", 'b'),
        PROG("inflate-log", 'v', -1), N("initiator", 'v'), N("inplace", 'v'), N("interface", 'v'),
        N("invalidate", 'b'), ALIAS("io_limit", 'v', "io_size"), N("io_size", 'v'), N("io_submit_mode", 'v'),
        N("iodepth", 'v'), N("iodepth_batch", 'v'),
        ALIAS("iodepth_batch_complete", 'v', "iodepth_batch_complete_min"),
        N("iodepth_batch_complete_max", 'v'), N("iodepth_batch_complete_min", 'v'),
        ALIAS("iodepth_batch_submit", 'v', "iodepth_batch"), N("iodepth_low", 'v'), N("ioengine", 'v'),
        ALIAS("iomem", 'v', "mem"), N("iomem_align", 'v'), N("iopsavgtime", 'v'), N("ioscheduler", 'v'),
        N("job_max_open_zones", 'v'), N("job_start_clock_id", 'v'), N("kb_base", 'v'),
        N("lat_percentiles", 'b'), PROG("latency-log", 'b', -1), N("latency_percentile", 'v'),
        N("latency_run", 'b'), N("latency_target", 'v'), N("latency_window", 'v'), N("libaio_vectored", 'b'),
        N("libblkio_driver", 'v'), N("libblkio_force_enable_completion_eventfd", 'b'),
        N("libblkio_num_entries", 'v'), N("libblkio_path", 'v'), N("libblkio_pre_connect_props", 'v'),
        N("libblkio_pre_start_props", 'v'), N("libblkio_queue_size", 'v'), N("libblkio_vectored", 'b'),
        N("libblkio_wait_mode", 'v'), N("libblkio_write_zeroes_on_trim", 'b'), N("listen", 'b'),
        N("lockfile", 'v'), N("lockmem", 'v'), N("log_alternate_epoch", 'b'),
        N("log_alternate_epoch_clock_id", 'v'), N("log_avg_msec", 'v'), N("log_compression", 'v'),
        N("log_compression_cpus", 'v'), N("log_entries", 'v'), N("log_hist_coarseness", 'v'),
        N("log_hist_msec", 'v'), N("log_issue_time", 'b'), N("log_max_value", 'b'), N("log_offset", 'b'),
        N("log_prio", 'b'), N("log_store_compressed", 'b'), N("log_unix_epoch", 'b'),
        N("log_window_value", 'v'), N("loops", 'v'), PROG("max-jobs", 'v', 1), N("max_latency", 'v'),
        N("max_open_zones", 'v'), N("md_per_io_size", 'v'), N("mem", 'v'),
        ALIAS("mem_align", 'v', "iomem_align"), PROG("merge-blktrace-only", 'b', -1),
        N("merge_blktrace_file", 'v'), N("merge_blktrace_iters", 'v'), N("merge_blktrace_scalars", 'v'),
        PROG("minimal", 'b', -1), N("mss", 'v'), N("name", 'v'), N("namenode", 'v'), N("new_group", 'b'),
        N("nfs_url", 'v'), N("nice", 'v'), N("no_completion_thread", 'b'), N("nodelay", 'b'),
        N("nonvectored", 'b'), N("norandommap", 'b'), N("nowait", 'b'), ALIAS("nr_files", 'v', "nrfiles"),
        N("nrfiles", 'v'), N("num_range", 'v'), N("numa_cpu_nodes", 'v'), N("numa_mem_policy", 'v'),
        N("number_ios", 'v'), N("numjobs", 'v'), N("object_class", 'v'), N("offset", 'v'),
        N("offset_align", 'v'), N("offset_increment", 'v'), N("opendir", 'v'), N("openfiles", 'v'),
        PROG("output", 'v', -1), N("overwrite", 'b'), PROG("parse-only", 'b', -1), N("per_job_logs", 'b'),
        N("percentage_random", 'v'), N("percentage_sequential", 'v'), N("percentile_list", 'v'),
        N("pi_act", 'b'), N("pi_chk", 'v'), N("pingpong", 'b'), N("plid_select", 'v'), N("plids", 'v'),
        N("pool", 'v'), N("port", 'v'), N("pre_read", 'b'), N("prio", 'v'), N("prioclass", 'v'),
        N("priohint", 'v'), N("profile", 'v'), N("program", 'v'), N("proto", 'v'), N("protocol", 'v'),
        N("ramp_size", 'v'), N("ramp_time", 'v'), N("random_distribution", 'v'), N("random_generator", 'v'),
        N("random_sequence_stride", 'b'), N("randrepeat", 'b'), N("randseed", 'v'), N("rate", 'v'),
        N("rate_cycle", 'v'), N("rate_ignore_thinktime", 'b'), N("rate_iops", 'v'), N("rate_iops_min", 'v'),
        N("rate_min", 'v'), N("rate_process", 'v'), ALIAS("ratecycle", 'v', "rate_cycle"),
        ALIAS("ratemin", 'v', "rate_min"), N("rbd_encryption_format", 'v'),
        N("rbd_encryption_passphrase", 'v'), N("rbdname", 'v'), N("read_beyond_wp", 'b'),
        N("read_iolog", 'v'), N("read_iolog_chunked", 'b'), N("read_mode", 'v'), N("readfua", 'b'),
        PROG("readonly", 'b', 1), ALIAS("readwrite", 'v', "rw"), N("recover_zbd_write_error", 'b'),
        N("refill_buffers", 'b'), N("registerfiles", 'b'), PROG("remote-config", 'v', -1),
        N("replay_align", 'v'), N("replay_no_stall", 'b'), N("replay_redirect", 'v'), N("replay_scale", 'v'),
        N("replay_skip", 'v'), N("replay_time_scale", 'v'), N("rocm_io", 'v'), N("runtime", 'v'),
        N("rw", 'v'), N("rw_sequencer", 'v'), N("rwmixcycle", 'v'), N("rwmixread", 'v'), N("rwmixwrite", 'v'),
        N("scramble_buffers", 'b'), PROG("section", 'v', 1), N("serialize_overlap", 'b'),
        PROG("server", 'v', -1), N("sg_write_mode", 'v'), PROG("showcmd", 'b', -1),
        N("significant_figures", 'v'), ALIAS("single-instance", 'b', "single_instance"),
        N("single_instance", 'b'), N("size", 'v'), N("skip_bad", 'b'), N("slat_percentiles", 'b'),
        N("softrandommap", 'b'), N("spr_cs", 'v'), N("spr_num_regions", 'v'), N("spr_op", 'v'),
        N("sprandom", 'b'), N("sqthread_poll", 'b'), N("sqthread_poll_cpu", 'b'), N("ss", 'v'),
        N("ss_dur", 'v'), N("ss_interval", 'v'), N("ss_ramp", 'v'), N("startdelay", 'v'), N("stat_type", 'v'),
        N("stats", 'b'), PROG("status-interval", 'v', -1), N("std_redirect", 'b'), N("steadystate", 'v'),
        N("steadystate_check_interval", 'v'), N("steadystate_duration", 'v'), N("steadystate_ramp_time", 'v'),
        N("stonewall", 'b'), N("stream_id", 'v'), N("svcl", 'v'), N("sync", 'v'), N("sync_file_range", 'v'),
        PROG("terse-version", 'v', -1), N("thinkcycles", 'v'), N("thinktime", 'v'),
        N("thinktime_blocks", 'v'), N("thinktime_blocks_type", 'v'), N("thinktime_iotime", 'v'),
        N("thinktime_spin", 'v'), N("thp", 'v'), N("thread", 'b'), ALIAS("threads", 'b', "thread"),
        N("time_based", 'b'), ALIAS("timeout", 'v', "runtime"), N("touch_objects", 'b'),
        PROG("trigger", 'v', 1), PROG("trigger-file", 'v', 1), PROG("trigger-remote", 'v', 1),
        PROG("trigger-timeout", 'v', 1), N("trim_backlog", 'v'), N("trim_backlog_batch", 'v'),
        N("trim_percentage", 'v'), N("trim_verify_zero", 'b'), N("ttl", 'v'), N("uid", 'v'),
        N("uncached", 'b'), N("unified_rw_reporting", 'v'), N("unique_filename", 'b'), N("unit_base", 'v'),
        N("unlink", 'b'), N("unlink_each_loop", 'b'), N("uri", 'v'), N("userspace_reap", 'b'), N("verb", 'v'),
        N("verify", 'v'), N("verify_async", 'v'), N("verify_async_cpus", 'v'), N("verify_backlog", 'v'),
        N("verify_backlog_batch", 'v'), N("verify_bytchk", 'v'), N("verify_dump", 'b'),
        N("verify_fatal", 'b'), N("verify_header_seed", 'b'), N("verify_interval", 'v'),
        N("verify_mode", 'v'), N("verify_offset", 'v'), N("verify_only", 'b'), N("verify_pattern", 'v'),
        N("verify_pattern_interval", 'v'), N("verify_policy", 'v'), N("verify_state_load", 'b'),
        N("verify_state_save", 'b'), N("verify_write_sequence", 'b'), N("verifysort", 'v'),
        N("verifysort_nr", 'v'), N("volume", 'v'), N("wait_for", 'v'),
        ALIAS("wait_for_previous", 'b', "stonewall"), PROG("warnings-fatal", 'b', 1), N("window_size", 'v'),
        N("write_barrier", 'v'), LOG("write_bw_log"), N("write_hint", 'v'), LOG("write_hist_log"),
        N("write_iolog", 'v'), LOG("write_iops_log"), LOG("write_lat_log"), N("write_mode", 'v'),
        N("write_zone_remainder", 'b'), N("writefua", 'b'), N("xnvme_admin", 'v'), N("xnvme_async", 'v'),
        N("xnvme_be", 'v'), N("xnvme_dev_nsid", 'v'), N("xnvme_dev_subnqn", 'v'), N("xnvme_iovec", 'b'),
        N("xnvme_mem", 'v'), N("xnvme_sync", 'v'), N("zero_buffers", 'b'), N("zone_reset_frequency", 'v'),
        N("zone_reset_threshold", 'v'), N("zonecapacity", 'v'), N("zonemode", 'v'), N("zonerange", 'v'),
        N("zonesize", 'v'), N("zoneskip", 'v'),
};

static int cmp(const void *k, const void *e)
{
        return strcmp(k, ((const struct fio_name *)e)->name);
}

static const struct fio_name *find(const char *name)
{
        return name ? bsearch(name, fio_names, ELEMENTSOF(fio_names), sizeof(fio_names[0]), cmp) : NULL;
}

int bench_fio_option_arg(const char *name)
{
        const struct fio_name *f = find(name);

        return f ? f->arg : 0;
}

bool bench_fio_option_job_named(const char *name)
{
        const struct fio_name *f = find(name);

        return f && f->log;
}

const char *bench_fio_canonical(const char *name)
{
        const struct fio_name *f = find(name);

        return f && f->alias ? f->alias : name;
}

int bench_fio_prog_option(const char *name)
{
        const struct fio_name *f = find(name);

        return f ? f->prog : 0;
}
