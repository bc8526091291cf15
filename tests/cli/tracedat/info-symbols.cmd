# requires: tracecmd
# %(info)s alone names the functions as trace-cmd report does (its text
# after "[cpu]ts: name: "); the first symbol lookup loads the kallsyms
# the v7 zstd copy left out
ref=$(mktemp) && sed -e 1d -e 's/^[^[]*\[[0-9]\{3\}\][0-9.]*: [a-z_]*: *//' tests/fixtures/tracedat/timer-symbols-v7-zstd.dat.report > "$ref" && $KTF -f tests/cli/tracedat/info-only.formats tests/fixtures/tracedat/timer-symbols-v7-zstd.dat | diff "$ref" - && echo same as trace-cmd report; rm -f "$ref"
