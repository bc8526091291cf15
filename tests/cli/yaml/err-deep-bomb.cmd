# requires: yaml
# nesting 100000 deep: refused at the sixth level, before a tree is built
t=$(mktemp -d) && { printf 'events: '; head -c 100000 /dev/zero | tr '\0' '['; echo; } > "$t/deep.yaml" && (cd "$t" && $KTF deep.yaml < /dev/null); rc=$?; rm -rf "$t"; exit $rc
