#!/bin/bash
# check-clang-real.sh: neuronfuse-clang on C code nobody here wrote.
#
#  1. The SQLite amalgamation (sqlite3.c, 9.5 MB, from the npm package
#     better-sqlite3): it has no idiom, so the output must be
#     byte-identical to the input and the report must list no region.
#  2. Every program of GCC's gcc.c-torture/execute and execute/ieee
#     (Debian gcc-12-source), rewritten by the tool: a file with no
#     region must come back byte-identical; a file with regions that
#     builds and runs with gcc must still build (gcc -O2, linked with
#     libneuronfuse) and run after the rewrite.  Files libclang cannot
#     parse (GNU C that clang lacks: nested functions, ...) are counted,
#     not failed: refusing them with a diagnostic and no output file is
#     the tool's contract (checked: no output file).
#
# Prints one FAIL line per failure and a summary
#   check-clang-real: N ok, N failures (N identical, N rewritten, ...)
# and exits 1 on any failure.
#
# Usage: check-clang-real.sh NEURONFUSE-CLANG RUNTIME-INCDIR
#   SQLITE_C (a sqlite3.c to use; otherwise fetched once into
#   NF_CACHE, default ./sqlite-cache, with npm pack), TORTURE_DIR (as
#   check-torture.sh), NF_LIBS (linker flags for libneuronfuse), JOBS.
set -u
tool=${1:?usage: check-clang-real.sh NEURONFUSE-CLANG RUNTIME-INCDIR}
inc=${2:?usage: check-clang-real.sh NEURONFUSE-CLANG RUNTIME-INCDIR}
if [ ! -x "$tool" ]; then
  echo "check-clang-real: $tool is not built (configure found no libclang >= 17)" >&2
  exit 1
fi
cc=${CC:-gcc}
NF_LIBS=${NF_LIBS:-}
jobs=${JOBS:-$(nproc)}
dir=${TORTURE_DIR:-$PWD/torture-src}
cache=${NF_CACHE:-$PWD/sqlite-cache}
# Pinned, so that every run reads the same file.
sqlite_pkg=better-sqlite3-12.11.1

fails=0
# 0 regions in REPORT?
no_regions () {
  grep -q '"regions": \[\]' "$1"
}
export -f no_regions

# 1. SQLite.
src=${SQLITE_C:-$cache/package/deps/sqlite3/sqlite3.c}
if [ ! -f "$src" ] && [ -z "${SQLITE_C:-}" ]; then
  mkdir -p "$cache"
  if command -v npm > /dev/null; then
    (cd "$cache" && npm pack --silent "${sqlite_pkg%-*}@${sqlite_pkg##*-}" > /dev/null \
       && tar xzf "$sqlite_pkg.tgz" package/deps/sqlite3)
  fi
fi
if [ ! -f "$src" ]; then
  if command -v npm > /dev/null; then
    echo "FAIL sqlite: no sqlite3.c ($src): npm pack could not fetch $sqlite_pkg"
  else
    echo "FAIL sqlite: no sqlite3.c ($src): no npm client (Debian: npm) to fetch $sqlite_pkg"
  fi
  fails=$((fails + 1))
else
  tmp=$(mktemp -d)
  start=$(date +%s%N)
  if ! "$tool" --report="$tmp/r.json" -o "$tmp/out.c" "$src" \
       -- -I"$(dirname "$src")" > "$tmp/log" 2>&1; then
    echo "FAIL sqlite: neuronfuse-clang failed: $(head -3 "$tmp/log" | tr '\n' ' ')"
    fails=$((fails + 1))
  elif ! cmp -s "$src" "$tmp/out.c"; then
    echo "FAIL sqlite: the output differs from sqlite3.c"
    fails=$((fails + 1))
  elif ! no_regions "$tmp/r.json"; then
    echo "FAIL sqlite: the report lists regions"
    fails=$((fails + 1))
  else
    secs=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
    echo "check-clang-real: sqlite3.c ($(wc -c < "$src") bytes) byte-identical, 0 regions, $secs s"
  fi
  rm -rf "$tmp"
fi

# 2. The torture programs.
if [ ! -d "$dir/execute" ]; then
  tarball=$(ls /usr/src/gcc-12/gcc-*.tar.xz 2> /dev/null | head -1)
  if [ -z "$tarball" ]; then
    echo "FAIL torture: no GCC sources: install gcc-12-source (Debian)"
    echo "check-clang-real: 0 ok, $((fails + 1)) failures"
    exit 1
  fi
  mkdir -p "$dir"
  tar -xJf "$tarball" -C "$dir" --strip-components=4 \
      --wildcards '*/gcc/testsuite/gcc.c-torture/execute/*' || exit 1
fi

# clang makes these errors in C99 and later; the torture programs are
# older C that gcc still accepts.
clang_old_c="-w -Wno-error=implicit-function-declaration -Wno-error=implicit-int
  -Wno-error=int-conversion -Wno-error=incompatible-pointer-types
  -Wno-error=return-type"

# One program: prints identical, rewritten, noparse, skip or FAIL ...
# Only a program the tool changed is built and run (with and without the
# rewrite): the others must come back byte for byte.
one () {
  local src=$1 tmp
  tmp=$(mktemp -d)
  if ! timeout 120 "$tool" --report="$tmp/r.json" -o "$tmp/t.c" "$src" \
	   -- $clang_old_c -I"$(dirname "$src")" > "$tmp/log" 2>&1; then
    if [ -e "$tmp/t.c" ]; then
      echo "FAIL $src: an output file after an error"
    elif grep -q 'error:' "$tmp/log"; then
      echo noparse
    else
      echo "FAIL $src: neuronfuse-clang failed: $(head -3 "$tmp/log" | tr '\n' ' ')"
    fi
  elif no_regions "$tmp/r.json"; then
    if cmp -s "$src" "$tmp/t.c"; then
      echo identical
    else
      echo "FAIL $src: no region, but the output differs"
    fi
  elif ! timeout 120 "$cc" -O2 -w "$src" -o "$tmp/n" -lm > /dev/null 2>&1 \
       || ! (cd "$tmp" && timeout 20 ./n) > /dev/null 2>&1; then
    echo skip
  elif ! timeout 120 "$cc" -O2 -w -I"$inc" -I"$(dirname "$src")" "$tmp/t.c" \
	   -o "$tmp/p" $NF_LIBS -lm > "$tmp/log" 2>&1; then
    echo "FAIL $src: the rewritten source does not build: $(head -3 "$tmp/log" | tr '\n' ' ')"
  elif ! (cd "$tmp" && timeout 20 ./p) > /dev/null 2>&1; then
    echo "FAIL $src: the rewritten program fails"
  else
    echo rewritten
  fi
  rm -rf "$tmp"
}
export -f one
export cc tool inc NF_LIBS clang_old_c

out=$(ls "$dir"/execute/*.c "$dir"/execute/ieee/*.c \
	| xargs -P "$jobs" -I{} bash -c 'one "$1"' _ {} 2> /dev/null)
grep '^FAIL' <<< "$out"
ident=$(grep -c '^identical$' <<< "$out")
rewr=$(grep -c '^rewritten$' <<< "$out")
nop=$(grep -c '^noparse$' <<< "$out")
skip=$(grep -c '^skip$' <<< "$out")
tfail=$(grep -c '^FAIL' <<< "$out")
fails=$((fails + tfail))
ok=$((ident + rewr))
[ -n "${secs:-}" ] && ok=$((ok + 1))
echo "check-clang-real: $ok ok, $fails failures ($ident torture programs byte-identical, $rewr rewritten and run, $nop not parsed by libclang, $skip rewritten but failing without the tool)"
[ "$fails" -eq 0 ]
