hostguest/*
