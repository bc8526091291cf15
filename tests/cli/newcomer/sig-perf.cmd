# a perf.data: perf script reads it
printf 'PERFILE2\150\000\000\000\000\000\000\000' | $KTF
