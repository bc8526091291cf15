# requires: tracecmd
# threads renamed by COMM records between their samples, among samples whose text is libtraceevent's (kvm_ksym's %pS): each line names its thread as perf script does (the reader's batches end before a rename and after such a sample)
$KTF tests/fixtures/perf/gen-renames.data 2>/dev/null | diff tests/fixtures/perf/gen-renames.data.out - && echo same as perf script
