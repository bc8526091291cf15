tracedat/*
