// SPDX-License-Identifier: GPL-2.0-or-later
/* The pins one call makes (pin, run, unshare), and taking back exactly those on failure. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "util.h"

void cli_pins_init(struct cli_pins *pins)
{
	/* The slots of the types the library knows, and no more: each is 384 bytes. */
	pins->made = pins->new_dirs = 0;
	pins->new_top_dir = false;
	type_foreach (t)
		nsctl_pin_made_init(&pins->held[t]);
}

void cli_pins_keep(struct cli_pins *pins)
{
	type_foreach (t)
		nsctl_pin_made_keep(&pins->held[t]);
	pins->made = 0;
}

static bool exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

int cli_pins_add(struct cli_pins *pins, enum nsctl_type type, int nsfd, const char *where,
		 bool is_name)
{
	char dir[PATH_MAX];
	int r;

	/*
	 * A NAME of a type other than net lives in /run/nsctl/TYPE, which the
	 * library makes when missing: note which this call will have made.  (The
	 * shared /run/netns stays, as iproute2 leaves it.)
	 */
	if (is_name && type != NSCTL_TYPE_NET && nsctl_pin_name_dir(type, dir, sizeof(dir)) > 0) {
		char *slash = strrchr(dir, '/');

		if (!exists(dir))
			pins->new_dirs |= NSCTL_TYPE_BIT(type);
		if (slash && slash != dir) {
			*slash = '\0';
			if (!exists(dir))
				pins->new_top_dir = true;
		}
	}
	r = nsctl_pin_create_undoable(nsfd, where, is_name ? NSCTL_PIN_BY_NAME : 0,
				      &pins->held[type]);
	if (r < 0)
		return r;
	/* 0: it was pinned there before this call, by someone else: never ours to take back. */
	if (r > 0)
		pins->made |= NSCTL_TYPE_BIT(type);
	return r;
}

void cli_pins_take_back(struct cli_pins *pins)
{
	_cleanup_close_ int dirfd = -1;
	char top[PATH_MAX];
	char *slash;

	/* By identity: a directory of the path swapped for a symlink sends nothing elsewhere. */
	type_foreach (t) {
		if (pins->made & NSCTL_TYPE_BIT(t))
			nsctl_pin_take_back(&pins->held[t]);
	}
	pins->made = 0;
	if (!pins->new_dirs && !pins->new_top_dir)
		return;
	/*
	 * The directories this call made, if still empty: one another call filled
	 * meanwhile is not empty and stays (rmdir refuses it), as does a mount.
	 */
	/* The types' directories share a parent, /run/nsctl: that of mnt's is theirs. */
	if (nsctl_pin_name_dir(NSCTL_TYPE_MNT, top, sizeof(top)) < 0 ||
	    !(slash = strrchr(top, '/')) || slash == top)
		return;
	*slash = '\0';
	dirfd = open(top, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dirfd < 0)
		return;
	type_foreach (t) {
		if (pins->new_dirs & NSCTL_TYPE_BIT(t))
			unlinkat(dirfd, nsctl_type_get(t)->name, AT_REMOVEDIR);
	}
	close_fdp(&dirfd);
	if (pins->new_top_dir && (slash = strrchr(top, '/'))) {
		*slash = '\0';
		dirfd =
		    open(slash == top ? "/" : top, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (dirfd >= 0)
			unlinkat(dirfd, slash + 1, AT_REMOVEDIR);
	}
	pins->new_dirs = 0;
	pins->new_top_dir = false;
}

const char *cli_pin_refusal(int err, enum nsctl_type type)
{
	if (type != NSCTL_TYPE_MNT)
		return NULL;
	if (err == -EXDEV)
		return "the directory is on a shared mount: a mount namespace pinned there would "
		       "pin itself through propagation; pin it under a NAME (/run/nsctl"
		       "/mnt/NAME) or in a directory on a private mount";
	if (err == -EINVAL)
		return "the kernel pins only mount namespaces newer than the caller's own";
	return NULL;
}
