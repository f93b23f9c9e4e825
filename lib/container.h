/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/container.c: which container a process is in, from its cgroup path in
 * each runtime's shape, then the runtime's own state on disk for the name.
 * Split out so that the parsers can be fuzzed and fed the shapes recorded from
 * the real runtimes (tests/fixtures/containers).
 */
#ifndef NSCTL_CONTAINER_H
#define NSCTL_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum container_runtime {
	CONTAINER_NONE = 0,
	CONTAINER_DOCKER = 1,
	CONTAINER_PODMAN = 2,
	CONTAINER_K8S = 3,  /* cri-containerd-ID.scope, or an ID under kubepods */
	CONTAINER_CRIO = 4, /* crio-ID.scope */
	CONTAINER_NSPAWN = 5,
	CONTAINER_LXC = 6,
};

#define CONTAINER_ID_LENGTH   64
#define CONTAINER_NAME_LENGTH 255

struct container_ref {
	enum container_runtime runtime;
	char id[CONTAINER_ID_LENGTH + 1];     /* 64 hex digits, or "" (nspawn, lxc) */
	char name[CONTAINER_NAME_LENGTH + 1]; /* from the path or the state; "" if unknown */
	uid_t user; /* the user whose own cgroups hold it (rootless podman), or (uid_t)-1 */
};

/*
 * The container of cgroup PATH ("/docker/ID", "/system.slice/docker-ID.scope",
 * ".../libpod-ID.scope/container", "/lxc.payload.NAME"...): 1 and *RET, or 0
 * where PATH is no runtime's.  The deepest component in a runtime's shape
 * decides.  Below a user's own cgroups (user@UID.service), which that user
 * may name as they like, only rootless podman's shape is taken.
 */
int container_from_cgroup_path(const char *path, struct container_ref *ret);

/*
 * The container of the process whose /proc/PID/cgroup is TEXT: its v2 path
 * first, then each v1 one.  1, 0 or -errno (a malformed line).  *RET_V2PATH
 * (may be NULL) is a copy of the v2 path, or NULL where there is none.
 */
int container_from_proc_cgroup(const char *text, struct container_ref *ret, char **ret_v2path);

/*
 * The name of REF from its runtime's state on disk (docker's config.v2.json,
 * podman's containers.json, the OCI bundle's annotations of Kubernetes),
 * read only from files root owns and no one else may write, and never for a
 * rootless container.  1 with REF->name set, 0 where none was found.
 */
int container_name_lookup(struct container_ref *ref);

/* The readers of the state files' text, NUL-terminated: 1 with NAME, 0, or -errno. */
int container_docker_name(const char *text, const char *id, char *name, size_t size);
int container_podman_name(const char *text, const char *id, char *name, size_t size);
/* CRIO: the keys CRI-O sets (io.kubernetes.pod.*); else containerd's (io.kubernetes.cri.*). */
int container_k8s_name(const char *text, bool crio, char *name, size_t size);

/* Whether A and B are one container: runtime, user, and ID, or name where there is no ID. */
bool container_same(const struct container_ref *a, const struct container_ref *b);

/*
 * "RUNTIME:NAME", or "RUNTIME:ID" with the ID's first 12 digits, or for a
 * rootless one "RUNTIME@UID:ID": the length, or -ENOBUFS.
 */
int container_format(const struct container_ref *ref, char *buf, size_t size);

#endif
