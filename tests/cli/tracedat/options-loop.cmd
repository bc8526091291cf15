# requires: tracecmd
# a v7 file whose options section's DONE option points back at the section
# (trace-cmd report 3.1.6 recurses on it until it crashes; we refuse it first)
d=$(mktemp -d) && python3 tests/gen/mangle-tracedat.py options-loop tests/fixtures/tracedat/host-kvm-v7.dat "$d/l.dat" && cd "$d" && $KTF l.dat; rc=$?; rm -rf "$d"; exit $rc
