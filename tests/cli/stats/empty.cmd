$KTF --stats formats/kvmtrace < /dev/null
