#!/usr/bin/env python3
"""The deepest chain of static stack frames below a firmware function (Cortex-M, Thumb-2).

Each function's frame is what its prologue reserves (`push`, `stmdb sp!`, `vpush`, `sub sp`),
read from `arm-none-eabi-objdump -d`; calls are its `bl`/`blx` targets. With a QEMU exec log
(`-d exec,nochain`, as `KEEP_LOGS=1 bash scripts/embedded-figures.sh` keeps them in
target/firmware/logs/) and a count region's name, only the functions that region executed
are followed: the chain is then the one a stack painting measures.

    python3 scripts/stack_chain.py ELF ROOT [LOG REGION]

ROOT is a substring of the root function's symbol (e.g. `double_pendulum_step`); REGION
the region's name in the firmware's `count order=` line (e.g. `double_pendulum_step/f32`),
counted between `mbs_count_begin` and `mbs_count_end` as the figures script does.
"""

import re
import subprocess
import sys


def frames(elf):
    """{function: (frame bytes, {callees})} from the disassembly."""
    dis = subprocess.run(["arm-none-eabi-objdump", "-d", "--no-show-raw-insn", elf],
                         capture_output=True, text=True, check=True).stdout
    out, cur = {}, None
    for line in dis.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if m:
            cur = m.group(1)
            out[cur] = [0, set()]
            continue
        m = re.match(r"^\s+[0-9a-f]+:\s+(\S+)\s*(.*)$", line)
        if cur is None or not m:
            continue
        op, args = m.groups()
        regs = re.search(r"\{(.*)\}", args)
        if op in ("push", "push.w") or (op == "stmdb" and args.startswith("sp!")):
            out[cur][0] += 4 * count(regs.group(1))
        elif op == "vpush":
            width = 8 if regs.group(1).strip().startswith("d") else 4
            out[cur][0] += width * count(regs.group(1))
        elif op in ("sub", "sub.w", "subw") and args.startswith("sp, "):
            imm = re.search(r"#(\d+)", args)
            if imm:
                out[cur][0] += int(imm.group(1))
        elif op in ("bl", "blx"):
            target = re.search(r"<([^>+]+)>", args)
            if target and target.group(1) != cur:
                out[cur][1].add(target.group(1))
    return out


def count(regs):
    """Number of registers in an objdump register list such as `r4, r5, r7-r9, lr`."""
    n = 0
    for r in regs.split(","):
        r = r.strip()
        if "-" in r:
            a, b = r.split("-")
            n += int(b[1:]) - int(a[1:]) + 1
        else:
            n += 1
    return n


def executed(log, index):
    """The functions the exec log shows running in count region number `index` (1 = the
    empty bracket)."""
    seen, on, r = set(), False, 0
    with open(log, errors="replace") as f:
        for line in f:
            if not line.startswith("Trace"):
                continue
            fn = line.split()[-1]
            if fn == "mbs_count_begin" and not on:
                on, r = True, r + 1
            elif fn == "mbs_count_end" and on:
                on = False
            if on and r == index:
                seen.add(fn)
    return seen


def main():
    if len(sys.argv) not in (3, 5):
        sys.exit(__doc__)
    elf, root = sys.argv[1], sys.argv[2]
    table = frames(elf)
    allowed = None
    if len(sys.argv) == 5:
        log, region = sys.argv[3], sys.argv[4]
        allowed = executed(log, region_index(elf, region))
    skip = re.compile(r"panic|fmt|semihost")
    memo = {}

    def deepest(fn, path=()):
        if fn in memo:
            return memo[fn]
        if fn not in table or fn in path:
            return 0, []
        best = (0, [])
        for c in table[fn][1]:
            if skip.search(c) or (allowed is not None and c not in allowed):
                continue
            d = deepest(c, path + (fn,))
            if d[0] > best[0]:
                best = d
        memo[fn] = (table[fn][0] + best[0], [(fn, table[fn][0])] + best[1])
        return memo[fn]

    roots = [f for f in table if root in f and not f.startswith("mbs_count")]
    for r in roots:
        total, chain = deepest(r)
        print(f"{total} B below {demangle(r)}")
        for fn, size in chain:
            print(f"  {size:6d}  {demangle(fn)}")


def region_index(elf, region):
    """The region's number (1 = the empty bracket) from the firmware's `count order=` line,
    printed when the firmware runs in count mode."""
    out = subprocess.run(
        ["timeout", "120", "qemu-system-arm", "-M", "mps2-an386", "-cpu", "cortex-m4",
         "-nographic", "-semihosting-config", "enable=on,target=native,arg=count",
         "-kernel", elf], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("count order="):
            names = line[len("count order="):].split(",")
            return names.index(region) + 1
    sys.exit(f"no count order line from {elf}")


def demangle(sym):
    """A symbol as Rust writes it, without its hash (arm-none-eabi-c++filt reads Rust's
    legacy mangling)."""
    out = subprocess.run(["arm-none-eabi-c++filt", sym], capture_output=True, text=True).stdout
    return re.sub(r"::h[0-9a-f]{16}$", "", out.strip())


if __name__ == "__main__":
    main()
