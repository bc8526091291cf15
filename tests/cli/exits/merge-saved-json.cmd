$KTF --stats=json --stats-top=2 tests/fixtures/exits/host-a.stats.json tests/fixtures/exits/host-b7.stats.json
