// SPDX-License-Identifier: LGPL-2.1-or-later
/* The per-process half of listing: each /proc/PID's namespaces, name, parent and nsfs fds. */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/statfs.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "container.h"
#include "copier.h"
#include "list.h"
#include "number.h"
#include "syscalls.h"

/* The records of threads whose namespaces differ from their process's, found by one scan thread. */
struct thread_records {
	struct proc_record *records;
	size_t n, size;
};

/* "ns/net", "ns/pid_for_children": made once, the same for every process. */
struct ns_paths {
	char own[TYPE_COUNT][32];
	char children[LIST_CHILDREN_TYPES][32]; /* of list->children_types */
};

/*
 * The paths, and the types that have a _for_children link: records keep room
 * for those alone (two of eight types), 96 bytes less per process.
 */
static void ns_paths_init(struct nsctl_list *list, struct ns_paths *paths)
{
	list->n_children_types = 0;
	type_foreach (t) {
		const char *children = nsctl_type_get(t)->children_name;
		size_t c = list->n_children_types;

		snprintf(paths->own[t], sizeof(paths->own[t]), "ns/%s", type_proc_name(t, false));
		if (!children || c == LIST_CHILDREN_TYPES)
			continue;
		snprintf(paths->children[c], sizeof(paths->children[c]), "ns/%s", children);
		list->children_types[c] = t;
		list->n_children_types++;
	}
}

static int push_held(struct proc_record *rec, const struct held_ns *held)
{
	struct held_ns *more = reallocarray(rec->held, rec->n_held + 1, sizeof(*more));

	if (!more)
		return -ENOMEM;
	rec->held = more;
	rec->held[rec->n_held++] = *held;
	return 0;
}

/* One linux_dirent64, as getdents64() fills its buffer. */
struct dirent64_header {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/*
 * The file fd NAME of a process leads to, without opening it (a FIFO never
 * blocks), and with AT_STATX_DONT_SYNC (a FUSE file's server is not asked for its
 * attributes; nsfs has nothing to refresh): its type, device and inode only.
 */
static int fd_stat(int fds, const char *name, struct stat *ret)
{
	struct statx stx;

	if (statx(fds, name, AT_STATX_DONT_SYNC, STATX_TYPE | STATX_INO, &stx) < 0) {
		/* Before Linux 4.11 (or where a seccomp filter denies it): what there is. */
		if (errno != ENOSYS || fstatat(fds, name, ret, 0) < 0)
			return -1;
		return 0;
	}
	memset(ret, 0, sizeof(*ret));
	ret->st_mode = stx.stx_mode;
	ret->st_dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
	ret->st_ino = (ino_t)stx.stx_ino;
	return 0;
}

/*
 * The type of the namespace at nsfs fd HELD->fd: its link names it ("net:[INO]"), or, for
 * one opened through a pin, shows only the pin's path: then the link, opened with O_PATH
 * and looked at before it is opened for NS_GET_NSTYPE (the process may have put
 * another file at that fd since, a FIFO or a FUSE file that a copy's close() would wait on).
 */
static int nsfs_fd_type(int fds, const char *name, pid_t pid, struct held_ns *held)
{
	_cleanup_close_ int fd = -1;
	char target[64], path[64];
	enum nsctl_type type;
	ssize_t length;
	ino_t ino;

	length = readlinkat(fds, name, target, sizeof(target));
	if (length > 0 && (size_t)length < sizeof(target) &&
	    ns_link_parse_length(target, (size_t)length, &type, &ino) == 0 && ino == held->ino) {
		held->type = type;
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, held->fd);
	fd = ns_open_path_checked(path, -1, held->dev, held->ino, &type);
	if (fd < 0)
		return -1;
	held->type = type;
	return 0;
}

static int push_socket(struct proc_record *rec, const struct seen_socket *socket)
{
	struct seen_socket *more = reallocarray(rec->sockets, rec->n_sockets + 1, sizeof(*more));

	if (!more)
		return -ENOMEM;
	rec->sockets = more;
	rec->sockets[rec->n_sockets++] = *socket;
	return 0;
}

/*
 * The namespaces one process holds by fds: nsfs files, told by what they are
 * (the one nsfs device), not by the link's text, which for one opened through a
 * pin is the pin's path; and with SOCKETS, its sockets, whose network namespaces
 * the copier tells later (list_socket_namespaces()).
 * getdents64() straight on the fd, not opendir(): fdopendir() costs an fstat() and an
 * fcntl() per process, and a listing that left room for more entries is complete, since
 * /proc fills the buffer until it is full or the table ends.
 */
static void scan_fds(const struct nsctl_list *list, int proc, char *path, size_t prefix,
		     struct proc_record *rec, bool sockets)
{
	_cleanup_close_ int fd = -1;
	char buf[4096] __attribute__((aligned(8)));
	ssize_t n;

	memcpy(path + prefix, "fd", 3);
	fd = openat(proc, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	do {
		n = syscall(SYS_getdents64, fd, buf, sizeof(buf));
		for (ssize_t off = 0; n > 0 && off < n;) {
			const struct dirent64_header *de = (const void *)(buf + off);
			struct held_ns held = { .ns_fd = -1 };
			struct stat st;

			off += de->d_reclen;
			if (de->d_name[0] == '.' || fd_stat(fd, de->d_name, &st) < 0)
				continue;
			if (number_parse_int(de->d_name, INT_MAX, 0, &held.fd) < 0)
				continue;
			if (S_ISSOCK(st.st_mode)) {
				struct seen_socket socket = { held.fd, st.st_dev, st.st_ino };

				if (sockets && push_socket(rec, &socket) < 0)
					return;
				continue;
			}
			held.dev = st.st_dev;
			held.ino = st.st_ino;
			if (!list->nsfs_dev || held.dev != list->nsfs_dev ||
			    nsfs_fd_type(fd, de->d_name, rec->pid, &held) < 0)
				continue;
			if (push_held(rec, &held) < 0)
				return;
		}
	} while (n > 0 && (size_t)n + 512 > sizeof(buf));
}

/*
 * The namespace the link NAME ("PID/ns/net") under PROC leads to, read from
 * the link's text ("net:[INO]"), which the kernel writes and no process can
 * change (it can only leave the namespace).  Not by following the link with a
 * stat(): that makes nsfs build a dentry and an inode for the namespace and
 * free them at once, each time, and costs a scan of 10,000 processes about 30%
 * more CPU time.  All namespaces are on the one nsfs device: where it is not
 * known, or the text is not what the kernel writes, stat() tells.
 */
static int ns_link_read(const struct nsctl_list *list, int proc, const char *name,
			enum nsctl_type type, struct raw_ns *ret)
{
	char target[64];
	enum nsctl_type got;
	struct stat st;
	ssize_t length;
	ino_t ino;

	if (list->nsfs_dev) {
		length = readlinkat(proc, name, target, sizeof(target));
		if (length > 0 && (size_t)length < sizeof(target) &&
		    ns_link_parse_length(target, (size_t)length, &got, &ino) == 0 && got == type) {
			*ret = (struct raw_ns){ list->nsfs_dev, ino };
			return 0;
		}
		if (length < 0 && errno != EINVAL)
			return -1;
	}
	if (fstatat(proc, name, &st, 0) < 0)
		return -1;
	*ret = (struct raw_ns){ st.st_dev, st.st_ino };
	return 0;
}

/*
 * The links of the ns directory under PATH (its first PREFIX bytes: "PID/" or
 * "PID/task/TID/") into REC: false when none could be read (gone, or not ours
 * to look at).  PATH has room for the longest name after PREFIX.
 */
static bool read_links(const struct nsctl_list *list, int proc, const struct ns_paths *paths,
		       char *path, size_t prefix, struct proc_record *rec)
{
	bool seen = false;

	type_foreach (t) {
		struct raw_ns ns;

		memcpy(path + prefix, paths->own[t], sizeof(paths->own[t]));
		if (ns_link_read(list, proc, path, t, &ns) == 0) {
			rec->ns[t] = ns;
			seen = true;
		}
	}
	if (!seen)
		return false;
	for (size_t c = 0; c < list->n_children_types; c++) {
		enum nsctl_type t = list->children_types[c];
		struct raw_ns ns;

		memcpy(path + prefix, paths->children[c], sizeof(paths->children[c]));
		if (ns_link_read(list, proc, path, t, &ns) == 0 &&
		    (ns.ino != rec->ns[t].ino || ns.dev != rec->ns[t].dev))
			rec->children[c] = ns;
	}
	return true;
}

static bool same_links(const struct nsctl_list *list, const struct proc_record *a,
		       const struct proc_record *b)
{
	return memcmp(a->ns, b->ns, sizeof(a->ns)) == 0 &&
	       memcmp(a->children, b->children, list->n_children_types * sizeof(a->children[0])) ==
		   0;
}

/* Leave in TASK only the links where it differs from its process REC: true if any is left. */
static bool differing_links(const struct nsctl_list *list, struct proc_record *task,
			    const struct proc_record *rec)
{
	static const struct raw_ns none;
	bool left = false;

	type_foreach (t) {
		if (rec->seen && memcmp(&task->ns[t], &rec->ns[t], sizeof(none)) == 0)
			task->ns[t] = none;
		left |= task->ns[t].ino != 0;
	}
	for (size_t c = 0; c < list->n_children_types; c++) {
		if (rec->seen && memcmp(&task->children[c], &rec->children[c], sizeof(none)) == 0)
			task->children[c] = none;
		left |= task->children[c].ino != 0;
	}
	return left;
}

static int push_thread(struct thread_records *threads, const struct proc_record *rec)
{
	if (threads->n == threads->size) {
		size_t n = threads->size ? threads->size * 2 : 16;
		struct proc_record *more = reallocarray(threads->records, n, sizeof(*more));

		if (!more)
			return -ENOMEM;
		threads->records = more;
		threads->size = n;
	}
	threads->records[threads->n++] = *rec;
	return 0;
}

/*
 * A thread may be in namespaces of its own (it called unshare() or setns()),
 * and a process whose first thread has ended shows its namespaces through its
 * other threads alone: each set of namespaces a thread of REC's has that
 * neither REC nor another of its threads showed becomes a record of that
 * thread (/proc/TID leads to it too), with only the namespaces where it
 * differs from REC.  A process of one thread, nearly every one, costs one
 * statx(): its task directory's link count is 2 + its threads.
 */
static void scan_threads(const struct nsctl_list *list, int proc, const struct ns_paths *paths,
			 const struct proc_record *rec, struct thread_records *threads)
{
	_cleanup_close_ int dir = -1;
	char buf[4096] __attribute__((aligned(8)));
	char path[96];
	size_t first = threads->n, prefix;
	struct statx stx;
	ssize_t n;

	snprintf(path, sizeof(path), "%d/task", rec->pid);
	if (statx(proc, path, AT_STATX_DONT_SYNC, STATX_NLINK, &stx) < 0 ||
	    ((stx.stx_mask & STATX_NLINK) && stx.stx_nlink <= 3))
		return;
	dir = openat(proc, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return;
	do {
		n = syscall(SYS_getdents64, dir, buf, sizeof(buf));
		for (ssize_t off = 0; n > 0 && off < n;) {
			const struct dirent64_header *de = (const void *)(buf + off);
			struct proc_record task = { 0 };
			bool known;
			int tid;

			off += de->d_reclen;
			if (number_parse_int(de->d_name, INT32_MAX, NUMBER_NOT_ZERO, &tid) < 0 ||
			    tid == rec->pid)
				continue;
			task.pid = (pid_t)tid;
			prefix = (size_t)snprintf(path, sizeof(path), "%d/task/%d/", rec->pid, tid);
			if (!read_links(list, proc, paths, path, prefix, &task))
				continue;
			/* Counted once, where it differs: its process counts the rest. */
			known = !differing_links(list, &task, rec);
			for (size_t i = first; !known && i < threads->n; i++)
				known = same_links(list, &task, &threads->records[i]);
			task.seen = true;
			if (!known && push_thread(threads, &task) < 0)
				return;
		}
	} while (n > 0 && (size_t)n + 512 > sizeof(buf));
}

/*
 * Only the links and the fds of each process: its parent, owner and command
 * line are read later for the processes a row shows (list_read_details()),
 * a quarter of them on a container host, not for every one.  By paths under
 * /proc ("PID/ns/net"), not under an fd on /proc/PID: an openat() and a
 * close() less per process.
 */
static void scan_process(const struct nsctl_list *list, int proc, const struct ns_paths *paths,
			 unsigned flags, struct proc_record *rec, struct thread_records *threads)
{
	char path[64];
	size_t prefix = (size_t)snprintf(path, sizeof(path), "%d/", rec->pid);

	rec->seen = read_links(list, proc, paths, path, prefix, rec);
	scan_threads(list, proc, paths, rec, threads);
	/* Gone, or not ours to look at. */
	if (!rec->seen)
		return;
	if (flags & NSCTL_LIST_FDS)
		scan_fds(list, proc, path, prefix, rec, flags & NSCTL_LIST_SOCKETS);
}

/* The PIDs of PROC, the /proc directory fd checked by the caller. */
static int read_pids(int proc, struct nsctl_list *list)
{
	int fd = openat(proc, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	_cleanup_closedir_ DIR *d = fd < 0 ? NULL : fdopendir(fd);
	size_t size = 0;
	struct dirent *de;
	int r;

	if (!d) {
		r = negative_errno();
		if (fd >= 0)
			close(fd);
		return r;
	}
	while ((de = readdir(d))) {
		int pid;

		/* The PIDs of /proc: the other names there are words. */
		if (number_parse_int(de->d_name, INT32_MAX, NUMBER_NOT_ZERO, &pid) < 0)
			continue;
		if (list->n_records == size) {
			struct proc_record *more;

			size = size ? size * 2 : 1024;
			more = reallocarray(list->records, size, sizeof(*more));
			if (!more)
				return -ENOMEM;
			list->records = more;
		}
		list->records[list->n_records++] = (struct proc_record){ .pid = (pid_t)pid };
	}
	return 0;
}

/*
 * Items are handed out in small chunks from a shared counter, not as two
 * fixed halves: processes are not alike (a quarter of a farm in namespaces of
 * their own, many fds here, a kernel thread there): with fixed halves one
 * thread waited for the other, and the list of a bench/ farm took 6-8% longer
 * at 1,000 and at 10,000 processes.  A chunk is a 32nd of the items, at
 * most 32: with 32 at 100 processes there were only three or four chunks,
 * and the second thread, which starts late, got one (0.975 of the time
 * with n / 32, paired, 100 processes).
 */
#define PARALLEL_CHUNK_MAX 32

struct parallel_job {
	struct nsctl_list *list;
	size_t n, next; /* next: the first item not yet handed out */
	list_parallel_fn *fn;
	void *data;
};

struct parallel_worker {
	struct parallel_job *job;
	unsigned worker;
};

static void *parallel_run(void *arg)
{
	const struct parallel_worker *self = arg;
	struct parallel_job *job = self->job;
	size_t chunk = job->n / 32, begin, end;

	if (chunk < 1)
		chunk = 1;
	if (chunk > PARALLEL_CHUNK_MAX)
		chunk = PARALLEL_CHUNK_MAX;
	for (;;) {
		begin = __atomic_fetch_add(&job->next, chunk, __ATOMIC_RELAXED);
		if (begin >= job->n)
			return NULL;
		end = begin + chunk < job->n ? begin + chunk : job->n;
		for (size_t i = begin; i < end; i++)
			job->fn(job->list, i, self->worker, job->data);
	}
}

void list_parallel(struct nsctl_list *list, size_t n, bool threads, list_parallel_fn *fn,
		   void *data)
{
	struct parallel_job job = { list, n, 0, fn, data };
	struct parallel_worker caller = { &job, 0 }, helper = { &job, 1 };
	pthread_t thread;

	/*
	 * Below 64 items a thread costs more than it saves.  From 64 it pays on an
	 * idle machine: at 100 processes (103 processes, 83 namespaces) 0.95 of
	 * the time with one thread, paired, 501 rounds, twice (it was 256 from a
	 * trial at load 8, where the second core was busy anyway).
	 */
	if (threads && n >= 64 && pthread_create(&thread, NULL, parallel_run, &helper) == 0) {
		parallel_run(&caller);
		pthread_join(thread, NULL);
		return;
	}
	parallel_run(&caller);
}

struct scan_data {
	pid_t self;
	int proc;
	unsigned flags;
	struct ns_paths paths;
	struct thread_records threads[2]; /* one a thread of ours */
};

static void scan_one(struct nsctl_list *list, size_t i, unsigned worker, void *data)
{
	struct scan_data *scan = data;

	if (list->records[i].pid != scan->self)
		scan_process(list, scan->proc, &scan->paths, scan->flags, &list->records[i],
			     &scan->threads[worker]);
}

static int compare_records(const void *a, const void *b)
{
	pid_t x = ((const struct proc_record *)a)->pid, y = ((const struct proc_record *)b)->pid;

	return (x > y) - (x < y);
}

/* The threads' records among the processes', in the order of their IDs (the lowest first). */
static int add_thread_records(struct nsctl_list *list, struct thread_records threads[2])
{
	size_t n = threads[0].n + threads[1].n;
	struct proc_record *more;
	int r = 0;

	if (n) {
		more = reallocarray(list->records, list->n_records + n, sizeof(*more));
		if (more) {
			list->records = more;
			for (int w = 0; w < 2; w++) {
				if (!threads[w].n)
					continue;
				memcpy(list->records + list->n_records, threads[w].records,
				       threads[w].n * sizeof(*more));
				list->n_records += threads[w].n;
			}
			qsort(list->records, list->n_records, sizeof(*more), compare_records);
		} else {
			r = -ENOMEM;
		}
	}
	free(threads[0].records);
	free(threads[1].records);
	return r;
}

/* Whether REC holds (DEV, INO) already: as its own network namespace, or by another fd. */
static bool holds_netns(const struct proc_record *rec, dev_t dev, ino_t ino)
{
	if (rec->ns[NSCTL_TYPE_NET].dev == dev && rec->ns[NSCTL_TYPE_NET].ino == ino)
		return true;
	for (size_t i = 0; i < rec->n_held; i++)
		if (rec->held[i].dev == dev && rec->held[i].ino == ino)
			return true;
	return false;
}

/*
 * The network namespaces of the sockets the scan saw, where a process is not
 * in that namespace itself: one no process may be in any more (made with a
 * socket, entered back out of with setns(), or its last process gone after
 * passing the socket on).  Told by the copier, which alone holds copies of
 * other processes' fds (copier.h); a socket it gave no answer for is left out.
 */
static int list_socket_namespaces(struct nsctl_list *list)
{
	_cleanup_free_ struct copier_request *requests = NULL;
	_cleanup_free_ struct copier_answer *answers = NULL;
	_cleanup_free_ size_t *owners = NULL;
	size_t n = 0, k = 0;
	int r = 0;

	for (size_t i = 0; i < list->n_records; i++)
		n += list->records[i].n_sockets;
	if (!n)
		return 0;
	requests = calloc(n, sizeof(*requests));
	answers = calloc(n, sizeof(*answers));
	owners = calloc(n, sizeof(*owners));
	if (!requests || !answers || !owners)
		return -ENOMEM;
	for (size_t i = 0; i < list->n_records; i++) {
		const struct proc_record *rec = &list->records[i];

		for (size_t j = 0; j < rec->n_sockets; j++) {
			const struct seen_socket *socket = &rec->sockets[j];

			requests[k] = (struct copier_request){
				.kind = COPIER_SOCKET_NETNS,
				.pid = rec->pid,
				.fd = socket->fd,
				.type = -1,
				.dev = socket->dev,
				.ino = socket->ino,
				.own_dev = rec->ns[NSCTL_TYPE_NET].dev,
				.own_ino = rec->ns[NSCTL_TYPE_NET].ino,
			};
			owners[k++] = i;
		}
	}
	/* No copier (the process limit): the sockets' namespaces are unknown, as a FIFO's would be.
	 */
	copier_run(requests, n, answers);
	for (size_t i = 0; i < n; i++) {
		struct proc_record *rec = &list->records[owners[i]];
		struct held_ns held = { NSCTL_TYPE_NET, requests[i].fd, answers[i].dev,
					answers[i].ino, answers[i].fd };

		/*
		 * A namespace's fd comes with the first answer that names it and is
		 * not that process's own; the others have none (-1).
		 */
		if (answers[i].err < 0)
			continue;
		if (r < 0 || holds_netns(rec, held.dev, held.ino)) {
			close_fdp(&held.ns_fd);
			continue;
		}
		r = push_held(rec, &held);
		if (r < 0)
			close_fdp(&held.ns_fd);
	}
	return r;
}

int list_scan_processes(struct nsctl_list *list, unsigned flags)
{
	_cleanup_close_ int proc = -1;
	struct scan_data scan = { .flags = flags };
	struct statfs fs;
	int r;

	proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (proc < 0)
		return negative_errno();
	/* An empty directory where proc is not mounted: -ENOENT, not a host without processes. */
	if (fstatfs(proc, &fs) < 0)
		return negative_errno();
	if (fs.f_type != PROC_SUPER_MAGIC)
		return -ENOENT;
	type_foreach (t) {
		char name[32];
		struct stat st;

		snprintf(name, sizeof(name), "self/ns/%s", type_proc_name(t, false));
		if (fstatat(proc, name, &st, 0) == 0) {
			list->nsfs_dev = st.st_dev;
			break;
		}
	}
	r = read_pids(proc, list);
	if (r < 0)
		return r;
	scan.proc = proc;
	ns_paths_init(list, &scan.paths);
	/*
	 * Our own process first, before either thread holds a namespace it found
	 * elsewhere (ns_open_path_checked()'s fd on a pin-opened one): else we
	 * would show as a holder of it.
	 */
	scan.self = getpid();
	for (size_t i = 0; i < list->n_records; i++)
		if (list->records[i].pid == scan.self)
			scan_process(list, proc, &scan.paths, flags, &list->records[i],
				     &scan.threads[0]);
	list_parallel(list, list->n_records, !(flags & NSCTL_LIST_ONE_THREAD), scan_one, &scan);
	r = list_socket_namespaces(list);
	if (r < 0) {
		free(scan.threads[0].records);
		free(scan.threads[1].records);
		return r;
	}
	return add_thread_records(list, scan.threads);
}

/* The command line of PID, arguments joined by spaces (cut at the buffer), or NULL when empty. */
static char *read_cmdline(pid_t pid)
{
	_cleanup_close_ int fd = -1;
	char path[40], buf[4096];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	if (n <= 0)
		return NULL;
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
	return strdup(buf);
}

/* The effective UID of PID, from the Uid: line of its status (real, effective, saved, fs). */
static int status_uid(pid_t pid, uid_t *ret)
{
	_cleanup_fclose_ FILE *f = NULL;
	char path[40], line[256];
	uint64_t real, effective;
	const char *p;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "Uid:", 4) != 0)
			continue;
		p = line + 4 + strspn(line + 4, " \t");
		if (number_scan(&p, UINT32_MAX, &real) < 0)
			return -1;
		p += strspn(p, " \t");
		if (number_scan(&p, UINT32_MAX, &effective) < 0)
			return -1;
		*ret = (uid_t)effective;
		return 0;
	}
	return -1;
}

/*
 * A process may have exited since the scan (its details are then unknown) or,
 * as for any lister, its PID been reused: a row can show the newer process's
 * command, as lsns's does.  The UID is the owner of /proc/PID/stat, which
 * the kernel gives the process's effective UID, but root for a process that
 * is not dumpable: then its status tells.
 */
const struct proc_details *list_read_details(struct proc_record *rec)
{
	struct proc_details *details = __atomic_load_n(&rec->details, __ATOMIC_ACQUIRE);
	struct proc_details *expected = NULL;
	_cleanup_close_ int fd = -1;
	struct proc_stat ps = { .ppid = -1 };
	char path[40], buf[512];
	struct stat st;
	ssize_t n;

	if (details)
		return details;
	details = calloc(1, sizeof(*details));
	if (!details)
		return NULL;
	snprintf(path, sizeof(path), "/proc/%d/stat", rec->pid);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd >= 0 && fstat(fd, &st) == 0) {
		details->uid = st.st_uid;
		details->has_uid = true;
		/*
		 * The kernel gives root the /proc/PID of a process that is not
		 * dumpable or has no memory: any user's may be so.  Its status says.
		 */
		if (st.st_uid == 0)
			details->has_uid = status_uid(rec->pid, &details->uid) == 0;
	}
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (n > 0) {
		buf[n] = '\0';
		proc_stat_parse(buf, &ps);
	}
	if (ps.ppid >= 0)
		details->ppid = ps.ppid;
	details->command = read_cmdline(rec->pid);
	if (!details->command && ps.has_comm)
		details->command = strdup(ps.comm);
	/* Two threads may reach the same process through two of its namespaces. */
	if (!__atomic_compare_exchange_n(&rec->details, &expected, details, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		free(details->command);
		free(details);
		return expected;
	}
	return details;
}

/* The text of /proc/PID/cgroup (a few lines; 64 KiB is more than any has), or NULL. */
static char *read_cgroup(pid_t pid)
{
	_cleanup_close_ int fd = -1;
	char path[40], *text = NULL;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0 || fd_read_all(fd, 65536, &text, NULL) < 0)
		return NULL;
	return text;
}

/* What a process in no container, whose cgroup the list does not keep, has: nothing. */
const struct proc_container list_no_container;

void list_container_free(struct proc_container *container)
{
	if (!container || container == &list_no_container)
		return;
	free(container->cgroup);
	free(container->container);
	free(container->ref);
	free(container);
}

const struct proc_container *list_read_container(struct proc_record *rec, bool keep_cgroup)
{
	struct proc_container *container = __atomic_load_n(&rec->container, __ATOMIC_ACQUIRE);
	struct proc_container *expected = NULL;
	_cleanup_free_ char *text = NULL, *cgroup = NULL;
	struct container_ref ref;
	char formatted[CONTAINER_NAME_LENGTH + 32];
	int found = 0;

	if (container)
		return container;
	text = read_cgroup(rec->pid);
	if (text)
		found = container_from_proc_cgroup(text, &ref, keep_cgroup ? &cgroup : NULL);
	/* The common case, a process in no container, costs no memory where no cgroup is kept. */
	if (found <= 0 && !cgroup) {
		container = (struct proc_container *)&list_no_container;
	} else {
		container = calloc(1, sizeof(*container));
		if (!container)
			return NULL;
		container->cgroup = TAKE_PTR(cgroup);
		if (found > 0) {
			container_name_lookup(&ref);
			if (container_format(&ref, formatted, sizeof(formatted)) > 0) {
				container->container = strdup(formatted);
				container->ref = malloc(sizeof(ref));
				if (container->ref)
					*container->ref = ref;
			}
		}
	}
	if (!__atomic_compare_exchange_n(&rec->container, &expected, container, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		list_container_free(container);
		return expected;
	}
	return container;
}
