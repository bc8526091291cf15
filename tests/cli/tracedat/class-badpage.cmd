# requires: tracecmd
# tests/gen/gen-tracedat-classes.py badpage: CPU 0's second page claims
# more than a page; libtracecmd (and trace-cmd report, silently) end CPU 0
# there. The page is said and counted (exit 1), and CPU 0 goes on at its
# third page: /p136 to /p149 print after what trace-cmd report prints
$KTF tests/fixtures/tracedat/class-badpage.dat
