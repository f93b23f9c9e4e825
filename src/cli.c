// SPDX-License-Identifier: GPL-2.0-or-later
/* The one place the CLI prints errors and exits, and the shared option helpers. */
#include <getopt.h>
#include <inttypes.h>
#include <linux/capability.h>
#include <grp.h>
#include <pwd.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cli.h"
#include "number.h"
#include "util.h"

static const struct cli_command *current;
/* The long options of current's parse (cli_long_options_with_types), for cli_bad_option(). */
static const struct option *current_options;

void cli_begin(const struct cli_command *command)
{
	current = command;
	current_options = NULL;
}

const struct option *cli_current_long_options(void)
{
	return current_options;
}

const char *cli_command_name(void)
{
	return current ? current->name : NULL;
}

static void print_prefix(void)
{
	fputs("nsctl: ", stderr);
	if (current)
		fprintf(stderr, "%s: ", current->name);
}

const char *cli_reason(int err)
{
	if (err >= 0)
		return "";
	switch (-err) {
	case ENOTTY:
		return "not a namespace file";
	case EMEDIUMTYPE:
		return "a namespace of another type";
	case ESRCH:
		return "no such process";
	default:
		return strerror(-err);
	}
}

__attribute__((format(printf, 2, 0))) static void vreport(int err, const char *format, va_list ap)
{
	print_prefix();
	vfprintf(stderr, format, ap);
	if (err < 0)
		fprintf(stderr, ": %s", cli_reason(err));
	fputc('\n', stderr);
}

int cli_failure_fd = -1;
struct cli_pins *cli_failure_pins;

/* No child that shares nsctl's memory ever gets here: nsctl_spawn()'s child makes system calls
 * only.  Whoever made pins for a PROGRAM not reached is told first (cli_failure_fd). */
static _Noreturn void leave(int status)
{
	if (cli_failure_pins)
		cli_pins_take_back(cli_failure_pins);
	if (cli_failure_fd >= 0) {
		char failed = 'f';

		ssize_t n = send(cli_failure_fd, &failed, 1, MSG_NOSIGNAL);

		/* A pipe (run's child): the parent reads it once we are gone. */
		if (n < 0 && errno == ENOTSOCK)
			n = write(cli_failure_fd, &failed, 1);
		/* A socket (unshare's keeper of the pins) answers once they are taken back. */
		else if (n == 1)
			(void)!read(cli_failure_fd, &failed, 1);
	}
	exit(status);
}

void cli_usage_error(const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	vreport(0, format, ap);
	va_end(ap);
	if (current)
		fprintf(stderr, "Try 'nsctl %s --help'.\n", current->name);
	else
		fputs("Try 'nsctl --help'.\n", stderr);
	if (!current)
		leave(EXIT_USAGE);
	leave(current->usage_status ? current->usage_status : current->failure_status);
}

void cli_die(int status, int err, const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	vreport(err, format, ap);
	va_end(ap);
	leave(status);
}

void cli_fail(int err, const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	vreport(err, format, ap);
	va_end(ap);
	leave(current ? current->failure_status : EXIT_FAILURE);
}

void cli_warn(int err, const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	vreport(err, format, ap);
	va_end(ap);
}

/*
 * At exit: what stdout still buffers is written, and a failure to write it, or
 * an earlier one, is an error.  "nsctl compare > /dev/full" must not look like
 * success to a script (util-linux's close_stdout does the same).  A reader
 * that went away (EPIPE, with SIGPIPE ignored) is not nsctl's failure.
 */
static void close_stdout(void)
{
	static bool closed;
	bool pending = __fpending(stdout) != 0, failed_before = ferror(stdout) != 0;
	int r;

	if (closed)
		return;
	closed = true;
	errno = 0;
	r = fclose(stdout) == 0 ? 0 : negative_errno();
	/* EBADF with nothing to write: stdout was closed already, nothing was lost. */
	if (!failed_before && (r == 0 || (r == -EBADF && !pending)))
		return;
	if (r == -EPIPE)
		return;
	cli_warn(r, "write error on standard output");
	/* Not exit(): this runs inside it. */
	_exit(current ? current->failure_status : EXIT_FAILURE);
}

void cli_check_stdout_at_exit(void)
{
	static bool registered;

	/* Once: the fuzzers call main() again and again in one process. */
	if (!registered && atexit(close_stdout) == 0)
		registered = true;
}

void cli_help_begin(void)
{
	enum { SIZE = 64 * 1024 };
	static char *buffer;

	/*
	 * A help longer than stdio's usual 4 KiB buffer met a write error part-way,
	 * and by exit stdio had lost its errno: with one buffer that holds any help
	 * whole, the error comes at exit, with its reason.  (On the heap: in .bss
	 * its 64 KiB put the small variables after it on pages of their own,
	 * faulted in on every start.)
	 */
	if (!buffer) {
		buffer = malloc(SIZE);
		if (buffer)
			setvbuf(stdout, buffer, _IOFBF, SIZE);
	}
}

void cli_help_footer(FILE *out)
{
	fputs("\n -h, --help                display this help and exit\n"
	      " -V, --version             display the version and exit\n",
	      out);
	if (current)
		fprintf(out, "\nFor more details see nsctl-%s(1).\n", current->name);
}

void cli_version(void)
{
	printf("nsctl %s\n", NSCTL_VERSION);
	exit(EXIT_SUCCESS);
}

struct option *cli_long_options_with_types(const struct option *own, int has_arg)
{
	/* One subcommand runs per process: one static table, nothing to free before exit(). */
	static struct option options[TYPE_SLOTS + 64];
	size_t n_own = 0, i = 0;

	while (own[n_own].name)
		n_own++;
	if (n_own + TYPE_SLOTS + 1 > ELEMENTSOF(options))
		abort();
	type_foreach (t) {
		const struct nsctl_type_info *info = nsctl_type_get(t);

		options[i++] = (struct option){ cli_type_option(info->type), has_arg, NULL,
						cli_type_letter(info->type) };
	}
	memcpy(options + i, own, n_own * sizeof(*options));
	options[i + n_own] = (struct option){ 0 };
	current_options = options;
	return options;
}

char *cli_optstring_with_types(const char *own, int has_arg)
{
	static char optstring[TYPE_SLOTS + 128];
	char *p;

	/*
	 * Each type letter bare, whatever HAS_ARG says of the long forms: a short
	 * type option never takes an argument, so "-nm" is net and mount and
	 * "-Urpm" user, map-root, pid, mount, as util-linux users type them.  An
	 * optional argument on a letter read "-Uru" as a user namespace pinned at
	 * ./ru, silently.
	 */
	(void)has_arg;
	if (strlen(own) + TYPE_SLOTS + 1 > sizeof(optstring))
		abort();
	/* By hand: stpcpy() is one more page of libc to fault in, on every start. */
	p = optstring;
	while (*own)
		*p++ = *own++;
	type_foreach (t)
		*p++ = cli_type_letter(t);
	*p = '\0';
	return optstring;
}

int cli_type_from_letter(int letter, enum nsctl_type *ret_type)
{
	type_foreach (t) {
		if (cli_type_letter(t) == letter) {
			*ret_type = t;
			return 0;
		}
	}
	return -EINVAL;
}

uint32_t cli_parse_id(const char *option, const char *text, bool group)
{
	uint64_t value;

	/* Led by a digit, a number (leading zeros allowed); 4294967295 is (uid_t)-1. */
	if (text[0] >= '0' && text[0] <= '9') {
		if (number_parse(text, UINT32_MAX - 1, NUMBER_LEADING_ZEROS, &value) < 0)
			cli_usage_error("%s '%s': not a valid %s", option, text,
					group ? "group ID" : "user ID");
		return (uint32_t)value;
	}
	if (group) {
		struct group *gr = getgrnam(text);

		if (!gr)
			cli_usage_error("%s '%s': no such group", option, text);
		return (uint32_t)gr->gr_gid;
	} else {
		struct passwd *pw = getpwnam(text);

		if (!pw)
			cli_usage_error("%s '%s': no such user", option, text);
		return (uint32_t)pw->pw_uid;
	}
}

/*
 * --keep-caps (run, unshare, enter): the capabilities the process has, kept
 * across the exec of PROGRAM.  The kernel drops them at exec for a uid other than 0
 * (--map-user 1000) unless they are ambient, and only a permitted and
 * inheritable capability can be made ambient.
 */
void cli_keep_capabilities(const char *option)
{
	struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &header, data) < 0)
		cli_fail(-errno, "%s: capget", option);
	for (size_t i = 0; i < ELEMENTSOF(data); i++)
		data[i].inheritable = data[i].permitted;
	if (syscall(SYS_capset, &header, data) < 0)
		cli_fail(-errno, "%s: capset", option);
	for (unsigned cap = 0; cap < 32 * ELEMENTSOF(data); cap++) {
		if (!(data[cap / 32].permitted & (1U << (cap % 32))))
			continue;
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0) < 0)
			cli_fail(-errno, "%s: raising capability %u", option, cap);
	}
}

bool cli_pin_path_of_name(const char *name, char *buf, size_t size)
{
	struct stat st;

	/* /run/netns first: "ip netns add 123" is the likely maker of such a name. */
	if (nsctl_pin_name_path(NSCTL_TYPE_NET, name, buf, size) >= 0 && lstat(buf, &st) == 0)
		return true;
	type_foreach (t) {
		if (t != NSCTL_TYPE_NET && nsctl_pin_name_path(t, name, buf, size) >= 0 &&
		    lstat(buf, &st) == 0)
			return true;
	}
	return false;
}

bool cli_all_digits(const char *text)
{
	const char *p = text;

	/* A loop, not strspn(): one libc page fewer on enter's path to the exec. */
	while (*p >= '0' && *p <= '9')
		p++;
	return p != text && !*p;
}

const char *cli_pid_refusal(int err)
{
	return err == -ERANGE ? "too large" : "must be a decimal number from 1, no leading zero";
}

unsigned cli_types_supported_or_fail(const char *what)
{
	unsigned supported = nsctl_type_supported();

	if (!supported)
		cli_fail(0,
			 "cannot tell which namespace types this kernel has (no /proc/self/ns, and "
			 "no pidfd namespace ioctls before Linux 6.11): name the types to %s",
			 what);
	return supported;
}

void cli_refuse_unsupported(unsigned asked)
{
	unsigned supported = nsctl_type_supported(); /* 0: nobody can tell; the kernel will */

	if (!supported)
		return;
	type_foreach (t)
		if ((asked & ~supported) & NSCTL_TYPE_BIT(t))
			cli_fail(-EOPNOTSUPP, "--%s", cli_type_option(t));
}

enum nsctl_type cli_type_option_once(int c, char **argv, const char *optstring, unsigned *given,
				     const char **ret_file)
{
	enum nsctl_type type;
	const char *file = optarg;

	if (cli_type_from_letter(c, &type) < 0)
		cli_bad_option(argv, optstring);
	if (*given & NSCTL_TYPE_BIT(type))
		cli_usage_error("--%s given twice", cli_type_option(type));
	*given |= NSCTL_TYPE_BIT(type);
	if (ret_file)
		*ret_file = file;
	return type;
}

void cli_type_options_help_without(FILE *out, const char *argument, const char *what,
				   const char *no_letters)
{
	type_foreach (t) {
		const struct nsctl_type_info *info = nsctl_type_get(t);
		char option[48], letter[8] = "    ";

		snprintf(option, sizeof(option), "--%s%s", cli_type_option(info->type), argument);
		if (!strchr(no_letters, cli_type_letter(info->type)))
			snprintf(letter, sizeof(letter), "-%c, ", cli_type_letter(info->type));
		fprintf(out, " %s%-22s%s %s namespace (%s)\n", letter, option, what, info->name,
			info->description);
	}
}

void cli_type_options_help(FILE *out, const char *argument, const char *what)
{
	cli_type_options_help_without(out, argument, what, "");
}

void cli_exclusive_note(const struct cli_exclusive *table, size_t n, unsigned *given, int option)
{
	for (size_t row = 0; row < n; row++)
		for (size_t i = 0; i < CLI_EXCLUSIVE_MAX && table[row].options[i]; i++)
			if (table[row].options[i] == option)
				given[row] |= 1u << i;
}

void cli_exclusive_check(const struct cli_exclusive *table, size_t n, const unsigned *given)
{
	for (size_t row = 0; row < n; row++) {
		/* Two bits or more: two different options of the row (one given twice is one). */
		if (given[row] & (given[row] - 1))
			cli_usage_error("%s", table[row].message);
	}
}

unsigned cli_parse_type_list(const char *option, const char *list)
{
	unsigned types, seen = 0;
	int r = parse_types(list, &types);

	if (r >= 0)
		return types;
	/* Find the element at fault, so the message can name it. */
	for (const char *p = list;;) {
		size_t length = strcspn(p, ",");
		char name[64];
		enum nsctl_type t;

		if (length == 0)
			cli_usage_error("%s '%s': empty namespace type in the list", option, list);
		snprintf(name, sizeof(name), "%.*s", (int)(length < 63 ? length : 63), p);
		if (parse_type_name(name, strlen(name), &t) < 0)
			cli_usage_error("%s '%s': unknown namespace type '%s'", option, list, name);
		if (seen & NSCTL_TYPE_BIT(t))
			cli_usage_error("%s '%s': namespace type '%s' given twice", option, list,
					name);
		seen |= NSCTL_TYPE_BIT(t);
		if (!p[length])
			break;
		p += length + 1;
	}
	cli_usage_error("%s '%s': %s", option, list, strerror(-r));
}

bool cli_ns_id_operand(const char *text, uint64_t *ret_id)
{
	int r;

	if (strncmp(text, CLI_NS_ID_PREFIX, strlen(CLI_NS_ID_PREFIX)) != 0)
		return false;
	r = parse_ns_id(text + strlen(CLI_NS_ID_PREFIX), ret_id);
	if (r == -ERANGE)
		cli_usage_error("'%s': the namespace ID is larger than 64 bits", text);
	if (r < 0)
		cli_usage_error("'%s': not a namespace ID (id: and the decimal number nsctl list "
				"shows in its ID column)",
				text);
	return true;
}

int cli_open_ns_id(int status, const char *text, uint64_t id, int expected,
		   enum nsctl_type *ret_type)
{
	int r = nsctl_ns_open_id(id, expected, ret_type);

	if (r >= 0)
		return r;
	switch (-r) {
	case EOPNOTSUPP:
		cli_die(status, 0,
			"%s: this kernel cannot open a namespace by its ID (that needs namespace "
			"file handles, Linux 6.18); name it by a PID or a file",
			text);
	case ENOENT:
		cli_die(status, 0,
			"%s: no namespace with ID %" PRIu64 " found%s (nsctl list shows the IDs)",
			text, id, geteuid() == 0 ? "" : " among those this user can see");
	case EPERM:
		cli_die(status, r,
			"%s: opening a namespace by ID needs to be in it, or CAP_SYS_ADMIN in the "
			"user namespace that owns it",
			text);
	default:
		cli_die(status, r, "%s", text);
	}
}

const char *cli_container_operand(const char *text)
{
	if (strncmp(text, "container:", 10) != 0)
		return NULL;
	if (text[10] == '\0')
		cli_usage_error("'%s': no container named (container:NAME, container:RUNTIME:NAME "
				"or container:ID)",
				text);
	return text + 10;
}

struct nsctl_process *cli_container_open(int status, const char *text, const char *spec,
					 struct nsctl_process_room *room)
{
	struct nsctl_process *process = NULL;
	char found[512];
	int r;

	r = nsctl_process_open_container(spec, room, &process, found, sizeof(found));
	if (r == -ENOENT)
		cli_die(status, 0, "%s: no such container%s (nsctl list -o +CONTAINER shows them)",
			text, geteuid() == 0 ? "" : " among the processes this user can see");
	if (r == -ENOTUNIQ)
		cli_die(status, 0,
			"%s: several containers are so named: %s; name one as "
			"container:RUNTIME:NAME or by more of its ID",
			text, found);
	if (r == -ESRCH)
		cli_die(status, 0, "%s: its first process is gone, or in another container now",
			text);
	if (r < 0)
		cli_die(status, r, "%s", text);
	return process;
}
