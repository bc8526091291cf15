{ "$KTF_BUILDDIR"/tests/gen/gen-kvmtrace -n 300000 | $KTF formats/kvmtrace; echo "status $?" >&2; } | head -3
