$KTF --live --chrome
