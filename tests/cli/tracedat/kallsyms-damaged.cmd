# requires: tracecmd
# A zstd file whose kallsyms table no longer inflates (one byte changed
# in its middle; its sizes and frame header intact): a copy leaves the
# table out and it is read at the first lookup, here the first event's
# text. That event prints as in a file without kallsyms (the address),
# then the input stops, saying what is wrong and where.
d=$(mktemp -d) && python3 tests/gen/mangle-tracedat.py kallsyms-damage tests/fixtures/tracedat/timer-symbols-v7-zstd.dat "$d/ks.dat" && cd "$d" && $KTF ks.dat; rc=$?; rm -rf "$d"; exit $rc
