/*
 * tty.c - the console as a terminal for user programs: blocking reads
 * (polled; the process yields between polls) and the few ioctls libc uses
 * to decide that stdout is a terminal.
 */
#include "console.h"
#include "proc.h"
#include "uaccess.h"
#include "errno.h"
#include "kstring.h"
#include "ktime.h"

#define TCGETS		0x5401
#define TCSETS		0x5402
#define TCSETSW		0x5403
#define TCSETSF		0x5404
#define TIOCGWINSZ	0x5413
#define TIOCGPGRP	0x540f

long console_read_bytes(void *buf, size_t n)
{
	u8 *b = buf;
	size_t got = 0;

	while (got < n) {
		int c = console_getc();

		if (c < 0) {
			if (got)
				break;
			if (sleep_on(&console_read_bytes, ktime_ns() + 10000000) == -EINTR)
				return -EINTR;
			continue;
		}
		b[got++] = (u8)(c == '\r' ? '\n' : c);
		if (c == '\r' || c == '\n')
			break;
	}
	return (long)got;
}

/* struct termios as the kernel passes it (the same on arm64 and MicroBlaze). */
struct termios_user {
	u32 iflag, oflag, cflag, lflag;
	u8 line, cc[19];
};

long console_tty_ioctl(unsigned long cmd, unsigned long arg)
{
	struct termios_user t;
	u16 ws[4] = { 24, 80, 0, 0 };
	int pgrp;

	switch (cmd) {
	case TCGETS:
		memset(&t, 0, sizeof(t));
		t.iflag = 0x500;	/* ICRNL | IXON */
		t.oflag = 0x5;		/* OPOST | ONLCR */
		t.cflag = 0xbf;		/* B38400 | CS8 | CREAD */
		t.lflag = 0x8a3b;	/* ISIG ICANON ECHO ECHOE ECHOK ECHOCTL ECHOKE IEXTEN */
		return copy_to_user((void *)arg, &t, sizeof(t)) ? -EFAULT : 0;
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		return 0;
	case TIOCGWINSZ:
		return copy_to_user((void *)arg, ws, sizeof(ws)) ? -EFAULT : 0;
	case TIOCGPGRP:
		pgrp = current_proc()->pid;
		return copy_to_user((void *)arg, &pgrp, sizeof(pgrp)) ? -EFAULT : 0;
	default:
		return -ENOTTY;
	}
}
