#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""stdin-tty.py KTF [ARGS...]: run KTF with a terminal (a pty) as standard
input, end the input with Ctrl-D, and print its standard error and exit
status: one line says that it reads a kvmtrace stream from the terminal."""
import os
import subprocess
import sys

master, slave = os.openpty()
p = subprocess.Popen(sys.argv[1:], stdin=slave, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE)
os.close(slave)
os.write(master, b"\x04")
out, err = p.communicate(timeout=20)
os.close(master)
sys.stdout.write(out.decode() + err.decode())
print("status", p.returncode)
