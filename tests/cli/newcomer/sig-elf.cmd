# issue 28: a program given as the input is named, not rendered
$KTF tests/fixtures/exits/guest.elf
