# issue 38: two inputs on one clock whose events overlap nowhere in time: a warning, the events still printed
$KTF tests/cli/clocks/clock.formats tests/fixtures/uftrace/plain tests/fixtures/uftrace-gen/synth | wc -l
