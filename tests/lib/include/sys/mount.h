/* sys/mount.h */
#ifndef _SYS_MOUNT_H
#define _SYS_MOUNT_H
int mount(const char *source, const char *target, const char *fstype,
	  unsigned long flags, const void *data);
#endif
