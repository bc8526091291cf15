# requires: tracecmd
# the trace.dat magic, then a version this libtracecmd does not read
d=$(mktemp -d) && printf '\027\010Dtracing9\000\000\010\000\020\000\000' > "$d/v9.dat" && cd "$d" && $KTF v9.dat; rc=$?; rm -rf "$d"; exit $rc
