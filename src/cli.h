/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the subcommands of the nsctl CLI share: the command table, errors, option helpers. */
#ifndef NSCTL_CLI_H
#define NSCTL_CLI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "nsctl.h"
#include "parse.h"
#include "util.h"

/*
 * The types, as the library that runs knows them (nsctl_type_get() is NULL
 * past the last), and the most a set of them (an unsigned) can hold: the
 * size of an array by type.
 */
#define type_foreach(t) for (enum nsctl_type t = 0; nsctl_type_get(t); t++)
#define TYPES_ALL       nsctl_type_all()
#define TYPE_SLOTS      32

#if NSCTL_ASAN
#include <sanitizer/lsan_interface.h>
#include <unistd.h>
/*
 * Sanitizer builds only: LeakSanitizer checks at exit from a tracer that
 * reads /proc/PID/task by the PID getpid() gives, which in a new PID
 * namespace with the caller's /proc names another process (or none: "Can't
 * open /proc/2/task"), and without /proc it stops with a fatal error.  A
 * command about to put itself or a child in another PID namespace checks
 * now, before it does, and that check is its last (children inherit it).
 */
#define LEAK_CHECK_NOW()                                                                           \
	do {                                                                                       \
		if (access("/proc/self/task", R_OK) == 0)                                          \
			__lsan_do_leak_check();                                                    \
	} while (0)
#else
#define LEAK_CHECK_NOW() ((void)0)
#endif

/* Exit statuses of docs/DESIGN.md. */
enum {
	EXIT_COMPARE_SAME = 0,
	EXIT_COMPARE_DIFFERENT = 1,
	EXIT_COMPARE_TROUBLE = 2,
	EXIT_USAGE = 2,
	EXIT_EXEC_FAILED = 125, /* run, unshare, enter: nsctl itself failed */
	EXIT_CANNOT_EXECUTE = 126,
	EXIT_NOT_FOUND = 127,
};

struct cli_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
	int failure_status; /* what a failed system call exits with */
	int usage_status;   /* what bad usage exits with, where it differs (0: the same) */
};

/* The subcommand being run: its name goes into every message, its status into every exit. */
void cli_begin(const struct cli_command *command);
const char *cli_command_name(void);

/* "nsctl: CMD: message\nTry 'nsctl CMD --help'." and exit with the command's usage status. */
_Noreturn void cli_usage_error(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* "nsctl: CMD: message: reason" (reason from -ERR when ERR < 0) and exit with STATUS. */
_Noreturn void cli_die(int status, int err, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* The same, with the command's failure status. */
_Noreturn void cli_fail(int err, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* The same message, and go on. */
void cli_warn(int err, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Whether TEXT is one or more decimal digits and nothing else: a PID, or no operand at all. */
bool cli_all_digits(const char *text);

/* Why parse_pid() refused all-digit text, from its answer ERR. */
const char *cli_pid_refusal(int err);

/*
 * nsctl_type_supported(), or fail (the command's status) where nobody can
 * tell, saying to name the types to WHAT ("join", "compare").
 */
unsigned cli_types_supported_or_fail(const char *what);

/* Fail (the command's status) naming the first type option of ASKED this kernel lacks. */
void cli_refuse_unsupported(unsigned asked);

/* The kernel's reason for -ERR, in the words of nsctl where the library gives ERR a meaning. */
const char *cli_reason(int err);

/*
 * From main(): at exit, flush and close stdout, and exit with the command's
 * failure status, saying so on stderr, when a write to it failed (a full disk,
 * /dev/full): as util-linux's close_stdout.  Every subcommand's output and
 * --help go through it.
 */
void cli_check_stdout_at_exit(void);

/* The --help/--version text footer shared by every subcommand. */
/* First in every --help: stdout buffered whole, so that a write error keeps its reason. */
void cli_help_begin(void);
void cli_help_footer(FILE *out);

/*
 * -V, --version of nsctl and of every subcommand, as each of util-linux's
 * commands takes it: print "nsctl VERSION" and exit 0.  Nothing is made or
 * run: the options before it are only parsed (an invalid one is refused
 * first, as util-linux does), and those after it are not looked at (but
 * --keep-fd's fds, checked before any option, must be open).
 */
_Noreturn void cli_version(void);

/*
 * The namespace-type options every subcommand spells the same way, made from
 * the library's table of types: -C -i -m -n -p -T -U -u and their long forms.
 * HAS_ARG is no_argument, or optional_argument for the --TYPE=FILE forms;
 * the letters never take an argument.
 * Both results are static: one subcommand runs per process.
 */
struct option;
struct option *cli_long_options_with_types(const struct option *own, int has_arg);
char *cli_optstring_with_types(const char *own, int has_arg);

/*
 * A uid (GROUP false) or gid, as a number (never 4294967295) or a user or
 * group name: -S and -G of run, unshare and enter alike.  A usage error
 * naming OPTION otherwise.
 */
uint32_t cli_parse_id(const char *option, const char *text, bool group);

/*
 * Whether a pin NAME exists, of any type (a PID-like NAME, such as
 * "ip netns add 123" makes): its path in BUF, /run/netns first.  For a
 * message only: what it finds may change before anyone uses it.
 */
bool cli_pin_path_of_name(const char *name, char *buf, size_t size);

/*
 * --keep-caps: make the permitted capabilities inheritable and ambient, so
 * that PROGRAM keeps them across its exec as a uid other than 0.  Exits
 * naming OPTION on failure.
 */
void cli_keep_capabilities(const char *option);

/*
 * enter --target-caps: the bounding, inheritable, permitted, effective and
 * ambient sets and no_new_privs of the target (read before the join) for
 * PROGRAM after its exec, in the caller's uid (src/enter-caps.c); fails,
 * naming the set, where one cannot be given.
 */
void cli_apply_target_caps(const struct nsctl_caps *target);

/*
 * enter --env: PROGRAM's environment from the target's, TARGET (a
 * NULL-terminated array, kept).  With TARGET_FILES (PROGRAM runs on the
 * target's own files) the target's whole, less its loader variables unless
 * KEEP_LOADER; without, nsctl's own, in which only the allowlisted data
 * variables of the target (TERM, LANG, LC_*, TZ ...) take the target's
 * values (src/enter-env.c).  Pointers into TARGET and environ.
 */
char **cli_enter_environment(char **target, bool keep_loader, bool target_files);

/*
 * enter --pty (src/enter-pty.c): a new pseudo-terminal for PROGRAM.  REST(ARG)
 * runs in a child whose fds 0-2 that were terminals are the pty, in a session
 * of its own with the pty as its terminal; the caller's process stays to relay
 * between the caller's terminal and the pty, and exits as the child does.
 */
_Noreturn void cli_enter_pty(void (*rest)(void *), void *arg);

/*
 * Options that exclude each other, declared in one table per subcommand (as
 * util-linux's ul_excl_t): a row names options, by the value getopt_long
 * returns for them, of which at most one may be given, and the message that
 * says so.  An option may be in several rows.  The subcommand keeps one
 * unsigned per row, 0 at the start (GIVEN); cli_exclusive_note() marks each
 * option of the command line in it, and cli_exclusive_check(), after the
 * loop, is the usage error of the first row two of whose options were given.
 */
#define CLI_EXCLUSIVE_MAX 4
struct cli_exclusive {
	int options[CLI_EXCLUSIVE_MAX]; /* 0 ends the row early */
	const char *message;            /* "--json and --raw are mutually exclusive" */
};
void cli_exclusive_note(const struct cli_exclusive *table, size_t n, unsigned *given, int option);
void cli_exclusive_check(const struct cli_exclusive *table, size_t n, const unsigned *given);

/* The type of a type option's letter, as getopt_long returns it. */
int cli_type_from_letter(int letter, enum nsctl_type *ret_type);

/*
 * getopt_long's answer C as a type option of a subcommand that takes each
 * type once (run, unshare, enter, pin): its type, added to *GIVEN.  An
 * unknown option or a type given twice ("--net=a --net=b" would take one of
 * them for the other) is a usage error.  *RET_FILE, when asked for, is the
 * FILE of "--uts=FILE", or NULL (a letter never has one).
 */
enum nsctl_type cli_type_option_once(int c, char **argv, const char *optstring, unsigned *given,
				     const char **ret_file);

/* The help lines of the type options; WHAT completes "  -n, --net  ..." */
void cli_type_options_help(FILE *out, const char *argument, const char *what);
/* The same, without the short option of the letters in NO_LETTERS. */
void cli_type_options_help_without(FILE *out, const char *argument, const char *what,
				   const char *no_letters);

/* A --type LIST argument as a set of types; a usage error naming the bad element otherwise. */
unsigned cli_parse_type_list(const char *option, const char *list);

/*
 * Running PROGRAM (run, unshare, enter): hand it only fds 0-2 and KEEP, then
 * execvp FILE (NULL: argv[0]) with ARGV.  On failure print why and exit 127
 * (not found) or 126 (not executable); this never returns.
 */
_Noreturn void cli_exec(const char *file, char **argv, const int *keep, size_t n_keep);

/*
 * No PROGRAM: a login shell, as util-linux's nsenter and unshare run one:
 * $SHELL, else the shell of the caller's passwd entry, else /bin/sh, with
 * argv[0] "-" and its base name ("-bash").  Found before anything is joined
 * (the passwd lookup may load NSS modules: never a joined mount namespace's).
 */
struct cli_shell {
	char path[4096];
	char argv0[256];
	char *argv[2];
};
void cli_login_shell(struct cli_shell *shell);

/*
 * The environment cli_exec() gives PROGRAM, where it is not nsctl's own
 * (enter -e without the mount namespace): PROGRAM is still looked up with
 * nsctl's PATH.
 */
void cli_exec_environment(char **envp);

/*
 * --new-session (run, unshare, enter), in the process that execs PROGRAM:
 * setsid(), so PROGRAM has no controlling terminal and cannot push input into
 * the caller's (TIOCSTI).  A process group leader, which setsid() refuses,
 * drops its terminal with TIOCNOTTY instead.  Exits 125 on failure.
 */
void cli_new_session(void);

/*
 * Attributes for nsctl_spawn() of a child that dies with nsctl, as every
 * child of run, unshare and enter does, in the caller's ROOM (its stack:
 * no malloc() on the way to the start), to be given to
 * nsctl_spawn_attr_clear().  Exits 125 when they cannot be set.
 */
struct nsctl_spawn_attr *cli_spawn_attr_init(struct nsctl_spawn_attr_room *room);

/*
 * nsctl_spawn() of FILE failed as REPORT says: print why and exit 127 (not
 * found), 126 (not executable) or 125 (any other step).
 */
_Noreturn void cli_spawn_fail(const struct nsctl_spawn_report *report, const char *file);

/*
 * STEP(USERDATA) in a child of ours, a copy of this process (nsctl_spawn()'s
 * child step, the one start): its PID, or -errno; its pidfd in *RET_PIDFD
 * (NULL: none wanted; -1 where the kernel has none).
 */
pid_t cli_start(nsctl_spawn_child_step_fn step, void *userdata, int *ret_pidfd);

/* End as the child ended: the same exit code, or death by the same signal. */
_Noreturn void cli_exit_like(int wstatus);

/* The fds of --keep-fd N options, and --keep-fds (every inherited fd). */
struct cli_keep_fds {
	int fds[64];
	size_t n;
	bool all;
	const char *texts[64]; /* the arguments of --keep-fd, checked after the option loop */
	size_t n_texts;
};
/* Parse the argument of --keep-fd; a usage error naming it when it is not an open fd. */
void cli_keep_fd_add(struct cli_keep_fds *keep, const char *text);

/*
 * One pass over the options: each --keep-fd's TEXT is noted in the loop
 * (which opens nothing), and cli_keep_fds_check() adds them all right after
 * it, while the fds open are still only the caller's: before anything opens
 * a file (a cgroup directory, the user database of "-S NAME"), which would
 * take the lowest free numbers and pass for an fd the caller had.
 */
void cli_keep_fd_note(struct cli_keep_fds *keep, const char *text);
void cli_keep_fds_check(struct cli_keep_fds *keep);

/*
 * Hardening (src/cli-hardening.c).  cli_check_process() is main()'s first call:
 * it refuses set-user-ID/set-group-ID and argc == 0, and puts /dev/null on
 * closed fds 0-2.  When cli_parse_only is set (by the fuzzers), a subcommand
 * returns 0 right after parsing and validating its command line, before it
 * opens, creates or runs anything: "if (cli_parse_only) return 0;".
 * getopt prints nothing (opterr is 0): a subcommand's default case calls
 * cli_bad_option().
 */
extern bool cli_parse_only;

/*
 * Pins made by one call of pin, run or unshare (src/cli-pins.c).  The library
 * returns 1 for a pin it made and 0 for one that was already there; a failure
 * later takes back only the former, and the pin directories the call made.
 */
struct cli_pins {
	struct nsctl_pin_made held[TYPE_SLOTS]; /* what this call made, held */
	unsigned made;                          /* the types whose pin this call made */
	unsigned new_dirs;                      /* the types whose /run/nsctl/TYPE it made */
	bool new_top_dir;                       /* /run/nsctl itself */
};
void cli_pins_init(struct cli_pins *pins);
/* Pin NSFD (of TYPE) at WHERE, a path or (IS_NAME) a name: 1, 0 or -errno. */
int cli_pins_add(struct cli_pins *pins, enum nsctl_type type, int nsfd, const char *where,
		 bool is_name);
void cli_pins_take_back(struct cli_pins *pins);
/* PROGRAM was reached: the pins are final, and their directories no longer held. */
void cli_pins_keep(struct cli_pins *pins);
/* Why ERR refuses a pin of TYPE, when it means more than the kernel's words; or NULL. */
const char *cli_pin_refusal(int err, enum nsctl_type type);

/*
 * A process that may fail before it execs PROGRAM after pins were made for it
 * (run's child, unshare's caller): when >= 0, nsctl's error exits write one
 * byte to this fd first, so that whoever made the pins takes them back.
 */
extern int cli_failure_fd;
/* Pins the failing process made itself (unshare's caller): its error exits take them back. */
extern struct cli_pins *cli_failure_pins;
void cli_check_process(int argc, char **argv, const struct cli_command *commands, size_t n);

/*
 * After ERR for namespaces TYPES: when nsctl has more than one thread (a
 * preloaded library may start some) and the kernel's refusal is the one it
 * gives a multithreaded process, the text to add to the message; else NULL.
 */
int cli_thread_count(void);
const char *cli_threads_refusal(int err, unsigned types);

/*
 * After getopt_long returned '?': a usage error naming the option at fault and
 * what is wrong; for a prefix that several long options share (getopt takes a
 * unique one), which they are, as getopt would say.
 */
_Noreturn void cli_bad_option(char **argv, const char *optstring);

/* The long options the subcommand's parse got from cli_long_options_with_types(); or NULL. */
const struct option *cli_current_long_options(void);

/*
 * A namespace named by its 64-bit ID, "id:ID" (enter, pin, compare): whether
 * TEXT has that form, its ID in *RET_ID; a usage error when ID is not one.
 * An "id:..." pin name is named by its path instead.
 */
#define CLI_NS_ID_PREFIX "id:"
bool cli_ns_id_operand(const char *text, uint64_t *ret_id);

/*
 * nsctl_ns_open_id(), or exit with STATUS saying why, naming TEXT: no such
 * namespace, no permission, or a kernel without namespace file handles.
 */
/*
 * TEXT is "container:SPEC": SPEC, else NULL; a usage error for an empty SPEC.
 * The command's target of a container, by name (RUNTIME:NAME or NAME) or ID
 * prefix.
 */
const char *cli_container_operand(const char *text);

/*
 * The first process of container SPEC (TEXT the whole operand, for messages),
 * opened in ROOM (or on the heap where ROOM is NULL) and checked to be still
 * in that container once opened, so that a PID reused meanwhile is never
 * taken; exits with STATUS saying why it cannot be.
 */
struct nsctl_process *cli_container_open(int status, const char *text, const char *spec,
					 struct nsctl_process_room *room);

int cli_open_ns_id(int status, const char *text, uint64_t id, int expected,
		   enum nsctl_type *ret_type);

/* Subcommands. */
int cmd_compare(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_unshare(int argc, char **argv);
int cmd_pin(int argc, char **argv);
int cmd_unpin(int argc, char **argv);
int cmd_enter(int argc, char **argv);
int cmd_list(int argc, char **argv);

#endif
