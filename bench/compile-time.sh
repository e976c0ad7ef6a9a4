#!/bin/bash
# compile-time.sh: what loading the plugin costs when there is nothing to
# fuse.  Compiles one large real C file with no idioms (the SQLite
# amalgamation, from the npm package better-sqlite3) with and without the
# plugin, interleaved (ABAB...) so that drift on a shared machine hits
# both alike, and prints the median CPU times (user + sys) and their
# ratio.  The goal (issue 4): at most 2% more compile time.
#
# Usage: bench/compile-time.sh PLUGIN.so [RUNS] [OPT]
#   SQLITE_C=path/sqlite3.c  to use a copy you have; otherwise it is
#   fetched once with `npm pack` into bench/.cache (needs npm).
set -eu
plugin=${1:?usage: compile-time.sh PLUGIN.so [RUNS] [OPT]}
runs=${2:-5}
opt=${3:--O2}
cc=${CC:-gcc}
here=$(cd "$(dirname "$0")" && pwd)

src=${SQLITE_C:-}
if [ -z "$src" ]; then
  cache=$here/.cache
  src=$cache/package/deps/sqlite3/sqlite3.c
  if [ ! -f "$src" ]; then
    mkdir -p "$cache"
    (cd "$cache" && npm pack --silent better-sqlite3@12 > /dev/null \
       && tar xzf better-sqlite3-*.tgz package/deps/sqlite3)
  fi
fi
[ -f "$src" ] || { echo "compile-time: no sqlite3.c ($src)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TIMEFORMAT='%U %S'
# One timed compile; appends "user+sys" seconds to the file $1.
timed () {
  local out=$1
  shift
  { time "$@" > /dev/null 2>&1; } 2> "$tmp/t"
  awk '{ printf "%.3f\n", $1 + $2 }' "$tmp/t" >> "$out"
}
median () { sort -n "$1" | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

echo "compile-time: $cc $opt -c $(basename "$src") ($(wc -c < "$src") bytes), $runs runs each"
"$cc" $opt -c "$src" -o "$tmp/warm.o"	# Warm the caches.
for i in $(seq "$runs"); do
  timed "$tmp/base" "$cc" $opt -c "$src" -o "$tmp/a.o"
  timed "$tmp/plug" "$cc" $opt -fplugin="$plugin" -c "$src" -o "$tmp/b.o"
done
b=$(median "$tmp/base")
p=$(median "$tmp/plug")
awk -v b="$b" -v p="$p" 'BEGIN {
  r = p / b
  printf "without plugin: %.2f s   with plugin: %.2f s   ratio %.4f (%+.2f%%)\n", b, p, r, (r - 1) * 100
  printf "goal <= +2%%: %s\n", (r <= 1.02) ? "met" : "NOT met"
}'
