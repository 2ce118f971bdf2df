/* shm.c - System V shared memory (shmget, shmat, shmdt, shmctl): the
 * errno of each bad call, data shared between two attaches and between
 * parent and child, shm_nattch through fork, shmdt, exit and exec,
 * IPC_STAT and IPC_SET, IPC_RMID (the segment lives while attached, its
 * key is free at once), SHM_RDONLY (a store is SIGSEGV), SHM_RND, shmdt
 * leaving other mappings in the attach's range, the name, device and inode
 * /proc/self/maps gives an attach, MADV_REMOVE punching the segment,
 * IPC_INFO's limits and SHM_INFO's count. Raw system calls and our own
 * struct shmid64_ds (asm-generic's layout, both arches), so both libcs run
 * the same code.
 */
#include "mm_util.h"

#if defined(__aarch64__)
#define NR_shmget 194
#define NR_shmctl 195
#define NR_shmat 196
#define NR_shmdt 197
#define CMD64 0
#else
#define NR_shmget 338
#define NR_shmctl 336
#define NR_shmat 335
#define NR_shmdt 337
#define CMD64 0x100	/* IPC_64: old_shmctl's struct shmid64_ds */
#endif

#ifndef EIDRM
#define EIDRM 43
#endif

#define K_IPC_PRIVATE	0
#define K_IPC_CREAT	01000
#define K_IPC_EXCL	02000
#define K_IPC_RMID	0
#define K_IPC_SET	1
#define K_IPC_STAT	2
#define K_SHM_RDONLY	010000
#define K_SHM_RND	020000
#define K_SHM_DEST	01000

struct k_ipc64_perm {
	int key;
	unsigned uid, gid, cuid, cgid, mode;
	unsigned short seq, pad2;
	unsigned long unused1, unused2;
};

struct k_shmid64_ds {
	struct k_ipc64_perm perm;
	unsigned long segsz;
#if __SIZEOF_LONG__ == 8
	long atime, dtime, ctime;
#else
	unsigned long atime, atime_high, dtime, dtime_high, ctime, ctime_high;
#endif
	int cpid, lpid;
	unsigned long nattch, unused4, unused5;
};

static long s_get(long key, unsigned long size, long flags)
{
	return syscall(NR_shmget, key, size, flags);
}

static char *s_at(long id, const void *addr, long flags)
{
	return (char *)syscall(NR_shmat, id, addr, flags);
}

static long s_dt(const void *addr)
{
	return syscall(NR_shmdt, addr);
}

static long s_ctl(long id, long cmd, struct k_shmid64_ds *d)
{
	return syscall(NR_shmctl, id, cmd | CMD64, d);
}

static int failed(long r, int err)
{
	return r == -1 && errno == err;
}

/* shm_nattch of id, or -1 if IPC_STAT fails. */
static long nattch(long id)
{
	struct k_shmid64_ds d;

	return s_ctl(id, K_IPC_STAT, &d) ? -1 : (long)d.nattch;
}

/* Does /proc/self/maps have a line for addr with name on it? */
static int maps_line(const void *addr, const char *name)
{
	struct maps_entry m;

	return maps_entry(addr, &m) == 0 && !strcmp(m.name, name) && m.start == (unsigned long)addr;
}

static void test_get_errors(long key)
{
	long id;

	tap_ok(failed(s_get(K_IPC_PRIVATE, 0, 0600), EINVAL), "shmget: size 0 (below SHMMIN) is EINVAL");
	tap_ok(failed(s_get(K_IPC_PRIVATE, ~0UL, 0600), EINVAL), "shmget: a size above SHMMAX is EINVAL");
	tap_ok(failed(s_get(key, PAGE, 0600), ENOENT), "shmget: a key with no segment, no IPC_CREAT: ENOENT");
	id = s_get(key, PAGE, K_IPC_CREAT | 0600);
	tap_ok(id >= 0, "shmget: IPC_CREAT makes the key's segment");
	tap_is_long(s_get(key, PAGE, 0), id, "shmget: the key finds it again");
	tap_is_long(s_get(key, 1, 0), id, "shmget: a smaller size finds it too");
	tap_ok(failed(s_get(key, 2 * PAGE, 0), EINVAL), "shmget: a size larger than the segment's is EINVAL");
	tap_ok(failed(s_get(key, PAGE, K_IPC_CREAT | K_IPC_EXCL | 0600), EEXIST),
	       "shmget: IPC_CREAT|IPC_EXCL on an existing key is EEXIST");
	{
		long priv = s_get(K_IPC_PRIVATE, PAGE, 0600);

		tap_ok(priv >= 0 && priv != id, "shmget: IPC_PRIVATE is always a new segment");
		if (priv >= 0)
			s_ctl(priv, K_IPC_RMID, NULL);
	}
	tap_is_long(s_ctl(id, K_IPC_RMID, NULL), 0, "shmctl: IPC_RMID");
	tap_ok(failed(s_get(key, PAGE, 0), ENOENT), "shmget: after IPC_RMID the key is gone");
}

static void test_attach(long key)
{
	struct k_shmid64_ds d;
	char name[32];
	long id = s_get(key, 2 * PAGE, K_IPC_CREAT | K_IPC_EXCL | 0600);
	char *a, *b, *h;

	tap_ok(id >= 0, "shmget: a two-page segment");
	a = s_at(id, NULL, 0);
	b = s_at(id, NULL, 0);
	tap_ok(a != (char *)-1 && b != (char *)-1 && a != b, "shmat: NULL twice: two attaches");
	if (a == (char *)-1 || b == (char *)-1)
		return;
	tap_ok(a[0] == 0 && a[2 * PAGE - 1] == 0, "shmat: a new segment reads as zeros");
	a[5] = 42;
	a[PAGE + 7] = 43;
	tap_ok(b[5] == 42 && b[PAGE + 7] == 43, "shmat: a store through one attach shows in the other");
	tap_is_long(nattch(id), 2, "IPC_STAT: shm_nattch counts both attaches");
	snprintf(name, sizeof(name), "/SYSV%08lx (deleted)", (unsigned long)key);
	tap_ok(maps_line(a, name), "/proc/self/maps names the attach %s", name);
	tap_ok(memset(&d, 0x55, sizeof(d)) && s_ctl(id, K_IPC_STAT, &d) == 0, "shmctl: IPC_STAT");
	tap_is_long((long)d.segsz, (long)(2 * PAGE), "IPC_STAT: shm_segsz");
	tap_is_long(d.perm.key, key, "IPC_STAT: shm_perm.key");
	tap_is_long(d.perm.mode & 0777, 0600, "IPC_STAT: shm_perm.mode");
	tap_is_long(d.cpid, getpid(), "IPC_STAT: shm_cpid is the creator");
	tap_is_long(d.lpid, getpid(), "IPC_STAT: shm_lpid is the last shmat's");
	tap_is_long((long)d.perm.uid, (long)geteuid(), "IPC_STAT: shm_perm.uid");
	d.perm.mode = 0640;
	tap_is_long(s_ctl(id, K_IPC_SET, &d), 0, "shmctl: IPC_SET");
	tap_ok(s_ctl(id, K_IPC_STAT, &d) == 0 && (d.perm.mode & 0777) == 0640, "IPC_SET: the new mode shows");

	tap_ok(failed(s_dt(a + PAGE), EINVAL), "shmdt: no attach starts there: EINVAL");
	tap_ok(failed(s_dt(a + 1), EINVAL), "shmdt: an unaligned address: EINVAL");
	tap_is_long(s_dt(b), 0, "shmdt: the second attach");
	tap_is_long(nattch(id), 1, "IPC_STAT: shm_nattch 1 after shmdt");
	tap_ok(failed(s_dt(b), EINVAL), "shmdt: the same address again: EINVAL");

	probe_init();
	h = hole(4);
	b = s_at(id, h + 123, 0);
	tap_ok(b == (char *)-1 && errno == EINVAL, "shmat: an unaligned address without SHM_RND: EINVAL");
	b = s_at(id, h + 123, K_SHM_RND);
	tap_ok(b == h, "shmat: SHM_RND rounds down to SHMLBA");
	if (b == h) {
		tap_ok(b[5] == 42, "shmat: the attach at a given address shares the pages");
		tap_ok(failed((long)(intptr_t)s_at(id, h, 0), EINVAL),
		       "shmat: a given address over a mapping, no SHM_REMAP: EINVAL");
		s_dt(b);
	}

	/* shmdt takes only the segment's own VMAs out of its range */
	b = s_at(id, NULL, 0);
	if (b != (char *)-1) {
		char *o;

		munmap(b + PAGE, PAGE);
		o = anon(b + PAGE, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
		tap_ok(o == b + PAGE && s_dt(b) == 0 && can_write(o) && !can_read(b),
		       "shmdt: a mapping placed inside the attach's range stays");
		munmap(o, PAGE);
	}

	b = s_at(id, NULL, K_SHM_RDONLY);
	tap_ok(b != (char *)-1, "shmat: SHM_RDONLY");
	if (b != (char *)-1) {
		probe_init();
		tap_ok(can_read(b) && b[5] == 42, "SHM_RDONLY: reads work");
		tap_ok(!can_write(b) && probe_sig == SIGSEGV, "SHM_RDONLY: a store is SIGSEGV");
		tap_ok(failed(mprotect(b, PAGE, PROT_READ | PROT_WRITE), EACCES),
		       "SHM_RDONLY: mprotect(PROT_WRITE) is EACCES");
		s_dt(b);
	}

	tap_ok(failed((long)(intptr_t)s_at(-1, NULL, 0), EINVAL), "shmat: id -1: EINVAL");
	tap_ok(failed(s_ctl(-1, K_IPC_STAT, &d), EINVAL), "shmctl: id -1: EINVAL");
	tap_ok(failed(s_ctl(id, 12345, &d), EINVAL), "shmctl: an unknown command: EINVAL");

	/* IPC_RMID with an attach: the segment stays, its key goes */
	tap_is_long(s_ctl(id, K_IPC_RMID, NULL), 0, "shmctl: IPC_RMID while attached");
	tap_ok(s_ctl(id, K_IPC_STAT, &d) == 0 && (d.perm.mode & K_SHM_DEST) && d.perm.key == 0 &&
	       d.nattch == 1, "IPC_STAT after IPC_RMID: SHM_DEST, key IPC_PRIVATE, still attached");
	tap_ok(a[5] == 42, "IPC_RMID: the attach still has the data");
	tap_ok(failed(s_get(key, PAGE, 0), ENOENT), "IPC_RMID: the key is free at once");
	{
		long id2 = s_get(key, PAGE, K_IPC_CREAT | K_IPC_EXCL | 0600);

		tap_ok(id2 >= 0 && id2 != id, "IPC_RMID: IPC_CREAT|IPC_EXCL makes a new segment under the key");
		if (id2 >= 0)
			s_ctl(id2, K_IPC_RMID, NULL);
	}
	tap_is_long(s_dt(a), 0, "shmdt: the last attach");
	tap_ok(failed(s_ctl(id, K_IPC_STAT, &d), EINVAL) || failed(s_ctl(id, K_IPC_STAT, &d), EIDRM),
	       "IPC_STAT: the segment is gone with its last attach (EINVAL)");
	tap_ok(failed((long)(intptr_t)s_at(id, NULL, 0), EINVAL) || errno == EIDRM,
	       "shmat: a removed segment's id: EINVAL/EIDRM");
}

struct k_shminfo64 {
	unsigned long shmmax, shmmin, shmmni, shmseg, shmall, unused[4];
};

struct k_shm_info {
	int used_ids;
	unsigned long shm_tot, shm_rss, shm_swp, swap_attempts, swap_successes;
};

/*
 * An attach as Linux's newseg() makes it: /proc/self/maps shows the
 * segment's id as the inode, on shared anonymous memory's device (both
 * shmem); MADV_REMOVE through one attach punches the segment (MA-9): the
 * other attach reads zero there too.
 */
static void test_ident_remove(void)
{
	long id = s_get(K_IPC_PRIVATE, 2 * PAGE, K_IPC_CREAT | 0600);
	char *a = id >= 0 ? s_at(id, NULL, 0) : (char *)-1, *b = id >= 0 ? s_at(id, NULL, 0) : (char *)-1;
	char *anon = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct maps_entry m, ma;

	tap_ok(a != (char *)-1 && b != (char *)-1 && anon != MAP_FAILED, "set-up: a segment attached twice");
	if (a == (char *)-1 || b == (char *)-1 || anon == MAP_FAILED)
		return;
	tap_ok(maps_entry(a, &m) == 0 && maps_entry(anon, &ma) == 0 && m.ino == (unsigned long long)id &&
		       m.major == ma.major && m.minor == ma.minor,
	       "MD-8 /proc/self/maps: an attach's inode is the id %ld (%llu), its device shared memory's (%02x:%02x)", id,
	       m.ino, m.major, m.minor);
	memset(a, 'x', 2 * PAGE);
	tap_ok(madvise(b, PAGE, MADV_REMOVE) == 0, "MA-9 MADV_REMOVE of an attach's first page: 0");
	tap_ok(a[0] == 0 && a[PAGE - 1] == 0 && b[0] == 0 && a[PAGE] == 'x' && b[PAGE] == 'x',
	       "MA-9 both attaches read zero in the hole, the data after it (%d %d)", a[0], a[PAGE]);
	s_dt(a);
	s_dt(b);
	munmap(anon, PAGE);
	s_ctl(id, K_IPC_RMID, NULL);
}

static void test_info(void)
{
	struct k_shminfo64 in;
	struct k_shm_info si;
	long id = s_get(K_IPC_PRIVATE, 3 * PAGE, 0600);

	memset(&in, 0, sizeof(in));
	tap_ok(s_ctl(0, 3 /* IPC_INFO */, (struct k_shmid64_ds *)&in) >= 0, "shmctl: IPC_INFO");
	tap_ok(in.shmmin == 1 && in.shmmax == ~0UL - (1UL << 24) && in.shmmni >= 1,
	       "IPC_INFO: SHMMIN 1, SHMMAX ULONG_MAX - 2^24 (%lu %lu)", in.shmmin, in.shmmax);
	memset(&si, 0, sizeof(si));
	tap_ok(s_ctl(0, 14 /* SHM_INFO */, (struct k_shmid64_ds *)&si) >= 0 && si.used_ids >= 1 &&
	       si.shm_tot >= 3, "SHM_INFO: counts the segment and its pages (%d ids, %lu pages)",
	       si.used_ids, si.shm_tot);
	s_ctl(id, K_IPC_RMID, NULL);
}

static void test_fork(void)
{
	long id = s_get(K_IPC_PRIVATE, PAGE, 0600);
	char *a = s_at(id, NULL, 0);
	int st = -1;
	pid_t pid;

	tap_ok(id >= 0 && a != (char *)-1, "fork: a private segment, attached");
	if (a == (char *)-1)
		return;
	a[0] = 1;
	pid = fork();
	if (pid == 0) {
		int bad = nattch(id) != 2 || a[0] != 1;

		a[1] = 77;
		bad |= s_dt(a) != 0 || nattch(id) != 1;
		_exit(bad);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "fork: the child sees nattch 2, then 1 after its shmdt");
	tap_ok(a[1] == 77, "fork: the child's store shows in the parent");
	tap_is_long(nattch(id), 1, "fork: nattch 1 after the child's shmdt");
	pid = fork();
	if (pid == 0) {
		a[2] = 88;
		_exit(nattch(id) != 2);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0 && a[2] == 88, "fork: a second child shares the attach");
	tap_is_long(nattch(id), 1, "exit: the child's attach goes with it");
	s_ctl(id, K_IPC_RMID, NULL);
	s_dt(a);
}

/* The exec'd child (argv: self "exec-child" id): exit 0 if only the
 * parent's attach is left, the one its pre-exec image had is gone. */
static int exec_child(const char *ids)
{
	return nattch(strtol(ids, NULL, 10)) == 1 ? 0 : 1;
}

static void test_exec(const char *self)
{
	long id = s_get(K_IPC_PRIVATE, PAGE, 0600);
	char *a = s_at(id, NULL, 0);
	char ids[24];
	int st = -1;
	pid_t pid;

	snprintf(ids, sizeof(ids), "%ld", id);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { (char *)self, "exec-child", ids, NULL };
		char *env[] = { NULL };

		if (nattch(id) != 2)
			_exit(2);
		execve(self, argv, env);
		_exit(3);
	}
	waitpid(pid, &st, 0);
	tap_ok(a != (char *)-1 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "exec: the attach the child had before execve is gone (status %d)", st);
	s_ctl(id, K_IPC_RMID, NULL);
	s_dt(a);
}

int main(int argc, char **argv)
{
	long key = 0x5e000000L + (getpid() & 0xffff) * 16;

	if (argc == 3 && !strcmp(argv[1], "exec-child"))
		return exec_child(argv[2]);
	tap_init();
	test_get_errors(key);
	test_attach(key + 1);
	test_ident_remove();
	test_info();
	test_fork();
	test_exec(argc > 0 && argv[0][0] == '/' ? argv[0] : "/bin/shm");
	return tap_done();
}
