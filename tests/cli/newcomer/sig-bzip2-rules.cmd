# issue 38: a compressed rule file after -f is named, with how to decompress it
d=$(mktemp -d) && printf 'BZh91AY&SY\267\232\250\204\000\000i\177\377\372\347\345\250\226' > "$d/rules.bz2" && printf '\037\213\010\010\000\000\000\000' > "$d/rules.gz" && (cd "$d" && $KTF -f rules.bz2 "$OLDPWD/tests/fixtures/kvmtrace/vm.kvmtrace.0"; echo "rc $?"; $KTF -f rules.gz; echo "rc $?"); rm -rf "$d"
