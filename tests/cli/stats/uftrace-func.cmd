# per-function statistics: uftrace report's figures (tests/uftrace-compare.sh)
$KTF --stats tests/fixtures/uftrace/ktf-strargs
