// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/setup.c: name and clock offset checks, propagation, loopback and proc in real
 * namespaces. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "nsctl.h"

#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif

/* The kernel's rules: 1 to 64 bytes, any bytes (what a terminal makes of them is the caller's). */
static void test_uts_name_check(void **state)
{
	char name[66];

	assert_int_equal(nsctl_uts_name_check("host"), 0);
	assert_int_equal(nsctl_uts_name_check(""), -EINVAL);
	assert_int_equal(nsctl_uts_name_check(NULL), -EINVAL);
	memset(name, 'x', 64);
	name[64] = '\0';
	assert_int_equal(nsctl_uts_name_check(name), 0);
	name[64] = 'x';
	name[65] = '\0';
	assert_int_equal(nsctl_uts_name_check(name), -ENAMETOOLONG);
	assert_int_equal(nsctl_uts_names_set("", NULL), -EINVAL);
	assert_int_equal(nsctl_uts_name_check("a\nb"), 0);
	assert_int_equal(nsctl_uts_name_check("\377"), 0);
}

static void test_propagation_set_bad(void **state)
{
	assert_int_equal(nsctl_mnt_propagation_set((enum nsctl_propagation)42), -EINVAL);
	assert_int_equal(nsctl_mnt_propagation_set(NSCTL_PROPAGATION_UNCHANGED), 0);
}

static void test_time_offset_check(void **state)
{
	assert_int_equal(nsctl_time_offset_check(CLOCK_MONOTONIC, 100), 0);
	assert_int_equal(nsctl_time_offset_check(CLOCK_BOOTTIME, -1), 0);
	assert_int_equal(nsctl_time_offset_check(CLOCK_MONOTONIC, 4000000000), 0);
	/* Past the kernel's limit, or below zero: the machine has not been up that long. */
	assert_int_equal(nsctl_time_offset_check(CLOCK_MONOTONIC, 4611686018), -ERANGE);
	assert_int_equal(nsctl_time_offset_check(CLOCK_MONOTONIC, -4000000000), -ERANGE);
	assert_int_equal(nsctl_time_offset_check(CLOCK_MONOTONIC, INT64_MAX), -ERANGE);
	assert_int_equal(nsctl_time_offset_check(CLOCK_MONOTONIC, INT64_MIN), -ERANGE);
	assert_int_equal(nsctl_time_offset_check(CLOCK_REALTIME, 1), -EINVAL);
}

struct body_request {
	int (*body)(void);
};

/* nsctl_spawn()'s child step: the body, whose return is the child's status. */
static int run_body(void *userdata)
{
	const struct body_request *request = userdata;

	return request->body();
}

/* Run BODY in a child in new namespaces TYPES (NSCTL_TYPE_BIT); it returns 0 for success. */
static void in_child(unsigned types, int (*body)(void))
{
	struct body_request request = { .body = body };
	struct nsctl_spawn_attr *attr = NULL;
	int wstatus;
	pid_t pid;

	if (geteuid() != 0) {
		skip();
		return;
	}
	assert_int_equal(nsctl_spawn_attr_new(&attr), 0);
	assert_int_equal(nsctl_spawn_attr_set_types(attr, types), 0);
	assert_int_equal(nsctl_spawn_attr_set_child_step(attr, run_body, &request), 0);
	pid = nsctl_spawn(attr, NULL, NULL, NULL, NULL);
	nsctl_spawn_attr_free(attr);
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &wstatus, 0), pid);
	assert_true(WIFEXITED(wstatus));
	assert_int_equal(WEXITSTATUS(wstatus), 0);
}

static int loopback_body(void)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0 || (ifr.ifr_flags & IFF_UP))
		return 1;
	if (nsctl_net_loopback_up() < 0 || nsctl_net_loopback_up() < 0)
		return 2;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0 || !(ifr.ifr_flags & IFF_UP))
		return 3;
	return 0;
}

static void test_loopback(void **state)
{
	in_child(NSCTL_TYPE_BIT(NSCTL_TYPE_NET), loopback_body);
}

static int names_body(void)
{
	char buf[128];

	if (nsctl_uts_names_set("nsctl-unit", "nsctl-dom") < 0)
		return 1;
	if (gethostname(buf, sizeof(buf)) < 0 || strcmp(buf, "nsctl-unit") != 0)
		return 2;
	if (getdomainname(buf, sizeof(buf)) < 0 || strcmp(buf, "nsctl-dom") != 0)
		return 3;
	return 0;
}

static void test_names(void **state)
{
	char before[128], after[128];

	gethostname(before, sizeof(before));
	in_child(NSCTL_TYPE_BIT(NSCTL_TYPE_UTS), names_body);
	gethostname(after, sizeof(after));
	assert_string_equal(before, after);
}

static int proc_body(void)
{
	char dir[] = "/tmp/nsctl-proc-XXXXXX";
	struct statfs fs;
	char link[64], target[32];
	ssize_t n;
	int r = 0;

	if (nsctl_mnt_propagation_set(NSCTL_PROPAGATION_PRIVATE) < 0)
		return 1;
	if (!mkdtemp(dir))
		return 2;
	if (nsctl_mnt_proc_mount(dir) < 0)
		r = 3;
	else if (statfs(dir, &fs) < 0 || fs.f_type != PROC_SUPER_MAGIC)
		r = 4;
	/* Our proc: PID 1 of the new PID namespace is us. */
	snprintf(link, sizeof(link), "%s/self", dir);
	n = r ? -1 : readlink(link, target, sizeof(target) - 1);
	if (!r && (n != 1 || target[0] != '1'))
		r = 5;
	if (!r && getpid() != 1)
		r = 6;
	umount2(dir, MNT_DETACH);
	rmdir(dir);
	if (!r && nsctl_mnt_proc_mount("/nonexistent-nsctl") != -ENOENT)
		r = 7;
	return r;
}

static void test_proc_mount(void **state)
{
	in_child(NSCTL_TYPE_BIT(NSCTL_TYPE_MNT) | NSCTL_TYPE_BIT(NSCTL_TYPE_PID), proc_body);
}

static int offsets_body(void)
{
	FILE *f;
	char line[64];
	long long value = 0;

	if (unshare(CLONE_NEWTIME) < 0)
		return 1;
	if (nsctl_time_offsets_write(0, 3600, -1) < 0)
		return 2;
	f = fopen("/proc/self/timens_offsets", "r");
	if (!f)
		return 3;
	if (!fgets(line, sizeof(line), f) || sscanf(line, "monotonic %lld", &value) != 1 ||
	    value != 3600)
		value = -1;
	fclose(f);
	if (value != 3600)
		return 4;
	if (nsctl_time_enter_children() < 0)
		return 5;
	/* Frozen once a process is in. */
	if (nsctl_time_offsets_write(0, 1, 1) != -EACCES)
		return 6;
	return 0;
}

static void test_time_offsets(void **state)
{
	in_child(0, offsets_body);
	assert_int_equal(nsctl_time_offsets_write(-1, 0, 0), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uts_name_check),
		cmocka_unit_test(test_propagation_set_bad),
		cmocka_unit_test(test_time_offset_check),
		cmocka_unit_test(test_loopback),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_proc_mount),
		cmocka_unit_test(test_time_offsets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
