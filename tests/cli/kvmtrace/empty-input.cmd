$KTF formats/kvmtrace < /dev/null
