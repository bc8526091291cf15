# requires: tracecmd
# %Nd and %0Nd of cpu, pid and relts, which the renderer writes with steps
# of its own (issue 37), beside %-Nd and %+d, which take the general path;
# widths.out is Python's '%' of the values (made with python3 from the
# output of '%(cpu)d %(pid)d %(relts)d')
d=$(mktemp -d) && printf '%s\n' '* %(cpu)5d|%(cpu)05d|%(cpu)d|%(pid)012d|%(pid)-7d|%(pid)3d|%(relts)07d|%(relts)12d|%(cpu)016d|%(pid)+d' > "$d/rules" && $KTF -f "$d/rules" tests/fixtures/tracedat/host-kvm-v6.dat | head -12; rc=$?; rm -rf "$d"; exit $rc
