exits/*
