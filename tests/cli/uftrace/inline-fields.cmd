# the fields render.c reads inline print as through the general path
$KTF -f tests/cli/uftrace/inline.formats tests/fixtures/uftrace/events
