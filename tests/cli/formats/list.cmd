# the path first; the installed data directory (if any) after it
KVMTRACE_FORMAT_PATH=formats $KTF --list-formats | sed -n 1,8p
