$KTF --chrome --time-range 5000000000135~5000000001200 tests/fixtures/uftrace-gen/synth
