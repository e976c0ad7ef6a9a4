#!/bin/bash
# check-csmith.sh: Csmith differential test of the plugin.  Random
# programs from Csmith (Debian csmith and libcsmith-dev), half of them
# with floating point (--float, where the plugin's passes have something
# to look at), are built at -O2 without and with the plugin (and
# -fchecking); both must build and print the same checksum.  A program
# that does not build or finish without the plugin (Csmith's rare
# over-long loops) is skipped and counted.  A difference keeps the
# program in $CSMITH_DIR/failures; reduce it by hand with cvise or
# creduce and an interestingness test that builds both ways and compares
# (testsuite/README.md).
#
# Usage: check-csmith.sh PLUGIN.so
#   CC (default gcc), CSMITH_COUNT (programs, default 100), CSMITH_TIME
#   (stop starting new programs after this many seconds, default 300),
#   CSMITH_SEED (seed of the first program, default 1; program i uses
#   seed + i), JOBS (default 2), CSMITH_DIR (default ./csmith-work),
#   NF_LIBS (linker flags for libneuronfuse).
# Prints one DIFFERENCE line per difference and
#   check-csmith: N ok, N differences, N skipped
# and exits 1 on any difference.
set -u
plugin=${1:?usage: check-csmith.sh PLUGIN.so}
cc=${CC:-gcc}
count=${CSMITH_COUNT:-100}
limit=${CSMITH_TIME:-300}
seed0=${CSMITH_SEED:-1}
jobs=${JOBS:-2}
dir=${CSMITH_DIR:-$PWD/csmith-work}
NF_LIBS=${NF_LIBS:-}
inc=${CSMITH_INC:-/usr/include/csmith}

if ! command -v csmith > /dev/null || [ ! -f "$inc/csmith.h" ]; then
  echo "check-csmith: no csmith: install csmith and libcsmith-dev (Debian)" >&2
  exit 1
fi
mkdir -p "$dir"
deadline=$(( $(date +%s) + limit ))

# One program: prints "ok", "skip", "late" or "DIFFERENCE ...".
one () {
  local s=$1 tmp fl=--no-float
  [ "$(date +%s)" -lt "$deadline" ] || { echo late; return; }
  [ $((s % 2)) -eq 0 ] || fl=--float
  tmp=$(mktemp -d "$dir/p$s.XXXX")
  if ! csmith --seed "$s" $fl -o "$tmp/p.c" > /dev/null 2>&1 \
     || ! timeout 120 "$cc" -O2 -w -I"$inc" "$tmp/p.c" -o "$tmp/n" -lm \
	  > /dev/null 2>&1 \
     || ! timeout 10 "$tmp/n" > "$tmp/n.out" 2>&1; then
    echo skip
  elif ! timeout 120 "$cc" -O2 -w -I"$inc" -fchecking -fplugin="$plugin" \
	   "$tmp/p.c" -o "$tmp/p" $NF_LIBS -lm > "$tmp/log" 2>&1; then
    echo "DIFFERENCE (compile) seed $s $fl: $(head -3 "$tmp/log" | tr '\n' ' ')"
    keep "$s" "$tmp"
  elif ! timeout 20 "$tmp/p" > "$tmp/p.out" 2>&1 \
       || ! cmp -s "$tmp/n.out" "$tmp/p.out"; then
    echo "DIFFERENCE (run) seed $s $fl: $(head -c 200 "$tmp/n.out") vs $(head -c 200 "$tmp/p.out")"
    keep "$s" "$tmp"
  else
    echo ok
  fi
  rm -rf "$tmp"
}
keep () {
  mkdir -p "$dir/failures"
  rm -rf "$dir/failures/seed$1"
  cp -r "$2" "$dir/failures/seed$1"
}
export -f one keep
export cc plugin NF_LIBS dir inc deadline

out=$(seq "$seed0" $((seed0 + count - 1)) \
      | xargs -P "$jobs" -I{} bash -c 'one "$1"' _ {})
ok=$(grep -c '^ok$' <<< "$out")
skip=$(grep -c '^skip$' <<< "$out")
late=$(grep -c '^late$' <<< "$out")
diff=$(grep -c '^DIFFERENCE' <<< "$out")
grep '^DIFFERENCE' <<< "$out"
[ "$late" -eq 0 ] || echo "check-csmith: time limit (${limit} s): $late programs not run"
echo "check-csmith: $ok ok, $diff differences, $skip skipped"
[ "$diff" -eq 0 ]
