// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/nshash.c: the (dev, ino) table behind listing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <cmocka.h>

#include "internal.h"

static void test_empty(void **state)
{
	struct ns_hash hash = { 0 };

	assert_null(ns_hash_get(&hash, 1, 2));
	assert_null(ns_hash_get(NULL, 1, 2));
	ns_hash_clear(&hash);
}

static void test_put_get(void **state)
{
	struct ns_hash hash = { 0 };
	int a, b, c;

	assert_int_equal(ns_hash_put(&hash, 4, 4026531840u, &a), 0);
	assert_int_equal(ns_hash_put(&hash, 4, 4026531841u, &b), 0);
	/* The same inode on another device is another namespace. */
	assert_int_equal(ns_hash_put(&hash, 5, 4026531840u, &c), 0);
	assert_ptr_equal(ns_hash_get(&hash, 4, 4026531840u), &a);
	assert_ptr_equal(ns_hash_get(&hash, 4, 4026531841u), &b);
	assert_ptr_equal(ns_hash_get(&hash, 5, 4026531840u), &c);
	assert_null(ns_hash_get(&hash, 4, 4026531842u));
	assert_int_equal(ns_hash_put(&hash, 4, 4026531840u, &c), -EEXIST);
	assert_ptr_equal(ns_hash_get(&hash, 4, 4026531840u), &a);
	assert_int_equal(ns_hash_put(&hash, 4, 1, NULL), -EINVAL);
	assert_int_equal(ns_hash_put(NULL, 4, 1, &a), -EINVAL);
	assert_int_equal(hash.used, 3);
	ns_hash_clear(&hash);
	assert_null(ns_hash_get(&hash, 4, 4026531840u));
}

static void test_growth(void **state)
{
	static char values[100000];
	struct ns_hash hash = { 0 };

	/* Consecutive inodes, as the kernel hands them out, through many resizes. */
	for (size_t i = 0; i < sizeof(values); i++)
		assert_int_equal(ns_hash_put(&hash, 4, 4026531840u + i, &values[i]), 0);
	assert_true(hash.used * 2 <= hash.size);
	for (size_t i = 0; i < sizeof(values); i++)
		assert_ptr_equal(ns_hash_get(&hash, 4, 4026531840u + i), &values[i]);
	assert_null(ns_hash_get(&hash, 4, 4026531840u + sizeof(values)));
	assert_null(ns_hash_get(&hash, 3, 4026531840u));
	ns_hash_clear(&hash);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_put_get),
		cmocka_unit_test(test_growth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
