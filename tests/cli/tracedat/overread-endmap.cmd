# requires: tracecmd
# issue 34 item 16: tests/gen/gen-tracedat-overread.py endmap: the last
# record of the file's last page (CPU 1) has a __data_loc text without a
# NUL that runs to the end of the page, libtracecmd's mapping, with 1500
# good records after it in time. Compared with the same file whose text is
# NUL-terminated (endmap-good, whose output is trace-cmd report's byte for
# byte): every line the same but that record's, whose text stops at the
# record's end (343 bytes where the good file has 342 and its NUL)
d=$(mktemp -d) && python3 tests/gen/gen-tracedat-overread.py endmap >"$d/endmap.dat" && python3 tests/gen/gen-tracedat-overread.py endmap-good >"$d/good.dat" && cd "$d" && $KTF good.dat >good.out && $KTF endmap.dat >endmap.out; rc=$?; wc -l <endmap.out; diff good.out endmap.out | awk 'match($0, /path=[^ ]*/) { $0 = substr($0, 1, RSTART + 4) "<" RLENGTH - 5 " bytes>" substr($0, RSTART + RLENGTH) } 1'; rm -rf "$d"; exit $rc
