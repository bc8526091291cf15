# bytes of no known signature, without the magic word: still a kvmtrace stream
$KTF formats/kvmtrace tests/fixtures/kvmtrace/nul-text.bin
