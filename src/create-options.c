// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The options of nsctl run and nsctl unshare read into plain values (checked
 * against the system in create-check.c), and what they do inside.
 */
#include <getopt.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include "create-options.h"
#include "number.h"
#include "util.h"

enum {
	OPT_HOSTNAME = CHAR_MAX + 1,
	OPT_DOMAINNAME,
	OPT_MAP_USER,
	OPT_MAP_GROUP,
	OPT_MAP_USERS,
	OPT_MAP_GROUPS,
	OPT_SETGROUPS,
	OPT_INIT,
	OPT_MOUNT_PROC,
	OPT_PROPAGATION,
	OPT_LOOPBACK,
	OPT_MONOTONIC,
	OPT_BOOTTIME,
	OPT_INTO_CGROUP,
	OPT_KEEP_FD,
	OPT_KEEP_FDS,
	OPT_NEW_SESSION,
	OPT_KILL_CHILD,
	OPT_MAP_AUTO,
	OPT_MAP_SUBIDS,
	OPT_MAP_PODMAN,
	OPT_KEEP_CAPS,
};

static void help(enum create_mode mode)
{
	bool run = mode == CREATE_RUN;

	cli_help_begin();
	printf("Usage: nsctl %s [options] [--] [PROGRAM [ARG...]]\n\n", run ? "run" : "unshare");
	if (run)
		fputs("Start PROGRAM as a child in new namespaces, wait for it, pass signals on\n"
		      "to it, kill it if nsctl dies, and end as it ends.\n",
		      stdout);
	else
		fputs(
		    "Move nsctl into new namespaces with unshare(), then become PROGRAM.\n"
		    "A new pid namespace is for PROGRAM's children, not PROGRAM: its first\n"
		    "child is PID 1.  A new time namespace is entered when PROGRAM is executed.\n",
		    stdout);
	fputs("\nNamespaces (with =FILE: pin the new namespace at FILE; a FILE without a '/'\n"
	      "is a pin NAME, /run/netns/NAME for net and /run/nsctl/TYPE/NAME otherwise, as\n"
	      "for nsctl pin: a file here is ./NAME.  Only the long form takes a file:\n"
	      "-nm is -n -m, and -Urpm is -U -r -p -m; pins are taken back if PROGRAM is\n"
	      "not reached):\n",
	      stdout);
	cli_type_options_help(stdout, "[=FILE]", "new");
	fputs("\nUTS:\n"
	      "     --hostname NAME        set the hostname (needs -u): UTF-8 without\n"
	      "                              control or bidirectional characters\n"
	      "     --domainname NAME      set the NIS domain name (needs -u)\n"
	      "\nUser (these imply -U):\n"
	      " -r, --map-root             map root inside to the caller's uid and gid\n"
	      "     --map-root-user          (util-linux's name for it)\n"
	      " -c, --map-current          map the caller's uid and gid to themselves\n"
	      "     --map-current-user       (util-linux's name for it)\n"
	      "     --map-user UID         map UID inside to the caller's uid\n"
	      "     --map-group GID        map GID inside to the caller's gid\n"
	      "     --map-users IN:OUT:N   map N uids from IN inside to OUT outside (repeatable;\n"
	      "                              util-linux's older OUT,IN,N too); auto: the\n"
	      "                              caller's first range of /etc/subuid from 0 inside;\n"
	      "                              subids: each of its ranges to itself (through\n"
	      "                              newuidmap if not root)\n"
	      "     --map-groups IN:OUT:N  map N gids likewise (repeatable); auto, subids:\n"
	      "                              of /etc/subgid\n"
	      "     --map-auto             --map-users=auto --map-groups=auto (with -r: root\n"
	      "                              to the caller, the range from 1, as util-linux)\n"
	      "     --map-subids           --map-users=subids --map-groups=subids: the caller's\n"
	      "                              subordinate IDs to themselves (util-linux's)\n"
	      "     --map-podman           the caller to 0 and all its subordinate IDs from 1\n"
	      "                              (podman unshare's map)\n"
	      "     --keep-caps            PROGRAM keeps its capabilities in the new user\n"
	      "                              namespace even when it is not uid 0 there\n"
	      "     --setgroups allow|deny let setgroups(2) work in the namespace, or not;\n"
	      "                              -r, -c and --map-group deny it unless allowed\n",
	      stdout);
	fputs("\nPID, mount, net, time, cgroup:\n", stdout);
	if (run)
		fputs("     --init                 a small init is PID 1 (needs -p): it reaps\n"
		      "                              orphans and passes signals on; PROGRAM is PID "
		      "2\n",
		      stdout);
	fputs("     --mount-proc[=DIR]     mount a fresh proc on DIR, /proc by default "
	      "(implies -m)\n"
	      "     --propagation MODE     private (default), slave, shared or unchanged (needs "
	      "-m)\n"
	      "     --loopback             bring up lo (needs -n)\n"
	      "     --monotonic SECONDS    offset of CLOCK_MONOTONIC (needs -T)\n"
	      "     --boottime SECONDS     offset of CLOCK_BOOTTIME (needs -T)\n",
	      stdout);
	if (run)
		fputs("     --into-cgroup DIR      start the child in cgroup v2 directory DIR\n",
		      stdout);
	fputs("\nThe child:\n", stdout);
	if (run)
		fputs(" -f, --fork                 accepted for unshare(1)'s sake: run always "
		      "forks\n",
		      stdout);
	else
		fputs(" -f, --fork                 start PROGRAM as a supervised child, as nsctl "
		      "run\n"
		      "                              does (util-linux's unshare --fork); the "
		      "options\n"
		      "                              of nsctl run then apply\n",
		      stdout);
	printf("     --kill-child[=SIGNAL]  the child gets SIGNAL (default SIGKILL) when nsctl\n"
	       "                              dies%s\n",
	       run ? "" : " (implies -f)");
	fputs("\nInside:\n"
	      " -R, --root DIR             change the root directory to DIR\n"
	      " -w, --wd DIR               change the working directory to DIR (a relative\n"
	      "                              DIR is taken from the new root of -R)\n"
	      " -S, --setuid UID           become UID (a number or a user name), with no\n"
	      "                              supplementary groups; the group ID stays\n"
	      " -G, --setgid GID           become GID, with no supplementary groups\n"
	      "     --keep-fd N            hand the caller's fd N to PROGRAM (repeatable)\n"
	      "     --keep-fds             hand every inherited fd to PROGRAM\n"
	      "     --new-session          PROGRAM in a new session, without the caller's\n"
	      "                              terminal: TIOCSTI into it fails, unless PROGRAM\n"
	      "                              has CAP_SYS_ADMIN on the host (root, no -U)\n"
	      " -v, --verbose              report the new namespaces on stderr\n",
	      stdout);
	cli_help_footer(stdout);
	fputs("\nPROGRAM gets only fds 0, 1 and 2: an fd of the caller's is a way out of a\n"
	      "namespace.  For a shell's <(...), pass its fd with --keep-fd.\n"
	      "\nExit status: PROGRAM's own (nsctl dies of the signal that killed it),\n"
	      "125 nsctl failed, 126 PROGRAM could not be executed, 127 PROGRAM not found.\n",
	      stdout);
	if (run)
		fputs("\nWith -p, PROGRAM is PID 1: the kernel then drops signals it has no\n"
		      "handler for, even those nsctl passes on; --init avoids that.\n",
		      stdout);
	else
		fputs("\nWith -p, PROGRAM's first child is PID 1 of the new namespace, and when\n"
		      "it ends no more processes can start there: run \"nsctl run -p\" instead\n"
		      "for a shell.  --mount-proc with -p needs nsctl run (or -f).\n",
		      stdout);
}

/* A signal as a number or a name, with or without "SIG": KILL, SIGTERM, 15, RTMIN+1 too. */
static int parse_signal(const char *option, const char *text)
{
	const char *name = strncasecmp(text, "SIG", 3) == 0 ? text + 3 : text;
	int number;

	if (cli_all_digits(text)) {
		if (number_parse_int(text, NSIG - 1, NUMBER_LEADING_ZEROS | NUMBER_NOT_ZERO,
				     &number) == 0)
			return number;
		cli_usage_error("%s '%s': not a signal number from 1 to %d", option, text,
				NSIG - 1);
	}
	for (int sig = 1; sig < NSIG; sig++) {
		const char *abbreviation = sigabbrev_np(sig);

		if (abbreviation && strcasecmp(name, abbreviation) == 0)
			return sig;
	}
	if (strncasecmp(name, "RTMIN+", 6) == 0 &&
	    number_parse_int(name + 6, SIGRTMAX - SIGRTMIN, NUMBER_LEADING_ZEROS, &number) == 0)
		return SIGRTMIN + number;
	cli_usage_error("%s '%s': not a signal name or number", option, text);
}

/* Add a map request to O (static storage: see create-check.c's map_of). */
static struct map_request *map_request(struct create_options *o, const char *option,
				       const char *text, enum map_source source, bool group)
{
	static struct map_request requests[2 * MAP_RANGES_MAX + 2];

	o->map_requests = requests;
	/* More than both maps can hold: the kernel would refuse the first one too many. */
	if (o->n_map_requests == ELEMENTSOF(requests))
		cli_usage_error("%s '%s': more than %d ranges, or more than a page of text", option,
				text ? text : "", MAP_RANGES_MAX);
	requests[o->n_map_requests] = (struct map_request){
		.option = option, .source = source, .group = group, .text = text
	};
	return &requests[o->n_map_requests++];
}

/* --map-users, --map-groups IN:OUT:N, or auto. */
static void map_request_text(struct create_options *o, const char *option, const char *text,
			     bool group)
{
	struct nsctl_idmap_range range;
	int r;

	struct map_request *request;

	/* auto: the first range from 0; subids: every range to itself (util-linux 2.40). */
	if (strcmp(text, "auto") == 0 || strcmp(text, "subids") == 0) {
		request = map_request(o, option, NULL, MAP_SUBIDS, group);
		request->every_range = request->identity = text[0] == 's';
		return;
	}
	r = parse_idmap_range(text, &range);
	if (r == -ERANGE)
		cli_usage_error("%s '%s': the count must be 1 or more, and no range may reach "
				"4294967295",
				option, text);
	if (r < 0)
		cli_usage_error("%s '%s': not INNER:OUTER:COUNT, OUTER,INNER,COUNT, auto or subids",
				option, text);
	map_request(o, option, text, MAP_RANGE, group)->range = range;
}

/* Both maps: the caller's uid and gid, from INNER inside (or themselves, INNER_IS_CALLER). */
static void map_request_caller(struct create_options *o, const char *option, uint32_t inner,
			       bool inner_is_caller)
{
	for (int group = 0; group <= 1; group++) {
		struct map_request *request = map_request(o, option, NULL, MAP_CALLER, group);

		request->inner = inner;
		request->inner_is_caller = inner_is_caller;
	}
}

/*
 * Both maps: the caller's subordinate IDs, from INNER inside (its first
 * range), or (EVERY) all its ranges, one after the other from INNER, or
 * (IDENTITY) each to the same IDs inside.
 */
static void map_request_subids(struct create_options *o, const char *option, uint32_t inner,
			       bool every, bool identity)
{
	for (int group = 0; group <= 1; group++) {
		struct map_request *request = map_request(o, option, NULL, MAP_SUBIDS, group);

		request->inner = inner;
		request->every_range = every;
		request->identity = identity;
	}
}

static int64_t parse_offset(const char *option, const char *text, clockid_t clock)
{
	int64_t seconds;
	int r = parse_time_offset(text, clock, &seconds);

	if (r == -ERANGE)
		cli_usage_error("%s '%s': out of range: the clock must stay between 0 and "
				"4611686018 seconds",
				option, text);
	if (r < 0)
		cli_usage_error("%s '%s': not a whole number of seconds", option, text);
	return seconds;
}

/*
 * TEXT with control characters, bytes beyond ASCII and backslashes as C
 * escapes, for a message on a terminal: the name was refused for what the
 * terminal would make of it (a CSI, U+202E), which the message must not repeat.
 */
static const char *escape(const char *text, char *buf, size_t size)
{
	size_t n = 0;

	for (const unsigned char *p = (const unsigned char *)text; *p && n + 5 < size; p++) {
		if (*p < 0x20 || *p >= 0x7f || *p == '\\')
			n += (size_t)snprintf(buf + n, size - n, "\\%03o", *p);
		else
			buf[n++] = (char)*p;
	}
	buf[n] = '\0';
	return buf;
}

static void check_uts_name(const char *option, const char *name)
{
	int r = check_printable_uts_name(name);
	char shown[4 * 128 + 1];

	if (r >= 0)
		return;
	escape(name, shown, sizeof(shown));
	/* check_printable_uts_name() says only -EILSEQ; an ASCII control is the one case told
	 * apart. */
	for (const unsigned char *p = (const unsigned char *)name; r == -EILSEQ && *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			cli_usage_error("%s '%s': a control character is not allowed", option,
					shown);
	if (r == -EILSEQ)
		cli_usage_error("%s '%s': not allowed: a C1 control character (such as CSI, "
				"U+009B), a bidirectional or invisible formatting character (such "
				"as U+202E), or bytes that are not UTF-8",
				option, shown);
	if (r == -ENAMETOOLONG)
		cli_usage_error("%s '%s': longer than 64 bytes", option, shown);
	cli_usage_error("%s '%s': empty", option, shown);
}

static void require_type(const struct create_options *o, enum nsctl_type type, const char *option)
{
	const struct nsctl_type_info *info = nsctl_type_get(type);

	if (!(o->types & NSCTL_TYPE_BIT(type)))
		cli_usage_error("%s needs a new %s namespace (-%c/--%s)", option, info->name,
				cli_type_letter(info->type), cli_type_option(info->type));
}

/*
 * Where --TYPE=FILE pins: FILE itself when it has a '/', else pin NAME's
 * place, /run/netns/NAME or /run/nsctl/TYPE/NAME, as nsctl pin, enter and
 * unpin read a NAME.  A pin in the working directory is written ./NAME.
 */
static const char *pin_path(struct create_options *o, enum nsctl_type type, const char *file)
{
	static char paths[TYPE_SLOTS][PATH_MAX];
	int r;

	if (strchr(file, '/'))
		return file;
	r = nsctl_pin_name_path(type, file, paths[type], sizeof(paths[type]));
	if (r < 0)
		cli_usage_error("--%s='%s': not a valid pin name (a file is written with a '/')",
				cli_type_option(type), file);
	o->pin_names[type] = file;
	return paths[type];
}

/* Cross-checks between options, once all are known. */
static void check_combinations(struct create_options *o, bool has_propagation)
{
	if (o->hostname)
		require_type(o, NSCTL_TYPE_UTS, "--hostname");
	if (o->domainname)
		require_type(o, NSCTL_TYPE_UTS, "--domainname");
	if (o->loopback)
		require_type(o, NSCTL_TYPE_NET, "--loopback");
	if (o->has_monotonic)
		require_type(o, NSCTL_TYPE_TIME, "--monotonic");
	if (o->has_boottime)
		require_type(o, NSCTL_TYPE_TIME, "--boottime");
	if (o->init)
		require_type(o, NSCTL_TYPE_PID, "--init");
	if (o->keep_caps)
		require_type(o, NSCTL_TYPE_USER, "--keep-caps");
	if (has_propagation)
		require_type(o, NSCTL_TYPE_MNT, "--propagation");
	/* A proc mounted where the host sees it would be the host's: only private or slave. */
	if (o->proc_dir && (o->propagation == NSCTL_PROPAGATION_SHARED ||
			    o->propagation == NSCTL_PROPAGATION_UNCHANGED))
		cli_usage_error("--mount-proc with --propagation %s would mount proc on the host",
				o->propagation == NSCTL_PROPAGATION_SHARED ? "shared"
									   : "unchanged");
	if (o->proc_dir && o->mode == CREATE_UNSHARE && (o->types & NSCTL_TYPE_BIT(NSCTL_TYPE_PID)))
		cli_usage_error("--mount-proc with -p: the new PID namespace is only PROGRAM's "
				"children's; use nsctl run");
	/* The kernel shows a PID namespace only once its first process (its init) exists. */
	if (o->mode == CREATE_UNSHARE && o->pins[NSCTL_TYPE_PID])
		cli_usage_error("--pid='%s': a new PID namespace is empty until PROGRAM forks, and "
				"cannot be pinned before; use nsctl run",
				o->pins[NSCTL_TYPE_PID]);
	/*
	 * util-linux's "unshare --fork cmd" runs cmd in no new namespace; nsctl
	 * would make nothing, so it says what to add.
	 */
	if (o->types == 0)
		cli_usage_error("no namespace to create: add at least one type option: -C "
				"cgroup, -i ipc, -m mnt, -n net, -p pid, -T time, -U user, -u uts");
}

/*
 * As util-linux's unshare, for root too: a gid map of the caller's gid alone
 * (-r, -c, --map-group) denies setgroups unless --setgroups says otherwise.
 * With ranges (--map-groups, --map-subids, --map-podman, --map-auto)
 * setgroups stays.
 */
static bool only_callers_gid(const struct create_options *o)
{
	bool caller = false;

	for (size_t i = 0; i < o->n_map_requests; i++) {
		if (!o->map_requests[i].group)
			continue;
		if (o->map_requests[i].source != MAP_CALLER)
			return false;
		caller = true;
	}
	return caller;
}

static const struct option create_own_options[] = {
	{ "hostname", required_argument, NULL, OPT_HOSTNAME },
	{ "domainname", required_argument, NULL, OPT_DOMAINNAME },
	{ "map-root", no_argument, NULL, 'r' },
	{ "map-root-user", no_argument, NULL, 'r' }, /* util-linux's spelling */
	{ "map-current", no_argument, NULL, 'c' },
	{ "map-current-user", no_argument, NULL, 'c' },
	{ "map-user", required_argument, NULL, OPT_MAP_USER },
	{ "map-group", required_argument, NULL, OPT_MAP_GROUP },
	{ "map-users", required_argument, NULL, OPT_MAP_USERS },
	{ "map-groups", required_argument, NULL, OPT_MAP_GROUPS },
	{ "map-auto", no_argument, NULL, OPT_MAP_AUTO },
	{ "map-subids", no_argument, NULL, OPT_MAP_SUBIDS },
	{ "map-podman", no_argument, NULL, OPT_MAP_PODMAN },
	{ "keep-caps", no_argument, NULL, OPT_KEEP_CAPS },
	{ "setgroups", required_argument, NULL, OPT_SETGROUPS },
	{ "init", no_argument, NULL, OPT_INIT },
	{ "mount-proc", optional_argument, NULL, OPT_MOUNT_PROC },
	{ "propagation", required_argument, NULL, OPT_PROPAGATION },
	{ "loopback", no_argument, NULL, OPT_LOOPBACK },
	{ "monotonic", required_argument, NULL, OPT_MONOTONIC },
	{ "boottime", required_argument, NULL, OPT_BOOTTIME },
	{ "into-cgroup", required_argument, NULL, OPT_INTO_CGROUP },
	{ "root", required_argument, NULL, 'R' },
	{ "wd", required_argument, NULL, 'w' },
	{ "setuid", required_argument, NULL, 'S' },
	{ "setgid", required_argument, NULL, 'G' },
	{ "keep-fd", required_argument, NULL, OPT_KEEP_FD },
	{ "keep-fds", no_argument, NULL, OPT_KEEP_FDS },
	{ "new-session", no_argument, NULL, OPT_NEW_SESSION },
	{ "verbose", no_argument, NULL, 'v' },
	{ "fork", no_argument, NULL, 'f' },
	{ "kill-child", optional_argument, NULL, OPT_KILL_CHILD },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ 0 },
};

/* Who the child is: the id maps, setgroups, capabilities, -S/-G.  False: C is no such option. */
static bool parse_identity_option(struct create_options *o, int c)
{
	switch (c) {
	case 'r':
		map_request_caller(o, "--map-root", 0, false);
		return true;
	case 'c':
		map_request_caller(o, "--map-current", 0, true);
		return true;
	case OPT_MAP_USER:
		map_request(o, "--map-user", optarg, MAP_CALLER, false);
		return true;
	case OPT_MAP_GROUP:
		map_request(o, "--map-group", optarg, MAP_CALLER, true);
		return true;
	case OPT_MAP_USERS:
		map_request_text(o, "--map-users", optarg, false);
		return true;
	case OPT_MAP_GROUPS:
		map_request_text(o, "--map-groups", optarg, true);
		return true;
	case OPT_MAP_AUTO:
		map_request_subids(o, "--map-auto", 0, false, false);
		return true;
	case OPT_MAP_SUBIDS:
		/* util-linux's: the subordinate IDs to themselves; the caller is not mapped. */
		map_request_subids(o, "--map-subids", 0, true, true);
		return true;
	case OPT_MAP_PODMAN:
		/* podman unshare's map: the caller is root, its subordinate IDs follow from 1. */
		map_request_caller(o, "--map-podman", 0, false);
		map_request_subids(o, "--map-podman", 1, true, false);
		return true;
	case OPT_KEEP_CAPS:
		o->keep_caps = true;
		return true;
	case OPT_SETGROUPS:
		if (strcmp(optarg, "allow") == 0)
			o->setgroups = NSCTL_SETGROUPS_ALLOW;
		else if (strcmp(optarg, "deny") == 0)
			o->setgroups = NSCTL_SETGROUPS_DENY;
		else
			cli_usage_error("--setgroups '%s': not \"allow\" or \"deny\"", optarg);
		return true;
	case 'S':
		o->uid_text = optarg;
		return true;
	case 'G':
		o->gid_text = optarg;
		return true;
	}
	return false;
}

/* What the child finds inside: names, mounts, clocks, root, directory.  False: no such option. */
static bool parse_inside_option(struct create_options *o, int c, bool *has_propagation)
{
	switch (c) {
	case OPT_HOSTNAME:
		check_uts_name("--hostname", optarg);
		o->hostname = optarg;
		return true;
	case OPT_DOMAINNAME:
		check_uts_name("--domainname", optarg);
		o->domainname = optarg;
		return true;
	case OPT_MOUNT_PROC:
		o->proc_dir = optarg ? optarg : "/proc";
		if (!*o->proc_dir)
			cli_usage_error("--mount-proc '': an empty directory name");
		o->types |= NSCTL_TYPE_BIT(NSCTL_TYPE_MNT);
		return true;
	case OPT_PROPAGATION:
		if (parse_propagation(optarg, &o->propagation) < 0)
			cli_usage_error(
			    "--propagation '%s': not private, slave, shared or unchanged", optarg);
		*has_propagation = true;
		return true;
	case OPT_LOOPBACK:
		o->loopback = true;
		return true;
	case OPT_MONOTONIC:
		o->monotonic = parse_offset("--monotonic", optarg, CLOCK_MONOTONIC);
		o->has_monotonic = true;
		return true;
	case OPT_BOOTTIME:
		o->boottime = parse_offset("--boottime", optarg, CLOCK_BOOTTIME);
		o->has_boottime = true;
		return true;
	case 'R':
		o->root = optarg;
		return true;
	case 'w':
		o->wd = optarg;
		return true;
	}
	return false;
}

/* How PROGRAM runs: fds, session, --init, the cgroup, -f, -v.  False: no such option. */
static bool parse_run_option(struct create_options *o, int c)
{
	switch (c) {
	case OPT_INIT:
		o->init = true;
		return true;
	case OPT_INTO_CGROUP:
		o->cgroup_dir = optarg;
		return true;
	case OPT_KEEP_FD:
		cli_keep_fd_note(&o->keep, optarg);
		return true;
	case OPT_KEEP_FDS:
		o->keep.all = true;
		return true;
	case OPT_NEW_SESSION:
		o->new_session = true;
		return true;
	case 'v':
		o->verbose = true;
		return true;
	case 'f':
		/*
		 * util-linux's "unshare --fork": a child in the new namespaces,
		 * waited for, which is what nsctl run makes.  On run, a no-op.
		 */
		o->mode = CREATE_RUN;
		return true;
	case OPT_KILL_CHILD:
		o->kill_signal = optarg ? parse_signal("--kill-child", optarg) : SIGKILL;
		o->mode = CREATE_RUN; /* as util-linux: --kill-child implies --fork */
		return true;
	}
	return false;
}

/* After the option loop: what depends on several options, and PROGRAM. */
static void parse_finish(struct create_options *o, int argc, char **argv, bool has_propagation)
{
	/* First, while every fd open is the caller's (see cli_keep_fd_note()). */
	cli_keep_fds_check(&o->keep);
	/* After the loop: "unshare --init -f" is as good as "unshare -f --init". */
	if (o->init && o->mode != CREATE_RUN)
		cli_usage_error("unrecognized option '--init' (nsctl run, or unshare -f, has it)");
	if (o->cgroup_dir && o->mode != CREATE_RUN)
		cli_usage_error("unrecognized option '--into-cgroup' (nsctl run, or unshare -f, "
				"has it)");
	if (create_options_need_user_maps(o))
		o->types |= NSCTL_TYPE_BIT(NSCTL_TYPE_USER);
	if (o->setgroups == NSCTL_SETGROUPS_DEFAULT && only_callers_gid(o))
		o->setgroups = NSCTL_SETGROUPS_DENY;
	if (!(o->types & NSCTL_TYPE_BIT(NSCTL_TYPE_MNT)))
		o->propagation = NSCTL_PROPAGATION_UNCHANGED;
	check_combinations(o, has_propagation);
	if (optind < argc) {
		o->argv = argv + optind;
	} else {
		/* No PROGRAM: a login shell, as util-linux's unshare runs, found before any
		 * unshare(). */
		cli_login_shell(&o->shell);
		o->argv = o->shell.argv;
		o->file = o->shell.path;
	}
}

void create_options_parse(int argc, char **argv, enum create_mode mode, struct create_options *o)
{
	struct option *options = cli_long_options_with_types(create_own_options, optional_argument);
	char *optstring = cli_optstring_with_types("+:rcR:w:S:G:vfhV", optional_argument);
	bool has_propagation = false;
	unsigned given = 0; /* the type options seen, to refuse one given twice */
	int c;

	/* getopt's own messages lack the "nsctl: run:" prefix: these are reported below. */
	opterr = 0;
	memset(o, 0, sizeof(*o));
	o->mode = mode;
	o->cgroup_fd = -1;
	o->setgroups = NSCTL_SETGROUPS_DEFAULT;
	o->propagation = NSCTL_PROPAGATION_PRIVATE;
	while ((c = getopt_long(argc, argv, optstring, options, NULL)) != -1) {
		enum nsctl_type type;
		const char *file;

		if (parse_identity_option(o, c) || parse_inside_option(o, c, &has_propagation) ||
		    parse_run_option(o, c))
			continue;
		switch (c) {
		case 'h':
			help(mode);
			exit(EXIT_SUCCESS);
		case 'V':
			cli_version();
		case ':':
		case '?':
			cli_bad_option(argv, optstring);
		default:
			type = cli_type_option_once(c, argv, optstring, &given, &file);
			o->types |= NSCTL_TYPE_BIT(type);
			if (file && !*file)
				cli_usage_error("--%s='': an empty file name",
						cli_type_option(type));
			o->pins[type] = file ? pin_path(o, type, file) : NULL;
		}
	}
	parse_finish(o, argc, argv, has_propagation);
	if (!cli_parse_only)
		create_options_check(o);
}

void create_fail(const struct create_options *o, int err, const char *call)
{
	/*
	 * The kernel creates all the namespaces or none, and says EINVAL for a
	 * type it lacks: looked for only then, to keep the start fast.
	 */
	if (err == -EINVAL || err == -EOPNOTSUPP) {
		unsigned supported = nsctl_type_supported(); /* 0: nobody can tell */
		unsigned unsupported = supported ? o->types & ~supported : 0;

		type_foreach (t) {
			if (unsupported & NSCTL_TYPE_BIT(t))
				cli_fail(-EOPNOTSUPP, "%s: %s namespaces", call,
					 nsctl_type_get(t)->name);
		}
	}
	/* unshare(CLONE_NEWUSER) only: new mount and time namespaces are made by any thread. */
	const char *threads = cli_threads_refusal(err, o->types & NSCTL_TYPE_BIT(NSCTL_TYPE_USER));

	cli_fail(err, "%s%s", call, threads ? threads : "");
}

bool create_options_need_user_maps(const struct create_options *o)
{
	/* Every request adds a range, or create_options_check() refuses it. */
	return o->n_map_requests > 0 || o->setgroups != NSCTL_SETGROUPS_DEFAULT;
}

void create_setup_inside(const struct create_options *o)
{
	int r;

	r = nsctl_uts_names_set(o->hostname, NULL);
	if (r < 0)
		cli_fail(r, "--hostname '%s': cannot set it", o->hostname);
	r = nsctl_uts_names_set(NULL, o->domainname);
	if (r < 0)
		cli_fail(r, "--domainname '%s': cannot set it", o->domainname);
	if (o->loopback) {
		r = nsctl_net_loopback_up();
		if (r < 0)
			cli_fail(r, "--loopback: cannot bring up lo");
	}
	r = nsctl_mnt_propagation_set(o->propagation);
	if (r < 0)
		cli_fail(r, "--propagation: cannot change the propagation of /");
	if (o->root) {
		if (chroot(o->root) < 0)
			cli_fail(-errno, "--root '%s': chroot", o->root);
		/* Always: a relative --wd is then taken from the new root, not the old cwd. */
		if (chdir("/") < 0)
			cli_fail(-errno, "--root '%s': chdir /", o->root);
	}
	if (o->proc_dir) {
		r = nsctl_mnt_proc_mount(o->proc_dir);
		/* The kernel mounts proc only for a PID namespace the caller's userns owns. */
		if (r == -EPERM && !(o->types & NSCTL_TYPE_BIT(NSCTL_TYPE_PID)))
			cli_fail(r,
				 "--mount-proc '%s': cannot mount proc of a PID namespace not "
				 "made here (%s)",
				 o->proc_dir,
				 o->mode == CREATE_RUN ? "add -p" : "use nsctl run -p");
		if (r < 0)
			cli_fail(r, "--mount-proc '%s': cannot mount proc", o->proc_dir);
	}
	if (o->wd && chdir(o->wd) < 0)
		cli_fail(-errno, "--wd '%s': chdir", o->wd);
	/*
	 * A new user or group leaves root's supplementary groups behind (-S alone
	 * kept group 0 among them).  Where setgroups is denied the list is already
	 * fixed; elsewhere, empty it.
	 */
	if ((o->has_uid || o->has_gid) && setgroups(0, NULL) < 0 && errno != EPERM)
		cli_fail(-errno, "%s: setgroups", o->has_gid ? "--setgid" : "--setuid");
	if (o->has_gid && setgid(o->gid) < 0)
		cli_fail(-errno, "--setgid %u", (unsigned)o->gid);
	if (o->has_uid && setuid(o->uid) < 0)
		cli_fail(-errno, "--setuid %u", (unsigned)o->uid);
	/* For run, before --init too: PROGRAM could ptrace an init that kept the terminal. */
	if (o->new_session)
		cli_new_session();
	/*
	 * --kill-child=SIGNAL: the signal the child gets when nsctl dies, in place
	 * of SIGKILL.  Set last: the kernel clears it when -S/-G change the
	 * credentials above.
	 */
	if (o->kill_signal && prctl(PR_SET_PDEATHSIG, o->kill_signal, 0, 0, 0) < 0)
		cli_fail(-errno, "--kill-child: prctl(PR_SET_PDEATHSIG)");
	if (o->keep_caps)
		cli_keep_capabilities("--keep-caps");
}

void create_print_namespaces(const struct create_options *o, pid_t pid)
{
	type_foreach (t) {
		struct nsctl_ns_id id = NSCTL_NS_ID_INIT;
		char path[64], text[64];
		_cleanup_close_ int fd = -1;

		if (!(o->types & NSCTL_TYPE_BIT(t)))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/ns/%s", pid > 0 ? (int)pid : (int)getpid(),
			 nsctl_type_get(t)->children_name ? nsctl_type_get(t)->children_name
							  : nsctl_type_get(t)->name);
		fd = nsctl_ns_open_path(path, (int)t, NULL);
		/* A new PID namespace shows only once its first process exists. */
		if (fd == -ENOENT && t == NSCTL_TYPE_PID) {
			fprintf(stderr,
				"nsctl: %s: new pid namespace, for PROGRAM's children: its first "
				"child will be PID 1\n",
				cli_command_name());
			continue;
		}
		if (fd < 0 || nsctl_ns_identify(fd, &id) < 0 ||
		    nsctl_ns_id_format(&id, text, sizeof(text)) < 0) {
			cli_warn(fd < 0 ? fd : -EIO, "%s", path);
			continue;
		}
		fprintf(stderr, "nsctl: %s: new %s namespace %s", cli_command_name(),
			nsctl_type_get(t)->name, text);
		if (id.id)
			fprintf(stderr, " (ID %llu)", (unsigned long long)id.id);
		fputc('\n', stderr);
	}
}

bool create_options_have_pins(const struct create_options *o)
{
	type_foreach (t) {
		if (o->pins[t])
			return true;
	}
	return false;
}

int create_pins(const struct create_options *o, pid_t pid, struct cli_pins *pins)
{
	struct nsctl_process_room room;
	struct nsctl_process *child = NULL;
	int opened;

	cli_pins_init(pins);
	/*
	 * Through a handle, not /proc/PID by number: the /proc mounted here may
	 * be another PID namespace's, where PID is some other process.  The
	 * child is ours and not reaped: its PID cannot be reused meanwhile.
	 */
	opened = nsctl_process_open_in(&room, pid, &child);
	type_foreach (t) {
		const struct nsctl_type_info *info = nsctl_type_get(t);
		_cleanup_close_ int fd = -1;
		const char *why;
		int r;

		if (!o->pins[t])
			continue;
		/* For pid and time, the namespace the children are in: the new one. */
		fd = opened < 0 ? opened : nsctl_process_open_ns(child, t, true);
		if (fd < 0)
			r = fd;
		else if (o->pin_names[t])
			r = cli_pins_add(pins, t, fd, o->pin_names[t], true);
		else
			r = cli_pins_add(pins, t, fd, o->pins[t], false);
		if (r < 0) {
			/* All or nothing: the pins made so far go too. */
			cli_pins_take_back(pins);
			why = cli_pin_refusal(r, t);
			if (why)
				cli_warn(0, "--%s='%s': cannot pin the new %s namespace: %s",
					 cli_type_option(info->type), o->pins[t], info->name, why);
			else
				cli_warn(r, "--%s='%s': cannot pin the new %s namespace",
					 cli_type_option(info->type), o->pins[t], info->name);
			nsctl_process_clear(child);
			return r;
		}
	}
	nsctl_process_clear(child);
	return 0;
}

void create_exec(const struct create_options *o)
{
	if (o->keep.all)
		cli_exec(o->file, o->argv, NULL, 0);
	cli_exec(o->file, o->argv, o->keep.fds, o->keep.n);
}
