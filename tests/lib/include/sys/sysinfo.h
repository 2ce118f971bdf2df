/* sys/sysinfo.h - struct sysinfo as Linux's uapi lays it out for the
 * arch's long (112 bytes with 64-bit longs, 64 with 32-bit ones), and
 * sysinfo(), as in glibc. */
#ifndef _SYS_SYSINFO_H
#define _SYS_SYSINFO_H

struct sysinfo {
	long uptime;
	unsigned long loads[3];
	unsigned long totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	unsigned short procs, pad;
	unsigned long totalhigh, freehigh;
	unsigned int mem_unit;
	char _f[20 - 2 * sizeof(long) - sizeof(int)];
};

int sysinfo(struct sysinfo *info);

#endif
