#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# record-uftrace-cases.sh [OUTDIR] — uftrace fixtures for the cases where
# reading the data as uftrace reads it takes care (default OUTDIR:
# tests/fixtures/uftrace), small programs of our own recorded with
# `uftrace record` (v0.13 used; --no-event, as uftrace's own tests run,
# but for the ktf-ev* ones):
#
#   ktf-oldsess    task.txt as older uftrace wrote it: "SESS ... tid=PID"
#                  (the recording's SESS lines rewritten; uftrace reads
#                  both spellings)
#   ktf-argspec    -A calloc@arg2 --auto-args (calloc's arguments from -A,
#                  its return value from auto-args) and
#                  -A many@arg1,arg9999999,arg2,arg4294967295 (index -1
#                  for the last, an argument: uftrace keeps argN in an int)
#   ktf-names      C++: a static initializer, a lambda, an anonymous
#                  namespace, an ABI tag, a class local to a function, an
#                  inheriting constructor, as uftrace spells them
#   ktf-tfilter    -t 1ms saved in default.opts with a trace trigger on a
#                  short call: report hides it and charges its time to its
#                  caller; the dump shows it
#   ktf-noreturn   pthread_exit() in a thread; an exec from a thread
#                  while the main thread waits (main left open, named in
#                  the new program as report names it: <ADDR>, a row of
#                  its own)
#   ktf-daemon     daemon() (the parent leaves inside it, the child's data
#                  starts with its exit), then a thread in the child (in
#                  the program of the child's parent: it has no session
#                  of its own), then the child's exec as in ktf-noreturn
#   ktf-nosym      the program's .sym removed: every address unresolved,
#                  "<ADDR>" in the report
#   ktf-evdaemon   ktf-daemon with perf events (sched, task): a task
#                  whose last record is a perf event ends where uftrace
#                  ends it (the last perf event of all)
#   ktf-evtfilter  ktf-tfilter with perf events: pauses shorter than the
#                  filter go, the others stay
#
# For each NAME also NAME.dump, .report and .replay (uftrace_fixture; no
# ktf-tfilter.replay nor ktf-evtfilter.replay: replay applies the saved
# time filter too) and
# NAME.avg (`uftrace report --avg-total`), taken after the changes above.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/uftrace-fixture.sh"
outdir=${1:-$here/../fixtures/uftrace}
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/ktf-cases.c" <<'EOF'
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int many(long a, long b, long c, long d)
{
	return (int)(a + b + c + d);
}

int tiny(int x)
{
	return x + 1;
}

void slow(void)
{
	usleep(2000);
}

int caller(void)
{
	slow();
	return tiny(1);
}

void *quitter(void *arg)
{
	pthread_exit(arg);
}

void waiter(void)
{
	for (;;)
		pause();
}

void *execer(void *arg)
{
	usleep(1000);
	execl("/proc/self/exe", "demo-cases", "done", (char *)NULL);
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t;
	char *p;

	if (argc > 1 && !strcmp(argv[1], "done"))
		return tiny(0) - 1;
	p = calloc(3, 4);
	free(p);
	many(12, 0, 1, 0);
	caller();
	pthread_create(&t, NULL, quitter, NULL);
	pthread_join(t, NULL);
	if (argc > 1 && !strcmp(argv[1], "daemon")) {
		daemon(1, 1);
		pthread_create(&t, NULL, quitter, NULL);
		pthread_join(t, NULL);
	}
	if (argc > 1) {
		pthread_create(&t, NULL, execer, NULL);
		waiter();
	}
	return 0;
}
EOF
gcc -pg -O0 -g -o "$tmp/demo-cases" "$tmp/ktf-cases.c" -lpthread

cat > "$tmp/ktf-names.cpp" <<'EOF'
#include <cstdio>
#include <string>

struct Base {
	int v;
	Base(int x) : v(x) {}
};
struct Derived : Base {
	using Base::Base;
};

namespace {
int hidden(int x) { return x + 1; }
}

std::string tagged(int n) { return std::string(n, 'x'); }

int outer(int a, char b)
{
	struct Guard {
		int n;
		Guard(int k) : n(k) {}
		~Guard() { n = 0; }
	};
	Guard g(a + b);
	return g.n;
}

struct ABC {
	static int foo() { return 3; }
};
static int initval = ABC::foo();

int main()
{
	Derived d(initval);
	auto add = [](int x, int y) { return x + y; };
	int r = hidden(d.v) + outer(1, 2) + add(3, 4);

	r += (int)tagged(2).size();
	std::printf("%d\n", r);
	return 0;
}
EOF
g++ -pg -O0 -fno-inline -o "$tmp/demo-names" "$tmp/ktf-names.cpp"

record() {
	name=$1
	shift
	(cd "$tmp" && uftrace record --no-event -d "$name" "$@" > /dev/null)
}

record_events() {
	name=$1
	shift
	(cd "$tmp" && uftrace record -d "$name" "$@" > /dev/null)
}

record ktf-oldsess ./demo-cases
sed -i 's/^\(SESS timestamp=[0-9.]*\) pid=/\1 tid=/' "$tmp/ktf-oldsess/task.txt"
grep -q '^SESS timestamp=[0-9.]* tid=' "$tmp/ktf-oldsess/task.txt"
record ktf-argspec -A calloc@arg2 \
	-A 'many@arg1,arg9999999,arg2,arg4294967295' --auto-args ./demo-cases
record ktf-names ./demo-names
record ktf-tfilter -t 1ms -T 'tiny@trace' ./demo-cases
record ktf-noreturn ./demo-cases exec
record ktf-daemon ./demo-cases daemon
record ktf-nosym ./demo-cases
record_events ktf-evdaemon ./demo-cases daemon
record_events ktf-evtfilter -t 1ms -T 'tiny@trace' ./demo-cases
rm "$tmp"/ktf-nosym/demo-cases.sym
# uftrace reads an executable that is still there for symbols it lacks
rm "$tmp/demo-cases" "$tmp/demo-names"

for name in ktf-oldsess ktf-argspec ktf-names ktf-tfilter ktf-noreturn \
	ktf-daemon ktf-nosym ktf-evdaemon ktf-evtfilter; do
	exe=demo-cases
	[ "$name" = ktf-names ] && exe=demo-names
	uftrace report --avg-total -d "$tmp/$name" > "$tmp/$name.avg"
	uftrace_fixture "$tmp/$name" "$name" "$exe" "$outdir"
	cp "$tmp/$name.avg" "$outdir/"
done
# replay hides what the saved time filter hides; our records are all there
rm "$outdir/ktf-tfilter.replay" "$outdir/ktf-evtfilter.replay"
du -a "$outdir" |
	grep -E 'ktf-(oldsess|argspec|names|tfilter|noreturn|daemon|nosym|evdaemon|evtfilter)' |
	sort -k2
