# requires: tracecmd
# The same damaged table, with a template that prints fields only: nothing
# looks a function up, the table is never read, the output is the
# undamaged file's.
d=$(mktemp -d) && python3 tests/gen/mangle-tracedat.py kallsyms-damage tests/fixtures/tracedat/timer-symbols-v7-zstd.dat "$d/ks.dat" && $KTF -f tests/cli/tracedat/timer-fields.formats tests/fixtures/tracedat/timer-symbols-v7-zstd.dat > "$d/ok" && $KTF -f tests/cli/tracedat/timer-fields.formats "$d/ks.dat" | diff "$d/ok" - && wc -l < "$d/ok" && echo same as the undamaged file; rc=$?; rm -rf "$d"; exit $rc
