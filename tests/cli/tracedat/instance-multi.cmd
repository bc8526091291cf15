# requires: tracecmd
# issue 35: the v7 and v6 files of instance-v7 as two inputs: each file's
# name before its header, the instance names before their lines, one
# width for all; trace-cmd report -i A -i B's output byte for byte
cd tests/fixtures/tracedat && $KTF instance-v7.dat instance-v6.dat | diff instance-v7+v6.report - && echo same as trace-cmd report
