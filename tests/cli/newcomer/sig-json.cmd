# JSON (a Chrome trace, say) given as an input
printf '  {"traceEvents": [\n' | $KTF formats/kvmtrace -
