$KTF -f tests/cli/uftrace/perf.formats tests/fixtures/uftrace/ktf-forkexec
