# teachos.py - gdb commands for students of the arm64 kernel (Python in gdb).
#
# `make gdb-cmd` / `make gdb` (ARCH=arm64) pass this file with -x, so the
# commands are there as soon as gdb-multiarch starts. `tos-help` lists them:
#
#   tos-ps               the process table: pid, tgid, state, name, mm
#   tos-current          the process running on the CPU gdb has selected
#   tos-vmas [PID]       a process's VMA list (default: the current one),
#                        one line per VMA in the style of /proc/PID/maps
#   tos-walk VA [PID]    walk VA through the translation tables as the MMU
#                        does, level by level, and print the physical address
#   tos-regs [PID]       a process's saved user registers (the frame at the
#                        top of its kernel stack) and, when it is switched out,
#                        the kernel context arch_switch() saved
#
# tos-walk handles every arm64 layout the kernel builds (GRANULE 4K/16K/64K,
# VA_BITS 39/42/47/48: asm/layout.h): it reads the layout from the ELF
# (PAGE_SIZE = sizeof(swapper_pg_dir), VA_BITS from the image's link
# address _text = KIMAGE_VADDR), starts at TTBR1_EL1 for a kernel address
# and at TTBR0_EL1 (or the process's mm->pt.root with PID) for a user
# address, and reads the tables by physical address (QEMU's
# Qqemu.PhyMemMode), so it works from the first instruction with the MMU on,
# before the linear map exists. 52-bit output addresses are not decoded
# (the kernel builds none). MicroBlaze's debugger has no Python, so none of
# this exists there.
#
# tests/host/gdb_helpers.sh runs every command on a booted kernel and checks
# the answers against QEMU's own translation (monitor gva2gpa) and the
# kernel's variables.

import gdb

KSTACK_ORDER = 2          # kernel/proc.h: a kernel stack is 4 pages
EC_NAMES = {
    0x00: "unknown", 0x01: "WFI/WFE", 0x07: "FP/SIMD access", 0x0e: "illegal state",
    0x15: "SVC (system call)", 0x18: "MSR/MRS trap", 0x20: "instruction abort from EL0",
    0x21: "instruction abort from EL1", 0x22: "PC alignment", 0x24: "data abort from EL0",
    0x25: "data abort from EL1", 0x26: "SP alignment", 0x2f: "SError", 0x3c: "BRK",
}
MAIR_NAMES = {0: "Normal WB", 1: "Device-nGnRE", 2: "Normal NC", 3: "Device-nGnRnE"}
# mm/vma.h and mm/mm.h: the flags tos-vmas names besides rwxs
VM_FLAGS = [(0x0100, "growsdown"), (0x0200, "stack"), (0x0400, "heap"), (0x0800, "account"),
            (0x00010000, "dontfork"), (0x00020000, "wipeonfork"), (0x00040000, "sealed"),
            (0x00080000, "noreserve"), (0x00100000, "hugepage"), (0x00200000, "nohugepage"),
            (0x00400000, "hugetlb"), (0x04000000, "bti"), (0x10000000, "locked"),
            (0x20000000, "lockonfault")]
MASK64 = (1 << 64) - 1


def u64(v):
    """A gdb.Value (or int) as an unsigned 64-bit Python int."""
    return int(v) & MASK64


def layout():
    """(page_shift, va_bits) of the kernel in gdb, from its symbols alone."""
    page_size = int(gdb.parse_and_eval("sizeof(swapper_pg_dir)"))
    text = u64(gdb.parse_and_eval("(unsigned long)&_text"))
    page_shift = page_size.bit_length() - 1
    # KIMAGE_VADDR = -(1 << (VA_BITS - 1)) + 2 GiB (asm/memlayout.h)
    half = (-(text - 0x80000000)) & MASK64
    va_bits = half.bit_length()
    if page_shift not in (12, 14, 16) or half != 1 << (va_bits - 1):
        raise gdb.GdbError("cannot tell the layout: page size %d, _text 0x%x" % (page_size, text))
    return page_shift, va_bits


def levels(page_shift, va_bits):
    """The walk's levels, top first: a list of (shift, entries)."""
    bits = page_shift - 3
    n = -(-(va_bits - page_shift) // bits)
    out = []
    for k in range(n - 1, -1, -1):
        shift = page_shift + bits * k
        out.append((shift, 1 << min(bits, va_bits - shift)))
    return out


def read_phys_u64(pa):
    """The 8 bytes at physical address pa, through QEMU's physical-memory mode."""
    inf = gdb.selected_inferior()
    gdb.execute("maint packet Qqemu.PhyMemMode:1", to_string=True)
    try:
        data = inf.read_memory(pa, 8)
    finally:
        gdb.execute("maint packet Qqemu.PhyMemMode:0", to_string=True)
    return int.from_bytes(bytes(data), "little")


def reg(name):
    return u64(gdb.parse_and_eval("$" + name))


def ptable():
    return gdb.parse_and_eval("'proc.c'::ptable")


def nproc():
    t = ptable().type.strip_typedefs()
    return t.range()[1] + 1


def current_proc():
    """The struct proc * running on the selected CPU (NULL in the scheduler)."""
    try:
        cpu = reg("TPIDR_EL1")
    except gdb.error:
        cpu = 0
    return gdb.parse_and_eval("'proc.c'::cpus[%d].proc" % cpu)


def find_proc(arg):
    """A struct proc * for a pid argument, or the current process."""
    arg = arg.strip()
    if not arg:
        p = current_proc()
        if u64(p) == 0:
            raise gdb.GdbError("no current process on this CPU (give a pid; tos-ps lists them)")
        return p
    pid = int(gdb.parse_and_eval(arg))
    tab = ptable()
    for i in range(nproc()):
        if str(tab[i]["state"]) != "P_UNUSED" and int(tab[i]["pid"]) == pid:
            return tab[i].address
    raise gdb.GdbError("no process with pid %d (tos-ps lists them)" % pid)


def proc_name(p):
    return p["name"].string(length=16).split("\0")[0]


class TosHelp(gdb.Command):
    """List the teaching kernel's gdb commands (tools/gdb/teachos.py)."""

    def __init__(self):
        super().__init__("tos-help", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        for name in ("tos-ps", "tos-current", "tos-vmas", "tos-walk", "tos-regs"):
            doc = gdb.execute("help " + name, to_string=True).splitlines()[0]
            print("%-12s %s" % (name, doc))


class TosPs(gdb.Command):
    """The process table: pid, tgid, state, name, mm (* marks the current one)."""

    def __init__(self):
        super().__init__("tos-ps", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        tab = ptable()
        cur = u64(current_proc())
        print("  %5s %5s %-11s %-16s %s" % ("pid", "tgid", "state", "name", "mm"))
        for i in range(nproc()):
            p = tab[i]
            if str(p["state"]) == "P_UNUSED":
                continue
            mark = "*" if u64(p.address) == cur else " "
            print("%s %5d %5d %-11s %-16s 0x%x" % (mark, int(p["pid"]), int(p["tgid"]), str(p["state"]),
                                                  proc_name(p), u64(p["mm"])))


class TosCurrent(gdb.Command):
    """The process running on the selected CPU: pid, name, state, mm, kernel stack."""

    def __init__(self):
        super().__init__("tos-current", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        p = current_proc()
        if u64(p) == 0:
            print("no current process (the CPU is in the scheduler, idle, or still booting)")
            return
        print("pid %d tgid %d name %s state %s proc 0x%x mm 0x%x kstack 0x%x" %
              (int(p["pid"]), int(p["tgid"]), proc_name(p), str(p["state"]), u64(p),
               u64(p["mm"]), u64(p["kstack"])))


class TosVmas(gdb.Command):
    """tos-vmas [PID]: a process's VMAs, low to high, as /proc/PID/maps shows them."""

    def __init__(self):
        super().__init__("tos-vmas", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        p = find_proc(arg)
        mm = p["mm"]
        if u64(mm) == 0:
            raise gdb.GdbError("pid %d has no address space" % int(p["pid"]))
        print("pid %d (%s) mm 0x%x: %d VMAs, ASID %d, page-table root 0x%x" %
              (int(p["pid"]), proc_name(p), u64(mm), int(mm["nvmas"]), int(mm["pt"]["asid"]),
               u64(mm["pt"]["root"])))
        v = mm["vmas"]
        n = 0
        while u64(v) != 0 and n <= int(mm["nvmas"]):
            flags = int(v["flags"])
            perms = "".join(c if flags & b else "-" for c, b in (("r", 1), ("w", 2), ("x", 4)))
            perms += "s" if flags & 8 else "p"
            if u64(v["name"]):
                name = v["name"].string()
            elif flags & 0x200:
                name = "[stack]"
            elif flags & 0x400:
                name = "[heap]"
            else:
                name = ""
            extra = ",".join(s for b, s in VM_FLAGS if flags & b)
            print("%016x-%016x %s %-24s %s" % (u64(v["start"]), u64(v["end"]), perms,
                                              extra and "(" + extra + ")", name))
            v = v["next"]
            n += 1
        if n != int(mm["nvmas"]):
            print("warning: the list has %d VMAs, mm->nvmas says %d" % (n, int(mm["nvmas"])))


def describe(v, level_no, nlevels, shift, page_shift):
    """Words for a descriptor at walk level level_no of nlevels (asm/pgtable.h's bits)."""
    if not v & 1:
        kind = (v >> 2) & 3
        if v == 0:
            return "invalid (empty)"
        if kind == 1:   # ARCH_SWP_PROTNONE: the page is kept, its address in the OA bits
            return "invalid: software entry, PROT_NONE page at pa 0x%x" % (
                v & 0xffffffffffff & ~((1 << page_shift) - 1))
        return "invalid: software entry, %s" % ("guard marker" if kind == 2 else "unknown kind")
    last = level_no == nlevels - 1
    if not last and v & 2:
        bits = [s for b, s in ((59, "PXNTable"), (60, "UXNTable"), (61, "APTable[0]"),
                               (62, "APTable[1]"), (63, "NSTable")) if v >> b & 1]
        return "table" + (" " + " ".join(bits) if bits else "")
    if last and not v & 2:
        return "reserved encoding (bit 1 clear at the last level): faults"
    ap = (v >> 6) & 3
    perm = ["EL1 rw, EL0 --", "EL1 rw, EL0 rw", "EL1 r-, EL0 --", "EL1 r-, EL0 r-"][ap]
    words = ["page" if last else "block", size_name(1 << shift), MAIR_NAMES.get((v >> 2) & 7, "attr?"), perm]
    for b, s in ((10, "AF"), (11, "nG"), (50, "GP"), (51, "DBM"), (52, "CONT"), (53, "PXN"), (54, "UXN")):
        if v >> b & 1:
            words.append(s)
    words.append("SH=%d" % ((v >> 8) & 3))
    if (v >> 55) & 0xf:
        words.append("sw=0x%x" % ((v >> 55) & 0xf))
    return " ".join(words)


def size_name(n):
    for unit, s in ((1 << 30, "G"), (1 << 20, "M"), (1 << 10, "K")):
        if n >= unit and n % unit == 0:
            return "%d%s" % (n // unit, s)
    return "%d" % n


class TosWalk(gdb.Command):
    """tos-walk VA [PID]: walk VA through the tables the MMU would use; prints the PA."""

    def __init__(self):
        super().__init__("tos-walk", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        args = gdb.string_to_argv(arg)
        if not args:
            raise gdb.GdbError("usage: tos-walk VA [PID]")
        va = u64(gdb.parse_and_eval(args[0]))
        page_shift, va_bits = layout()
        lv = levels(page_shift, va_bits)
        top = va >> va_bits
        if top == (1 << (64 - va_bits)) - 1:
            root, where = reg("TTBR1_EL1") & 0xfffffffffffe, "kernel half, TTBR1_EL1"
        elif top == 0:
            if len(args) > 1:
                p = find_proc(args[1])
                root, where = u64(p["mm"]["pt"]["root"]), "user half, pid %d's mm->pt.root" % int(p["pid"])
            else:
                root, where = reg("TTBR0_EL1") & 0xfffffffffffe, "user half, TTBR0_EL1 (ASID %d)" % (
                    reg("TTBR0_EL1") >> 48)
        else:
            print("0x%x: not canonical for %d-bit VAs: translation fault at level 0" % (va, va_bits))
            print("=> not mapped")
            return
        print("va 0x%x: %s = 0x%x; %s granule, %d-bit VA, %d levels" %
              (va, where, root, size_name(1 << page_shift), va_bits, len(lv)))
        table = root
        hw0 = 4 - len(lv)
        for i, (shift, entries) in enumerate(lv):
            idx = (va >> shift) & (entries - 1)
            v = read_phys_u64(table + 8 * idx)
            print("  level %d (hw L%d) table 0x%x [%4d] = 0x%016x  %s" %
                  (i, hw0 + i, table, idx, v, describe(v, i, len(lv), shift, page_shift)))
            if not v & 1:
                print("=> not mapped (translation fault at level %d)" % (hw0 + i))
                return
            last = i == len(lv) - 1
            oa = v & 0xffffffffffff & ~((1 << page_shift) - 1)
            if not last and v & 2:
                table = oa
                continue
            if last and not v & 2:
                print("=> not mapped (reserved descriptor at level %d)" % (hw0 + i))
                return
            oa &= ~((1 << shift) - 1)
            print("=> pa 0x%x (%s %s at level %d)" % (oa | (va & ((1 << shift) - 1)),
                                                     size_name(1 << shift), "page" if last else "block", i))
            return


class TosRegs(gdb.Command):
    """tos-regs [PID]: a process's saved user registers (and its saved kernel context)."""

    def __init__(self):
        super().__init__("tos-regs", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        p = find_proc(arg)
        page_size = int(gdb.parse_and_eval("sizeof(swapper_pg_dir)"))
        top = u64(p["kstack"]) + (page_size << KSTACK_ORDER)
        t = gdb.lookup_type("struct pt_regs")
        regs = gdb.Value(top - t.sizeof).cast(t.pointer()).dereference()
        print("pid %d (%s): user frame at 0x%x (top of the kernel stack)" %
              (int(p["pid"]), proc_name(p), top - t.sizeof))
        for i in range(0, 31, 2):
            row = ["x%-2d 0x%016x" % (j, u64(regs["regs"][j])) for j in (i, i + 1) if j < 31]
            print("  " + "   ".join(row))
        esr = u64(regs["esr"])
        ec = esr >> 26
        print("  sp  0x%016x   pc  0x%016x   pstate 0x%x" % (u64(regs["sp"]), u64(regs["pc"]),
                                                             u64(regs["pstate"])))
        print("  esr 0x%x (EC 0x%02x: %s)   far 0x%x" % (esr, ec, EC_NAMES.get(ec, "?"), u64(regs["far"])))
        cur = u64(current_proc())
        if u64(p) == cur:
            print("kernel context: running now (gdb's registers are its kernel registers; try bt)")
            return
        c = p["ctx"]
        lr = u64(c["lr"])
        where = gdb.execute("info symbol 0x%x" % lr, to_string=True).strip()
        print("kernel context saved by arch_switch(): lr 0x%x (%s) sp 0x%x fp 0x%x tpidr_el0 0x%x" %
              (lr, where, u64(c["sp"]), u64(c["fp"]), u64(c["tpidr_el0"])))
        print("  " + " ".join("x%d=0x%x" % (19 + k, u64(c["x%d" % (19 + k)])) for k in range(10)))


TosHelp()
TosPs()
TosCurrent()
TosVmas()
TosWalk()
TosRegs()
