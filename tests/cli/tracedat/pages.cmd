# requires: tracecmd
# tests/gen/gen-tracedat-pages.py (see there): time extends, a record
# with its length in its first word, padding, an absolute time stamp and
# missed events (counted, not counted) on ring-buffer pages: as `trace-cmd
# report` prints them (its reference pages.dat.report)
$KTF tests/fixtures/tracedat/pages.dat | diff tests/fixtures/tracedat/pages.dat.report - && echo same as trace-cmd report
