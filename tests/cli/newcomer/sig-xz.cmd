# xz
printf '\3757zXZ\000\000\004' | $KTF -f formats/kvmtrace
