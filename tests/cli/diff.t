diff/*
