$KTF -c fast formats/kvmtrace < /dev/null
