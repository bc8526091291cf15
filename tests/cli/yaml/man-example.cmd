# requires: yaml
# the example of YAML RULE FILES in kvmtrace_format-formats(5), as printed
t=$(mktemp -d) || exit 99
sed -n '/^\.SH YAML RULE FILES/,/^\.fi/p' doc/kvmtrace_format-formats.5 | sed -n '/^\.RS/,/^\.RE/p' | sed -e '/^\.R[SE]/d' -e 's/\\-/-/g' > "$t/example.yaml"
(cd "$t" && $KTF example.yaml) < tests/fixtures/yaml/gen.kvmtrace; rc=$?
rm -rf "$t"; exit $rc
