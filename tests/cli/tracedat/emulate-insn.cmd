# requires: tracecmd
# kvm_emulate_insn, whose text we make by hand (tracecmd-kvmtext.c), as
# trace-cmd report prints it (the .out is its output, grep'd), on
# host-kvm-v6.dat with records changed (tests/gen/mangle-tracedat.py):
# failed set (" FAIL"); len 0, which prints the bytes of the event before
# (the kvm plugin's static buffer), after one of ours and after one the
# plugin printed; len 16, past insn (the plugin prints it: one byte of
# flags more); len 15
d=$(mktemp -d) && f=tests/fixtures/tracedat/host-kvm-v6.dat && for op in byte:102661:1 byte:102688:0 byte:102816:0 byte:102833:1 byte:102860:16 byte:102988:0 byte:103032:15 byte:103160:0 byte:103177:1; do python3 tests/gen/mangle-tracedat.py $op "$f" "$d/$op.dat" || exit 1; f=$d/$op.dat; done && $KTF "$f" | grep kvm_emulate_insn; rc=$?; rm -rf "$d"; exit $rc
