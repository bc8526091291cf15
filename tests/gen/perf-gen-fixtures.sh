#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# perf-gen-fixtures.sh - (re)make the generated files of tests/fixtures/perf/
# (gen-*.data) with tests/gen/gen-perfdata.py, and the references perf
# script gives for the ones Debian's perf 6.1 reads.
#
#   gen-le.data             little-endian, normal file, 2 vCPUs, rounds
#                           out of time order; gen-le.data.out: perf script
#   gen-be.data             the same events, big-endian (perf 6.1 refuses
#                           it: "broken or missing trace data"; its text
#                           must be gen-le's)
#   gen-pipe-be.data        big-endian pipe file
#   gen-zstd-pipe.data      pipe file, records in PERF_RECORD_COMPRESSED
#   gen-zstd-pipe-be.data   the same, big-endian
#   gen-single.data         one event, no PERF_SAMPLE_ID; .out: perf script
#   gen-single-be.data      the same, big-endian
#   gen-cut-pipe.data       gen-le as a pipe file, its last 20 bytes cut
#                           (.out: perf script, which prints the samples
#                           before the cut)
#   gen-cut.data            gen-le, its last 20 bytes (in the feature
#                           sections: EVENT_DESC) cut; .out: perf script,
#                           which reads every sample
#   gen-cut-three.data      gen-le with a HOSTNAME, cut within its
#                           BUILD_ID: HOSTNAME and EVENT_DESC gone too;
#                           .out: perf script
#   gen-cut-data.data       gen-le, cut within its data section
#   gen-stats.data          40 exit/entry pairs per vCPU, for --stats
#   gen-618.data            Linux 6.18's kvm_exit/kvm_entry formats, 10
#                           pairs per vCPU (.out: perf script)
#   gen-618-be.data         the same, big-endian
#   gen-zoo.data            kvm_zoo: printf flags, widths, h/hh/l/ll/z,
#                           signed and unsigned fields of every size,
#                           __print_symbolic without a match (.out: perf
#                           script)
#   gen-zoo-be.data         the same, big-endian
#   gen-hostname.data       gen-le with a HOSTNAME feature (perf-host-c):
#                           --exits' host column
#   gen-hostname-pipe.data  the same as a pipe file (perf-host-e, in a
#                           HEADER_FEATURE record)
#   gen-unfinished.data     as perf record leaves a file when killed
#   gen-crash.data          a kvm_exit format libtraceevent crashes on
#   gen-notp.data           cpu-clock samples only (no tracepoint events)
#   gen-zstd-split.data     gen-le's records in COMPRESSED records, each
#                           round cut in two in the middle of a record
#                           (perf script prints gen-le.data.out)
#   gen-zstd-split-pipe.data  the same, a pipe file
#   gen-zstd-lose-tail.data the same, the last round's second half lost
#                           (tests/cli/perf/zstd-lose-tail.out: what
#                           perf script prints)
#   gen-zstd-nested.data    a COMPRESSED record in a compressed block
#   gen-aux-past-end.data   an AUXTRACE payload past the end of the data
#   gen-tdata-past-end.data a pipe's HEADER_TRACING_DATA payload the same
#   gen-killed.data         gen-unfinished with perf's feature bits set
#   gen-v1.data             gen-le as perf 3.x wrote it: version 1
#                           (PERFFILE), 72-byte attrs (perf script
#                           prints gen-le.data.out)
#   gen-v1-be.data          the same, big-endian
#   gen-v1-notp.data        version 1, cpu-clock samples only
#   gen-ksym.data           kvm_ksym: %pS and %ps of kernel addresses, a
#                           kernel map and a module's, the build-id of a
#                           kernel that is not this one (.out: perf
#                           script); its symbols: gen-ksym.kallsyms
#                           (written by hand)
#   gen-renames.data        the vCPU threads renamed by COMM records
#                           between their samples, among kvm_ksym samples
#                           (whose text is libtraceevent's): where the
#                           reader's batches end (.out: perf script;
#                           .tid.out: perf script -F trace:comm,tid,trace)
#   gen-div0.data           kvm_div samples, one of them dividing by 0 in
#                           the print fmt (SIGFPE in libtraceevent), among
#                           samples printed by hand (.out: the lines a
#                           line-buffered perf script prints before its
#                           own SIGFPE)
#   gen-late.data           gen-le with a kvm_exit in the third round
#                           stamped before what the second round let
#                           out: perf script prints it after later
#                           samples, a step back (.out: perf script)
#
# usage: tests/gen/perf-gen-fixtures.sh [OUTDIR]; needs python3, zstd, perf.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../fixtures/perf}
gen() { python3 "$here/gen-perfdata.py" "$@"; }
ref() {
	perf script -i "$1" -F trace:comm,tid,cpu,time,event,trace \
		> "$1.out" 2> /dev/null
}
gen "$out/gen-le.data"
gen --be "$out/gen-be.data"
gen --be --pipe "$out/gen-pipe-be.data"
gen --pipe --zstd "$out/gen-zstd-pipe.data"
gen --be --pipe --zstd "$out/gen-zstd-pipe-be.data"
gen --single "$out/gen-single.data"
gen --single --be "$out/gen-single-be.data"
gen --pipe --cut 20 "$out/gen-cut-pipe.data"
gen --cut 20 "$out/gen-cut.data"
gen --hostname perf-host-c --cut 576 "$out/gen-cut-three.data"
gen --cut 2200 "$out/gen-cut-data.data"
gen --pairs 40 "$out/gen-stats.data"
gen --linux618 --pairs 10 "$out/gen-618.data"
gen --linux618 --pairs 10 --be "$out/gen-618-be.data"
gen --zoo --pairs 12 "$out/gen-zoo.data"
gen --zoo --pairs 12 --be "$out/gen-zoo-be.data"
gen --hostname perf-host-c "$out/gen-hostname.data"
gen --pipe --hostname perf-host-e "$out/gen-hostname-pipe.data"
gen --unfinished "$out/gen-unfinished.data"
gen --single --crash-format "$out/gen-crash.data"
gen --cpu-clock --pairs 2 "$out/gen-notp.data"
gen --zstd --zstd-split "$out/gen-zstd-split.data"
gen --pipe --zstd --zstd-split "$out/gen-zstd-split-pipe.data"
gen --pipe --zstd --zstd-split --zstd-lose-tail "$out/gen-zstd-lose-tail.data"
gen --zstd --zstd-nested "$out/gen-zstd-nested.data"
gen --aux-past-end "$out/gen-aux-past-end.data"
gen --pipe --tdata-past-end "$out/gen-tdata-past-end.data"
gen --killed "$out/gen-killed.data"
gen --v1 "$out/gen-v1.data"
gen --v1 --be "$out/gen-v1-be.data"
gen --v1 --cpu-clock --pairs 2 "$out/gen-v1-notp.data"
gen --ksym --pairs 7 "$out/gen-ksym.data"
gen --renames --ksym --pairs 24 "$out/gen-renames.data"
gen --div0 --pairs 12 "$out/gen-div0.data"
gen --late "$out/gen-late.data"
ref "$out/gen-le.data"
ref "$out/gen-single.data"
ref "$out/gen-cut-pipe.data"
ref "$out/gen-cut.data"
ref "$out/gen-cut-three.data"
ref "$out/gen-618.data"
ref "$out/gen-zoo.data"
ref "$out/gen-ksym.data"
ref "$out/gen-renames.data"
ref "$out/gen-late.data"
perf script -i "$out/gen-renames.data" -F trace:comm,tid,trace \
	> "$out/gen-renames.data.tid.out" 2> /dev/null
(stdbuf -oL perf script -i "$out/gen-div0.data" \
	-F trace:comm,tid,cpu,time,event,trace > "$out/gen-div0.data.out") \
	2> /dev/null || :
