// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uftrace-demo - a small program to record with uftrace for test fixtures.
 *
 * A few plain calls, a recursion (fib(6)) and a second thread. With
 * <sys/sdt.h> (Debian: systemtap-sdt-dev) leaf() also fires a USDT probe
 * demo:leaf, which `uftrace record -E demo:leaf` records as an event.
 * Build: gcc -pg -O0 -o uftrace-demo contrib/uftrace-demo.c -lpthread
 */
#include <pthread.h>
#include <stdio.h>
#if defined(__has_include)
#if __has_include(<sys/sdt.h>)
#include <sys/sdt.h>
#endif
#endif
#ifndef DTRACE_PROBE1
#define DTRACE_PROBE1(provider, name, arg) ((void)(arg))
#endif

static volatile int sink;

int fib(int n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

void leaf(int x)
{
	DTRACE_PROBE1(demo, leaf, x);
	sink += x;
}

void middle(int x)
{
	leaf(x);
	leaf(x + 1);
}

void *worker(void *arg)
{
	int n = *(int *)arg;

	middle(n);
	sink += fib(4);
	return NULL;
}

int main(void)
{
	pthread_t t;
	int arg = 3;
	int r;

	middle(1);
	if (pthread_create(&t, NULL, worker, &arg) != 0)
		return 1;
	r = fib(6);
	pthread_join(t, NULL);
	printf("fib(6) = %d\n", r);
	return 0;
}
