# requires: tracecmd
# host-kvm-v7.dat and mixed-sched.dat written as trace-cmd 3.2 and later
# write zlib files (tests/gen/gen-tracedat-zlib.py --3.2: each CPU's size
# counts the chunk count; trace-cmd 3.1 left it out, see zlib-default):
# every line as `trace-cmd report` prints the originals
d=$(mktemp -d) && for f in host-kvm-v7 mixed-sched; do python3 tests/gen/gen-tracedat-zlib.py --3.2 tests/fixtures/tracedat/$f.dat "$d/$f.dat" 1 && $KTF "$d/$f.dat" | diff tests/fixtures/tracedat/$f.dat.report - && echo "$f: same as trace-cmd report of the original" || break; done; rc=$?; rm -rf "$d"; exit $rc
