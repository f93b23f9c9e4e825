// SPDX-License-Identifier: GPL-2.0-or-later
/* Test tool: exec PROGRAM with argc == 0 (an empty argv), as a hostile caller can. */
#include <stdio.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	char *empty[] = { NULL };

	if (argc != 2) {
		fputs("usage: exec-empty-argv PROGRAM\n", stderr);
		return 2;
	}
	execve(argv[1], empty, environ);
	perror(argv[1]);
	return 127;
}
