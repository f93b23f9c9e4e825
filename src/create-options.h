/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What nsctl run and nsctl unshare share: their options, and the steps inside the new namespaces.
 */
#ifndef NSCTL_CREATE_OPTIONS_H
#define NSCTL_CREATE_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "cli.h"

enum create_mode {
	CREATE_RUN,     /* a supervised child */
	CREATE_UNSHARE, /* the caller itself, then exec */
};

/* The kernel's limit of lines in a map (Linux 4.15): nsctl_idmap_add() refuses more. */
#define MAP_RANGES_MAX 340

/* One map option as the command line gives it; create_options_check() makes it ranges. */
struct map_request {
	const char *option; /* "--map-users", for messages */
	enum map_source {
		MAP_CALLER, /* INNER (or the caller's own ID, or TEXT's ID) to the caller's ID */
		MAP_RANGE,  /* RANGE, as TEXT gives it */
		MAP_SUBIDS, /* the caller's ranges of /etc/subuid or /etc/subgid, from INNER */
	} source;
	bool group;
	bool every_range;     /* MAP_SUBIDS: all of the caller's ranges, not only its first */
	bool identity;        /* MAP_SUBIDS: each range to the same IDs inside (INNER unused) */
	bool inner_is_caller; /* MAP_CALLER: the caller's own ID inside too (--map-current) */
	const char *text;     /* MAP_CALLER: a number or a name (--map-user); MAP_RANGE: as given */
	uint32_t inner;
	struct nsctl_idmap_range range; /* MAP_RANGE */
};

struct create_options {
	enum create_mode mode;
	unsigned types;                    /* the new namespaces */
	const char *pins[TYPE_SLOTS];      /* --TYPE=FILE (a NAME's path), or NULL */
	const char *pin_names[TYPE_SLOTS]; /* --TYPE=NAME (no '/'), or NULL */
	const char *hostname, *domainname;
	struct map_request *map_requests; /* the map options, in order (static storage) */
	size_t n_map_requests;
	struct nsctl_idmap *uids, *gids; /* NULL, or the maps made of them (static storage) */
	enum nsctl_setgroups setgroups;
	bool init;
	const char *proc_dir; /* --mount-proc, or NULL */
	enum nsctl_propagation propagation;
	bool loopback;
	bool has_monotonic, has_boottime;
	int64_t monotonic, boottime;
	const char *cgroup_dir;
	int cgroup_fd; /* opened by create_options_check() for --into-cgroup, else -1 */
	const char *root, *wd;
	const char *uid_text, *gid_text; /* -S, -G as given: a number or a name */
	bool has_uid, has_gid;           /* and as looked up */
	uid_t uid;
	gid_t gid;
	struct cli_keep_fds keep;
	bool verbose;
	bool new_session; /* --new-session: PROGRAM without the caller's terminal */
	bool keep_caps;   /* --keep-caps: capabilities made ambient, kept across exec */
	int kill_signal;  /* --kill-child: the child's signal when nsctl dies; 0: SIGKILL */
	char **argv;      /* PROGRAM [ARG...] */
	const char
	    *file; /* the file argv is executed from; NULL: argv[0] (a login shell's is apart) */
	struct cli_shell shell; /* no PROGRAM: the login shell */
};

/*
 * Read the command line into plain values (syntax and the options'
 * combinations: no file opened, no name looked up), then, unless
 * cli_parse_only, create_options_check(); before anything is created.  Usage
 * errors exit 125.
 */
void create_options_parse(int argc, char **argv, enum create_mode mode, struct create_options *o);

/*
 * The plain values checked against the system (src/create-check.c): user and
 * group names looked up, the maps made of the caller's IDs and subordinate
 * IDs and checked as the kernel will, --into-cgroup opened, the pin files
 * looked at (a stale pin NAME replaced).
 */
void create_options_check(struct create_options *o);

/* CALL (clone, unshare) failed with ERR: say why, naming a type the kernel lacks, and exit 125. */
_Noreturn void create_fail(const struct create_options *o, int err, const char *call);

/* Whether the options need anything written from outside the new user namespace (maps or
 * setgroups). */
bool create_options_need_user_maps(const struct create_options *o);

/*
 * Inside the new namespaces, before exec: names, loopback, propagation, root,
 * proc, working directory, credentials, session.  A failure prints why and exits 125.
 */
void create_setup_inside(const struct create_options *o);

/* Print the identities of the new namespaces of PID (0: the caller's), for --verbose. */
void create_print_namespaces(const struct create_options *o, pid_t pid);

bool create_options_have_pins(const struct create_options *o);

/*
 * Pin the new namespaces of PID (for pid and time: those of its children) at
 * the files of --TYPE=FILE; PINS says what was made, for cli_pins_take_back()
 * when PROGRAM is not reached after all.  All or nothing: on failure, say
 * why, take back the pins made, and return -errno.
 */
int create_pins(const struct create_options *o, pid_t pid, struct cli_pins *pins);

/* Run PROGRAM: only fds 0-2 and --keep-fd survive, unless --keep-fds. */
_Noreturn void create_exec(const struct create_options *o);

#endif
