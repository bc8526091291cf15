# requires: tracecmd
# issue 35: instance-v6.dat with the offset of buffer "wake" in its
# BUFFER option pushed 2 GB past the end (a byte of the u64 before the
# name): libtracecmd cannot open that instance; trace-cmd report warns
# "could not retrieve handle wake" and prints the rest. So do we: every
# line of the other buffer, byte for byte trace-cmd report's output of the
# same file (checked when made: the names are 3 wide, "wake" never counts),
# the buffer said and the status 1
d=$(mktemp -d) && python3 -c '
import sys
d = bytearray(open(sys.argv[1], "rb").read())
i = d.index(b"\0wake\0") + 1
d[i - 5] = 127
open(sys.argv[2], "wb").write(d)' tests/fixtures/tracedat/instance-v6.dat "$d/badbuf.dat" && (cd "$d" && $KTF badbuf.dat); rc=$?; rm -rf "$d"; exit $rc
