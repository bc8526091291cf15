#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# record-uftrace-langs.sh [OUTDIR [NAME...]] — record the uftrace fixtures
# of C++, Rust, C static functions, C enums and event data (default OUTDIR:
# tests/fixtures/uftrace; default NAMEs: all of them), with `uftrace record`
# (v0.13 used) and its default perf events:
#
#   ktf-cxx/          g++ -pg -g, recorded with -a: mangled names (templates,
#                     operators, constructors, an anonymous namespace, a
#                     lambda), auto-args specs from DWARF and uftrace's list
#                     (operator new), pointers, structs returned by value
#   ktf-statics/      gcc -pg -g, two files each with a static helper() of
#                     other arguments, recorded with -a: the .dbg specs
#                     belong to addresses, not names
#   ktf-rust-legacy/  rustc -Z instrument-mcount, legacy mangling, with -A
#   ktf-rust-v0/      the same program, v0 mangling
#   ktf-enum/         gcc -pg -g, recorded with -a: enum arguments and an
#                     enum return value ("E:" lines of the .dbg), exact
#                     names, OR-ed flags, values no name covers, a negative
#                     enumerator, and open() with uftrace's own enum of
#                     flags (the info file's enumauto)
#   ktf-evdata/       gcc -pg, recorded with -T FUNC@read=proc/statm and
#                     read=page-fault, and --watch cpu: read:, diff: and
#                     watch:cpu events with data
#   ktf-forksched/    gcc -pg: a forked child sleeping inside functions and
#                     in the caller of fork(), the parent in waitpid(): the
#                     sched-out/sched-in pairs uftrace report counts as
#                     linux:schedule (user stack count above 0) and not
#
# For each NAME: NAME.dump (`uftrace dump`), NAME.replay (`uftrace replay`)
# and NAME.report (`uftrace report`); `uftrace dump --demangle=full` cannot read C++ recorded with -a
# (its specs name demangled functions), c++filt is the reference for the full
# form (see tests/cli/uftrace/demangle-*). Only the executable's .sym and .dbg
# files are kept; the dump is checked to be the same without the others.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/uftrace-fixture.sh"
outdir=${1:-$here/../fixtures/uftrace}
[ $# -gt 0 ] && shift
names=${*:-ktf-cxx ktf-statics ktf-rust-legacy ktf-rust-v0 ktf-enum ktf-evdata ktf-forksched}
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rustc=${RUSTC:-$HOME/.cargo/bin/rustc}

cat > "$tmp/ktf-cxx.cc" <<'SRC'
#include <cstdio>
#include <vector>

namespace geo {
struct Point {
	int x, y;
	Point(int a, int b) : x(a), y(b) {}
	int dot(const Point &o) const { return x * o.x + y * o.y; }
};

template <typename T> T twice(T v) { return v + v; }
}

namespace {
int hidden(int n) { return n * 3; }
}

static long total(const std::vector<int> &v)
{
	long s = 0;
	for (int x : v)
		s += x;
	return s;
}

int main()
{
	std::vector<int> v;
	geo::Point a(1, 2), b(3, 4);
	auto add = [](int p, int q) { return p + q; };

	for (int i = 0; i < 2; i++)
		v.push_back(geo::twice(i));
	std::printf("%d %ld %d %g %d\n", a.dot(b), total(v), hidden(2),
		    geo::twice(1.5), add(1, 2));
	return 0;
}
SRC

cat > "$tmp/ktf-statics-a.c" <<'SRC'
int use_a(int n);

static int helper(int n, const char *s)
{
	return n + s[0];
}

int use_a(int n)
{
	return helper(n, "a");
}
SRC
cat > "$tmp/ktf-statics-b.c" <<'SRC'
int use_b(long x);

static long helper(long x)
{
	return x * 2;
}

int use_b(long x)
{
	return (int)helper(x);
}
SRC
cat > "$tmp/ktf-statics.c" <<'SRC'
int use_a(int n);
int use_b(long x);

int main(void)
{
	return use_a(1) + use_b(2) > 0 ? 0 : 1;
}
SRC

cat > "$tmp/ktf-rust.rs" <<'SRC'
trait Shape {
    fn area(&self) -> u64;
}

struct Square(u64);

impl Shape for Square {
    #[inline(never)]
    fn area(&self) -> u64 {
        self.0 * self.0
    }
}

#[inline(never)]
fn total<T: Shape>(v: &[T]) -> u64 {
    v.iter().map(|s| s.area()).sum()
}

#[inline(never)]
fn fib(n: u32) -> u32 {
    if n < 2 { n } else { fib(n - 1) + fib(n - 2) }
}

fn main() {
    let v = [Square(2), Square(3)];
    let h = std::thread::spawn(move || fib(3));
    let r = h.join().unwrap();
    println!("{} {} {}", fib(4), total(&v), r);
}
SRC

cat > "$tmp/ktf-enum.c" <<'SRC'
#include <fcntl.h>
#include <unistd.h>

enum color { RED, GREEN, BLUE = 5 };
enum mode { M_READ = 1, M_WRITE = 2, M_EXEC = 4 };
typedef enum { T_NONE = -1, T_ONE = 1 } tval;

int paint(enum color c, int n)
{
	return c + n;
}

int open_mode(enum mode m)
{
	return (int)m;
}

int tv(tval t)
{
	return t == T_NONE;
}

enum color pick(int n)
{
	return n ? BLUE : GREEN;
}

int main(void)
{
	int s = 0, fd;

	s += paint(RED, 1);
	s += paint(BLUE, 2);
	s += paint((enum color)3, 3);
	s += open_mode(M_READ);
	s += open_mode(M_READ | M_WRITE | M_EXEC);
	s += open_mode((enum mode)(M_WRITE | 8));
	s += open_mode((enum mode)0);
	s += open_mode((enum mode)200000);
	s += tv(T_NONE);
	s += tv(T_ONE);
	s += tv((tval)7);
	s += pick(1) + pick(0);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	return s > 0 ? 0 : 1;
}
SRC

cat > "$tmp/ktf-evdata.c" <<'SRC'
#include <stdlib.h>
#include <string.h>

int work(int n)
{
	char *p = malloc(1 << 20);
	int i, s = 0;

	memset(p, n, 1 << 20);
	for (i = 0; i < (1 << 20); i += 4096)
		s += p[i];
	free(p);
	return s;
}

int main(void)
{
	return work(1) + work(2) > 0 ? 0 : 1;
}
SRC

cat > "$tmp/ktf-forksched.c" <<'SRC'
#include <sys/wait.h>
#include <unistd.h>

int nap(int us)
{
	return usleep(us);
}

int work(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += nap(2000);
	return s;
}

int main(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		work(2);
		usleep(2000);
		work(1);
		_exit(0);
	}
	work(1);
	waitpid(pid, NULL, 0);
	return 0;
}
SRC

(cd "$tmp" && gcc -pg -O0 -o ktf-forksched ktf-forksched.c &&
	gcc -pg -O0 -g -o ktf-enum ktf-enum.c &&
	gcc -pg -O0 -o ktf-evdata ktf-evdata.c &&
	g++ -pg -O0 -g -o ktf-cxx ktf-cxx.cc &&
	gcc -pg -O0 -g -o ktf-statics ktf-statics.c ktf-statics-a.c \
		ktf-statics-b.c)
for mv in legacy v0; do
	(cd "$tmp" && RUSTC_BOOTSTRAP=1 "$rustc" -C opt-level=0 \
		-Z instrument-mcount -Z unstable-options \
		-C symbol-mangling-version=$mv -C force-frame-pointers=yes \
		-o ktf-rust-$mv ktf-rust.rs)
done

record() {
	name=$1
	exe=$2
	shift 2
	(cd "$tmp" && uftrace record -d "$name.d" "$@" "./$exe" > /dev/null)
}

for name in $names; do
	case $name in
	ktf-cxx | ktf-statics | ktf-enum)
		record $name $name -a ;;
	ktf-rust-*)
		record $name $name -A 'fib@arg1/u32' -R 'fib@retval/u32' \
			-A '^rs::total@arg1/p,arg2/u' -R 'total@retval' ;;
	ktf-forksched)
		record $name $name ;;
	ktf-evdata)
		record $name $name --watch cpu \
			-T 'work@read=proc/statm,read=page-fault' \
			-T 'main@read=page-fault' ;;
	*)
		echo "record-uftrace-langs.sh: no fixture $name" >&2
		exit 2 ;;
	esac
done

for name in $names; do
	uftrace_fixture "$tmp/$name.d" "$name" "$name" "$outdir"
done
du -a "$outdir" | grep -E 'ktf-(cxx|statics|rust|enum|evdata|forksched)' | sort -k2
