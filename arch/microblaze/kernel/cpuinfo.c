/*
 * cpuinfo.c - /proc/cpuinfo in the key/value layout of MicroBlaze Linux,
 * from the processor version registers: the version, the byte order, the
 * optional instructions (PVR2) and the exceptions the CPU raises.
 */
#include "types.h"
#include "printk.h"
#include "procfs_pid.h"
#include "mb.h"
#include <asm/mmu.h>

/* PVR2 bits (Xilinx's MicroBlaze reference guide). */
#define PVR2_MSR_INSTR	0x00020000
#define PVR2_PCMP_INSTR	0x00010000
#define PVR2_BARREL	0x00004000
#define PVR2_DIV	0x00002000
#define PVR2_HW_MUL	0x00001000
#define PVR2_FPU	0x00000800
#define PVR2_MUL64	0x00000400
#define PVR2_FPU2	0x00000200
#define PVR2_FPU_EXC	0x00000001
#define PVR0_MMU	0x00800000
#define PVR0_LITTLE	0x00200000

static const char *version_name(unsigned code)
{
	switch (code) {
	case 0x0b: return "7.10.d";
	case 0x14: return "8.10.a";
	default: return "unknown";
	}
}

static const char *yes(u32 v)
{
	return v ? "yes" : "no";
}

size_t arch_cpuinfo(char *buf, size_t size)
{
	u32 pvr0 = mfs(rpvr0), pvr2 = mfs(rpvr2);
	int n;

	n = snprintk(buf, size,
		     "CPU-Family:\tMicroBlaze\nCPU-Ver:\t%s, %s endian\nHW:\n Shift:\t\t%s\n MSR:\t\t%s\n"
		     " PCMP:\t\t%s\n DIV:\t\t%s\n MMU:\t\t%s\n MUL:\t\t%s\n FPU:\t\t%s\n"
		     " Exc:\t\t%s%s%s%s%s\nPage size:\t%lu\n",
		     version_name((pvr0 >> 8) & 0xff), (pvr0 & PVR0_LITTLE) ? "little" : "big",
		     yes(pvr2 & PVR2_BARREL), yes(pvr2 & PVR2_MSR_INSTR), yes(pvr2 & PVR2_PCMP_INSTR),
		     yes(pvr2 & PVR2_DIV), yes(pvr0 & PVR0_MMU),
		     (pvr2 & PVR2_MUL64) ? "v2" : (pvr2 & PVR2_HW_MUL) ? "v1" : "no",
		     (pvr2 & PVR2_FPU2) ? "extended" : (pvr2 & PVR2_FPU) ? "basic" : "no",
		     (pvr2 & PVR2_OPCODE_0_ILL) ? "OPC0 " : "", (pvr2 & PVR2_UNALIGNED) ? "UNA " : "",
		     (pvr2 & PVR2_ILL_OPCODE) ? "ILL " : "", (pvr2 & PVR2_DIV_ZERO) ? "DIV " : "",
		     (pvr2 & PVR2_FPU_EXC) ? "FPU " : "", (unsigned long)PAGE_SIZE);
	return (size_t)n < size ? (size_t)n : size - 1;
}
