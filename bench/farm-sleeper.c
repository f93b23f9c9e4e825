// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What each process of bench/farm runs: it says it is in place (one byte on
 * fd 3, which farm hands it) and sleeps until it is killed.  A program of
 * its own, exec'd, so that the farm's processes share no memory with farm
 * (see farm.c); linked statically where it can be, so that they share no
 * library pages either.
 */
#include <unistd.h>

int main(void)
{
	char c = 'r';

	if (write(3, &c, 1) != 1)
		return 1;
	close(3);
	for (;;)
		pause();
}
