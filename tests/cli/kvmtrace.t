kvmtrace/*
