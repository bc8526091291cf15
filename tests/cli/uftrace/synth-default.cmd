$KTF tests/fixtures/uftrace-gen/synth
