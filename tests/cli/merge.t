merge/*
