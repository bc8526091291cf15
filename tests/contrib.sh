#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# contrib/: the bash completion (loads, completes options, shipped format
# names and files) and the vim syntax of classic rule files (loads, and
# colours a rule as it should; skipped without vim). TAP.
set -u
: "${KTF:?}" "${KTF_SRCDIR:?}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktf-contrib.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
printf '#!/bin/sh\nexec "$KTF" "$@"\n' > "$tmp/bin/kvmtrace_format"
chmod +x "$tmp/bin/kvmtrace_format"
export KTF
comp=$KTF_SRCDIR/contrib/bash-completion/kvmtrace_format
n=0 failed=0
check() {	# check NAME GOT WANT
	n=$((n + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		printf '%s\n' "# got:  $2" "# want: $3"
		failed=1
	fi
}
# complete WORD...: what the completion offers for the last word
complete_words() {
	PATH=$tmp/bin:$PATH KVMTRACE_FORMAT_PATH=$KTF_SRCDIR/formats \
	bash -c '
		source "$0" || exit 1
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_kvmtrace_format
		printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' "$comp" "$@"
}
echo "1..25"
if command -v bash > /dev/null; then
	check "bash: the completion is registered" \
		"$(bash -c 'source "$0"; complete -p kvmtrace_format' "$comp" 2>&1)" \
		"complete -F _kvmtrace_format kvmtrace_format"
	check "bash: options from --help" \
		"$(complete_words kvmtrace_format --list)" "--list-formats "
	check "bash: options taking a value end in '='" \
		"$(complete_words kvmtrace_format --tsc-o)" "--tsc-offset= "
	check "bash: -f offers the shipped formats by name" \
		"$(complete_words kvmtrace_format -f host)" "host-guest host-guest.yaml "
	check "bash: --formats=NAME too" \
		"$(complete_words kvmtrace_format --formats = io)" "io-ports io-ports.yaml "
	check "bash: inputs are files" \
		"$(cd "$KTF_SRCDIR" && complete_words kvmtrace_format -f kvmtrace tests/fixtures/kvmtrace/sample-)" \
		"tests/fixtures/kvmtrace/sample-be.bin tests/fixtures/kvmtrace/sample-magic.bin "
	# issue 28: values of a fixed set, in place after '=', each a word
	check "bash: --stats=<Tab> offers each value, after the '='" \
		"$(complete_words kvmtrace_format --stats =)" "csv hist json table "
	check "bash: --stats=c<Tab>" \
		"$(complete_words kvmtrace_format --stats = c)" "csv "
	check "bash: --stats= as one word ('=' no word break)" \
		"$(complete_words kvmtrace_format --stats=h)" "--stats=hist "
	check "bash: --stats<Tab> offers --stats and --stats= (and --stats-*=)" \
		"$(complete_words kvmtrace_format --stats)" "--stats --stats-sort= --stats-top= --stats= "
	check "bash: the word after --stats is an input, not its value" \
		"$(cd "$KTF_SRCDIR" && complete_words kvmtrace_format --stats tests/fixtures/kvmtrace/sample-)" \
		"tests/fixtures/kvmtrace/sample-be.bin tests/fixtures/kvmtrace/sample-magic.bin "
	check "bash: --demangle=<Tab> offers its values, not files" \
		"$(complete_words kvmtrace_format --demangle =)" "full no simple "
	check "bash: --demangle VALUE as the next word" \
		"$(complete_words kvmtrace_format --demangle f)" "full "
	check "bash: --tsc-offset=a<Tab>" \
		"$(complete_words kvmtrace_format --tsc-offset = a)" "auto "
	check "bash: --clock=INPUT=<Tab> offers the clocks" \
		"$(complete_words kvmtrace_format --clock = x.dat =)" "mono ns tsc wall "
	check "bash: --clock=INPUT=t as one word" \
		"$(complete_words kvmtrace_format --clock=x.dat=t)" "--clock=x.dat=tsc "
	check "bash: --stats-sort=<Tab> offers its keys" \
		"$(complete_words kvmtrace_format --stats-sort =)" "count max p99 time "
	check "bash: a value of the user's (-c): nothing offered" \
		"$(complete_words kvmtrace_format -c '')" " "
	check "bash: --counters=<Tab> offers files" \
		"$(cd "$KTF_SRCDIR" && complete_words kvmtrace_format --counters = tests/fixtures/kvmtrace/sample-)" \
		"tests/fixtures/kvmtrace/sample-be.bin tests/fixtures/kvmtrace/sample-magic.bin "
	check "bash: --exits=<Tab> offers its formats" \
		"$(complete_words kvmtrace_format --exits =)" "csv jsonl "
	check "bash: --host VALUE: a name of the user's, no files" \
		"$(cd "$KTF_SRCDIR" && complete_words kvmtrace_format --host tests/fixtures/kvmtrace/sample-)" " "
	check "bash: --perf<Tab> offers --perfetto" \
		"$(complete_words kvmtrace_format --perf)" "--perfetto "
	check "bash: --counters-start VALUE: a time of the user's, no files" \
		"$(cd "$KTF_SRCDIR" && complete_words kvmtrace_format --counters-start tests/fixtures/kvmtrace/sample-)" " "
else
	for i in $(seq 23); do n=$((n + 1)); echo "ok $n # SKIP no bash"; done
fi
if command -v vim > /dev/null; then
	# the syntax group under line 1, columns 1, 12 and 20 of a rule file
	printf '%s\n' '0x00010002 %(ts)d (+%(relts)8d) VMEXIT' '# a comment' > "$tmp/t.formats"
	HOME=$tmp vim -N -u NONE -i NONE -es \
		--cmd "set rtp^=$KTF_SRCDIR/contrib/vim" \
		-c 'filetype on' -c 'syntax on' -c "edit $tmp/t.formats" \
		-c "call writefile([&filetype, synIDattr(synID(1, 1, 1), 'name'), synIDattr(synID(1, 12, 1), 'name'), synIDattr(synID(1, 15, 1), 'name'), synIDattr(synID(2, 3, 1), 'name')], '$tmp/vim.out')" \
		-c 'qa!' < /dev/null > /dev/null 2>&1
	check "vim: *.formats files get the syntax" \
		"$(head -1 "$tmp/vim.out" 2> /dev/null)" "kvmtrace_format"
	check "vim: ID, conversion, key and comment coloured" \
		"$(sed 1d "$tmp/vim.out" 2> /dev/null | tr '\n' ' ')" \
		"ktfIdNumber ktfConversion ktfKey ktfComment "
else
	for i in 1 2; do n=$((n + 1)); echo "ok $n # SKIP no vim"; done
fi
exit $failed
