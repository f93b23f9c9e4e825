// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Which container a process is in (lib/container.h).  The cgroup shapes are
 * those the runtimes made when they were run here (docker.io 20.10 and
 * podman 4.3 with the cgroupfs driver, lxc 5.0: tests/fixtures/containers),
 * and those their systemd drivers make (a scope named after the container).
 * Nothing here asks a daemon or opens a socket: state is read from files.
 */
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "container.h"
#include "copier.h"
#include "internal.h"
#include "jsonc.h"
#include "number.h"

/* A state file larger than this is no runtime's: not read. */
#define STATE_SIZE_MAX (16u << 20)

/* Components of a cgroup path looked at, from the deepest. */
#define PATH_COMPONENTS_MAX 64

static bool is_hex_id(const char *s, size_t n)
{
	if (n != CONTAINER_ID_LENGTH)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* Component C (N bytes) is PREFIX, a 64-digit ID, SUFFIX: the ID into ID. */
static bool id_between(const char *c, size_t n, const char *prefix, const char *suffix, char *id)
{
	size_t p = strlen(prefix), s = strlen(suffix);

	if (n != p + CONTAINER_ID_LENGTH + s || memcmp(c, prefix, p) != 0 ||
	    memcmp(c + p + CONTAINER_ID_LENGTH, suffix, s) != 0 ||
	    !is_hex_id(c + p, CONTAINER_ID_LENGTH))
		return false;
	memcpy(id, c + p, CONTAINER_ID_LENGTH);
	id[CONTAINER_ID_LENGTH] = '\0';
	return true;
}

/*
 * A name as the runtimes allow them (docker's [a-zA-Z0-9][a-zA-Z0-9_.-]*,
 * Kubernetes' DNS labels, lxc's and machined's): letters, digits and "_.-+@"
 * only, so that no byte of it means anything to a terminal or a shell, and
 * none is the ':' after a runtime's word.
 */
static bool name_ok(const char *s, size_t n)
{
	if (n == 0 || n > CONTAINER_NAME_LENGTH)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == '-' || c == '+' || c == '@'))
			return false;
	}
	return true;
}

static bool name_set(char *name, const char *s, size_t n)
{
	if (!name_ok(s, n))
		return false;
	memcpy(name, s, n);
	name[n] = '\0';
	return true;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* A systemd unit name's part S (N bytes), its "\xNN" escapes undone (machine-a\x2db.scope). */
static bool unit_name_set(char *name, const char *s, size_t n)
{
	char out[CONTAINER_NAME_LENGTH + 1];
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		if (o == CONTAINER_NAME_LENGTH)
			return false;
		if (s[i] != '\\') {
			out[o++] = s[i];
			continue;
		}
		if (n - i < 4 || s[i + 1] != 'x' || hex_value(s[i + 2]) < 0 ||
		    hex_value(s[i + 3]) < 0)
			return false;
		out[o++] = (char)(hex_value(s[i + 2]) * 16 + hex_value(s[i + 3]));
		i += 3;
	}
	return name_set(name, out, o);
}

static bool has_prefix(const char *c, size_t n, const char *prefix)
{
	size_t p = strlen(prefix);

	return n >= p && memcmp(c, prefix, p) == 0;
}

static bool has_suffix(const char *c, size_t n, const char *suffix)
{
	size_t s = strlen(suffix);

	return n >= s && memcmp(c + n - s, suffix, s) == 0;
}

/* A component of a cgroup path, and the length of its name. */
struct component {
	const char *name;
	size_t length;
};

static bool is(const struct component *c, const char *name)
{
	return c && c->length == strlen(name) && memcmp(c->name, name, c->length) == 0;
}

/*
 * The runtime whose shape component C has, below PARENT and above NEXT (each
 * NULL where there is none): its ID or name into REF.
 */
static enum container_runtime component_match(const struct component *c,
					      const struct component *parent,
					      const struct component *next, bool under_kubepods,
					      struct container_ref *ref)
{
	const char *s = c->name;
	size_t n = c->length;

	if (id_between(s, n, "docker-", ".scope", ref->id) ||
	    (is(parent, "docker") && id_between(s, n, "", "", ref->id)))
		return CONTAINER_DOCKER;
	if (id_between(s, n, "libpod-", ".scope", ref->id) ||
	    id_between(s, n, "libpod-", "", ref->id))
		return CONTAINER_PODMAN;
	if (id_between(s, n, "cri-containerd-", ".scope", ref->id))
		return CONTAINER_K8S;
	if (id_between(s, n, "crio-", ".scope", ref->id) || id_between(s, n, "crio-", "", ref->id))
		return CONTAINER_CRIO;
	if (under_kubepods && id_between(s, n, "", "", ref->id))
		return CONTAINER_K8S;
	/*
	 * systemd-nspawn's scope holds its payload and its supervisor apart; a
	 * virtual machine of libvirt's, in a machine-NAME.scope too, has no payload.
	 */
	if (has_prefix(s, n, "machine-") && has_suffix(s, n, ".scope") && is(next, "payload") &&
	    unit_name_set(ref->name, s + 8, n - 8 - 6))
		return CONTAINER_NSPAWN;
	if (has_prefix(s, n, "lxc.payload.") && name_set(ref->name, s + 12, n - 12))
		return CONTAINER_LXC;
	return CONTAINER_NONE;
}

/* Component C is "user@UID.service": UID. */
static bool user_service(const struct component *c, uid_t *ret_uid)
{
	uint64_t uid;

	if (!has_prefix(c->name, c->length, "user@") ||
	    !has_suffix(c->name, c->length, ".service") || c->length < 5 + 8 ||
	    number_parse_length(c->name + 5, c->length - 5 - 8, UINT32_MAX - 1, 0, &uid) < 0)
		return false;
	*ret_uid = (uid_t)uid;
	return true;
}

/*
 * container_from_cgroup_path() on PATH's first LENGTH bytes.  From the top:
 * the outermost container is the one that owns the process, and whatever is
 * below it is named by whoever is in it (a tenant's nested shapes); below
 * the outermost user@UID.service, by that user.
 */
static int from_path(const char *path, size_t length, struct container_ref *ret)
{
	struct component c[PATH_COMPONENTS_MAX];
	size_t n = 0;
	uid_t user = (uid_t)-1;
	bool under_kubepods = false;

	for (size_t i = 0; i < length && n < PATH_COMPONENTS_MAX;) {
		size_t j = i;

		while (j < length && path[j] != '/')
			j++;
		if (j > i)
			c[n++] = (struct component){ path + i, j - i };
		i = j + 1;
	}
	for (size_t i = 0; i < n; i++) {
		struct container_ref ref = { .user = (uid_t)-1 };
		enum container_runtime runtime;

		if (user == (uid_t)-1 && user_service(&c[i], &user))
			continue;
		runtime = component_match(&c[i], i ? &c[i - 1] : NULL, i + 1 < n ? &c[i + 1] : NULL,
					  under_kubepods, &ref);
		under_kubepods |= has_prefix(c[i].name, c[i].length, "kubepods");
		if (runtime == CONTAINER_NONE)
			continue;
		/* In a user's own cgroups, only rootless podman is a container, and that user's. */
		if (user != (uid_t)-1 && runtime != CONTAINER_PODMAN)
			return 0;
		ref.runtime = runtime;
		ref.user = user;
		*ret = ref;
		return 1;
	}
	return 0;
}

bool container_same(const struct container_ref *a, const struct container_ref *b)
{
	return a->runtime == b->runtime && a->user == b->user && strcmp(a->id, b->id) == 0 &&
	       (a->id[0] || strcmp(a->name, b->name) == 0);
}

int container_from_cgroup_path(const char *path, struct container_ref *ret)
{
	if (!path || !ret)
		return -EINVAL;
	return from_path(path, strlen(path), ret);
}

int container_from_proc_cgroup(const char *text, struct container_ref *ret, char **ret_v2path)
{
	int found = 0;

	if (ret_v2path)
		*ret_v2path = NULL;
	/* Two passes: the v2 line, then the v1 ones ("N:CONTROLLERS:/PATH"). */
	for (int pass = 0; pass < 2 && !found; pass++) {
		for (const char *line = text; *line;) {
			const char *end = strchrnul(line, '\n'),
				   *colon = memchr(line, ':', end - line);
			const char *path = colon ? memchr(colon + 1, ':', end - colon - 1) : NULL;
			bool v2;

			if (!path)
				return -EINVAL;
			path++;
			v2 = colon - line == 1 && line[0] == '0' && path == colon + 2;
			if (v2 == (pass == 0) && path < end && path[0] == '/') {
				if (v2 && ret_v2path && !*ret_v2path) {
					*ret_v2path = strndup(path, (size_t)(end - path));
					if (!*ret_v2path)
						return -ENOMEM;
				}
				found = from_path(path, (size_t)(end - path), ret);
				if (found)
					break;
			}
			line = *end ? end + 1 : end;
		}
	}
	return found;
}

/* The text of state file PATH, if root owns it and only root may write it: 0 or -errno. */
static int state_read(const char *path, char **ret_text)
{
	_cleanup_close_ int fd = -1;
	struct stat st;

	/* Non-blocking, and no symlink followed: whatever sits there is not waited on. */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return negative_errno();
	if (fstat(fd, &st) < 0)
		return negative_errno();
	if (!S_ISREG(st.st_mode) || st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH)))
		return -EPERM;
	if ((unsigned long long)st.st_size > STATE_SIZE_MAX)
		return -EFBIG;
	return fd_read_all(fd, STATE_SIZE_MAX, ret_text, NULL);
}

/* OBJECT's member KEY, if OBJECT is an object and KEY a string in it; else NULL. */
static const char *member_string(struct json_object *object, const char *key, size_t *ret_length)
{
	struct json_object *value;

	if (!object || json_object_get_type(object) != json_type_object ||
	    !json_object_object_get_ex(object, key, &value) ||
	    json_object_get_type(value) != json_type_string)
		return NULL;
	*ret_length = (size_t)json_object_get_string_len(value);
	return json_object_get_string(value);
}

/* TEXT parsed, or NULL (and *RET_ERR set). */
static struct json_object *parse(const char *text, int *ret_err)
{
	enum json_tokener_error error;
	struct json_object *root;

	*ret_err = jsonc_load();
	if (*ret_err < 0)
		return NULL;
	root = json_tokener_parse_verbose(text, &error);
	if (!root)
		*ret_err = 0;
	return root;
}

int container_docker_name(const char *text, const char *id, char *name, size_t size)
{
	struct json_object *root;
	const char *got, *value;
	size_t length;
	int r;

	if (!text || !id || !name || size <= CONTAINER_NAME_LENGTH)
		return -EINVAL;
	root = parse(text, &r);
	if (!root)
		return r;
	/* config.v2.json: {"ID": "<64 hex>", "Name": "/web", "State": {...}, ...} */
	got = member_string(root, "ID", &length);
	value = got && length == strlen(id) && strcmp(got, id) == 0
		    ? member_string(root, "Name", &length)
		    : NULL;
	if (value && length > 1 && value[0] == '/') {
		value++;
		length--;
	}
	r = value && name_set(name, value, length) ? 1 : 0;
	json_object_put(root);
	return r;
}

int container_podman_name(const char *text, const char *id, char *name, size_t size)
{
	struct json_object *root;
	size_t count;
	int r = 0;

	if (!text || !id || !name || size <= CONTAINER_NAME_LENGTH)
		return -EINVAL;
	root = parse(text, &r);
	if (!root)
		return r;
	/* containers.json: [{"id": "<64 hex>", "names": ["web"], ...}, ...] */
	count = json_object_get_type(root) == json_type_array ? json_object_array_length(root) : 0;
	for (size_t i = 0; i < count && r == 0; i++) {
		struct json_object *container = json_object_array_get_idx(root, i), *names, *first;
		const char *got, *value;
		size_t length;

		got = member_string(container, "id", &length);
		if (!got || length != strlen(id) || strcmp(got, id) != 0)
			continue;
		if (!json_object_object_get_ex(container, "names", &names) ||
		    json_object_get_type(names) != json_type_array ||
		    json_object_array_length(names) == 0)
			break;
		first = json_object_array_get_idx(names, 0);
		if (json_object_get_type(first) != json_type_string)
			break;
		value = json_object_get_string(first);
		length = (size_t)json_object_get_string_len(first);
		r = name_set(name, value, length) ? 1 : 0;
		break;
	}
	json_object_put(root);
	return r;
}

/* Annotation KEY of ANNOTATIONS, as a name into OUT: true, or false. */
static bool annotation(struct json_object *annotations, const char *key, char *out)
{
	size_t length;
	const char *value = member_string(annotations, key, &length);

	return value && name_set(out, value, length);
}

int container_k8s_name(const char *text, bool crio, char *name, size_t size)
{
	/*
	 * The keys the runtime that wrote the file sets itself, and only those:
	 * a pod's author may put any other annotation in it (CRI-O copies the
	 * pod's own into its sandbox's file).
	 */
	static const char *const keys[2][3] = {
		{ "io.kubernetes.cri.sandbox-namespace", "io.kubernetes.cri.sandbox-name",
		  "io.kubernetes.cri.container-name" },
		{ "io.kubernetes.pod.namespace", "io.kubernetes.pod.name",
		  "io.kubernetes.container.name" },
	};
	char parts[3][CONTAINER_NAME_LENGTH + 1], whole[3 * (CONTAINER_NAME_LENGTH + 1)];
	struct json_object *root, *annotations;
	int r = 0, n;

	if (!text || !name || size <= CONTAINER_NAME_LENGTH)
		return -EINVAL;
	root = parse(text, &r);
	if (!root)
		return r;
	/* The OCI bundle's config.json: {"annotations": {"io.kubernetes...": "..."}, ...} */
	if (json_object_get_type(root) == json_type_object &&
	    json_object_object_get_ex(root, "annotations", &annotations) &&
	    annotation(annotations, keys[crio][0], parts[0]) &&
	    annotation(annotations, keys[crio][1], parts[1]) &&
	    annotation(annotations, keys[crio][2], parts[2])) {
		/* The whole name fits, or there is none: never a name cut short. */
		n = snprintf(whole, sizeof(whole), "%s/%s/%s", parts[0], parts[1], parts[2]);
		if (n > 0 && (size_t)n <= CONTAINER_NAME_LENGTH) {
			memcpy(name, whole, (size_t)n + 1);
			r = 1;
		}
	}
	json_object_put(root);
	return r;
}

/* The name of REF from state file PATH by READER: 1 or 0. */
static int lookup(struct container_ref *ref, const char *path,
		  int (*reader)(const char *text, const char *id, char *name, size_t size))
{
	_cleanup_free_ char *text = NULL;

	if (state_read(path, &text) < 0)
		return 0;
	return reader(text, ref->id, ref->name, sizeof(ref->name)) > 0;
}

static int containerd_reader(const char *text, const char *id, char *name, size_t size)
{
	(void)id;
	return container_k8s_name(text, false, name, size);
}

static int crio_reader(const char *text, const char *id, char *name, size_t size)
{
	(void)id;
	return container_k8s_name(text, true, name, size);
}

/*
 * A rootless podman container's name, from its user's own state: believed
 * for the containers in that user's own cgroups alone (REF->user's), and read
 * by the copier as that user reads it, so that nothing of the user's (a FUSE
 * mount in its home) makes the caller wait, and root's rights read nothing
 * the user could not.  1 or 0.
 */
static int rootless_lookup(struct container_ref *ref)
{
	static const char *const drivers[] = { "overlay", "vfs" };
	struct passwd pw, *found = NULL;
	char buffer[4096], path[PATH_MAX];

	if (getpwuid_r(ref->user, &pw, buffer, sizeof(buffer), &found) != 0 || !found ||
	    !pw.pw_dir || pw.pw_dir[0] != '/')
		return 0;
	for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++) {
		struct copier_request request = { .kind = COPIER_USER_FILE,
						  .fd = -1,
						  .type = -1,
						  .path = path,
						  .uid = ref->user,
						  .gid = pw.pw_gid };
		struct copier_answer answer;
		_cleanup_free_ char *text = NULL;
		int r;

		snprintf(path, sizeof(path),
			 "%s/.local/share/containers/storage/%s-containers/containers.json",
			 pw.pw_dir, drivers[i]);
		if (copier_run(&request, 1, &answer) < 0 || answer.err < 0 || answer.fd < 0)
			continue;
		r = lseek(answer.fd, 0, SEEK_SET) == 0
			? fd_read_all(answer.fd, STATE_SIZE_MAX, &text, NULL)
			: -errno;
		close(answer.fd);
		if (r >= 0 &&
		    container_podman_name(text, ref->id, ref->name, sizeof(ref->name)) > 0)
			return 1;
	}
	return 0;
}

int container_name_lookup(struct container_ref *ref)
{
	char path[256];

	if (ref->name[0])
		return 1;
	if (!is_hex_id(ref->id, strlen(ref->id)))
		return 0;
	/* A rootless container's state is its user's: read as that user, for that user's own. */
	if (ref->user != (uid_t)-1)
		return ref->runtime == CONTAINER_PODMAN ? rootless_lookup(ref) : 0;
	switch (ref->runtime) {
	case CONTAINER_DOCKER:
		snprintf(path, sizeof(path), "/var/lib/docker/containers/%s/config.v2.json",
			 ref->id);
		return lookup(ref, path, container_docker_name);
	case CONTAINER_PODMAN:
		return lookup(ref, "/var/lib/containers/storage/overlay-containers/containers.json",
			      container_podman_name) ||
		       lookup(ref, "/var/lib/containers/storage/vfs-containers/containers.json",
			      container_podman_name);
	case CONTAINER_K8S:
	case CONTAINER_CRIO:
		snprintf(path, sizeof(path),
			 "/run/containerd/io.containerd.runtime.v2.task/k8s.io/%s/config.json",
			 ref->id);
		if (ref->runtime == CONTAINER_K8S && lookup(ref, path, containerd_reader))
			return 1;
		snprintf(path, sizeof(path),
			 "/run/containers/storage/overlay-containers/%s/userdata/config.json",
			 ref->id);
		if (!lookup(ref, path, crio_reader))
			return 0;
		/* An ID under kubepods whose state is CRI-O's. */
		ref->runtime = CONTAINER_CRIO;
		return 1;
	default:
		return 0;
	}
}

int container_format(const struct container_ref *ref, char *buf, size_t size)
{
	static const char *const runtimes[] = {
		[CONTAINER_DOCKER] = "docker", [CONTAINER_PODMAN] = "podman",
		[CONTAINER_K8S] = "k8s",       [CONTAINER_CRIO] = "crio",
		[CONTAINER_NSPAWN] = "nspawn", [CONTAINER_LXC] = "lxc",
	};
	int n;

	if ((unsigned)ref->runtime >= sizeof(runtimes) / sizeof(runtimes[0]) ||
	    !runtimes[ref->runtime])
		return -EINVAL;
	/* A rootless container is its user's: "podman@UID:...", never one of another user's. */
	if (ref->user != (uid_t)-1 && ref->name[0])
		n = snprintf(buf, size, "%s@%u:%s", runtimes[ref->runtime], (unsigned)ref->user,
			     ref->name);
	else if (ref->user != (uid_t)-1)
		n = snprintf(buf, size, "%s@%u:%.12s", runtimes[ref->runtime], (unsigned)ref->user,
			     ref->id);
	else if (ref->name[0])
		n = snprintf(buf, size, "%s:%s", runtimes[ref->runtime], ref->name);
	else
		n = snprintf(buf, size, "%s:%.12s", runtimes[ref->runtime], ref->id);
	if (n < 0)
		return -EINVAL;
	return (size_t)n >= size ? -ENOBUFS : n;
}
