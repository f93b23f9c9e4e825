// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuse-stall DEVICE MOUNTPOINT: a FUSE server that answers until SIGUSR1,
 * then only its own process group's requests (its owner's own processes go on
 * working), for the tests of what nsctl does as root near another
 * user's filesystem.  It speaks the kernel's protocol on DEVICE (a node of
 * /dev/fuse's, which a test may give an ordinary user) with no library, and
 * serves a root directory holding two empty files, "f" and "p", whose names
 * and attributes the kernel may never cache: each walk to one, and each
 * close() of one (FUSE_FLUSH), is a request.  It prints "ready" once the kernel has
 * its answer to FUSE_INIT.  Killing it ends the connection: the kernel then
 * ends every request still waiting.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/fuse.h>

#define ROOT_ID FUSE_ROOT_ID
#define FILE_ID 2 /* "f", and FILE_ID + 1 "p" */

static volatile sig_atomic_t stalled;

static void on_usr1(int sig)
{
	(void)sig;
	stalled = 1;
}

/* Whether PID is in our process group (the server's own processes go on working). */
static bool own_group(pid_t pid)
{
	char path[64], text[512], *p;
	int pgrp = -1;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = pid > 0 ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	n = fd >= 0 ? read(fd, text, sizeof(text) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return false;
	text[n] = '\0';
	/* After the name: state, ppid, pgrp. */
	p = strrchr(text, ')');
	if (!p || sscanf(p + 1, " %*c %*d %d", &pgrp) != 1)
		return false;
	return pgrp == getpgrp();
}

static void reply(int dev, uint64_t unique, int error, const void *data, size_t size)
{
	struct fuse_out_header out = { (uint32_t)(sizeof(out) + size), -error, unique };
	struct iovec iov[2] = { { &out, sizeof(out) }, { (void *)data, size } };

	/* ENOENT: the request was interrupted meanwhile; nothing else to do. */
	if (writev(dev, iov, size ? 2 : 1) < 0 && errno != ENOENT)
		perror("fuse-stall: writev");
}

static void attr_of(uint64_t node, struct fuse_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->ino = node;
	attr->mode = node == ROOT_ID ? S_IFDIR | 0755 : S_IFREG | 0644;
	attr->nlink = node == ROOT_ID ? 2 : 1;
	attr->uid = getuid();
	attr->gid = getgid();
	attr->blksize = 4096;
}

static void serve(int dev, const struct fuse_in_header *in, const void *arg)
{
	switch (in->opcode) {
	case FUSE_INIT: {
		const struct fuse_init_in *init = arg;
		struct fuse_init_out out = { 0 };

		out.major = FUSE_KERNEL_VERSION;
		out.minor = init->minor < FUSE_KERNEL_MINOR_VERSION ? init->minor
								    : FUSE_KERNEL_MINOR_VERSION;
		out.max_readahead = init->max_readahead;
		out.max_background = 16;
		out.congestion_threshold = 12;
		out.max_write = 65536;
		out.time_gran = 1;
		reply(dev, in->unique, 0, &out, sizeof(out));
		printf("ready\n");
		fflush(stdout);
		return;
	}
	case FUSE_LOOKUP: {
		struct fuse_entry_out out = { 0 };

		if (in->nodeid != ROOT_ID || (strcmp(arg, "f") != 0 && strcmp(arg, "p") != 0)) {
			reply(dev, in->unique, ENOENT, NULL, 0);
			return;
		}
		/* entry_valid and attr_valid 0: nothing of it is ever taken from the cache. */
		out.nodeid = FILE_ID + (strcmp(arg, "p") == 0);
		out.generation = 1;
		attr_of(out.nodeid, &out.attr);
		reply(dev, in->unique, 0, &out, sizeof(out));
		return;
	}
	case FUSE_GETATTR: {
		struct fuse_attr_out out = { 0 };

		attr_of(in->nodeid, &out.attr);
		reply(dev, in->unique, 0, &out, sizeof(out));
		return;
	}
	case FUSE_OPEN:
	case FUSE_OPENDIR: {
		struct fuse_open_out out = { .fh = 1 };

		reply(dev, in->unique, 0, &out, sizeof(out));
		return;
	}
	case FUSE_STATFS: {
		struct fuse_statfs_out out = { 0 };

		out.st.bsize = out.st.frsize = 4096;
		out.st.namelen = 255;
		reply(dev, in->unique, 0, &out, sizeof(out));
		return;
	}
	case FUSE_READ:
	case FUSE_READDIR: /* empty: the end at once */
	case FUSE_FLUSH:
	case FUSE_RELEASE:
	case FUSE_RELEASEDIR:
	case FUSE_ACCESS:
	case FUSE_FSYNC:
	case FUSE_DESTROY:
		reply(dev, in->unique, 0, NULL, 0);
		return;
	case FUSE_FORGET:
	case FUSE_BATCH_FORGET:
	case FUSE_INTERRUPT:
		return; /* never answered */
	default:
		reply(dev, in->unique, ENOSYS, NULL, 0);
	}
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	static char buf[FUSE_MIN_READ_BUFFER + 65536 + 4096];
	char options[128];
	int dev;

	if (argc != 3) {
		fprintf(stderr, "usage: fuse-stall DEVICE MOUNTPOINT\n");
		return 2;
	}
	/* No SA_RESTART: the signal ends the read() that waits for a request. */
	sigaction(SIGUSR1, &sa, NULL);
	dev = open(argv[1], O_RDWR | O_CLOEXEC);
	if (dev < 0) {
		fprintf(stderr, "fuse-stall: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	snprintf(options, sizeof(options), "fd=%d,rootmode=40000,user_id=%u,group_id=%u", dev,
		 getuid(), getgid());
	if (mount("fuse-stall", argv[2], "fuse.fuse-stall", MS_NOSUID | MS_NODEV, options) < 0) {
		fprintf(stderr, "fuse-stall: mount on %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	for (bool said = false;;) {
		ssize_t n;
		const struct fuse_in_header *in = (const void *)buf;

		if (stalled && !said) {
			printf("stalled\n");
			fflush(stdout);
			said = true;
		}
		n = read(dev, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == ENOENT || errno == EAGAIN))
			continue;
		if (n < 0) {
			/* ENODEV: unmounted. */
			return errno == ENODEV ? 0 : 1;
		}
		if ((size_t)n < sizeof(*in))
			continue;
		/* Stalled: requests of any other process wait until the end. */
		if (stalled && !own_group((pid_t)in->pid))
			continue;
		serve(dev, in, buf + sizeof(*in));
	}
}
