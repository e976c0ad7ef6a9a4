#!/bin/bash
# check-torture.sh: GCC's own execute tests as a gate.  Every program of
# gcc.c-torture/execute and execute/ieee (Debian gcc-12-source) that
# builds and runs without the plugin must build and run with it (and
# -fchecking), at each optimisation level given.  A program that fails
# without the plugin (it needs options or a target we don't give it) is
# skipped and counted.  Prints one REGRESSION line per failure and a
# summary per level; exits 1 on any regression.
#
# Usage: check-torture.sh PLUGIN.so OPT...   (e.g. -O1 -O2 -O3)
#   CC (default gcc), JOBS (default: number of CPUs), TORTURE_DIR (where
#   the sources are extracted; default ./torture-src), NF_LIBS (linker
#   flags for libneuronfuse, which outlined loops call).
set -u
plugin=${1:?usage: check-torture.sh PLUGIN.so OPT...}
shift
[ $# -gt 0 ] || set -- -O2
cc=${CC:-gcc}
NF_LIBS=${NF_LIBS:-}
jobs=${JOBS:-$(nproc)}
dir=${TORTURE_DIR:-$PWD/torture-src}

if [ ! -d "$dir/execute" ]; then
  tarball=$(ls /usr/src/gcc-12/gcc-*.tar.xz 2> /dev/null | head -1)
  if [ -z "$tarball" ]; then
    echo "check-torture: no GCC sources: install gcc-12-source (Debian)" >&2
    exit 1
  fi
  mkdir -p "$dir"
  tar -xJf "$tarball" -C "$dir" --strip-components=4 \
      --wildcards '*/gcc/testsuite/gcc.c-torture/execute/*' || exit 1
fi

# One program at one level: prints "ok", "skip" or "REGRESSION ...".
one () {
  local src=$1 opt=$2 tmp
  tmp=$(mktemp -d)
  if ! timeout 120 "$cc" $opt -w "$src" -o "$tmp/n" -lm > /dev/null 2>&1 \
     || ! (cd "$tmp" && timeout 20 ./n) > /dev/null 2>&1; then
    echo skip
  elif ! timeout 120 "$cc" $opt -w -fchecking -fplugin="$plugin" "$src" \
	   -o "$tmp/p" $NF_LIBS -lm > "$tmp/log" 2>&1; then
    echo "REGRESSION (compile) $opt $src: $(head -3 "$tmp/log" | tr '\n' ' ')"
  elif ! (cd "$tmp" && timeout 20 ./p) > /dev/null 2>&1; then
    echo "REGRESSION (run) $opt $src"
  else
    echo ok
  fi
  rm -rf "$tmp"
}
export -f one
export cc plugin NF_LIBS

status=0
for opt in "$@"; do
  out=$(ls "$dir"/execute/*.c "$dir"/execute/ieee/*.c \
	| xargs -P "$jobs" -I{} bash -c 'one "$1" "$2"' _ {} "$opt")
  ok=$(grep -c '^ok$' <<< "$out")
  skip=$(grep -c '^skip$' <<< "$out")
  reg=$(grep -c '^REGRESSION' <<< "$out")
  grep '^REGRESSION' <<< "$out"
  echo "check-torture $opt: $ok ok, $reg regressions, $skip skipped (fail without the plugin)"
  [ "$reg" -eq 0 ] || status=1
done
exit $status
