# 13.8: random words as a kvmtrace stream; 4096 threads and one for the rest
python3 -c "import random, sys; r = random.Random(1); sys.stdout.buffer.write(bytes(r.getrandbits(8) for _ in range(1500000)))" | $KTF --chrome -c 1000 2>/dev/null | grep -E -c "\"thread_name\"|threads beyond the first 4096"
