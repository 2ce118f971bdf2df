/*
 * random.c - xorshift64* seeded from the device tree and the counter.
 */
#include "random.h"
#include "arch.h"

static u64 state = 0x9e3779b97f4a7c15ull;

void random_seed(const void *seed, size_t len)
{
	const u8 *p = seed;

	for (size_t i = 0; i < len; i++)
		state = (state ^ p[i]) * 0x100000001b3ull;
	state ^= arch_time_ns();
	if (!state)
		state = 1;
}

u64 get_random_u64(void)
{
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return state * 0x2545f4914f6cdd1dull;
}
