# requires: yaml
# formats/host-guest.yaml over uftrace data: function and thread; the first
# 12 lines, and the status
{ $KTF formats/host-guest.yaml tests/fixtures/uftrace/events; echo "status $?"; } | awk 'NR <= 12 || /^status/'
