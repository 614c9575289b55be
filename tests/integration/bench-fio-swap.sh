#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the fence around fio is built once, from the targets as
# they were opened before the first round: a write target swapped for a
# symbolic link to a file in another directory after round 1 starts is
# not written through in the rounds after (--allow-write --loops=3).
# The swap is made in step with the rounds, not raced: a stand-in fio
# (built here, first in PATH; fenced as fio is) tells the test through an
# inherited pipe that a round has started, waits for the word to go on,
# then writes to the path it was given and prints a report real fio made
# (asked for the files' names, it prints fio's --debug=file lines).
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
cat >standin.c <<'EOC'
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* fd 6: a log of the rounds, 7: the report to print, 8: "a round started", 9: "go on" */
int main(int argc, char **argv)
{
        const char *path = NULL;
        char buf[65536], c;
        int run = 0, fd;
        ssize_t n;
        off_t off = 0;

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
        if (write(8, "r\n", 2) != 2 || read(9, &c, 1) != 1)
                return 1;
        fd = open(path, O_WRONLY);
        dprintf(6, "%s\n", fd >= 0 && pwrite(fd, "overwritten\n", 12, 0) == 12 ? "wrote" : "denied");
        while ((n = pread(7, buf, sizeof(buf), off)) > 0) {
                if (write(1, buf, (size_t)n) != n)
                        return 1;
                off += n;
        }
        return 0;
}
EOC
cc -o bin/fio standin.c || b_fail "cc"
# the report: real fio's, for the same job on a file of its own
head -c 65536 /dev/zero >run/target
cp run/target report-target
fio --output-format=json+ --name=w --filename="$B_TMP/report-target" --rw=write --size=64k >report.json 2>/dev/null ||
        b_fail "fio for the report"
printf 'precious data\n' >other/victim

mkfifo ready go || b_fail "mkfifo"
exec 6>>rounds.log 7<report.json 8<>ready 9<>go
(
        PATH="$B_TMP/bin:$PATH" "$BENCH_BIN" --backend=fio --allow-write --loops=3 --name=w \
                --filename="$B_TMP/run/target" --rw=write --size=64k >out 2>err
        echo "end $?" >&8
) &
B_PIDS="$B_PIDS $!"
rounds=0
while read -r word rc <&8; do
        [ "$word" = end ] && break
        rounds=$((rounds + 1))
        if [ $rounds = 1 ]; then       # round 1 has started: the target becomes a link to the victim
                rm -f run/target && ln -s "$B_TMP/other/victim" run/target || b_fail "swap"
        fi
        echo go >&9
done
exec 8>&- 9>&-
[ "$rounds" -ge 2 ] || b_fail "only $rounds round(s) ran (exit $rc): $(cat err)"
[ "$(cat other/victim)" = "precious data" ] ||
        b_fail "the victim was written through the swapped link ($(tr '\n' ' ' <rounds.log)), exit $rc: $(tail -2 err)"
grep -q denied rounds.log || b_fail "no round was denied: $(tr '\n' ' ' <rounds.log)"
echo "rounds: $(tr '\n' ' ' <rounds.log), exit $rc"
exit 0
