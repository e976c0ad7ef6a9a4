#!/bin/sh
# abtest.sh RUN_C BUILDDIR [ROUNDS]: issue 16 item 4.  Builds llama2.c's
# run.c (RUN_C; its tokenizer.bin must sit beside it) with gcc -Ofast and
# -Ofast -march=native, plain and with BUILDDIR's plugin, each with its
# code at four offsets from a 64-byte boundary (a top-level asm of
# ".p2align 6; .skip N" before run.c, N = 0, 16, 32, 48: the code is the
# same, only its placement moves), writes a random-weights stories15M
# checkpoint (checkpoint.c), and runs the 16 programs interleaved
# (-t 0 -n 256, ROUNDS rounds, default 8, rotating order).  Prints each
# program's median tok/s (run.c's own "achieved tok/s"), where its hottest
# loop sits (hotloops.py), and per flag set the plugin / plain ratio of
# the means over the offsets.  Takes about 2.5 min per 8 rounds.
# Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.
set -e
RUN_C=$(realpath "$1"); B=$(realpath "$2"); ROUNDS=${3:-8}
HERE=$(dirname "$(realpath "$0")")
W=$(mktemp -d); cd "$W"
cp "$(dirname "$RUN_C")/tokenizer.bin" .
gcc -O2 "$HERE/checkpoint.c" -o checkpoint -lm && ./checkpoint model.bin
P="-fplugin=$B/plugin/.libs/neuronfuse.so"
L="-L$B/runtime/.libs -Wl,-rpath,$B/runtime/.libs -lneuronfuse"
BINS=
for s in 0 16 32 48; do
  if [ $s = 0 ]; then printf '__asm__ (".text\\n\\t.p2align 6\\n");\n' > run$s.c
  else printf '__asm__ (".text\\n\\t.p2align 6\\n\\t.skip %d, 0xcc\\n");\n' $s > run$s.c; fi
  cat "$RUN_C" >> run$s.c
  gcc -Ofast run$s.c -o ofast-plain-$s -lm
  gcc -Ofast $P run$s.c -o ofast-plugin-$s $L -lm
  gcc -Ofast -march=native run$s.c -o native-plain-$s -lm
  gcc -Ofast -march=native $P run$s.c -o native-plugin-$s $L -lm
  BINS="$BINS ofast-plain-$s ofast-plugin-$s native-plain-$s native-plugin-$s"
done
set -- $BINS
i=0
while [ $i -lt "$ROUNDS" ]; do
  for b in "$@"; do
    t=$(./$b model.bin -t 0 -n 256 -i "Once upon" 2>&1 >/dev/null | sed -n 's/achieved tok\/s: //p')
    echo "$b $t" >> times
  done
  first=$1; shift; set -- "$@" "$first"; i=$((i + 1))
done
for b in $BINS; do
  echo "$b $(python3 "$HERE/hotloops.py" $b forward | tail -1)"
done > loops
python3 - <<'PY'
import statistics as st, collections
t = collections.defaultdict(list)
for line in open('times'):
    b, v = line.split(); t[b].append(float(v))
loops = dict(l.split(' ', 1) for l in open('loops').read().splitlines())
for b in sorted(t, key=lambda b: (b.split('-')[0], b.split('-')[1], int(b.split('-')[2]))):
    print(f'{b:18s} median {st.median(t[b]):6.1f} tok/s   last dot-product loop: {loops.get(b, "").strip()}')
for fs in ('ofast', 'native'):
    m = {k: st.mean(st.median(t[f'{fs}-{k}-{s}']) for s in (0, 16, 32, 48)) for k in ('plain', 'plugin')}
    print(f'{fs}: mean over offsets plain {m["plain"]:.1f}, plugin {m["plugin"]:.1f} tok/s; plugin / plain {m["plugin"] / m["plain"]:.3f}')
PY
cd / && rm -rf "$W"
