$KTF --pid 4243 tests/fixtures/uftrace-gen/synth
