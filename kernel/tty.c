/*
 * tty.c - the console as a terminal for user programs: a line discipline
 * (canonical lines with erase/kill/EOF and echo, or raw bytes), the
 * termios and window-size ioctls, and the console as the controlling
 * terminal of a session with a foreground process group (job control:
 * Ctrl-C, Ctrl-\ and Ctrl-Z signal the foreground group; a background
 * group that reads gets SIGTTIN).
 *
 * The UART has no receive interrupt here: tty_poll_input() drains it from
 * the timer tick and before every read. The kernel runs with interrupts
 * off except in the idle loop, so the tick never sees the state below half
 * changed.
 */
#include "console.h"
#include "tty.h"
#include "proc.h"
#include "uaccess.h"
#include "errno.h"
#include "kstring.h"
#include "ktime.h"

#define TCGETS		0x5401
#define TCSETS		0x5402
#define TCSETSW		0x5403
#define TCSETSF		0x5404
#define TCSBRK		0x5409
#define TCXONC		0x540a
#define TCFLSH		0x540b
#define TIOCSCTTY	0x540e
#define TIOCGPGRP	0x540f
#define TIOCSPGRP	0x5410
#define TIOCSTI		0x5412
#define TIOCGWINSZ	0x5413
#define TIOCSWINSZ	0x5414
#define FIONREAD	0x541b
#define TIOCNOTTY	0x5422
#define TIOCGSID	0x5429

/* c_cc indices and c_lflag/c_iflag bits (Linux's asm-generic termbits). */
enum { VINTR, VQUIT, VERASE, VKILL, VEOF, VTIME, VMIN, VSWTC, VSTART, VSTOP, VSUSP, VEOL };
#define ISIG	0x001
#define ICANON	0x002
#define ECHO	0x008
#define ECHOE	0x010
#define ECHOK	0x020
#define ECHONL	0x040
#define NOFLSH	0x080
#define ECHOCTL	0x200
#define INLCR	0x040
#define IGNCR	0x080
#define ICRNL	0x100

/* struct termios as the kernel passes it (the same on arm64 and MicroBlaze). */
struct termios_user {
	u32 iflag, oflag, cflag, lflag;
	u8 line, cc[19];
};

#define TTY_BUF 1024

static struct tty {
	struct termios_user t;
	u16 ws[4];		/* struct winsize: rows, cols, xpixel, ypixel */
	int sid;		/* session whose controlling terminal this is (0: none) */
	int pgrp;		/* its foreground process group */
	u8 buf[TTY_BUF];	/* input after the line discipline */
	int len;		/* bytes in buf */
	int committed;		/* of which a reader may take (canonical: whole lines) */
	int eofs;		/* ^D typed on an empty line: reads that return 0 */
} tty = {
	.t = { .iflag = 0x500 /* ICRNL IXON */, .oflag = 0x5 /* OPOST ONLCR */,
	       .cflag = 0xbf /* B38400 CS8 CREAD */,
	       .lflag = 0x8a3b /* ISIG ICANON ECHO ECHOE ECHOK ECHOCTL ECHOKE IEXTEN */,
	       .cc = { 3, 0x1c, 0x7f, 0x15, 4, 0, 1, 0, 0x11, 0x13, 0x1a, 0, 0x12, 0x0f, 0x17, 0x16 } },
	.ws = { 24, 80, 0, 0 },
};

void tty_set_init_session(int sid)
{
	tty.sid = sid;
	tty.pgrp = sid;
}

/* Is the console p's controlling terminal? */
static bool is_ctty(const struct proc *p)
{
	return tty.sid && p->sid == tty.sid && !p->tty_detached;
}

/* The session leader gives up the console: its foreground group is hung up. */
static void disassociate(void)
{
	struct ksiginfo hup = { .signo = SIGHUP }, cont = { .signo = SIGCONT };

	if (tty.pgrp) {
		proc_signal_group(tty.pgrp, &hup);
		proc_signal_group(tty.pgrp, &cont);
	}
	tty.sid = tty.pgrp = 0;
}

void tty_of(const struct proc *p, int *tty_nr, int *tpgid)
{
	*tty_nr = is_ctty(p) ? (5 << 8) | 1 : 0;	/* the console, 5:1 */
	*tpgid = is_ctty(p) && tty.pgrp ? tty.pgrp : -1;
}

void tty_session_exit(struct proc *p)
{
	if (p->pid == p->sid && tty.sid == p->sid)
		disassociate();
}

static void echo_char(u8 c)
{
	char ctl[2] = { '^', (char)(c ^ 0x40) };

	if (!(tty.t.lflag & ECHO)) {
		if (c == '\n' && (tty.t.lflag & ECHONL) && (tty.t.lflag & ICANON))
			console_write("\n", 1);
		return;
	}
	if (c < 0x20 && c != '\n' && c != '\t' && (tty.t.lflag & ECHOCTL))
		console_write(ctl, 2);
	else
		console_write((const char *)&c, 1);
}

/* An ISIG character: signal the foreground group, flush pending input. */
static void input_signal(u8 c, int sig)
{
	struct ksiginfo si = { .signo = sig, .code = 0x80 /* SI_KERNEL */ };

	if (!(tty.t.lflag & NOFLSH))
		tty.len = tty.committed = tty.eofs = 0;
	echo_char(c);
	if (tty.pgrp)
		proc_signal_group(tty.pgrp, &si);
}

/* One byte from the UART through the line discipline. */
static void input_byte(u8 c)
{
	const u8 *cc = tty.t.cc;
	bool canon = tty.t.lflag & ICANON;

	if (c == '\r' && (tty.t.iflag & IGNCR))
		return;
	if (c == '\r' && (tty.t.iflag & ICRNL))
		c = '\n';
	else if (c == '\n' && (tty.t.iflag & INLCR))
		c = '\r';
	if ((tty.t.lflag & ISIG) && c) {
		int sig = c == cc[VINTR] ? SIGINT : c == cc[VQUIT] ? SIGQUIT : c == cc[VSUSP] ? SIGTSTP : 0;

		if (sig) {
			input_signal(c, sig);
			return;
		}
	}
	if (canon && c && c == cc[VERASE]) {
		if (tty.len > tty.committed) {
			tty.len--;
			if ((tty.t.lflag & (ECHO | ECHOE)) == (ECHO | ECHOE))
				console_write("\b \b", 3);
		}
		return;
	}
	if (canon && c && c == cc[VKILL]) {
		while (tty.len > tty.committed) {
			tty.len--;
			if ((tty.t.lflag & (ECHO | ECHOE)) == (ECHO | ECHOE))
				console_write("\b \b", 3);
		}
		return;
	}
	if (canon && c && c == cc[VEOF]) {
		if (tty.len == tty.committed)
			tty.eofs++;
		tty.committed = tty.len;
		return;
	}
	if (tty.len == TTY_BUF)
		return;	/* full: the byte is lost, as on a real terminal */
	tty.buf[tty.len++] = c;
	echo_char(c);
	if (!canon || c == '\n' || (c && c == cc[VEOL]))
		tty.committed = tty.len;
}

void tty_poll_input(void)
{
	int c, got = 0;

	while ((c = console_getc()) >= 0) {
		input_byte((u8)c);
		got++;
	}
	if (got)
		wakeup(&tty);
}

/* Bytes a read could take now (canonical: complete lines), -1 for an EOF. */
static int readable(void)
{
	if (tty.committed)
		return tty.committed;
	return tty.eofs ? -1 : 0;
}

bool tty_can_read(void)
{
	tty_poll_input();
	return readable() != 0;
}

/* Take up to n committed bytes (canonical: at most one line). */
static long take(u8 *b, size_t n)
{
	size_t got = 0;

	if (!tty.committed && tty.eofs) {
		tty.eofs--;
		return 0;
	}
	while (got < n && got < (size_t)tty.committed) {
		u8 c = tty.buf[got++];

		if ((tty.t.lflag & ICANON) && c == '\n')
			break;
	}
	memcpy(b, tty.buf, got);
	memmove(tty.buf, tty.buf + got, (size_t)tty.len - got);
	tty.len -= (int)got;
	tty.committed -= (int)got;
	return (long)got;
}

/*
 * Job control for a process using its controlling terminal from outside
 * the foreground group (Linux's tty_check_change): 0 to go on; else the
 * group gets sig and the call restarts after it (-ERESTARTSYS), or -EIO
 * when sig would do nothing. SIGTTOU ignored or blocked lets the change
 * through, SIGTTIN ignored or blocked is EIO.
 */
static long job_control(struct proc *p, int sig)
{
	struct ksiginfo si = { .signo = sig, .code = 0x80 };
	bool ignored = p->sighand->act[sig - 1].handler == SIG_IGN || (p->sig.blocked & SIGMASK(sig));

	if (!is_ctty(p) || !tty.pgrp || p->pgid == tty.pgrp)
		return 0;
	if (ignored)
		return sig == SIGTTOU ? 0 : -EIO;
	if (proc_pgrp_orphaned(p->pgid))
		return -EIO;
	proc_signal_group(p->pgid, &si);
	return -ERESTARTSYS;
}

long console_read_bytes(void *buf, size_t n)
{
	struct proc *p = current_proc();
	long rc = job_control(p, SIGTTIN);
	u64 deadline = 0;

	if (rc)
		return rc;
	if (!n)
		return 0;
	for (;;) {
		tty_poll_input();
		if (readable())
			return take(buf, n);
		if (!(tty.t.lflag & ICANON) && !tty.t.cc[VMIN]) {
			if (!tty.t.cc[VTIME])
				return 0;	/* MIN 0, TIME 0: a poll */
			if (!deadline)
				deadline = ktime_ns() + tty.t.cc[VTIME] * 100000000ull;
			else if (ktime_ns() >= deadline)
				return 0;
		}
		/* The tick polls the UART and wakes us; 10 ms bounds the wait anyway. */
		if (sleep_on(&tty, ktime_ns() + 10000000) == -EINTR)
			return -ERESTARTSYS;
	}
}

/* TIOCSPGRP's checks (Linux's tiocspgrp): pgrp must be a live group, or at
 * least a live pid (ESRCH otherwise), of the caller's session (EPERM). */
static long set_pgrp(struct proc *p, unsigned long arg)
{
	int pgrp;
	long rc;

	if (!is_ctty(p))
		return -ENOTTY;
	rc = job_control(p, SIGTTOU);
	if (rc)
		return rc == -EIO ? -ENOTTY : rc;
	if (copy_from_user(&pgrp, (const void *)arg, sizeof(pgrp)))
		return -EFAULT;
	if (pgrp < 0)
		return -EINVAL;
	if (!proc_pgrp_in_session(pgrp, p->sid))
		return proc_find(pgrp) || proc_pgrp_exists(pgrp) ? -EPERM : -ESRCH;
	tty.pgrp = pgrp;
	return 0;
}

/* TIOCSCTTY: a session leader without a terminal takes the console; one
 * that another session holds only with arg 1 (we are always root). */
static long set_ctty(struct proc *p, unsigned long arg)
{
	if (p->pid == p->sid && tty.sid == p->sid)
		return 0;
	if (p->pid != p->sid || (tty.sid && tty.sid == p->sid))
		return -EPERM;
	if (tty.sid && arg != 1)
		return -EPERM;
	tty.sid = p->sid;
	tty.pgrp = p->pgid;
	p->tty_detached = false;
	return 0;
}

static long set_termios(struct proc *p, unsigned long cmd, unsigned long arg)
{
	struct termios_user t;
	long rc = job_control(p, SIGTTOU);

	if (rc)
		return rc;
	if (copy_from_user(&t, (const void *)arg, sizeof(t)))
		return -EFAULT;
	if (cmd == TCSETSF)
		tty.len = tty.committed = tty.eofs = 0;
	if ((tty.t.lflag & ICANON) && !(t.lflag & ICANON))
		tty.committed = tty.len;	/* raw now: the partial line is readable */
	tty.t = t;
	return 0;
}

long console_tty_ioctl(unsigned long cmd, unsigned long arg)
{
	struct proc *p = current_proc();
	struct ksiginfo winch = { .signo = SIGWINCH, .code = 0x80 };
	u16 ws[4];
	int v;
	u8 ch;

	switch (cmd) {
	case TCGETS:
		return copy_to_user((void *)arg, &tty.t, sizeof(tty.t)) ? -EFAULT : 0;
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		return set_termios(p, cmd, arg);
	case TCSBRK:	/* tcdrain: output is written synchronously, nothing waits */
	case TCXONC:
		return 0;
	case TCFLSH:
		if (arg > 2)
			return -EINVAL;
		if (arg != 1)	/* TCIFLUSH or TCIOFLUSH */
			tty.len = tty.committed = tty.eofs = 0;
		return 0;
	case TIOCGWINSZ:
		return copy_to_user((void *)arg, tty.ws, sizeof(tty.ws)) ? -EFAULT : 0;
	case TIOCSWINSZ:
		if (copy_from_user(ws, (const void *)arg, sizeof(ws)))
			return -EFAULT;
		if (memcmp(ws, tty.ws, sizeof(ws)) && tty.pgrp)
			proc_signal_group(tty.pgrp, &winch);
		memcpy(tty.ws, ws, sizeof(ws));
		return 0;
	case TIOCSTI:	/* a byte "typed" (root may, so everyone may here) */
		if (copy_from_user(&ch, (const void *)arg, 1))
			return -EFAULT;
		input_byte(ch);
		wakeup(&tty);
		return 0;
	case FIONREAD:
		tty_poll_input();
		v = tty.committed;
		return copy_to_user((void *)arg, &v, sizeof(v)) ? -EFAULT : 0;
	case TIOCGPGRP:
	case TIOCGSID:
		if (!is_ctty(p))
			return -ENOTTY;
		v = cmd == TIOCGPGRP ? tty.pgrp : tty.sid;
		return copy_to_user((void *)arg, &v, sizeof(v)) ? -EFAULT : 0;
	case TIOCSPGRP:
		return set_pgrp(p, arg);
	case TIOCSCTTY:
		return set_ctty(p, arg);
	case TIOCNOTTY:
		if (!is_ctty(p))
			return -ENOTTY;
		if (p->pid == p->sid)
			disassociate();
		else
			p->tty_detached = true;
		return 0;
	default:
		return -ENOTTY;
	}
}
