# requires: tracecmd
# no kvm format of the file has the key 'exit_reasn' of the glob rule
# kvm:*: reported before the first line is printed (it was found at the
# second event, after the first was printed)
$KTF tests/cli/tracedat/glob-typo.formats tests/fixtures/tracedat/host-kvm-v7.dat
