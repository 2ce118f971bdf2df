/* sys/mman.h - the generic Linux values (arm64 and MicroBlaze share them). */
#ifndef _SYS_MMAN_H
#define _SYS_MMAN_H
#include <bits/types.h>

#define PROT_NONE  0x0
#define PROT_READ  0x1
#define PROT_WRITE 0x2
#define PROT_EXEC  0x4

#define MAP_SHARED          0x01
#define MAP_PRIVATE         0x02
#define MAP_FIXED           0x10
#define MAP_ANONYMOUS       0x20
#define MAP_ANON            MAP_ANONYMOUS
#define MAP_GROWSDOWN       0x0100
#define MAP_NORESERVE       0x4000
#define MAP_POPULATE        0x8000
#define MAP_STACK           0x20000
#define MAP_HUGETLB         0x40000
#define MAP_FIXED_NOREPLACE 0x100000
#define MAP_FAILED          ((void *)-1)

#define MADV_NORMAL    0
#define MADV_DONTNEED  4

#define MREMAP_MAYMOVE 1
#define MREMAP_FIXED   2

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int munmap(void *addr, size_t len);
int mprotect(void *addr, size_t len, int prot);
int madvise(void *addr, size_t len, int advice);

#endif
