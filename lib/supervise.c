// SPDX-License-Identifier: LGPL-2.1-or-later
/* A parent that stays behind for its child, or an init for its namespace: forwards signals, reaps.
 */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "internal.h"
#include "syscalls.h"

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

/* Signals the kernel sends a thread for its own fault: forwarding them means nothing. */
static bool is_synchronous(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE ||
	       sig == SIGTRAP || sig == SIGSYS;
}

static void forwarded_set(sigset_t *set)
{
	sigfillset(set);
	sigdelset(set, SIGKILL);
	sigdelset(set, SIGSTOP);
	for (int sig = 1; sig < SIGRTMIN; sig++)
		if (is_synchronous(sig))
			sigdelset(set, sig);
	/* glibc keeps the first real-time signals for itself; sigfillset already left them out. */
}

_Static_assert(sizeof(struct signal_state) <= sizeof(struct nsctl_signals_state) &&
		   _Alignof(struct signal_state) <= _Alignof(struct nsctl_signals_state),
	       "struct signal_state must fit the room of struct nsctl_signals_state");

NSCTL_EXPORT int nsctl_signals_block(struct nsctl_signals_state *ret_saved)
{
	struct signal_state saved;
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t set;

	if (!ret_saved)
		return -EINVAL;
	forwarded_set(&set);
	if (sigprocmask(SIG_BLOCK, &set, &saved.mask) < 0)
		return negative_errno();
	sigemptyset(&dfl.sa_mask);
	if (sigaction(SIGCHLD, &dfl, &saved.sigchld) < 0) {
		int r = negative_errno();

		sigprocmask(SIG_SETMASK, &saved.mask, NULL);
		return r;
	}
	*signal_state_of(ret_saved) = saved;
	return 0;
}

NSCTL_EXPORT int nsctl_signals_restore(const struct nsctl_signals_state *room)
{
	const struct signal_state *saved = room ? signal_state_const(room) : NULL;

	if (!saved)
		return -EINVAL;
	if (sigaction(SIGCHLD, &saved->sigchld, NULL) < 0)
		return negative_errno();
	if (sigprocmask(SIG_SETMASK, &saved->mask, NULL) < 0)
		return negative_errno();
	return 0;
}

static int reap(pid_t pid, int pidfd, int *ret_wstatus, bool *ret_done)
{
	siginfo_t info;
	int r = -1;

	memset(&info, 0, sizeof(info));
	if (pidfd >= 0)
		r = waitid(P_PIDFD, (id_t)pidfd, &info, WEXITED | WSTOPPED | WNOHANG);
	if (pidfd < 0 || (r < 0 && errno == EINVAL))
		r = waitid(P_PID, (id_t)pid, &info, WEXITED | WSTOPPED | WNOHANG);
	if (r < 0)
		return negative_errno();
	*ret_done = false;
	if (info.si_pid == 0)
		return 0;
	switch (info.si_code) {
	case CLD_EXITED:
		*ret_wstatus = W_EXITCODE(info.si_status, 0);
		*ret_done = true;
		break;
	case CLD_KILLED:
	case CLD_DUMPED:
		*ret_wstatus = info.si_status & 0x7f;
		*ret_done = true;
		break;
	case CLD_STOPPED:
		/* Job control: the child stopped, so does its stand-in; SIGCONT brings both back.
		 */
		raise(SIGSTOP);
		if (pidfd >= 0)
			sys_pidfd_send_signal(pidfd, SIGCONT, NULL, 0);
		else
			kill(pid, SIGCONT);
		break;
	}
	return 0;
}

/*
 * As PID 1 of a PID namespace: every orphan of the namespace is ours to reap,
 * or it stays a zombie.  Done once PID has ended and no zombie is left.
 */
static int reap_all(pid_t pid, int *ret_wstatus, bool *ret_done)
{
	int wstatus;
	pid_t ended;

	*ret_done = false;
	while ((ended = waitpid(-1, &wstatus, WNOHANG)) > 0)
		if (ended == pid) {
			*ret_wstatus = wstatus;
			*ret_done = true;
		}
	if (*ret_done || ended == 0 || errno == EINTR)
		return 0;
	return negative_errno();
}

static void forward(pid_t pid, int pidfd, const siginfo_t *si)
{
	/*
	 * The terminal sends ^C and ^Z to the whole foreground process group; a
	 * child in our group already has it.  Anything else is passed on.
	 */
	if (si->si_code == SI_KERNEL && getpgid(pid) == getpgrp())
		return;
	if (pidfd >= 0 && sys_pidfd_send_signal(pidfd, si->si_signo, NULL, 0) == 0)
		return;
	kill(pid, si->si_signo);
}

NSCTL_EXPORT int nsctl_child_supervise(pid_t pid, int pidfd, unsigned flags, int *ret_wstatus)
{
	bool reap_every_child = flags & NSCTL_SUPERVISE_REAP_ALL;
	sigset_t set;
	int wstatus = 0;
	bool done = false;
	int r;

	if (pid <= 0 || !ret_wstatus || (flags & ~NSCTL_SUPERVISE_REAP_ALL))
		return -EINVAL;
	forwarded_set(&set);
	sigaddset(&set, SIGCHLD);
	/*
	 * Every signal to pass on, and SIGCHLD, was blocked before the child
	 * existed (nsctl_signals_block), so each one since is pending, and
	 * sigwaitinfo() takes them in turn.  The child's end always comes as a
	 * SIGCHLD (its exit signal, at SIG_DFL and blocked, so never
	 * discarded), and so does a stop or the end of an orphan an init
	 * inherited; any SIGCHLD is only a reason to look, with WNOHANG.  (A
	 * signalfd polled with the pidfd did the same, for two more system
	 * calls and a second wake-up: 2% of a 'run true'.)
	 */
	r = reap_every_child ? reap_all(pid, &wstatus, &done) : reap(pid, pidfd, &wstatus, &done);
	while (r >= 0 && !done) {
		siginfo_t si;

		if (sigwaitinfo(&set, &si) < 0) {
			if (errno == EINTR)
				continue;
			return negative_errno();
		}
		if (si.si_signo != SIGCHLD)
			forward(pid, pidfd, &si);
		r = reap_every_child ? reap_all(pid, &wstatus, &done)
				     : reap(pid, pidfd, &wstatus, &done);
	}
	if (r < 0)
		return r;
	*ret_wstatus = wstatus;
	return 0;
}
