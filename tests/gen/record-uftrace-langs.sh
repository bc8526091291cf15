#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# record-uftrace-langs.sh [OUTDIR] — record the uftrace fixtures of C++,
# Rust and C static functions (default OUTDIR: tests/fixtures/uftrace),
# with `uftrace record` (v0.13 used) and its default perf events:
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
#
# For each NAME: NAME.dump (`uftrace dump`), NAME.replay (`uftrace replay`)
# and NAME.report (`uftrace report`); `uftrace dump --demangle=full` cannot read C++ recorded with -a
# (its specs name demangled functions), c++filt is the reference for the full
# form (see tests/cli/uftrace/demangle-*). Only the executable's .sym and .dbg
# files are kept; the dump is checked to be the same without the others.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
outdir=${1:-$here/../fixtures/uftrace}
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

(cd "$tmp" && g++ -pg -O0 -g -o ktf-cxx ktf-cxx.cc &&
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

record ktf-cxx ktf-cxx -a
record ktf-statics ktf-statics -a
for mv in legacy v0; do
	record ktf-rust-$mv ktf-rust-$mv -A 'fib@arg1/u32' -R 'fib@retval/u32' \
		-A '^rs::total@arg1/p,arg2/u' -R 'total@retval'
done

for name in ktf-cxx ktf-statics ktf-rust-legacy ktf-rust-v0; do
	exe=$name
	d=$tmp/$name.d
	uftrace dump -d "$d" > "$tmp/$name.dump"
	uftrace report -d "$d" > "$tmp/$name.report"
	uftrace replay -d "$d" > "$tmp/$name.replay"
	for f in "$d"/*.sym "$d"/*.dbg; do
		[ -e "$f" ] || continue
		case ${f##*/} in "$exe".sym|"$exe".dbg) ;; *) rm "$f" ;; esac
	done
	uftrace dump -d "$d" | cmp -s - "$tmp/$name.dump" || {
		echo "record-uftrace-langs.sh: $name: dump changed without library files" >&2
		exit 1
	}
	rm -rf "${outdir:?}/$name"
	cp -r "$d" "$outdir/$name"
	cp "$tmp/$name.dump" "$tmp/$name.report" "$tmp/$name.replay" "$outdir/"
done
du -a "$outdir" | grep -E 'ktf-(cxx|statics|rust)' | sort -k2
