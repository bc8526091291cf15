$KTF --chrome tests/fixtures/uftrace-gen/synth
