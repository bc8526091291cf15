# requires: tracecmd
# tests/gen/gen-tracedat-pfmt.py (see there): events printed from their
# print fmt compiled (tracecmd-pfmt.c), kvm_fpu, kvm_pio,
# kvm_userspace_exit and events taking every conversion, operator, symbol
# and flag form it knows, through edge values; and events it leaves to
# tep_print_event() (a plugin's kvm_entry, a typecast, %c, a shift of 64,
# a symbol named by a word): as `trace-cmd report` prints them (its
# reference pfmt.dat.report, header line included)
$KTF tests/fixtures/tracedat/pfmt.dat | diff tests/fixtures/tracedat/pfmt.dat.report - && echo same as trace-cmd report
