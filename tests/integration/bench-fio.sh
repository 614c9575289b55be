#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: fio as iosched-bench's workload backend, on loop devices the
# test attaches.  Job files written as admins write them ([global] with
# name= and description=, several jobs, bssplit, gtod_reduce ...) and an
# option the native engine lacks (randseed, iodepth_low) run through fio with
# --backend=auto, saying why; the same jobs without those two options run
# natively and, with --backend=fio, through fio, each report saying which
# backend ran, with fio's own I/O counts and percentiles (two sections
# of one name: two jobs on both backends; two job files, each [global]
# its own file's, each later file after a stonewall; a [global] after a
# job, a job renamed to another section's name and a name with " -"
# refused on the fio backend, whose reading would not show them); a --workload
# preset runs through fio; fio command lines from blogs (--gtod_reduce,
# --eta-newline=1, --readonly, --invalidate=1, --refill_buffers) run
# natively, and through fio with their bare booleans given "=1"; what a job
# does not set is the native engine's default through fio too; the seed's
# reader-under-writer job file (random_generator=lfsr) runs natively and
# through fio; a --compare of a job file with bssplit and verify runs through fio on
# every variant and round with --allow-write, shows every job per variant
# (text and -J: one entry per job per variant run) and restores the disk;
# fio's options that turn off its latencies or figures (disable_clat=, gtod_reduce=, stats=0,
# unified_rw_reporting=mixed)
# are ignored there as by the native engine, and said: a p99 objective, a
# cap's p99 and a time-based --compare are measured (every p99 above 0,
# no false "all in the ramp" refusal), a run of it shows percentiles;
# without --allow-write, on a mounted device, and for a typo fio does not
# know either, it is refused before fio starts (a wrapper in PATH logs
# every fio run); without fio in PATH the error lists what the native engine
# lacks; SIGINT during fio's run ends fio's process group and restores.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
FIO=$(command -v fio) || b_skip "no fio"
command -v python3 >/dev/null || b_skip "no python3"

# a wrapper in front of fio that logs every run (not --version/--cmdhelp)
mkdir "$B_TMP/bin"
cat >"$B_TMP/bin/fio" <<EOF
#!/bin/sh
case "\$*" in *--output-format=json+*)
        echo "\$*" >>"$B_TMP/fio-runs"
        "$FIO" "\$@" >"$B_TMP/fio-last.json"; rc=\$?
        cat "$B_TMP/fio-last.json"
        exit \$rc ;;
esac
exec "$FIO" "\$@"
EOF
chmod +x "$B_TMP/bin/fio"
export PATH="$B_TMP/bin:$PATH"
# the wrapper logs to files and runs fio, which the fence around fio (sandbox.c) denies: unconfined
# here (and --unconfined: without Landlock a job file is refused otherwise); the fence on
# iosched-bench's own runs is bench-fio-fence.sh's and bench-fio-sandbox.sh's
export IOSCHED_BENCH_LANDLOCK=0
BENCH="$BENCH --unconfined"
runs() { [ -f "$B_TMP/fio-runs" ] && wc -l <"$B_TMP/fio-runs" || echo 0; }
cd "$B_TMP" || b_fail "cd"     # fio writes some files (verify state) in the current directory

# py FILE EXPR: a Python expression over the JSON document d
py() {
        python3 - "$1" "$2" <<'EOF' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
ok = eval(sys.argv[2])
sys.exit(0 if ok else 1)
EOF
}

b_loop l 256 --direct-io=on
dev=/dev/$l
q=/sys/block/$l/queue

# 1. an admin's job file: read-only, options the native engine lacks -> fio (auto)
cat >"$B_TMP/admin.fio" <<EOF
; latency of a small reader next to a streaming reader (a TAB in the description, as a copied
; job file may hold: fio writes it into its report unescaped)
[global]
name=fleet-check
description=nightly read check	of the archive disk
filename=$dev
direct=1
ioengine=libaio
time_based
runtime=1
group_reporting=0
gtod_reduce=0
bssplit=4k/70:64k/30
randseed=1234

[small]
rw=randread
iodepth=1
random_distribution=zipf:1.2

[stream]
rw=read
bs=128k
iodepth=8
iodepth_low=4
EOF
lacks="$B_TMP/admin.fio:14: randseed=1234, $B_TMP/admin.fio:25: iodepth_low=4"
$BENCH -J "$B_TMP/admin.fio" >"$B_TMP/admin.json" 2>"$B_TMP/err" || b_fail "admin job file via fio: $(cat "$B_TMP/err")"
grep -q "^iosched-bench: note: the native engine does not implement: $lacks; fio runs the job$" "$B_TMP/err" ||
        b_fail "auto does not say why fio runs: $(cat "$B_TMP/err")"
py "$B_TMP/admin.json" 'd["backend"].startswith("fio-") and [j["jobname"] for j in d["jobs"]] == ["small", "stream"] and all(j["read"]["total_ios"] > 0 and j["write"]["total_ios"] == 0 for j in d["jobs"])' ||
        b_fail "admin job file: $(head -c 600 "$B_TMP/admin.json")"
# the same numbers as fio's own report: I/Os, bytes, and the percentiles from json+'s bins
python3 - "$B_TMP/admin.json" "$B_TMP/fio-last.json" <<'EOF' || b_fail "ours and fio's report differ"
import json, sys
# fio writes the TAB of the description raw: not JSON, read as Python can (strict=False)
ours, fio = (json.load(open(f), strict=False) for f in sys.argv[1:3])
for a, b in zip(ours["jobs"], fio["jobs"]):
    r, f = a["read"], b["read"]
    assert r["total_ios"] == f["total_ios"] and r["io_bytes"] == f["io_bytes"], (r["total_ios"], f["total_ios"])
    for p in ("50.000000", "99.000000"):
        assert r["clat_ns"]["percentile"][p] == f["clat_ns"]["percentile"][p], (p, r["clat_ns"]["percentile"][p], f["clat_ns"]["percentile"][p])
EOF
# the fio run had our report options and the job as fio read it (issue 27): each job's settings, no job file
grep -q -- "--output-format=json+ --eta=never --name=small .*--filename=$dev --rw=randread .*--name=stream .*--filename=$dev --rw=read " "$B_TMP/fio-runs" ||
        b_fail "fio's command line: $(cat "$B_TMP/fio-runs")"
! grep -q -- "admin.fio" "$B_TMP/fio-runs" || b_fail "fio was given the job file: $(cat "$B_TMP/fio-runs")"
$BENCH "$B_TMP/admin.fio" >"$B_TMP/admin.txt" 2>&1 || b_fail "admin text: $(cat "$B_TMP/admin.txt")"
# the [global] bssplit stays in force over the job's bs=128k (fio: a bssplit set is the sizes used)
grep -q "^backend: fio-" "$B_TMP/admin.txt" && grep -q "^small: $dev rw=randread" "$B_TMP/admin.txt" &&
        grep -q "^stream: $dev rw=read bssplit=4KiB/70:64KiB/30 iodepth=8" "$B_TMP/admin.txt" ||
        b_fail "admin text: $(cat "$B_TMP/admin.txt")"
# --backend=native: every unsupported option listed at once, file:line each, exit 2
$BENCH --backend=native "$B_TMP/admin.fio" >/dev/null 2>"$B_TMP/err"; rc=$?
[ $rc = 2 ] || b_fail "native on the admin file: exit $rc"
grep -q "^iosched-bench: the native engine does not implement: $lacks$" "$B_TMP/err" ||
        b_fail "native list: $(cat "$B_TMP/err")"

# 2. the same jobs in what the native engine has: native by default, fio when asked
grep -v -e '^randseed=' -e '^iodepth_low=' "$B_TMP/admin.fio" >"$B_TMP/plain.fio"
n0=$(runs)
$BENCH -J "$B_TMP/plain.fio" >"$B_TMP/native.json" 2>"$B_TMP/err" || b_fail "plain natively: $(cat "$B_TMP/err")"
[ "$(runs)" = "$n0" ] || b_fail "auto ran fio for a job the native engine has"
$BENCH -J --backend=fio "$B_TMP/plain.fio" >"$B_TMP/viafio.json" 2>"$B_TMP/err" || b_fail "plain via fio: $(cat "$B_TMP/err")"
for f in native viafio; do
        py "$B_TMP/$f.json" '[j["jobname"] for j in d["jobs"]] == ["small", "stream"] and all(j["read"]["total_ios"] > 0 and j["read"]["clat_ns"]["percentile"]["99.000000"] > 0 for j in d["jobs"])' ||
                b_fail "$f: $(head -c 600 "$B_TMP/$f.json")"
done
py "$B_TMP/native.json" 'd["backend"] == "native"' || b_fail "native backend not named"
py "$B_TMP/viafio.json" 'd["backend"].startswith("fio-")' || b_fail "fio backend not named"
# two sections of one name are two jobs, as fio runs them (before, the fio backend ran one)
printf '[twin]\nfilename=%s\nrw=read\nsize=1m\nruntime=1\n[twin]\nfilename=%s\nrw=randread\nsize=1m\nruntime=1\n' \
        "$dev" "$dev" >"$B_TMP/twins.fio"
for b in native fio; do
        $BENCH -J --backend=$b "$B_TMP/twins.fio" >"$B_TMP/twins.json" 2>"$B_TMP/err" || b_fail "twins, $b: $(cat "$B_TMP/err")"
        py "$B_TMP/twins.json" '[j["jobname"] for j in d["jobs"]] == ["twin", "twin"] and all(j["read"]["total_ios"] > 0 for j in d["jobs"])' ||
                b_fail "twins, $b: $(head -c 600 "$B_TMP/twins.json")"
done
# what fio's reading of a file (--showcmd) would not show as it is, refused on the fio backend (before,
# run as other jobs): a [global] after a job, a job renamed to another section's name, a name with " -"
printf '[a]\nfilename=%s\nrw=read\nsize=1m\n[global]\nbs=64k\n[b]\nfilename=%s\nrw=read\nsize=1m\n' "$dev" "$dev" \
        >"$B_TMP/late.fio"
printf '[a]\nfilename=%s\nrw=read\nsize=1m\nname=b\n[b]\nfilename=%s\nrw=read\nsize=1m\n' "$dev" "$dev" >"$B_TMP/ren.fio"
printf '[x]\nfilename=%s\nrw=read\nsize=1m\n[y --bs=64k]\nfilename=%s\nrw=read\nsize=1m\n' "$dev" "$dev" \
        >"$B_TMP/dash.fio"
for f in late ren dash; do
        $BENCH --backend=fio "$B_TMP/$f.fio" >/dev/null 2>"$B_TMP/err"
        rc=$?
        [ $rc = 2 ] && grep -q "fio's reading of the file" "$B_TMP/err" || b_fail "$f.fio: exit $rc: $(cat "$B_TMP/err")"
done
$BENCH -J --backend=native "$B_TMP/late.fio" >"$B_TMP/late.json" 2>"$B_TMP/err" || b_fail "late.fio natively: $(cat "$B_TMP/err")"
py "$B_TMP/late.json" '[(j["jobname"], j["read"]["total_ios"]) for j in d["jobs"]] == [("a", 256), ("b", 16)]' ||
        b_fail "late.fio natively: $(head -c 600 "$B_TMP/late.json")"

# several job files: a file's [global] reaches its own jobs only, and each later file's first job
# starts after a stonewall (a group of its own), as fio runs them; the command line's settings reach
# every file's jobs (fio: the first file's only); both backends alike
printf '[global]\nbs=16k\n[fa]\nfilename=%s\nrw=read\nsize=64k\n' "$dev" >"$B_TMP/fa.fio"
printf '[fb]\nfilename=%s\nrw=read\nsize=64k\n' "$dev" >"$B_TMP/fb.fio"
for b in native fio; do
        $BENCH -J --backend=$b --bs=8k "$B_TMP/fa.fio" "$B_TMP/fb.fio" >"$B_TMP/files.json" 2>"$B_TMP/err" ||
                b_fail "two job files, $b: $(cat "$B_TMP/err")"
        py "$B_TMP/files.json" '[(j["jobname"], j["read"]["total_ios"], j["groupid"]) for j in d["jobs"]] == [("fa", 4, 0), ("fb", 8, 1)]' ||
                b_fail "two job files, $b: $(head -c 600 "$B_TMP/files.json")"
done

# a --workload preset through fio: written to a file for fio, removed afterwards
ls /tmp/iosched-bench-preset-* >"$B_TMP/presets-before" 2>/dev/null
$BENCH -J --backend=fio --filename=$dev --workload=mixed-read --runtime=1 --time_based >"$B_TMP/preset.json" 2>"$B_TMP/err" ||
        b_fail "preset via fio: $(cat "$B_TMP/err")"
py "$B_TMP/preset.json" 'd["backend"].startswith("fio-") and [j["jobname"] for j in d["jobs"]] == ["reader", "streamer"] and all(j["read"]["total_ios"] > 0 for j in d["jobs"])' ||
        b_fail "preset: $(head -c 600 "$B_TMP/preset.json")"
ls /tmp/iosched-bench-preset-* 2>/dev/null | cmp -s - "$B_TMP/presets-before" || b_fail "the preset's file was left behind"

# 3. blog command lines: fio's reporting and caching options, native (auto) and through fio
blog="--name=blog --filename=$dev --rw=randread --bs=4k --iodepth=16 --ioengine=libaio --direct=1 --runtime=1
        --time_based --gtod_reduce=1 --eta-newline=1 --readonly --invalidate=1 --refill_buffers"
n0=$(runs)
$BENCH -J $blog >"$B_TMP/blog.json" 2>"$B_TMP/err" || b_fail "blog line: $(cat "$B_TMP/err")"
[ "$(runs)" = "$n0" ] || b_fail "the blog line ran through fio, the native engine has all of it"
py "$B_TMP/blog.json" 'd["backend"] == "native" and d["jobs"][0]["jobname"] == "blog" and d["jobs"][0]["read"]["total_ios"] > 0' ||
        b_fail "blog: $(head -c 400 "$B_TMP/blog.json")"
$BENCH -J --backend=fio $blog >"$B_TMP/blog.json" 2>"$B_TMP/err" || b_fail "blog line via fio: $(cat "$B_TMP/err")"
[ "$(runs)" = $((n0 + 1)) ] || b_fail "the blog line did not run through fio with --backend=fio"
py "$B_TMP/blog.json" 'd["backend"].startswith("fio-") and d["jobs"][0]["jobname"] == "blog" and d["jobs"][0]["read"]["total_ios"] > 0' ||
        b_fail "blog via fio: $(head -c 400 "$B_TMP/blog.json")"
grep -q -- "--readonly --name=blog .*--invalidate=1 --refill_buffers=1" "$B_TMP/fio-runs" || b_fail "bare booleans: $(tail -1 "$B_TMP/fio-runs")"

# 3b. what a job does not set is the native engine's default on fio too (io_uring, direct=1, 10 s where
# no amount ends the job), what it sets is its own: with --backend=fio, and through auto (randseed=)
for form in "--backend=fio" "--randseed=1"; do
        $BENCH $form --name=d --filename=$dev --rw=randread --offset=255m >"$B_TMP/out" 2>"$B_TMP/err" ||
                b_fail "$form: defaults: $(cat "$B_TMP/err")"
        last=$(tail -1 "$B_TMP/fio-runs")
        case "$last" in *"--name=d --ioengine=io_uring "*"--runtime=10000ms"*) ;;
        *) b_fail "$form: fio's command line has not the native defaults: $last" ;; esac
        case "$last" in *--direct=1*) ;; *) b_fail "$form: not direct=1: $last" ;; esac
        grep -q "^d: $dev rw=randread bs=4KiB iodepth=1 numjobs=1 ioengine=io_uring direct=1$" "$B_TMP/out" ||
                b_fail "$form: defaults: $(cat "$B_TMP/out")"
done
$BENCH --backend=fio --name=d --filename=$dev --rw=randread --size=1m >/dev/null 2>"$B_TMP/err" ||
        b_fail "an amount: $(cat "$B_TMP/err")"
case "$(tail -1 "$B_TMP/fio-runs")" in *--runtime=*) b_fail "an amount ends it, yet: $(tail -1 "$B_TMP/fio-runs")" ;; esac
$BENCH --backend=fio --name=d --filename=$dev --rw=randread --offset=255m --ioengine=psync --buffered=1 \
        --runtime=2 >"$B_TMP/out" 2>"$B_TMP/err" || b_fail "its own: $(cat "$B_TMP/err")"
last=$(tail -1 "$B_TMP/fio-runs")
case "$last" in *--direct=*|*--runtime=10000ms*) b_fail "a job's own settings overridden: $last" ;; esac
grep -q "^d: $dev rw=randread bs=4KiB iodepth=1 numjobs=1 ioengine=psync direct=0$" "$B_TMP/out" ||
        b_fail "its own: $(cat "$B_TMP/out")"
# where O_DIRECT is not (ramfs), fio's failure says how to run buffered
if mkdir "$B_TMP/rf" && mount -t ramfs ramfs "$B_TMP/rf" 2>/dev/null; then
        head -c 1048576 /dev/zero >"$B_TMP/rf/f"
        $BENCH --backend=fio --name=d --filename="$B_TMP/rf/f" --rw=read >/dev/null 2>"$B_TMP/err"
        rc=$?
        umount "$B_TMP/rf"
        [ $rc = 1 ] && grep -q "O_DIRECT (try --direct=0: direct=1 is the default where a job sets none)$" \
                "$B_TMP/err" || b_fail "no O_DIRECT: exit $rc: $(cat "$B_TMP/err")"
fi

# 4. the seed's reader-under-writer job file, random_generator=lfsr included
cat >"$B_TMP/seed.fio" <<EOF
[global]
filename=$dev
ioengine=libaio
direct=1
time_based
runtime=1
random_generator=lfsr
norandommap

[reader]
rw=randread
bs=4k
iodepth=1

[writer]
rw=write
bs=128k
iodepth=32
EOF
$BENCH --backend=fio "$B_TMP/seed.fio" >/dev/null 2>"$B_TMP/err"; rc=$?
[ $rc = 3 ] && grep -q "refusing to write to $dev without --allow-write" "$B_TMP/err" || b_fail "seed without --allow-write: exit $rc $(cat "$B_TMP/err")"
for b in native fio; do
        $BENCH -J --backend=$b --allow-write "$B_TMP/seed.fio" >"$B_TMP/seed.json" 2>"$B_TMP/err" || b_fail "seed via $b: $(cat "$B_TMP/err")"
        py "$B_TMP/seed.json" 'd["backend"].startswith("'$b'") and d["jobs"][0]["read"]["total_ios"] > 0 and d["jobs"][1]["write"]["total_ios"] > 0 and d["jobs"][0]["write"]["total_ios"] == 0' ||
                b_fail "seed via $b: $(head -c 600 "$B_TMP/seed.json")"
done

# 5. --compare of a job file with bssplit and verify, through fio, every variant and round
avail=$(sed 's/[][]//g' $q/scheduler)
v1=none; v2=mq-deadline
case " $avail " in *" mq-deadline "*) ;; *) b_skip "$l offers only: $avail" ;; esac
cat >"$B_TMP/verify.fio" <<EOF
[global]
filename=$dev
ioengine=libaio
direct=1
runtime=1
time_based

[reader]
rw=randread
bs=4k
iodepth=1

[writer]
rw=randwrite
bssplit=4k/50:64k/50
iodepth=8
verify=crc32c
size=64m
offset=128m
EOF
b_queue_state $l >"$B_TMP/before"
n0=$(runs)
$BENCH --compare=$v1,$v2 --loops=2 --objective=reader:p99 "$B_TMP/verify.fio" >/dev/null 2>"$B_TMP/err"; rc=$?
[ $rc = 3 ] || b_fail "verify job without --allow-write: exit $rc $(cat "$B_TMP/err")"
[ "$(runs)" = "$n0" ] || b_fail "fio ran before the refusal"
$BENCH --compare=$v1,$v2 --loops=2 --objective=reader:p99 --allow-write "$B_TMP/verify.fio" >"$B_TMP/cmp.txt" 2>"$B_TMP/err" ||
        b_fail "compare via fio: $(cat "$B_TMP/err") $(cat "$B_TMP/cmp.txt")"
[ "$(runs)" = $((n0 + 4)) ] || b_fail "compare: $(($(runs) - n0)) fio runs, want 4"
grep -q "warning: 2 rounds per variant cannot show a significant win" "$B_TMP/err" || b_fail "no rounds warning: $(cat "$B_TMP/err")"
for v in $v1 $v2; do
        sed -n "/^  $v /,/^  [a-z]/p" "$B_TMP/cmp.txt" | grep -q "job writer .*IOPS" || b_fail "no writer row for $v: $(cat "$B_TMP/cmp.txt")"
done
grep -q "^  backend: fio-" "$B_TMP/cmp.txt" && grep -q "objective reader:p99" "$B_TMP/cmp.txt" &&
        grep -q "what the other jobs paid for it, .* against " "$B_TMP/cmp.txt" && grep -q "^    writer: IOPS .* against" "$B_TMP/cmp.txt" && grep -q "restored $l" "$B_TMP/cmp.txt" ||
        b_fail "compare text: $(cat "$B_TMP/cmp.txt")"
b_queue_state $l >"$B_TMP/after"
cmp -s "$B_TMP/before" "$B_TMP/after" || b_fail "not restored: $(diff "$B_TMP/before" "$B_TMP/after")"
# fio's verify state (saved in the current directory at the end) is removed as its data files are
ls local-*-verify.state 2>/dev/null | grep -q . && b_fail "fio's verify state was left in $(pwd): $(ls local-*-verify.state)"
$BENCH -J --compare=$v1,$v2 --loops=2 --objective=reader:p99 --allow-write "$B_TMP/verify.fio" >"$B_TMP/cmp.json" 2>"$B_TMP/err" ||
        b_fail "compare -J via fio: $(cat "$B_TMP/err")"
py "$B_TMP/cmp.json" 'd["compare"]["backend"].startswith("fio-") and all([j["name"] for j in s["jobs"]] == ["reader", "writer"] and s["jobs"][1]["iops"] > 0 for s in d["compare"]["schedulers"]) and sorted(j["jobname"] for j in d["jobs"]) == sorted(f"{n}.{v}.{r}" for n in ("reader", "writer") for v in ("'$v1'", "'$v2'") for r in (1, 2)) and d["compare"]["restored"]' ||
        b_fail "compare JSON: $(head -c 1500 "$B_TMP/cmp.json")"

# 6. per-job rows natively too: a reader under a writer
$BENCH --filename=$dev --allow-write --workload=mixed-latency --compare=$v1,$v2 --loops=1 --runtime=300ms \
        --ramp_time=0 --objective=reader:p99 >"$B_TMP/native-cmp.txt" 2>"$B_TMP/err" || b_fail "native compare: $(cat "$B_TMP/err")"
grep -q "job reader .*IOPS" "$B_TMP/native-cmp.txt" && grep -q "job writer .*IOPS" "$B_TMP/native-cmp.txt" &&
        grep -q "^  backend: native" "$B_TMP/native-cmp.txt" || b_fail "native per-job rows: $(cat "$B_TMP/native-cmp.txt")"

# 6b. options that turn off fio's latencies: ignored and said, as natively, so what the reports are made
# of is measured (before: a p99 objective refused, a cap's p99 0 ns with a "best", a time-based job
# refused as "all in the ramp")
b_queue_state $l >"$B_TMP/before"
for form in "--disable_clat=1 --objective=p99" "--disable_clat=1 --rate_iops=300" "--gtod_reduce=1" "--stats=0" \
        "--unified_rw_reporting=mixed"; do
        # shellcheck disable=SC2086 # the form's words
        $BENCH -J --backend=fio --filename=$dev --rw=randread --runtime=1 --time_based $form --compare=$v1,$v2 \
                --loops=1 >"$B_TMP/noclat.json" 2>"$B_TMP/err"; rc=$?
        off=${form%% *}
        [ $rc = 0 ] && grep -q "^iosched-bench: note: ignored, they turn off fio's figures, which the reports are made of: ${off#--}$" "$B_TMP/err" ||
                b_fail "$form: exit $rc: $(cat "$B_TMP/err")"
        py "$B_TMP/noclat.json" 'all(v["read_clat_p99_ns"] > 0 for v in d["compare"]["schedulers"])' ||
                b_fail "$form: a p99 of 0: $(head -c 600 "$B_TMP/noclat.json")"
        b_queue_state $l | diff "$B_TMP/before" - >/dev/null || b_fail "$form: the disk was not restored"
done
$BENCH --backend=fio --filename=$dev --rw=randread --runtime=300ms --disable_clat=1 >"$B_TMP/noclat.txt" \
        2>"$B_TMP/err" || b_fail "disable_clat, one run: $(cat "$B_TMP/err")"
grep -q "percentiles" "$B_TMP/noclat.txt" || b_fail "disable_clat: no percentiles shown: $(cat "$B_TMP/noclat.txt")"
# stats=0 on the first of two jobs: fio would leave it out of its report, and b's figures be read as a's
printf '[a]\nfilename=%s\nrw=randread\nbs=4k\nruntime=300ms\nstats=0\n[b]\nfilename=%s\nrw=read\nbs=64k\nruntime=300ms\n' \
        "$dev" "$dev" >"$B_TMP/stats0.fio"
$BENCH -J --backend=fio "$B_TMP/stats0.fio" >"$B_TMP/stats0.json" 2>"$B_TMP/err" || b_fail "stats=0: $(cat "$B_TMP/err")"
py "$B_TMP/stats0.json" '[(j["jobname"], j["job options"]["rw"], j["job options"]["bs"], j["read"]["iops"] > 0)
    for j in d["jobs"]] == [("a", "randread", "4096", True), ("b", "read", "65536", True)]' ||
        b_fail "stats=0: not jobs a and b as named: $(head -c 800 "$B_TMP/stats0.json")"

# 7. a typo neither tool has: an unknown option, fio never run
n0=$(runs)
$BENCH --filename=$dev --frobnicate=1 >/dev/null 2>"$B_TMP/err"; rc=$?
[ $rc = 2 ] && grep -q "unknown option --frobnicate" "$B_TMP/err" || b_fail "typo: exit $rc $(cat "$B_TMP/err")"
[ "$(runs)" = "$n0" ] || b_fail "fio ran for a typo"

# 8. no fio in PATH: the error lists what the native engine lacks
PATH=/usr/sbin:/sbin:/nonexistent $BENCH_BIN "$B_TMP/admin.fio" >/dev/null 2>"$B_TMP/err"; rc=$?
[ $rc = 2 ] || b_fail "no fio: exit $rc"
grep -q "does not implement: $lacks, and fio is not installed" "$B_TMP/err" || b_fail "no fio: $(cat "$B_TMP/err")"

# 9. a mounted device: refused before fio starts
if command -v mkfs.ext4 >/dev/null; then
        b_loop m 64
        mkfs.ext4 -q -F "/dev/$m" >/dev/null 2>&1 || b_fail "mkfs.ext4"
        mkdir "$B_TMP/mnt"
        if mount "/dev/$m" "$B_TMP/mnt"; then
                B_MOUNTS="$B_TMP/mnt $B_MOUNTS"
                n0=$(runs)
                $BENCH --allow-write --name=w --filename=/dev/$m --rw=write --randseed=3 --runtime=1 \
                        >/dev/null 2>"$B_TMP/err"; rc=$?
                [ $rc = 3 ] && grep -q "/dev/$m: refusing to write: mounted on $B_TMP/mnt" "$B_TMP/err" ||
                        b_fail "mounted: exit $rc $(cat "$B_TMP/err")"
                [ "$(runs)" = "$n0" ] || b_fail "fio ran on a mounted device"
                umount "$B_TMP/mnt" && B_MOUNTS=""
                fsck.ext4 -n "/dev/$m" >/dev/null 2>&1 || b_fail "the file system was damaged"
        fi
fi

# 10. SIGINT during fio's run: fio's process group ended, the disk restored
sed 's/^runtime=1/runtime=20/' "$B_TMP/verify.fio" >"$B_TMP/long.fio"
b_queue_state $l >"$B_TMP/before"
$BENCH_BIN --unconfined --compare=$v1,$v2 --allow-write "$B_TMP/long.fio" >"$B_TMP/sig.txt" 2>"$B_TMP/sig.err" &
pid=$!
B_PIDS="$B_PIDS $pid"
# the measured run: a process under the bench with fio's run options (fio reading the job
# file, --showcmd, comes first and is not the run; however long either takes)
running() {
        q=$1
        while [ -n "$q" ]; do
                set -- $q; q=""
                for c in "$@"; do
                        tr '\0' ' ' </proc/$c/cmdline 2>/dev/null | grep -q -- '--output-format=json+' && return 0
                        q="$q $(pgrep -P $c | tr '\n' ' ')"
                done
                q=$(echo $q)
        done
        return 1
}
until running $pid; do
        kill -0 $pid 2>/dev/null || break
        sleep 0.1
done
sleep 1
kill -INT $pid
wait $pid; rc=$?
[ $rc = 1 ] || b_fail "SIGINT: exit $rc $(cat "$B_TMP/sig.err")"
grep -q "interrupted; $l restored" "$B_TMP/sig.err" || b_fail "SIGINT message: $(cat "$B_TMP/sig.err")"
sleep 0.5
pgrep -f "$B_TMP/long.fio" >/dev/null && b_fail "fio still runs after SIGINT: $(pgrep -af "$B_TMP/long.fio")"
b_queue_state $l >"$B_TMP/after"
cmp -s "$B_TMP/before" "$B_TMP/after" || b_fail "not restored after SIGINT: $(diff "$B_TMP/before" "$B_TMP/after")"
echo ok
