# requires: tracecmd
# Linux 6.18's kvm_exit/kvm_entry formats (reasons by ISA through ?:, which libtraceevent prints): what perf script prints
$KTF tests/fixtures/perf/gen-618.data | diff tests/fixtures/perf/gen-618.data.out - && echo same as perf script
