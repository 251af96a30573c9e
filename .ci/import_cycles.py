#!/usr/bin/env python3
"""Fails when files of src/ import each other in a circle.

Every `use` line and every inline `crate::…`/`super::…` path is resolved to the file of the
deepest module it names; an edge runs from the using file to that file (a module's own
children and `pub mod` declarations are not imports). Prints each circle found.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")


def module_of(path):
    rel = os.path.relpath(path, ROOT)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib", "main"):
        rel = rel[:-1]
    return rel


def file_of(parts):
    """The file of the deepest module named by a prefix of `parts`."""
    for n in range(len(parts), -1, -1):
        base = os.path.join(ROOT, *parts[:n]) if n else ROOT
        for candidate in (base + ".rs", os.path.join(base, "mod.rs")):
            if n and os.path.isfile(candidate):
                return candidate
        if n == 0:
            return os.path.join(ROOT, "lib.rs")
    return None


def file_of_exact(parts):
    base = os.path.join(ROOT, *parts)
    return os.path.isfile(base + ".rs") or os.path.isfile(os.path.join(base, "mod.rs"))


def expand(tree):
    """`a::{b, c::{d}}` → ['a::b', 'a::c::d']."""
    tree = tree.strip()
    depth, start = 0, None
    for i, ch in enumerate(tree):
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                prefix, inner, rest = tree[:start], tree[start + 1 : i], tree[i + 1 :]
                parts, level, last = [], 0, 0
                for j, c in enumerate(inner):
                    if c == "{":
                        level += 1
                    elif c == "}":
                        level -= 1
                    elif c == "," and level == 0:
                        parts.append(inner[last:j])
                        last = j + 1
                parts.append(inner[last:])
                out = []
                for p in parts:
                    if p.strip():
                        out += expand(prefix + p.strip() + rest)
                return out
    return [re.sub(r"\s+as\s+\w+$", "", tree)]


def resolve(path_text, module):
    parts = [p for p in path_text.split("::") if p]
    if not parts:
        return None
    if parts[0] == "crate":
        absolute = parts[1:]
    elif parts[0] in ("super", "self"):
        absolute = list(module)
        while parts and parts[0] in ("super", "self"):
            if parts.pop(0) == "super":
                absolute = absolute[:-1]
        absolute += parts
    elif file_of_exact(module + parts[:1]):
        # A path relative to the current module (Rust 2018): one of its child modules.
        absolute = list(module) + parts
    else:
        return None
    absolute = [p for p in absolute if p not in ("self", "*")]
    return file_of(absolute)


def edges():
    graph = {}
    for directory, _, files in os.walk(ROOT):
        for name in files:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(directory, name)
            text = open(path, encoding="utf-8").read()
            # Tests may reach anywhere; only the code itself counts.
            text = re.split(r"#\[cfg\(test\)\]", text)[0]
            text = re.sub(r"^\s*//.*$", "", text, flags=re.M)
            module = module_of(path)
            targets = set()
            for use in re.findall(r"^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", text, re.M):
                for full in expand(use):
                    targets.add(resolve(full, module))
            for inline in re.findall(r"(?<![\w:])([a-z_][a-z0-9_]*(?:::\w+)+)", text):
                targets.add(resolve(inline, module))
            own = os.path.normpath(path)
            graph[own] = {os.path.normpath(t) for t in targets if t and os.path.normpath(t) != own}
    return graph


def cycles(graph):
    found, state, stack = [], {}, []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                found.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


def main():
    graph = edges()
    # A parent module's file that only declares its children is no import of them.
    found = cycles(graph)
    for cycle in found:
        print("import circle: " + " → ".join(os.path.relpath(f, ROOT) for f in cycle))
    if "-v" in sys.argv:
        for node in sorted(graph):
            print(os.path.relpath(node, ROOT), "→", ", ".join(sorted(os.path.relpath(t, ROOT) for t in graph[node])))
    print(f"{len(graph)} files, {sum(len(v) for v in graph.values())} imports, {len(found)} circles")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
