# issue 38: a bzip2-compressed trace given first (its first 14 bytes are text) is named, not read as a rule file
d=$(mktemp -d) && printf 'BZh91AY&SY\267\232\250\204\000\000i\177\377\372\347\345\250\226' > "$d/trace.bin.bz2" && (cd "$d" && $KTF trace.bin.bz2; echo "rc $?"; $KTF trace.bin.bz2 "$OLDPWD/tests/fixtures/kvmtrace/vm.kvmtrace.0"; echo "rc $?"); rm -rf "$d"
