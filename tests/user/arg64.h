/*
 * arg64.h - ARG64(v): a 64-bit system-call argument as syscall() takes it.
 * On arm64 it is one register; on 32-bit MicroBlaze it is a register pair,
 * in memory order (low word first on the little-endian boards), which is
 * how Linux's 32-bit ABIs pass loff_t (fallocate, ftruncate64, ...).
 */
#ifndef ARG64_H
#define ARG64_H

#include <stdint.h>

#if defined(__aarch64__)
#define ARG64(v) (long)(v)
#elif defined(__microblaze__)
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG64(v) (long)(uint32_t)(uint64_t)(v), (long)(uint32_t)((uint64_t)(v) >> 32)
#else
#define ARG64(v) (long)(uint32_t)((uint64_t)(v) >> 32), (long)(uint32_t)(uint64_t)(v)
#endif
#else
#error "arg64.h: unsupported architecture"
#endif

#endif
