# maps.sh - what the dynamic loader leaves in a process's address space:
# for each file mapping of busybox's awk reading its own /proc/self/maps,
# the permissions, the file offset and the name (addresses, devices and
# inodes differ between the kernels and are left out). The same files
# mapped by the same ld.so must give the same lines on both kernels.
awk '$6 ~ /^\// { print $2, $3, $6 }' /proc/self/maps
echo "randomize_va_space: $(cat /proc/sys/kernel/randomize_va_space)"
# ld.so run as a program (an ET_DYN without an interpreter) loads busybox itself
/lib/ld-linux-aarch64.so.1 /bin/busybox echo "ld.so as a program runs busybox"
