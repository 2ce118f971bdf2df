/*
 * bootargs.c - command-line parser (see bootargs.h).
 */
#include "bootargs.h"
#include "printk.h"

static bool str_eq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* Parse a decimal or 0x-prefixed hex number that fills the whole string. */
static bool parse_uint(const char *s, u64 *out)
{
	unsigned base = 10;
	u64 v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return false;
		if (v > (~(u64)0 - d) / base)
			return false;	/* overflow */
		v = v * base + d;
	}
	*out = v;
	return true;
}

static const struct bootarg *find(const struct bootarg *t, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (str_eq(t[i].name, name))
			return &t[i];
	return NULL;
}

/* Print "expected a|b|c" for a choice option. */
static void print_choices(const struct bootarg *a)
{
	printk("bootargs: %s: expected ", a->name);
	for (int i = 0; a->choices[i]; i++)
		printk("%s%s", i ? "|" : "", a->choices[i]);
	printk("\n");
}

/* Apply one "name" or "name=value" word. Returns 0 or 1 problem. */
static int apply(const struct bootarg *a, const char *val)
{
	u64 v;

	switch (a->type) {
	case BA_FLAG:
		if (!val) {
			*(bool *)a->var = true;
			return 0;
		}
		__attribute__((fallthrough)); /* "flag=0|1" */
	case BA_BOOL:
		if (val && (str_eq(val, "0") || str_eq(val, "1"))) {
			*(bool *)a->var = val[0] == '1';
			return 0;
		}
		printk("bootargs: %s: expected 0 or 1, got '%s'\n", a->name, val ? val : "");
		return 1;
	case BA_UINT:
		if (val && parse_uint(val, &v)) {
			*(u64 *)a->var = v;
			return 0;
		}
		printk("bootargs: %s: expected a number, got '%s'\n", a->name, val ? val : "");
		return 1;
	case BA_CHOICE:
		for (int i = 0; val && a->choices[i]; i++) {
			if (str_eq(val, a->choices[i])) {
				*(int *)a->var = i;
				return 0;
			}
		}
		print_choices(a);
		return 1;
	case BA_STRING:
		if (val) {
			*(const char **)a->var = val;
			return 0;
		}
		printk("bootargs: %s: needs a value\n", a->name);
		return 1;
	case BA_CALL:
		if (val && (*(bootarg_fn *)a->var)(val))
			return 0;
		printk("bootargs: %s: bad value '%s'\n", a->name, val ? val : "");
		return 1;
	}
	return 1;
}

bool (*bootargs_unknown_hook)(char *word, char *value);

int bootargs_parse(char *cmdline, const struct bootarg *table, int n)
{
	int problems = 0;
	char *p = cmdline;

	while (*p) {
		char *word, *val = NULL;
		const struct bootarg *a;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		word = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
			if (*p == '=' && !val) {
				*p = '\0';
				val = p + 1;
			}
			p++;
		}
		if (*p)
			*p++ = '\0';
		a = find(table, n, word);
		if (!a && bootargs_unknown_hook) {
			if (val)
				val[-1] = '=';	/* give the hook the whole word */
			if (!bootargs_unknown_hook(word, val))
				problems++;
			continue;
		}
		if (!a) {
			printk("bootargs: unknown option '%s' (see the README's bootarg table)\n", word);
			problems++;
			continue;
		}
		problems += apply(a, val);
	}
	return problems;
}

void bootargs_print_help(const struct bootarg *table, int n)
{
	for (int i = 0; i < n; i++)
		printk("  %-16s %s\n", table[i].name, table[i].help);
}
