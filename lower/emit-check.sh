#!/bin/sh
# emit-check.sh: run emit-test into a scratch directory, parse every MLIR
# dump with mlir-opt (generic form, --allow-unregistered-dialect: no HLO
# dialect is registered there), and compare each dump with its golden in
# $srcdir/golden: MLIR after one mlir-opt pass (which normalises
# attribute order, SSA names and literals), Penguin text verbatim.
#
# Environment (set by lower/Makefile.am): MLIR_OPT, the mlir-opt found by
# configure; srcdir.  With no mlir-opt this test FAILS: it is never
# skipped (CI installs mlir-19-tools).
#
# To regenerate the goldens after a deliberate change, from the build
# directory:  NF_UPDATE_GOLDENS=1 make -C lower check TESTS=emit-check.sh
# then review `git diff lower/golden` by eye before committing.

srcdir=${srcdir:-.}
golden=$srcdir/golden
fail=0

if [ -z "$MLIR_OPT" ] || ! command -v "$MLIR_OPT" > /dev/null 2>&1; then
  echo "emit-check: FAIL: mlir-opt not found (MLIR_OPT='$MLIR_OPT')." >&2
  echo "emit-check: install mlir-19-tools (Debian) and re-run configure." >&2
  exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/emit-check.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/dumps" || exit 1
if ! ./emit-test "$tmp/dumps"; then
  echo "emit-check: FAIL: emit-test" >&2
  exit 1
fi

n=0
for f in "$tmp"/dumps/*; do
  base=$(basename "$f")
  n=$((n + 1))
  case $base in
    *.mlir)
      if ! "$MLIR_OPT" --allow-unregistered-dialect "$f" \
	   > "$tmp/$base.norm" 2> "$tmp/$base.err"; then
	echo "emit-check: FAIL: $MLIR_OPT rejects $base:" >&2
	cat "$tmp/$base.err" >&2
	sed 's/^/  | /' "$f" >&2
	fail=1
	continue
      fi
      out=$tmp/$base.norm ;;
    *)
      out=$f ;;
  esac
  if [ -n "$NF_UPDATE_GOLDENS" ]; then
    cp "$out" "$golden/$base" && echo "emit-check: updated golden/$base"
  elif [ ! -f "$golden/$base" ]; then
    echo "emit-check: FAIL: no golden for $base" >&2
    fail=1
  elif ! diff -u "$golden/$base" "$out" >&2; then
    echo "emit-check: FAIL: $base differs from golden/$base" >&2
    fail=1
  else
    echo "emit-check: ok $base"
  fi
done
# Every golden must still be produced.
for g in "$golden"/*; do
  [ -f "$tmp/dumps/$(basename "$g")" ] || {
    echo "emit-check: FAIL: golden/$(basename "$g") was not produced" >&2
    fail=1
  }
done
[ "$n" -gt 0 ] || { echo "emit-check: FAIL: no dumps" >&2; fail=1; }
exit $fail
