# bzip2
printf 'BZh91AY&SY' | $KTF -f formats/kvmtrace
