// SPDX-License-Identifier: GPL-2.0-or-later
/* nsctl enter: join the namespaces of a process, of namespace files or of pins, and run a program.
 */
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "cli.h"
#include "number.h"
#include "util.h"

extern char **environ;

/* What the command line asks for, parsed and checked before anything changes. */
struct request {
	const char *target;
	bool target_option; /* -t/--target gave TARGET, as nsenter's */
	bool all;           /* -a/--all: every type of TARGET, as without type options */
	bool by_id;         /* TARGET is "id:ID" */
	uint64_t id;
	int net_socket;                /* -N/--net-socket FD, or -1 */
	unsigned asked;                /* type options, with or without =FILE */
	const char *files[TYPE_SLOTS]; /* --TYPE=FILE */
	bool set_uid, set_gid, preserve_credentials;
	bool uid_follow, gid_follow;     /* -S follow, -G follow: the target's own IDs */
	const char *uid_text, *gid_text; /* -S, -G: looked up after the option loop */
	uid_t uid;
	gid_t gid;
	bool root, wd, env, keep_loader_env, join_cgroup, no_fork, new_session, user_parent;
	bool keep_caps;   /* --keep-caps: capabilities kept across -S and the exec */
	bool pty, no_pty; /* --pty, --no-pty: PROGRAM on a new terminal, or not */
	bool target_caps; /* --target-caps: the target's capability sets for PROGRAM */
	bool netns_exec;  /* --netns-exec: what ip netns exec adds (/sys, /etc/netns/NAME) */
	const char *root_dir, *wd_dir;
	const char *wdns_dir; /* -W/--wdns: a working directory inside the joined mounts */
	struct cli_keep_fds keep;
	char **program;
};

/* What the target gave, opened before joining anything. */
struct target {
	struct nsctl_process *process; /* a PID target */
	const char *path;              /* a namespace file target */
	unsigned pinned;               /* a pin name target: the types it has */
	unsigned from_process;         /* types to join from the process */
	bool different_only;           /* no type option: only what differs from ours */
	struct nsctl_ns_set *set;      /* files (--TYPE=FILE, path, pins) */
	/* Where process and set live: no malloc() before the exec (nsctl.h's rooms). */
	struct nsctl_process_room process_room;
	struct nsctl_ns_set_room set_room;
	int root_fd, wd_fd, cgroup_fd;
	int *cgroup_v1_fds; /* --join-cgroup: the v1 hierarchies too */
	int cgroup_v1_count;
	struct nsctl_caps caps; /* --target-caps */
	char **environ;
	bool owner_is_caller; /* --env: the target's effective user ID is nsctl's */
	bool user_ns_apart;   /* --env: its user namespace is not nsctl's */
};

enum {
	OPT_PRESERVE_CREDENTIALS = CHAR_MAX + 1,
	OPT_KEEP_FD,
	OPT_KEEP_FDS,
	OPT_NEW_SESSION,
	OPT_KEEP_LOADER_ENV,
	OPT_USER_PARENT,
	OPT_NETNS_EXEC,
	OPT_KEEP_CAPS,
	OPT_TARGET_CAPS,
	OPT_FOLLOW_CONTEXT,
	OPT_PTY,
	OPT_NO_PTY,
};

static void help(void)
{
	cli_help_begin();
	fputs("Usage: nsctl enter [options] TARGET [--] [PROGRAM [ARG...]]\n"
	      "\nJoin the namespaces of TARGET and run PROGRAM there (default: a login shell,\n"
	      "$SHELL, else the caller's passwd entry's shell, else /bin/sh).\n"
	      "TARGET is a PID, a namespace file (/proc/PID/ns/TYPE, a pin; it contains a '/'),\n"
	      "the NAME of a pin (/run/netns/NAME as \"ip netns\" makes, /run/nsctl/TYPE/NAME),\n"
	      "id:ID, the namespace of that 64-bit ID (the ID column of nsctl list), or\n"
	      "container:NAME, the first process of a container (NAME, RUNTIME:NAME as the\n"
	      "CONTAINER column of nsctl list shows it, or 4 or more hex digits of its ID),\n"
	      "checked to be in that container once held: as podman exec or docker exec,\n"
	      "every namespace of it that differs from nsctl's.\n"
	      "\nOptions:\n",
	      stdout);
	cli_type_options_help(stdout, "[=FILE]", "join the");
	fputs(" -a, --all                 every namespace of TARGET that differs from nsctl's\n"
	      "                             own, as without type options; --TYPE=FILE, -N and\n"
	      "                             --user-parent take the place of theirs\n"
	      " -t, --target TARGET       TARGET as an option, as nsenter -t takes a PID;\n"
	      "                             then every operand is PROGRAM and its arguments\n"
	      " -S, --setuid UID          set the user ID (a number, a user name, or follow:\n"
	      "                             the target's), clear supplementary groups\n"
	      "                             (default 0 when a user namespace is entered)\n"
	      " -G, --setgid GID          set the group ID (a number, a group name, or\n"
	      "                             follow: the target's), clear supplementary\n"
	      "                             groups (same default)\n"
	      "     --preserve-credentials  leave the user and group IDs as they are\n"
	      " -r, --root[=DIR]          set the root directory (default: the target's)\n"
	      " -w, --wd[=DIR]            set the working directory (default: the target's)\n"
	      " -W, --wdns DIR            set the working directory to DIR as the joined\n"
	      "                             mount namespace and root see it\n"
	      " -N, --net-socket FD       join the network namespace of socket FD of the PID\n"
	      "                             TARGET (the one it was made in)\n"
	      "     --user-parent         join the parent of the target's user namespace\n"
	      "                             instead of it (implies -U)\n"
	      "     --keep-caps           keep the capabilities across -S and the exec of\n"
	      "                             PROGRAM (ambient), as nsenter --keep-caps\n"
	      "     --target-caps         give PROGRAM the target's capability sets\n"
	      "                             (bounding, permitted, effective, inheritable,\n"
	      "                             ambient) and no_new_privs, in its own uid;\n"
	      "                             a target in another user namespace needs -U\n"
	      "     --netns-exec          as ip netns exec: in a mount namespace of its own,\n"
	      "                             a fresh /sys and /etc/netns/NAME/* over /etc/*\n"
	      "                             (the default for a NAME only ip netns add made)\n"
	      " -e, --env                 take the target's environment, but LD_* and the\n"
	      "                             other loader variables, where PROGRAM runs on\n"
	      "                             the target's files (-m joined, no --root DIR or\n"
	      "                             --wd DIR) with no more rights than it (it is\n"
	      "                             nsctl's user, or its user namespace is joined);\n"
	      "                             elsewhere keep nsctl's and take only the\n"
	      "                             target's TERM, LANG, LC_*, TZ and other data\n"
	      "                             variables (an allowlist)\n"
	      "     --keep-loader-env     with -e, where the whole environment is taken:\n"
	      "                             keep LD_*, GCONV_PATH, GLIBC_TUNABLES...\n"
	      " -c, --join-cgroup         join the target's cgroups first (v2, and each v1\n"
	      "                             hierarchy mounted here)\n"
	      " -F, --no-fork             exec PROGRAM in place even when joining pid or time\n"
	      "     --keep-fd N           pass the caller's fd N on to PROGRAM (repeatable)\n"
	      "     --keep-fds            pass every inherited file descriptor on to PROGRAM\n"
	      "     --new-session         run PROGRAM in a new session, without the caller's\n"
	      "                             terminal: TIOCSTI into it fails, unless PROGRAM\n"
	      "                             has CAP_SYS_ADMIN on the host (root, no -U)\n"
	      "     --pty                 run PROGRAM on a new pseudo-terminal, relayed by\n"
	      "                             nsctl (the default when stdin is a terminal and\n"
	      "                             neither -F nor --new-session is given): the\n"
	      "                             target's processes never reach the caller's\n"
	      "                             terminal\n"
	      "     --no-pty              run PROGRAM on the caller's terminal, which a\n"
	      "                             process of the target may then push input into\n"
	      "                             (TIOCSTI) or take, by tracing PROGRAM\n",
	      stdout);
	cli_help_footer(stdout);
	fputs(
	    "\nWithout type options, a PID joins every namespace of the target that differs\n"
	    "from nsctl's own, a file or an id:ID its one type, a NAME every type pinned\n"
	    "under it.\n"
	    "--TYPE=FILE takes that type from FILE; a short option never takes one, so\n"
	    "-nm is -n -m.  A joined pid or time namespace applies to children: nsctl then\n"
	    "runs PROGRAM as its child, forwards signals to it and ends as it ends.\n"
	    "PROGRAM gets only file descriptors 0, 1 and 2: use --keep-fd N for another\n"
	    "one, such as a shell's <(...).\n"
	    "\nExit status: PROGRAM's own (a PROGRAM killed by a signal kills nsctl with the\n"
	    "same signal), 125 nsctl failed, 126 PROGRAM not executable, 127 PROGRAM not found.\n",
	    stdout);
}

/*
 * Whether TEXT is a valid pin name.  Not inlined, here and below: a PATH_MAX
 * buffer in the frames of the PID path would push its stack over pages it
 * never uses otherwise, and each new page is a fault on every enter.
 */
static __attribute__((noinline)) bool is_pin_name(const char *text)
{
	char path[PATH_MAX];

	return nsctl_pin_name_path(NSCTL_TYPE_NET, text, path, sizeof(path)) >= 0;
}

/*
 * A TARGET of digits is a PID first, as nsenter reads it; where no such
 * process exists but a pin of that name does ("ip netns add 123"), say how
 * to name the pin.
 */
static __attribute__((noinline)) _Noreturn void no_such_process(const char *text)
{
	char path[PATH_MAX];

	if (cli_pin_path_of_name(text, path, sizeof(path)))
		cli_fail(0, "no process %s; for the pin, use %s", text, path);
	cli_fail(-ESRCH, "PID %s", text);
}

/*
 * TARGET's form, before anything is opened: a valid PID, a path (a '/'), id:ID,
 * container:NAME, or a valid pin name.
 */
static void check_target_form(struct request *req)
{
	const char *text = req->target;
	pid_t pid;
	int r;

	if (text[0] == '\0')
		cli_usage_error("'': an empty TARGET is neither a PID, a file nor a pin name");
	/* container:NAME: its form checked there, the container found once opened. */
	if (cli_container_operand(text))
		return;
	if (cli_ns_id_operand(text, &req->id)) {
		req->by_id = true;
	} else if (cli_all_digits(text)) {
		r = parse_pid(text, &pid);
		if (r < 0)
			cli_usage_error("'%s': not a valid PID (%s)", text, cli_pid_refusal(r));
	} else if (!strchr(text, '/') && !is_pin_name(text)) {
		cli_usage_error("'%s': neither a PID, a path nor a valid pin name", text);
	}
}

/* The FD of --net-socket: a decimal fd number of the target process. */
static int parse_socket_fd(const char *text)
{
	int value;

	/* As --keep-fd: leading zeros allowed. */
	if (number_parse_int(text, INT_MAX, NUMBER_LEADING_ZEROS, &value) < 0)
		cli_usage_error("--net-socket '%s': not a file descriptor number", text);
	return value;
}

static const struct option enter_own_options[] = {
	{ "setuid", required_argument, NULL, 'S' },
	{ "setgid", required_argument, NULL, 'G' },
	{ "preserve-credentials", no_argument, NULL, OPT_PRESERVE_CREDENTIALS },
	{ "root", optional_argument, NULL, 'r' },
	{ "wd", optional_argument, NULL, 'w' },
	{ "env", no_argument, NULL, 'e' },
	{ "keep-loader-env", no_argument, NULL, OPT_KEEP_LOADER_ENV },
	{ "join-cgroup", no_argument, NULL, 'c' },
	{ "no-fork", no_argument, NULL, 'F' },
	{ "keep-fd", required_argument, NULL, OPT_KEEP_FD },
	{ "keep-fds", no_argument, NULL, OPT_KEEP_FDS },
	{ "new-session", no_argument, NULL, OPT_NEW_SESSION },
	{ "pty", no_argument, NULL, OPT_PTY },
	{ "no-pty", no_argument, NULL, OPT_NO_PTY },
	{ "user-parent", no_argument, NULL, OPT_USER_PARENT },
	{ "netns-exec", no_argument, NULL, OPT_NETNS_EXEC },
	{ "keep-caps", no_argument, NULL, OPT_KEEP_CAPS },
	{ "target-caps", no_argument, NULL, OPT_TARGET_CAPS },
	{ "wdns", required_argument, NULL, 'W' },
	{ "net-socket", required_argument, NULL, 'N' },
	{ "all", no_argument, NULL, 'a' },
	{ "target", required_argument, NULL, 't' },
	{ "follow-context", no_argument, NULL, 'Z' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ 0 },
};

/* Who PROGRAM is, and what it sees: credentials, root, directories, the target.  False: not one. */
static bool parse_who_option(struct request *req, int c)
{
	switch (c) {
	case 'S':
		req->set_uid = true;
		req->uid_follow = strcmp(optarg, "follow") == 0;
		req->uid_text = req->uid_follow ? NULL : optarg;
		return true;
	case 'G':
		req->set_gid = true;
		req->gid_follow = strcmp(optarg, "follow") == 0;
		req->gid_text = req->gid_follow ? NULL : optarg;
		return true;
	case OPT_PRESERVE_CREDENTIALS:
		req->preserve_credentials = true;
		return true;
	case OPT_KEEP_CAPS:
		req->keep_caps = true;
		return true;
	case OPT_TARGET_CAPS:
		req->target_caps = true;
		return true;
	case 'r':
		req->root = true;
		req->root_dir = optarg;
		return true;
	case 'w':
		req->wd = true;
		req->wd_dir = optarg;
		return true;
	case 'W':
		req->wdns_dir = optarg;
		return true;
	case 'e':
		req->env = true;
		return true;
	case OPT_KEEP_LOADER_ENV:
		req->keep_loader_env = true;
		return true;
	case 'a':
		req->all = true;
		return true;
	case 't':
		if (req->target_option)
			cli_usage_error("--target given twice");
		req->target_option = true;
		req->target = optarg;
		return true;
	}
	return false;
}

/* How PROGRAM runs: cgroup, fds, session, terminal, the network's extras.  False: not one. */
static bool parse_how_option(struct request *req, int c)
{
	switch (c) {
	case 'c':
		req->join_cgroup = true;
		return true;
	case 'N':
		if (req->net_socket >= 0)
			cli_usage_error("--net-socket given twice");
		req->net_socket = parse_socket_fd(optarg);
		return true;
	case OPT_USER_PARENT:
		req->user_parent = true;
		return true;
	case OPT_NETNS_EXEC:
		req->netns_exec = true;
		return true;
	case 'F':
		req->no_fork = true;
		return true;
	case OPT_KEEP_FD:
		cli_keep_fd_note(&req->keep, optarg);
		return true;
	case OPT_KEEP_FDS:
		req->keep.all = true;
		return true;
	case OPT_NEW_SESSION:
		req->new_session = true;
		return true;
	case OPT_PTY:
		req->pty = true;
		return true;
	case OPT_NO_PTY:
		req->no_pty = true;
		return true;
	}
	return false;
}

/* After the options: TARGET (or --target's), checked against them, and PROGRAM. */
static void parse_target(struct request *req, int argc, char **argv)
{
	if (!req->target_option) {
		if (optind >= argc)
			cli_usage_error("no TARGET given: a PID, a namespace file or a pin name");
		req->target = argv[optind++];
	}
	check_target_form(req);
	/*
	 * nsenter -t PID with no type option joins nothing; nsctl enter PID joins
	 * every type that differs.  The nsenter spelling must not do either
	 * silently.
	 */
	if (req->target_option && !req->asked && !req->all && req->net_socket < 0 &&
	    !req->user_parent)
		cli_usage_error("--target %s without a type option: nsenter joins nothing then, "
				"nsctl enter every namespace that differs; name the types, or "
				"give -a/--all for every one",
				req->target);
	if (req->all &&
	    (req->by_id || (strchr(req->target, '/') && !cli_container_operand(req->target))))
		cli_usage_error("--all needs a PID or a pin NAME TARGET, and '%s' is a namespace "
				"file of one type",
				req->target);
	if (optind < argc && strcmp(argv[optind], "--") == 0)
		optind++;
	req->program = optind < argc ? argv + optind : NULL;
}

static const struct cli_exclusive enter_exclusive[] = {
	{ { OPT_PRESERVE_CREDENTIALS, 'S' },
	  "--preserve-credentials and --setuid/--setgid are mutually exclusive" },
	{ { OPT_PRESERVE_CREDENTIALS, 'G' },
	  "--preserve-credentials and --setuid/--setgid are mutually exclusive" },
	{ { OPT_KEEP_FDS, OPT_KEEP_FD }, "--keep-fds and --keep-fd are mutually exclusive" },
	{ { 'w', 'W' }, "--wd and --wdns are mutually exclusive" },
	{ { OPT_KEEP_CAPS, OPT_TARGET_CAPS },
	  "--keep-caps and --target-caps are mutually exclusive" },
	{ { 'N', 'n' },
	  "--net-socket and --net are mutually exclusive: both choose the "
	  "network namespace" },
	{ { OPT_PTY, OPT_NO_PTY }, "--pty and --no-pty are mutually exclusive" },
	{ { OPT_PTY, 'F' },
	  "--pty and --no-fork are mutually exclusive: nsctl stays to relay the "
	  "new terminal" },
};

static void parse(int argc, char **argv, struct request *req)
{
	struct option *options = cli_long_options_with_types(enter_own_options, optional_argument);
	char *optstring = cli_optstring_with_types("+S:G:r::w::W:N:at:ZecFhV", optional_argument);
	unsigned given[ELEMENTSOF(enter_exclusive)] = { 0 };
	int c;

	/* getopt's own messages lack the "nsctl: enter:" prefix: say it here instead. */
	opterr = 0;
	while ((c = getopt_long(argc, argv, optstring, options, NULL)) != -1) {
		enum nsctl_type type;
		const char *file;

		cli_exclusive_note(enter_exclusive, ELEMENTSOF(enter_exclusive), given, c);
		if (parse_who_option(req, c) || parse_how_option(req, c))
			continue;
		switch (c) {
		case 'Z':
			cli_usage_error(
			    "--follow-context: nsctl enter sets no SELinux context (nsenter's "
			    "-Z); run PROGRAM under runcon(1) with the target's, "
			    "/proc/PID/attr/current");
		case 'h':
			help();
			exit(EXIT_SUCCESS);
		case 'V':
			cli_version();
		default:
			if (c == '?' || c == ':')
				cli_bad_option(argv, optstring);
			type = cli_type_option_once(c, argv, optstring, &req->asked, &file);
			if (file && !*file)
				cli_usage_error("--%s=: an empty file name", cli_type_option(type));
			req->files[type] = file;
		}
	}
	/* First, while every fd open is the caller's (see cli_keep_fd_note()); then the names. */
	cli_keep_fds_check(&req->keep);
	if (req->uid_text)
		req->uid = cli_parse_id("--setuid", req->uid_text, false);
	if (req->gid_text)
		req->gid = cli_parse_id("--setgid", req->gid_text, true);
	parse_target(req, argc, argv);
	cli_exclusive_check(enter_exclusive, ELEMENTSOF(enter_exclusive), given);
	if (req->keep_loader_env && !req->env)
		cli_usage_error("--keep-loader-env is for the environment of --env");
	if (req->target_caps && !cli_all_digits(req->target))
		cli_usage_error("--target-caps needs a PID TARGET (a process to take the "
				"capabilities of), and '%s' is not one",
				req->target);
	if (req->wdns_dir && !*req->wdns_dir)
		cli_usage_error("--wdns '': an empty directory name");
	if (req->net_socket >= 0) {
		if (!cli_all_digits(req->target))
			cli_usage_error("--net-socket %d: the socket is an fd of a process, and "
					"'%s' is not a PID",
					req->net_socket, req->target);
		/* As --net=FILE: the network namespace, from the socket. */
		req->asked |= NSCTL_TYPE_BIT(NSCTL_TYPE_NET);
	}
	/* As nsenter's: --user-parent implies --user. */
	if (req->user_parent)
		req->asked |= NSCTL_TYPE_BIT(NSCTL_TYPE_USER);
}

/* Add the namespace fd FD, which the set then owns, for WHAT; on failure, close it and say so. */
static void set_add(struct target *tg, int fd, const char *what)
{
	int r = nsctl_ns_set_add_fd(tg->set, fd);

	if (r < 0) {
		close(fd);
		cli_fail(r, "%s", what);
	}
}

/*
 * --user-parent: the parent of the user namespace TARGET gives, joined in its
 * place (nsenter's --user-parent), so that a process in a nested user
 * namespace is entered with the privilege of the one that made it.  Its own
 * user namespace being that parent, nsctl has nothing to join for it.
 */
static void take_user_parent(struct target *tg)
{
	_cleanup_close_ int child = -1, own = -1;
	int parent;

	/* A user namespace file's parent takes its place, or else the process's. */
	child = nsctl_ns_set_take(tg->set, NSCTL_TYPE_USER);
	if (child < 0 && tg->process) {
		child = nsctl_process_open_ns(tg->process, NSCTL_TYPE_USER, false);
		if (child < 0)
			cli_fail(child, "--user-parent: the user namespace of the target");
		tg->from_process &= ~NSCTL_TYPE_BIT(NSCTL_TYPE_USER);
	} else if (child < 0) {
		cli_fail(0,
			 "--user-parent: the target has no user namespace to take the parent of");
	}
	parent = nsctl_ns_open_parent(child);
	if (parent < 0)
		cli_fail(parent, "--user-parent: the parent of the target's user namespace");
	own = nsctl_ns_open_own(NSCTL_TYPE_USER, false);
	if (own >= 0 && nsctl_ns_same(own, parent) == 1) {
		close(parent);
		return;
	}
	set_add(tg, parent, "--user-parent");
}

/* Which types a pin name target joins: the asked ones (each must be pinned), else all. */
static __attribute__((noinline)) unsigned pinned_types(const struct request *req, unsigned pinned,
						       unsigned own_asked)
{
	if (!own_asked)
		return pinned;
	type_foreach (t) {
		char path[PATH_MAX];

		if (!(own_asked & NSCTL_TYPE_BIT(t)) || (pinned & NSCTL_TYPE_BIT(t)))
			continue;
		nsctl_pin_name_path(t, req->target, path, sizeof(path));
		cli_fail(-ENOENT, "no %s pin named '%s' (%s)", nsctl_type_get(t)->name, req->target,
			 path);
	}
	return own_asked;
}

/* A pin name TARGET: open the pins of the types to join, but those --TYPE=FILE gives. */
static __attribute__((noinline)) void open_pin_target(const struct request *req, struct target *tg,
						      unsigned own_asked, unsigned with_file)
{
	const char *text = req->target;
	int r;

	r = nsctl_pin_name_types(text, &tg->pinned);
	if (r < 0)
		cli_fail(r, "'%s'", text);
	if (!tg->pinned)
		cli_fail(0,
			 "'%s': neither a PID, a file nor a pin name (no pin in /run/netns nor "
			 "/run/nsctl/TYPE)",
			 text);
	tg->pinned = pinned_types(req, tg->pinned, req->all ? 0 : own_asked) & ~with_file;
	type_foreach (t) {
		char path[PATH_MAX];

		if (!(tg->pinned & NSCTL_TYPE_BIT(t)))
			continue;
		nsctl_pin_name_path(t, text, path, sizeof(path));
		r = nsctl_ns_set_add_path(tg->set, path, (int)t);
		if (r < 0 && nsctl_pin_stale_check(t, text) == 1)
			cli_fail(0,
				 "pin '%s': %s is a stale pin (an empty file, no namespace mounted "
				 "on it): nsctl unpin %s removes it",
				 text, path, text);
		if (r < 0)
			cli_fail(r, "pin '%s': %s", text, path);
	}
}

/* -N/--net-socket FD: the network namespace of the target's socket FD, joined as --net=FILE. */
static void open_net_socket(const struct request *req, struct target *tg)
{
	int fd = nsctl_process_open_socket_netns(tg->process, req->net_socket);

	if (fd == -EBADF)
		cli_fail(0, "--net-socket %d: PID %s has no fd %d", req->net_socket, req->target,
			 req->net_socket);
	if (fd == -ENOTSOCK)
		cli_fail(0, "--net-socket %d: fd %d of PID %s is not a socket", req->net_socket,
			 req->net_socket, req->target);
	if (fd == -EOPNOTSUPP)
		cli_fail(0,
			 "--net-socket %d: this kernel cannot copy another process's fd "
			 "(that needs pidfds and pidfd_getfd, Linux 5.6)",
			 req->net_socket);
	if (fd < 0)
		cli_fail(fd, "--net-socket %d: the socket of PID %s", req->net_socket, req->target);
	set_add(tg, fd, "--net-socket");
}

/* What a process TARGET (a PID, a container) is to join, once its handle holds it. */
static void target_process_opened(const struct request *req, struct target *tg, unsigned own_asked)
{
	const char *text = req->target, *pid = cli_container_operand(text) ? "" : "PID ";
	int r;

	/* The handle holds the process: what it is cannot change before the join. */
	r = nsctl_process_is_kernel_thread(tg->process);
	if (r < 0)
		cli_fail(r, "%s%s", pid, text);
	if (r > 0)
		cli_fail(0, "%s%s is a kernel thread: it has no namespaces to enter", pid, text);
	if (req->net_socket >= 0)
		open_net_socket(req, tg);
	own_asked &= ~nsctl_ns_set_types(tg->set);
	tg->different_only = !req->asked || req->all;
	/*
	 * No type option: every type, and the library leaves out those the
	 * kernel lacks as it opens them (no look at which types it has first).
	 */
	tg->from_process =
	    tg->different_only ? nsctl_type_all() & ~nsctl_ns_set_types(tg->set) : own_asked;
}

/* Open TARGET and every --TYPE=FILE; decide which types to join.  Nothing changes yet. */
static void open_target(const struct request *req, struct target *tg)
{
	unsigned with_file = 0, own_asked;
	const char *text = req->target;
	pid_t pid;
	int r;

	tg->set = nsctl_ns_set_init(&tg->set_room);
	type_foreach (t) {
		if (!req->files[t])
			continue;
		with_file |= NSCTL_TYPE_BIT(t);
		r = nsctl_ns_set_add_path(tg->set, req->files[t], (int)t);
		if (r < 0)
			cli_fail(r, "--%s=%s", cli_type_option(t), req->files[t]);
	}
	own_asked = req->asked & ~with_file;
	if (cli_container_operand(text)) {
		tg->process = cli_container_open(EXIT_EXEC_FAILED, text,
						 cli_container_operand(text), &tg->process_room);
		target_process_opened(req, tg, own_asked);
		return;
	}
	if (cli_all_digits(text)) {
		r = parse_pid(text, &pid); /* its form was checked while parsing */
		if (r < 0)
			cli_fail(r, "PID %s", text);
		r = nsctl_process_open_in(&tg->process_room, pid, &tg->process);
		if (r == -ESRCH)
			no_such_process(text);
		if (r < 0)
			cli_fail(r, "PID %s", text);
		target_process_opened(req, tg, own_asked);
		return;
	}
	if (req->by_id || strchr(text, '/')) {
		enum nsctl_type type;

		if (req->by_id)
			r = cli_open_ns_id(EXIT_EXEC_FAILED, text, req->id, -1, &type);
		else
			r = nsctl_ns_open_path(text, -1, &type);
		if (r < 0)
			cli_fail(r, "%s", text);
		if (own_asked & ~NSCTL_TYPE_BIT(type)) {
			close(r);
			cli_usage_error("%s is a %s namespace: the other type options need =FILE",
					text, nsctl_type_get(type)->name);
		}
		if (nsctl_ns_set_types(tg->set) & NSCTL_TYPE_BIT(type)) {
			close(r);
			cli_usage_error("%s is a %s namespace, and --%s=FILE gives one too", text,
					nsctl_type_get(type)->name, cli_type_option(type));
		}
		set_add(tg, r, text);
		tg->path = text;
		return;
	}
	open_pin_target(req, tg, own_asked, with_file);
}

/*
 * The effective user and group IDs of the target whose /proc/PID directory is
 * PROCFD, from its status, as the caller's user namespace maps them now (the
 * file is opened here: after the join of the target's user namespace, as the
 * target sees itself).  Not the directory's owner: a process that made
 * itself undumpable shows as root's there.  0, or -errno.
 */
static int read_target_ids(int procfd, uid_t *ret_uid, gid_t *ret_gid)
{
	_cleanup_close_ int fd = openat(procfd, "status", O_RDONLY | O_CLOEXEC | O_NOCTTY);
	char text[4096];
	const char *line;
	uint64_t ids[2];
	bool found[2] = { false, false };
	ssize_t n;

	if (fd < 0)
		return negative_errno();
	n = read(fd, text, sizeof(text) - 1);
	if (n < 0)
		return negative_errno();
	text[n] = '\0';
	for (line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		int which = strncmp(line, "Uid:", 4) == 0   ? 0
			    : strncmp(line, "Gid:", 4) == 0 ? 1
							    : -1;
		const char *p = line + 4;
		uint64_t real;

		/* Real, then effective. */
		if (which < 0)
			continue;
		p += strspn(p, " \t");
		if (number_scan(&p, UINT32_MAX, &real) < 0)
			return -EINVAL;
		p += strspn(p, " \t");
		if (number_scan(&p, UINT32_MAX, &ids[which]) < 0)
			return -EINVAL;
		found[which] = true;
	}
	if (!found[0] || !found[1])
		return -ENODATA;
	*ret_uid = (uid_t)ids[0];
	*ret_gid = (gid_t)ids[1];
	return 0;
}

/* Root, working directory, environment and cgroup: taken from the target before joining. */
static void open_extras(const struct request *req, struct target *tg)
{
	int procfd = -1;
	int r;

	tg->root_fd = tg->wd_fd = tg->cgroup_fd = -1;
	if (!tg->process && ((req->root && !req->root_dir) || (req->wd && !req->wd_dir) ||
			     req->env || req->join_cgroup || req->uid_follow || req->gid_follow))
		cli_usage_error("--root, --wd (without DIR), --env, --join-cgroup and -S/-G follow "
				"need a PID TARGET, and '%s' is not one",
				req->target);
	/* Through the /proc/PID directory fd, which cannot be another process's. */
	if ((req->root && !req->root_dir) || (req->wd && !req->wd_dir)) {
		procfd = nsctl_process_procfd(tg->process);
		if (procfd < 0)
			cli_fail(procfd, "/proc/%d", (int)nsctl_process_pid(tg->process));
	}
	if (req->root) {
		tg->root_fd = req->root_dir
				  ? open(req->root_dir, O_PATH | O_DIRECTORY | O_CLOEXEC)
				  : openat(procfd, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (tg->root_fd < 0)
			cli_fail(negative_errno(), "--root %s",
				 req->root_dir ? req->root_dir : "(the target's)");
	}
	if (req->wd) {
		tg->wd_fd = req->wd_dir ? open(req->wd_dir, O_PATH | O_DIRECTORY | O_CLOEXEC)
					: openat(procfd, "cwd", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (tg->wd_fd < 0)
			cli_fail(negative_errno(), "--wd %s",
				 req->wd_dir ? req->wd_dir : "(the target's)");
	}
	if (req->env) {
		unsigned differ = 0;
		uid_t uid;
		gid_t gid;

		r = nsctl_process_read_environ(tg->process, &tg->environ);
		if (r >= 0)
			r = nsctl_process_procfd(tg->process);
		if (r >= 0)
			r = read_target_ids(r, &uid, &gid);
		if (r >= 0)
			r = nsctl_process_ns_differ(tg->process, NSCTL_TYPE_BIT(NSCTL_TYPE_USER),
						    &differ);
		if (r < 0)
			cli_fail(r, "--env: the environment and IDs of PID %d (/proc/%d)",
				 (int)nsctl_process_pid(tg->process),
				 (int)nsctl_process_pid(tg->process));
		tg->owner_is_caller = uid == geteuid();
		tg->user_ns_apart = differ != 0;
	}
	if (req->join_cgroup) {
		r = nsctl_process_open_cgroups_v1(tg->process, &tg->cgroup_v1_fds);
		if (r < 0)
			cli_fail(r, "--join-cgroup: the cgroup v1 hierarchies of PID %d",
				 (int)nsctl_process_pid(tg->process));
		tg->cgroup_v1_count = r;
		tg->cgroup_fd = nsctl_process_open_cgroup(tg->process);
		/* A host with v1 hierarchies alone has no cgroup2 mount. */
		if (tg->cgroup_fd < 0 && !(tg->cgroup_fd == -ENOENT && tg->cgroup_v1_count > 0))
			cli_fail(tg->cgroup_fd, "--join-cgroup: the cgroup v2 of PID %d",
				 (int)nsctl_process_pid(tg->process));
	}
	if (req->target_caps) {
		tg->caps = (struct nsctl_caps)NSCTL_CAPS_INIT;
		r = nsctl_process_read_caps(tg->process, &tg->caps);
		if (r < 0)
			cli_fail(r, "--target-caps: the capabilities of PID %d (/proc/%d/status)",
				 (int)nsctl_process_pid(tg->process),
				 (int)nsctl_process_pid(tg->process));
	}
}

/* Whether the user namespace of the target is the one at FD: 1 yes, 0 no. */
static int target_user_is(const struct target *tg, int fd)
{
	_cleanup_close_ int own = nsctl_process_open_ns(tg->process, NSCTL_TYPE_USER, false);

	return own < 0 ? own : nsctl_ns_same(own, fd);
}

/*
 * --target-caps: the target's capabilities are those of its own user
 * namespace, and count for nothing in an ancestor's.  PROGRAM takes them on
 * only where it ends in that user namespace: the target's joined (from the
 * process, or from a file that is that same namespace), or ours if it is the
 * same one.  Asked before anything is joined.
 */
static void check_target_caps_user(const struct request *req, struct target *tg)
{
	unsigned user = NSCTL_TYPE_BIT(NSCTL_TYPE_USER), differ = 0;
	pid_t pid = nsctl_process_pid(tg->process);
	int fd, r;

	if (!req->target_caps || (!req->user_parent && (tg->from_process & user)))
		return;
	if (!req->user_parent && tg->set && (nsctl_ns_set_types(tg->set) & user)) {
		/* --user=FILE: what is joined is that file's namespace. */
		fd = nsctl_ns_set_take(tg->set, NSCTL_TYPE_USER);
		r = fd < 0 ? fd : target_user_is(tg, fd);
		if (fd >= 0 && nsctl_ns_set_add_fd(tg->set, fd) < 0)
			close(fd);
		if (r < 0)
			cli_fail(r, "--target-caps: the user namespace of PID %d", (int)pid);
		if (r == 0)
			cli_fail(0,
				 "--target-caps: --user=%s is not the user namespace of PID %d, "
				 "where its capabilities count",
				 req->files[NSCTL_TYPE_USER] ? req->files[NSCTL_TYPE_USER] : "FILE",
				 (int)pid);
		return;
	}
	r = nsctl_process_ns_differ(tg->process, user, &differ);
	if (r < 0)
		cli_fail(r, "--target-caps: the user namespace of PID %d", (int)pid);
	if (differ && req->user_parent)
		cli_fail(0,
			 "--target-caps: PID %d is in another user namespace than nsctl's, and "
			 "its capabilities count only there, not in the parent that "
			 "--user-parent joins",
			 (int)pid);
	if (differ)
		cli_fail(0,
			 "--target-caps: PID %d is in another user namespace than nsctl's, and "
			 "its capabilities count only there: join that one too (-U)",
			 (int)pid);
}

/*
 * Why the target's whole environment may not choose PROGRAM's, as a phrase,
 * or NULL where it may.  It may where PROGRAM runs on the target's files
 * (its mount namespace joined, no --root or --wd DIR of nsctl's) with no
 * more rights than the target has: the target is nsctl's own user, or its
 * user namespace, not nsctl's, is joined too.  Elsewhere a target's
 * variable could run code with rights it lacks: a BASH_ENV of another
 * user's process in nsctl's own mount namespace names a file of that user's
 * that root would source.
 */
static const char *env_not_trusted(const struct request *req, const struct target *tg,
				   unsigned joined)
{
	if (req->root_dir)
		return "PROGRAM runs on nsctl's files (--root DIR)";
	if (req->wd_dir)
		return "PROGRAM runs on nsctl's files (--wd DIR)";
	if (!(joined & NSCTL_TYPE_BIT(NSCTL_TYPE_MNT)))
		return "PROGRAM runs on nsctl's files (the target's mount namespace is not joined)";
	if (!tg->owner_is_caller &&
	    !((joined & NSCTL_TYPE_BIT(NSCTL_TYPE_USER)) && tg->user_ns_apart))
		return "the target is another user's and PROGRAM would have nsctl's rights (its "
		       "user namespace, apart from nsctl's, is not joined)";
	return NULL;
}

/* --join-cgroup: each v1 hierarchy's cgroup, then the v2 one, through the fds opened before. */
static void join_cgroups(struct target *tg)
{
	for (int i = 0; i < tg->cgroup_v1_count; i++) {
		char link[64], path[PATH_MAX];
		ssize_t n;
		int r = nsctl_cgroup_attach(tg->cgroup_v1_fds[i], 0);

		if (r < 0) {
			snprintf(link, sizeof(link), "/proc/self/fd/%d", tg->cgroup_v1_fds[i]);
			n = readlink(link, path, sizeof(path) - 1);
			path[n > 0 ? n : 0] = '\0';
			cli_fail(r, "--join-cgroup: %s/cgroup.procs (cgroup v1 of PID %d)",
				 n > 0 ? path : "?", (int)nsctl_process_pid(tg->process));
		}
		close(tg->cgroup_v1_fds[i]);
	}
	free(tg->cgroup_v1_fds);
	tg->cgroup_v1_fds = NULL;
	tg->cgroup_v1_count = 0;
	if (tg->cgroup_fd >= 0) {
		int r = nsctl_cgroup_attach(tg->cgroup_fd, 0);

		if (r < 0)
			cli_fail(r, "--join-cgroup: cgroup.procs of PID %d",
				 (int)nsctl_process_pid(tg->process));
		close_fdp(&tg->cgroup_fd);
	}
}

/* "setns(/proc/4242/ns/net): Operation not permitted", naming the file that failed. */
_Noreturn static void join_failed(const struct request *req, const struct target *tg, int err,
				  const struct nsctl_join_report *report)
{
	const char *call = report->failed_call ? report->failed_call : "setns";
	const char *threads;
	char path[PATH_MAX];

	/*
	 * Without type options every type was asked for: an open that failed
	 * with nothing joined may be a kernel where neither the pidfd nor /proc
	 * can say which types exist; say that.  Not after a join: /proc may then
	 * be the target's, which is not ours to ask.
	 */
	if (tg->different_only && !report->joined && strcmp(call, "open") == 0)
		cli_types_supported_or_fail("join with type options");
	if (err == -ESRCH && tg->process)
		cli_fail(err, "PID %d", (int)nsctl_process_pid(tg->process));
	if (report->failed_type < 0)
		cli_fail(err, "%s(PID %d)", call,
			 tg->process ? (int)nsctl_process_pid(tg->process) : 0);
	enum nsctl_type t = (enum nsctl_type)report->failed_type;
	if (req->files[t])
		snprintf(path, sizeof(path), "%s", req->files[t]);
	else if (t == NSCTL_TYPE_NET && req->net_socket >= 0)
		snprintf(path, sizeof(path), "the namespace of socket fd %d of PID %s",
			 req->net_socket, req->target);
	else if (tg->path)
		snprintf(path, sizeof(path), "%s", tg->path);
	else if (tg->pinned)
		nsctl_pin_name_path(t, req->target, path, sizeof(path));
	else
		snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)nsctl_process_pid(tg->process),
			 nsctl_type_get(t)->name);
	threads = cli_threads_refusal(err, NSCTL_TYPE_BIT(t));
	cli_fail(err, "%s(%s)%s", call, path, threads ? threads : "");
}

static unsigned join(const struct request *req, struct target *tg)
{
	struct nsctl_join_report report = NSCTL_JOIN_REPORT_INIT;
	unsigned flags = tg->different_only ? NSCTL_JOIN_DIFFERENT : 0;
	int r;

	if (tg->process && !nsctl_ns_set_types(tg->set)) {
		/* Only the process: one setns(pidfd) where the kernel has it. */
		r = nsctl_process_join(tg->process, tg->from_process, flags, &report);
		if (r < 0)
			join_failed(req, tg, r, &report);
		return report.joined;
	}
	if (tg->process && tg->from_process) {
		/* Files too: one set, so that the user namespace is ordered among all of them. */
		r = nsctl_ns_set_add_process(tg->set, tg->process, tg->from_process, flags,
					     &report);
		if (r < 0)
			join_failed(req, tg, r, &report);
	}
	r = nsctl_ns_set_join(tg->set, &report);
	if (r < 0)
		join_failed(req, tg, r, &report);
	nsctl_ns_set_clear(tg->set);
	tg->set = NULL;
	return report.joined;
}

/*
 * CALL(ID) failed.  EINVAL is the kernel's word for an ID the joined user
 * namespace does not map: 0 by default, where the namespace maps only its
 * owner (unshare -U alone, podman's rootless ones).  Say so, and what helps.
 */
static _Noreturn void unmapped_id_fail(const char *call, unsigned id, bool given)
{
	if (errno == EINVAL)
		cli_fail(0,
			 "%s(%u): %s: %s %u is not mapped in the joined user namespace; %s "
			 "(see /proc/TARGET/%s_map)",
			 call, id, strerror(EINVAL), call[3] == 'g' ? "group" : "user", id,
			 given ? "give one it maps with -S/-G"
			       : "give IDs it maps with -S/-G, or keep yours with "
				 "--preserve-credentials",
			 call[3] == 'g' ? "gid" : "uid");
	cli_fail(negative_errno(), "%s(%u)", call, id);
}

/*
 * The caller's supplementary groups, dropped before a user namespace may be
 * joined: once in it, a setgroups of "deny" there (every namespace an
 * ordinary user makes with unshare -r) refuses to drop them, and PROGRAM
 * would keep root's groups (0 among them) on the host, as a process of the
 * namespace owner's uid that its owner may ptrace.  Kept (-1 groups) with
 * --preserve-credentials, or where no user namespace can be joined.
 */
struct saved_groups {
	gid_t *list;
	int n; /* -1: nothing dropped */
};

static struct saved_groups drop_groups_before_join(const struct request *req,
						   const struct target *tg)
{
	unsigned user = NSCTL_TYPE_BIT(NSCTL_TYPE_USER);
	struct saved_groups saved = { NULL, -1 };
	int n;

	if (req->preserve_credentials ||
	    !((tg->from_process | (tg->set ? nsctl_ns_set_types(tg->set) : 0)) & user))
		return saved;
	n = getgroups(0, NULL);
	if (n <= 0)
		return saved;
	saved.list = calloc((size_t)n, sizeof(*saved.list));
	if (!saved.list)
		cli_fail(-ENOMEM, "getgroups");
	n = getgroups(n, saved.list);
	if (n < 0)
		cli_fail(negative_errno(), "getgroups");
	/* An ordinary caller cannot (EPERM): its groups are its own to keep. */
	if (setgroups(0, NULL) < 0) {
		if (errno != EPERM)
			cli_fail(negative_errno(), "setgroups(0)");
		free(saved.list);
		return (struct saved_groups){ NULL, -1 };
	}
	saved.n = n;
	return saved;
}

/* No user namespace was joined, nor -S or -G given: the caller's groups are PROGRAM's again. */
static void restore_groups(const struct request *req, struct saved_groups *saved, unsigned joined)
{
	if (saved->n >= 0 && !(joined & NSCTL_TYPE_BIT(NSCTL_TYPE_USER)) && !req->set_uid &&
	    !req->set_gid && setgroups((size_t)saved->n, saved->list) < 0)
		cli_fail(negative_errno(), "setgroups");
	free(saved->list);
	saved->list = NULL;
}

/* -S follow, -G follow: the target's user and group IDs as the target has them. */
static void follow_target_ids(struct request *req, const struct target *tg)
{
	int procfd, r;
	uid_t uid;
	gid_t gid;

	if (!req->uid_follow && !req->gid_follow)
		return;
	procfd = nsctl_process_procfd(tg->process);
	r = procfd < 0 ? procfd : read_target_ids(procfd, &uid, &gid);
	if (r < 0)
		cli_fail(r, "-S/-G follow: the IDs of PID %d (/proc/%d/status)",
			 (int)nsctl_process_pid(tg->process), (int)nsctl_process_pid(tg->process));
	if (req->uid_follow)
		req->uid = uid;
	if (req->gid_follow)
		req->gid = gid;
}

static void set_credentials(const struct request *req, bool entered_user)
{
	bool user = entered_user && !req->preserve_credentials;
	gid_t gid = req->set_gid ? req->gid : 0;
	uid_t uid = req->set_uid ? req->uid : 0;

	/*
	 * Any change of user or group drops the supplementary groups: -S alone
	 * would leave PROGRAM root's (group 0 among them).  A user namespace whose
	 * setgroups is "deny" refuses to drop groups (that is its purpose); there
	 * the groups stay what the kernel maps.
	 */
	if ((user || req->set_gid || req->set_uid) && setgroups(0, NULL) < 0 &&
	    !(errno == EPERM && entered_user))
		cli_fail(negative_errno(), "setgroups(0)");
	/*
	 * --keep-caps: a setuid() away from 0 keeps the permitted set, made ambient
	 * below; --target-caps: kept to set the target's sets from.
	 */
	if ((req->keep_caps || req->target_caps) && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0)
		cli_fail(negative_errno(), "--keep-caps: prctl(PR_SET_KEEPCAPS)");
	if ((user || req->set_gid) && setgid(gid) < 0)
		unmapped_id_fail("setgid", gid, req->set_gid);
	if (user || req->set_uid) {
		if (setuid(uid) < 0)
			unmapped_id_fail("setuid", uid, req->set_uid);
	}
}

/* NAME of a path DIR/NAME, DIR where the library keeps network pin names; NULL otherwise. */
static const char *netns_pin_name(const char *path)
{
	char dir[PATH_MAX];
	int n = nsctl_pin_name_dir(NSCTL_TYPE_NET, dir, sizeof(dir));

	if (n <= 0 || strncmp(path, dir, (size_t)n) != 0 || path[n] != '/' ||
	    strchr(path + n + 1, '/'))
		return NULL;
	return path + n + 1;
}

/*
 * "ip netns exec NAME": the default for a NAME pinned only in /run/netns (as
 * ip netns add makes them), --netns-exec for any target.  The NAME of
 * /etc/netns/NAME is the pin name, or that of a /run/netns/NAME path.
 */
static void netns_exec(const struct request *req, const struct target *tg, unsigned joined)
{
	const char *name = NULL, *text = req->target;
	bool only_netns = tg->pinned == NSCTL_TYPE_BIT(NSCTL_TYPE_NET);
	int r;

	if (!req->netns_exec && !only_netns)
		return;
	if (!(joined & NSCTL_TYPE_BIT(NSCTL_TYPE_NET)) && !req->netns_exec)
		return;
	if (tg->pinned)
		name = text;
	else
		name = netns_pin_name(text);
	r = nsctl_net_exec_setup(name);
	if (r < 0)
		cli_fail(r, "%s: the mounts of ip netns exec (/sys, /etc/netns/%s)",
			 req->netns_exec ? "--netns-exec" : text, name ? name : "NAME");
}

static void change_directories(const struct target *tg)
{
	if (tg->root_fd >= 0) {
		if (fchdir(tg->root_fd) < 0 || chroot(".") < 0)
			cli_fail(negative_errno(), "--root: chroot");
		/* A working directory left outside the new root would be a way out of it. */
		if (tg->wd_fd < 0 && chdir("/") < 0)
			cli_fail(negative_errno(), "--root: chdir /");
	}
	if (tg->wd_fd >= 0 && fchdir(tg->wd_fd) < 0)
		cli_fail(negative_errno(), "--wd: chdir");
}

/* PROGRAM, in place or (FORK_CHILD) as a supervised child, with ENVP (NULL: nsctl's environment).
 */
_Noreturn static void run(const struct request *req, const char *file, char **program, char **envp,
			  bool fork_child)
{
	const int *keep = req->keep.all ? NULL : req->keep.fds;
	struct nsctl_signals_state saved;
	struct nsctl_spawn_attr_room storage;
	struct nsctl_spawn_attr *attr;
	struct nsctl_spawn_report report = NSCTL_SPAWN_REPORT_INIT;
	_cleanup_close_ int pidfd = -1;
	int wstatus, r;
	pid_t pid;

	if (!fork_child) {
		/* With a pty PROGRAM's session is new already, and its terminal is the pty. */
		if (req->new_session && getsid(0) != getpid())
			cli_new_session();
		cli_exec_environment(envp);
		cli_exec(file, program, keep, req->keep.n);
	}
	r = nsctl_signals_block(&saved);
	if (r < 0)
		cli_fail(r, "cannot block signals");
	/*
	 * PROGRAM is a child, in the joined pid_for_children and
	 * time_for_children: nsctl_spawn() starts it with system calls alone
	 * (sharing our memory until it execs, or as a copy where the kernel
	 * refuses that: a joined time namespace).
	 */
	attr = cli_spawn_attr_init(&storage);
	r = nsctl_spawn_attr_set_signals(attr, &saved);
	if (r >= 0)
		r = nsctl_spawn_attr_set_new_session(attr, req->new_session);
	if (r >= 0)
		r = req->keep.all ? nsctl_spawn_attr_set_keep_all_fds(attr, true)
				  : nsctl_spawn_attr_set_keep_fds(attr, req->keep.fds, req->keep.n);
	if (r >= 0 && file)
		r = nsctl_spawn_attr_set_exec_path(attr, file);
	if (r < 0)
		cli_fail(r, "cannot start PROGRAM");
	pid = nsctl_spawn(attr, program, envp, &pidfd, &report);
	nsctl_spawn_attr_clear(attr);
	if (pid < 0)
		cli_spawn_fail(&report, file ? file : program[0]);
	r = nsctl_child_supervise(pid, pidfd, 0, &wstatus);
	if (r < 0)
		cli_fail(r, "waiting for PID %d", (int)pid);
	cli_exit_like(wstatus);
}

/* What cmd_enter() hands on, past the pty. */
struct enter_rest {
	struct request *req;
	struct target *tg;
	const char *file;
	char **program;
};

/* The joins, the root and working directory, the credentials: the namespaces joined. */
static unsigned enter_join(struct request *req, struct target *tg)
{
	struct saved_groups groups;
	unsigned joined;

	/*
	 * Sanitizer builds only: LeakSanitizer checks at exit from a tracer it
	 * clones, which a joined pid namespace (pid_for_children) or another
	 * /proc would blind, and it then waits forever.  A supervising nsctl
	 * checks for leaks here, before joining, and that check is its last.
	 */
	if (!req->no_fork &&
	    (!req->asked || req->all ||
	     (req->asked & (NSCTL_TYPE_BIT(NSCTL_TYPE_PID) | NSCTL_TYPE_BIT(NSCTL_TYPE_TIME)))))
		LEAK_CHECK_NOW();

	/* From here to the exec no process of the joined namespaces may ptrace us (CVE-2016-9962).
	 */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		cli_fail(negative_errno(), "prctl(PR_SET_DUMPABLE)");
	if (req->join_cgroup)
		join_cgroups(tg);
	groups = drop_groups_before_join(req, tg);
	joined = join(req, tg);
	restore_groups(req, &groups, joined);
	netns_exec(req, tg, joined);
	change_directories(tg);
	/* After the joins and the root: DIR is looked up among the target's mounts. */
	if (req->wdns_dir && chdir(req->wdns_dir) < 0)
		cli_fail(negative_errno(), "--wdns %s: chdir", req->wdns_dir);
	close_fdp(&tg->root_fd);
	close_fdp(&tg->wd_fd);
	follow_target_ids(req, tg);
	set_credentials(req, joined & NSCTL_TYPE_BIT(NSCTL_TYPE_USER));
	if (req->keep_caps)
		cli_keep_capabilities("--keep-caps");
	/* After the joins (a user namespace gives every capability) and -S/-G. */
	if (req->target_caps)
		cli_apply_target_caps(&tg->caps);
	return joined;
}

/* From the joins to PROGRAM, in the pty's child where there is one. */
static _Noreturn void enter_rest(void *userdata)
{
	const struct enter_rest *rest = userdata;
	struct request *req = rest->req;
	struct target *tg = rest->tg;
	unsigned joined = enter_join(req, tg), fork_types;
	char **program_env = NULL;

	if (tg->environ) {
		const char *why = env_not_trusted(req, tg, joined);
		bool target_files = !why;

		if (req->keep_loader_env && why)
			cli_fail(
			    0, "--keep-loader-env: %s, where only the target's data variables pass",
			    why);
		program_env =
		    cli_enter_environment(tg->environ, req->keep_loader_env, target_files);
		/*
		 * The target's PATH finds PROGRAM only in the target's own files.
		 * Elsewhere PATH is nsctl's, as is the lookup of PROGRAM.
		 */
		if (target_files)
			environ = program_env;
	}
	if (tg->process)
		nsctl_process_clear(tg->process);
	fork_types = NSCTL_TYPE_BIT(NSCTL_TYPE_PID) | NSCTL_TYPE_BIT(NSCTL_TYPE_TIME);
	run(req, rest->file, rest->program, program_env, (joined & fork_types) && !req->no_fork);
}

int cmd_enter(int argc, char **argv)
{
	struct request req = { .net_socket = -1 };
	struct target tg = { 0 };
	struct cli_shell shell;
	const char *file = NULL;
	char **program;
	struct enter_rest rest;

	parse(argc, argv, &req);
	/*
	 * A type this kernel lacks is named here, except for a PID whose join
	 * names it anyway (open(/proc/PID/ns/TYPE): not supported): that path is
	 * the fast one, and nine system calls are a measurable part of it.
	 */
	if (!cli_all_digits(req.target))
		cli_refuse_unsupported(req.asked);
	if (cli_parse_only)
		return 0;
	program = req.program;
	/* No PROGRAM: a login shell, as nsenter runs, found before anything is joined. */
	if (!program) {
		cli_login_shell(&shell);
		program = shell.argv;
		file = shell.path;
	}
	open_target(&req, &tg);
	if (req.user_parent)
		take_user_parent(&tg);
	open_extras(&req, &tg);
	check_target_caps_user(&req, &tg);

	/*
	 * Before anything is joined: from here on only a child of ours holds the
	 * new terminal, and we, outside, the caller's (src/enter-pty.c).
	 */
	rest = (struct enter_rest){ &req, &tg, file, program };
	if (req.pty || (!req.no_pty && !req.no_fork && !req.new_session && isatty(0)))
		cli_enter_pty(enter_rest, &rest);
	enter_rest(&rest);
}
