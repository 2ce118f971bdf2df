/* unistd.h */
#ifndef _UNISTD_H
#define _UNISTD_H
#include <bits/types.h>

#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define _SC_PAGESIZE 30
#define _SC_PAGE_SIZE _SC_PAGESIZE

extern char **environ;

ssize_t read(int fd, void *buf, size_t n);
ssize_t write(int fd, const void *buf, size_t n);
int close(int fd);
off_t lseek(int fd, off_t off, int whence);
int pipe(int fds[2]);
int pipe2(int fds[2], int flags);
int dup2(int oldfd, int newfd);
__attribute__((noreturn)) void _exit(int status);
pid_t fork(void);
int execve(const char *path, char *const argv[], char *const envp[]);
int execv(const char *path, char *const argv[]);
pid_t getpid(void);
pid_t getppid(void);
pid_t gettid(void);
uid_t getuid(void);
int setuid(uid_t uid);
int brk(void *addr);
void *sbrk(intptr_t increment);
long sysconf(int name);
int getpagesize(void);
unsigned int sleep(unsigned int seconds);
unsigned int alarm(unsigned int seconds);
int usleep(unsigned int usec);
long syscall(long number, ...);
/* process groups, sessions, the terminal's foreground group, ids (src/proc.c) */
int setpgid(pid_t pid, pid_t pgid);
pid_t getpgid(pid_t pid);
pid_t getpgrp(void);
pid_t setsid(void);
pid_t getsid(pid_t pid);
pid_t tcgetpgrp(int fd);
uid_t geteuid(void);
gid_t getgid(void);
gid_t getegid(void);
int setgid(gid_t gid);
int setreuid(uid_t r, uid_t e);
int setregid(gid_t r, gid_t e);
int setresuid(uid_t r, uid_t e, uid_t s);
int setresgid(gid_t r, gid_t e, gid_t s);
int getresuid(uid_t *r, uid_t *e, uid_t *s);
int getresgid(gid_t *r, gid_t *e, gid_t *s);
int getgroups(int size, gid_t list[]);
int tcsetpgrp(int fd, pid_t pgrp);

#endif
