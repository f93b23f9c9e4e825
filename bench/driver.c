// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The benchmark timing driver: runs several commands in turns (A B C A B C
 * ...), so that the machine's drift over a run touches them all alike, and
 * prints for each one CSV line:
 *   LABEL,ROUNDS,MEDIAN_US,Q1_US,Q3_US,MIN_US,MAX_US,MAXRSS_KB,PAIRED_FIRST,PAIRED_SECOND,CPU_US
 * Wall time is from just before posix_spawn() to the return of wait4(); peak
 * memory is the child's ru_maxrss (the median over the rounds).  CPU_US is the
 * median of the CPU time the child used, user and system, all its threads
 * (wait4()'s ru_utime + ru_stime): what it cost, whatever else ran on the
 * machine meanwhile, where wall time also shows a CPU that other processes
 * took from it.  PAIRED_FIRST
 * is the median over the rounds of this command's time divided by the first
 * command's time in the same round (PAIRED_SECOND: the second's): a burst of
 * load that lasts a round slows both sides of such a ratio alike.
 *
 * Usage: driver [-n ROUNDS] [-w WARMUP] LABEL PROGRAM [ARG...] [::: LABEL PROGRAM [ARG...]]...
 * A command that fails (any exit status but 0, or a signal) stops the
 * driver with status 1: a failing command is not a measurement.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/*
 * A stop signal ends the driver only once the command it is timing has been
 * reaped: no child of the driver is ever left to init.
 */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

struct command {
	const char *label;
	char **argv;
	double *usec;
	double *maxrss_kb;
	double *cpu_usec;
};

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The P-quantile of N sorted values, interpolated between neighbours. */
static double quantile(const double *sorted, int n, double p)
{
	double pos = p * (n - 1);
	int i = (int)pos;
	if (i + 1 >= n)
		return sorted[n - 1];
	return sorted[i] + (pos - i) * (sorted[i + 1] - sorted[i]);
}

static double now_usec(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static double timeval_usec(struct timeval tv)
{
	return (double)tv.tv_sec * 1e6 + (double)tv.tv_usec;
}

/* Run one command once; its time, peak memory and CPU time, or -1 if it failed. */
static int run_once(const struct command *c, const posix_spawn_file_actions_t *actions,
		    double *ret_usec, double *ret_maxrss_kb, double *ret_cpu_usec)
{
	pid_t pid;
	struct rusage usage;
	int status;
	double start = now_usec();
	int r = posix_spawnp(&pid, c->argv[0], actions, NULL, c->argv, environ);
	if (r != 0) {
		fprintf(stderr, "driver: %s: cannot run %s: %s\n", c->label, c->argv[0],
			strerror(r));
		return -1;
	}
	while (wait4(pid, &status, 0, &usage) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "driver: wait4: %s\n", strerror(errno));
			return -1;
		}
	double end = now_usec();
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "driver: %s: %s %d\n", c->label,
			WIFEXITED(status) ? "exited with status" : "killed by signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -1;
	}
	*ret_usec = end - start;
	*ret_maxrss_kb = (double)usage.ru_maxrss;
	*ret_cpu_usec = timeval_usec(usage.ru_utime) + timeval_usec(usage.ru_stime);
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = 30, warmup = 3, opt;
	while ((opt = getopt(argc, argv, "+n:w:")) != -1) {
		switch (opt) {
		case 'n':
			rounds = atoi(optarg);
			break;
		case 'w':
			warmup = atoi(optarg);
			break;
		default:
			return 2;
		}
	}
	if (rounds < 1 || warmup < 0 || optind + 2 > argc) {
		fprintf(stderr, "usage: driver [-n ROUNDS] [-w WARMUP] LABEL PROGRAM [ARG...] "
				"[::: LABEL PROGRAM [ARG...]]...\n");
		return 2;
	}

	/* Split the arguments at each ":::" into commands, in place. */
	struct command *commands = calloc((size_t)argc, sizeof(*commands));
	if (!commands)
		return 1;
	int n = 0;
	for (int i = optind; i < argc;) {
		if (i + 1 >= argc || strcmp(argv[i + 1], ":::") == 0) {
			fprintf(stderr, "driver: %s: no program\n", argv[i]);
			return 2;
		}
		commands[n].label = argv[i];
		commands[n].argv = argv + i + 1;
		int j = i + 1;
		while (j < argc && strcmp(argv[j], ":::") != 0)
			j++;
		argv[j < argc ? j : argc] = NULL;
		commands[n].usec = calloc((size_t)rounds, sizeof(double));
		commands[n].maxrss_kb = calloc((size_t)rounds, sizeof(double));
		commands[n].cpu_usec = calloc((size_t)rounds, sizeof(double));
		if (!commands[n].usec || !commands[n].maxrss_kb || !commands[n].cpu_usec)
			return 1;
		n++;
		i = j + 1;
	}

	struct sigaction sa = { .sa_handler = on_stop };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	/* The commands' output is not what is measured: it goes to /dev/null. */
	posix_spawn_file_actions_t actions;
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);

	double *paired_first = calloc((size_t)n * rounds, sizeof(double));
	double *paired_second = calloc((size_t)n * rounds, sizeof(double));
	if (!paired_first || !paired_second)
		return 1;

	int status = 0;
	for (int round = -warmup; round < rounds && status == 0; round++)
		for (int c = 0; c < n && status == 0; c++) {
			double usec, kb, cpu;
			if (stop_signal)
				status = 128 + stop_signal;
			else if (run_once(&commands[c], &actions, &usec, &kb, &cpu) < 0)
				status = 1;
			else if (round >= 0) {
				commands[c].usec[round] = usec;
				commands[c].maxrss_kb[round] = kb;
				commands[c].cpu_usec[round] = cpu;
			}
		}

	for (int c = 0; c < n && status == 0; c++)
		for (int r = 0; r < rounds; r++) {
			paired_first[c * rounds + r] = commands[c].usec[r] / commands[0].usec[r];
			paired_second[c * rounds + r] =
			    commands[c].usec[r] / commands[n > 1 ? 1 : 0].usec[r];
		}

	for (int c = 0; c < n; c++) {
		double *t = commands[c].usec, *m = commands[c].maxrss_kb, *u = commands[c].cpu_usec;
		double *pf = paired_first + c * rounds, *ps = paired_second + c * rounds;
		if (status == 0) {
			qsort(pf, (size_t)rounds, sizeof(double), compare_doubles);
			qsort(ps, (size_t)rounds, sizeof(double), compare_doubles);
			qsort(t, (size_t)rounds, sizeof(double), compare_doubles);
			qsort(m, (size_t)rounds, sizeof(double), compare_doubles);
			qsort(u, (size_t)rounds, sizeof(double), compare_doubles);
			printf("%s,%d,%.1f,%.1f,%.1f,%.1f,%.1f,%.0f,%.4f,%.4f,%.1f\n",
			       commands[c].label, rounds, quantile(t, rounds, 0.5),
			       quantile(t, rounds, 0.25), quantile(t, rounds, 0.75), t[0],
			       t[rounds - 1], quantile(m, rounds, 0.5), quantile(pf, rounds, 0.5),
			       quantile(ps, rounds, 0.5), quantile(u, rounds, 0.5));
		}
		free(t);
		free(m);
		free(u);
	}
	free(commands);
	free(paired_first);
	free(paired_second);
	posix_spawn_file_actions_destroy(&actions);
	return status;
}
