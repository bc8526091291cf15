# requires: tracecmd
# comm, pid, CPU, ts, name and info of every event of every fixture against
# the `trace-cmd report -t` reference recorded with it (FILE.dat.report-t)
sh tests/gen/check-tracedat.sh $KTF tests/fixtures/tracedat/*.dat
