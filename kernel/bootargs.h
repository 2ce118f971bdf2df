/*
 * bootargs.h - the kernel command line (/chosen/bootargs) parsed against a
 * table of documented options. The kernel's table is in kernel/params.c and
 * the README's bootarg table lists the same options.
 */
#ifndef BOOTARGS_H
#define BOOTARGS_H

#include "types.h"

enum bootarg_type {
	BA_FLAG,	/* "name" alone sets *(bool *)var; "name=0|1" also accepted */
	BA_BOOL,	/* "name=0|1" */
	BA_UINT,	/* "name=N" (decimal or 0x hex), *(u64 *)var */
	BA_CHOICE,	/* "name=word" with word in choices[]; *(int *)var = its index */
	BA_STRING,	/* "name=text", *(const char **)var points into the command line copy */
	BA_CALL,	/* "name=text": var is a bootarg_fn *, called with text at each occurrence,
			   in command-line order; it returns false for a value it cannot take */
};

typedef bool (*bootarg_fn)(const char *val);

struct bootarg {
	const char *name;
	enum bootarg_type type;
	void *var;
	const char *const *choices;	/* BA_CHOICE: NULL-terminated */
	const char *help;		/* one line for the README and "bootargs=help" */
};

/*
 * Parse cmdline (modified in place: words are NUL-terminated) against
 * table[0..n). Every problem (unknown option, bad value, missing value) is
 * printed on its own line as "bootargs: ..." and counted; the option keeps
 * its default. Returns the number of problems (0 when all were understood).
 */
int bootargs_parse(char *cmdline, const struct bootarg *table, int n);

/*
 * Words that match no option go to this hook when it is set (the kernel
 * hands them to init, as Linux does: "name=value" into its environment,
 * other words into its arguments); they are then not counted as problems.
 * The hook returns false if it could not keep the word (counted).
 */
extern bool (*bootargs_unknown_hook)(char *word, char *value);

/* Print the table, one option per line (for the "help" option). */
void bootargs_print_help(const struct bootarg *table, int n);

#endif
