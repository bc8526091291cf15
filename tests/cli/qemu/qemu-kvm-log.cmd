# requires: yaml
$KTF -f formats/qemu-kvm.yaml tests/fixtures/qemu-log/kvm72.qlog
