# requires: tracecmd
# a zstd file as trace-cmd 3.2 and later write it (each CPU's size counts
# the chunk count; tests/gen/mangle-tracedat.py sizes-3.2 of a file of
# trace-cmd 3.1's convert) is read through the uncompressed copy too (it was
# left to libtracecmd, whose memory grows with the file), and every line
# is `trace-cmd report`'s of the original
d=$(mktemp -d) && mkdir "$d/tmp" && mkfifo "$d/fifo" && printf '* %%(name)4000s\n' > "$d/wide" && python3 tests/gen/mangle-tracedat.py sizes-3.2 tests/fixtures/tracedat/host-kvm-v7-zstd.dat "$d/z.dat" && { TMPDIR="$d/tmp" $KTF "$d/z.dat" | diff tests/fixtures/tracedat/host-kvm-v7-zstd.dat.report - && echo same; TMPDIR="$d/tmp" $KTF -f "$d/wide" "$d/z.dat" > "$d/fifo" & pid=$!; exec 3< "$d/fifo"; head -c 4000 <&3 | wc -c; n=$(ls -l /proc/$pid/fd | grep -c -e "$d/tmp/#[0-9]* (deleted)" -e "$d/tmp/kvmtrace_format-.* (deleted)"); echo "copies open: $n"; kill -9 $pid; wait $pid 2> /dev/null; exec 3<&-; }; rm -rf "$d"
