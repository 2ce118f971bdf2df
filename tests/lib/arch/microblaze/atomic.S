/* atomic.S (MicroBlaze) - the 4-byte __atomic_* library calls, on lwx/swx.
 *
 * Programs for MicroBlaze are built with -fno-inline-atomics
 * (tests/user/user.mk), so every __atomic builtin on an int becomes a call
 * to one of these. The cross GCC's own expansion cannot be used: its
 * compare-and-swap (behind __atomic_compare_exchange_n, __atomic_exchange_n
 * and the __atomic_fetch_<op> loops) takes the branch after its swx the
 * wrong way round, so a compare that found another thread's value counts as
 * done: a __atomic_fetch_add that met another thread's update ended
 * without adding (tests/user/pthread.c's 4-thread counter once read 79,999
 * of 80,000). In one thread its two errors cancel.
 *
 * swx stores only while the reservation lwx took is held, and sets the
 * carry (MSR[C]) when it did not store; "addic rD, r0, 0" reads the carry.
 * The kernel drops the reservation at every thread switch
 * (arch/microblaze/kernel/switch.S), so a loop preempted between its lwx
 * and its swx retries. Orders are ignored: the CPU is in-order and the
 * kernel runs one CPU on MicroBlaze. Values are compared with xor, which is
 * zero only when they are equal (cmp's result can be zero for two values
 * 2^31 apart, its top bit being the signed order, not the difference).
 * Calls return with "rtsd r15, 8" (one delay slot).
 */
	.text
	.global __atomic_load_4, __atomic_store_4, __atomic_exchange_4
	.global __atomic_compare_exchange_4
	.global __atomic_fetch_add_4, __atomic_add_fetch_4

/* int __atomic_load_4(const volatile void *p, int order): *p. */
	.type __atomic_load_4, @function
__atomic_load_4:
	rtsd	r15, 8
	lwi	r3, r5, 0		/* delay slot */
	.size __atomic_load_4, . - __atomic_load_4

/* void __atomic_store_4(volatile void *p, int val, int order): *p = val. */
	.type __atomic_store_4, @function
__atomic_store_4:
	rtsd	r15, 8
	swi	r6, r5, 0		/* delay slot */
	.size __atomic_store_4, . - __atomic_store_4

/* int __atomic_exchange_4(volatile void *p, int val, int order):
 * *p = val; returns the value it replaced. */
	.type __atomic_exchange_4, @function
__atomic_exchange_4:
1:	lwx	r3, r5, r0
	swx	r6, r5, r0
	addic	r4, r0, 0		/* r4 = carry: 1 if swx did not store */
	bnei	r4, 1b
	rtsd	r15, 8
	nop
	.size __atomic_exchange_4, . - __atomic_exchange_4

/* bool __atomic_compare_exchange_4(volatile void *p, int *expected,
 *	int desired, bool weak, int success_order, int failure_order):
 * if *p == *expected, *p = desired and returns 1; otherwise stores the
 * value found in *expected and returns 0. Never fails spuriously. */
	.type __atomic_compare_exchange_4, @function
__atomic_compare_exchange_4:
	lwi	r4, r6, 0		/* r4 = the expected value */
1:	lwx	r3, r5, r0		/* r3 = the value found */
	xor	r8, r3, r4
	bnei	r8, 2f
	swx	r7, r5, r0
	addic	r8, r0, 0		/* r8 = carry: 1 if swx did not store */
	bnei	r8, 1b
	rtsd	r15, 8
	addik	r3, r0, 1		/* delay slot: stored, return 1 */
2:	swi	r3, r6, 0
	rtsd	r15, 8
	addk	r3, r0, r0		/* delay slot: differed, return 0 */
	.size __atomic_compare_exchange_4, . - __atomic_compare_exchange_4

/* int __atomic_fetch_add_4(volatile void *p, int val, int order):
 * *p += val; returns the old value. __atomic_add_fetch_4 returns the new. */
	.type __atomic_fetch_add_4, @function
__atomic_fetch_add_4:
1:	lwx	r3, r5, r0
	addk	r7, r3, r6
	swx	r7, r5, r0
	addic	r4, r0, 0		/* r4 = carry: 1 if swx did not store */
	bnei	r4, 1b
	rtsd	r15, 8
	nop
	.size __atomic_fetch_add_4, . - __atomic_fetch_add_4

	.type __atomic_add_fetch_4, @function
__atomic_add_fetch_4:
	addk	r11, r15, r0		/* our return address (fetch_add keeps r6, r11) */
	brlid	r15, __atomic_fetch_add_4
	nop
	addk	r3, r3, r6		/* the new value */
	rtsd	r11, 8
	nop
	.size __atomic_add_fetch_4, . - __atomic_add_fetch_4
