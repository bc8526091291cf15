# issue 13 and 18: trust
trust/*
