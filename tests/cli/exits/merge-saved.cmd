# saved --stats=json of two hosts, recognised by their content, as one run
$KTF --stats=csv tests/fixtures/exits/host-a.stats.json tests/fixtures/exits/host-b7.stats.json
