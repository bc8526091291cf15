# requires: tracecmd
# a zstd file is read through an uncompressed copy (libtracecmd 1.3.1 keeps
# every zstd chunk it decompressed): the copy is open while the reader
# runs (here held up by a full pipe), never has a name in TMPDIR, and
# nothing is left behind when the process is killed (valgrind's own files and pipes
# in TMPDIR, under check-valgrind, are not counted)
d=$(mktemp -d) && mkdir "$d/tmp" && mkfifo "$d/fifo" && printf '* %%(name)4000s\n' > "$d/wide" && { TMPDIR="$d/tmp" $KTF -f "$d/wide" tests/fixtures/tracedat/host-kvm-v7-zstd.dat > "$d/fifo" & pid=$!; exec 3< "$d/fifo"; head -c 4000 <&3 | wc -c; n=$(ls -l /proc/$pid/fd | grep -c -e "$d/tmp/#[0-9]* (deleted)" -e "$d/tmp/kvmtrace_format-.* (deleted)"); echo "copies open: $n"; echo "names in TMPDIR: $(ls -A "$d/tmp" | grep -vc -e '^valgrind_' -e '^vgdb-')"; kill -9 $pid; wait $pid 2> /dev/null; exec 3<&-; echo "after kill -9: $(ls -A "$d/tmp" | grep -vc -e '^valgrind_' -e '^vgdb-')"; }; rm -rf "$d"
