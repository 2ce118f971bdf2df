/* sys/wait.h - status encoding as Linux's wait4() reports it:
 * exit:   (code & 0xff) << 8          signal: signo (| 0x80 for a core dump)
 * stopped: (signo << 8) | 0x7f        continued: 0xffff
 */
#ifndef _SYS_WAIT_H
#define _SYS_WAIT_H
#include <bits/types.h>

#define WNOHANG    1
#define WUNTRACED  2
#define WCONTINUED 8

#define WEXITSTATUS(s) (((s) & 0xff00) >> 8)
#define WTERMSIG(s)    ((s) & 0x7f)
#define WSTOPSIG(s)    WEXITSTATUS(s)
#define WCOREDUMP(s)   ((s) & 0x80)
#define WIFEXITED(s)   (WTERMSIG(s) == 0)
#define WIFSIGNALED(s) (WTERMSIG(s) != 0 && WTERMSIG(s) != 0x7f)
#define WIFSTOPPED(s)  (((s) & 0xff) == 0x7f)
#define WIFCONTINUED(s) ((s) == 0xffff)

struct rusage;
pid_t wait(int *status);
pid_t waitpid(pid_t pid, int *status, int options);
pid_t wait4(pid_t pid, int *status, int options, struct rusage *ru);

#endif
