qemu/*
