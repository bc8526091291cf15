# issue 28: standard input on a terminal: one line on stderr says what is read and how to end it (here Ctrl-D: an empty stream)
python3 tests/cli/newcomer/stdin-tty.py $KTF
