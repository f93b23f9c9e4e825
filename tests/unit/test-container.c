// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Which container a process is in (lib/container.c), from what the real
 * runtimes left behind (tests/fixtures/containers) and from the shapes of
 * their systemd drivers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "container.h"

#define DOCKER_ID "f0844588486dee9eb73fdeeb0e5640e090c7d6936eb30b666b6e4c817d5da916"
#define PODMAN_ID "150a5eac4e25c3defbb3eb15bfc27f4aa86710572daf972dfcc9ddcf97160ae2"
#define POD_CTR   "03f3177ff57eae9f5ae403e409ff9e0501cec8186d749497f6b75872c3747630"
#define ANY_ID    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

/* The text of fixture NAME, NUL-terminated (freed by the caller). */
static char *fixture(const char *name)
{
	char path[512];
	FILE *f;
	char *text;
	long size;

	snprintf(path, sizeof(path), "%s/%s", FIXTURES, name);
	f = fopen(path, "re");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	assert_true(size > 0);
	rewind(f);
	text = calloc(1, (size_t)size + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	return text;
}

/* The container fixture DIR's cgroup shows, formatted, or "" for none. */
static const char *of_cgroup(const char *dir, struct container_ref *ref)
{
	static char formatted[300];
	char name[64], *text, *v2 = NULL;
	int r;

	snprintf(name, sizeof(name), "%s/cgroup", dir);
	text = fixture(name);
	r = container_from_proc_cgroup(text, ref, &v2);
	free(text);
	assert_true(r >= 0);
	/* Every fixture has a v2 line. */
	assert_non_null(v2);
	free(v2);
	if (r == 0)
		return "";
	assert_true(container_format(ref, formatted, sizeof(formatted)) > 0);
	return formatted;
}

static void test_docker(void **state)
{
	struct container_ref ref;
	char *text = fixture("docker/config.v2.json");

	assert_string_equal(of_cgroup("docker", &ref), "docker:f0844588486d");
	assert_string_equal(ref.id, DOCKER_ID);
	assert_int_equal(container_docker_name(text, ref.id, ref.name, sizeof(ref.name)), 1);
	assert_string_equal(ref.name, "web");
	assert_string_equal(of_cgroup("docker", &ref), "docker:f0844588486d");
	/* Another container's file names no one. */
	assert_int_equal(container_docker_name(text, ANY_ID, ref.name, sizeof(ref.name)), 0);
	free(text);
}

static void test_podman(void **state)
{
	struct container_ref ref;
	char *text = fixture("podman/containers.json"),
	     *pod = fixture("podman-pod/containers.json");

	assert_string_equal(of_cgroup("podman", &ref), "podman:150a5eac4e25");
	assert_string_equal(ref.id, PODMAN_ID);
	assert_int_equal(container_podman_name(text, ref.id, ref.name, sizeof(ref.name)), 1);
	assert_string_equal(ref.name, "web");
	/* In a pod: the container's own cgroup is below the pod's, and it decides. */
	assert_string_equal(of_cgroup("podman-pod", &ref), "podman:03f3177ff57e");
	assert_string_equal(ref.id, POD_CTR);
	assert_int_equal(container_podman_name(pod, ref.id, ref.name, sizeof(ref.name)), 1);
	assert_string_equal(ref.name, "pweb");
	assert_int_equal(container_podman_name(pod, ANY_ID, ref.name, sizeof(ref.name)), 0);
	free(text);
	free(pod);
}

static void test_lxc_and_the_unrecognised(void **state)
{
	struct container_ref ref;

	assert_string_equal(of_cgroup("lxc", &ref), "lxc:web");
	/* Paths nothing marks as a container's (runc's, crun's, ctr's, nspawn's /payload). */
	assert_string_equal(of_cgroup("runc", &ref), "");
	assert_string_equal(of_cgroup("crun", &ref), "");
	assert_string_equal(of_cgroup("containerd", &ref), "");
	assert_string_equal(of_cgroup("nspawn", &ref), "");
	assert_string_equal(of_cgroup("podman-rootless", &ref), "");
}

#define CRI_KEYS                                                                                   \
	"{\"annotations\": {\"io.kubernetes.cri.sandbox-name\": \"p\", "                           \
	"\"io.kubernetes.cri.sandbox-namespace\": \"n\", \"io.kubernetes.cri.container-name\": "   \
	"\"c\"}}"

static void test_k8s_annotations(void **state)
{
	char name[CONTAINER_NAME_LENGTH + 1], *text = fixture("containerd/config.json"), *big;
	size_t length = 1000;

	/* CRI-O's keys (the fixture's, written through ctr labels). */
	assert_int_equal(container_k8s_name(text, true, name, sizeof(name)), 1);
	assert_string_equal(name, "myns/mypod/web");
	assert_int_equal(container_k8s_name(CRI_KEYS, false, name, sizeof(name)), 1);
	assert_string_equal(name, "n/p/c");
	/*
	 * Only the keys of the runtime whose file it is: a pod's own annotations,
	 * which CRI-O copies into its sandbox's file, name nothing there.
	 */
	name[0] = '\0';
	assert_int_equal(container_k8s_name(CRI_KEYS, true, name, sizeof(name)), 0);
	assert_int_equal(container_k8s_name(text, false, name, sizeof(name)), 0);
	assert_string_equal(name, "");
	/* Two of three are not a name. */
	assert_int_equal(container_k8s_name("{\"annotations\": {\"io.kubernetes.pod.name\": \"p\", "
					    "\"io.kubernetes.container.name\": \"c\"}}",
					    true, name, sizeof(name)),
			 0);
	/* A name too long as a whole is none, never one cut short. */
	big = malloc(length);
	assert_non_null(big);
	snprintf(big, length,
		 "{\"annotations\": {\"io.kubernetes.pod.namespace\": \"n\", "
		 "\"io.kubernetes.pod.name\": "
		 "\"%0253d\", \"io.kubernetes.container.name\": \"c\"}}",
		 0);
	assert_int_equal(container_k8s_name(big, true, name, sizeof(name)), 0);
	assert_string_equal(name, "");
	free(big);
	free(text);
}

/* A path's container, formatted, or "" for none. */
static const char *of_path(const char *path, struct container_ref *ref)
{
	static char formatted[300];

	memset(ref, 0, sizeof(*ref));
	if (container_from_cgroup_path(path, ref) != 1)
		return "";
	assert_true(container_format(ref, formatted, sizeof(formatted)) > 0);
	return formatted;
}

/* The systemd drivers' scopes, each named after its container. */
static void test_systemd_shapes(void **state)
{
	struct container_ref ref;

	assert_string_equal(of_path("/system.slice/docker-" ANY_ID ".scope", &ref),
			    "docker:0123456789ab");
	assert_string_equal(of_path("/machine.slice/libpod-" ANY_ID ".scope/container", &ref),
			    "podman:0123456789ab");
	assert_int_equal(ref.user, (uid_t)-1);
	assert_string_equal(of_path("/kubepods.slice/kubepods-besteffort.slice/"
				    "kubepods-besteffort-pod1234.slice/cri-containerd-" ANY_ID
				    ".scope",
				    &ref),
			    "k8s:0123456789ab");
	assert_string_equal(of_path("/kubepods/besteffort/pod1234/" ANY_ID, &ref),
			    "k8s:0123456789ab");
	assert_string_equal(of_path("/kubepods.slice/crio-" ANY_ID ".scope", &ref),
			    "crio:0123456789ab");
	assert_string_equal(of_path("/machine.slice/machine-my\\x2dbox.scope/payload", &ref),
			    "nspawn:my-box");
	/* A rootless container, in its user's own cgroups, is that user's. */
	assert_string_equal(of_path("/user.slice/user-1000.slice/user@1000.service/user.slice/"
				    "libpod-" ANY_ID ".scope",
				    &ref),
			    "podman@1000:0123456789ab");
	assert_int_equal(ref.user, 1000);
	assert_int_equal(container_name_lookup(&ref), 0);
}

/*
 * The outermost container owns a process: what is below it, its tenant names.
 * Two users' containers of one ID are two containers.
 */
static void test_outermost(void **state)
{
	struct container_ref a, b;

	assert_string_equal(of_path("/lxc.payload.tenant/lxc.payload.db", &a), "lxc:tenant");
	assert_string_equal(of_path("/lxc.payload.tenant/system.slice/docker-" ANY_ID ".scope", &a),
			    "lxc:tenant");
	assert_string_equal(
	    of_path("/machine.slice/machine-tenant.scope/payload/lxc.payload.db", &a),
	    "nspawn:tenant");
	assert_string_equal(of_path("/docker/" ANY_ID "/docker/" ANY_ID, &a),
			    "docker:0123456789ab");
	/* Below the outermost user@UID.service, that user names even a deeper user@0.service. */
	assert_string_equal(of_path("/user.slice/user-1001.slice/user@1001.service/user@0.service/"
				    "libpod-" ANY_ID ".scope",
				    &a),
			    "podman@1001:0123456789ab");
	assert_string_equal(
	    of_path("/user.slice/user-1000.slice/user@1000.service/libpod-" ANY_ID ".scope", &b),
	    "podman@1000:0123456789ab");
	assert_false(container_same(&a, &b));
	of_path("/user.slice/user-1001.slice/user@1001.service/libpod-" ANY_ID ".scope", &b);
	assert_true(container_same(&a, &b));
	/* A virtual machine's scope has no payload: not a container. */
	assert_string_equal(
	    of_path("/machine.slice/machine-qemu\\x2d1\\x2dvm1.scope/libvirt/emulator", &a), "");
	assert_string_equal(of_path("/machine.slice/machine-web.scope", &a), "");
	/* A name has no ':', which would read as a runtime's word. */
	assert_string_equal(of_path("/lxc.payload.a:b", &a), "");
}

/* What a user could name its own cgroups, or a runtime would never write. */
static void test_refused_shapes(void **state)
{
	struct container_ref ref;

	/* A root runtime's shape in a user's own cgroups is that user's naming, not a container. */
	assert_string_equal(
	    of_path("/user.slice/user-1000.slice/user@1000.service/docker-" ANY_ID ".scope", &ref),
	    "");
	assert_string_equal(
	    of_path("/user.slice/user-1000.slice/user@1000.service/lxc.payload.web", &ref), "");
	assert_string_equal(of_path("/docker/" ANY_ID "0", &ref), "");
	assert_string_equal(
	    of_path("/docker/0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789"
		    "abcdef",
		    &ref),
	    "");
	assert_string_equal(of_path("/" ANY_ID, &ref), "");
	assert_string_equal(of_path("/lxc.payload.we$b", &ref), "");
	assert_string_equal(of_path("/lxc.payload.", &ref), "");
	assert_string_equal(of_path("/machine.slice/machine-a\\x1bb.scope", &ref), "");
	assert_string_equal(of_path("/machine.slice/machine-a\\x2.scope", &ref), "");
	assert_string_equal(of_path("/", &ref), "");
	assert_string_equal(of_path("", &ref), "");
}

static void test_bad_state(void **state)
{
	char name[CONTAINER_NAME_LENGTH + 1];

	assert_int_equal(container_docker_name("{", ANY_ID, name, sizeof(name)), 0);
	assert_int_equal(container_docker_name("[]", ANY_ID, name, sizeof(name)), 0);
	/* A name that would reach a terminal with an escape in it is none. */
	assert_int_equal(container_docker_name("{\"ID\": \"" ANY_ID
					       "\", \"Name\": \"/w\\u001b[2J\"}",
					       ANY_ID, name, sizeof(name)),
			 0);
	assert_int_equal(container_docker_name("{\"ID\": \"" ANY_ID "\", \"Name\": \"/\"}", ANY_ID,
					       name, sizeof(name)),
			 0);
	assert_int_equal(container_podman_name("[{\"id\": \"" ANY_ID "\", \"names\": []}]", ANY_ID,
					       name, sizeof(name)),
			 0);
	assert_int_equal(container_podman_name("[{\"id\": \"" ANY_ID "\", \"names\": [7]}]", ANY_ID,
					       name, sizeof(name)),
			 0);
	assert_int_equal(
	    container_podman_name("{\"id\": \"" ANY_ID "\"}", ANY_ID, name, sizeof(name)), 0);
	assert_int_equal(container_docker_name("{}", ANY_ID, name, 8), -EINVAL);
	assert_int_equal(container_from_proc_cgroup("garbage", &(struct container_ref){ 0 }, NULL),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_docker),
		cmocka_unit_test(test_podman),
		cmocka_unit_test(test_lxc_and_the_unrecognised),
		cmocka_unit_test(test_k8s_annotations),
		cmocka_unit_test(test_systemd_shapes),
		cmocka_unit_test(test_outermost),
		cmocka_unit_test(test_refused_shapes),
		cmocka_unit_test(test_bad_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
