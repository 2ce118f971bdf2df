/*
 * procfs_pid.h - /proc/<pid>/{stat,status,cmdline,comm}, /proc/stat,
 * /proc/uptime, /proc/loadavg and /proc/cpuinfo (procfs_pid.c).
 */
#ifndef PROCFS_PID_H
#define PROCFS_PID_H

#include "types.h"

/* Generate path's text into buf (at most size bytes, NUL-terminated when
 * text); returns its length, or -ENOENT when path is none of these files. */
long procfs_pid_generate(const char *path, char *buf, size_t size);

/* /proc/cpuinfo in the format of the arch's Linux (arch/<arch>/kernel/cpuinfo.c). */
size_t arch_cpuinfo(char *buf, size_t size);

#endif
