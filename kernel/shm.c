/*
 * shm.c - System V shared memory: shmget, shmat, shmdt and shmctl with
 * Linux's argument checks, errno and struct shmid64_ds.
 *
 * A segment is a slot of segs[] whose pages are an internal memfd
 * (memfd_object_create, kernel/memfd.c), so the page store, the page
 * references and the address-space checker's view of them are memfd's.
 * The segment is itself a vma_file whose page() asks the memfd: each
 * attach (a MAP_SHARED VMA, named "/SYSV<key> (deleted)" as Linux shows
 * it) holds one reference, and so does the table while the segment is
 * not removed. The number of attaches (shm_nattch) is therefore the
 * reference count less the table's; fork copies the VMAs (one more each),
 * exec, exit and shmdt drop them. IPC_RMID marks the segment SHM_DEST and
 * frees its key; the id stays valid until the last attach is gone, as on
 * Linux. MADV_REMOVE through an attach punches the segment's pages out of
 * every attach (shm_punch); /proc/PID/maps shows an attach with device
 * 00:01 and the id as its inode, as Linux's newseg() sets them.
 *
 * An id is seq * SHMMNI + slot: a freed slot answers EINVAL, a reused
 * slot under an old id EIDRM. Differences from Linux: every process is
 * root here, so permissions are recorded but never refused; no SHM_LOCK,
 * no hugetlb segments; times count seconds since boot; MicroBlaze's
 * shmctl without IPC_64 (the old struct shmid_ds) is EINVAL but for IPC_RMID.
 */
#include "syscall.h"
#include "proc.h"
#include "mm_ops.h"
#include "mman.h"
#include "errno.h"
#include "kstring.h"
#include "uaccess.h"
#include "memfd.h"
#include "ktime.h"
#include "printk.h"
#include "vma.h"

#define IPC_PRIVATE	0
#define IPC_CREAT	01000
#define IPC_EXCL	02000
#define IPC_RMID	0
#define IPC_SET		1
#define IPC_STAT	2
#define IPC_INFO	3
#define IPC_64		0x0100
#define SHM_STAT	13
#define SHM_INFO	14
#define SHM_STAT_ANY	15
#define SHM_RDONLY	010000
#define SHM_RND		020000
#define SHM_REMAP	040000
#define SHM_EXEC	0100000
#define SHM_DEST	01000	/* in shm_perm.mode: removed, still attached */

#define SHMMIN		1
#define SHMMAX		(~0ul - (1ul << 24))	/* Linux's default */
#define SHMMNI		64	/* segments (Linux: 4096) */
#define SHMLBA		PAGE_SIZE	/* both arches' Linux */
#define PAGE_ALIGN_UL(x) (((x) + PAGE_SIZE - 1) & ~(unsigned long)(PAGE_SIZE - 1))

struct shm_seg {
	struct vma_file vf;		/* first: what the attaches map */
	struct vma_file *mem;		/* the pages: an internal memfd */
	bool used;			/* the slot holds a segment */
	bool dest;			/* IPC_RMID done: the table's reference is gone */
	int key;
	unsigned seq;			/* the id's upper part */
	unsigned long size;		/* bytes asked for (shm_segsz) */
	unsigned mode;			/* permission bits */
	u32 uid, gid, cuid, cgid;
	int cpid, lpid;
	long atime, dtime, ctime;
	char name[32];			/* "/SYSV%08x (deleted)" */
};

static struct shm_seg segs[SHMMNI];

struct ipc64_perm_abi {
	int key;
	u32 uid, gid, cuid, cgid;
	u32 mode;
	unsigned short seq, pad2;
	unsigned long unused1, unused2;
};

/* asm-generic's struct shmid64_ds (both arches) */
struct shmid64_ds_abi {
	struct ipc64_perm_abi perm;
	unsigned long segsz;
#if __SIZEOF_LONG__ == 8
	long atime, dtime, ctime;
#else
	unsigned long atime, atime_high, dtime, dtime_high, ctime, ctime_high;
#endif
	int cpid, lpid;
	unsigned long nattch, unused4, unused5;
};

struct shminfo64_abi {
	unsigned long shmmax, shmmin, shmmni, shmseg, shmall, unused[4];
};

struct shm_info_abi {
	int used_ids;
	unsigned long shm_tot, shm_rss, shm_swp, swap_attempts, swap_successes;
};

static long now_s(void)
{
	return (long)(ktime_ns() / 1000000000ull);
}

static struct shm_seg *to_seg(struct vma_file *f)
{
	return (struct shm_seg *)f;
}

/* ---- the vma_file side: every attach maps the memfd's pages ---- */

static struct page *shm_vma_page(struct vma_file *f, u64 pgoff)
{
	struct vma_file *mem = to_seg(f)->mem;

	return mem->ops->page(mem, pgoff);
}

static bool shm_vma_cached(struct vma_file *f, u64 pgoff)
{
	struct vma_file *mem = to_seg(f)->mem;

	return mem->ops->cached(mem, pgoff);
}

/* The last attach is gone after IPC_RMID (or RMID found none): free the slot. */
static void shm_release(struct vma_file *f)
{
	struct shm_seg *s = to_seg(f);

	vma_file_put(s->mem);
	s->mem = NULL;
	s->used = false;
	s->seq++;
}

static int shm_id(const struct shm_seg *s);

/* As Linux's newseg() makes it: the shmem device, the segment's id as inode. */
static void shm_ident(struct vma_file *f, u32 *dev, u64 *ino)
{
	*dev = MEMFD_DEV;
	*ino = (u64)shm_id(to_seg(f));
}

/* MADV_REMOVE of an attach (MA-9): the hole goes in the segment's pages,
 * and leaves every attach that maps them. */
static void shm_punch(struct vma_file *f, u64 off, u64 end)
{
	struct vma_file *mem = to_seg(f)->mem;

	mem->ops->punch(mem, off, end);
}

static const struct vma_file_ops shm_vma_ops = {
	.page = shm_vma_page,
	.ident = shm_ident,
	.punch = shm_punch,
	.cached = shm_vma_cached,
	.release = shm_release,
};

/* Attaches of s: its references less the table's. */
static unsigned long shm_nattch(const struct shm_seg *s)
{
	return (unsigned long)(s->vf.refs - (s->dest ? 0 : 1));
}

static int shm_id(const struct shm_seg *s)
{
	return (int)(s->seq % 32768u * SHMMNI + (unsigned)(s - segs));
}

/* The segment of id, or NULL with *err: EINVAL (no such slot), EIDRM (an old id). */
static struct shm_seg *shm_lookup(int id, long *err)
{
	struct shm_seg *s;

	*err = -EINVAL;
	if (id < 0)
		return NULL;
	s = &segs[(unsigned)id % SHMMNI];
	if (!s->used)
		return NULL;
	if ((unsigned)id / SHMMNI != s->seq % 32768u) {
		*err = -EIDRM;
		return NULL;
	}
	return s;
}

/* A new segment of size bytes under key: its id or -ENOSPC / -ENOMEM. */
static long shm_create(int key, unsigned long size, unsigned flags)
{
	struct proc *p = current_proc();
	struct shm_seg *s = NULL;

	for (int i = 0; i < SHMMNI && !s; i++)
		if (!segs[i].used)
			s = &segs[i];
	if (!s)
		return -ENOSPC;
	s->mem = memfd_object_create(size, &s->vf);
	if (!s->mem)
		return -ENOMEM;
	s->vf.refs = 1;		/* the table's */
	s->vf.ops = &shm_vma_ops;
	s->used = true;
	s->dest = false;
	s->key = key;
	s->size = size;
	s->mode = flags & 0777;
	s->uid = s->cuid = p->uid[1];
	s->gid = s->cgid = p->gid[1];
	s->cpid = p->pid;
	s->lpid = 0;
	s->atime = s->dtime = 0;
	s->ctime = now_s();
	snprintk(s->name, sizeof(s->name), "/SYSV%08x (deleted)", (unsigned)key);
	return shm_id(s);
}

/* shmget(key, size, flags): the id of key's segment, created if asked. */
long sys_shmget(const unsigned long *a)
{
	int key = (int)a[0];
	unsigned long size = a[1];
	unsigned flags = arg_uint(a[2]);
	struct shm_seg *s = NULL;

	if (key != IPC_PRIVATE)
		for (int i = 0; i < SHMMNI && !s; i++)
			if (segs[i].used && !segs[i].dest && segs[i].key == key)
				s = &segs[i];
	if (!s) {
		if (key != IPC_PRIVATE && !(flags & IPC_CREAT))
			return -ENOENT;
		if (size < SHMMIN || size > SHMMAX)
			return -EINVAL;
		return shm_create(key, size, flags);
	}
	if ((flags & IPC_CREAT) && (flags & IPC_EXCL))
		return -EEXIST;
	if (size > s->size)
		return -EINVAL;
	return shm_id(s);
}

/* shmat(id, addr, flags): map the whole segment shared; its address. */
long sys_shmat(const unsigned long *a)
{
	struct proc *p = current_proc();
	unsigned long addr = a[1], len, prot = PROT_READ, mflags = MAP_SHARED;
	unsigned flags = arg_uint(a[2]);
	unsigned may_not = 0;
	struct shm_seg *s;
	long err, r;

	if (!(s = shm_lookup((int)a[0], &err)))
		return err;
	len = PAGE_ALIGN_UL(s->size);
	if (addr) {
		/* Linux's order: round (possibly to 0, still MAP_FIXED), then check */
		if (addr & (SHMLBA - 1)) {
			if (!(flags & SHM_RND))
				return -EINVAL;
			addr &= ~(unsigned long)(SHMLBA - 1);
			if (!addr && (flags & SHM_REMAP))
				return -EINVAL;
		}
		if (addr && !(flags & SHM_REMAP) && mm_range_mapped(p->mm, addr, addr + len))
			return -EINVAL;
		mflags |= MAP_FIXED;
	} else if (flags & SHM_REMAP) {
		return -EINVAL;
	}
	if (flags & SHM_RDONLY)
		may_not = VM_MAYWRITE;
	else
		prot |= PROT_WRITE;
	if (flags & SHM_EXEC)
		prot |= PROT_EXEC;
	r = mm_mmap(p->mm, addr, len, prot, mflags, &(struct mmap_file){ &s->vf, s->name, may_not, 0 }, 0);
	if (r < 0 && (unsigned long)r > (unsigned long)-4096)
		return r;
	s->lpid = p->pid;
	s->atime = now_s();
	return r;
}

/* shmdt(addr): unmap the attach that starts at addr. */
long sys_shmdt(const unsigned long *a)
{
	struct proc *p = current_proc();
	unsigned long addr = a[0];
	struct vma *v;
	struct shm_seg *s;

	if (addr & (PAGE_SIZE - 1))
		return -EINVAL;
	v = vma_find(p->mm, addr);
	if (!v || v->start != addr || !v->file || v->file->ops != &shm_vma_ops || v->offset != 0)
		return -EINVAL;
	s = to_seg(v->file);
	s->lpid = p->pid;
	s->dtime = now_s();
	/* this segment's VMAs from addr over its size; other mappings stay */
	for (unsigned long cur = addr, end = addr + PAGE_ALIGN_UL(s->size);
	     (v = vma_find_from(p->mm, cur)) && v->start < end; ) {
		unsigned long vs = v->start, ve = MIN(v->end, end);
		bool ours = v->file == &s->vf;

		cur = v->end;
		if (ours)
			mm_munmap(p->mm, vs, ve - vs);	/* may free s after IPC_RMID */
	}
	return 0;
}

static void shm_fill_stat(const struct shm_seg *s, struct shmid64_ds_abi *d)
{
	memset(d, 0, sizeof(*d));
	d->perm.key = s->dest ? IPC_PRIVATE : s->key;
	d->perm.uid = s->uid;
	d->perm.gid = s->gid;
	d->perm.cuid = s->cuid;
	d->perm.cgid = s->cgid;
	d->perm.mode = s->mode | (s->dest ? SHM_DEST : 0);
	d->perm.seq = (unsigned short)s->seq;
	d->segsz = s->size;
	d->atime = (unsigned long)s->atime;
	d->dtime = (unsigned long)s->dtime;
	d->ctime = (unsigned long)s->ctime;
	d->cpid = s->cpid;
	d->lpid = s->lpid;
	d->nattch = shm_nattch(s);
}

/* IPC_INFO and SHM_INFO: the limits or the usage; the highest used slot. */
static long shm_info(int cmd, void *ubuf)
{
	int top = 0;

	for (int i = 0; i < SHMMNI; i++)
		if (segs[i].used)
			top = i;
	if (cmd == IPC_INFO) {
		struct shminfo64_abi in = { SHMMAX, SHMMIN, SHMMNI, SHMMNI, ~0ul >> 12, { 0 } };

		if (copy_to_user(ubuf, &in, sizeof(in)))
			return -EFAULT;
	} else {
		struct shm_info_abi in;

		memset(&in, 0, sizeof(in));
		for (int i = 0; i < SHMMNI; i++) {
			if (segs[i].used) {
				in.used_ids++;
				in.shm_tot += PAGE_ALIGN_UL(segs[i].size) / PAGE_SIZE;
			}
		}
		if (copy_to_user(ubuf, &in, sizeof(in)))
			return -EFAULT;
	}
	return top;
}

/* shmctl(id, cmd, buf): IPC_STAT, IPC_SET, IPC_RMID, IPC_INFO, SHM_INFO. */
long sys_shmctl(const unsigned long *a)
{
	int cmd = (int)a[1];
	void *ubuf = (void *)a[2];
	struct shmid64_ds_abi d;
	struct shm_seg *s;
	long err;

	if (cmd < 0 || (int)a[0] < 0)
		return -EINVAL;
#if __SIZEOF_LONG__ == 4
	/* old_shmctl: IPC_64 asks for struct shmid64_ds (both libcs pass it);
	 * the old layouts are not supported, so only IPC_RMID goes without */
	if (!(cmd & IPC_64) && cmd != IPC_RMID)
		return -EINVAL;
	cmd &= ~IPC_64;
#endif
	if (cmd == IPC_INFO || cmd == SHM_INFO)
		return shm_info(cmd, ubuf);
	if (cmd != IPC_STAT && cmd != IPC_SET && cmd != IPC_RMID)
		return -EINVAL;
	if (cmd == IPC_SET && copy_from_user(&d, ubuf, sizeof(d)))
		return -EFAULT;
	if (!(s = shm_lookup((int)a[0], &err)))
		return err;
	switch (cmd) {
	case IPC_STAT:
		shm_fill_stat(s, &d);
		return copy_to_user(ubuf, &d, sizeof(d)) ? -EFAULT : 0;
	case IPC_SET:
		s->uid = d.perm.uid;
		s->gid = d.perm.gid;
		s->mode = d.perm.mode & 0777;
		s->ctime = now_s();
		return 0;
	default:	/* IPC_RMID */
		if (!s->dest) {
			s->dest = true;
			vma_file_put(&s->vf);	/* the table's: frees an unattached segment */
		}
		return 0;
	}
}
