// SPDX-License-Identifier: LGPL-2.1-or-later
/* nsctl_list_scan(): every namespace on the host, from /proc, open fds, pins and NS_GET_*. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/net_namespace.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "internal.h"
#include "copier.h"
#include "list.h"
#include "syscalls.h"

static void entry_free(struct entry *e)
{
	if (!e)
		return;
	free(e->path);
	for (size_t i = 0; i < e->n_pins; i++)
		free(e->pins[i]);
	free(e->pins);
	free(e->pin_mountpoint);
	free(e->pin_slots);
	free(e->holders);
	close_fdp(&e->fd);
	close_fdp(&e->owner_fd);
	close_fdp(&e->parent_fd);
	free(e);
}

NSCTL_EXPORT void nsctl_list_free(struct nsctl_list *list)
{
	if (!list)
		return;
	for (size_t i = 0; i < list->n_entries; i++)
		entry_free(list->entries[i]);
	free(list->entries);
	free(list->sorted);
	for (size_t i = 0; i < list->n_records; i++) {
		for (size_t h = 0; h < list->records[i].n_held; h++)
			close_fdp(&list->records[i].held[h].ns_fd);
		free(list->records[i].held);
		free(list->records[i].sockets);
		if (list->records[i].details)
			free(list->records[i].details->command);
		free(list->records[i].details);
		list_container_free(list->records[i].container);
	}
	free(list->records);
	free(list->rows);
	ns_hash_clear(&list->hash);
	free(list);
}

/* The entry of (DEV, INO), made if it is new; PATH (may be NULL) opens it. */
static int entry_get(struct nsctl_list *list, enum nsctl_type type, dev_t dev, ino_t ino,
		     const char *path, struct entry **ret)
{
	struct entry *e = ns_hash_get(&list->hash, dev, ino);
	int r;

	if (e) {
		*ret = e;
		return 0;
	}
	if (list->n_entries == list->size_entries) {
		size_t size = list->size_entries ? list->size_entries * 2 : 256;
		struct entry **entries = reallocarray(list->entries, size, sizeof(*entries));

		if (!entries)
			return -ENOMEM;
		list->entries = entries;
		list->size_entries = size;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->fd = e->owner_fd = e->parent_fd = -1;
	e->pub.netnsid = NSCTL_LIST_NO_NETNSID;
	e->id = (struct nsctl_ns_id){ .size = sizeof(e->id), .type = type, .dev = dev, .ino = ino };
	e->pub.size = sizeof(e->pub);
	e->pub.id = &e->id;
	if (path) {
		e->path = strdup(path);
		if (!e->path) {
			entry_free(e);
			return -ENOMEM;
		}
	}
	e->pub.path = e->path;
	r = ns_hash_put(&list->hash, dev, ino, e);
	if (r < 0) {
		entry_free(e);
		return r;
	}
	list->entries[list->n_entries++] = e;
	*ret = e;
	return 1;
}

/* Make PATH, /proc/PID/ns/TYPE, the path of E: the one of the process E shows comes first. */
static int entry_set_ns_link(struct entry *e, const char *path)
{
	char *copy = strdup(path);

	if (!copy)
		return -ENOMEM;
	free(e->path);
	e->path = copy;
	e->pub.path = copy;
	e->path_is_ns_link = true;
	return 0;
}

static int add_holder(struct entry *e, pid_t pid)
{
	/* Records come in ascending PID order: a repeated holder is the last one. */
	if (e->n_holders > 0 && e->holders[e->n_holders - 1] == pid)
		return 0;
	if (e->n_holders == e->size_holders) {
		size_t size = e->size_holders ? e->size_holders * 2 : 4;
		pid_t *holders = reallocarray(e->holders, size, sizeof(*holders));

		if (!holders)
			return -ENOMEM;
		e->holders = holders;
		e->size_holders = size;
	}
	e->holders[e->n_holders++] = pid;
	return 0;
}

/* The entry of NS, which the link /proc/PID/ns/TYPE of REC (or its _for_children) showed. */
static int link_entry_get(struct nsctl_list *list, const struct proc_record *rec,
			  enum nsctl_type type, bool children, const struct raw_ns *ns,
			  char path[static 64], struct entry **ret)
{
	int r;

	snprintf(path, 64, "/proc/%d/ns/%s", rec->pid, type_proc_name(type, children));
	r = entry_get(list, type, ns->dev, ns->ino, path, ret);
	if (r > 0)
		(*ret)->path_is_ns_link = true;
	return r;
}

/* Turn what the processes showed into one entry per namespace. */
static int aggregate(struct nsctl_list *list)
{
	char path[64];
	int r;

	for (size_t i = 0; i < list->n_records; i++) {
		struct proc_record *rec = &list->records[i];
		struct entry *e;

		if (!rec->seen)
			continue;
		type_foreach (t) {
			if (rec->ns[t].ino) {
				r = link_entry_get(list, rec, t, false, &rec->ns[t], path, &e);
				if (r < 0)
					return r;
				/* The first process seen is the lowest: /proc lists PIDs in order.
				 */
				if (e->pub.nprocs++ == 0) {
					e->record = rec;
					e->pub.pid = rec->pid;
					/*
					 * Its path is that process's link, rather than an fd or
					 * the _for_children link of a lower PID seen before.
					 */
					if (r == 0) {
						r = entry_set_ns_link(e, path);
						if (r < 0)
							return r;
					}
				}
			}
		}
		/* A pid namespace made by unshare() that no child has entered yet. */
		for (size_t c = 0; c < list->n_children_types; c++) {
			enum nsctl_type t = list->children_types[c];

			if (!rec->children[c].ino)
				continue;
			r = link_entry_get(list, rec, t, true, &rec->children[c], path, &e);
			if (r < 0)
				return r;
		}
		for (size_t h = 0; h < rec->n_held; h++) {
			struct held_ns *held = &rec->held[h];

			snprintf(path, sizeof(path), "/proc/%d/fd/%d", rec->pid, held->fd);
			r = entry_get(list, held->type, held->dev, held->ino, path, &e);
			if (r < 0)
				return r;
			/* A socket's namespace: no path opens it, so relations need its fd. */
			if (r > 0 && held->ns_fd >= 0)
				e->fd = TAKE_FD(held->ns_fd);
			close_fdp(&held->ns_fd);
			held->ns_fd = -1;
			r = add_holder(e, rec->pid);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/* FNV-1a of a mount point. */
static size_t pin_hash(const char *text)
{
	size_t h = (size_t)14695981039346656037ull;

	for (; *text; text++)
		h = (h ^ (unsigned char)*text) * (size_t)1099511628211ull;
	return h;
}

/* The slot of MOUNTPOINT in E's set of pins: where it is, or the free one it would take. */
static size_t *pin_slot(const struct entry *e, const char *mountpoint)
{
	size_t mask = e->n_pin_slots - 1;

	for (size_t i = pin_hash(mountpoint) & mask;; i = (i + 1) & mask) {
		size_t *slot = &e->pin_slots[i];

		if (!*slot ||
		    strcmp(e->pins[*slot - 1] + e->pin_mountpoint[*slot - 1], mountpoint) == 0)
			return slot;
	}
}

/* Room for one more pin: the arrays grow by doubling, the set stays at most half full. */
static int pins_reserve(struct entry *e)
{
	if (e->n_pins + 2 > e->size_pins) {
		size_t n = e->size_pins ? e->size_pins * 2 : 4;
		char **pins = reallocarray(e->pins, n, sizeof(*pins));
		size_t *offsets;

		if (!pins)
			return -ENOMEM;
		e->pins = pins;
		offsets = reallocarray(e->pin_mountpoint, n, sizeof(*offsets));
		if (!offsets)
			return -ENOMEM;
		e->pin_mountpoint = offsets;
		e->size_pins = n;
	}
	if (2 * (e->n_pins + 1) > e->n_pin_slots) {
		size_t n = e->n_pin_slots ? e->n_pin_slots * 2 : 8;
		size_t *slots = calloc(n, sizeof(*slots));

		if (!slots)
			return -ENOMEM;
		free(e->pin_slots);
		e->pin_slots = slots;
		e->n_pin_slots = n;
		for (size_t i = 0; i < e->n_pins; i++)
			*pin_slot(e, e->pins[i] + e->pin_mountpoint[i]) = i + 1;
	}
	return 0;
}

/*
 * The same pin seen from mount namespaces copied from one another is one pin:
 * found in a set by its mount point, not against every pin before it, which
 * another user's many bind mounts of one namespace made quadratic.
 */
static int add_pin(struct entry *e, const char *path, size_t mountpoint_offset)
{
	size_t *slot;
	int r;

	r = pins_reserve(e);
	if (r < 0)
		return r;
	slot = pin_slot(e, path + mountpoint_offset);
	if (*slot)
		return 0;
	e->pins[e->n_pins] = strdup(path);
	if (!e->pins[e->n_pins])
		return -ENOMEM;
	e->pin_mountpoint[e->n_pins++] = mountpoint_offset;
	e->pins[e->n_pins] = NULL;
	*slot = e->n_pins;
	if (!e->path) {
		e->path = strdup(path);
		if (!e->path)
			return -ENOMEM;
		e->pub.path = e->path;
	}
	return 0;
}

/* The IDs of the mounts seen in one mount table, to find each mount once. */
struct mount_ids {
	int *ids;
	size_t n;
};

static bool mount_ids_has(const struct mount_ids *seen, int id)
{
	for (size_t i = 0; seen && i < seen->n; i++)
		if (seen->ids[i] == id)
			return true;
	return false;
}

static int mount_ids_add(struct mount_ids *seen, int id)
{
	int *ids = reallocarray(seen->ids, seen->n + 1, sizeof(*ids));

	if (!ids)
		return -ENOMEM;
	seen->ids = ids;
	seen->ids[seen->n++] = id;
	return 0;
}

/*
 * The pins of one mount table, F (see scan_pins_of()): each one's namespace
 * as the kernel writes it there, the root of the nsfs mount ("uts:[INO]"), not
 * found by a walk down its path, which could lead through another user's mounts
 * (a FUSE server that never answers).  Something mounted over a pin since
 * hides it from its path, but it still holds its namespace: it is listed.
 */
static int scan_pins_in(struct nsctl_list *list, FILE *f, pid_t pid, const struct mount_ids *skip,
			struct mount_ids *record)
{
	_cleanup_free_ char *line = NULL;
	size_t line_size = 0, offset = 0;
	char path[4096 + 64];
	int r;

	if (!list->nsfs_dev)
		return 0;
	if (pid > 0)
		offset = (size_t)snprintf(path, sizeof(path), "/proc/%d/root", pid);
	while (getline(&line, &line_size, f) > 0) {
		struct mountinfo_nsfs nsfs;
		struct entry *e;

		if (mountinfo_parse_nsfs(line, &nsfs) <= 0 || mount_ids_has(skip, nsfs.mount_id))
			continue;
		if (record) {
			r = mount_ids_add(record, nsfs.mount_id);
			if (r < 0)
				return r;
		}
		if (offset + strlen(nsfs.mount_point) >= sizeof(path))
			continue;
		strcpy(path + offset, nsfs.mount_point);
		r = entry_get(list, nsfs.type, list->nsfs_dev, nsfs.ino, path, &e);
		if (r < 0)
			return r;
		/* Held by pins alone: opened through one by the copier (open_pins()). */
		if (r > 0)
			e->path_is_pin = true;
		r = add_pin(e, path, offset);
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * The nsfs bind mounts of one mount namespace, from the mount table of one
 * process in it (PID, 0 for ourselves).  The kernel writes each mount point
 * relative to the root of the process whose table it is, and leaves out what
 * lies outside that root, so a mount point is reached through that same root:
 * /proc/PID/root, or our own.  Mounts in SKIP are left out; the nsfs mounts
 * of the table are added to RECORD when given.
 */
static int scan_pins_of(struct nsctl_list *list, pid_t pid, const struct mount_ids *skip,
			struct mount_ids *record)
{
	_cleanup_fclose_ FILE *f = NULL;
	char path[64];

	if (pid > 0)
		snprintf(path, sizeof(path), "/proc/%d/mountinfo", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/mountinfo");
	f = fopen(path, "re");
	if (!f)
		return 0; /* gone, or not ours to read */
	return scan_pins_in(list, f, pid, skip, record);
}

static int scan_pins(struct nsctl_list *list)
{
	_cleanup_free_ int *own_ids = NULL;
	struct mount_ids own_seen = { NULL, 0 };
	struct entry *own = NULL;
	size_t n = list->n_entries;
	_cleanup_close_ int own_fd = -1;
	struct stat st;
	int r;

	/* The calling thread's: its mount namespace is the one that resolves our paths. */
	own_fd = nsctl_ns_open_own(NSCTL_TYPE_MNT, false);
	if (own_fd >= 0 && fstat(own_fd, &st) == 0)
		own = ns_hash_get(&list->hash, st.st_dev, st.st_ino);
	/*
	 * Our own mount namespace first, from our own table, so that its plain paths
	 * name the pins it shares.  In a chroot, the table of another process in our
	 * mount namespace is written from that process's root, so its paths are not
	 * ours: that is how the pins made inside a chroot went missing.
	 */
	r = scan_pins_of(list, 0, NULL, &own_seen);
	own_ids = own_seen.ids;
	if (r < 0)
		return r;
	/* Then what lies outside our root (a chroot) in our mount namespace, through a process. */
	if (own && own->pub.pid > 0) {
		r = scan_pins_of(list, own->pub.pid, &own_seen, NULL);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < n; i++) {
		const struct entry *e = list->entries[i];

		if (e == own || e->id.type != NSCTL_TYPE_MNT || e->pub.pid <= 0)
			continue;
		r = scan_pins_of(list, e->pub.pid, NULL, NULL);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Where the relations ioctl of an entry led: a known entry, or an fd on a new namespace. */
static void relation_resolve(const struct nsctl_list *list, int fd,
			     const struct nsctl_list_ns **ret_known, int *ret_fd)
{
	struct stat st;
	struct entry *e;

	if (fstat(fd, &st) < 0) {
		close(fd);
		return;
	}
	e = ns_hash_get(&list->hash, st.st_dev, st.st_ino);
	if (e) {
		*ret_known = &e->pub;
		close(fd);
	} else {
		*ret_fd = fd;
	}
}

/* A netlink socket of one worker of the relations, for RTM_GETNSID; fd -1 until needed. */
struct netlink_socket {
	int fd;
	uint32_t seq;
};

/*
 * The ID the caller's network namespace gives the network namespace at FD, as
 * "ip netns list-id" shows it: RTM_GETNSID with NETNSA_FD.  -1 when it has none.
 * One socket asks for every namespace, one request at a time (a socket per
 * namespace cost a socket() and a close() each: 2,500 of them on a host of
 * 10,000 processes in a container each); an answer that is not the one to
 * this request leaves the socket, so none can be taken for the next.
 */
static int query_netnsid(struct netlink_socket *sock, int fd)
{
	struct {
		struct nlmsghdr header;
		struct rtgenmsg message;
		char pad[3];
		struct rtattr attr;
		uint32_t fd;
	} request = {
		.header = { .nlmsg_len = sizeof(request),
			    .nlmsg_type = RTM_GETNSID,
			    .nlmsg_flags = NLM_F_REQUEST },
		.message = { .rtgen_family = AF_UNSPEC },
		.attr = { .rta_len = RTA_LENGTH(sizeof(uint32_t)), .rta_type = NETNSA_FD },
		.fd = (uint32_t)fd,
	};
	char reply[512] __attribute__((aligned(4)));
	const struct nlmsghdr *header = (const void *)reply;
	ssize_t n;

	if (sock->fd < 0) {
		sock->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
		if (sock->fd < 0)
			return NSCTL_LIST_NO_NETNSID;
	}
	request.header.nlmsg_seq = ++sock->seq;
	if (send(sock->fd, &request, sizeof(request), 0) < 0)
		goto drop;
	n = recv(sock->fd, reply, sizeof(reply), 0);
	if (n < 0 || !NLMSG_OK(header, (size_t)n) || header->nlmsg_seq != sock->seq)
		goto drop;
	if (header->nlmsg_type != RTM_NEWNSID)
		return NSCTL_LIST_NO_NETNSID;
	{
		const struct rtattr *attr = (const void *)((const char *)NLMSG_DATA(header) +
							   NLMSG_ALIGN(sizeof(struct rtgenmsg)));
		size_t length =
		    header->nlmsg_len - NLMSG_LENGTH(NLMSG_ALIGN(sizeof(struct rtgenmsg)));

		for (; RTA_OK(attr, length); attr = RTA_NEXT(attr, length))
			if (attr->rta_type == NETNSA_NSID && RTA_PAYLOAD(attr) >= sizeof(int32_t)) {
				int32_t id;

				memcpy(&id, RTA_DATA(attr), sizeof(id));
				return id < 0 ? -1 : id;
			}
	}
	return NSCTL_LIST_NO_NETNSID;
drop:
	close_fdp(&sock->fd);
	sock->fd = -1;
	return NSCTL_LIST_NO_NETNSID;
}

/*
 * ID, owner and parent of one entry, and the netnsid of a network namespace
 * when SOCK is given.  Only reads the hash table, so that two threads can do
 * it at once; new namespaces are left as fds for later.
 */
static void relations_of(const struct nsctl_list *list, struct entry *e,
			 struct netlink_socket *sock)
{
	_cleanup_close_ int fd = -1;
	enum nsctl_type type = e->id.type;
	struct stat st;
	uint64_t id;
	int related;

	if (e->fd >= 0) {
		/* From an NS_GET_* ioctl: nsfs, and the inode the entry was made from. */
		fd = TAKE_FD(e->fd);
	} else if (e->path_is_ns_link) {
		/*
		 * The kernel makes /proc/PID/ns/TYPE lead into nsfs, whatever the process
		 * does; it can only leave the namespace (setns), which the inode shows.
		 * So one open, not ns_open_path_checked()'s two and its checks: most
		 * entries are these (with it for all, a list of 10,000 processes took
		 * 13% longer in one noisy trial; with this, as long as before).
		 */
		fd = open(e->path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (fd >= 0 &&
		    (fstat(fd, &st) < 0 || st.st_dev != e->id.dev || st.st_ino != e->id.ino))
			return;
	} else if (e->path && !e->path_is_pin) {
		/*
		 * The path is /proc/PID/fd/N, which its owner can swap since the
		 * scan for a FIFO (a plain open() would wait for a writer for ever) or a
		 * device node of their choosing: look with O_PATH, and open only the
		 * namespace seen during the scan.  A process may also have left it (setns).
		 */
		fd = ns_open_path_checked(e->path, (int)type, e->id.dev, e->id.ino, NULL);
	}
	if (fd < 0)
		return;
	if (ioctl(fd, NS_GET_ID, &id) == 0)
		e->id.id = id;
	if (type == NSCTL_TYPE_NET && sock)
		e->pub.netnsid = query_netnsid(sock, fd);
	/* EPERM: the owner is outside the caller's user namespace, so out of reach. */
	related = ioctl(fd, NS_GET_USERNS);
	/*
	 * No process to take a UID from: the creator of the user namespace, as
	 * lsns shows it; a user namespace answers for itself.
	 */
	if (!e->pub.has_uid) {
		int user = type == NSCTL_TYPE_USER ? fd : related;
		uid_t uid;

		if (user >= 0 && ioctl(user, NS_GET_OWNER_UID, &uid) == 0) {
			e->pub.uid = uid;
			e->pub.has_uid = true;
		}
	}
	if (related >= 0)
		relation_resolve(list, related, &e->pub.owner, &e->owner_fd);
	if (type == NSCTL_TYPE_USER || type == NSCTL_TYPE_PID) {
		related = ioctl(fd, NS_GET_PARENT);
		if (related >= 0)
			relation_resolve(list, related, &e->pub.parent, &e->parent_fd);
	}
}

/* A namespace reached by NS_GET_USERNS or NS_GET_PARENT, which may be new. */
static int relation_adopt(struct nsctl_list *list, int *fd, enum nsctl_type type,
			  const struct nsctl_list_ns **ret)
{
	struct entry *e;
	struct stat st;
	int r;

	if (*fd < 0)
		return 0;
	if (fstat(*fd, &st) < 0) {
		close_fdp(fd);
		*fd = -1;
		return 0;
	}
	r = entry_get(list, type, st.st_dev, st.st_ino, NULL, &e);
	if (r < 0)
		return r;
	if (r > 0)
		e->fd = TAKE_FD(*fd);
	else
		close_fdp(fd);
	*fd = -1;
	*ret = &e->pub;
	return 0;
}

/* What each worker of the relations has of its own: its netlink socket, when netnsids are asked. */
struct relations_job {
	bool netnsid;
	struct netlink_socket sockets[LIST_WORKERS];
};

/* The parent, owner and command of the lowest process of E, once. */
static void entry_fill_process(struct entry *e)
{
	const struct proc_details *details;

	if (!e->record || e->pub.command)
		return;
	details = list_read_details(e->record);
	if (!details)
		return;
	e->pub.ppid = details->ppid;
	e->pub.command = details->command;
	if (details->has_uid) {
		e->pub.uid = details->uid;
		e->pub.has_uid = true;
	}
}

static void relations_one(struct nsctl_list *list, size_t i, unsigned worker, void *data)
{
	struct relations_job *job = data;
	struct entry *e = list->entries[i];

	/* First: a process's UID spares relations_of() the owner's. */
	entry_fill_process(e);
	relations_of(list, e, job->netnsid ? &job->sockets[worker] : NULL);
}

/*
 * An fd on each namespace held by pins alone, for its relations: the path is
 * walked by the copier (copier.h), since it may lead through another user's
 * mounts.  One it gave no answer for shows no ID, owner or parent.
 */
static int open_pins(struct nsctl_list *list)
{
	_cleanup_free_ struct copier_request *requests = NULL;
	_cleanup_free_ struct copier_answer *answers = NULL;
	_cleanup_free_ struct entry **entries = NULL;
	size_t n = 0;

	for (size_t i = 0; i < list->n_entries; i++)
		n += list->entries[i]->path_is_pin && list->entries[i]->fd < 0;
	if (!n)
		return 0;
	requests = calloc(n, sizeof(*requests));
	answers = calloc(n, sizeof(*answers));
	entries = calloc(n, sizeof(*entries));
	if (!requests || !answers || !entries)
		return -ENOMEM;
	n = 0;
	for (size_t i = 0; i < list->n_entries; i++) {
		struct entry *e = list->entries[i];

		if (!e->path_is_pin || e->fd >= 0)
			continue;
		requests[n] = (struct copier_request){ .kind = COPIER_NS_PATH,
						       .fd = -1,
						       .type = (int)e->id.type,
						       .dev = e->id.dev,
						       .ino = e->id.ino,
						       .path = e->path };
		entries[n++] = e;
	}
	copier_run(requests, n, answers);
	for (size_t i = 0; i < n; i++)
		if (answers[i].err == 0)
			entries[i]->fd = answers[i].fd;
	return 0;
}

static int list_relations(struct nsctl_list *list, unsigned flags)
{
	struct relations_job job = { .netnsid = !(flags & NSCTL_LIST_WITHOUT_NETNSID) };
	_cleanup_close_ int own_user = -1;
	size_t n = list->n_entries;
	int r = open_pins(list);

	if (r < 0)
		return r;
	/*
	 * NS_GET_USERNS hands out an fd on the owner through the one nsfs dentry
	 * the kernel keeps for a namespace while something holds it, and builds
	 * (and frees) a dentry and an inode when nothing does.  Most namespaces
	 * belong to the caller's user namespace: holding it saves that per entry.
	 */
	own_user = nsctl_ns_open_own(NSCTL_TYPE_USER, false);

	for (size_t w = 0; w < LIST_WORKERS; w++)
		job.sockets[w].fd = -1;
	/* The ioctls of the namespaces found so far, on both cores: they only read the table. */
	list_parallel(list, n, !(flags & NSCTL_LIST_ONE_THREAD), relations_one, &job);
	/* Then, on this thread (worker 0), what they led to: owners and parents no process is in.
	 */
	for (size_t i = 0; i < list->n_entries; i++) {
		struct entry *e = list->entries[i];

		if (i >= n)
			relations_one(list, i, 0, &job);
		r = relation_adopt(list, &e->owner_fd, NSCTL_TYPE_USER, &e->pub.owner);
		if (r < 0)
			break;
		r = relation_adopt(list, &e->parent_fd, e->id.type, &e->pub.parent);
		if (r < 0)
			break;
	}
	for (size_t w = 0; w < LIST_WORKERS; w++)
		close_fdp(&job.sockets[w].fd);
	return r;
}

static int compare_ino(const void *a, const void *b)
{
	const struct nsctl_list_ns *x = *(const struct nsctl_list_ns *const *)a;
	const struct nsctl_list_ns *y = *(const struct nsctl_list_ns *const *)b;

	if (x->id->ino != y->id->ino)
		return x->id->ino < y->id->ino ? -1 : 1;
	if (x->id->dev != y->id->dev)
		return x->id->dev < y->id->dev ? -1 : 1;
	return 0;
}

static int list_finish(struct nsctl_list *list)
{
	list->sorted = calloc(list->n_entries + 1, sizeof(*list->sorted));
	if (!list->sorted)
		return -ENOMEM;
	for (size_t i = 0; i < list->n_entries; i++) {
		struct entry *e = list->entries[i];

		entry_fill_process(e);
		e->pub.pins = (const char *const *)e->pins;
		e->pub.holders = e->holders;
		e->pub.n_holders = e->n_holders;
		e->pub.n_pins = e->n_pins;
		list->sorted[i] = &e->pub;
	}
	qsort(list->sorted, list->n_entries, sizeof(*list->sorted), compare_ino);
	return 0;
}

NSCTL_EXPORT size_t nsctl_list_count(const struct nsctl_list *list)
{
	return list ? list->n_entries : 0;
}

NSCTL_EXPORT const struct nsctl_list_ns *nsctl_list_get(const struct nsctl_list *list, size_t i)
{
	return list && i < list->n_entries ? list->sorted[i] : NULL;
}

NSCTL_EXPORT const struct nsctl_list_ns *nsctl_list_find(const struct nsctl_list *list, dev_t dev,
							 ino_t ino)
{
	const struct entry *e = list ? ns_hash_get(&list->hash, dev, ino) : NULL;

	return e ? &e->pub : NULL;
}

static int compare_pid(const void *key, const void *element)
{
	pid_t pid = *(const pid_t *)key, other = ((const struct proc_record *)element)->pid;

	return pid < other ? -1 : pid > other;
}

NSCTL_EXPORT const struct nsctl_list_ns *nsctl_list_find_process(const struct nsctl_list *list,
								 pid_t pid, enum nsctl_type type)
{
	const struct proc_record *rec;

	if (!list || !nsctl_type_get(type))
		return NULL;
	/* /proc lists PIDs in ascending order, and the records keep it. */
	rec = bsearch(&pid, list->records, list->n_records, sizeof(*rec), compare_pid);
	if (!rec || !rec->seen || !rec->ns[type].ino)
		return NULL;
	return nsctl_list_find(list, rec->ns[type].dev, rec->ns[type].ino);
}

/* The cgroup and container of the process of REC into ROW, where the list asks them. */
static void row_fill_container(const struct nsctl_list *list, struct nsctl_list_ns *row,
			       struct proc_record *rec)
{
	const struct proc_container *container;

	if (!list->containers || !rec)
		return;
	container = list_read_container(rec, list->cgroups);
	if (container) {
		row->cgroup = container->cgroup;
		row->container = container->container;
	}
}

static void containers_one(struct nsctl_list *list, size_t i, unsigned worker, void *data)
{
	struct entry *e = list->entries[i];

	(void)worker;
	(void)data;
	row_fill_container(list, &e->pub, e->record);
}

/* The rows of the processes of NS into list->rows: 0, or -ENOMEM. */
static int process_rows_make(struct nsctl_list *list, const struct nsctl_list_ns *ns)
{
	enum nsctl_type type = ns->id->type;
	size_t n = 0;

	free(list->rows);
	list->rows_of = NULL;
	list->n_rows = 0;
	list->rows = calloc(ns->nprocs ? ns->nprocs : 1, sizeof(*list->rows));
	if (!list->rows)
		return -ENOMEM;
	for (size_t i = 0; i < list->n_records && n < ns->nprocs; i++) {
		struct proc_record *rec = &list->records[i];
		const struct proc_details *details;
		struct nsctl_list_ns *row;

		if (!rec->seen || rec->ns[type].ino != ns->id->ino ||
		    rec->ns[type].dev != ns->id->dev)
			continue;
		details = list_read_details(rec);
		/* Gone since the scan: no row of a process nobody can ask about. */
		if (!details || !details->command)
			continue;
		row = &list->rows[n++];
		*row = *ns;
		row->pid = rec->pid;
		row->ppid = details->ppid;
		row->uid = details->uid;
		row->has_uid = details->has_uid;
		row->command = details->command;
		row_fill_container(list, row, rec);
	}
	list->rows_of = ns;
	list->n_rows = n;
	return 0;
}

NSCTL_EXPORT const struct nsctl_list_ns *
nsctl_list_process(struct nsctl_list *list, const struct nsctl_list_ns *ns, size_t i)
{
	if (!list || !ns || !nsctl_type_get(ns->id->type))
		return NULL;
	if (list->rows_of != ns && process_rows_make(list, ns) < 0)
		return NULL;
	return i < list->n_rows ? &list->rows[i] : NULL;
}

NSCTL_EXPORT int nsctl_list_scan(unsigned flags, struct nsctl_list **ret_list)
{
	struct nsctl_list *list;
	int r;

	if (!ret_list ||
	    (flags & ~(NSCTL_LIST_ALL | NSCTL_LIST_ONE_THREAD | NSCTL_LIST_WITHOUT_NETNSID)))
		return -EINVAL;
	list = calloc(1, sizeof(*list));
	if (!list)
		return -ENOMEM;
	r = list_scan_processes(list, flags);
	if (r >= 0)
		r = aggregate(list);
	if (r >= 0 && (flags & NSCTL_LIST_PINS))
		r = scan_pins(list);
	if (r >= 0 && (flags & NSCTL_LIST_RELATIONS))
		r = list_relations(list, flags);
	list->cgroups = flags & NSCTL_LIST_CGROUPS;
	list->containers = flags & (NSCTL_LIST_CONTAINERS | NSCTL_LIST_CGROUPS);
	if (r >= 0 && list->containers)
		list_parallel(list, list->n_entries, !(flags & NSCTL_LIST_ONE_THREAD),
			      containers_one, NULL);
	if (r >= 0)
		r = list_finish(list);
	if (r < 0) {
		nsctl_list_free(list);
		return r;
	}
	*ret_list = list;
	return 0;
}

/* Whether container C is what SPEC names: RUNTIME:NAME, NAME, or an ID's first 4 digits or more. */
static bool container_matches(const struct proc_container *c, const char *spec)
{
	const char *name = strchr(c->container, ':') + 1;
	size_t length = strlen(spec);

	if (strchr(spec, ':'))
		return strcmp(c->container, spec) == 0;
	if (strcmp(name, spec) == 0)
		return true;
	return length >= 4 && strspn(spec, "0123456789abcdef") == length &&
	       strncmp(c->ref->id, spec, length) == 0;
}

/* "A, B, C" of the containers CANDIDATES (N of them) into BUF, cut where it is full. */
static void candidates_format(const struct proc_container *const *candidates, size_t n, char *buf,
			      size_t size)
{
	size_t used = 0;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < n && used < size; i++) {
		int w = snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
				 candidates[i]->container);

		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/*
 * The container SPEC names among LIST's rows (one, by its identity, not by
 * how it is shown), and the lowest PID of its namespaces; or why there is none.
 */
static int container_pid(struct nsctl_list *list, const char *spec, pid_t *ret_pid,
			 struct container_ref *ret_ref, char *buf, size_t size)
{
	const struct proc_container *candidates[8];
	size_t n = 0;
	pid_t pid = 0;

	for (size_t i = 0; i < list->n_entries; i++) {
		struct entry *e = list->entries[i];
		const struct proc_container *c;
		size_t j;

		if (!e->record || !(c = list_read_container(e->record, list->cgroups)) ||
		    !c->container || !c->ref || !container_matches(c, spec))
			continue;
		for (j = 0; j < n && !container_same(candidates[j]->ref, c->ref); j++)
			;
		if (j == n && n < sizeof(candidates) / sizeof(candidates[0]))
			candidates[n++] = c;
		if (j == 0 && (!pid || e->pub.pid < pid))
			pid = e->pub.pid;
	}
	candidates_format(candidates, n, buf, size);
	if (n == 0)
		return -ENOENT;
	if (n > 1)
		return -ENOTUNIQ;
	*ret_pid = pid;
	*ret_ref = *candidates[0]->ref;
	return 0;
}

NSCTL_EXPORT int nsctl_process_open_container(const char *spec, struct nsctl_process_room *room,
					      struct nsctl_process **ret_process, char *buf,
					      size_t size)
{
	struct nsctl_process *process = NULL;
	struct container_ref want, got;
	struct nsctl_list *list;
	size_t length = spec ? strlen(spec) : 0;
	pid_t pid;
	int r;

	if (length == 0 || length > 300 || !ret_process || !buf || size == 0)
		return -EINVAL;
	r = nsctl_list_scan(NSCTL_LIST_CONTAINERS, &list);
	if (r < 0)
		return r;
	r = container_pid(list, spec, &pid, &want, buf, size);
	nsctl_list_free(list);
	if (r < 0)
		return r;
	r = room ? nsctl_process_open_in(room, pid, &process) : nsctl_process_open(pid, &process);
	if (r < 0)
		return r;
	/* Still in that very container now that the handle holds it: not a later process of its
	 * PID. */
	r = process_container(process, &got);
	if (r >= 0 && (r == 0 || !container_same(&want, &got)))
		r = -ESRCH;
	if (r < 0) {
		if (room)
			nsctl_process_clear(process);
		else
			nsctl_process_free(process);
		return r;
	}
	*ret_process = process;
	return 0;
}
