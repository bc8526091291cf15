# requires: tracecmd
# a COMPRESSED record inside a decompressed block (a hostile file; it crashed the inflater): left out with its offset, every other record read, exit 1
$KTF tests/fixtures/perf/gen-zstd-nested.data
