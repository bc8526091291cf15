# requires: tracecmd
# the same from a pipe file recorded with -k mono (HEADER_FEATURE CLOCKID): merged
cat tests/fixtures/perf/kvm-mono-pipe.data | $KTF tests/cli/perf/source.formats - tests/fixtures/qemu/simple-mono.bin | sed -n "1,2p;\$p"
