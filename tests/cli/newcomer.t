# issue 28: a newcomer's first hour
newcomer/*
