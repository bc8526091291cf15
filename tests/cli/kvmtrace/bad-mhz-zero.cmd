$KTF -c 0 formats/kvmtrace < /dev/null
