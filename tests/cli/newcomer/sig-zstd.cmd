# a zstd file after a rule file
printf '\050\265\057\375\044\000' | $KTF formats/kvmtrace -
