$KTF tests/cli/uftrace/names.formats tests/fixtures/uftrace-gen/synth
