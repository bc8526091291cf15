# a device is refused before anything is read (/dev/zero was read as one
# endless line until memory ran out): usage, exit 2
timeout 60 $KTF --stats --counters=/dev/zero
