# issue 28: bytes that are not UTF-8 (0xff, a broken sequence, a surrogate, an overlong '/') and C1 controls (CSI 0x9b) in an option value are escaped like control bytes; UTF-8 text stays
$KTF --stats="$(printf 'x\377y\302\233[31m\303\251\342\202\254\355\240\200\300\257\303')"
