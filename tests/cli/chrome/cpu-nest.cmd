# requires: tracecmd
$KTF --chrome tests/fixtures/perfetto/cpu-nest.dat
