// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nsctl enter --target-caps: PROGRAM takes on the capability sets and the
 * no_new_privs of the target, read before the join, set after it (and after
 * -S/-G), before the exec.
 */
#include <inttypes.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cli.h"
#include "util.h"

#define OPTION "--target-caps"

static void caps_get(uint64_t *permitted, uint64_t *effective, uint64_t *inheritable)
{
	struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &header, data) < 0)
		cli_fail(-errno, OPTION ": capget");
	*permitted = data[0].permitted | (uint64_t)data[1].permitted << 32;
	*effective = data[0].effective | (uint64_t)data[1].effective << 32;
	*inheritable = data[0].inheritable | (uint64_t)data[1].inheritable << 32;
}

static int caps_set(uint64_t permitted, uint64_t effective, uint64_t inheritable)
{
	struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {
		{ (uint32_t)effective, (uint32_t)permitted, (uint32_t)inheritable },
		{ (uint32_t)(effective >> 32), (uint32_t)(permitted >> 32),
		  (uint32_t)(inheritable >> 32) },
	};

	return syscall(SYS_capset, &header, data) < 0 ? -errno : 0;
}

/* The bounding set: drop what the target lacks; what it has and nsctl lacks cannot be raised. */
static uint64_t set_bounding(uint64_t want)
{
	uint64_t known = 0;

	for (unsigned cap = 0; cap < 64; cap++) {
		uint64_t bit = UINT64_C(1) << cap;
		int has = prctl(PR_CAPBSET_READ, cap, 0, 0, 0);

		/* EINVAL past the kernel's last capability (/proc/sys/kernel/cap_last_cap). */
		if (has < 0)
			break;
		known |= bit;
		if (has && !(want & bit) && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0)
			cli_fail(-errno, OPTION ": bounding set: dropping capability %u", cap);
		if (!has && (want & bit))
			cli_fail(0,
				 OPTION
				 ": bounding set: the target has capability %u, which nsctl's "
				 "bounding set lacks (it cannot be raised)",
				 cap);
	}
	return known;
}

/* Fails unless the exec of PROGRAM as EUID gives the set NAME the target's value WANT. */
static void check_exec_gives(const char *name, uid_t euid, uint64_t after, uint64_t want)
{
	if (after != want)
		cli_fail(0,
			 OPTION ": %s set: the exec of PROGRAM as uid %u would give %016" PRIx64
				", not the target's %016" PRIx64
				" (that set is not one an exec gives; see nsctl-enter(1))",
			 name, (unsigned)euid, after, want);
}

void cli_apply_target_caps(const struct nsctl_caps *target)
{
	uint64_t permitted, effective, inheritable, known, after_p, after_e;
	uid_t ruid, euid, suid;
	bool root_rule;
	int secbits, r;

	/*
	 * 1. Effective as wide as permitted (a setuid() away from 0 emptied it,
	 * PR_SET_KEEPCAPS kept permitted), and the target's inheritable set now,
	 * while the bounding set still allows any of it.
	 */
	caps_get(&permitted, &effective, &inheritable);
	r = caps_set(permitted, permitted, target->inheritable);
	if (r < 0)
		cli_fail(r, OPTION ": inheritable set %016" PRIx64 ": capset", target->inheritable);
	/* 2. The bounding set, which needs CAP_SETPCAP. */
	known = set_bounding(target->bounding);
	/*
	 * 3. What the exec will give PROGRAM (no file capabilities, not
	 * set-user-ID): with uid 0 (real or effective) and no SECBIT_NOROOT,
	 * permitted = bounding | inheritable | ambient, and effective the same
	 * if the effective uid is 0, else the ambient set; otherwise permitted
	 * and effective are the ambient set.
	 */
	if (getresuid(&ruid, &euid, &suid) < 0)
		cli_fail(-errno, OPTION ": getresuid");
	secbits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
	if (secbits < 0)
		cli_fail(-errno, OPTION ": prctl(PR_GET_SECUREBITS)");
	root_rule = !(secbits & SECBIT_NOROOT) && (ruid == 0 || euid == 0);
	after_p = root_rule ? (target->bounding | target->inheritable | target->ambient) & known
			    : target->ambient;
	after_e = root_rule && euid == 0 ? after_p : target->ambient;
	if (root_rule && (after_p != target->permitted || after_e != target->effective) &&
	    target->permitted == target->ambient && target->effective == target->ambient) {
		/* The exec of a uid other than 0 gives the target's sets: SECBIT_NOROOT does. */
		if (prctl(PR_SET_SECUREBITS, secbits | SECBIT_NOROOT, 0, 0, 0) < 0)
			cli_fail(-errno, OPTION ": securebits: prctl(PR_SET_SECUREBITS, NOROOT)");
		after_p = after_e = target->ambient;
	}
	check_exec_gives("permitted", euid, after_p, target->permitted);
	check_exec_gives("effective", euid, after_e, target->effective);
	/* 4. Permitted and effective as the target's until the exec, inheritable kept. */
	if ((target->permitted & ~permitted) != 0)
		cli_fail(0,
			 OPTION ": permitted set: the target has %016" PRIx64
				", which nsctl's permitted set %016" PRIx64 " does not hold",
			 target->permitted, permitted);
	r = caps_set(target->permitted, target->effective, target->inheritable);
	if (r < 0)
		cli_fail(r, OPTION ": permitted %016" PRIx64 ", effective %016" PRIx64 ": capset",
			 target->permitted, target->effective);
	/* 5. The ambient set: each one in permitted and inheritable, as the target's are. */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
		cli_fail(-errno, OPTION ": ambient set: clearing it");
	for (unsigned cap = 0; cap < 64; cap++) {
		if (!(target->ambient & (UINT64_C(1) << cap)))
			continue;
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0) < 0)
			cli_fail(-errno, OPTION ": ambient set: raising capability %u", cap);
	}
	/* 6. no_new_privs last: set, it cannot be cleared. */
	r = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
	if (r < 0)
		cli_fail(-errno, OPTION ": prctl(PR_GET_NO_NEW_PRIVS)");
	if (r && !target->no_new_privs)
		cli_fail(0, OPTION ": no_new_privs: nsctl runs with it and the target without: it "
				   "cannot be cleared");
	if (target->no_new_privs && !r && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		cli_fail(-errno, OPTION ": no_new_privs: prctl(PR_SET_NO_NEW_PRIVS)");
}
