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
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "jobs.h"
#include "macro.h"

struct fio_name {
        const char *name;
        char arg;       /* 'b' boolean (may stand alone), 'v' needs a value */
};

/* sorted by name (strcmp), for bsearch */
static const struct fio_name fio_names[] = {
        { "alloc-size", 'v' }, { "allow_file_create", 'b' }, { "allow_mounted_write", 'b' },
        { "allrandrepeat", 'b' }, { "append-terse", 'b' }, { "apptag", 'v' }, { "apptag_mask", 'v' },
        { "arguments", 'v' }, { "atomic", 'b' }, { "aux-path", 'v' }, { "ba", 'v' }, { "bandwidth-log", 'b' },
        { "bindname", 'v' }, { "block_error_percentiles", 'b' }, { "blockalign", 'v' }, { "blocksize", 'v' },
        { "blocksize_range", 'v' }, { "blocksize_unaligned", 'b' }, { "brick", 'v' }, { "bs", 'v' },
        { "bs_is_seq_rand", 'b' }, { "bs_unaligned", 'b' }, { "bsrange", 'v' }, { "bssplit", 'v' },
        { "buffer_compress_chunk", 'v' }, { "buffer_compress_percentage", 'v' }, { "buffer_pattern", 'v' },
        { "buffered", 'b' }, { "busy_poll", 'b' }, { "bwavgtime", 'v' }, { "cdb_len", 'v' },
        { "cgroup", 'v' }, { "cgroup_nodelete", 'b' }, { "cgroup_weight", 'v' }, { "chunck_size", 'v' },
        { "chunk_size", 'v' }, { "clat_percentiles", 'b' }, { "client", 'v' }, { "clientname", 'v' },
        { "clocksource", 'v' }, { "clustername", 'v' }, { "cmd_type", 'b' }, { "cmdprio", 'b' },
        { "cmdprio_bssplit", 'b' }, { "cmdprio_class", 'b' }, { "cmdprio_percentage", 'b' }, { "comm", 'v' },
        { "conf", 'v' }, { "cont", 'v' }, { "continue_on_error", 'v' }, { "cpuchunks", 'v' },
        { "cpuload", 'v' }, { "cpumask", 'v' }, { "cpumode", 'v' }, { "cpus_allowed", 'v' },
        { "cpus_allowed_policy", 'v' }, { "create_fsync", 'b' }, { "create_on_open", 'b' },
        { "create_only", 'b' }, { "create_serialize", 'b' }, { "cuda_io", 'v' }, { "daemonize", 'v' },
        { "data_placement", 'v' }, { "dataplacement", 'v' }, { "deac", 'b' }, { "debug", 'v' },
        { "dedupe_global", 'b' }, { "dedupe_mode", 'v' }, { "dedupe_percentage", 'v' },
        { "dedupe_working_set_percentage", 'v' }, { "description", 'v' }, { "direct", 'b' },
        { "directory", 'v' }, { "disable_bw", 'b' }, { "disable_bw_measurement", 'b' },
        { "disable_clat", 'b' }, { "disable_lat", 'b' }, { "disable_slat", 'b' }, { "disk_util", 'b' },
        { "do_verify", 'b' }, { "donorname", 'v' }, { "dp_scheme", 'v' }, { "dummy", 'b' },
        { "end_fsync", 'b' }, { "end_syncfs", 'b' }, { "error_dump", 'b' }, { "eta-interval", 'v' },
        { "eta-newline", 'v' }, { "exec_postrun", 'v' }, { "exec_prerun", 'v' }, { "exit_on_io_done", 'b' },
        { "exit_what", 'v' }, { "exitall", 'b' }, { "exitall_on_error", 'b' }, { "experimental_verify", 'b' },
        { "fadvise_hint", 'v' }, { "fallocate", 'v' }, { "fdatasync", 'v' }, { "fdp", 'b' },
        { "fdp_pli", 'v' }, { "fdp_pli_select", 'v' }, { "file_append", 'b' }, { "file_service_type", 'v' },
        { "filename", 'v' }, { "filename_format", 'v' }, { "fileoffset", 'v' }, { "filesize", 'v' },
        { "filetype", 'v' }, { "fill_device", 'b' }, { "fill_fs", 'b' }, { "fixedbufs", 'b' },
        { "flow", 'v' }, { "flow_id", 'v' }, { "flow_sleep", 'v' }, { "flow_watermark", 'v' },
        { "force_async", 'b' }, { "fsync", 'v' }, { "fsync_on_close", 'b' }, { "gid", 'v' },
        { "gpu_dev_id", 'v' }, { "gpu_dev_ids", 'v' }, { "grace_time", 'v' }, { "group_reporting", 'b' },
        { "gtod_cpu", 'v' }, { "gtod_reduce", 'b' }, { "hdfs_use_direct", 'b' }, { "hdfsdirectory", 'v' },
        { "hipri", 'b' }, { "hipri_percentage", 'b' }, { "hostname", 'v' }, { "http_host", 'v' },
        { "http_mode", 'v' }, { "http_object_mode", 'v' }, { "http_pass", 'v' }, { "http_s3_key", 'v' },
        { "http_s3_keyid", 'v' }, { "http_s3_region", 'v' }, { "http_s3_security_token", 'v' },
        { "http_s3_sse_customer_algorithm", 'v' }, { "http_s3_sse_customer_key", 'v' },
        { "http_s3_storage_class", 'v' }, { "http_swift_auth_token", 'v' }, { "http_user", 'v' },
        { "http_verbose", 'v' }, { "https", 'v' }, { "hugepage-size", 'v' }, { "idle-prof", 'v' },
        { "ignore_error", 'v' }, { "ignore_zone_limits", 'b' }, { "inflate-log", 'v' }, { "initiator", 'v' },
        { "inplace", 'v' }, { "interface", 'v' }, { "invalidate", 'b' }, { "io_limit", 'v' },
        { "io_size", 'v' }, { "io_submit_mode", 'v' }, { "iodepth", 'v' }, { "iodepth_batch", 'v' },
        { "iodepth_batch_complete", 'v' }, { "iodepth_batch_complete_max", 'v' },
        { "iodepth_batch_complete_min", 'v' }, { "iodepth_batch_submit", 'v' }, { "iodepth_low", 'v' },
        { "ioengine", 'v' }, { "iomem", 'v' }, { "iomem_align", 'v' }, { "iopsavgtime", 'v' },
        { "ioscheduler", 'v' }, { "job_max_open_zones", 'v' }, { "job_start_clock_id", 'v' },
        { "kb_base", 'v' }, { "lat_percentiles", 'b' }, { "latency_percentile", 'v' }, { "latency_run", 'b' },
        { "latency_target", 'v' }, { "latency_window", 'v' }, { "libaio_vectored", 'b' },
        { "libblkio_driver", 'v' }, { "libblkio_force_enable_completion_eventfd", 'b' },
        { "libblkio_num_entries", 'v' }, { "libblkio_path", 'v' }, { "libblkio_pre_connect_props", 'v' },
        { "libblkio_pre_start_props", 'v' }, { "libblkio_queue_size", 'v' }, { "libblkio_vectored", 'b' },
        { "libblkio_wait_mode", 'v' }, { "libblkio_write_zeroes_on_trim", 'b' }, { "listen", 'b' },
        { "lockfile", 'v' }, { "lockmem", 'v' }, { "log_alternate_epoch", 'b' },
        { "log_alternate_epoch_clock_id", 'v' }, { "log_avg_msec", 'v' }, { "log_compression", 'v' },
        { "log_compression_cpus", 'v' }, { "log_entries", 'v' }, { "log_hist_coarseness", 'v' },
        { "log_hist_msec", 'v' }, { "log_issue_time", 'b' }, { "log_max_value", 'b' }, { "log_offset", 'b' },
        { "log_prio", 'b' }, { "log_store_compressed", 'b' }, { "log_unix_epoch", 'b' },
        { "log_window_value", 'v' }, { "loops", 'v' }, { "max-jobs", 'v' }, { "max_latency", 'v' },
        { "max_open_zones", 'v' }, { "md_per_io_size", 'v' }, { "mem", 'v' }, { "mem_align", 'v' },
        { "merge-blktrace-only", 'b' }, { "merge_blktrace_file", 'v' }, { "merge_blktrace_iters", 'v' },
        { "merge_blktrace_scalars", 'v' }, { "minimal", 'b' }, { "mss", 'v' }, { "name", 'v' },
        { "namenode", 'v' }, { "new_group", 'b' }, { "nfs_url", 'v' }, { "nice", 'v' },
        { "no_completion_thread", 'b' }, { "nodelay", 'b' }, { "nonvectored", 'b' }, { "norandommap", 'b' },
        { "nowait", 'b' }, { "nr_files", 'v' }, { "nrfiles", 'v' }, { "num_range", 'v' },
        { "numa_cpu_nodes", 'v' }, { "numa_mem_policy", 'v' }, { "number_ios", 'v' }, { "numjobs", 'v' },
        { "object_class", 'v' }, { "offset", 'v' }, { "offset_align", 'v' }, { "offset_increment", 'v' },
        { "opendir", 'v' }, { "openfiles", 'v' }, { "overwrite", 'b' }, { "parse-only", 'b' },
        { "per_job_logs", 'b' }, { "percentage_random", 'v' }, { "percentage_sequential", 'v' },
        { "percentile_list", 'v' }, { "pi_act", 'b' }, { "pi_chk", 'v' }, { "pingpong", 'b' },
        { "plid_select", 'v' }, { "plids", 'v' }, { "pool", 'v' }, { "port", 'v' }, { "pre_read", 'b' },
        { "prio", 'v' }, { "prioclass", 'v' }, { "priohint", 'v' }, { "profile", 'v' }, { "program", 'v' },
        { "proto", 'v' }, { "protocol", 'v' }, { "ramp_size", 'v' }, { "ramp_time", 'v' },
        { "random_distribution", 'v' }, { "random_generator", 'v' }, { "random_sequence_stride", 'b' },
        { "randrepeat", 'b' }, { "randseed", 'v' }, { "rate", 'v' }, { "rate_cycle", 'v' },
        { "rate_ignore_thinktime", 'b' }, { "rate_iops", 'v' }, { "rate_iops_min", 'v' }, { "rate_min", 'v' },
        { "rate_process", 'v' }, { "ratecycle", 'v' }, { "ratemin", 'v' }, { "rbd_encryption_format", 'v' },
        { "rbd_encryption_passphrase", 'v' }, { "rbdname", 'v' }, { "read_beyond_wp", 'b' },
        { "read_iolog", 'v' }, { "read_iolog_chunked", 'b' }, { "read_mode", 'v' }, { "readfua", 'b' },
        { "readonly", 'b' }, { "readwrite", 'v' }, { "recover_zbd_write_error", 'b' },
        { "refill_buffers", 'b' }, { "registerfiles", 'b' }, { "remote-config", 'v' },
        { "replay_align", 'v' }, { "replay_no_stall", 'b' }, { "replay_redirect", 'v' },
        { "replay_scale", 'v' }, { "replay_skip", 'v' }, { "replay_time_scale", 'v' }, { "rocm_io", 'v' },
        { "runtime", 'v' }, { "rw", 'v' }, { "rw_sequencer", 'v' }, { "rwmixcycle", 'v' },
        { "rwmixread", 'v' }, { "rwmixwrite", 'v' }, { "scramble_buffers", 'b' }, { "section", 'v' },
        { "serialize_overlap", 'b' }, { "server", 'v' }, { "sg_write_mode", 'v' }, { "showcmd", 'b' },
        { "significant_figures", 'v' }, { "single-instance", 'b' }, { "single_instance", 'b' },
        { "size", 'v' }, { "skip_bad", 'b' }, { "slat_percentiles", 'b' }, { "softrandommap", 'b' },
        { "spr_cs", 'v' }, { "spr_num_regions", 'v' }, { "spr_op", 'v' }, { "sprandom", 'b' },
        { "sqthread_poll", 'b' }, { "sqthread_poll_cpu", 'b' }, { "ss", 'v' }, { "ss_dur", 'v' },
        { "ss_interval", 'v' }, { "ss_ramp", 'v' }, { "startdelay", 'v' }, { "stat_type", 'v' },
        { "stats", 'b' }, { "status-interval", 'v' }, { "std_redirect", 'b' }, { "steadystate", 'v' },
        { "steadystate_check_interval", 'v' }, { "steadystate_duration", 'v' },
        { "steadystate_ramp_time", 'v' }, { "stonewall", 'b' }, { "stream_id", 'v' }, { "svcl", 'v' },
        { "sync", 'v' }, { "sync_file_range", 'v' }, { "terse-version", 'v' }, { "thinkcycles", 'v' },
        { "thinktime", 'v' }, { "thinktime_blocks", 'v' }, { "thinktime_blocks_type", 'v' },
        { "thinktime_iotime", 'v' }, { "thinktime_spin", 'v' }, { "thp", 'v' }, { "thread", 'b' },
        { "threads", 'b' }, { "time_based", 'b' }, { "timeout", 'v' }, { "touch_objects", 'b' },
        { "trigger", 'v' }, { "trigger-file", 'v' }, { "trigger-remote", 'v' }, { "trigger-timeout", 'v' },
        { "trim_backlog", 'v' }, { "trim_backlog_batch", 'v' }, { "trim_percentage", 'v' },
        { "trim_verify_zero", 'b' }, { "ttl", 'v' }, { "uid", 'v' }, { "uncached", 'b' },
        { "unified_rw_reporting", 'v' }, { "unique_filename", 'b' }, { "unit_base", 'v' }, { "unlink", 'b' },
        { "unlink_each_loop", 'b' }, { "uri", 'v' }, { "userspace_reap", 'b' }, { "verb", 'v' },
        { "verify", 'v' }, { "verify_async", 'v' }, { "verify_async_cpus", 'v' }, { "verify_backlog", 'v' },
        { "verify_backlog_batch", 'v' }, { "verify_bytchk", 'v' }, { "verify_dump", 'b' },
        { "verify_fatal", 'b' }, { "verify_header_seed", 'b' }, { "verify_interval", 'v' },
        { "verify_mode", 'v' }, { "verify_offset", 'v' }, { "verify_only", 'b' }, { "verify_pattern", 'v' },
        { "verify_pattern_interval", 'v' }, { "verify_policy", 'v' }, { "verify_state_load", 'b' },
        { "verify_state_save", 'b' }, { "verify_write_sequence", 'b' }, { "verifysort", 'v' },
        { "verifysort_nr", 'v' }, { "volume", 'v' }, { "wait_for", 'v' }, { "wait_for_previous", 'b' },
        { "warnings-fatal", 'b' }, { "window_size", 'v' }, { "write_barrier", 'v' }, { "write_bw_log", 'v' },
        { "write_hint", 'v' }, { "write_hist_log", 'v' }, { "write_iolog", 'v' }, { "write_iops_log", 'v' },
        { "write_lat_log", 'v' }, { "write_mode", 'v' }, { "write_zone_remainder", 'b' }, { "writefua", 'b' },
        { "xnvme_admin", 'v' }, { "xnvme_async", 'v' }, { "xnvme_be", 'v' }, { "xnvme_dev_nsid", 'v' },
        { "xnvme_dev_subnqn", 'v' }, { "xnvme_iovec", 'b' }, { "xnvme_mem", 'v' }, { "xnvme_sync", 'v' },
        { "zero_buffers", 'b' }, { "zone_reset_frequency", 'v' }, { "zone_reset_threshold", 'v' },
        { "zonecapacity", 'v' }, { "zonemode", 'v' }, { "zonerange", 'v' }, { "zonesize", 'v' },
        { "zoneskip", 'v' },
};

static int cmp(const void *k, const void *e)
{
        return strcmp(k, ((const struct fio_name *)e)->name);
}

int bench_fio_option_arg(const char *name)
{
        const struct fio_name *f;

        if (!name)
                return 0;
        f = bsearch(name, fio_names, ELEMENTSOF(fio_names), sizeof(fio_names[0]), cmp);
        return f ? f->arg : 0;
}
