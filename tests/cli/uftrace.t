uftrace/*
