perf/*
