// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Namespaces a thread alone is in (tests/cli/hostile-list.bats): in a user
 * namespace of its own, a second thread unshares network and UTS namespaces
 * and prints "TID NET-INODE UTS-INODE"; with "leader-exit" the first thread
 * then ends (pthread_exit), so that /proc/PID/ns shows none of them.  The
 * process sleeps SECONDS, then exits.
 * Usage: thread-ns thread|leader-exit SECONDS
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int seconds;
static pthread_barrier_t ready;

static void *worker(void *arg)
{
	struct stat net, uts;

	(void)arg;
	if (unshare(CLONE_NEWNET | CLONE_NEWUTS) < 0) {
		perror("unshare");
		exit(1);
	}
	if (stat("/proc/thread-self/ns/net", &net) < 0 ||
	    stat("/proc/thread-self/ns/uts", &uts) < 0) {
		perror("stat");
		exit(1);
	}
	printf("%d %ju %ju\n", gettid(), (uintmax_t)net.st_ino, (uintmax_t)uts.st_ino);
	fflush(stdout);
	pthread_barrier_wait(&ready);
	sleep((unsigned)seconds);
	exit(0);
}

int main(int argc, char **argv)
{
	pthread_t thread;

	if (argc != 3 || (strcmp(argv[1], "thread") != 0 && strcmp(argv[1], "leader-exit") != 0)) {
		fprintf(stderr, "usage: thread-ns thread|leader-exit SECONDS\n");
		return 2;
	}
	seconds = atoi(argv[2]);
	if (unshare(CLONE_NEWUSER) < 0) {
		perror("unshare(CLONE_NEWUSER)");
		return 1;
	}
	pthread_barrier_init(&ready, NULL, 2);
	if (pthread_create(&thread, NULL, worker, NULL) != 0)
		return 1;
	pthread_barrier_wait(&ready);
	if (strcmp(argv[1], "leader-exit") == 0)
		pthread_exit(NULL);
	pause();
	return 0;
}
