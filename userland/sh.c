/*
 * sh.c - the project's small shell, on the test libc (tests/lib). It is the
 * shell of `make run` on MicroBlaze (no Debian userland there) and builds
 * for arm64 too. Teaching code: one screen per function, no job control.
 *
 *   sh               interactive on a terminal, else commands from stdin
 *   sh FILE [ARG]... commands from FILE
 *   sh -c 'COMMANDS'
 *
 * A line is pipelines separated by ';' (or ended by '&': in the
 * background). A pipeline is commands joined by '|'; a command is words
 * with redirections '< file', '> file', '>> file'. Words are split at
 * blanks; '...' quotes literally, "..." quotes but expands $, '\' escapes
 * one character, '#' starts a comment. $? is the status of the last
 * foreground pipeline, $$ the shell's pid, $NAME an environment variable.
 *
 * Builtins: echo, ls, cat, ps, mkdir, rmdir, rm, pwd, sleep, true, false,
 * help, cd, exit, wait. cd, exit and wait change the shell itself and run in it; the others
 * run in a child like any program, so they work in pipelines and with
 * redirections. Other names run as programs: /path, or found in $PATH
 * (default /bin).
 *
 * As pid 1 (the /init of `make run`), the shell first mounts a tmpfs on
 * /tmp, ignores its arguments (words of the kernel command line), and its
 * exit ends the boot with its status.
 */
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define LINE_MAX	1024	/* longest command line */
#define MAX_TOKENS	128	/* words and operators in one line */
#define MAX_ARGS	64	/* words of one command */
#define MAX_STAGES	8	/* commands in one pipeline */
#define MAX_JOBS	16	/* background pipelines at a time */

/* ---- system calls the test libc has no function for ---------------------- */

/* Linux's numbers (arm64 generic table, MicroBlaze's own), for the calls
 * sys/syscall.h does not list yet. */
#if defined(__aarch64__)
#define NR_getcwd 17
#define NR_chdir 49
#define NR_mkdirat 34
#define NR_unlinkat 35
#else
#define NR_getcwd 183
#define NR_chdir 12
#define NR_mkdirat 296
#define NR_unlinkat 301
#endif
#define AT_REMOVEDIR 0x200
#define TCGETS 0x5401
#define TCSETS 0x5402

/* Each returns what syscall() does: the result, or -1 with errno set. */
static int sh_chdir(const char *p) { return syscall(NR_chdir, (long)p); }
static int sh_mkdir(const char *p) { return syscall(NR_mkdirat, AT_FDCWD, (long)p, 0777); }
static int sh_unlink(const char *p, int flags) { return syscall(NR_unlinkat, AT_FDCWD, (long)p, flags); }
static int sh_getcwd(char *buf, size_t n) { return syscall(NR_getcwd, (long)buf, (long)n); }

/* getdents64's records. */
struct dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* struct termios as the kernel passes it (the same on arm64 and MicroBlaze). */
struct kernel_termios {
	unsigned iflag, oflag, cflag, lflag;
	unsigned char line, cc[19];
};
#define ISIG	0x1
#define ICANON	0x2
#define ECHO	0x8

/* ---- the shell's state ---------------------------------------------------- */

static int last_status;			/* $? */
static bool interactive;		/* stdin is a terminal: prompt, line editing */
static int input_fd;			/* where commands come from */
static pid_t jobs[MAX_JOBS];		/* background pipelines' last pids, 0 = free */
static struct kernel_termios saved_tty;	/* the terminal's settings outside line editing */

static void say_error(const char *what, const char *name)
{
	dprintf(2, "sh: %s%s%s\n", name ? name : "", name ? ": " : "", what);
}

/* ---- reading a line ------------------------------------------------------- */

/* Turn the terminal's own echo and line editing off (raw) or back on: the
 * shell echoes and edits while it reads a line, programs get the terminal
 * as it was. Kernels that ignore TCSETS leave it as it is, which is fine. */
static void tty_raw(bool raw)
{
	struct kernel_termios t = saved_tty;

	if (raw)
		t.lflag &= ~(ICANON | ECHO | ISIG);
	syscall(SYS_ioctl, 0, TCSETS, (long)&t);
}

/* Edit one line on the terminal: printable characters are echoed, Backspace
 * erases, Ctrl-U erases the line, Ctrl-C abandons it, escape sequences
 * (arrow keys) are skipped. Returns the length, or -1 on Ctrl-D at the start
 * of a line or end of input. buf holds a C string on return. */
static int edit_line(char *buf, int max)
{
	int len = 0, skip = 0;
	char c;

	for (;;) {
		if (read(input_fd, &c, 1) != 1)
			return len ? len : -1;
		if (skip) {		/* inside ESC [ ... final byte */
			skip = (c == '[' || (c >= '0' && c <= '9') || c == ';');
			continue;
		}
		if (c == '\r' || c == '\n') {
			write(1, "\n", 1);
			break;
		} else if (c == 0x7f || c == '\b') {
			if (len > 0) {
				len--;
				write(1, "\b \b", 3);
			}
		} else if (c == 0x15) {	/* Ctrl-U */
			for (; len > 0; len--)
				write(1, "\b \b", 3);
		} else if (c == 0x03) {	/* Ctrl-C */
			write(1, "^C\n", 3);
			len = 0;
			break;
		} else if (c == 0x04 && len == 0) {
			return -1;
		} else if (c == 0x1b) {
			skip = 1;
		} else if ((unsigned char)c >= 0x20 && len < max - 1) {
			buf[len++] = c;
			write(1, &c, 1);
		}
	}
	buf[len] = '\0';
	return len;
}

/* One line from a file or pipe, without its newline; -1 at the end. */
static int plain_line(char *buf, int max)
{
	int len = 0;
	char c;

	while (read(input_fd, &c, 1) == 1) {
		if (c == '\n') {
			buf[len] = '\0';
			return len;
		}
		if (len < max - 1)
			buf[len++] = c;
	}
	buf[len] = '\0';
	return len ? len : -1;
}

/* Print the prompt (interactive only) and read the next line; -1 at the end. */
static int read_line(char *buf, int max)
{
	char cwd[256];
	int n;

	if (!interactive)
		return plain_line(buf, max);
	if (sh_getcwd(cwd, sizeof(cwd)) < 0)
		strcpy(cwd, "?");
	/* raw before the prompt shows: a line typed as soon as it appears is
	 * echoed once, by edit_line(), not by the terminal as well */
	tty_raw(true);
	printf("teachos:%s# ", cwd);
	n = edit_line(buf, max);
	tty_raw(false);
	return n;
}

/* ---- words ---------------------------------------------------------------- */

enum tok { T_WORD, T_PIPE, T_IN, T_OUT, T_APPEND, T_AMP, T_SEMI };

struct tokens {
	enum tok kind[MAX_TOKENS];
	char *word[MAX_TOKENS];	/* for T_WORD */
	int n;
	char store[2 * LINE_MAX];	/* the words' characters */
	int used;
};

/* Append the value of the $-expression at *s (just after the '$') to the
 * current word; advances *s. An unknown variable expands to nothing. */
static void expand_dollar(struct tokens *t, const char **s)
{
	char name[64], num[16];
	const char *v = "";
	int n = 0;

	if (**s == '?' || **s == '$') {
		snprintf(num, sizeof(num), "%d", **s == '?' ? last_status : getpid());
		v = num;
		(*s)++;
	} else if ((**s >= 'A' && **s <= 'Z') || (**s >= 'a' && **s <= 'z') || **s == '_') {
		while (n < 63 && ((**s >= 'A' && **s <= 'Z') || (**s >= 'a' && **s <= 'z') ||
				  (**s >= '0' && **s <= '9') || **s == '_'))
			name[n++] = *(*s)++;
		name[n] = '\0';
		v = getenv(name) ? getenv(name) : "";
	} else {
		v = "$";
	}
	while (*v && t->used < (int)sizeof(t->store) - 1)
		t->store[t->used++] = *v++;
}

/* Read one word at *s (quotes, escapes, $) into the store; advances *s. */
static char *scan_word(struct tokens *t, const char **s)
{
	char *start = t->store + t->used, quote = 0;

	while (**s && t->used < (int)sizeof(t->store) - 1) {
		char c = **s;

		if (!quote && strchr(" \t|<>&;#", c))
			break;
		(*s)++;
		if (quote == '\'' ? c == '\'' : c == '"' && quote == '"')
			quote = 0;
		else if (!quote && (c == '\'' || c == '"'))
			quote = c;
		else if (c == '\\' && quote != '\'' && **s)
			t->store[t->used++] = *(*s)++;
		else if (c == '$' && quote != '\'')
			expand_dollar(t, s);
		else
			t->store[t->used++] = c;
	}
	t->store[t->used++] = '\0';
	return start;
}

/* Split the first pipeline of s (up to and with its ';' or '&') into words
 * and operators, expanding $ as it goes (so "false; echo $?" sees the
 * status of false). Returns where the rest of the line starts, or NULL
 * (after saying why) if the pipeline has too many tokens. */
static const char *tokenize(const char *s, struct tokens *t)
{
	t->n = t->used = 0;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '#')
			return s + strlen(s);
		if (t->n && (t->kind[t->n - 1] == T_SEMI || t->kind[t->n - 1] == T_AMP))
			return s;
		if (t->n == MAX_TOKENS) {
			say_error("line too long", NULL);
			return NULL;
		}
		enum tok k = T_WORD;

		if (*s == '|') k = T_PIPE;
		else if (*s == '<') k = T_IN;
		else if (*s == '>') k = s[1] == '>' ? T_APPEND : T_OUT;
		else if (*s == '&') k = T_AMP;
		else if (*s == ';') k = T_SEMI;
		t->kind[t->n] = k;
		if (k == T_WORD)
			t->word[t->n] = scan_word(t, &s);
		else
			s += k == T_APPEND ? 2 : 1;
		t->n++;
	}
}

/* ---- commands and pipelines ----------------------------------------------- */

struct command {
	char *argv[MAX_ARGS + 1];
	int argc;
	const char *in, *out;	/* redirections, or NULL */
	bool append;		/* out was ">>" */
};

struct pipeline {
	struct command cmd[MAX_STAGES];
	int n;
	bool background;
};

/* Parse tokens from *i up to ';', '&' or the end into p; advances *i past
 * the separator. Returns 0, or -1 after a syntax error message. */
static int parse_pipeline(struct tokens *t, int *i, struct pipeline *p)
{
	struct command *c;

	memset(p, 0, sizeof(*p));
	p->n = 1;
	c = &p->cmd[0];
	for (; *i < t->n; (*i)++) {
		enum tok k = t->kind[*i];

		if (k == T_SEMI || k == T_AMP) {
			p->background = k == T_AMP;
			(*i)++;
			break;
		} else if (k == T_WORD) {
			if (c->argc == MAX_ARGS)
				return say_error("too many words", NULL), -1;
			c->argv[c->argc++] = t->word[*i];
		} else if (k == T_PIPE) {
			if (c->argc == 0 || p->n == MAX_STAGES)
				return say_error("syntax error near '|'", NULL), -1;
			c = &p->cmd[p->n++];
		} else {	/* a redirection: the next token is its file */
			if (*i + 1 >= t->n || t->kind[*i + 1] != T_WORD)
				return say_error("syntax error: redirection without a file", NULL), -1;
			(*i)++;
			if (k == T_IN)
				c->in = t->word[*i];
			else
				c->out = t->word[*i], c->append = k == T_APPEND;
		}
	}
	if (c->argc == 0 && (p->n > 1 || c->in || c->out))
		return say_error("syntax error: missing command", NULL), -1;
	return 0;
}

/* ---- builtins that run in a child ----------------------------------------- */

static int b_echo(int argc, char **argv)
{
	int i = 1;
	bool newline = true;

	if (argc > 1 && strcmp(argv[1], "-n") == 0)
		newline = false, i++;
	for (; i < argc; i++)
		printf("%s%s", argv[i], i + 1 < argc ? " " : "");
	if (newline)
		printf("\n");
	return 0;
}

static int b_pwd(int argc, char **argv)
{
	char cwd[256];

	(void)argc; (void)argv;
	if (sh_getcwd(cwd, sizeof(cwd)) < 0)
		return say_error(strerror(errno), "pwd"), 1;
	printf("%s\n", cwd);
	return 0;
}

/* Copy fd to stdout; 0, or 1 after a message naming name. */
static int copy_out(int fd, const char *name)
{
	char buf[512];
	long n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (write(1, buf, n) != n)
			return say_error(strerror(errno), "cat: write"), 1;
	if (n < 0)
		return say_error(strerror(errno), name), 1;
	return 0;
}

static int b_cat(int argc, char **argv)
{
	int status = 0;

	if (argc == 1)
		return copy_out(0, "cat: stdin");
	for (int i = 1; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY);

		if (fd < 0) {
			say_error(strerror(errno), argv[i]);
			status = 1;
			continue;
		}
		status |= copy_out(fd, argv[i]);
		close(fd);
	}
	return status;
}

/* Call fn(name, type, arg) for each entry of directory fd but "." and "..";
 * 0, or -1 with errno set. */
static int each_entry(int fd, void (*fn)(const char *, int, void *), void *arg)
{
	static char buf[2048];
	long n;

	while ((n = syscall(SYS_getdents64, fd, (long)buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);

			if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
				fn(d->d_name, d->d_type, arg);
			off += d->d_reclen;
		}
	}
	return n < 0 ? -1 : 0;
}

/* The names ls collects to sort them. */
struct names {
	char *name[256];
	int n;
};

static void add_name(const char *name, int type, void *arg)
{
	struct names *l = arg;

	(void)type;
	if (l->n < 256 && name[0] != '.')
		l->name[l->n++] = strdup(name);
}

/* List one path: a directory's names, sorted, one per line; a file's name. */
static int ls_one(const char *path)
{
	struct names l = { .n = 0 };
	int fd = open(path, O_RDONLY | O_DIRECTORY);

	if (fd < 0 && errno == ENOTDIR)
		return printf("%s\n", path), 0;
	if (fd < 0)
		return say_error(strerror(errno), path), 1;
	if (each_entry(fd, add_name, &l) < 0) {
		say_error(strerror(errno), path);
		close(fd);
		return 1;
	}
	close(fd);
	for (int i = 1; i < l.n; i++)	/* insertion sort */
		for (int j = i; j > 0 && strcmp(l.name[j - 1], l.name[j]) > 0; j--) {
			char *x = l.name[j];

			l.name[j] = l.name[j - 1];
			l.name[j - 1] = x;
		}
	for (int i = 0; i < l.n; i++) {
		printf("%s\n", l.name[i]);
		free(l.name[i]);
	}
	return 0;
}

static int b_ls(int argc, char **argv)
{
	int status = 0;

	if (argc == 1)
		return ls_one(".");
	for (int i = 1; i < argc; i++) {
		if (argc > 2)
			printf("%s%s:\n", i > 1 ? "\n" : "", argv[i]);
		status |= ls_one(argv[i]);
	}
	return status;
}

/* ps: one line per process from /proc/<pid>/stat ("pid (name) state ppid ..."). */
static void ps_line(const char *name, int type, void *arg)
{
	char path[64], buf[256], *open_paren, *close_paren;
	int fd, pid, ppid = 0;
	char state = '?';
	long n;

	(void)type; (void)arg;
	if (name[0] < '0' || name[0] > '9')
		return;
	snprintf(path, sizeof(path), "/proc/%s/stat", name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	open_paren = strchr(buf, '(');
	close_paren = strrchr(buf, ')');
	if (!open_paren || !close_paren || close_paren[1] != ' ')
		return;
	*close_paren = '\0';
	pid = atoi(buf);
	state = close_paren[2];
	ppid = atoi(close_paren + 4);
	printf("%5d %5d %c %s\n", pid, ppid, state, open_paren + 1);
}

static int b_ps(int argc, char **argv)
{
	int fd = open("/proc", O_RDONLY | O_DIRECTORY);

	(void)argc; (void)argv;
	if (fd < 0)
		return say_error(strerror(errno), "/proc"), 1;
	printf("  PID  PPID S COMMAND\n");
	if (each_entry(fd, ps_line, NULL) < 0) {
		say_error(strerror(errno), "ps: /proc");
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}

/* mkdir, rmdir and rm: one call per argument; 1 if any failed. */
static int each_arg(int argc, char **argv, int (*fn)(const char *))
{
	int status = 0;

	if (argc == 1)
		return say_error("missing operand", argv[0]), 1;
	for (int i = 1; i < argc; i++) {
		if (fn(argv[i]) < 0) {
			say_error(strerror(errno), argv[i]);
			status = 1;
		}
	}
	return status;
}

static int b_sleep(int argc, char **argv)
{
	if (argc != 2)
		return say_error("usage: sleep SECONDS", NULL), 1;
	sleep((unsigned)atoi(argv[1]));
	return 0;
}

static int b_true(int argc, char **argv) { (void)argc; (void)argv; return 0; }
static int b_false(int argc, char **argv) { (void)argc; (void)argv; return 1; }

static int rm_file(const char *p) { return sh_unlink(p, 0); }
static int rm_dir(const char *p) { return sh_unlink(p, AT_REMOVEDIR); }
static int b_mkdir(int argc, char **argv) { return each_arg(argc, argv, sh_mkdir); }
static int b_rmdir(int argc, char **argv) { return each_arg(argc, argv, rm_dir); }
static int b_rm(int argc, char **argv) { return each_arg(argc, argv, rm_file); }
static int b_help(int argc, char **argv);

/* ---- builtins that change the shell ---------------------------------------- */

static int b_cd(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : getenv("HOME") ? getenv("HOME") : "/";

	if (sh_chdir(dir) < 0)
		return say_error(strerror(errno), dir), 1;
	return 0;
}

static int b_exit(int argc, char **argv)
{
	exit(argc > 1 ? atoi(argv[1]) : last_status);
}

static int status_of(int st);

/* wait: every background pipeline has ended; its status is the last one's. */
static int b_wait(int argc, char **argv)
{
	int st = 0, status = 0;

	(void)argc; (void)argv;
	for (int j = 0; j < MAX_JOBS; j++) {
		if (!jobs[j])
			continue;
		while (waitpid(jobs[j], &st, 0) < 0 && errno == EINTR)
			;
		status = status_of(st);
		jobs[j] = 0;
	}
	while (waitpid(-1, &st, 0) > 0 || errno == EINTR)	/* earlier stages too */
		;
	return status;
}

struct builtin {
	const char *name;
	int (*fn)(int argc, char **argv);
	bool in_shell;		/* changes the shell: runs in it, not in a child */
	const char *help;
};

static const struct builtin builtins[] = {
	{ "echo", b_echo, false, "echo [-n] WORD...: print the words" },
	{ "ls", b_ls, false, "ls [PATH]...: the names in directories" },
	{ "cat", b_cat, false, "cat [FILE]...: copy files (or stdin) to stdout" },
	{ "ps", b_ps, false, "ps: the processes in /proc" },
	{ "mkdir", b_mkdir, false, "mkdir DIR...: make directories" },
	{ "rmdir", b_rmdir, false, "rmdir DIR...: remove empty directories" },
	{ "rm", b_rm, false, "rm FILE...: remove files" },
	{ "pwd", b_pwd, false, "pwd: the working directory" },
	{ "sleep", b_sleep, false, "sleep N: wait N seconds" },
	{ "true", b_true, false, "true: status 0" },
	{ "false", b_false, false, "false: status 1" },
	{ "help", b_help, false, "help: this list" },
	{ "cd", b_cd, true, "cd [DIR]: change the working directory" },
	{ "exit", b_exit, true, "exit [N]: leave the shell with status N" },
	{ "wait", b_wait, true, "wait: wait for the background jobs" },
};
#define NBUILTINS (int)(sizeof(builtins) / sizeof(builtins[0]))

static int b_help(int argc, char **argv)
{
	(void)argc; (void)argv;
	for (int i = 0; i < NBUILTINS; i++)
		printf("  %s\n", builtins[i].help);
	printf("  other words run programs from $PATH; a | b, < f, > f, >> f, cmd &, $?\n");
	return 0;
}

static const struct builtin *find_builtin(const char *name)
{
	for (int i = 0; i < NBUILTINS; i++)
		if (strcmp(builtins[i].name, name) == 0)
			return &builtins[i];
	return NULL;
}

/* ---- running ---------------------------------------------------------------- */

/* A wait4 status as $? shows it: the exit code, or 128 + the signal. */
static int status_of(int st)
{
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
}

/* Open path onto fd (a redirection); false after a message. */
static bool redirect(const char *path, int flags, int fd)
{
	int f = open(path, flags, 0666);

	if (f < 0) {
		say_error(strerror(errno), path);
		return false;
	}
	if (f != fd) {
		dup2(f, fd);
		close(f);
	}
	return true;
}

/* Execute a program: argv[0] itself if it has a '/', else the first
 * $PATH directory (default /bin) that has it. Returns only on failure,
 * with the exit status a shell gives (127: not found, 126: not runnable). */
static int exec_program(char **argv)
{
	const char *path = getenv("PATH") ? getenv("PATH") : "/bin";
	char full[256];
	int err = ENOENT;

	if (strchr(argv[0], '/')) {
		execve(argv[0], argv, environ);
		err = errno;
	} else {
		while (*path) {
			int n = (int)strcspn(path, ":");

			snprintf(full, sizeof(full), "%.*s/%s", n, path, argv[0]);
			execve(full, argv, environ);
			if (errno != ENOENT)
				err = errno;
			path += n + (path[n] == ':');
		}
	}
	say_error(err == ENOENT ? "not found" : strerror(err), argv[0]);
	return err == ENOENT ? 127 : 126;
}

/* In a forked child: connect stdin/stdout (in_fd, out_fd: a pipe's ends or
 * -1), apply c's redirections, and run c. Never returns. */
static void __attribute__((noreturn)) run_child(struct command *c, int in_fd, int out_fd, bool background)
{
	const struct builtin *b;

	signal(SIGINT, background ? SIG_IGN : SIG_DFL);	/* as a shell without job control */
	signal(SIGQUIT, background ? SIG_IGN : SIG_DFL);
	if (in_fd >= 0) {
		dup2(in_fd, 0);
		close(in_fd);
	}
	if (out_fd >= 0) {
		dup2(out_fd, 1);
		close(out_fd);
	}
	if (c->in && !redirect(c->in, O_RDONLY, 0))
		_exit(1);
	if (c->out && !redirect(c->out, O_WRONLY | O_CREAT | (c->append ? O_APPEND : O_TRUNC), 1))
		_exit(1);
	b = find_builtin(c->argv[0]);
	c->argv[c->argc] = NULL;
	_exit(b ? b->fn(c->argc, c->argv) : exec_program(c->argv));
}

/* Remember a background pipeline (its last pid) and say its job number. */
static void add_job(pid_t pid)
{
	for (int j = 0; j < MAX_JOBS; j++) {
		if (!jobs[j]) {
			jobs[j] = pid;
			if (interactive)
				printf("[%d] %d\n", j + 1, pid);
			return;
		}
	}
	say_error("too many background jobs: waiting for this one", NULL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* Report background pipelines that have ended (before each prompt). */
static void reap_jobs(void)
{
	int st;

	for (int j = 0; j < MAX_JOBS; j++) {
		if (jobs[j] && waitpid(jobs[j], &st, WNOHANG) == jobs[j]) {
			if (interactive)
				printf("[%d] done, status %d\n", j + 1, status_of(st));
			jobs[j] = 0;
		}
	}
	while (waitpid(-1, &st, WNOHANG) > 0)	/* other stages of those pipelines */
		;
}

/* Wait for the foreground pids; the last one's status becomes $?. */
static void wait_foreground(pid_t *pids, int n)
{
	int st = 0;

	for (int i = 0; i < n; i++) {
		if (pids[i] <= 0)
			continue;
		while (waitpid(pids[i], &st, 0) < 0 && errno == EINTR)
			;
		if (i == n - 1)
			last_status = status_of(st);
	}
	if (WIFSIGNALED(st) && WTERMSIG(st) != SIGINT && WTERMSIG(st) != SIGPIPE)
		dprintf(2, "%s\n", strsignal(WTERMSIG(st)));
	else if (WIFSIGNALED(st))
		write(1, "\n", 1);
}

/* Start every command of p, each in a child, joined by pipes; wait for them
 * unless p runs in the background. */
static void run_pipeline(struct pipeline *p)
{
	pid_t pids[MAX_STAGES];
	int in_fd = -1, fds[2];

	for (int i = 0; i < p->n; i++) {
		fds[0] = fds[1] = -1;
		if (i + 1 < p->n && pipe(fds) < 0) {
			say_error(strerror(errno), "pipe");
			p->n = i;
			break;
		}
		pids[i] = fork();
		if (pids[i] == 0) {
			if (fds[0] >= 0)
				close(fds[0]);
			run_child(&p->cmd[i], in_fd, fds[1], p->background);
		}
		if (pids[i] < 0)
			say_error(strerror(errno), "fork");
		if (in_fd >= 0)
			close(in_fd);
		if (fds[1] >= 0)
			close(fds[1]);
		in_fd = fds[0];
	}
	if (in_fd >= 0)
		close(in_fd);
	if (p->n == 0)
		last_status = 1;
	else if (p->background)
		add_job(pids[p->n - 1]);
	else
		wait_foreground(pids, p->n);
}

/* Run one line: each pipeline in turn. */
static void run_line(const char *line)
{
	static struct tokens t;
	struct pipeline p;
	const struct builtin *b;
	int i;

	while (*line) {
		i = 0;
		line = tokenize(line, &t);
		if (!line || parse_pipeline(&t, &i, &p) < 0) {
			last_status = 2;
			return;
		}
		if (p.cmd[0].argc == 0)
			continue;
		b = find_builtin(p.cmd[0].argv[0]);
		if (b && b->in_shell && p.n == 1 && !p.background)
			last_status = b->fn(p.cmd[0].argc, p.cmd[0].argv);
		else
			run_pipeline(&p);
	}
}

/* ---- start-up ----------------------------------------------------------------- */

/* As pid 1: what an init does before the shell (mount a tmpfs on /tmp). */
static void init_duties(void)
{
	static char *env[] = { "PATH=/bin", "HOME=/", NULL };

	if (mount("tmpfs", "/tmp", "tmpfs", 0, NULL) < 0)
		dprintf(2, "sh: mounting a tmpfs on /tmp: %s\n", strerror(errno));
	if (!getenv("PATH"))
		environ = env;
	printf("teachos sh: 'help' lists the builtins; 'exit' ends the boot\n");
}

int main(int argc, char **argv)
{
	static char line[LINE_MAX];

	if (getpid() == 1) {
		init_duties();
		argc = 1;	/* words of the kernel command line: not a script to run */
	}
	if (argc > 2 && strcmp(argv[1], "-c") == 0) {
		run_line(argv[2]);
		return last_status;
	}
	if (argc > 1 && (input_fd = open(argv[1], O_RDONLY)) < 0) {
		say_error(strerror(errno), argv[1]);
		return 127;
	}
	interactive = argc == 1 && syscall(SYS_ioctl, 0, TCGETS, (long)&saved_tty) == 0;
	if (interactive) {
		signal(SIGINT, SIG_IGN);	/* Ctrl-C ends the foreground program, not us */
		signal(SIGQUIT, SIG_IGN);
	}
	for (;;) {
		reap_jobs();
		if (read_line(line, sizeof(line)) < 0)
			break;
		run_line(line);
	}
	if (interactive)
		printf("exit\n");
	return last_status;
}
