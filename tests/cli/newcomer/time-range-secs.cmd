# requires: tracecmd
# --time-range in seconds with an s on a ns timeline: exact to the ns, inclusive (one event at 2795411743162)
$KTF --time-range 2795.411743162s~2795.411743162s tests/fixtures/tracedat/host-local-clock.dat
