/*
 * fs_file.h - what the rest of the kernel calls in fs/: opening files,
 * their status, the per-process file system state, and the calls that
 * kernel/ tables reach (see fs.h for the file system itself).
 */
#ifndef FS_FS_FILE_H
#define FS_FS_FILE_H

#include "types.h"

/* The largest file size: Linux's MAX_LFS_FILESIZE, the s_maxbytes of tmpfs
 * and shmem: 2^63 - 1 with 64-bit longs, 2^32 - 1 pages with 32-bit ones. */
#define MAX_FILE_BYTES	(sizeof(long) == 8 ? (u64)INT64_MAX : (u64)0xffffffffu * PAGE_SIZE)

/* fallocate's mode bits */
#define FALLOC_FL_KEEP_SIZE	0x01
#define FALLOC_FL_PUNCH_HOLE	0x02
#define FALLOC_FL_SUPPORTED	0x7f	/* every mode bit Linux knows */

struct file;
struct proc;
struct kstat;
struct inode;
struct fs_loc;

#define O_WRONLY	1
#define O_RDWR		2
#define O_CREAT		0100
#define O_EXCL		0200
#define O_NOCTTY	0400
#define O_TRUNC		01000
#define O_APPEND	02000
#define O_NONBLOCK	04000
#define O_DIRECTORY	040000	/* generic value: arm64 and MicroBlaze */
#define O_NOFOLLOW	0100000
#define O_TMPFILE_BIT	020000000	/* O_TMPFILE without O_DIRECTORY: not supported */

/* Open path (relative to start) as open(2) does. */
long fs_open(struct fs_loc start, const char *path, int flags, u32 mode, struct file **out);

/* The release op of an fs/ file whose other ops are not fs/'s (the console device). */
void fs_file_release(struct file *f);

/* The status of an inode. */
void fs_stat(struct inode *ip, struct kstat *st);

/* A file's size for SEEK_END (an fs/ file's inode, else f->size). */
u64 fs_file_size(struct file *f);

/* ftruncate and fallocate of an fs/ file (memfd.c hands them over after
 * fallocate's first checks): fallocate takes mode 0, KEEP_SIZE and
 * PUNCH_HOLE | KEEP_SIZE, as tmpfs does. */
long fs_ftruncate_file(struct file *f, s64 len);
long fs_fallocate_file(struct file *f, int mode, s64 off, s64 len);

/* getdents64 into a kernel buffer; bytes or -errno. */
long fs_getdents(struct file *f, u8 *kbuf, size_t size);

/* pread64/pwrite64/truncate with a 64-bit position (MicroBlaze's adapters pass register pairs). */
long fs_pread(int fd, unsigned long ubuf, size_t n, s64 pos);
long fs_pwrite(int fd, unsigned long ubuf, size_t n, s64 pos);
long fs_truncate_path(unsigned long upath, s64 len);

/* Per-thread state: the program (exe) and the fs state (cwd, umask) are
 * inherited by fork and clone, dropped at exit; clone's CLONE_FS (share)
 * shares the parent's fs state, else the child gets a copy (-ENOMEM).
 * fs_proc_init gives the first process an empty one (the root, umask 0). */
long fs_proc_fork(struct proc *child, struct proc *parent, bool share);
long fs_proc_init(struct proc *p);
/* A successful execve made ip p's program: while p runs it (until its
 * next exec or its exit; fork children too) the file cannot be opened for
 * writing or truncated (ETXTBSY), and exec refuses a file open for writing. */
void fs_proc_exec(struct proc *p, struct inode *ip);
void fs_proc_exit(struct proc *p);

/*
 * exec: open path (relative to the cwd) as a program: a regular file with
 * an execute bit, not open for writing (ETXTBSY). On success *ip holds a
 * reference (drop it with inode_put), *name is the path its mappings show
 * (kept with the inode, or NULL) and hdr the first min(size, hdr_size)
 * bytes of the file.
 */
/* Read up to n bytes of ip's data at off into buf (kernel memory); the bytes read. */
size_t fs_inode_read(struct inode *ip, void *buf, size_t n, u64 off);
long fs_exec_open(const char *path, struct inode **ip, const char **name, void *hdr, size_t hdr_size, u64 *size);
struct vma_file *fs_inode_vma_file(struct inode *ip);
void fs_inode_put(struct inode *ip);

/*
 * mmap of an fs/ file: a regular file open for reading (and for writing if
 * a shared mapping may write); *vf is the inode's page-cache object (the
 * caller takes its reference) and *name its path. -ENODEV or -EACCES.
 */
long fs_mmap_file(struct file *f, unsigned long prot, bool shared, struct vma_file **vf, const char **name);

/* Boot: the file systems, the initramfs unpacked into the root, /dev and /proc mounted. */
void fs_boot(const void *initrd, u64 size);

#endif
