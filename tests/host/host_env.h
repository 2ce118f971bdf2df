/*
 * host_env.h - helpers for host unit tests: TAP output and expected panics.
 */
#ifndef HOST_ENV_H
#define HOST_ENV_H

#include <setjmp.h>
#include <stdio.h>

extern jmp_buf host_panic_jmp;
extern int host_panic_expected;   /* set to 1 before code that must panic */
extern char host_panic_msg[512];  /* the last panic's message */

/*
 * EXPECT_PANIC(stmt): run stmt, which must call panic(). Evaluates to 1 if it
 * panicked (host_panic_msg holds the message), 0 if it returned normally.
 */
#define EXPECT_PANIC(stmt)                                   \
	({                                                   \
		volatile int _panicked = 0;                           \
		host_panic_expected = 1;                     \
		if (setjmp(host_panic_jmp) == 0) {           \
			stmt;                                \
			host_panic_expected = 0;             \
		} else {                                     \
			_panicked = 1;                       \
		}                                            \
		_panicked;                                   \
	})

/*
 * While host_capturing is set, printk() appends to host_capture instead of
 * printing, so a test can check what the kernel code said.
 */
extern char host_capture[8192];
extern int host_capturing;
#define CAPTURE_START() (host_capture[0] = 0, host_capturing = 1)
#define CAPTURE_STOP() (host_capturing = 0)

/* Minimal TAP: tap_ok(cond, fmt...) prints "ok N - ..." or "not ok N - ...". */
extern int tap_count, tap_failed;
void tap_ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print the plan line "1..N" and return the exit status (0 if all passed). */
int tap_done(void);

#endif
