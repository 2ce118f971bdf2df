/* hello.c - the smallest program: write to stdout and exit 0.
 * The first thing a new kernel should run (and the glibc-static sanity
 * check on Linux).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"

int main(int argc, char **argv)
{
	static const char msg[] = "hello, world\n";

	tap_init();
	tap_is_long(write(1, msg, strlen(msg)), (long)strlen(msg), "write() of a %zu-byte string", strlen(msg));
	tap_ok(argc >= 1 && argv[0] && argv[argc] == NULL, "argv has argc entries and ends with NULL (argv[0] = %s)",
	       argc >= 1 && argv[0] ? argv[0] : "(none)");
	printf("# printf works: %d %s %x\n", 42, "text", 0xbeef);
	return tap_done();
}
