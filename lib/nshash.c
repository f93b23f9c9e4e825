// SPDX-License-Identifier: LGPL-2.1-or-later
/* A hash table of namespaces keyed by (dev, ino), so that listing costs O(1) per lookup. */
#include <stdlib.h>

#include "internal.h"

static size_t slot_of(const struct ns_hash *hash, dev_t dev, ino_t ino)
{
	/* Namespace inodes are allocated in sequence: mix the bits so neighbours spread. */
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ull ^ (uint64_t)dev * 0xc2b2ae3d27d4eb4full;

	h ^= h >> 29;
	return (size_t)h & (hash->size - 1);
}

static struct ns_hash_slot *find(const struct ns_hash *hash, dev_t dev, ino_t ino)
{
	if (hash->size == 0)
		return NULL;
	for (size_t i = slot_of(hash, dev, ino);; i = (i + 1) & (hash->size - 1)) {
		struct ns_hash_slot *slot = &hash->slots[i];

		if (!slot->value || (slot->dev == dev && slot->ino == ino))
			return slot;
	}
}

static int grow(struct ns_hash *hash)
{
	size_t size = hash->size ? hash->size * 2 : 256;
	struct ns_hash bigger = { .size = size };

	if (size < hash->size)
		return -ENOMEM;
	bigger.slots = calloc(size, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -ENOMEM;
	for (size_t i = 0; i < hash->size; i++) {
		const struct ns_hash_slot *old = &hash->slots[i];

		if (old->value)
			*find(&bigger, old->dev, old->ino) = *old;
	}
	bigger.used = hash->used;
	free(hash->slots);
	*hash = bigger;
	return 0;
}

int ns_hash_put(struct ns_hash *hash, dev_t dev, ino_t ino, void *value)
{
	struct ns_hash_slot *slot;
	int r;

	if (!hash || !value)
		return -EINVAL;
	/* At most half full: probe sequences stay short. */
	if ((hash->used + 1) * 2 > hash->size) {
		r = grow(hash);
		if (r < 0)
			return r;
	}
	slot = find(hash, dev, ino);
	if (slot->value)
		return -EEXIST;
	*slot = (struct ns_hash_slot){ .dev = dev, .ino = ino, .value = value };
	hash->used++;
	return 0;
}

void *ns_hash_get(const struct ns_hash *hash, dev_t dev, ino_t ino)
{
	struct ns_hash_slot *slot = hash ? find(hash, dev, ino) : NULL;

	return slot ? slot->value : NULL;
}

void ns_hash_clear(struct ns_hash *hash)
{
	free(hash->slots);
	*hash = (struct ns_hash){ 0 };
}
