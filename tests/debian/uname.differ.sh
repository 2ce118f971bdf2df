# uname.differ.sh - the comparison's own check: the kernel's release differs
# between the two kernels, so tools/check-debian.sh must find this script's
# output different (a script named *.differ.sh must differ).
uname -r
