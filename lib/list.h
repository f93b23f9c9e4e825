/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What list.c and procscan.c share: the records of one scan of the host. */
#ifndef NSCTL_LIST_H
#define NSCTL_LIST_H

#include "container.h"
#include "internal.h"

struct raw_ns {
	dev_t dev;
	ino_t ino; /* 0: not seen */
};

/* A namespace a process holds by an open fd: a namespace file, or a socket's network namespace. */
struct held_ns {
	enum nsctl_type type;
	int fd;
	dev_t dev;
	ino_t ino;
	int ns_fd; /* a socket's: the namespace, from SIOCGSKNS (its path is no way in); else -1 */
};

/* A socket at fd FD, the file (DEV, INO) when the scan looked. */
struct seen_socket {
	int fd;
	dev_t dev;
	ino_t ino;
};

/* The types with a _for_children link (pid and time): the room in proc_record for them. */
#define LIST_CHILDREN_TYPES 2

/*
 * What only a process that a row shows (the lowest of some namespace) is asked
 * for: read once, after the scan, for those processes alone.
 */
struct proc_details {
	pid_t ppid; /* 0: unknown (it is gone) */
	uid_t uid;
	bool has_uid;
	char *command; /* its command line, or its name when that is empty; NULL: gone */
};

/* The cgroup and container of a process, read once (NSCTL_LIST_CONTAINERS). */
struct proc_container {
	char *cgroup;              /* its cgroup v2 path, or NULL */
	char *container;           /* "RUNTIME:NAME" (lib/container.h), or NULL */
	struct container_ref *ref; /* which container, where there is one, or NULL */
};

/* What one process showed when it was scanned. */
struct proc_record {
	pid_t pid;
	bool seen; /* false: it vanished before it could be read */
	struct raw_ns ns[TYPE_COUNT];
	/* The _for_children link of each of nsctl_list's children_types, when different. */
	struct raw_ns children[LIST_CHILDREN_TYPES];
	struct held_ns *held;
	size_t n_held;
	/* Its sockets, until the copier tells their network namespaces (copier.h). */
	struct seen_socket *sockets;
	size_t n_sockets;
	struct proc_details *details;     /* NULL until list_read_details() */
	struct proc_container *container; /* NULL until list_read_container() */
};

/* One namespace, with what it takes to build it. */
struct entry {
	struct nsctl_list_ns pub;
	struct nsctl_ns_id id;      /* pub.id */
	struct proc_record *record; /* its lowest process, or NULL */
	char *path;
	bool path_is_ns_link;   /* path is /proc/PID/ns/TYPE, which always leads into nsfs */
	bool path_is_pin;       /* path is a pin's (the entry's only way in), never walked here */
	char **pins;            /* NULL-terminated */
	size_t *pin_mountpoint; /* where the mount point starts in pins[i] */
	size_t n_pins, size_pins;
	size_t *pin_slots; /* a set of the pins by mount point: index + 1, 0 free */
	size_t n_pin_slots;
	pid_t *holders;
	size_t n_holders, size_holders;
	int fd;                  /* from NS_GET_*, until its own relations are read */
	int owner_fd, parent_fd; /* relations not in the table yet */
};

struct nsctl_list {
	struct entry **entries; /* in the order found */
	size_t n_entries, size_entries;
	const struct nsctl_list_ns **sorted; /* by inode */
	struct ns_hash hash;
	struct proc_record *records; /* by PID */
	size_t n_records;
	dev_t nsfs_dev; /* the one nsfs file system every namespace is on; 0: unknown */
	/* The types of the type table with a _for_children link, and how many. */
	enum nsctl_type children_types[LIST_CHILDREN_TYPES];
	size_t n_children_types;
	/* nsctl_list_process(): the rows of the processes of ROWS_OF, made on first ask. */
	const struct nsctl_list_ns *rows_of;
	struct nsctl_list_ns *rows;
	size_t n_rows;
	bool containers; /* NSCTL_LIST_CONTAINERS */
	bool cgroups;    /* NSCTL_LIST_CGROUPS */
};

/* Read every process of /proc into list->records, on two threads unless FLAGS say one. */
int list_scan_processes(struct nsctl_list *list, unsigned flags);

/* What list_parallel() calls for item I; WORKER is 0 on the calling thread, 1 on the other. */
typedef void list_parallel_fn(struct nsctl_list *list, size_t i, unsigned worker, void *data);

/* The number of workers list_parallel() may run. */
#define LIST_WORKERS 2

/* Call FN(list, I, WORKER, DATA) for I in [0, N), split over two threads when THREADS. */
void list_parallel(struct nsctl_list *list, size_t n, bool threads, list_parallel_fn *fn,
		   void *data);

/* The details of a record, read once (two threads may ask at once); NULL without memory. */
const struct proc_details *list_read_details(struct proc_record *rec);

/*
 * The cgroup and container of a record, read once, the same way; NULL
 * without memory.  Its cgroup only where KEEP_CGROUP (NSCTL_LIST_CGROUPS).
 */
const struct proc_container *list_read_container(struct proc_record *rec, bool keep_cgroup);
void list_container_free(struct proc_container *container);
extern const struct proc_container list_no_container;

#endif
