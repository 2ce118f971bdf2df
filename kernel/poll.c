/*
 * poll.c - ppoll and pselect6 (and their _time64 forms on 32-bit arches):
 * wait until descriptors are ready, a timeout passes or a signal comes,
 * optionally with a temporary signal mask, as Linux does.
 *
 * Readiness comes from each file's poll operation (a file without one is
 * always readable and writable, as Linux treats regular files). A waiting
 * process sleeps on poll_chan; wakeup() of any channel also wakes it
 * (proc.c), so every event that could make a file ready makes it look again.
 */
#include "syscall.h"
#include "proc.h"
#include "vfs.h"
#include "uaccess.h"
#include "errno.h"
#include "kstring.h"
#include "ktime.h"
#include "poll.h"

const char poll_chan;

unsigned file_poll(struct file *f)
{
	return f->ops && f->ops->poll ? f->ops->poll(f) : POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM;
}

/* A timeout of either width: -1 for none (NULL), else ns; -EINVAL/-EFAULT. */
static long get_timeout(unsigned long uts, bool t64, s64 *ns)
{
	s64 sec;
	long nsec, rc;

	if (!uts) {
		*ns = -1;
		return 0;
	}
	rc = get_user_timespec((const void *)uts, t64, &sec, &nsec);
	if (rc)
		return rc;
	/* Beyond 30 years is forever here (no write-back of the time left). */
	*ns = sec > 1000000000ll ? -1 : sec * 1000000000 + nsec;
	return 0;
}

/* The temporary mask of ppoll/pselect6 (0 or -errno); the old one is
 * restored by poll_end, or after the handler when a signal ends the wait. */
static long mask_begin(unsigned long umask, unsigned long size)
{
	struct proc *p = current_proc();
	u64 mask;

	if (!umask)
		return 0;
	if (size != sizeof(u64))
		return -EINVAL;
	if (copy_from_user(&mask, (const void *)umask, sizeof(mask)))
		return -EFAULT;
	p->sig.saved_blocked = p->sig.blocked;
	p->sig.restore_saved = true;
	p->sig.blocked = sigset_user(mask) & ~(SIGMASK(SIGKILL) | SIGMASK(SIGSTOP));
	return 0;
}

/* End of a wait: ret is the result so far; an EINTR becomes
 * ERESTARTNOHAND (EINTR after a handler, restarted otherwise), and the
 * saved mask stays for signal delivery then; otherwise it is put back now. */
static long poll_end(long ret, unsigned long uts, bool t64, u64 deadline)
{
	struct proc *p = current_proc();

	if (ret == -EINTR)
		ret = -ERESTARTNOHAND;
	else if (p->sig.restore_saved) {
		p->sig.blocked = p->sig.saved_blocked;
		p->sig.restore_saved = false;
	}
	if (uts && deadline && (ret >= 0 || ret == -ERESTARTNOHAND)) {
		u64 now = ktime_ns();

		if (put_user_timespec_ns((void *)uts, t64, deadline > now ? deadline - now : 0))
			return ret == -ERESTARTNOHAND ? ret : -EFAULT;
	}
	return ret;
}

/* Sleep until an event, the deadline (0: none; nowait: a zero timeout) or
 * a signal: -EINTR, or 1 when the time is up, else 0 to look again. */
static long poll_wait(u64 deadline, bool nowait)
{
	if (nowait || (deadline && ktime_ns() >= deadline))
		return 1;
	/* The console is polled (no receive interrupt): look at least every 10 ms. */
	u64 wake = ktime_ns() + 10000000;

	if (deadline && deadline < wake)
		wake = deadline;
	return sleep_on(&poll_chan, wake);
}

struct pollfd_user {
	int fd;
	short events, revents;
};

#define POLL_MAX 1024

/* ppoll(fds, nfds, timeout, sigmask, sigsetsize). */
static long do_ppoll(const unsigned long *a, bool t64)
{
	static struct pollfd_user pfd[POLL_MAX];	/* one CPU, one caller at a time */
	unsigned long ufds = a[0], nfds = a[1];
	struct proc *p = current_proc();
	s64 tmo;
	u64 deadline = 0;
	long rc = get_timeout(a[2], t64, &tmo);

	if (rc)
		return rc;
	if (nfds > p->rlim[RLIMIT_NOFILE].cur || nfds > POLL_MAX)
		return -EINVAL;
	if (nfds && copy_from_user(pfd, (const void *)ufds, nfds * sizeof(pfd[0])))
		return -EFAULT;
	rc = mask_begin(a[3], a[4]);
	if (rc)
		return rc;
	if (tmo >= 0)
		deadline = ktime_ns() + (u64)tmo;
	for (;;) {
		long ready = 0;

		for (unsigned long i = 0; i < nfds; i++) {
			struct file *f = pfd[i].fd >= 0 && pfd[i].fd < NOFILE ? p->fdt->files[pfd[i].fd] : NULL;
			unsigned mask = pfd[i].fd < 0 ? 0 : !f ? POLLNVAL :
					file_poll(f) & ((unsigned)(u16)pfd[i].events | POLLERR | POLLHUP | POLLNVAL);

			pfd[i].revents = (short)mask;
			ready += mask != 0;
		}
		if (!ready) {
			rc = poll_wait(deadline, tmo == 0);
			if (rc == 0)
				continue;
			if (rc == -EINTR)
				return poll_end(-EINTR, a[2], t64, deadline);
		}
		if (nfds && copy_to_user((void *)ufds, pfd, nfds * sizeof(pfd[0])))
			return poll_end(-EFAULT, 0, t64, 0);
		return poll_end(ready, a[2], t64, deadline);
	}
}

long sys_ppoll(const unsigned long *a) { return do_ppoll(a, false); }
long sys_ppoll_time64(const unsigned long *a) { return do_ppoll(a, true); }

#define BITS_PER_UL (8 * sizeof(unsigned long))
#define SET_WORDS ((NOFILE + BITS_PER_UL - 1) / BITS_PER_UL)

#define POLL_READ	(POLLIN | POLLRDNORM | POLLHUP | POLLERR)
#define POLL_WRITE	(POLLOUT | POLLWRNORM | POLLERR)
#define POLL_EXCEPT	POLLPRI

/* pselect6(nfds, readfds, writefds, exceptfds, timeout, {sigmask, size}). */
static long do_pselect6(const unsigned long *a, bool t64)
{
	static unsigned long in[3][SET_WORDS], out[3][SET_WORDS];
	static const unsigned want[3] = { POLL_READ, POLL_WRITE, POLL_EXCEPT };
	struct proc *p = current_proc();
	int n = arg_int(a[0]);
	unsigned long sm[2] = { 0, 0 };
	size_t bytes;
	s64 tmo;
	u64 deadline = 0;
	long rc;

	if (n < 0)
		return -EINVAL;
	if (n > NOFILE)
		n = NOFILE;	/* Linux: no further than the descriptor table */
	bytes = (size_t)(n + BITS_PER_UL - 1) / BITS_PER_UL * sizeof(unsigned long);
	rc = get_timeout(a[4], t64, &tmo);
	if (rc)
		return rc;
	memset(in, 0, sizeof(in));
	for (int s = 0; s < 3; s++)
		if (a[1 + s] && copy_from_user(in[s], (const void *)a[1 + s], bytes))
			return -EFAULT;
	for (int fd = 0; fd < n; fd++)
		for (int s = 0; s < 3; s++)
			if ((in[s][fd / BITS_PER_UL] >> (fd % BITS_PER_UL) & 1) && !p->fdt->files[fd])
				return -EBADF;
	if (a[5] && copy_from_user(sm, (const void *)a[5], sizeof(sm)))
		return -EFAULT;
	rc = mask_begin(sm[0], sm[1]);
	if (rc)
		return rc;
	if (tmo >= 0)
		deadline = ktime_ns() + (u64)tmo;
	for (;;) {
		long ready = 0;

		memset(out, 0, sizeof(out));
		for (int fd = 0; fd < n; fd++) {
			unsigned long bit = 1ul << (fd % BITS_PER_UL);
			unsigned mask = 0;
			bool any = false;

			for (int s = 0; s < 3; s++)
				any |= (in[s][fd / BITS_PER_UL] & bit) != 0;
			if (!any)
				continue;
			mask = file_poll(p->fdt->files[fd]);
			for (int s = 0; s < 3; s++)
				if ((in[s][fd / BITS_PER_UL] & bit) && (mask & want[s])) {
					out[s][fd / BITS_PER_UL] |= bit;
					ready++;
				}
		}
		if (!ready) {
			rc = poll_wait(deadline, tmo == 0);
			if (rc == 0)
				continue;
			if (rc == -EINTR)
				return poll_end(-EINTR, a[4], t64, deadline);
		}
		for (int s = 0; s < 3; s++)
			if (a[1 + s] && copy_to_user((void *)a[1 + s], out[s], bytes))
				return poll_end(-EFAULT, 0, t64, 0);
		return poll_end(ready, a[4], t64, deadline);
	}
}

long sys_pselect6(const unsigned long *a) { return do_pselect6(a, false); }
long sys_pselect6_time64(const unsigned long *a) { return do_pselect6(a, true); }
