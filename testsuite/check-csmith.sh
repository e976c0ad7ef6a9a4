#!/bin/bash
# check-csmith.sh: Csmith differential test of the plugin.  Random
# programs from Csmith (Debian csmith and libcsmith-dev), half of them
# with floating point (--float, where the plugin's passes have something
# to look at), are built at -O2 without and with the plugin (and
# -fchecking); both must build and print the same checksum.  A program
# that does not build or finish without the plugin (Csmith's rare
# over-long loops) is skipped and counted.  A difference keeps the
# program in $CSMITH_DIR/failures/seedS with interesting.sh, the test
# cvise (Debian cvise) needs to reduce it: the program still builds and
# runs without the plugin and still differs (or fails to build) with it.
# With CSMITH_REDUCE=SECONDS, cvise reduces each difference for at most
# that long into reduced.c (make check-csmith-long does); the reduced
# program becomes a regression test (testsuite/README.md).
#
# Usage: check-csmith.sh PLUGIN.so
#   CC (default gcc), CSMITH_COUNT (programs, default 100), CSMITH_TIME
#   (stop starting new programs after this many seconds, default 300),
#   CSMITH_SEED (seed of the first program, default 1; program i uses
#   seed + i), JOBS (default 2), CSMITH_DIR (default ./csmith-work),
#   NF_LIBS (linker flags for libneuronfuse), CSMITH_REDUCE (seconds of
#   cvise per difference, default 0: none), CSMITH_PLUGIN_FLAGS (extra
#   flags of the plugin build only: e.g. -ffast-math makes --float
#   programs differ, to try the reduction path on a known difference).
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
reduce=${CSMITH_REDUCE:-0}
pflags=${CSMITH_PLUGIN_FLAGS:-}
if [ "$reduce" -gt 0 ] && ! command -v cvise > /dev/null; then
  echo "check-csmith: CSMITH_REDUCE needs cvise: install cvise (Debian)" >&2
  exit 1
fi

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
	   $pflags "$tmp/p.c" -o "$tmp/p" $NF_LIBS -lm > "$tmp/log" 2>&1; then
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
# Keep program $1 (directory $2) with its interestingness test, and
# reduce it when asked.
keep () {
  local f=$dir/failures/seed$1
  mkdir -p "$dir/failures"
  rm -rf "$f"
  cp -r "$2" "$f"
  # cvise runs the test in a temporary directory holding only the
  # candidate p.c: so the test names everything else by absolute path,
  # and is self-contained (also for a run by hand).  Interesting: the
  # plain build compiles and runs within 10 s, also under ASan and UBSan
  # with the same output (a reduction must not find its difference in
  # undefined behaviour, the classic trap of reducing Csmith programs),
  # and the plugin build fails to compile, fails to run or prints
  # something else.
  {
    echo '#!/bin/bash'
    echo "# cvise's test for Csmith seed $1 (check-csmith.sh): p.c in the"
    echo '# current directory shows the difference.'
    echo "flags='-O2 -w -I$inc'"
    echo "timeout 60 $cc \$flags p.c -o n -lm > /dev/null 2>&1 || exit 1"
    echo 'timeout 10 ./n > n.out 2>&1 || exit 1'
    echo "timeout 60 $cc -O0 -w -I$inc -fsanitize=address,undefined -fno-sanitize-recover=all p.c -o s -lm > /dev/null 2>&1 || exit 1"
    echo 'ASAN_OPTIONS=detect_leaks=0 timeout 20 ./s > s.out 2>&1 && cmp -s n.out s.out || exit 1'
    echo "timeout 60 $cc \$flags -fchecking -fplugin=$plugin $pflags p.c -o p $NF_LIBS -lm > /dev/null 2>&1 || exit 0"
    echo 'timeout 20 ./p > p.out 2>&1 || exit 0'
    echo '! cmp -s n.out p.out'
  } > "$f/interesting.sh"
  chmod +x "$f/interesting.sh"
  [ "$reduce" -gt 0 ] || return 0
  local how=done
  mkdir "$f/reduce" && cp "$f/p.c" "$f/interesting.sh" "$f/reduce/"
  ( cd "$f/reduce" && timeout -k 10 "$reduce" cvise --n 1 --timeout 60 \
      ./interesting.sh p.c > ../cvise.log 2>&1 ) || how="stopped after $reduce s"
  cp "$f/reduce/p.c" "$f/reduced.c" && rm -rf "$f/reduce"
  echo "REDUCED seed $1: $(wc -c < "$f/p.c") to $(wc -c < "$f/reduced.c") bytes" \
    "in $f/reduced.c (cvise $how)"
}
export -f one keep
export cc plugin NF_LIBS dir inc deadline reduce pflags

out=$(seq "$seed0" $((seed0 + count - 1)) \
      | xargs -P "$jobs" -I{} bash -c 'one "$1"' _ {})
ok=$(grep -c '^ok$' <<< "$out")
skip=$(grep -c '^skip$' <<< "$out")
late=$(grep -c '^late$' <<< "$out")
diff=$(grep -c '^DIFFERENCE' <<< "$out")
grep -E '^(DIFFERENCE|REDUCED)' <<< "$out"
[ "$late" -eq 0 ] || echo "check-csmith: time limit (${limit} s): $late programs not run"
echo "check-csmith: $ok ok, $diff differences, $skip skipped"
[ "$diff" -eq 0 ]
