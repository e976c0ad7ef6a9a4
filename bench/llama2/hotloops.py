#!/usr/bin/env python3
# hotloops.py BINARY FUNCTION: list FUNCTION's innermost dot-product loops
# (a backward branch over less than 64 bytes whose body multiplies and
# adds packed floats: mulps/addps or an FMA) with their start offset
# modulo 64 and whether they straddle a 64-byte boundary, from objdump -d.
# Issue 16 item 4: those that straddle one are the slow placements.
# Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.
import re, subprocess, sys

binary, func = sys.argv[1], sys.argv[2]
dis = subprocess.run(['objdump', '-d', '--no-show-raw-insn', binary],
                     capture_output=True, text=True, check=True).stdout
ins, inside = [], False
for line in dis.split('\n'):
    m = re.match(r'^[0-9a-f]+ <(.*)>:', line)
    if m:
        inside = m.group(1) == func
        continue
    m = re.match(r'^\s+([0-9a-f]+):\s+(.*)', line)
    if m and inside:
        ins.append((int(m.group(1), 16), m.group(2)))
for i, (addr, text) in enumerate(ins[:-1]):
    m = re.match(r'j\w+\s+([0-9a-f]+) <', text)
    if not m:
        continue
    top = int(m.group(1), 16)
    if not (top < addr and addr - top < 64):
        continue
    body = ' '.join(t for a, t in ins if top <= a <= addr)
    if re.search(r'mulps|fmadd...ps', body) and re.search(r'addps|fmadd...ps', body):
        end = ins[i + 1][0]
        cross = top // 64 != (end - 1) // 64
        print(f'{top:#x}-{end:#x} {end - top:2d} bytes, start % 64 = {top % 64:2d}'
              + ('  straddles a 64-byte boundary' if cross else ''))
