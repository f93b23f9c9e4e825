// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/version.c: the library tells its own version, the project's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <ctype.h>
#include <string.h>
#include <cmocka.h>

#include "nsctl.h"

static void test_library_version_is_the_projects(void **state)
{
	const char *version = nsctl_library_version();

	assert_non_null(version);
	/* meson.build passes its project version to this test as to the library. */
	assert_string_equal(version, PROJECT_VERSION);
	/* The header of the same tree says the same. */
	assert_string_equal(version, NSCTL_VERSION);
	/* A static string: the same pointer every time, nothing to free. */
	assert_ptr_equal(nsctl_library_version(), version);
}

static void test_library_version_is_major_minor_patch(void **state)
{
	const char *p = nsctl_library_version();

	for (int part = 0; part < 3; part++) {
		assert_true(isdigit((unsigned char)*p));
		while (isdigit((unsigned char)*p))
			p++;
		if (part < 2)
			assert_int_equal(*p++, '.');
	}
	assert_int_equal(*p, '\0');
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_library_version_is_the_projects),
		cmocka_unit_test(test_library_version_is_major_minor_patch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
