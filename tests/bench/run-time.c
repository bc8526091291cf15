// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run-time OUT CMD [ARG...]: runs CMD (its standard streams ours), then
 * writes to OUT one line, "wall_ns cpu_ns max_rss_kib": the wall clock
 * from before the fork to the child's end, its user + system time from
 * wait4()'s rusage in microseconds, its peak RSS. bench-table.sh's
 * measure: GNU time's %U and %S print hundredths of a second, which on a
 * run of 40 ms moved a ratio by a quarter. Exits with CMD's status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	long long t0, t1;
	int status;
	pid_t pid;
	FILE *out;

	if (argc < 3) {
		fprintf(stderr, "usage: run-time OUT CMD [ARG...]\n");
		return 2;
	}
	t0 = now_ns();
	pid = fork();
	if (pid < 0) {
		perror("run-time: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("run-time: wait4");
		return 2;
	}
	t1 = now_ns();
	out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 2;
	}
	fprintf(out, "%lld %lld %ld\n", t1 - t0,
		(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
			(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL,
		ru.ru_maxrss);
	if (fclose(out)) {
		perror(argv[1]);
		return 2;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
