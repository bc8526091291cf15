# requires: tracecmd
# issue 35: with a rule file, the events of the instance buffers go
# through the templates like any other
printf '%s\n' '* %(ts)d %(cpu)d %(name)s %(pid)d' >"${TMPDIR:-/tmp}/ktf-inst-$$.rules" && $KTF -f "${TMPDIR:-/tmp}/ktf-inst-$$.rules" tests/fixtures/tracedat/instance-v7.dat; rc=$?; rm -f "${TMPDIR:-/tmp}/ktf-inst-$$.rules"; exit $rc
