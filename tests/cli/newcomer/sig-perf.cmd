# requires: tracecmd
# a perf.data goes to the perf reader, ahead of the signatures (they name it only in a build without that reader)
printf 'PERFILE2\150\000\000\000\000\000\000\000' | $KTF
