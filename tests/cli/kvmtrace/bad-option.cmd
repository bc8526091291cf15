$KTF --bogus
