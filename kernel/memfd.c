/*
 * memfd.c - anonymous in-memory files: memfd_create, and the ftruncate and
 * fallocate calls that size them, with Linux's argument checks and errno.
 *
 * A memfd is a sparse index of pages by page number (mm/page_tree.h): a
 * hole reads as zeros and gets a page when it is first written or mapped.
 * The file and every VMA mapping it share one reference count (struct vma_file,
 * vma.h), so the pages live until the last fd is closed and the last
 * mapping is gone. Mappings (sys_mmap) take the file's pages themselves:
 * MAP_SHARED maps them, MAP_PRIVATE maps them read-only and copies on
 * write (mm_fault). A memfd with no open file (memfd_object_create) is the
 * object behind a SysV segment (kernel/shm.c) and behind each shared
 * anonymous mapping (mm_mmap), as Linux's shmem files are.
 *
 * Shrinking a file takes the pages past the new end out of every mapping
 * (mm_unmap_file_range), so an access there is SIGBUS, as on Linux, and
 * punching a hole takes the freed pages out of every mapping that maps
 * them (mm_unmap_file_page; private copies stay); file seals (F_ADD_SEALS)
 * restrict size changes, writes and shared writable mappings (MD-*).
 * A memfd may be as large as Linux's shmem allows (MAX_FILE_BYTES). A
 * difference from Linux's shmem, on purpose for now: no MFD_HUGETLB.
 */
#include "syscall.h"
#include "proc.h"
#include "vfs.h"
#include "mm.h"
#include "uaccess.h"
#include "errno.h"
#include "kstring.h"
#include "page_alloc.h"
#include "memfd.h"
#include "filemap.h"
#include "fs_file.h"
#include "page_tree.h"

#define MFD_CLOEXEC		0x0001u
#define MFD_ALLOW_SEALING	0x0002u
#define MFD_HUGETLB		0x0004u
#define MFD_NOEXEC_SEAL		0x0008u
#define MFD_EXEC		0x0010u
#define MFD_NAME_MAX		249	/* NAME_MAX less "memfd:" */

#define F_ADD_SEALS		1033	/* fcntl */
#define F_GET_SEALS		1034
#define F_SEAL_SEAL		0x0001
#define F_SEAL_SHRINK		0x0002
#define F_SEAL_GROW		0x0004
#define F_SEAL_WRITE		0x0008
#define F_SEAL_FUTURE_WRITE	0x0010
#define F_SEAL_EXEC		0x0020
#define F_ALL_SEALS		0x003f
#define WRITE_SEALS		(F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)

struct memfd {
	struct vma_file vf;		/* first: container of the vma_file */
	struct file *file;		/* the one open file (dup shares it) */
	u64 size;			/* bytes */
	struct page_tree pages;		/* page index -> page, NULL for a hole */
	char name[MFD_NAME_MAX + 24];	/* "/memfd:NAME (deleted)", as Linux shows it */
	unsigned seals;			/* F_SEAL_* (MD-*) */
	u64 ino;			/* its inode number (st_ino, /proc/PID/maps) */
	struct vma_file *mapped_as;	/* what VMAs that map its pages point at:
					 * its own vf, or a SysV segment's */
	struct memfd *prev, *next;	/* every live memfd (memfd_for_each_page) */
};

static struct memfd *memfds;	/* the list of live memfds */
static u64 memfd_next_ino = 1;	/* the next memfd's inode number */

_Static_assert(sizeof(struct memfd) <= PAGE_SIZE, "a memfd lives in one page");

static struct memfd *to_memfd(struct vma_file *f)
{
	return (struct memfd *)f;
}

/* The page at idx, allocated (zeroed) if it is a hole; NULL when out of memory. */
static struct page *memfd_page_alloc(struct memfd *m, u64 idx)
{
	struct page *pg = page_tree_get(&m->pages, idx);

	if (pg || !(pg = alloc_pages(GFP_ZERO, 0)))
		return pg;
	if (!page_tree_insert(&m->pages, idx, pg)) {
		page_put(pg);
		return NULL;
	}
	return pg;
}

static struct page *memfd_page_at(const struct memfd *m, u64 idx)
{
	return page_tree_get(&m->pages, idx);
}

/* page_tree_take()'s hand-over of a page the file lets go of. */
static void drop_one(u64 idx, struct page *pg, void *arg)
{
	(void)idx;
	(void)arg;
	page_put(pg);
}

/* The same for a hole punch: the page leaves every mapping first (MD-7). */
static void drop_one_unmapped(u64 idx, struct page *pg, void *arg)
{
	struct memfd *m = arg;

	mm_unmap_file_page(m->mapped_as, idx, pg);
	page_put(pg);
}

/*
 * Drop the file's pages in [from, to) (page indexes). unmap: take them out
 * of every mapping first (a hole punch, MD-7); else the mappings keep
 * them (truncation unmaps on its own: mm_unmap_file_range()).
 */
static void memfd_drop_pages(struct memfd *m, u64 from, u64 to, bool unmap)
{
	page_tree_take(&m->pages, from, to, unmap ? drop_one_unmapped : drop_one, m);
}

/* Zero [off, off + n) inside one page, if that page exists. */
static void memfd_zero(struct memfd *m, u64 off, u64 n)
{
	struct page *pg = memfd_page_at(m, off / PAGE_SIZE);

	if (pg && n)
		memset((u8 *)page_address(pg) + off % PAGE_SIZE, 0, n);
}

static void memfd_set_size(struct memfd *m, u64 size)
{
	m->size = size;
	if (!m->file)
		return;	/* an internal object (memfd_object_create) */
	m->file->size = size;
	m->file->st.size = size;
	m->file->st.blocks = (size + 511) / 512;
}

/* Resize to size: pages past the end go, the tail of the last page is zeroed. */
static void memfd_truncate(struct memfd *m, u64 size)
{
	if (size < m->size) {
		u64 first_gone = (size + PAGE_SIZE - 1) / PAGE_SIZE;

		mm_unmap_file_range(&m->vf, first_gone, ~0ull);	/* MD-1: every mapping of those pages */
		memfd_drop_pages(m, first_gone, ~0ull, false);
		if (size % PAGE_SIZE)
			memfd_zero(m, size, PAGE_SIZE - size % PAGE_SIZE);
	}
	memfd_set_size(m, size);
}

/* ---- the vma_file side (mappings) ---- */

static struct page *memfd_vma_page(struct vma_file *f, u64 pgoff)
{
	struct memfd *m = to_memfd(f);

	if (pgoff >= (m->size + PAGE_SIZE - 1) / PAGE_SIZE)
		return NULL;	/* beyond the end: SIGBUS */
	return memfd_page_alloc(m, pgoff);
}

/* MD-5: a write-sealed memfd is mapped shared only read-only, for good (no VM_MAYWRITE). */
static long memfd_mmap_check(struct vma_file *f, unsigned *vmflags)
{
	if (!(to_memfd(f)->seals & WRITE_SEALS) || !(*vmflags & VM_SHARED))
		return 0;
	if (*vmflags & VM_WRITE)
		return -EPERM;
	*vmflags &= ~VM_MAYWRITE;
	return 0;
}

static bool memfd_vma_cached(struct vma_file *f, u64 pgoff)
{
	return memfd_page_at(to_memfd(f), pgoff) != NULL;
}

/*
 * MD-7: punch a hole [off, end) (bytes) in the file: whole pages inside it
 * go, out of every mapping too (a private copy stays); the parts of pages
 * at its ends are zeroed in place. Nothing past the file's end changes.
 */
static void memfd_punch(struct vma_file *f, u64 off, u64 end)
{
	struct memfd *m = to_memfd(f);

	page_tree_punch(&m->pages, off, MIN(end, m->size), drop_one_unmapped, m);
}

static void memfd_release(struct vma_file *f)
{
	struct memfd *m = to_memfd(f);

	memfd_drop_pages(m, 0, ~0ull, false);	/* nothing maps it any more; frees the index too */
	if (m->prev)
		m->prev->next = m->next;
	else
		memfds = m->next;
	if (m->next)
		m->next->prev = m->prev;
	free_page_va(m);
}

void memfd_for_each_page(void (*fn)(struct page *pg, void *arg), void *arg)
{
	for (struct memfd *m = memfds; m; m = m->next) {
		if (!page_tree_for_each_page(&m->pages, fn, arg))
			panic("mm_check: memfd inode %llu: its page index is inconsistent (%llu pages counted)",
			      (unsigned long long)m->ino, (unsigned long long)m->pages.nr);
	}
}

static u64 memfd_vma_size(struct vma_file *f)
{
	return to_memfd(f)->size;
}

/* Its device and inode, as Linux's shmem shows them: device 00:01 (the
 * internal shmem mount's), an inode number of its own. */
static void memfd_vma_ident(struct vma_file *f, u32 *dev, u64 *ino)
{
	*dev = MEMFD_DEV;
	*ino = to_memfd(f)->ino;
}

static const struct vma_file_ops memfd_vma_ops = {
	.page = memfd_vma_page,
	.ident = memfd_vma_ident,
	.size = memfd_vma_size,
	.cached = memfd_vma_cached,
	.mmap_check = memfd_mmap_check,
	.release = memfd_release,
	.punch = memfd_punch,
};

/* A zeroed memfd m made live: one reference, no pages, an inode number of
 * its own, on the list of live memfds. */
static void memfd_init(struct memfd *m)
{
	m->vf.refs = 1;
	m->vf.ops = &memfd_vma_ops;
	m->ino = memfd_next_ino++;
	m->mapped_as = &m->vf;
	m->next = memfds;
	if (memfds)
		memfds->prev = m;
	memfds = m;
}

/* ---- the open file ---- */

static long memfd_read(struct file *f, void *buf, size_t n, u64 *off)
{
	struct memfd *m = f->priv;
	size_t done = 0;

	if (*off >= m->size)
		return 0;
	n = MIN(n, m->size - *off);
	while (done < n) {
		u64 pos = *off + done;
		size_t chunk = MIN(n - done, PAGE_SIZE - pos % PAGE_SIZE);
		struct page *pg = memfd_page_at(m, pos / PAGE_SIZE);

		if (pg)
			memcpy((u8 *)buf + done, (u8 *)page_address(pg) + pos % PAGE_SIZE, chunk);
		else
			memset((u8 *)buf + done, 0, chunk);
		done += chunk;
	}
	*off += done;
	return (long)done;
}

static long memfd_write(struct file *f, const void *buf, size_t n, u64 *off)
{
	struct memfd *m = f->priv;
	size_t done = 0;

	if (!n)
		return 0;
	if (*off >= MAX_FILE_BYTES)
		return -EFBIG;	/* Linux's generic_write_check_limits() */
	n = (size_t)MIN((u64)n, MAX_FILE_BYTES - *off);
	if (m->seals & WRITE_SEALS)
		return -EPERM;	/* MD-5 */
	while (done < n) {
		u64 pos = *off + done;
		size_t chunk = MIN(n - done, PAGE_SIZE - pos % PAGE_SIZE);
		struct page *pg;

		if ((m->seals & F_SEAL_GROW) && pos + chunk > m->size) {
			if (!done)
				return -EPERM;	/* MD-3: a page that would pass the end */
			break;
		}
		pg = memfd_page_alloc(m, pos / PAGE_SIZE);
		if (!pg)
			break;
		memcpy((u8 *)page_address(pg) + pos % PAGE_SIZE, (const u8 *)buf + done, chunk);
		done += chunk;
	}
	if (!done && n)
		return -ENOSPC;
	*off += done;
	if (*off > m->size)
		memfd_set_size(m, *off);
	return (long)done;
}

static void memfd_file_release(struct file *f)
{
	vma_file_put(&((struct memfd *)f->priv)->vf);
}

static const struct file_ops memfd_file_ops = {
	.read = memfd_read,
	.write = memfd_write,
	.release = memfd_file_release,
};

struct vma_file *memfd_vma_file(struct file *f, const char **name)
{
	struct memfd *m;

	if (!f || f->ops != &memfd_file_ops)
		return NULL;
	m = f->priv;
	*name = m->name;
	return &m->vf;
}

/* memfd_create(name, flags): a new empty file on the lowest free fd. */
long sys_memfd_create(const unsigned long *a)
{
	struct proc *p = current_proc();
	unsigned flags = arg_uint(a[1]);
	char uname[MFD_NAME_MAX + 2];
	struct memfd *m;
	struct file *f;
	long n;
	int fd;

	if (flags & ~(unsigned)(MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_HUGETLB | MFD_NOEXEC_SEAL | MFD_EXEC))
		return -EINVAL;
	if ((flags & MFD_EXEC) && (flags & MFD_NOEXEC_SEAL))
		return -EINVAL;
	if (flags & MFD_HUGETLB)
		return -EINVAL;	/* no hugetlbfs behind memfds yet */
	n = strncpy_from_user(uname, (const char *)a[0], sizeof(uname));
	if (n == -ENAMETOOLONG || n > MFD_NAME_MAX)
		return -EINVAL;
	if (n < 0)
		return n;
	for (fd = 0; fd < NOFILE && p->fdt->files[fd]; fd++)
		;
	if (fd == NOFILE)
		return -EMFILE;
	m = alloc_page_va(GFP_ZERO);
	if (!m)
		return -ENOMEM;
	f = file_alloc();
	if (!f) {
		free_page_va(m);
		return -ENFILE;
	}
	memfd_init(m);		/* its one reference is the open file's */
	m->file = f;
	/* MD-2: sealing only with MFD_ALLOW_SEALING (or MFD_NOEXEC_SEAL, which also seals exec) */
	m->seals = (flags & (MFD_ALLOW_SEALING | MFD_NOEXEC_SEAL)) ? 0 : F_SEAL_SEAL;
	if (flags & MFD_NOEXEC_SEAL)
		m->seals |= F_SEAL_EXEC;
	memcpy(m->name, "/memfd:", 7);
	memcpy(m->name + 7, uname, (size_t)n);
	memcpy(m->name + 7 + n, " (deleted)", 11);
	f->ops = &memfd_file_ops;
	f->priv = m;
	f->st.mode = S_IFREG | ((flags & MFD_NOEXEC_SEAL) ? 0666 : 0777);
	f->st.nlink = 0;	/* unlinked from the start */
	f->st.blksize = PAGE_SIZE;
	f->st.dev = MEMFD_DEV;
	f->st.ino = m->ino;
	p->fdt->files[fd] = f;
	p->fdt->cloexec[fd] = flags & MFD_CLOEXEC;
	return fd;
}

/*
 * An internal memfd of size bytes with no open file (a SysV shared memory
 * segment's pages, kernel/shm.c; shared anonymous memory, mm_mmap()): one
 * reference, the caller's. mapped_as is what the VMAs that map its pages
 * point at (the segment's vma_file), so a hole punched in it leaves them;
 * NULL when they map the object itself. NULL when out of memory.
 */
struct vma_file *memfd_object_create(u64 size, struct vma_file *mapped_as)
{
	struct memfd *m;

	m = alloc_page_va(GFP_ZERO);
	if (!m)
		return NULL;
	memfd_init(m);
	if (mapped_as)
		m->mapped_as = mapped_as;
	m->seals = F_SEAL_SEAL;
	m->size = size;
	return &m->vf;
}

struct vma_file *mm_shmem_create(u64 size)
{
	return memfd_object_create(size, NULL);
}

/* The memfd behind fd, or NULL; *err says why not (Linux's errno for ftruncate). */
static struct memfd *fd_memfd(unsigned long ufd, long *err)
{
	struct proc *p = current_proc();
	unsigned fd = arg_uint(ufd);
	struct file *f;

	if (fd >= NOFILE || !(f = p->fdt->files[fd])) {
		*err = -EBADF;
		return NULL;
	}
	if (f->ops != &memfd_file_ops) {
		*err = -EINVAL;	/* not a regular file opened for writing */
		return NULL;
	}
	return f->priv;
}

/* ftruncate(fd, length), with a 64-bit length on every arch. */
long memfd_ftruncate(unsigned long fd, s64 len)
{
	long err = -EBADF;
	struct memfd *m;

	if (len < 0)
		return -EINVAL;
	if (arg_uint(fd) < NOFILE && current_proc()->fdt->files[arg_uint(fd)] &&
	    current_proc()->fdt->files[arg_uint(fd)]->inode)	/* a file of fs/ */
		return fs_ftruncate_file(current_proc()->fdt->files[arg_uint(fd)], len);
	m = fd_memfd(fd, &err);
	if (!m)
		return err;
	if ((u64)len > MAX_FILE_BYTES)
		return -EFBIG;
	if (((u64)len < m->size && (m->seals & F_SEAL_SHRINK)) || ((u64)len > m->size && (m->seals & F_SEAL_GROW)))
		return -EPERM;	/* MD-3 */
	memfd_truncate(m, (u64)len);
	return 0;
}

/*
 * fallocate(fd, mode, offset, len): mode 0 allocates the range and extends
 * the size, FALLOC_FL_KEEP_SIZE only allocates, FALLOC_FL_PUNCH_HOLE |
 * FALLOC_FL_KEEP_SIZE frees it. The checks come in vfs_fallocate()'s order.
 * offset and len are 64-bit on every arch (32-bit arches pass each in a
 * register pair: their table's adapter joins them).
 */
long memfd_fallocate(int fd, int mode, s64 off, s64 len)
{
	struct proc *p = current_proc();
	struct file *f;
	struct memfd *m;
	u64 end;

	if (off < 0 || len <= 0)
		return -EINVAL;
	if (mode & ~FALLOC_FL_SUPPORTED)
		return -EOPNOTSUPP;
	if ((mode & FALLOC_FL_PUNCH_HOLE) && !(mode & FALLOC_FL_KEEP_SIZE))
		return -EOPNOTSUPP;
	if (fd < 0 || fd >= NOFILE || !(f = p->fdt->files[fd]))
		return -EBADF;
	if (f->inode)	/* a file of fs/ */
		return fs_fallocate_file(f, mode, off, len);
	if (f->ops != &memfd_file_ops) {
		switch (f->st.mode & S_IFMT) {
		case 0010000:	/* a pipe: the read end is not open for writing */
			return (f->st.mode & 0200) ? -ESPIPE : -EBADF;
		case S_IFCHR:
			return -ENODEV;
		default:
			return -EBADF;	/* initramfs and /proc files are read-only */
		}
	}
	if (off > INT64_MAX - len || (u64)off + (u64)len > MAX_FILE_BYTES)
		return -EFBIG;	/* vfs_fallocate(), before the file system's own checks */
	if (mode & ~(FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE))
		return -EOPNOTSUPP;	/* shmem supports only these */
	m = f->priv;
	end = (u64)off + (u64)len;
	if ((mode & FALLOC_FL_PUNCH_HOLE) && (m->seals & WRITE_SEALS))
		return -EPERM;	/* MD-5 */
	if (!(mode & FALLOC_FL_PUNCH_HOLE) && (m->seals & F_SEAL_GROW) && end > m->size)
		return -EPERM;	/* MD-3 */
	if (mode & FALLOC_FL_PUNCH_HOLE) {
		memfd_punch(&m->vf, (u64)off, end);
		return 0;
	}
	for (u64 i = (u64)off / PAGE_SIZE; i < (end + PAGE_SIZE - 1) / PAGE_SIZE; i++)
		if (!memfd_page_alloc(m, i))
			return -ENOSPC;
	if (!(mode & FALLOC_FL_KEEP_SIZE) && end > m->size)
		memfd_set_size(m, end);
	return 0;
}

long sys_ftruncate(const unsigned long *a) { return memfd_ftruncate(a[0], (long)a[1]); }

long sys_fallocate(const unsigned long *a)
{
	return memfd_fallocate(arg_int(a[0]), arg_int(a[1]), (long)a[2], (long)a[3]);
}

/*
 * fcntl's F_ADD_SEALS and F_GET_SEALS, checked in memfd_add_seals()'s
 * order (MD-2..MD-6); -EINVAL for a file that is not a memfd.
 */
long memfd_fcntl(struct file *f, unsigned cmd, unsigned arg)
{
	struct memfd *m;

	if (f->ops != &memfd_file_ops)
		return -EINVAL;	/* MD-2 */
	m = f->priv;
	if (cmd == F_GET_SEALS)
		return m->seals;
	if (arg & ~(unsigned)F_ALL_SEALS)
		return -EINVAL;	/* MD-2 */
	if (m->seals & F_SEAL_SEAL)
		return -EPERM;	/* MD-2 */
	if ((arg & F_SEAL_WRITE) && !(m->seals & F_SEAL_WRITE) && mm_file_shared_maywrite(&m->vf))
		return -EBUSY;	/* MD-4 */
	if ((arg & F_SEAL_EXEC) && (f->st.mode & 0111))
		arg |= F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_FUTURE_WRITE;	/* MD-6 */
	m->seals |= arg;
	return 0;
}
