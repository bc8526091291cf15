#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# record-uftrace.sh [OUTDIR] — record the uftrace fixtures of the uftrace
# reader's own tests (default OUTDIR: tests/fixtures/uftrace), beside the
# ones of contrib/uftrace-fixtures.sh, with `uftrace record` (v0.13 used):
#
#   ktf-strargs/   -A/-R with string, float, char and sized values, given
#                  out of index order (the payload layout follows the spec
#                  order), and a function without spec whose auto-args
#                  spec (atoi) applies
#   ktf-autoargs/  -a: every function's spec from the .dbg file (DWARF, -g)
#                  or uftrace's list of libc functions
#   ktf-forkexec/  fork(): a FORK line and a child whose data begins inside
#                  calls; exec: a second session of the same pid
#
# For each NAME also NAME.dump (`uftrace dump`), NAME.replay (`uftrace
# replay`) and NAME.report (`uftrace report`). As in
# contrib/uftrace-fixtures.sh, only the executable's .sym file is kept
# (uftrace writes one per mapped library, ~180 KB); the dump is checked to
# be the same without them.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/uftrace-fixture.sh"
outdir=${1:-$here/../fixtures/uftrace}
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/ktf-demo.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

const char *greet(const char *who, int times, char mark)
{
	return times > 0 && mark ? who : "nobody";
}

double scale(double x, float f)
{
	return x * f;
}

long sum(long a, short b)
{
	return a + b;
}

int child(void)
{
	return fib(3);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	pid_t pid;

	if (argc > 2)
		return child();
	printf("%s %g %ld %d\n", greet("world", n, '!'), scale(1.5, 2.0f),
	       sum(40, 2), fib(n));
	pid = fork();
	if (pid == 0) {
		child();
		execl("/proc/self/exe", argv[0], "2", "exec", (char *)NULL);
		_exit(1);
	}
	waitpid(pid, NULL, 0);
	return 0;
}
EOF
gcc -pg -O0 -g -o "$tmp/ktf-demo" "$tmp/ktf-demo.c"

record() {
	name=$1
	shift
	(cd "$tmp" && uftrace record -d "$name" "$@" ./ktf-demo 3 > /dev/null)
}

record ktf-strargs \
	-A 'greet@arg3/c,arg1/s,arg2/i32' -A 'scale@fparg1,fparg2/32' \
	-A 'sum@arg2/i16,arg1' -A atoi \
	-R 'greet@retval/s' -R 'scale@retval/f64' -R atoi
record ktf-autoargs -a
record ktf-forkexec

rm "$tmp/ktf-demo"
for name in ktf-strargs ktf-autoargs ktf-forkexec; do
	uftrace_fixture "$tmp/$name" "$name" ktf-demo "$outdir"
done
du -a "$outdir" | grep ktf- | sort -k2
