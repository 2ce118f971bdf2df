/*
 * head.S - arm64 kernel entry: Linux Image header, EL2 -> EL1 drop, boot
 * page tables, MMU on, jump to start_kernel at the kernel's linked address.
 *
 * QEMU loads the Image at a 2 MiB-aligned physical address and enters at its
 * first byte with the MMU off, x0 = physical address of the DTB, at EL1, or
 * at EL2 with -M virt,virtualization=on.
 *
 * Before anything else it checks that the CPU implements the build's
 * translation granule (ID_AA64MMFR0_EL1.TGran*) and, with VA_BITS=52, 52-bit
 * VAs (64K: ID_AA64MMFR2_EL1.VARange; FEAT_LPA2: TGran4 == 1 for 4K,
 * TGran16 == 2 for 16K), and
 * stops with a message on the UART if not (check_granule).
 *
 * The boot tables built here are the smallest that let C run at its linked
 * virtual address (KIMAGE_VADDR):
 *   - TTBR1: the whole image, RWX (replaced by start_kernel with a W^X
 *     mapping built by mm/ as soon as memory is known), in 2 MiB blocks with
 *     the 4K granule and in pages with 16K and 64K (whose blocks, 32 MiB and
 *     512 MiB, are larger than QEMU's 2 MiB load alignment);
 *   - TTBR0: an identity map of the same blocks, so the instruction after
 *     "MMU on" is still mapped, and so the TTBR1 switch can run from it.
 * Everything else (DTB, console, RAM) is mapped later by C code through
 * the page-table choke point.
 */

#include <asm/sysregs.h>
#include <asm/smp.h>

/*
 * The boot map's geometry (asm/layout.h). BOOT_LEAF_LEVEL holds the
 * leaves: 2 MiB blocks (4K) or pages (16K, 64K). A table set is one table
 * per level above it, then BOOT_LEAF_TABLES leaf tables side by side (two
 * with pages, so the image may cross one leaf table's span).
 */
#if GRANULE_SHIFT == 12
#define BOOT_LEAF_LEVEL		(PT_LAST_LEVEL - 1)
#define BOOT_LEAF_TABLES	1
#define BOOT_LEAF_ATTRS		BOOT_BLOCK_ATTRS
#else
#define BOOT_LEAF_LEVEL		PT_LAST_LEVEL
#define BOOT_LEAF_TABLES	2
#define BOOT_LEAF_ATTRS		(BOOT_BLOCK_ATTRS | 2)	/* "page" at the last level */
#endif
#define BOOT_LEAF_SHIFT		PT_SHIFT(BOOT_LEAF_LEVEL)
#define BOOT_SPAN_SHIFT		PT_SHIFT(BOOT_LEAF_LEVEL - 1)	/* what one leaf table maps */
/*
 * The image may not cross this boundary: with one leaf table, its span;
 * with two, the span of the table above them (so the second leaf table's
 * entry is in the same table as the first's).
 */
#if BOOT_LEAF_TABLES == 1
#define BOOT_CROSS_SHIFT	BOOT_SPAN_SHIFT
#elif BOOT_LEAF_LEVEL >= 2
#define BOOT_CROSS_SHIFT	PT_SHIFT(BOOT_LEAF_LEVEL - 2)
#else
#define BOOT_CROSS_SHIFT	VA_BITS		/* the root: any PA below 2^VA_BITS */
#endif
#define BOOT_TABLE_PAGES	(BOOT_LEAF_LEVEL + BOOT_LEAF_TABLES)
#define BOOT_MAX_LEAVES		((32 << 20) >> BOOT_LEAF_SHIFT)	/* image + bss: at most 32 MiB */
#define PAGE_SZ			(1 << PAGE_SHIFT)
/* Image header flags: LE, page size (1: 4K, 2: 16K, 3: 64K), anywhere in RAM. */
#define IMAGE_FLAGS		(8 | (((PAGE_SHIFT - 10) / 2) << 1))

	.section ".head.text", "ax"
	.globl	_head
_head:
	b	primary_entry			/* code0: branch to the real entry */
	.long	0				/* code1 */
	.quad	0				/* text_offset: load at a 2 MiB boundary */
	.quad	_kernel_size			/* image_size, including .bss */
	.quad	IMAGE_FLAGS			/* flags: LE, page size, anywhere in RAM */
	.quad	0				/* res2 */
	.quad	0				/* res3 */
	.quad	0				/* res4 */
	.ascii	"ARM\x64"			/* magic */
	.long	0				/* res5 (PE header offset) */

	.section ".idmap.text", "ax"
/*
 * primary_entry: x0 = DTB physical address. MMU off, any EL1/EL2.
 * Register use until start_kernel: x19 = DTB PA, x20 = entry EL,
 * x21 = image PA, x23 = physical counter at entry (boot-time figure).
 */
primary_entry:
	isb					/* do not read the counter early */
	mrs	x23, cntpct_el0
	mov	x19, x0
	mrs	x20, CurrentEL
	lsr	x20, x20, #2
	adrp	x21, _text
	bl	el2_to_el1
	bl	check_granule
	bl	clear_bss
	bl	create_boot_tables
	adrp	x0, boot_idmap_tables
	adrp	x1, boot_kimage_tables
	bl	enable_mmu
	ldr	x8, =start_high			/* linked (virtual) address */
	br	x8

/*
 * el2_to_el1: if entered at EL2, configure EL2 so EL1 runs AArch64 with
 * access to the counters and no stage-2, then eret to EL1h with DAIF
 * masked. Returns at EL1. EL3 entry is not supported (QEMU never enters
 * an Image at EL3): park the CPU.
 */
el2_to_el1:
	cmp	x20, #2
	b.lo	1f
	b.hi	3f
	ldr	x9, =HCR_EL2_RW
	msr	hcr_el2, x9			/* EL1 is AArch64, no traps */
	mov	x9, #(CNTHCTL_EL1PCTEN | CNTHCTL_EL1PCEN)
	msr	cnthctl_el2, x9			/* EL1 may read the physical counter/timer */
	msr	cntvoff_el2, xzr		/* virtual counter == physical counter */
	msr	vttbr_el2, xzr
	ldr	x9, =SCTLR_EL1_RES1
	msr	sctlr_el1, x9			/* MMU and caches off at EL1 until we enable them */
	mov	x9, #SPSR_EL1H_MASKED
	msr	spsr_el2, x9
	msr	elr_el2, x30			/* "return" to our caller, now at EL1 */
	isb
	eret
1:	ret
3:	wfe					/* EL3: unsupported, nothing can print yet */
	b	3b

/*
 * check_granule: return if ID_AA64MMFR0_EL1 says the CPU implements our
 * granule and, for a 52-bit VA, ID_AA64MMFR2_EL1 says it implements
 * FEAT_LVA (64K) or FEAT_LPA2 (4K, 16K); otherwise print why on the early UART (MMU off: Device memory)
 * with the kernel-exit line the runner expects, and park the CPU.
 * TGran4 and TGran64 read 0xf when absent, TGran16 reads 0; VARange reads
 * 1 when 52-bit VAs are supported with the 64K granule, 0 for 48 bits;
 * FEAT_LPA2 reads TGran4 == 1 or TGran16 == 2 (ID_TGRAN_LPA2).
 */
check_granule:
	mrs	x9, id_aa64mmfr0_el1
	ubfx	x9, x9, #ID_TGRAN_SHIFT, #4
	adr	x10, no_granule_msg
#if GRANULE_SHIFT == 14
	cbz	x9, boot_refuse
#else
	cmp	x9, #0xf
	b.eq	boot_refuse
#endif
#if PT_LPA2
	cmp	x9, #ID_TGRAN_LPA2		/* TGran4 == 1, TGran16 == 2: 52-bit with LPA2 */
	adr	x10, no_lpa2_msg
	b.ne	boot_refuse
#elif PT_VA_52
	mrs	x9, id_aa64mmfr2_el1
	ubfx	x9, x9, #16, #4			/* VARange */
	adr	x10, no_lva_msg
	cbz	x9, boot_refuse
#endif
	ret

/* boot_refuse(x10 = NUL-terminated message): print it on the early UART and park. */
boot_refuse:
	mov	x11, #EARLYCON
1:	ldrb	w12, [x10], #1
	cbz	w12, 2f
	strb	w12, [x11]			/* PL011 UARTDR */
	b	1b
2:	wfe
	b	2b

no_granule_msg:
	.ascii	"panic: this CPU lacks the " GRANULE_NAME " translation granule (ID_AA64MMFR0_EL1." TGRAN_FIELD
	.ascii	"), which this kernel was built for; rebuild with another GRANULE= or use -cpu max\r\n"
	.asciz	"kernel-exit: status=1\r\n"
#if PT_LPA2
no_lpa2_msg:
	.ascii	"panic: this CPU lacks FEAT_LPA2 for the " GRANULE_NAME " granule (ID_AA64MMFR0_EL1." TGRAN_FIELD " is not " ID_TGRAN_LPA2_STR "), "
	.ascii	"which this kernel was built for (VA_BITS=52); rebuild with VA_BITS=48 or use -cpu max\r\n"
	.asciz	"kernel-exit: status=1\r\n"
#elif PT_VA_52
no_lva_msg:
	.ascii	"panic: this CPU lacks 52-bit virtual addresses (ID_AA64MMFR2_EL1.VARange is 0: no FEAT_LVA), "
	.ascii	"which this kernel was built for (VA_BITS=52); rebuild with VA_BITS=48 or use -cpu max\r\n"
	.asciz	"kernel-exit: status=1\r\n"
#endif
	.balign	4

/*
 * clear_bss: zero [__bss_start, __bss_end) through physical addresses.
 * The boot tables and the boot stack live in .bss, so this runs first.
 */
clear_bss:
	adrp	x9, __bss_start
	add	x9, x9, :lo12:__bss_start
	adrp	x10, __bss_end
	add	x10, x10, :lo12:__bss_end
1:	cmp	x9, x10
	b.hs	2f
	stp	xzr, xzr, [x9], #16
	b	1b
2:	ret

/*
 * map_leaves: fill one boot table set with nr leaves from VA/PA on.
 *   x0 = the set's PA (the table for level l at x0 + l pages, the leaf
 *   tables after them), x1 = VA, x2 = PA, x3 = nr leaves, x4 = attributes.
 * The caller checks that the leaves fit the set's leaf tables.
 */
	.macro	link_level level		/* table at x5 -> next table at x6 */
	add	x6, x0, #(((\level) + 1) * PAGE_SZ)
	.if (\level) == 0
	ubfx	x7, x1, #PT_SHIFT(0), #(VA_BITS - PT_SHIFT(0))
	.else
	ubfx	x7, x1, #PT_SHIFT(\level), #PT_BITS_PER_LEVEL
	.endif
	orr	x8, x6, #PTE_TABLE
	str	x8, [x5, x7, lsl #3]
	.if (\level) == BOOT_LEAF_LEVEL - 1 && BOOT_LEAF_TABLES == 2
	add	x7, x7, #1			/* the second leaf table, next entry */
	add	x8, x8, #PAGE_SZ
	str	x8, [x5, x7, lsl #3]
	.endif
	mov	x5, x6
	.endm

map_leaves:
	mov	x5, x0
	link_level 0				/* BOOT_LEAF_LEVEL is 1 to 3 (3: 4K/52's 5 levels) */
#if BOOT_LEAF_LEVEL > 1
	link_level 1
#endif
#if BOOT_LEAF_LEVEL > 2
	link_level 2
#endif
	ubfx	x7, x1, #BOOT_LEAF_SHIFT, #PT_BITS_PER_LEVEL	/* first leaf index */
	orr	x8, x2, x4			/* first leaf descriptor */
1:	str	x8, [x5, x7, lsl #3]
	add	x7, x7, #1			/* may run on into the second leaf table */
	add	x8, x8, #(1 << BOOT_LEAF_SHIFT)
	subs	x3, x3, #1
	b.ne	1b
	ret

/*
 * create_boot_tables: identity-map and KIMAGE_VADDR-map the image's leaves
 * (2 MiB blocks or pages). The tables were zeroed with .bss; with the MMU off these stores
 * are non-cacheable, and the walker (which reads through the caches once
 * the MMU is on) must not see stale lines: invalidate them afterwards.
 */
create_boot_tables:
	mov	x28, x30
	adrp	x9, _end
	add	x9, x9, :lo12:_end
	sub	x9, x9, x21			/* image size in bytes */
	mov	x10, #((1 << BOOT_LEAF_SHIFT) - 1)
	add	x9, x9, x10
	lsr	x22, x9, #BOOT_LEAF_SHIFT	/* nr of leaves */
	cmp	x22, #BOOT_MAX_LEAVES
	b.hi	.				/* image too large for the boot map */
	add	x9, x21, x22, lsl #BOOT_LEAF_SHIFT
	sub	x9, x9, #1
	eor	x9, x9, x21
	lsr	x9, x9, #BOOT_CROSS_SHIFT
	cbnz	x9, .				/* image crosses what the tables can map */

	adrp	x0, boot_idmap_tables
	mov	x1, x21
	mov	x2, x21
	mov	x3, x22
	ldr	x4, =BOOT_LEAF_ATTRS
	bl	map_leaves

	adrp	x0, boot_kimage_tables
	ldr	x1, =_text
	mov	x2, x21
	mov	x3, x22
	ldr	x4, =BOOT_LEAF_ATTRS
	bl	map_leaves

	adrp	x0, boot_idmap_tables
	ldr	x1, =(2 * BOOT_TABLE_PAGES * PAGE_SZ)
	add	x1, x0, x1			/* both table sets are contiguous */
	dmb	sy				/* table stores before the invalidation */
1:	dc	ivac, x0			/* drop any stale cache line of the tables */
	add	x0, x0, #64
	cmp	x0, x1
	b.lo	1b
	dsb	sy				/* invalidation complete before the walker runs */
	mov	x30, x28
	ret

/*
 * enable_mmu(x0 = TTBR0 value, x1 = TTBR1 value): program MAIR/TCR/TTBRs
 * and turn on stage-1 translation with caches. TCR.IPS comes from
 * ID_AA64MMFR0_EL1.PARange, capped at 48 bits.
 */
enable_mmu:
	ldr	x9, =MAIR_EL1_BOOT
	msr	mair_el1, x9
	ldr	x9, =TCR_EL1_VALUE
	mrs	x10, id_aa64mmfr0_el1
	and	x10, x10, #0xf			/* PARange */
	cmp	x10, #5
	mov	x11, #5
	csel	x10, x10, x11, lo		/* at most 48-bit PA */
	bfi	x9, x10, #32, #3		/* TCR.IPS */
	msr	tcr_el1, x9
	msr	ttbr0_el1, x0
	msr	ttbr1_el1, x1
	isb					/* registers above in effect before the TLBI */
	tlbi	vmalle1				/* nothing may survive from firmware */
	dsb	nsh				/* TLBI complete before the MMU goes on */
	ldr	x9, =SCTLR_EL1_MMU_ON
	msr	sctlr_el1, x9
	isb					/* later fetches use the new translation */
	ret

/*
 * secondary_entry: where PSCI CPU_ON starts a secondary CPU (smp.c), MMU
 * off, at EL2 or EL1, x0 = physical address of its boot record (struct
 * cpu_boot_rec, cleaned to the point of coherency by the boot CPU, so these
 * non-cacheable loads see it). The boot CPU's path is reused: the same EL2
 * -> EL1 drop, then the MMU on with TTBR0 = the boot identity map (so this
 * code stays mapped) and TTBR1 = the kernel's live tables (swapper_pg_dir),
 * then a jump to the linked address. Registers: x19 = record PA, x20 =
 * entry EL, x21 = stack top (VA), x22 = CPU index.
 */
	.globl	secondary_entry
secondary_entry:
	mov	x19, x0
	mrs	x20, CurrentEL
	lsr	x20, x20, #2
	bl	el2_to_el1
	ldr	x21, [x19, #BOOT_REC_STACK]
	ldr	x22, [x19, #BOOT_REC_CPU]
	ldr	x0, [x19, #BOOT_REC_TTBR0]
	ldr	x1, [x19, #BOOT_REC_TTBR1]
	bl	enable_mmu
	ldr	x8, =secondary_high
	br	x8

/*
 * arm64_replace_ttbr1(x0 = new TTBR1 value): switch the kernel's tables.
 * Runs from the identity map, because between the two TTBR1 writes no
 * kernel virtual address is mapped. Going through an empty table with a
 * full TLB invalidation in between means no translation of the old tables
 * can coexist with one of the new tables (no TLB conflict, even where a
 * 2 MiB block becomes pages).
 *   x1 = PA of an all-zero table.
 */
	.globl	arm64_replace_ttbr1_phys
arm64_replace_ttbr1_phys:
	msr	ttbr1_el1, x1			/* kernel half now translates nothing */
	isb
	tlbi	vmalle1
	dsb	nsh				/* old kernel translations gone */
	msr	ttbr1_el1, x0
	isb					/* new tables in use from here */
	ret
	.ltorg

	.text
start_high:
	adrp	x9, boot_stack_top
	add	x9, x9, :lo12:boot_stack_top
	mov	sp, x9
	adrp	x9, vectors
	add	x9, x9, :lo12:vectors
	msr	vbar_el1, x9
	isb
	mov	x0, x19				/* DTB PA */
	mov	x1, x20				/* entry EL */
	mov	x2, x21				/* image PA */
	mov	x3, x23				/* counter at entry */
	mov	x29, xzr
	mov	x30, xzr
	bl	start_kernel
1:	wfe					/* start_kernel never returns */
	b	1b

/* A secondary at its linked address: its own stack, the vectors, then C
 * (smp.c: secondary_start_kernel(cpu, entry EL), which never returns). */
secondary_high:
	mov	sp, x21
	adrp	x9, vectors
	add	x9, x9, :lo12:vectors
	msr	vbar_el1, x9
	isb
	mov	x0, x22
	mov	x1, x20
	mov	x29, xzr
	mov	x30, xzr
	bl	secondary_start_kernel
1:	wfe
	b	1b

	.section ".bss", "aw", %nobits
	.balign	PAGE_SZ
	.globl	boot_idmap_tables, boot_kimage_tables, boot_stack_top
boot_idmap_tables:
	.space	BOOT_TABLE_PAGES * PAGE_SZ	/* 4K/48: L0, L1, L2; 4K/52: L-1, L0, L1, L2 */
boot_kimage_tables:
	.space	BOOT_TABLE_PAGES * PAGE_SZ
	.balign	16
boot_stack:
	.space	BOOT_STACK_SIZE
boot_stack_top:
