$KTF -f tests/fixtures < /dev/null
