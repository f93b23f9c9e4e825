// SPDX-License-Identifier: GPL-2.0-or-later
/* What nsctl checks and repairs about the process it starts in, before it reads anything. */
#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "cli.h"
#include "util.h"

bool cli_parse_only;

/* The failure status of the subcommand named on the command line, before it is dispatched. */
static int early_status(int argc, char **argv, const struct cli_command *commands, size_t n)
{
	for (size_t i = 0; argc > 1 && i < n; i++)
		if (argv[1] && strcmp(argv[1], commands[i].name) == 0)
			return commands[i].failure_status;
	return EXIT_USAGE;
}

/*
 * Closed 0, 1 or 2 at start: the next file nsctl opens would land there, and
 * a message meant for stderr would be written into it (a namespace file, a
 * pin being created).  Careful tools put /dev/null there first.
 */
static int reopen_standard_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int r;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* Not O_CLOEXEC: these are PROGRAM's 0-2 too.  The lowest free fd is FD. */
		r = open("/dev/null", (fd == 0 ? O_RDONLY : O_WRONLY) | O_NOCTTY);
		if (r < 0)
			return negative_errno();
		if (r != fd) {
			close(r);
			return -EBADF;
		}
	}
	return 0;
}

void cli_check_process(int argc, char **argv, const struct cli_command *commands, size_t n)
{
	int status = early_status(argc, argv, commands, n), r;

	/*
	 * Set-user-ID or set-group-ID: nsctl would act for a caller who lacks
	 * the privilege namespaces need, with an environment, fds and arguments
	 * that caller controls (firejail's setuid history).  Privilege must come
	 * from the caller, never from nsctl's file.
	 */
	if (getauxval(AT_SECURE) || getuid() != geteuid() || getgid() != getegid())
		cli_die(
		    status, 0,
		    "refusing to run set-user-ID or set-group-ID (uid %d, euid %d, gid %d, egid "
		    "%d): run nsctl with the caller's own privileges",
		    (int)getuid(), (int)geteuid(), (int)getgid(), (int)getegid());
	/* argc == 0: argv[1] would be the first environment string (pkexec, CVE-2021-4034). */
	if (argc < 1 || !argv || !argv[0])
		cli_die(EXIT_USAGE, 0, "called without a command line (argc is 0)");
	/* getopt's own messages lack "nsctl: SUBCOMMAND:"; cli_bad_option() says it all. */
	opterr = 0;
	r = reopen_standard_fds();
	if (r < 0)
		cli_die(status, r, "cannot open /dev/null onto a closed standard file descriptor");
}

/* An option before O that the prefix matches too, and that means the same: another name of it. */
static bool same_option_before(const struct option *options, const struct option *o,
			       const char *prefix, size_t length)
{
	for (const struct option *p = options; p != o; p++)
		if (strncmp(p->name, prefix, length) == 0 && p->has_arg == o->has_arg &&
		    p->flag == o->flag && p->val == o->val)
			return true;
	return false;
}

static void refuse_ambiguous_option(char **argv, const struct option *options)
{
	const char *element = optind > 0 ? argv[optind - 1] : NULL;
	/* On the stack: nothing allocated may be left when the usage error exits. */
	char possible[1024] = "";
	size_t length, used = 0, matches = 0;

	/*
	 * getopt leaves optopt 0 only for a long option it did not know (or found
	 * ambiguous); otherwise the element before optind may be an earlier
	 * option's argument ("--hostname --ver -X").
	 */
	if (optopt != 0 || !options || !element || strncmp(element, "--", 2) != 0 || !element[2])
		return;
	length = strcspn(element + 2, "=");
	for (const struct option *o = options; o->name; o++) {
		if (strncmp(o->name, element + 2, length) != 0)
			continue;
		if (strlen(o->name) == length) {
			matches = 0; /* an exact name is never ambiguous */
			break;
		}
		if (same_option_before(options, o, element + 2, length))
			continue; /* two names of one option ("--map-root", "--map-root-user") */
		if (used < sizeof(possible))
			used += (size_t)snprintf(possible + used, sizeof(possible) - used,
						 " '--%s'", o->name);
		matches++;
	}
	if (matches < 2)
		return;
	cli_usage_error("option '%.*s' is ambiguous; possibilities:%s", (int)length + 2, element,
			possible);
}

void cli_bad_option(char **argv, const char *optstring)
{
	/* For a long option getopt has moved past the element at fault; it is named whole. */
	const char *element = optind > 0 ? argv[optind - 1] : NULL;
	const char *letter;

	refuse_ambiguous_option(argv, cli_current_long_options());
	if (optopt == 0 || !element)
		cli_usage_error("unrecognized option '%s'", element ? element : "");
	/*
	 * An unknown letter inside a cluster ("-n=FILE" after "--user=FILE"): getopt
	 * stays on the cluster, and the element before it, whatever it is, is not
	 * at fault.  A long option's error has its value as optopt, a letter of
	 * OPTSTRING or beyond ASCII: never an unknown letter.
	 */
	if (optopt > 0 && optopt < 0x80 && !strchr(optstring, optopt) && argv[optind] &&
	    argv[optind][0] == '-' && argv[optind][1] != '-' && strchr(argv[optind] + 1, optopt))
		element = argv[optind];
	else if (strncmp(element, "--", 2) == 0) {
		if (strchr(element, '='))
			cli_usage_error("option '%.*s' takes no argument",
					(int)strcspn(element, "="), element);
		cli_usage_error("option '%s' needs an argument", element);
	}
	letter = optopt != ':' && optopt != '+' ? strchr(optstring, optopt) : NULL;
	if (letter && letter[1] == ':')
		cli_usage_error("option '-%c' needs an argument", optopt);
	/* Within a cluster ("-dash", a PROGRAM named with a '-'), getopt stays on the element. */
	if (argv[optind] && argv[optind][0] == '-' && argv[optind][1] != '-' &&
	    strchr(argv[optind] + 1, optopt))
		element = argv[optind];
	if (element[0] == '-' && element[1] != '-' && strlen(element) > 2) {
		const char *at = strchr(element + 1, optopt);
		enum nsctl_type type;

		/* "-n=FILE", "-nFILE": only the long form of a type option takes a file. */
		if (at && at > element + 1 && cli_type_from_letter(at[-1], &type) == 0 &&
		    strchr(optstring, at[-1]))
			cli_usage_error("unrecognized option '-%c' in '%s': a short type option "
					"takes no argument; the file form is --%s=FILE",
					optopt, element, cli_type_option(type));
		cli_usage_error("unrecognized option '-%c' in '%s'", optopt, element);
	}
	cli_usage_error("unrecognized option '-%c'", optopt);
}

int cli_thread_count(void)
{
	_cleanup_closedir_ DIR *dir = opendir("/proc/self/task");
	struct dirent *entry;
	int n = 0;

	if (!dir)
		return 1;
	while ((entry = readdir(dir)))
		if (entry->d_name[0] != '.')
			n++;
	return n > 0 ? n : 1;
}

const char *cli_threads_refusal(int err, unsigned types)
{
	static char text[160];
	unsigned single = NSCTL_TYPE_BIT(NSCTL_TYPE_USER) | NSCTL_TYPE_BIT(NSCTL_TYPE_MNT) |
			  NSCTL_TYPE_BIT(NSCTL_TYPE_TIME);
	int n;

	/* The kernel's rule: EINVAL for user and mount, EUSERS for time (setns of 5.6). */
	if ((err != -EINVAL && err != -EUSERS) || !(types & single))
		return NULL;
	n = cli_thread_count();
	if (n < 2)
		return NULL;
	snprintf(text, sizeof(text),
		 " (nsctl has %d threads, and only a single-threaded process may join a user, "
		 "mount or time namespace, or create a user namespace)",
		 n);
	return text;
}
