# issue 38: one timeline only when the clocks agree
clocks/*
