/*
 * commit.c - overcommit policy and the address-space limits (commit.h).
 * The counts themselves are kept by mm/vma.c; this file only decides.
 */
#include "commit.h"
#include "page_alloc.h"
#include "hugetlb.h"
#include "errno.h"

u64 sysctl_overcommit_memory = OVERCOMMIT_GUESS;
u64 sysctl_overcommit_ratio = 50;
u64 sysctl_overcommit_kbytes;
u64 sysctl_max_map_count = 65530;	/* Linux's DEFAULT_MAX_MAP_COUNT */

#define USER_RESERVE_MAX_KB	(128 * 1024)	/* Linux's cap on user_reserve_kbytes */

unsigned vm_account_flag(unsigned vm_flags, bool file)
{
	if (vm_flags & (VM_NORESERVE | VM_HUGETLB))
		return 0;
	if (vm_flags & VM_SHARED)
		return file ? 0 : VM_ACCOUNT;	/* a memfd charges nothing here */
	return (vm_flags & VM_WRITE) ? VM_ACCOUNT : 0;
}

/* RAM in pages (MemTotal). */
static u64 ram_pages(void)
{
	struct page_stats st;

	page_alloc_stats(&st);
	return st.total_pages;
}

u64 vm_commit_limit(void)
{
	if (sysctl_overcommit_kbytes)
		return sysctl_overcommit_kbytes / (PAGE_SIZE / 1024);
	/* Linux's hugetlb_total_pages(): the pools of every size */
	return (ram_pages() - hugetlb_total_bytes() / PAGE_SIZE) * sysctl_overcommit_ratio / 100;
}

long vm_enough_memory(const struct mm *mm, unsigned long pages)
{
	u64 allowed, reserve;

	if (sysctl_overcommit_memory == OVERCOMMIT_ALWAYS)
		return 0;
	if (sysctl_overcommit_memory == OVERCOMMIT_GUESS)
		return pages > ram_pages() ? -ENOMEM : 0;
	/* Linux sets user_reserve_kbytes at boot to min(free / 32, 128 MiB); RAM / 32 here. */
	reserve = MIN(ram_pages() / 32, (u64)USER_RESERVE_MAX_KB / (PAGE_SIZE / 1024));
	reserve = MIN((u64)mm->total_vm / 32, reserve);
	allowed = vm_commit_limit();
	allowed = allowed > reserve ? allowed - reserve : 0;
	return (u64)vm_committed_pages + pages < allowed ? 0 : -ENOMEM;
}

bool mm_may_expand(const struct mm *mm, unsigned flags, unsigned long pages)
{
	u64 data_pages;

	if (mm->rlim_as != ~0ull && (u64)mm->total_vm + pages > mm->rlim_as >> PAGE_SHIFT)
		return false;
	if (!vm_is_data(flags) || mm->rlim_data == ~0ull)
		return true;
	data_pages = (u64)mm->data_vm + pages;
	if (data_pages <= mm->rlim_data >> PAGE_SHIFT)
		return true;
	return mm->rlim_data == 0 && (mm->rlim_data_max == ~0ull || data_pages <= mm->rlim_data_max >> PAGE_SHIFT);
}

void mm_range_pages(struct mm *mm, unsigned long start, unsigned long end, unsigned long *total,
		    unsigned long *charged)
{
	*total = *charged = 0;
	for (struct vma *v = vma_find_from(mm, start); v && v->start < end; v = v->next) {
		unsigned long n = (MIN(v->end, end) - MAX(v->start, start)) >> PAGE_SHIFT;

		*total += n;
		if (v->flags & VM_ACCOUNT)
			*charged += n;
	}
}
