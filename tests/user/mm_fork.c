/* mm_fork.c - address spaces across fork and exec: private memory is
 * copy-on-write (each side's writes stay its own), MAP_SHARED anonymous
 * memory stays shared both ways, MADV_DONTFORK areas are absent from the
 * child, MADV_WIPEONFORK and MAP_DROPPABLE areas are zero there, seals are
 * inherited (MS-40) and end at exec (MS-41).
 *
 * Children never print: each one reports through its exit status (0 when
 * every check passed, else the number of the first that failed).
 *
 * Rows not tested here: MS-41 CONFIG_MSEAL_SYSTEM_MAPPINGS (not in 6.12).
 */
#include "mm_util.h"

/* Block until the other side writes a byte. */
static void wait_for(int fd)
{
	char c;

	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
}

static void tell(int fd)
{
	write(fd, "x", 1);
}

static void test_private(void)
{
	char *p = anon(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, 0);
	int to_child[2], to_parent[2], st;
	pid_t pid;

	memset(p, 'P', 2 * PAGE);
	pipe(to_child);
	pipe(to_parent);
	pid = fork();
	if (pid == 0) {
		if (!all_bytes(p, 2 * PAGE, 'P'))
			_exit(1);
		wait_for(to_child[0]);		/* the parent has written 'Q' */
		if (!all_bytes(p, 2 * PAGE, 'P'))
			_exit(2);
		memset(p, 'C', PAGE);
		madvise(p + PAGE, PAGE, MADV_DONTNEED);
		if (!all_bytes(p, PAGE, 'C') || !all_bytes(p + PAGE, PAGE, 0))
			_exit(3);
		tell(to_parent[1]);
		wait_for(to_child[0]);		/* the parent has unmapped its copy */
		_exit(all_bytes(p, PAGE, 'C') ? 0 : 4);
	}
	memset(p, 'Q', PAGE);
	tell(to_child[1]);
	wait_for(to_parent[0]);
	tap_ok(all_bytes(p, PAGE, 'Q') && all_bytes(p + PAGE, PAGE, 'P'),
	       "private memory after fork: the child's writes and MADV_DONTNEED do not reach the parent");
	munmap(p, 2 * PAGE);
	tell(to_child[1]);
	st = child_status(pid);
	tap_ok(st == 0, "private memory after fork: the parent's writes and munmap do not reach the child (status %d)",
	       st);
	close(to_child[0]);
	close(to_child[1]);
	close(to_parent[0]);
	close(to_parent[1]);
}

static void test_shared(void)
{
	char *s = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int to_child[2], to_parent[2], st;
	pid_t pid;

	memset(s, 'T', PAGE);	/* the second page is left untouched before the fork */
	pipe(to_child);
	pipe(to_parent);
	pid = fork();
	if (pid == 0) {
		if (!all_bytes(s, PAGE, 'T'))
			_exit(1);
		tell(to_parent[1]);
		wait_for(to_child[0]);
		if (!all_bytes(s, PAGE, 'U'))
			_exit(2);
		memset(s + PAGE, 'V', PAGE);
		s[0] = 'W';
		_exit(0);
	}
	wait_for(to_parent[0]);
	memset(s, 'U', PAGE);
	tell(to_child[1]);
	st = child_status(pid);
	tap_ok(st == 0, "MAP_SHARED anonymous memory: the child sees the parent's later writes (status %d)", st);
	tap_ok(s[0] == 'W' && all_bytes(s + 1, PAGE - 1, 'U') && all_bytes(s + PAGE, PAGE, 'V'),
	       "MAP_SHARED anonymous memory: the parent sees the child's writes, also to a page first touched there");
	munmap(s, 2 * PAGE);
	close(to_child[0]);
	close(to_child[1]);
	close(to_parent[0]);
	close(to_parent[1]);
}

static void test_fork_flags(void)
{
	char *d = anon(NULL, PAGE, PROT_READ | PROT_WRITE, 0);
	char *w = anon(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, 0);
	char *dr = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_DROPPABLE | MAP_ANONYMOUS, -1, 0);
	pid_t pid;
	int st;

	memset(d, 'D', PAGE);
	memset(w, 'W', 2 * PAGE);
	memset(dr, 'R', PAGE);
	tap_ok(madvise(d, PAGE, MADV_DONTFORK) == 0 && madvise(w, PAGE, MADV_WIPEONFORK) == 0,
	       "MADV_DONTFORK and MADV_WIPEONFORK: 0");
	pid = fork();
	if (pid == 0) {
		if (can_read(d) || probe_sig != SIGSEGV)
			_exit(1);
		if (strcmp(shape(d, d + PAGE), "hole:1") != 0)
			_exit(2);
		if (!all_bytes(w, PAGE, 0) || !all_bytes(w + PAGE, PAGE, 'W'))
			_exit(3);
		memset(w, 'X', PAGE);
		if (!all_bytes(w, PAGE, 'X'))
			_exit(4);
		if (!all_bytes(dr, PAGE, 0))
			_exit(5);
		_exit(0);
	}
	st = child_status(pid);
	tap_ok(st != 1 && st != 2, "MS-40: a MADV_DONTFORK area is absent from the child (SIGSEGV, no maps line) (status %d)",
	       st);
	tap_ok(st != 3 && st != 4 && st != 1 && st != 2,
	       "MADV_WIPEONFORK: that page is zero in the child (and writable), the rest is copied (status %d)", st);
	tap_ok(st == 0, "MAP_DROPPABLE memory is zero in the child (status %d)", st);
	tap_ok(all_bytes(d, PAGE, 'D') && all_bytes(w, 2 * PAGE, 'W') && all_bytes(dr, PAGE, 'R'),
	       "the parent keeps all three");
	munmap(d, PAGE);
	munmap(w, 2 * PAGE);
	munmap(dr, PAGE);
}

static void test_seal(void)
{
	char *p = anon(NULL, PAGE, PROT_READ | PROT_WRITE, 0);
	char arg[32];
	pid_t pid;
	int st;

	memset(p, 'S', PAGE);
	tap_ok(do_mseal(p, PAGE, 0) == 0, "mseal of one page");
	pid = fork();
	if (pid == 0) {
		if (vm_flag(p, "sl") != 1)
			_exit(1);
		if (munmap(p, PAGE) != -1 || errno != EPERM)
			_exit(2);
		if (mprotect(p, PAGE, PROT_READ) != -1 || errno != EPERM)
			_exit(3);
		p[0] = 'c';	/* the contents are not sealed: copy-on-write as usual */
		_exit(all_bytes(p + 1, PAGE - 1, 'S') && p[0] == 'c' ? 0 : 4);
	}
	st = child_status(pid);
	tap_ok(st == 0, "MS-40: the seal is inherited by a fork child (\"sl\", munmap/mprotect EPERM) (status %d)", st);
	tap_ok(all_bytes(p, PAGE, 'S'), "the child's write to its copy stays in the child");

	snprintf(arg, sizeof(arg), "%lx", (unsigned long)p);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { "/bin/mm_fork", "exec-check", arg, NULL };

		execve(argv[0], argv, environ);
		_exit(100);
	}
	st = child_status(pid);
	tap_ok(st == 0, "MS-41: after execve nothing is sealed: the address can be mapped and unmapped (status %d)", st);
}

/* The execve'd image of test_seal(): nothing sealed, addr usable. */
static int exec_check(const char *addr_hex)
{
	char *p = (char *)strtoul(addr_hex, NULL, 16);

	if (read_proc("/proc/self/smaps") < 0)
		return 1;
	if (strstr(mm_procbuf, " sl\n") || strstr(mm_procbuf, " sl "))
		return 2;
	if (anon(p, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED) != p)
		return 3;
	p[0] = 1;
	if (munmap(p, PAGE) != 0)
		return 4;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "exec-check") == 0)
		return exec_check(argv[2]);
	tap_init();
	probe_init();
	test_private();
	test_shared();
	test_fork_flags();
	test_seal();
	return tap_done();
}
