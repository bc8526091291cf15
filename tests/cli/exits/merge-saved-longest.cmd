# saved --stats=json of two hosts merged as text, 2 of each reason asked: the longest of each reason over both files, each with its file; the files kept 1 of each, and the note under the table says from which row some may be missing
$KTF --stats --stats-top=2 tests/fixtures/exits/host-a.stats.json tests/fixtures/exits/host-b7.stats.json | sed -n '/longest exits of each reason/,/^$/p'
