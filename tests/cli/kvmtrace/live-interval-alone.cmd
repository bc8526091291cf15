$KTF --live --interval=1
