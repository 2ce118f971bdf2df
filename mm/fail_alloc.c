/*
 * fail_alloc.c - allocation-failure injection (see fail_alloc.h).
 */
#include "fail_alloc.h"

u64 fail_alloc_countdown;
u64 fail_alloc_fired;
bool (*fail_alloc_filter)(void);

bool fail_alloc_now(void)
{
	if (!fail_alloc_countdown || (fail_alloc_filter && !fail_alloc_filter()) || --fail_alloc_countdown)
		return false;
	fail_alloc_fired++;
	return true;
}
