// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The options of nsctl run and nsctl unshare checked against the system, once
 * create_options_parse() has read them as plain values: user and group names
 * looked up (NSS), the caller's IDs and subordinate IDs made into maps,
 * --into-cgroup opened, pin files looked at.  Nothing is created here.
 */
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "create-options.h"
#include "number.h"
#include "util.h"

static void map_add(struct nsctl_idmap *map, const char *option, const char *text,
		    const struct nsctl_idmap_range *range)
{
	int r = nsctl_idmap_add(map, range);

	if (r == -EEXIST)
		cli_usage_error("%s '%s': overlaps a range already mapped", option, text);
	if (r == -E2BIG || r == -ENOBUFS)
		cli_usage_error("%s '%s': more than %d ranges, or more than a page of text", option,
				text, MAP_RANGES_MAX);
	if (r == -ERANGE)
		cli_usage_error("%s '%s': the range must be 1 ID or more and end below 4294967295",
				option, text);
	if (r < 0)
		cli_usage_error("%s '%s': %s", option, text, strerror(-r));
}

/*
 * The uid (GROUP false) or gid map of the options, empty on first use.  The
 * ranges, 4 KB a map, live here rather than in the options: on the stack they
 * would push everything below them onto fresh pages, a fault each on every
 * start, for command lines that have no map at all.
 */
static struct nsctl_idmap *map_of(struct create_options *o, bool group)
{
	static struct nsctl_idmap_range ranges[2][MAP_RANGES_MAX];
	static struct nsctl_idmap maps[2];
	struct nsctl_idmap **map = group ? &o->gids : &o->uids;

	if (!*map) {
		*map = &maps[group];
		**map = (struct nsctl_idmap)NSCTL_IDMAP_INIT(ranges[group], MAP_RANGES_MAX);
	}
	return *map;
}

static void map_add_one(struct nsctl_idmap *map, const char *option, uint32_t inner, uint32_t outer)
{
	struct nsctl_idmap_range range = { inner, outer, 1 };
	char text[32];

	snprintf(text, sizeof(text), "%u:%u:1", inner, outer);
	map_add(map, option, text, &range);
}

/*
 * The ranges of /etc/subuid (GROUP false) or /etc/subgid delegated to the
 * caller, "NAME:START:COUNT" or "UID:START:COUNT" as shadow writes them (both
 * files are keyed by the user, subgid too), in the file's order, into RANGES
 * (at most MAX) as START..COUNT outside: how many, or -errno.
 */
static int read_subids(bool group, struct nsctl_idmap_range *ranges, size_t max)
{
	const char *file = group ? "/etc/subgid" : "/etc/subuid";
	_cleanup_fclose_ FILE *f = fopen(file, "re");
	_cleanup_free_ char *line = NULL;
	struct passwd *pw = getpwuid(geteuid());
	char uid_text[16];
	size_t size = 0, n = 0;

	if (!f)
		return negative_errno();
	snprintf(uid_text, sizeof(uid_text), "%u", (unsigned)geteuid());
	while (n < max && getline(&line, &size, f) > 0) {
		char *owner = line, *start, *count;
		uint64_t first, length;

		line[strcspn(line, "\n")] = '\0';
		start = strchr(owner, ':');
		count = start ? strchr(start + 1, ':') : NULL;
		if (!count)
			continue;
		*start++ = '\0';
		*count++ = '\0';
		if (strcmp(owner, uid_text) != 0 && !(pw && strcmp(owner, pw->pw_name) == 0))
			continue;
		/* START:COUNT, leading zeros allowed; the range must end below 4294967295. */
		if (number_parse(start, UINT32_MAX, NUMBER_LEADING_ZEROS, &first) < 0 ||
		    number_parse(count, UINT32_MAX - 1, NUMBER_LEADING_ZEROS | NUMBER_NOT_ZERO,
				 &length) < 0 ||
		    first + length >= UINT32_MAX)
			continue;
		ranges[n++] = (struct nsctl_idmap_range){ 0, (uint32_t)first, (uint32_t)length };
	}
	return (int)n;
}

/*
 * RANGE into MAP, less the inner ID a single mapping there already takes
 * (the caller's, with -r): the IDs above it go on outside where those below
 * it stopped, and the range loses its last ID, as util-linux maps
 * "--map-auto -r": root to the caller, the subordinate range from 1.
 */
static void map_add_around_single(struct nsctl_idmap *map, const char *option, const char *text,
				  struct nsctl_idmap_range range)
{
	for (size_t i = 0; i < map->n; i++) {
		const struct nsctl_idmap_range *single = &map->ranges[i];
		struct nsctl_idmap_range below, above;

		if (single->count != 1 || single->inner < range.inner ||
		    single->inner - range.inner >= range.count)
			continue;
		below = (struct nsctl_idmap_range){ range.inner, range.outer,
						    single->inner - range.inner };
		above = (struct nsctl_idmap_range){ single->inner + 1, range.outer + below.count,
						    range.count - below.count - 1 };
		if (below.count)
			map_add(map, option, text, &below);
		if (above.count)
			map_add(map, option, text, &above);
		return;
	}
	map_add(map, option, text, &range);
}

/*
 * --map-users=auto|subids, --map-groups=auto|subids, --map-auto,
 * --map-subids, --map-root-subids: the caller's subordinate IDs, as REQUEST
 * says (its first range or every one; from its INNER, or each to itself).
 */
static void map_add_subids(struct nsctl_idmap *map, const struct map_request *request)
{
	const char *file = request->group ? "/etc/subgid" : "/etc/subuid";
	struct nsctl_idmap_range ranges[MAP_RANGES_MAX];
	uint32_t inner = request->inner;
	char text[80];
	int n = read_subids(request->group, ranges, request->every_range ? MAP_RANGES_MAX : 1);

	if (n == 0)
		cli_usage_error("%s: %s has no range for user %u", request->option, file,
				(unsigned)geteuid());
	if (n < 0)
		cli_usage_error("%s: %s: %s", request->option, file, strerror(-n));
	for (int i = 0; i < n; i++) {
		ranges[i].inner = request->identity ? ranges[i].outer : inner;
		snprintf(text, sizeof(text), "%s, %u:%u:%u", file, ranges[i].inner, ranges[i].outer,
			 ranges[i].count);
		if (!request->identity && (uint64_t)inner + ranges[i].count >= UINT32_MAX)
			cli_usage_error("%s '%s': the ranges reach 4294967295 inside",
					request->option, text);
		map_add_around_single(map, request->option, text, ranges[i]);
		inner += ranges[i].count;
	}
}

/* Whether the directory a new file PATH would be made in exists. */
static bool parent_is_directory(const char *path)
{
	char dir[PATH_MAX];
	struct stat st;

	if (!strchr(path, '/'))
		return true;
	return path_split(path, dir, sizeof(dir)) && stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

static void replace_stale_pin(enum nsctl_type type, const char *name, const char *path)
{
	int r = nsctl_pin_stale_remove(type, name);

	if (r > 0)
		cli_warn(0, "%s: a stale pin (an empty file, no namespace mounted on it): replaced",
			 path);
	if (r < 0)
		cli_usage_error("--%s='%s': cannot remove the stale pin %s: %s",
				cli_type_option(type), name, path, strerror(-r));
}

/* One map option: its ranges, added to the uid or gid map as the kernel would take them. */
static void build_map(struct create_options *o, const struct map_request *request)
{
	struct nsctl_idmap *map = map_of(o, request->group);
	uint32_t own = request->group ? getegid() : geteuid();
	uint32_t inner = request->inner;

	switch (request->source) {
	case MAP_RANGE:
		map_add(map, request->option, request->text, &request->range);
		break;
	case MAP_SUBIDS:
		map_add_subids(map, request);
		break;
	case MAP_CALLER:
		if (request->inner_is_caller)
			inner = own;
		else if (request->text)
			inner = cli_parse_id(request->option, request->text, request->group);
		map_add_one(map, request->option, inner, own);
		break;
	}
}

/* The pin files of --TYPE=FILE: new files, in directories that exist. */
static void check_pins(const struct create_options *o)
{
	type_foreach (t) {
		struct stat st;

		/* A stale pin NAME (an empty file left by a reboot) is replaced, as nsctl pin does.
		 */
		if (o->pin_names[t])
			replace_stale_pin(t, o->pin_names[t], o->pins[t]);
		/* A pin is a new file: checked now, so that nothing is made for a pin that cannot
		 * be. */
		if (o->pins[t] && lstat(o->pins[t], &st) == 0)
			cli_usage_error("--%s='%s': the file exists (a pin makes a new one)",
					cli_type_option(t), o->pins[t]);
		if (o->pins[t] && errno != ENOENT)
			cli_usage_error("--%s='%s': %s", cli_type_option(t), o->pins[t],
					strerror(errno));
		/* A NAME's directory is made with the pin, as nsctl pin makes it. */
		if (o->pins[t] && !o->pin_names[t] && !parent_is_directory(o->pins[t]))
			cli_usage_error("--%s='%s': no such directory to make the pin in",
					cli_type_option(t), o->pins[t]);
	}
}

void create_options_check(struct create_options *o)
{
	/* Subordinate IDs last, in order: their ranges make room for a single ID (-r). */
	for (size_t i = 0; i < o->n_map_requests; i++)
		if (o->map_requests[i].source != MAP_SUBIDS)
			build_map(o, &o->map_requests[i]);
	for (size_t i = 0; i < o->n_map_requests; i++)
		if (o->map_requests[i].source == MAP_SUBIDS)
			build_map(o, &o->map_requests[i]);
	if (o->uid_text) {
		o->uid = cli_parse_id("--setuid", o->uid_text, false);
		o->has_uid = true;
	}
	if (o->gid_text) {
		o->gid = cli_parse_id("--setgid", o->gid_text, true);
		o->has_gid = true;
	}
	if (o->cgroup_dir) {
		o->cgroup_fd = nsctl_cgroup_open(o->cgroup_dir);
		if (o->cgroup_fd == -EMEDIUMTYPE)
			cli_usage_error("--into-cgroup '%s': not a cgroup v2 directory",
					o->cgroup_dir);
		if (o->cgroup_fd < 0)
			cli_usage_error("--into-cgroup '%s': %s", o->cgroup_dir,
					strerror(-o->cgroup_fd));
	}
	check_pins(o);
}
