chrome/*
stats/*
filter/*
