# TSC and nanoseconds are not mixed silently
$KTF -f tests/cli/uftrace/fields.formats tests/fixtures/uftrace-gen/rftrace tests/fixtures/uftrace-gen/qemu
