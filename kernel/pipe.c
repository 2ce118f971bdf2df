/*
 * pipe.c - pipes: a 64 KiB ring buffer between a read end and a write
 * end, with blocking reads and writes (sleeping on the pipe).
 */
#include "vfs.h"
#include "proc.h"
#include "errno.h"
#include "kstring.h"
#include "page_alloc.h"
#include "syscall.h"
#include "uaccess.h"
#include "poll.h"

#define PIPE_ORDER 4			/* 64 KiB, Linux's default pipe capacity */
#define PIPE_SIZE (PAGE_SIZE << PIPE_ORDER)

struct pipe {
	u8 *buf;		/* PIPE_SIZE bytes */
	size_t head, tail;	/* bytes written and read so far */
	int readers, writers;
};

static long pipe_read(struct file *f, void *dst, size_t n, u64 *off)
{
	struct pipe *p = f->priv;
	size_t got = 0;

	(void)off;
	while (p->head == p->tail) {
		if (!p->writers)
			return 0;	/* end of file */
		if (sleep_on(p, 0) == -EINTR)
			return -ERESTARTSYS;
	}
	while (got < n && p->tail != p->head) {
		((u8 *)dst)[got++] = p->buf[p->tail % PIPE_SIZE];
		p->tail++;
	}
	wakeup(p);
	return (long)got;
}

static long pipe_write(struct file *f, const void *src, size_t n, u64 *off)
{
	struct pipe *p = f->priv;
	size_t put = 0;

	(void)off;
	while (put < n) {
		if (!p->readers) {
			struct ksiginfo si = { .signo = SIGPIPE, .code = SI_USER,
					       .pid = current_proc()->pid };

			signal_send_thread(current_proc(), &si);
			return put ? (long)put : -EPIPE;
		}
		if (p->head - p->tail == PIPE_SIZE) {
			wakeup(p);
			if (sleep_on(p, 0) == -EINTR)
				return put ? (long)put : -ERESTARTSYS;
			continue;
		}
		p->buf[p->head % PIPE_SIZE] = ((const u8 *)src)[put++];
		p->head++;
	}
	wakeup(p);
	return (long)put;
}

/* Read end: data or no writer left (POLLHUP); write end: room, or no
 * reader left (POLLERR). */
static unsigned pipe_poll(struct file *f)
{
	struct pipe *p = f->priv;

	if (f->st.mode & 0200)
		return (p->head - p->tail < PIPE_SIZE ? POLLOUT | POLLWRNORM : 0) | (p->readers ? 0 : POLLERR);
	return (p->head != p->tail ? POLLIN | POLLRDNORM : 0) | (p->writers ? 0 : POLLHUP);
}

/* Closing one end: the last close of both frees the pipe. */
static void pipe_release(struct file *f)
{
	struct pipe *p = f->priv;

	if (f->st.mode & 0200)
		p->writers--;
	else
		p->readers--;
	wakeup(p);
	if (!p->readers && !p->writers) {
		free_pages(phys_to_page(virt_to_phys(p->buf)), PIPE_ORDER);
		free_page_va(p);
	}
}

static const struct file_ops pipe_ops = { .read = pipe_read, .write = pipe_write,
					  .poll = pipe_poll, .release = pipe_release };

/* pipe2(fds[2], flags): fds[0] reads, fds[1] writes. */
long sys_pipe2(const unsigned long *a)
{
	struct proc *me = current_proc();
	struct pipe *p = alloc_page_va(GFP_ZERO);
	struct page *bp = alloc_pages(0, PIPE_ORDER);
	u8 *buf = bp ? page_address(bp) : NULL;
	struct file *ends[2];
	int fds[2] = { -1, -1 };
	long err;

	if (!p || !buf) {
		if (p)
			free_page_va(p);
		if (bp)
			free_pages(bp, PIPE_ORDER);
		return -ENOMEM;
	}
	p->buf = buf;
	err = file_alloc_pair(ends);
	if (err) {
		free_pages(bp, PIPE_ORDER);
		free_page_va(p);
		return err;
	}
	for (int i = 0; i < 2; i++) {
		ends[i]->ops = &pipe_ops;
		ends[i]->priv = p;
		ends[i]->st.mode = 0010000 | (i ? 0200 : 0400);	/* S_IFIFO, w or r */
	}
	p->readers = p->writers = 1;
	for (int fd = 0, i = 0; fd < NOFILE && i < 2; fd++)
		if (!me->fdt->files[fd])
			fds[i++] = fd;
	if (fds[1] < 0) {
		file_close(ends[0]);
		file_close(ends[1]);
		return -EMFILE;
	}
	if (copy_to_user((void *)a[0], fds, sizeof(fds))) {
		file_close(ends[0]);
		file_close(ends[1]);
		return -EFAULT;
	}
	me->fdt->files[fds[0]] = ends[0];
	me->fdt->files[fds[1]] = ends[1];
	me->fdt->cloexec[fds[0]] = me->fdt->cloexec[fds[1]] = arg_int(a[1]) & O_CLOEXEC;
	return 0;
}
