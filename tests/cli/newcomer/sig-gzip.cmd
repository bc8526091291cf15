# a gzip file on standard input: named, with how to decompress it
printf '\037\213\010\000\000\000\000\000' | $KTF
