# requires: tracecmd
# --stats of Linux 6.18's kvm_exit/kvm_entry: reasons by name from the text libtraceevent makes
$KTF --stats tests/fixtures/perf/gen-618.data
