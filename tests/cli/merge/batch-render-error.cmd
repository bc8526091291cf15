# three kvmtrace inputs and a guest merged from batches of 32 records: a
# rule that cannot print a record's word (%c of 0x9cf6b930) stops the run
# there, after the lines before it; the alignment report spans the
# guest's times up to that record, not those of the rest of its batch,
# as the merge of one event at a time said (expected: the build before)
d=$(mktemp -d) && g=$KTF_BUILDDIR/tests/gen/gen-kvmtrace && $g -n 3000 -s 5 -t 60 >"$d/a" && $g -n 3000 -s 6 -t 60 >"$d/b" && $g -n 3000 -s 9 -r >"$d/c" && $g -n 3000 -s 7 -t 60 >"$d/g" && printf '0 %%(ts)d %%(relts)d\n0x00020014 %%(ts)d %%(1)c\n' >"$d/f" && (cd "$d" && $KTF -f f a b c --guest g --tsc-offset 1000 >out 2>err); rc=$?; wc -l <"$d/out"; tail -2 "$d/out"; cat "$d/err" >&2; rm -rf "$d"; exit $rc
