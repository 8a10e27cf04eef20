#!/usr/bin/env python3
"""Make the static rtcd headers of a wasm "x86" libaom build link-clean.

The hand-written .asm files are skipped for wasm, so some '#define f f_<isa>'
lines in config/{aom_dsp,av1,aom_scale}_rtcd.h name functions that do not exist,
and some intrinsics functions call such asm helpers (e.g.
aom_convolve8_horiz_ssse3 -> aom_filter_block1d16_h8_ssse3).

This script disassembles libaom.a (llvm-objdump -dr), builds a per-object
call/reference graph, marks every function that (transitively) references a
missing SIMD symbol as unusable, and rewrites each rtcd define whose target is
missing or unusable to the best usable variant
(sse4_1 > ssse3 > sse3 > sse2 > sse > c).

Usage: fix-rtcd.py <build_dir>            rewrite headers
       fix-rtcd.py <build_dir> --check    exit 1 if anything would change
"""
import os
import re
import subprocess
import sys
from collections import defaultdict

PREF = ['sse4_1', 'ssse3', 'sse3', 'sse2', 'sse', 'c']
HEADERS = ['aom_dsp_rtcd.h', 'av1_rtcd.h', 'aom_scale_rtcd.h']
SIMD_SUFFIX = re.compile(r'_(mmx|sse|sse2|sse3|ssse3|sse4_1|sse4_2|avx|avx2)$')
OBJDUMP = os.environ.get('LLVM_OBJDUMP', 'llvm-objdump')


def analyse(lib):
    """Return (defined global syms, missing SIMD syms, unusable functions)."""
    out = subprocess.run(['emnm', lib], capture_output=True, text=True,
                         check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in 'TDBRW':
            defined.add(p[2])
        elif len(p) == 2 and p[0] == 'U':
            undefined.add(p[1])
    missing = {s for s in undefined - defined if SIMD_SUFFIX.search(s)}

    # Per-object function -> referenced symbols (from CODE relocations).
    dis = subprocess.run([OBJDUMP, '-dr', lib], capture_output=True, text=True,
                         check=True).stdout
    obj_funcs = defaultdict(dict)   # obj -> {func: set(refs)}
    obj = func = None
    for line in dis.splitlines():
        m = re.match(r'^\S*\((.+\.o)\):\s+file format', line)
        if m:
            obj, func = m.group(1), None
            continue
        m = re.match(r'^[0-9a-f]+ <(.+)>:$', line)
        if m:
            func = m.group(1) if m.group(1) != 'CODE' else None
            if func:
                obj_funcs[obj][func] = set()
            continue
        m = re.search(r'R_WASM_\w+\s+(\S+?)\+', line)
        if m and func:
            obj_funcs[obj][func].add(m.group(1))

    # Data relocations to missing symbols would escape the analysis below.
    rel = subprocess.run([OBJDUMP, '-r', lib], capture_output=True, text=True,
                         check=True).stdout
    section = None
    for line in rel.splitlines():
        m = re.match(r'RELOCATION RECORDS FOR \[(\w+)\]', line)
        if m:
            section = m.group(1)
            continue
        m = re.search(r'R_WASM_\w+\s+(\S+?)\+', line)
        if m and section != 'CODE' and m.group(1) in missing:
            sys.exit(f'ERROR: data reference to missing {m.group(1)}')

    return defined, missing, obj_funcs


def unusable_funcs(missing, obj_funcs, alias):
    """Functions that (transitively) reference a missing symbol.  A missing
    symbol that an rtcd define is being redirected away from (alias) counts
    as resolved: after the rebuild the macro expands to the replacement."""
    # Nodes are (obj, func); a callee resolves to the same object first
    # (static helpers), then to the global definition.
    global_def = {}
    for o, funcs in obj_funcs.items():
        for f in funcs:
            global_def.setdefault(f, (o, f))
    bad = set()
    changed = True
    while changed:
        changed = False
        for o, funcs in obj_funcs.items():
            for f, refs in funcs.items():
                if (o, f) in bad:
                    continue
                for r in refs:
                    r = alias.get(r, r)   # reference via a redirected macro
                    if r in missing:
                        hit = True
                    elif r in funcs:
                        hit = (o, r) in bad
                    else:
                        hit = global_def.get(r) in bad
                    if hit:
                        bad.add((o, f))
                        changed = True
                        break
    return {f for (o, f) in bad if global_def.get(f) == (o, f)}


def main():
    build = sys.argv[1]
    check_only = '--check' in sys.argv
    defined, missing, obj_funcs = analyse(os.path.join(build, 'libaom.a'))
    texts = {h: open(os.path.join(build, 'config', h)).read() for h in HEADERS}
    define_re = re.compile(r'^#define (\w+) (\w+)$', re.M)
    alias = {}
    while True:  # fixed point: redirects can make more intrinsics usable
        unusable = unusable_funcs(missing, obj_funcs, alias)
        usable = defined - unusable
        new_alias, changes = {}, []
        for h, text in texts.items():
            for m in define_re.finditer(text):
                name, target = m.group(1), m.group(2)
                if not target.startswith(name + '_'):
                    continue
                if target == name + '_c' or target in usable:
                    continue
                for isa in PREF:
                    cand = f'{name}_{isa}'
                    if re.search(r'\b%s\(' % re.escape(cand), text) and (
                            cand in usable or isa == 'c'):
                        why = 'missing' if target not in defined else 'uses asm'
                        changes.append((h, name, target, cand, why))
                        new_alias[target] = cand
                        break
                else:
                    sys.exit(f'ERROR: no usable variant for {name}')
        if new_alias == alias:
            break
        alias = new_alias
    for h, name, target, cand, why in changes:
        print(f'{h}: {target} ({why}) -> {cand}')
        texts[h] = re.sub(r'^#define %s %s$' % (name, target),
                          f'#define {name} {cand}', texts[h], flags=re.M)
    if not check_only:
        for h, text in texts.items():
            open(os.path.join(build, 'config', h), 'w').write(text)
    # After the rebuild (--check) nothing may still depend on missing asm.
    plain = sorted(f for f in unusable if not SIMD_SUFFIX.search(f))
    print(f'{len(changes)} rtcd define(s) '
          f'{"to rewrite" if check_only else "rewritten"}; '
          f'{len(missing)} missing asm symbols; '
          f'{len(unusable)} intrinsics functions depend on them; '
          f'non-SIMD functions affected: {plain or "none"}')
    if check_only and (changes or plain):
        sys.exit(1)


main()
