/*
 * ktest.h - in-kernel tests, selected with the bootarg ktest=name[,name...]
 * (or ktest=all) and reported in TAP on the console:
 *
 *   KTEST(alloc_smoke) { ktest_ok(p != NULL, "allocated a page"); }
 *
 * A test that must end in a panic (e.g. the BBM checker firing) calls
 * ktest_expect_panic("what") first: the panic is then reported as a passing
 * test point and the kernel powers off with status 0. Such tests are never
 * part of ktest=all; select them by name in a boot of their own.
 */
#ifndef KTEST_H
#define KTEST_H

#include "types.h"

struct ktest {
	const char *name;
	void (*fn)(void);
	bool panics;	/* ends in an expected panic: excluded from ktest=all */
};

#define KTEST_DEFINE(ident, panics_)                                            \
	static void ktest_##ident(void);                                        \
	static const struct ktest ktest_desc_##ident                            \
		__attribute__((used, section(".ktests"),                      \
			       aligned(__alignof__(struct ktest)))) = {        \
		#ident, ktest_##ident, panics_ };                               \
	static void ktest_##ident(void)

#define KTEST(ident) KTEST_DEFINE(ident, false)
#define KTEST_PANICS(ident) KTEST_DEFINE(ident, true)

/* Report one test point: "ok N - <test>: <message>" or "not ok ...". */
void ktest_ok(bool cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The next panic is the expected outcome of this test. */
void ktest_expect_panic(const char *what);

/* Called by panic(): if a panic was expected, report it and return true. */
bool ktest_panic_hook(const char *msg);

/* Run the tests the selector names ("all" or a comma list). Returns the
 * number of failures (an unknown test name counts as a failure). */
int ktest_run(const char *selector);

#endif
