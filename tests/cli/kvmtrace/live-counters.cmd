# --counters align a perf stat file with a recording: not with --live
$KTF --live --counters=tests/fixtures/perfstat/stat-x-hash.txt
