// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test tool: LD_PRELOAD=thread-preload.so COMMAND makes COMMAND multithreaded
 * from its start, as a preloaded library that starts a thread would.
 */
#include <pthread.h>
#include <unistd.h>

static void *idle(void *unused)
{
	(void)unused;
	for (;;)
		pause();
	return NULL;
}

__attribute__((constructor)) static void start_thread(void)
{
	pthread_t thread;

	if (pthread_create(&thread, NULL, idle, NULL) == 0)
		pthread_detach(thread);
}
