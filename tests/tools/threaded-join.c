// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Test tool: a multithreaded caller of libnsctl joining the user and time
 * namespaces of PID, and creating new ones.  The kernel lets only a
 * single-threaded process do that: setns() of a user (and mount) namespace
 * says EINVAL, of a time namespace EUSERS; unshare(CLONE_NEWUSER) says EINVAL.
 * Each call must fail with that errno, change nothing, and (for the process
 * join) report the type that failed.  With --single-threaded no thread is
 * started and the joins must succeed (the control).
 *
 * Usage: threaded-join [--single-threaded] PID
 * Prints one line per call, "CALL: ok" or "CALL: -ERRNO (reason)", and exits 0
 * when every result is the expected one, 1 otherwise.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nsctl.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

static int failures;

static void *idle(void *unused)
{
	(void)unused;
	for (;;)
		pause();
	return NULL;
}

static void expect(const char *call, int r, int want)
{
	if (r >= 0)
		printf("%s: ok\n", call);
	else
		printf("%s: %d (%s)\n", call, r, strerror(-r));
	if ((r >= 0 ? 0 : r) != want) {
		printf("%s: want %d\n", call, want);
		failures++;
	}
}

/* The caller's own namespace of TYPE, by inode, to see that nothing changed. */
static unsigned long own_inode(enum nsctl_type type)
{
	struct nsctl_ns_id id = NSCTL_NS_ID_INIT;
	char path[64];
	int fd, r;

	snprintf(path, sizeof(path), "/proc/self/ns/%s", nsctl_type_get(type)->name);
	fd = nsctl_ns_open_path(path, (int)type, NULL);
	if (fd < 0)
		return 0;
	r = nsctl_ns_identify(fd, &id);
	close(fd);
	return r < 0 ? 0 : (unsigned long)id.ino;
}

int main(int argc, char **argv)
{
	bool threaded = !(argc == 3 && strcmp(argv[1], "--single-threaded") == 0);
	const char *pid_text = argv[argc - 1];
	unsigned long user_before = own_inode(NSCTL_TYPE_USER);
	struct nsctl_join_report report = NSCTL_JOIN_REPORT_INIT;
	struct nsctl_process *process;
	char path[64];
	pthread_t thread;
	char *end = NULL;
	pid_t pid;
	int r;

	pid = argc >= 2 ? (pid_t)strtol(pid_text, &end, 10) : 0;
	if (argc < 2 || pid <= 0 || *end) {
		fputs("usage: threaded-join [--single-threaded] PID\n", stderr);
		return 2;
	}
	if (threaded && pthread_create(&thread, NULL, idle, NULL) != 0) {
		perror("pthread_create");
		return 2;
	}
	if (!threaded) {
		/* Time first: joined as root of the initial user namespace, then the user one. */
		snprintf(path, sizeof(path), "/proc/%d/ns/time", (int)pid);
		expect("nsctl_ns_join_path(time)", nsctl_ns_join_path(path, NSCTL_TYPE_TIME), 0);
		snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
		expect("nsctl_ns_join_path(user)", nsctl_ns_join_path(path, NSCTL_TYPE_USER), 0);
		return failures ? 1 : 0;
	}
	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
	expect("nsctl_ns_join_path(user)", nsctl_ns_join_path(path, NSCTL_TYPE_USER), -EINVAL);
	snprintf(path, sizeof(path), "/proc/%d/ns/time", (int)pid);
	expect("nsctl_ns_join_path(time)", nsctl_ns_join_path(path, NSCTL_TYPE_TIME), -EUSERS);
	r = nsctl_process_open(pid, &process);
	if (r < 0) {
		expect("nsctl_process_open", r, 0);
		return 1;
	}
	/* setns(pidfd) refuses as a whole; the one-by-one way then names the type. */
	r = nsctl_process_join(process, NSCTL_TYPE_BIT(NSCTL_TYPE_USER), 0, &report);
	expect("nsctl_process_join(user)", r, -EINVAL);
	if (report.failed_type != NSCTL_TYPE_USER || report.joined != 0) {
		printf("nsctl_process_join(user): reported type %d, joined %#x\n",
		       report.failed_type, report.joined);
		failures++;
	}
	r = nsctl_process_join(process, NSCTL_TYPE_BIT(NSCTL_TYPE_TIME), 0, &report);
	expect("nsctl_process_join(time)", r, -EUSERS);
	if (report.failed_type != NSCTL_TYPE_TIME || report.joined != 0) {
		printf("nsctl_process_join(time): reported type %d, joined %#x\n",
		       report.failed_type, report.joined);
		failures++;
	}
	nsctl_process_free(process);
	expect("unshare(CLONE_NEWUSER)", unshare(CLONE_NEWUSER) < 0 ? -errno : 0, -EINVAL);
	/* A new time namespace is for children: allowed; entering it is not. */
	expect("unshare(CLONE_NEWTIME)", unshare(CLONE_NEWTIME) < 0 ? -errno : 0, 0);
	expect("nsctl_time_enter_children()", nsctl_time_enter_children(), -EUSERS);
	if (own_inode(NSCTL_TYPE_USER) != user_before) {
		puts("the user namespace changed");
		failures++;
	}
	return failures ? 1 : 0;
}
