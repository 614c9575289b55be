#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: on the fio backend, fio makes new files only in the run's
# scratch directory (D/.iosched-bench.XXXXXX for a layout directory D),
# the only place the fence lets it make, truncate and remove files; D and
# its subtree get no right.  With Landlock, a job laying out D/new cannot
# delete a trigger file made beside it while fio runs (it could when D's
# subtree was open); an existing one is refused before fio starts.  On both
# paths (Landlock, and IOSCHED_BENCH_LANDLOCK=0 --unconfined): new files
# named by filename=, by directory= and fio's default names, and by a log
# prefix are made there; the logs end in D under fio's names, nothing else
# stays (a log named "off" or "0" too: fio takes any value as the prefix;
# a log of all jobs, per_job_logs=0, is appended to, as fio does; a data
# file named like a log of the job's prefix is not one);
# an existing file fio would remove (smaller than the job needs, or
# unlink=1; also when another job writes it first) is refused before fio
# starts (exit 3) and kept, as are a new
# file in a directory that does not exist (fio would make it) and a job
# renamed global* (on fio's command line, its settings every later job's).
# The output files of exec_prerun= and ioengine=exec, which fio writes in
# its working directory, are made there by the bench and written by fio.
# The buffers' file of --mem=mmap:FILE is made there too when new, and
# refused when it exists (fio would truncate it), on both paths.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || b_skip "no fio"

D=$B_TMP/layout
left() { ls -A "$D" | grep -v -x -e sub -e sibling -e small; }
# the trigger's run: its fio (argv names the job by a name no other run of this test, another lane, uses)
id=${B_TMP##*-}
fio_runs() { pgrep -f -- "--name=trig-$id( |\$)" | while read -r p; do
        [ "$(cat /proc/$p/comm 2>/dev/null)" = fio ] && echo $p; done | grep -q .; }
gone() { ! kill -0 "$1" 2>/dev/null || case $(ps -o stat= -p "$1") in Z*) true ;; *) false ;; esac; }
for mode in landlock unconfined; do
        case $mode in
        landlock) run() { env -u IOSCHED_BENCH_LANDLOCK $BENCH --backend=fio "$@"; } ;;
        *) run() { IOSCHED_BENCH_LANDLOCK=0 $BENCH --backend=fio --unconfined "$@"; } ;;
        esac
        rm -rf "$D" && mkdir -p "$D/sub" || b_fail "mkdir"
        printf 'precious\n' >"$D/sub/victim"
        printf 'sibling\n' >"$D/sibling"
        printf 'small\n' >"$D/small"

        # filename= a new file, with a bandwidth log beside it
        run --allow-write --filename="$D/new" --size=1m --rw=write --runtime=1 --write_bw_log="$D/bw" \
                >"$B_TMP/out" 2>"$B_TMP/err" || b_fail "$mode: a new file in $D: exit $?: $(cat "$B_TMP/err")"
        ls "$D"/bw_bw.*.log >/dev/null 2>&1 || b_fail "$mode: the log is not in $D: $(ls -A "$D")"
        rm -f "$D"/bw_*.log
        # a log prefix fio takes as it is, "off" too (with Landlock fio could not open it, and the run
        # ended 0 without it)
        run --allow-write --filename="$D/new" --size=1m --rw=write --runtime=1 --write_lat_log="$D/off" \
                >"$B_TMP/out" 2>"$B_TMP/err" || b_fail "$mode: --write_lat_log=$D/off: exit $?: $(cat "$B_TMP/err")"
        ls "$D"/off_lat.*.log >/dev/null 2>&1 || b_fail "$mode: the log named off is not in $D: $(ls -A "$D")"
        rm -f "$D"/off_*.log
        (cd "$D" && run --allow-write --filename="$D/new" --size=1m --rw=write --runtime=1 --write_bw_log=0) \
                >"$B_TMP/out" 2>"$B_TMP/err" || b_fail "$mode: --write_bw_log=0: exit $?: $(cat "$B_TMP/err")"
        ls "$D"/0_bw.*.log >/dev/null 2>&1 || b_fail "$mode: the log named 0 is not in $D: $(ls -A "$D")"
        rm -f "$D"/0_*.log
        # a log of all jobs (per_job_logs=0), which fio appends to: appended to, not replaced
        printf 'OLD LOG LINE\n' >"$D/p_bw.log"
        run --allow-write --filename="$D/new" --size=1m --rw=write --runtime=1 --per_job_logs=0 \
                --write_bw_log="$D/p" >"$B_TMP/out" 2>"$B_TMP/err" ||
                b_fail "$mode: --per_job_logs=0: exit $?: $(cat "$B_TMP/err")"
        [ "$(head -1 "$D/p_bw.log")" = "OLD LOG LINE" ] && [ "$(wc -l <"$D/p_bw.log")" -gt 1 ] ||
                b_fail "$mode: --per_job_logs=0: $D/p_bw.log was not appended to: $(head -c 300 "$D/p_bw.log")"
        rm -f "$D/p_bw.log"
        [ -z "$(left)" ] || b_fail "$mode: left in $D after the run: $(left)"
        # a data file named like a log of the job's prefix (p_1.log.0.1), one fio names and the checks'
        # reading does not (nrfiles=0x2: two): removed with the scratch directory, not moved to D nor
        # appended to D's file of its name
        printf 'victim\n' >"$D/p_1.log.0.1"
        run --allow-write --name=p_1.log --directory="$D" --nrfiles=0x2 --rw=read --size=64k --runtime=1 \
                --write_bw_log="$D/p" >"$B_TMP/out" 2>"$B_TMP/err"
        rc=$?
        [ "$(cat "$D/p_1.log.0.1")" = victim ] ||
                b_fail "$mode: a data file named like a log: $D/p_1.log.0.1 changed (exit $rc): $(cat "$B_TMP/err")"
        rm -f "$D/p_1.log.0.1"
        run --allow-write --name=p_1.log --directory="$D" --nrfiles=0x2 --rw=read --size=64k --runtime=1 \
                --write_bw_log="$D/p" >"$B_TMP/out" 2>"$B_TMP/err"
        rc=$?
        rm -f "$D"/p_bw.*.log
        [ -z "$(left)" ] || b_fail "$mode: a data file named like a log: left in $D (exit $rc): $(left)"

        # fio's own names under directory=, two clones of two files each
        run --allow-write --name=j --directory="$D" --numjobs=2 --nrfiles=2 --size=1m --rw=randwrite \
                --runtime=1 >"$B_TMP/out" 2>"$B_TMP/err" ||
                b_fail "$mode: fio's names in $D: exit $?: $(cat "$B_TMP/err")"
        [ -z "$(left)" ] || b_fail "$mode: left in $D after the run: $(left)"

        # the output files fio writes in its working directory for commands (--allow-exec): made by the
        # bench there, written by fio, kept
        (cd "$D" && run --allow-exec --allow-write --name=e --ioengine=exec --program=/bin/echo \
                --arguments=out --runtime=1 --time_based --exec_prerun="echo pre") >"$B_TMP/out" 2>"$B_TMP/err" ||
                b_fail "$mode: ioengine=exec: exit $?: $(cat "$B_TMP/err")"
        grep -q out "$D/e.stdout" && grep -q pre "$D/e.prerun.txt" ||
                b_fail "$mode: the commands' output is not in $D: $(ls -A "$D"): $(cat "$B_TMP/err")"
        rm -f "$D/e.stdout" "$D/e.stderr" "$D/e.prerun.txt"

        # an existing file fio would remove and lay out anew, or delete: refused, kept
        # (also where another job of the run writes it first: each job's use is checked)
        for form in "--rw=write --size=1m" "--rw=read --size=4k --unlink=1" \
                    "--name=a --rw=write --size=4 --name=b --rw=read --size=4 --unlink=1" \
                    "--name=a --rw=write --size=4 --name=b --rw=read --size=1m"; do
                run --allow-write --filename="$D/small" $form --runtime=1 >"$B_TMP/out" 2>"$B_TMP/err"
                rc=$?
                [ $rc = 3 ] || b_fail "$mode: $form on an existing file: exit $rc, want 3: $(cat "$B_TMP/err")"
                grep -q "may remove only the files it makes" "$B_TMP/err" ||
                        b_fail "$mode: $form: the refusal does not say why: $(cat "$B_TMP/err")"
                [ "$(cat "$D/small")" = small ] || b_fail "$mode: $form: $D/small was changed"
        done
        # what fio would make a directory for, or read as [global]: refused before fio starts
        head -c 65536 /dev/zero >"$D/big"
        printf '[a]\nfilename=%s/big\nsize=4k\n[b]\nname=global_r\nrw=write\nsize=4k\n' "$D" >"$B_TMP/g.fio"
        printf '[c]\nfilename=%s/big\nsize=4k\n' "$D" >>"$B_TMP/g.fio"
        for form in "--name=j --filename=$D/none/f --size=1m --rw=write" "--name=j --directory=$D/none --size=1m" \
                    "$B_TMP/g.fio"; do
                run --allow-write $form >"$B_TMP/out" 2>"$B_TMP/err"
                rc=$?
                [ $rc = 3 ] || b_fail "$mode: $form: exit $rc, want 3: $(cat "$B_TMP/err")"
                [ ! -e "$D/none" ] || b_fail "$mode: $form: fio made $D/none"
                [ "$(cat "$D/sibling")" = sibling ] || b_fail "$mode: $form: $D/sibling was changed"
                [ "$(tr -d '\0' <"$D/big" | wc -c)" = 0 ] || b_fail "$mode: $form: $D/big was written"
        done
        rm -f "$D/big"
        [ -z "$(left)" ] || b_fail "$mode: left in $D after the refusals: $(left)"
        # the buffers' file (--mem=mmap:FILE): a new one made in the scratch directory and removed; an
        # existing one, which fio would truncate, refused before fio starts
        run --allow-write --filename="$D/new" --size=1m --rw=write --runtime=1 --mem=mmap:"$D/buf" \
                >"$B_TMP/out" 2>"$B_TMP/err" || b_fail "$mode: --mem=mmap: a new file: exit $?: $(cat "$B_TMP/err")"
        [ -z "$(left)" ] || b_fail "$mode: left in $D after --mem=mmap: $(left)"
        run --allow-write --filename="$D/new" --size=1m --rw=write --runtime=1 --mem=mmap:"$D/sub/victim" \
                >"$B_TMP/out" 2>"$B_TMP/err"
        rc=$?
        [ $rc = 3 ] || b_fail "$mode: --mem=mmap: on an existing file: exit $rc, want 3: $(cat "$B_TMP/err")"
        grep -q "fio may change only the files it makes" "$B_TMP/err" ||
                b_fail "$mode: --mem=mmap: the refusal does not say why: $(cat "$B_TMP/err")"
        [ "$(cat "$D/sub/victim")" = precious ] ||
                b_fail "--mem=mmap: beside a new file changed $D/sub/victim: $(wc -c <"$D/sub/victim") bytes"
        [ -z "$(left)" ] || b_fail "$mode: left in $D after the refusals: $(left)"
        [ $mode = landlock ] || continue
        # an existing trigger file is refused (fio removes it as it starts); what the fence holds: one
        # made beside the new file once fio runs is not fio's to remove (the layout directory's
        # subtree is not fio's), and fio's trigger still ends the time-based run
        run --allow-write --filename="$D/new" --size=1m --rw=write --runtime=1 --trigger-file="$D/sibling" \
                >"$B_TMP/out" 2>"$B_TMP/err"
        rc=$?
        [ $rc = 3 ] || b_fail "an existing --trigger-file: exit $rc, want 3: $(cat "$B_TMP/err")"
        [ -e "$D/sibling" ] || b_fail "--trigger-file beside a new file removed $D/sibling"
        env -u IOSCHED_BENCH_LANDLOCK $BENCH --backend=fio --allow-write --name=trig-$id \
                --filename="$D/new" --size=1m --rw=write --time_based --runtime=600 --trigger-file="$D/trig" \
                >"$B_TMP/out" 2>"$B_TMP/err" &
        bench=$!
        B_PIDS="$B_PIDS $bench"
        wait_for 60000 fio_runs || b_fail "the trigger's run: fio never started: $(cat "$B_TMP/err")"
        printf 'trigger\n' >"$D/trig"
        wait_for 120000 gone $bench || b_fail "fio's trigger did not end the run: $(cat "$B_TMP/err")"
        wait $bench
        rc=$?
        [ -e "$D/trig" ] || b_fail "fio removed the trigger file beside a new file (exit $rc)"
        rm -f "$D/trig"
        [ -z "$(left)" ] || b_fail "left in $D after the fenced runs: $(left)"
done
echo ok
