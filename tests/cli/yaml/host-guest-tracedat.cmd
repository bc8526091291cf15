# requires: tracecmd yaml
# a host trace.dat and a guest kvmtrace stream on one timeline. In these
# nested-KVM recordings the guest's TSC reads the host's (guest-samples.txt),
# so the offset is 0. The guest's port writes (kvmtrace 0x00030001) land
# between the host's kvm_pio events; the first 30 lines, and the status.
{ $KTF --tsc-offset 0 --guest tests/fixtures/tracedat/guest.kvmtrace formats/host-guest.yaml tests/fixtures/tracedat/host-kvm-v7.dat; echo "status $?"; } | awk 'NR <= 30 || /^status/'
