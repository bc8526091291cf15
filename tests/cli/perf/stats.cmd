# requires: tracecmd
# --stats: exit analysis of kvm_exit/kvm_entry pairs, as for trace.dat
$KTF --stats tests/fixtures/perf/gen-stats.data
