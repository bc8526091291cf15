# requires: tracecmd
# host-kvm-v7.dat and mixed-sched.dat (2 CPUs) written as trace-cmd writes
# zlib files (tests/gen/gen-tracedat-zlib.py, 1-page chunks): every line as
# `trace-cmd report` prints the originals, and the uncompressed copy in
# TMPDIR is gone afterwards
d=$(mktemp -d) && mkdir "$d/tmp" && for f in host-kvm-v7 mixed-sched; do python3 tests/gen/gen-tracedat-zlib.py tests/fixtures/tracedat/$f.dat "$d/$f.dat" 1 && TMPDIR="$d/tmp" $KTF "$d/$f.dat" | diff tests/fixtures/tracedat/$f.dat.report - && echo "$f: same as trace-cmd report of the original" || break; done && ls -A "$d/tmp"; rc=$?; rm -rf "$d"; exit $rc
