#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the fence around fio is built once, from the targets as
# they were opened before the first round: a write target swapped for a
# symbolic link to a file in another directory after round 1 starts is
# not written through in the rounds after (--allow-write --loops=3).
# The swap is made in step with the rounds, not raced: a stand-in fio
# (built here, first in PATH; fenced as fio is) waits in each round until
# the target is a link, which the test makes once it sees round 1's
# stand-in running, then writes to the path it was given, says on its
# standard error (which the bench passes on) whether it could, and prints
# a report real fio made (asked for the files' names, it prints fio's
# --debug=file lines).  It is given nothing but its standard descriptors:
# the bench passes no other.
# On the old code each round's fence was built in fio's child from the
# path, and the victim was overwritten in rounds 2 and 3.  With Landlock
# only: without it nothing but fio's own open() stands between a path and
# what it names (docs/security.md).
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || b_skip "no fio"
command -v cc >/dev/null || b_skip "no cc (the stand-in fio is built here)"
[ "${IOSCHED_BENCH_LANDLOCK:-}" != 0 ] || b_skip "the fence from handles is Landlock's"
cd "$B_TMP" || b_fail "cd"

mkdir -p bin run other
# the report: real fio's, for the same job on a file of its own, compiled into the stand-in
head -c 65536 /dev/zero >run/target
cp run/target report-target
fio --output-format=json+ --name=w --filename="$B_TMP/report-target" --rw=write --size=64k >report.json 2>/dev/null ||
        b_fail "fio for the report"
python3 -c 'import json, sys; print("static const char report[] = %s;" % json.dumps(open(sys.argv[1]).read()))' \
        report.json >report.h || b_fail "report.h"
cat >standin.c <<'EOC'
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"

int main(int argc, char **argv)
{
        const char *path = NULL;
        struct stat st;
        int run = 0, fd;

        for (int i = 1; i < argc; i++) {
                if (!strcmp(argv[i], "--enghelp")) {
                        puts("Available IO engines:\n\tpsync\n\tsync");
                        return 0;
                }
                /* fio's reading of the files (--debug=file): each name as add_file() prints it */
                if (!strcmp(argv[i], "--debug=file")) {
                        for (int k = 1; k < argc; k++)
                                if (!strncmp(argv[k], "--filename=", 11))
                                        printf("file     1     file 0x1 \"%s\" added at 0\n", argv[k] + 11);
                        return 1;
                }
                if (!strncmp(argv[i], "--filename=", 11))
                        path = argv[i] + 11;
                if (!strcmp(argv[i], "--output-format=json+"))
                        run = 1;
        }
        if (!run || !path)
                return 1;
        /* until the test has made the target a link (a bound against a test that hangs, not a wait) */
        for (int i = 0; i < 12000 && !(lstat(path, &st) == 0 && S_ISLNK(st.st_mode)); i++)
                usleep(10000);
        fd = open(path, O_WRONLY);
        fprintf(stderr, "stand-in round: %s\n", fd >= 0 && pwrite(fd, "overwritten\n", 12, 0) == 12 ? "wrote" :
                "denied");
        fputs(report, stdout);
        return 0;
}
EOC
cc -o bin/fio standin.c || b_fail "cc"
printf 'precious data\n' >other/victim

PATH="$B_TMP/bin:$PATH" "$BENCH_BIN" --backend=fio --allow-write --loops=3 --name=w \
        --filename="$B_TMP/run/target" --rw=write --size=64k >out 2>err &
bench=$!
B_PIDS="$B_PIDS $bench"
# round 1's stand-in running (its fence built): the target becomes a link to the victim
found=
i=0
while [ -z "$found" ] && [ $i -lt 6000 ] && kill -0 $bench 2>/dev/null; do
        for p in /proc/[0-9]*; do
                [ "$(readlink "$p/exe" 2>/dev/null)" = "$B_TMP/bin/fio" ] &&
                        tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -q -- "--output-format=json+" && found=$p && break
        done
        [ -n "$found" ] || { sleep 0.01; i=$((i + 1)); }
done
[ -n "$found" ] || b_fail "round 1's stand-in was never seen: $(cat err)"
rm -f run/target && ln -s "$B_TMP/other/victim" run/target || b_fail "swap"
wait $bench
rc=$?
rounds=$(grep -c "^stand-in round: " err)
[ "$rounds" -ge 2 ] || b_fail "only $rounds round(s) ran (exit $rc): $(cat err)"
[ "$(cat other/victim)" = "precious data" ] ||
        b_fail "the victim was written through the swapped link ($(grep "^stand-in round: " err | tr '\n' ' ')), exit $rc"
grep -q "^stand-in round: denied" err || b_fail "no round was denied: $(cat err)"
echo "rounds: $(grep "^stand-in round: " err | tr '\n' ' ')exit $rc"
exit 0
