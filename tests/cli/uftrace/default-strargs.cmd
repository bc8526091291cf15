# arguments: strings, floats, chars, sized values, out of index order
$KTF tests/fixtures/uftrace/ktf-strargs
