# requires: tracecmd
# one byte changed in the print format of kvm_pic_set_irq in a v6 file:
# libtraceevent 1.7.1 dereferences NULL parsing it (trace-cmd report
# crashes); the file is opened in a child first, so we say so and go on
d=$(mktemp -d) && python3 tests/gen/mangle-tracedat.py 'replace:REC->irqchip:REC->irqXhip' tests/fixtures/tracedat/host-kvm-v6.dat "$d/c.dat" && cd "$d" && $KTF c.dat; rc=$?; rm -rf "$d"; exit $rc
