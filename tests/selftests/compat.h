/*
 * compat.h - forced into every Linux selftest build (gcc -include).
 *
 * The cross glibc ships the UAPI headers of Linux 6.1, which predate
 * mseal; the selftests come from 6.12. Supply the one syscall number they
 * need that the headers lack (the same on every architecture, from the
 * generic table). Nothing else is changed in the tests.
 */
#ifndef SELFTESTS_COMPAT_H
#define SELFTESTS_COMPAT_H

#include <asm/unistd.h>

#ifndef __NR_mseal
#define __NR_mseal 462
#endif

#endif
