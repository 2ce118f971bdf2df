/* tap.h - Test Anything Protocol helpers for the user-space tests.
 *
 * Portable C: builds against the test libc and against glibc.
 *
 *   tap_init();                     at the start of main (unbuffered stdout)
 *   tap_ok(cond, "what %d", x);     one test point; returns cond
 *   tap_is_long(got, want, "what")  a point comparing numbers, showing both
 *   tap_diag("detail %s", s);       a "# ..." line
 *   tap_skip("why");                a point that passes as "# SKIP"
 *   return tap_done();              prints the plan "1..N"; 0 if all passed
 *                                   (as a comment "# 1..N" when the
 *                                   environment has TAP_FALLBACK, see init.c)
 *
 * Every line is written with a single write(2), so lines from several
 * processes never mix. Points are numbered 1..N in the order printed; a
 * process created by fork() must not print points (it would reuse numbers):
 * let the parent judge what the child reports through its exit status.
 */
#ifndef TAP_H
#define TAP_H

void tap_init(void);
int tap_ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int tap_is_long(long got, long want, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tap_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int tap_done(void);
int tap_failures(void);

#endif
