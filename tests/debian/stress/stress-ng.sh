# stress-ng.sh - Debian's stress-ng, one memory-management stressor at a
# time with --verify (tools/stress-ng-both.sh runs it on both kernels and
# tabulates the outcome of each). STRESS_SECONDS: the run of each.
cd /tmp
for s in vm mmap mremap madvise mlock brk stack fork; do
	echo "-- $s"
	stress-ng --$s 1 --verify -t "${STRESS_SECONDS:-5}s" --metrics-brief 2>&1 | sed -e 's/^stress-ng: //'
	echo "-- $s status $?"
done
