# a NUL byte inside a counter's name is damage, said with file:line:column
# (it cut the name and made a new counter; tests/gen/gen-perfstat-hostile.py nul)
$KTF --stats --counters=tests/fixtures/perfstat/stat-nul.txt
