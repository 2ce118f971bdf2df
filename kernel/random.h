/*
 * random.h - a small non-cryptographic generator for AT_RANDOM and
 * getrandom(), seeded from /chosen/rng-seed (when the DT has one) and the
 * counter. Good enough for tests and stack canaries of test programs; not
 * for secrets.
 */
#ifndef RANDOM_H
#define RANDOM_H

#include "types.h"

void random_seed(const void *seed, size_t len);
u64 get_random_u64(void);

#endif
