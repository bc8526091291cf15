$KTF --live --interval=0
