# requires: yaml
# formats/kvmtrace.yaml prints what formats/kvmtrace prints, byte for byte
t=$(mktemp -d) || exit 99
for in in tests/fixtures/yaml/gen.kvmtrace tests/fixtures/kvmtrace/sample-be.bin tests/fixtures/kvmtrace/notsc.bin "tests/fixtures/kvmtrace/vm.kvmtrace.0 tests/fixtures/kvmtrace/vm.kvmtrace.1"; do
	for c in "" "-c 2400.5"; do
		$KTF $c formats/kvmtrace $in > "$t/classic"; a=$?
		$KTF $c formats/kvmtrace.yaml $in > "$t/yaml"; b=$?
		cmp -s "$t/classic" "$t/yaml" && [ $a = $b ] && echo "same:${c:+ $c} $in: $(wc -l < "$t/yaml") lines, status $b"
	done
done
rm -rf "$t"
