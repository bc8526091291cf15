$KTF --stats tests/fixtures/uftrace-gen/synth
