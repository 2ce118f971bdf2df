/*
 * test_bootargs.c - the command-line parser against a small option table.
 */
#include <string.h>
#include "bootargs.h"
#include "host_env.h"

static bool flag, b;
static u64 num;
static int choice;
static const char *str;
static const char *const modes[] = { "full", "on", "off", NULL };
static char calls[64];	/* every value the BA_CALL option got, each followed by ';' */

/* A BA_CALL callback: keeps every value but "bad". */
static bool record(const char *val)
{
	if (!strcmp(val, "bad"))
		return false;
	strncat(calls, val, sizeof(calls) - strlen(calls) - 2);
	strcat(calls, ";");
	return true;
}
static bootarg_fn record_fn = record;

static const struct bootarg table[] = {
	{ "ptdump", BA_FLAG, &flag, NULL, "dump" },
	{ "init_on_alloc", BA_BOOL, &b, NULL, "zero" },
	{ "hugepages", BA_UINT, &num, NULL, "count" },
	{ "rodata", BA_CHOICE, &choice, modes, "mode" },
	{ "ktest", BA_STRING, &str, NULL, "tests" },
	{ "hugepagesz", BA_CALL, &record_fn, NULL, "size" },
};

/* Reset the variables to their defaults and parse s; return problems. */
static int parse(const char *s)
{
	static char buf[256];

	flag = b = false;
	num = 7;
	choice = 0;
	str = NULL;
	calls[0] = '\0';
	strncpy(buf, s, sizeof(buf) - 1);
	CAPTURE_START();
	int n = bootargs_parse(buf, table, (int)(sizeof(table) / sizeof(table[0])));
	CAPTURE_STOP();
	return n;
}

int main(void)
{
	tap_ok(parse("") == 0 && !flag && num == 7, "empty command line changes nothing");
	tap_ok(parse("  \t ") == 0, "blank command line");
	tap_ok(parse("ptdump") == 0 && flag, "flag alone sets it");
	tap_ok(parse("ptdump=0") == 0 && !flag, "flag=0 clears it");
	tap_ok(parse("init_on_alloc=1") == 0 && b, "bool 1");
	tap_ok(parse("init_on_alloc=yes") == 1 && !b && strstr(host_capture, "expected 0 or 1"),
	       "bad bool reported, default kept");
	tap_ok(parse("hugepages=64") == 0 && num == 64, "decimal number");
	tap_ok(parse("hugepages=0x40") == 0 && num == 64, "hex number");
	tap_ok(parse("hugepages=12a") == 1 && num == 7, "junk after digits rejected");
	tap_ok(parse("hugepages=99999999999999999999999") == 1 && num == 7, "overflow rejected");
	tap_ok(parse("hugepages") == 1 && strstr(host_capture, "expected a number"), "missing number");
	tap_ok(parse("rodata=off") == 0 && choice == 2, "choice by name");
	tap_ok(parse("rodata=maybe") == 1 && choice == 0 && strstr(host_capture, "expected full|on|off"),
	       "bad choice lists the choices");
	tap_ok(parse("ktest=all,split") == 0 && str && strcmp(str, "all,split") == 0, "string value");
	tap_ok(parse("ktest") == 1 && strstr(host_capture, "needs a value"), "string needs a value");
	tap_ok(parse("frobnicate=3") == 1 && strstr(host_capture, "unknown option 'frobnicate'"),
	       "unknown option reported by name");
	tap_ok(parse("ptdump bogus rodata=on  hugepages=3") == 1 && flag && choice == 1 && num == 3,
	       "several options, one unknown: the rest still apply");
	tap_ok(parse("rodata=on=off") == 1, "value containing '=' is a bad choice");
	tap_ok(parse("ktest=a=b") == 0 && strcmp(str, "a=b") == 0, "string keeps later '='");
	tap_ok(parse("hugepagesz=64K ptdump hugepagesz=32M") == 0 && strcmp(calls, "64K;32M;") == 0 && flag,
	       "a call option gets every occurrence, in order (%s)", calls);
	tap_ok(parse("hugepagesz=bad hugepagesz=2M") == 1 && strstr(host_capture, "hugepagesz: bad value 'bad'") &&
	       strcmp(calls, "2M;") == 0, "a value the callback refuses is one problem, the next still applies");
	tap_ok(parse("hugepagesz") == 1 && calls[0] == '\0', "a call option needs a value");
	return tap_done();
}
