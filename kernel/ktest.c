/*
 * ktest.c - in-kernel test runner (see ktest.h).
 */
#include <stdarg.h>
#include "ktest.h"
#include "printk.h"
#include "kstring.h"

extern const struct ktest __start_ktests[], __stop_ktests[];

static int npoints, nfailed;
static const char *current;
static const char *expected_panic;

void ktest_ok(bool cond, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintk(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	npoints++;
	if (!cond)
		nfailed++;
	printk("%sok %d - %s: %s\n", cond ? "" : "not ", npoints, current, msg);
}

void ktest_expect_panic(const char *what)
{
	expected_panic = what;
}

bool ktest_panic_hook(const char *msg)
{
	if (!expected_panic)
		return false;
	printk("ok %d - %s: %s (panic: %s)\n", ++npoints, current, expected_panic, msg);
	printk("1..%d\n", npoints);
	return true;
}

/* Is name one of the comma-separated words of sel? */
static bool selected(const char *sel, const char *name)
{
	size_t n = strlen(name);

	while (*sel) {
		const char *end = strchr(sel, ',');
		size_t len = end ? (size_t)(end - sel) : strlen(sel);

		if (len == n && strncmp(sel, name, n) == 0)
			return true;
		sel += len + (end ? 1 : 0);
	}
	return false;
}

/* Check that every name in the selector is a known test. */
static int check_names(const char *sel)
{
	int unknown = 0;

	while (*sel) {
		const char *end = strchr(sel, ',');
		size_t len = end ? (size_t)(end - sel) : strlen(sel);
		bool found = len == 3 && strncmp(sel, "all", 3) == 0;

		for (const struct ktest *t = __start_ktests; t < __stop_ktests && !found; t++)
			found = strlen(t->name) == len && strncmp(t->name, sel, len) == 0;
		if (!found) {
			char name[64];

			snprintk(name, MIN(len + 1, sizeof(name)), "%s", sel);
			printk("not ok %d - ktest: no test named '%s'\n", ++npoints, name);
			nfailed++;
			unknown++;
		}
		sel += len + (end ? 1 : 0);
	}
	return unknown;
}

int ktest_run(const char *sel)
{
	bool all = selected(sel, "all");

	printk("TAP version 13\n");
	check_names(sel);
	for (const struct ktest *t = __start_ktests; t < __stop_ktests; t++) {
		if (!(selected(sel, t->name) || (all && !t->panics)))
			continue;
		current = t->name;
		printk("# ktest %s\n", t->name);
		t->fn();
		if (expected_panic) {
			ktest_ok(false, "expected a panic (%s) that did not happen", expected_panic);
			expected_panic = NULL;
		}
	}
	printk("1..%d\n", npoints);
	return nfailed;
}
