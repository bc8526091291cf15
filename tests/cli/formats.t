# Shipped formats by name: -f NAME, $KVMTRACE_FORMAT_PATH, --list-formats
formats/*
