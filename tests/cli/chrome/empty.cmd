$KTF --chrome formats/kvmtrace < /dev/null
