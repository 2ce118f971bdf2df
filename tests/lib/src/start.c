/* start.c - from the kernel's initial stack to main(). */
#include <stdlib.h>
#include <unistd.h>
#include <sys/auxv.h>
#include "libc.h"

char **environ;
unsigned long *__auxv;
int errno;

int main(int argc, char **argv, char **envp);
void __libc_start(long *sp);

/* Called by _start with the initial stack pointer:
 *   sp[0] = argc, sp[1..argc] = argv, NULL, envp..., NULL, auxv pairs, AT_NULL.
 */
void __libc_start(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);
	char **envp = argv + argc + 1;
	char **p = envp;

	while (*p)
		p++;
	__auxv = (unsigned long *)(p + 1);
	environ = envp;
	exit(main(argc, argv, envp));
}

unsigned long getauxval(unsigned long type)
{
	for (unsigned long *a = __auxv; a && a[0] != AT_NULL; a += 2)
		if (a[0] == type)
			return a[1];
	errno = ENOENT;
	return 0;
}
