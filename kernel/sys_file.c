/*
 * sys_file.c - calls on open files: read, write, close, seek, ioctl, dup
 * and friends (the file system's own calls are in fs/sys_fs.c).
 */
#include "syscall.h"
#include "memfd.h"
#include "proc.h"
#include "vfs.h"
#include "uaccess.h"
#include "errno.h"
#include "kstring.h"
#include "printk.h"
#include "fs_file.h"
#include <asm/memlayout.h>

#define IO_CHUNK	512

/* The open file behind descriptor fd (the low 32 bits of its register), or NULL. */
static struct file *fd_get(unsigned long ufd)
{
	unsigned fd = arg_uint(ufd);

	if (fd >= NOFILE)
		return NULL;
	return current_proc()->fdt->files[fd];
}

#define FD_CLOEXEC	1

/* Install f at the lowest free descriptor >= from; -EMFILE if none. */
static long fd_install_flags(struct file *f, unsigned from, bool cloexec)
{
	long fd = fd_install(f, from);

	if (fd >= 0)
		current_proc()->fdt->cloexec[fd] = cloexec;
	return fd;
}

long fd_install(struct file *f, unsigned from)
{
	struct proc *p = current_proc();
	long limit = (long)MIN(p->rlim[RLIMIT_NOFILE].cur, (u64)NOFILE);

	for (long fd = from; fd < limit; fd++) {
		if (!p->fdt->files[fd]) {
			p->fdt->files[fd] = f;
			return fd;
		}
	}
	return -EMFILE;
}

long sys_read(const unsigned long *a)
{
	struct file *f = fd_get(a[0]);
	char kbuf[IO_CHUNK];
	unsigned long ubuf = a[1];
	size_t n = a[2], done = 0;

	if (!f)
		return -EBADF;
	if (!user_range_ok(ubuf, n))
		return -EFAULT;
	while (done < n) {
		size_t want = MIN(n - done, sizeof(kbuf));
		long got = f->ops->read(f, kbuf, want, &f->off);

		if (got < 0)
			return done ? (long)done : got;
		if (got && copy_to_user((void *)(ubuf + done), kbuf, (size_t)got))
			return done ? (long)done : -EFAULT;
		done += (size_t)got;
		if ((size_t)got < want)
			break;	/* short read: nothing more for now */
	}
	return (long)done;
}

/* Write n bytes from user memory at ubuf to f. */
static long write_user(struct file *f, unsigned long ubuf, size_t n)
{
	char kbuf[IO_CHUNK];
	size_t done = 0;

	if (!user_range_ok(ubuf, n))
		return -EFAULT;
	while (done < n) {
		size_t chunk = MIN(n - done, sizeof(kbuf));
		long put;

		if (copy_from_user(kbuf, (const void *)(ubuf + done), chunk))
			return done ? (long)done : -EFAULT;
		put = f->ops->write(f, kbuf, chunk, &f->off);
		if (put < 0)
			return done ? (long)done : put;
		done += (size_t)put;
	}
	return (long)done;
}

long sys_write(const unsigned long *a)
{
	struct file *f = fd_get(a[0]);

	return f ? write_user(f, a[1], a[2]) : -EBADF;
}

/* Linux's MAX_RW_COUNT: one call moves at most this much. */
#define MAX_RW_COUNT	(0x7ffff000UL & ~(PAGE_SIZE - 1))

/*
 * sendfile(out_fd, in_fd, offset, count) with an offset of off_size bytes
 * (long for sendfile, 8 for MicroBlaze's sendfile64): copy up to count
 * bytes from in_fd to out_fd through a kernel buffer, from *offset
 * (updated; in_fd's own position stays) when offset is not NULL, else from
 * in_fd's position. As Linux: EBADF for a descriptor that is not open or
 * a file of the file system not open for reading (in) or writing (out),
 * EINVAL for an out_fd opened O_APPEND or a negative *offset, EFAULT for a
 * bad offset pointer. Returns the bytes copied (a short count when a read
 * or write stops early: what was moved counts, as for read and write).
 */
static long do_sendfile(const unsigned long *a, size_t off_size)
{
	struct file *out = fd_get(a[0]), *in = fd_get(a[1]);
	unsigned long uoff = a[2];
	size_t count = MIN((size_t)a[3], (size_t)MAX_RW_COUNT), done = 0;
	char kbuf[IO_CHUNK];
	s64 off = 0;
	u64 pos;

	if (!in || (in->inode && (in->flags & O_ACCMODE) == O_WRONLY))
		return -EBADF;
	if (!out || (out->inode && (out->flags & O_ACCMODE) == O_RDONLY))
		return -EBADF;
	if (out->inode && (out->flags & O_APPEND))
		return -EINVAL;
	if (uoff) {
		if (off_size == 8) {
			if (copy_from_user(&off, (const void *)uoff, 8))
				return -EFAULT;
		} else {
			long o;

			if (copy_from_user(&o, (const void *)uoff, sizeof(o)))
				return -EFAULT;
			off = o;
		}
		if (off < 0)
			return -EINVAL;
	}
	pos = uoff ? (u64)off : in->off;
	while (done < count) {
		long got = in->ops->read(in, kbuf, MIN(count - done, sizeof(kbuf)), &pos), put = 0;

		if (got <= 0) {
			if (got < 0 && !done)
				done = (size_t)got;
			break;
		}
		while (put < got) {
			long w = out->ops->write(out, kbuf + put, (size_t)(got - put), &out->off);

			if (w <= 0) {
				if (w < 0 && !done && !put)
					return w;
				break;
			}
			put += w;
		}
		done += (size_t)put;
		if (put < got) {
			pos -= (u64)(got - put);	/* the position moves back over what was not written */
			break;
		}
	}
	if ((long)done < 0)
		return (long)done;
	if (!uoff)
		in->off = pos;
	else if (off_size == 8 ? copy_to_user((void *)uoff, &pos, 8)
			       : copy_to_user((void *)uoff, &(long){ (long)pos }, sizeof(long)))
		return -EFAULT;
	return (long)done;
}

long sys_sendfile(const unsigned long *a)
{
	return do_sendfile(a, sizeof(long));
}

long sys_sendfile64(const unsigned long *a)
{
	return do_sendfile(a, 8);
}

struct iovec_user {
	unsigned long base, len;
};

long sys_writev(const unsigned long *a)
{
	struct file *f = fd_get(a[0]);
	long total = 0;

	if (!f)
		return -EBADF;
	if ((long)a[2] < 0 || a[2] > 1024)
		return -EINVAL;
	for (unsigned long i = 0; i < a[2]; i++) {
		struct iovec_user iov;
		long n;

		if (copy_from_user(&iov, (const void *)(a[1] + i * sizeof(iov)), sizeof(iov)))
			return total ? total : -EFAULT;
		n = write_user(f, iov.base, iov.len);
		if (n < 0)
			return total ? total : n;
		total += n;
	}
	return total;
}

long sys_readv(const unsigned long *a)
{
	long total = 0;

	if (!fd_get(a[0]))
		return -EBADF;
	if ((long)a[2] < 0 || a[2] > 1024)
		return -EINVAL;
	for (unsigned long i = 0; i < a[2]; i++) {
		struct iovec_user iov;
		unsigned long args[3];
		long n;

		if (copy_from_user(&iov, (const void *)(a[1] + i * sizeof(iov)), sizeof(iov)))
			return total ? total : -EFAULT;
		args[0] = a[0];
		args[1] = iov.base;
		args[2] = iov.len;
		n = sys_read(args);
		if (n < 0)
			return total ? total : n;
		total += n;
		if ((unsigned long)n < iov.len)
			break;
	}
	return total;
}

long sys_close(const unsigned long *a)
{
	struct proc *p = current_proc();
	struct file *f = fd_get(a[0]);
	unsigned fd = arg_uint(a[0]);

	if (!f)
		return -EBADF;
	p->fdt->files[fd] = NULL;
	p->fdt->cloexec[fd] = false;
	file_close(f);
	return 0;
}

#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

/* Move fd's offset; the new offset goes to *pos. */
static long do_lseek(unsigned long fd, s64 off, unsigned whence, s64 *pos)
{
	struct file *f = fd_get(fd);
	s64 base;

	if (!f)
		return -EBADF;
	if ((f->st.mode & S_IFMT) == S_IFCHR && !f->inode)
		return -ESPIPE;	/* the console */
	switch (whence) {
	case SEEK_SET: base = 0; break;
	case SEEK_CUR: base = (s64)f->off; break;
	case SEEK_END: base = (s64)fs_file_size(f); break;
	default: return -EINVAL;
	}
	if (base + off < 0)
		return -EINVAL;
	f->off = (u64)(base + off);
	*pos = (s64)f->off;
	return 0;
}

/*
 * lseek(fd, offset, whence). The offset is a long: on a 32-bit arch a
 * position that does not fit gives EOVERFLOW (and the offset is moved
 * all the same, as Linux does).
 */
long sys_lseek(const unsigned long *a)
{
	s64 pos;
	long rc = do_lseek(a[0], (long)a[1], arg_uint(a[2]), &pos);

	if (rc)
		return rc;
	return pos == (long)pos ? (long)pos : -EOVERFLOW;
}

/* _llseek(fd, offset_high, offset_low, loff_t *result, whence): 32-bit arches. */
long sys_llseek(const unsigned long *a)
{
	s64 pos;
	long rc = do_lseek(a[0], (s64)(((u64)(u32)a[1] << 32) | (u32)a[2]), arg_uint(a[4]), &pos);

	if (rc)
		return rc;
	return copy_to_user((void *)a[3], &pos, sizeof(pos)) ? -EFAULT : 0;
}

long sys_ioctl(const unsigned long *a)
{
	struct file *f = fd_get(a[0]);

	if (!f)
		return -EBADF;
	return f->ops->ioctl ? f->ops->ioctl(f, arg_uint(a[1]), a[2]) : -ENOTTY;
}

long sys_dup(const unsigned long *a)
{
	struct file *f = fd_get(a[0]);
	long fd;

	if (!f)
		return -EBADF;
	fd = fd_install_flags(file_dup(f), 0, false);
	if (fd < 0)
		file_close(f);
	return fd;
}

long sys_dup3(const unsigned long *a)
{
	struct proc *p = current_proc();
	struct file *f = fd_get(a[0]);
	unsigned newfd = arg_uint(a[1]);
	int flags = arg_int(a[2]);

	if (flags & ~O_CLOEXEC)
		return -EINVAL;
	if (!f || newfd >= NOFILE)
		return -EBADF;
	if (newfd == arg_uint(a[0]))
		return -EINVAL;
	if (p->fdt->files[newfd])
		file_close(p->fdt->files[newfd]);
	p->fdt->files[newfd] = file_dup(f);
	p->fdt->cloexec[newfd] = flags & O_CLOEXEC;
	return newfd;
}

#define F_DUPFD		0
#define F_GETFD		1
#define F_SETFD		2
#define F_GETFL		3
#define F_SETFL		4
#define F_DUPFD_CLOEXEC	1030

/*
 * fcntl(fd, cmd, arg): fd and cmd are 32-bit, and so is arg for the
 * commands here (Linux reads it as an int). F_DUPFD takes that int as an
 * unsigned lowest descriptor: one at or above RLIMIT_NOFILE (a negative
 * one included) is EINVAL.
 */
long sys_fcntl(const unsigned long *a)
{
	struct proc *p = current_proc();
	struct file *f = fd_get(a[0]);
	unsigned fd = arg_uint(a[0]), cmd = arg_uint(a[1]), from = arg_uint(a[2]);
	long newfd;

	if (!f)
		return -EBADF;
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		if (from >= p->rlim[RLIMIT_NOFILE].cur)
			return -EINVAL;
		newfd = fd_install_flags(file_dup(f), from, cmd == F_DUPFD_CLOEXEC);
		if (newfd < 0)
			file_close(f);
		return newfd;
	case F_GETFD:
		return p->fdt->cloexec[fd] ? FD_CLOEXEC : 0;
	case F_SETFD:
		p->fdt->cloexec[fd] = arg_int(a[2]) & FD_CLOEXEC;
		return 0;
	case F_SETFL:
		return 0;
	case F_GETFL:
		if (f->inode)
			return f->flags;
		return f->data ? 0 : 2;	/* O_RDONLY /proc files, O_RDWR console */
	case 1033:	/* F_ADD_SEALS */
	case 1034:	/* F_GET_SEALS */
		return memfd_fcntl(f, cmd, from);
	default:
		return -EINVAL;
	}
}
