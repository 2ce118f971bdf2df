/*
 * cred.c - user and group ids: the real, effective and saved uid and gid
 * of a process and its supplementary groups, with Linux's rules for
 * changing them. The model of privilege is Linux's without capabilities
 * kept apart: a process is privileged (CAP_SETUID, CAP_SETGID) exactly
 * when its effective uid is 0. The ids are only reported and inherited;
 * nothing else in the kernel checks them yet (kill, files: everyone may).
 */
#include "syscall.h"
#include "proc.h"
#include "uaccess.h"
#include "errno.h"
#include "kstring.h"

#define ID_KEEP		0xffffffffu	/* -1: leave this id as it is */
#define NGROUPS_MAX	65536

enum { R, E, S };

static bool privileged(const struct proc *p)
{
	return p->uid[E] == 0;
}

/* May an unprivileged process take id v? Only one of its own three. */
static bool own_id(const u32 ids[3], u32 v)
{
	return v == ids[R] || v == ids[E] || v == ids[S];
}

long sys_getuid(const unsigned long *a) { (void)a; return current_proc()->uid[R]; }
long sys_geteuid(const unsigned long *a) { (void)a; return current_proc()->uid[E]; }
long sys_getgid(const unsigned long *a) { (void)a; return current_proc()->gid[R]; }
long sys_getegid(const unsigned long *a) { (void)a; return current_proc()->gid[E]; }

/*
 * setuid/setgid(id): privileged, all three ids become id; otherwise only
 * the effective one, and only to the real or saved id (EPERM). -1 is no
 * id (EINVAL).
 */
static long set_one(u32 ids[3], u32 v, bool priv)
{
	if (v == ID_KEEP)
		return -EINVAL;
	if (priv) {
		ids[R] = ids[E] = ids[S] = v;
		return 0;
	}
	if (v != ids[R] && v != ids[S])
		return -EPERM;
	ids[E] = v;
	return 0;
}

long sys_setuid(const unsigned long *a)
{
	struct proc *p = current_proc();

	return set_one(p->uid, arg_uint(a[0]), privileged(p));
}

long sys_setgid(const unsigned long *a)
{
	struct proc *p = current_proc();

	return set_one(p->gid, arg_uint(a[0]), privileged(p));
}

/*
 * setreuid/setregid(r, e): unprivileged, the real id may become the real
 * or effective one, the effective any of the three. The saved id follows
 * the new effective one when the real id is set, or the effective one is
 * set to something other than the old real id.
 */
static long set_re(u32 ids[3], u32 r, u32 e, bool priv)
{
	u32 old_r = ids[R];

	if (!priv && r != ID_KEEP && r != ids[R] && r != ids[E])
		return -EPERM;
	if (!priv && e != ID_KEEP && !own_id(ids, e))
		return -EPERM;
	if (r != ID_KEEP)
		ids[R] = r;
	if (e != ID_KEEP)
		ids[E] = e;
	if (r != ID_KEEP || (e != ID_KEEP && e != old_r))
		ids[S] = ids[E];
	return 0;
}

long sys_setreuid(const unsigned long *a)
{
	struct proc *p = current_proc();

	return set_re(p->uid, arg_uint(a[0]), arg_uint(a[1]), privileged(p));
}

long sys_setregid(const unsigned long *a)
{
	struct proc *p = current_proc();

	return set_re(p->gid, arg_uint(a[0]), arg_uint(a[1]), privileged(p));
}

/* setresuid/setresgid(r, e, s): each id not -1 is set; unprivileged, each
 * only to one of the process's current three. */
static long set_res(u32 ids[3], const unsigned long *a, bool priv)
{
	u32 v[3] = { arg_uint(a[0]), arg_uint(a[1]), arg_uint(a[2]) };

	for (int i = 0; i < 3; i++)
		if (!priv && v[i] != ID_KEEP && !own_id(ids, v[i]))
			return -EPERM;
	for (int i = 0; i < 3; i++)
		if (v[i] != ID_KEEP)
			ids[i] = v[i];
	return 0;
}

long sys_setresuid(const unsigned long *a)
{
	struct proc *p = current_proc();

	return set_res(p->uid, a, privileged(p));
}

long sys_setresgid(const unsigned long *a)
{
	struct proc *p = current_proc();

	return set_res(p->gid, a, privileged(p));
}

/* getresuid/getresgid(&r, &e, &s). */
static long get_res(const u32 ids[3], const unsigned long *a)
{
	for (int i = 0; i < 3; i++)
		if (copy_to_user((void *)a[i], &ids[i], sizeof(u32)))
			return -EFAULT;
	return 0;
}

long sys_getresuid(const unsigned long *a) { return get_res(current_proc()->uid, a); }
long sys_getresgid(const unsigned long *a) { return get_res(current_proc()->gid, a); }

/* getgroups(size, list): size 0 asks for the count; a smaller size than
 * the count is EINVAL. */
long sys_getgroups(const unsigned long *a)
{
	struct proc *p = current_proc();
	int size = arg_int(a[0]);

	if (size < 0)
		return -EINVAL;
	if (size == 0)
		return p->ngroups;
	if (size < p->ngroups)
		return -EINVAL;
	if (p->ngroups && copy_to_user((void *)a[1], p->groups, sizeof(u32) * (size_t)p->ngroups))
		return -EFAULT;
	return p->ngroups;
}

/* setgroups(size, list): privileged only (EPERM); size beyond NGROUPS_MAX
 * or negative is EINVAL, -1 as a group EINVAL. This kernel keeps at most
 * NGROUPS_KEPT groups: more is ENOMEM. */
long sys_setgroups(const unsigned long *a)
{
	static u32 g[NGROUPS_KEPT];
	struct proc *p = current_proc();
	int size = arg_int(a[0]);

	if (!privileged(p))
		return -EPERM;
	if (size < 0 || size > NGROUPS_MAX)
		return -EINVAL;
	if (size > NGROUPS_KEPT)
		return -ENOMEM;
	if (size && copy_from_user(g, (const void *)a[1], sizeof(u32) * (size_t)size))
		return -EFAULT;
	for (int i = 0; i < size; i++)
		if (g[i] == ID_KEEP)
			return -EINVAL;
	memcpy(p->groups, g, sizeof(u32) * (size_t)size);
	p->ngroups = size;
	return 0;
}
