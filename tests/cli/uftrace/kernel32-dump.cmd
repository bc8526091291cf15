# requires: tracecmd
# a 32-bit kernel's data (LONG_SIZE 4: 12-byte page headers, 4-byte func fields, a stored missed count) as uftrace 0.13 dumps it: the parentheses hold the address as recorded, the name <…> it with the kernel base put back
$KTF tests/fixtures/uftrace-gen/kernel32 | diff tests/fixtures/uftrace-gen/kernel32.dump - && echo same
