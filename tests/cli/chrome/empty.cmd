$KTF --chrome -c 1000 formats/kvmtrace < /dev/null
