# requires: tracecmd
# comm, pid, CPU, ts, name and info of every event of every fixture against
# the `trace-cmd report -t` reference recorded with it (FILE.dat.report-t)
# (class-damaged.dat and class-badpage.dat: what is damaged is left out;
# pages.dat: its dropped-event notes, checked by the pages case;
# instance-*.dat: their buffer's name starts each line, checked byte for
# byte by the instance-* cases)
sh tests/gen/check-tracedat.sh $KTF $(ls tests/fixtures/tracedat/*.dat | grep -v -e class-damaged -e class-badpage -e instance- -e pages.dat)
