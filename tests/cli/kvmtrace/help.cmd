$KTF --help
