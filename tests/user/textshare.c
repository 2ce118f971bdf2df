/* textshare.c - a program's text is mapped from the page cache, so every
 * process running it shares the same physical text pages: this program
 * reads the frame number of its own text page from /proc/self/pagemap,
 * then runs itself again (fork + execve, not a fork's copy of the page
 * tables) and compares the frame the new process sees. Linux 6.12 shares
 * text the same way; pagemap shows frame numbers to root.
 */
#include "mm_util.h"

#define PM_PRESENT	(1ULL << 63)
#define PM_FILE		(1ULL << 61)
#define PM_PFN		((1ULL << 55) - 1)

/* The pagemap entry of the page holding addr (0 if it cannot be read). */
static unsigned long long entry_of(const void *addr)
{
	unsigned long long e = 0, off = (unsigned long long)((unsigned long)addr / PAGE) * 8;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0)
		return 0;
#if defined(__aarch64__)
	if (lseek(fd, (off_t)off, SEEK_SET) != (off_t)off || read(fd, &e, 8) != 8)
		e = 0;
#else
	{
		long long res = 0;

		if (syscall(140 /* _llseek */, fd, (unsigned long)(off >> 32), (unsigned long)off, &res, SEEK_SET) != 0 ||
		    read(fd, &e, 8) != 8)
			e = 0;
	}
#endif
	close(fd);
	return e;
}

/* The text page this function lies in: code that runs is present. */
static __attribute__((noinline)) unsigned long long my_text_entry(void)
{
	return entry_of((const void *)my_text_entry);
}

/* The re-executed copy: write its text entry to the pipe fd named in argv. */
static int child_main(const char *fd_text)
{
	unsigned long long e = my_text_entry();
	int fd = atoi(fd_text);

	return write(fd, &e, sizeof(e)) == (ssize_t)sizeof(e) ? 0 : 1;
}

int main(int argc, char **argv)
{
	unsigned long long mine, theirs = 0;
	int p[2], status = -1;
	char fd_text[16];
	pid_t pid;

	if (argc == 3 && strcmp(argv[1], "child") == 0)
		return child_main(argv[2]);
	tap_init();
	mine = my_text_entry();
	tap_ok((mine & PM_PRESENT) && (mine & PM_FILE) && (mine & PM_PFN),
	       "the running text page is present, file-backed, with a frame number (0x%llx)", mine);
	if (pipe(p) != 0) {
		tap_ok(0, "pipe");
		return tap_done();
	}
	snprintf(fd_text, sizeof(fd_text), "%d", p[1]);
	pid = fork();
	if (pid == 0) {
		char *args[] = { "textshare", "child", fd_text, NULL };

		close(p[0]);
		execve("/bin/textshare", args, environ);
		_exit(127);
	}
	close(p[1]);
	if (read(p[0], &theirs, sizeof(theirs)) != (ssize_t)sizeof(theirs))
		theirs = 0;
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the program ran again (status 0x%x)", status);
	tap_ok((theirs & PM_PFN) == (mine & PM_PFN) && (theirs & PM_PRESENT),
	       "a second process running it uses the same physical text page (frame 0x%llx and 0x%llx)",
	       mine & PM_PFN, theirs & PM_PFN);
	return tap_done();
}
