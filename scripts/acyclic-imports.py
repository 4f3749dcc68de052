#!/usr/bin/env python3
"""Checks that no two files of a crate import each other, directly or through others.

    python3 scripts/acyclic-imports.py core/src ffi/src view/src

A file is a module (`foo.rs`, `foo/mod.rs`); an import is every path a file names to another
module of its crate: `use` declarations (module-level or in a function body, with their `{...}`
trees expanded), and paths written in the code (`crate::a::b`, `super::x`, `self::x`, a child
module's name). A path to an item re-exported by a `pub use` is followed to the file that
defines the item, so a `mod.rs` that re-exports its children is not a circle with them. Test
modules (`mod tests`, `#[cfg(test)]` blocks) are left out: they import their parent by design.

Prints each circle (its files and one line of each import on it) and exits 1 if there is one;
prints nothing and exits 0 if there is none.

Why not `cargo modules dependencies --acyclic`: it checks the graph of items (a type and its
`Default` impl already form a cycle) and takes only module-level `use` declarations as edges.
"""
import os
import re
import sys

# A path in code, whole (a prefix followed by `::{` or `::*` is a `use` tree's, read by USE).
PATH = re.compile(r"\b(crate|super|self)\s*::\s*(\w+(?:\s*::\s*\w+)*)\b(?!\s*::\s*[\w{*])")
USE = re.compile(r"\buse\s+([^;]+);")
MOD = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", re.M)


def strip(src):
    """The code without comments, string and char literals, and test modules."""
    src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
    src = re.sub(r"//[^\n]*", " ", src)
    src = re.sub(r'r#*"(?:.|\n)*?"#*', '""', src)
    src = re.sub(r'"(?:[^"\\]|\\.)*"', '""', src)
    src = re.sub(r"'(?:[^'\\\n]|\\.)'", "' '", src)
    # #[cfg(test)] items and `mod tests { ... }` blocks.
    out, i = [], 0
    for m in re.finditer(r"#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]|\bmod\s+tests\s*\{", src):
        if m.start() < i:
            continue
        out.append(src[i : m.start()])
        j = src.find("{", m.start())
        semi = src.find(";", m.start())
        if semi != -1 and (j == -1 or semi < j):
            i = semi + 1  # `#[cfg(test)] mod tests;` or a single item
            continue
        depth, k = 0, j
        while k < len(src):
            depth += {"{": 1, "}": -1}.get(src[k], 0)
            k += 1
            if depth == 0:
                break
        i = k
    out.append(src[i:])
    return "".join(out)


def expand(tree):
    """The paths of a `use` tree: `a::{b, c::{d, e as f}, self}` -> [a::b, a::c::d, a::c::e, a]."""
    tree = re.sub(r"\s+", "", tree)
    tree = re.sub(r"\bas\w+", "", tree.replace("as", " as ")).replace(" ", "")
    paths = []

    def walk(prefix, s):
        depth, start, parts = 0, 0, []
        for k, ch in enumerate(s):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                parts.append(s[start:k])
                start = k + 1
        parts.append(s[start:])
        for p in parts:
            if not p:
                continue
            b = p.find("{")
            if b == -1:
                segs = [x for x in p.split("::") if x]
                if segs == ["self"]:
                    paths.append(prefix)
                elif segs and segs[-1] == "*":
                    paths.append(prefix + segs[:-1])
                else:
                    paths.append(prefix + segs)
            else:
                head = [x for x in p[:b].split("::") if x]
                walk(prefix + head, p[b + 1 : p.rfind("}")])

    walk([], tree)
    return paths


def use_bindings(tree):
    """Name -> path of each binding of a `use` tree (`a::b as c` binds c)."""
    out = {}
    for raw in re.split(r",|\{|\}", re.sub(r"\s+", " ", tree)):
        m = re.search(r"(\w+)\s+as\s+(\w+)\s*$", raw.strip())
        if m:
            out[m.group(2)] = m.group(1)
    return out


class Crate:
    def __init__(self, root):
        self.root = root
        self.files = {}  # module path tuple -> file
        for dirpath, _, names in os.walk(root):
            for n in names:
                if not n.endswith(".rs"):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, n), root)[:-3].split(os.sep)
                if rel[-1] in ("mod", "lib", "main"):
                    rel = rel[:-1]
                self.files[tuple(rel)] = os.path.join(dirpath, n)
        self.code = {m: strip(open(f).read()) for m, f in self.files.items()}
        self.raw = {m: open(f).read().split("\n") for m, f in self.files.items()}
        # Declared child modules (to drop files that are not part of the crate, e.g. tests).
        self.children = {m: set(MOD.findall(c)) for m, c in self.code.items()}
        # Names each module binds by `use` (for following re-exports).
        self.binds = {}
        for m, c in self.code.items():
            b = {}
            for u in USE.finditer(c):
                for p in expand(u.group(1)):
                    if p:
                        b.setdefault(p[-1], p)
                for alias, orig in use_bindings(u.group(1)).items():
                    for p in expand(u.group(1)):
                        if p and p[-1] == orig:
                            b[alias] = p
            self.binds[m] = b

    def absolute(self, module, path):
        """The path from the crate root, or None for an external crate's path."""
        if not path:
            return None
        if path[0] == "crate":
            return path[1:]
        if path[0] in ("super", "self"):
            base = list(module)
            k = 0
            while k < len(path) and path[k] in ("super", "self"):
                if path[k] == "super":
                    base = base[:-1]
                k += 1
            return base + path[k:]
        if path[0] in self.children.get(module, ()):
            return list(module) + path
        return None

    def target(self, path, seen=0):
        """The file module that defines what `path` (from the root) names."""
        k = len(path)
        while k > 0 and tuple(path[:k]) not in self.files:
            k -= 1
        module = tuple(path[:k])
        rest = path[k:]
        if rest and seen < 16:
            # A name the module imports (a re-export): what it names.
            via = self.binds.get(module, {}).get(rest[0])
            nxt = self.absolute(module, via) if via else None
            if nxt is not None:
                return self.target(nxt + rest[1:], seen + 1)
        return module

    def edges(self):
        """(from, to) -> the first line of `from` that makes the edge."""
        out = {}
        for m, c in self.code.items():
            paths = []
            for u in USE.finditer(c):
                paths += expand(u.group(1))
            for p in PATH.finditer(c):
                paths.append([p.group(1)] + re.split(r"\s*::\s*", p.group(2)))
            for child in self.children.get(m, ()):
                for p in re.finditer(r"\b" + child + r"\s*::\s*(\w+(?:\s*::\s*\w+)*)", c):
                    paths.append([child] + re.split(r"\s*::\s*", p.group(1)))
            for p in paths:
                a = self.absolute(m, p)
                if a is None:
                    continue
                t = self.target(a)
                if t == m or t not in self.files or t == ():
                    continue
                if (m, t) not in out:
                    out[(m, t)] = self.line(m, p)
        return out

    def line(self, m, p):
        last = p[-1] if p else ""
        for i, ln in enumerate(self.raw[m], 1):
            s = ln.split("//")[0]
            if last and re.search(r"\b" + re.escape(last) + r"\b", s) and (
                "use " in s or "::" in s
            ):
                return "%s:%d: %s" % (self.files[m], i, ln.strip())
        return self.files[m]


def cycles(nodes, edges):
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    succ = {n: [] for n in nodes}
    for a, b in edges:
        succ.setdefault(a, []).append(b)
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    for root in nodes:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter[0]
                counter[0] += 1
                stack.append(v)
                on.add(v)
            recurse = False
            for j in range(i, len(succ.get(v, []))):
                w = succ[v][j]
                if w not in index:
                    work.append((v, j + 1))
                    work.append((w, 0))
                    recurse = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if recurse:
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
    return out


def main(roots):
    bad = 0
    for root in roots:
        crate = Crate(root)
        edges = crate.edges()
        for comp in cycles(list(crate.files), edges):
            bad += 1
            names = ["/".join(m) or "(root)" for m in comp]
            print("import circle in %s: %s" % (root, ", ".join(names)))
            inside = set(comp)
            for (a, b), where in sorted(edges.items()):
                if a in inside and b in inside:
                    print("  %s -> %s  (%s)" % ("/".join(a), "/".join(b), where))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["core/src", "ffi/src"]))
