#!/bin/bash
# check-real.sh: the plugin and neuronfuse-clang on numerical C and C++
# nobody here wrote, with the regions they find pinned.
#
#  1. Fetch the sources with the npm client (`npm pack`, pinned
#     versions) into NF_CACHE, once: ggml as llama.rn ships it (the
#     llama.cpp tensor library: ggml_vec_*, the quantizers' RMSE and
#     scale searches, the norms, the activations with expf) and libopus
#     1.3.1 as @discordjs/opus ships it (float audio code: band
#     energies, renormalisation, LPC, pitch and tonality analysis).
#     Without npm, a failure that says so: no other way in.
#  2. Each file of the table below, at each flag set of REAL_FLAGS
#     (default -O2, -O3 -march=native, -Ofast) with the file's own
#     defines and warning flags (those of its project's build):
#       plain   gcc / g++: must compile (else the table is wrong, and
#               each check of the file fails);
#       plugin  the same with -fplugin=neuronfuse.so and a report: no
#               internal compiler error, no failure, no warning the
#               plain compile lacks;
#       clang   (C files) neuronfuse-clang with the same defines, then,
#               when it changed the file, gcc at the same flags on the
#               rewritten file: no failure, <neuronfuse.h> included
#               outside any #if, no warning the plain compile lacks;
#               when it changed nothing the output must be the input
#               byte for byte.
#     Each check (file, flag set, way) is isolated: a crash fails that
#     one check, with the first lines of GCC's message.
#  3. Compare what each check's report lists, counted per (kind,
#     function, callee) for regions and per (kind, function, reason)
#     for missed candidates, with the pins (PINS, check-real.pins): a
#     lost or a new line fails the check and is printed.  A check that
#     crashed is pinned as "crash".
#
#  4. The page of a whole build (check-page.sh): libopus built by its
#     own makefile with the plugin in CFLAGS, a report per object,
#     libopus's tests passing, every unit, region and missed candidate
#     on the page neuronfuse-report makes of them, as Chromium renders
#     it.  Four checks; REAL_ONLY=page runs them alone.
#
# Prints one FAIL line per failed check and a summary
#   check-real: N ok, N failures (...)
# and exits 1 on any failure; one check per (file, flag set, way).
#
# Usage: check-real.sh PLUGIN.so NEURONFUSE-CLANG RUNTIME-INCDIR PINS
#   NF_UPDATE_PINS=1  rewrite PINS from this run instead of comparing
#                     (crashes and warnings still fail); with REAL_ONLY or
#                     REAL_FLAGS only the lines of the checks run change
#   NF_CACHE          where the packages are unpacked (default ./real-cache)
#   REAL_FLAGS        the flag sets, comma separated
#                     (default "-O2,-O3 -march=native,-Ofast")
#   REAL_ONLY         an extended regexp: only the files it matches
#   REAL_TIMEOUT      seconds per compile (default 300)
#   REAL_WORK         where failed checks keep their files (default
#                     ./real-work)
#   CC, CXX, JOBS     compilers (gcc, g++) and parallel checks (nproc)
#
# -march=native depends on the machine: the pins record what it meant
# where they were written ("# native: -march=znver3"), and on a machine
# where it means something else that -march replaces it, so that the
# same code paths are compiled (a note says so).
set -u
# One collation and one spelling of GCC's messages everywhere.
export LC_ALL=C
usage="usage: check-real.sh PLUGIN.so NEURONFUSE-CLANG RUNTIME-INCDIR PINS"
plugin=${1:?$usage}
tool=${2:?$usage}
inc=${3:?$usage}
pins=${4:?$usage}
cc=${CC:-gcc}
cxx=${CXX:-g++}
jobs=${JOBS:-$(nproc)}
cache=${NF_CACHE:-$PWD/real-cache}
work=${REAL_WORK:-$PWD/real-work}
tmo=${REAL_TIMEOUT:-300}
update=${NF_UPDATE_PINS:-}
only=${REAL_ONLY:-}
flagsets=${REAL_FLAGS:--O2,-O3 -march=native,-Ofast}
start=$(date +%s)

# The packages, pinned so that every run reads the same files: SET
# (the name the pins use) and the npm package.
packages="llama.rn llama.rn@0.12.9
opus @discordjs/opus@0.10.0"

# The files: SET PATH (in the unpacked package), the largest first so
# that the parallel checks end together.  Left out of llama.rn: what
# does not compile on x86-64 Linux (cpp/ggml-opencl: CL/cl.h;
# ggml-hexagon: the Hexagon SDK; ggml-metal/ggml-metal.cpp: Apple's
# Metal; jsi: React Native's jsi.h), what compiles to nothing here
# (ggml-cpu/arch/arm), and what has no numerical loop of its own or
# costs more than it shows (ggml-alloc.c, ggml-backend*, repack*.cpp,
# llama-*.cpp and models/: the graph plumbing; llama-sampler.cpp,
# tools/mtmd/clip.cpp: 10-14 s a compile, nothing fused, one miss).  Of
# libopus (its float build, as binding.gyp's): the fixed-point and SIMD
# variants (silk/fixed, */x86, */arm), the entropy coder, the packet
# and control code, the tests.
files="llama.rn cpp/ggml-cpu/ops.cpp
llama.rn cpp/common/common.cpp
llama.rn cpp/ggml-quants.c
llama.rn cpp/ggml.c
llama.rn cpp/ggml-cpu/unary-ops.cpp
llama.rn cpp/tools/mtmd/mtmd-audio.cpp
llama.rn cpp/ggml-cpu/ggml-cpu.c
llama.rn cpp/ggml-cpu/quants.c
llama.rn cpp/ggml-cpu/arch/x86/quants.c
llama.rn cpp/ggml-cpu/vec.cpp
opus deps/opus/celt/bands.c
opus deps/opus/celt/vq.c
opus deps/opus/celt/pitch.c
opus deps/opus/celt/celt_lpc.c
opus deps/opus/celt/mathops.c
opus deps/opus/celt/quant_bands.c
opus deps/opus/celt/celt_encoder.c
opus deps/opus/src/analysis.c
opus deps/opus/src/mlp.c
opus deps/opus/silk/float/energy_FLP.c
opus deps/opus/silk/float/inner_product_FLP.c
opus deps/opus/silk/float/autocorrelation_FLP.c
opus deps/opus/silk/float/burg_modified_FLP.c
opus deps/opus/silk/float/schur_FLP.c
opus deps/opus/silk/float/noise_shape_analysis_FLP.c
opus deps/opus/silk/float/pitch_analysis_core_FLP.c
opus deps/opus/silk/float/find_LPC_FLP.c
opus deps/opus/silk/float/LPC_inv_pred_gain_FLP.c"

# set_opts SET FILE FLAGS: sets $drv (the compiler), $defs (defines,
# include paths, the language standard: what neuronfuse-clang gets
# too), $warn (the warning flags) and $extra (what FLAGS need for this
# project), as the project's own build gives them for x86-64 Linux.
set_opts () {
  local set=$1 f=$2 fl=$3 pkg=$cache/$1/package
  case $f in
    *.c) drv=$cc;;
    *) drv=$cxx;;
  esac
  extra=
  case $set in
    llama.rn)
      # llama.rn's android/src/main/rnllama/CMakeLists.txt (its x86-64
      # defines), warnings of ggml's CMake (GGML_ALL_WARNINGS) for GCC;
      # ggml refuses -ffinite-math-only (vec.h), which -Ofast sets.
      defs="-DLM_GGML_USE_CPU -DLM_GGML_USE_CPU_REPACK -D_GNU_SOURCE -DNDEBUG
	    -I$pkg/cpp -I$pkg/cpp/ggml-cpu -I$pkg/cpp/tools/mtmd
	    -I$pkg/cpp/common -I$pkg/cpp/common/jinja"
      warn="-Wall -Wextra -Wpedantic -Wcast-qual -Wno-unused-function"
      case $f in
	*.c) defs="-std=gnu11 $defs"
	     warn="$warn -Wshadow -Wstrict-prototypes -Wpointer-arith
		   -Wmissing-prototypes -Werror=implicit-int
		   -Werror=implicit-function-declaration -Wdouble-promotion";;
	*) defs="-std=gnu++17 $defs"
	   warn="$warn -Wmissing-declarations -Wmissing-noreturn
		 -Wno-array-bounds -Wextra-semi";;
      esac
      case $fl in *-Ofast*|*-ffast-math*) extra=-fno-finite-math-only;; esac;;
    opus)
      # @discordjs/opus's deps/binding.gyp: its config.h for linux/x64
      # (float build), include paths and cflags; libopus refuses
      # -ffast-math unless FLOAT_APPROX (its --enable-float-approx).
      defs="-DPIC -DHAVE_CONFIG_H -I$cache/opus/package/deps/config/opus/linux/x64
	    -I$pkg/deps/opus/include -I$pkg/deps/opus/celt -I$pkg/deps/opus/silk
	    -I$pkg/deps/opus/silk/float"
      warn="-W -Wstrict-prototypes -Wall -Wextra -Wcast-align -Wnested-externs
	    -Wshadow -Wno-parentheses -Wno-unused-parameter -Wno-sign-compare
	    -Wno-maybe-uninitialized -Wno-incompatible-pointer-types"
      case $fl in *-Ofast*|*-ffast-math*) extra=-DFLOAT_APPROX;; esac;;
  esac
}

# warnings LOG: the warnings of a compile as sorted "warning: MESSAGE"
# lines, positions dropped (a rewrite moves lines; the path differs).
warnings () {
  sed -n 's/^\(.*: \)\{0,1\}\(warning: .*\)$/\2/p' "$1" | sort
}

# first_error LOG: the first lines of GCC's message for a failed
# compile, on one line: the internal compiler error (or the first
# error), the pass it happened in, the function.
first_error () {
  local e p fn
  e=$(grep -m1 'internal compiler error' "$1" || grep -m1 'error:' "$1" \
      || grep -m1 . "$1")
  p=$(grep -m1 '^during ' "$1")
  fn=$(grep -m1 ': In function\|: In member function' "$1" | sed 's/.*: In /in /; s/:$//')
  echo "$e${p:+ ($p)}${fn:+ $fn}"
}

# pin_lines REPORT KEY: one line per (kind, function, callee) of the
# regions and (kind, function, reason) of the missed entries, with its
# count, each prefixed with KEY (tab separated).
pin_lines () {
  python3 - "$1" "$2" <<'PY'
import collections, json, sys
r = json.load(open(sys.argv[1]))
key = sys.argv[2]
c = collections.Counter()
for g in r["regions"]:
    c[("region", g["kind"], g["function"], g.get("callee") or "-")] += 1
for m in r["missed"]:
    c[("missed", m["kind"], m.get("function") or "-", m["reason"])] += 1
for (what, kind, fn, why), n in sorted(c.items()):
    print("\t".join([key, what, kind, str(n), fn, why]))
PY
}

# pinned KEY: the pins of the check KEY ("SET/PATH<TAB>FLAGS<TAB>WAY").
pinned () {
  [ -f "$pins" ] || return 0
  awk -F'\t' -v k="$1" '$1 "\t" $2 "\t" $3 == k' "$pins"
}

# pin_text: pin lines (standard input) as "region KIND xN in FUNCTION:
# CALLEE", one a line.
pin_text () {
  awk -F'\t' '$4 == "crash" { print "crash"; next }
    { printf "%s %s x%s in %s: %s\n", $4, $5, $6, $7, $8 }'
}

# result T KEY STATUS: compare the pins of KEY with T/found (what this
# check found) unless the check already failed, and print its line:
# "ok KEY", or "FAIL KEY: why" (why: STATUS, or the differences).
result () {
  local t=$1 key=$2 status=$3 lost new
  if [ -z "$status" ] && [ -z "$update" ]; then
    pinned "$key" | sort > "$t/expected"
    sort "$t/found" -o "$t/found"
    if ! cmp -s "$t/expected" "$t/found"; then
      lost=$(comm -23 "$t/expected" "$t/found" | pin_text)
      new=$(comm -13 "$t/expected" "$t/found" | pin_text)
      status="the pins differ:${lost:+ lost [$(echo "$lost" | paste -sd ';')]}${new:+ new [$(echo "$new" | paste -sd ';')]}"
    fi
  fi
  if [ -n "$status" ]; then
    printf 'FAIL %s: %s\n' "$(tr '\t' ' ' <<< "$key")" "$status"
  else
    printf 'ok %s\n' "$(tr '\t' ' ' <<< "$key")"
  fi
}

# check_done T KEY STATUS WAY: the end of a check: its result line, the
# counts for the summary ("count WAY-region N", "count WAY-missed N",
# "count crash 1"), and what it found and its key kept beside T's
# directory for an update of the pins (T/../NAME.found, .keys).
check_done () {
  local t=$1 key=$2 status=$3 way=$4 line
  line=$(result "$t" "$key" "$status")
  echo "$line"
  [[ $line == FAIL* ]] && touch "$t/../failed"
  awk -F'\t' -v w="$way" '$4 == "region" { r += $6 } $4 == "missed" { m += $6 }
    $4 == "crash" { c++ }
    END { print "count " w "-region " r + 0; print "count " w "-missed " m + 0
	  if (c) print "count crash " c }' "$t/found"
  cat "$t/found" >> "$(dirname "$t").found"
  printf '%s\n' "$key" >> "$(dirname "$t").keys"
}

# one SET PATH FLAGS: the checks of one file at one flag set; prints
# one result line per check (see result) and, for the summary, lines
# "count KIND N" (regions and missed entries found).
one () {
  local set=$1 f=$2 fl=$3 src=$cache/$1/package/$2 t id key status rc
  local opts real_fl=$fl
  [ -n "$native" ] && real_fl=${fl//-march=native/$native}
  set_opts "$set" "$f" "$real_fl"
  id=$(printf '%s %s' "$set/$f" "$fl" | md5sum | cut -c1-10)
  t=$work/$(basename "$f")-$id
  rm -rf "$t" && mkdir -p "$t"
  # (One line, for cmd.)
  opts=$(echo $real_fl $extra $defs -I"$(dirname "$src")" $warn)
  defs=$(echo $defs)
  echo "$drv $opts -c $src" > "$t/cmd"
  if ! timeout "$tmo" $drv $opts -c "$src" -o "$t/plain.o" > "$t/plain.log" 2>&1; then
    # Each check of the file fails: the table is wrong, or the machine.
    local way
    for way in plugin clang; do
      [ $way = clang ] && [[ $f != *.c ]] && continue
      printf 'FAIL %s %s %s: not checked: it does not compile without the tools: %s\n' \
	     "$set/$f" "$fl" $way "$(first_error "$t/plain.log")"
      printf '%s\t%s\t%s\n' "$set/$f" "$fl" $way >> "$t.keys"
    done
    return
  fi
  warnings "$t/plain.log" > "$t/plain.w"

  # The plugin.
  key=$(printf '%s\t%s\tplugin' "$set/$f" "$fl")
  status=
  mkdir -p "$t/plugin"
  : > "$t/plugin/found"
  echo "$drv $opts -fplugin=$plugin -fplugin-arg-neuronfuse-report=$t/plugin.json -c $src" \
       >> "$t/cmd"
  timeout "$tmo" $drv $opts -fplugin="$plugin" \
	  -fplugin-arg-neuronfuse-report="$t/plugin.json" \
	  -c "$src" -o "$t/plugin.o" > "$t/plugin.log" 2>&1
  rc=$?
  if [ $rc -eq 124 ]; then
    status="timed out after $tmo s (plain: compiled)"
    printf '%s\tcrash\n' "$key" > "$t/plugin/found"
  elif [ $rc -ne 0 ]; then
    status="crash: $(first_error "$t/plugin.log")"
    printf '%s\tcrash\n' "$key" > "$t/plugin/found"
  elif ! pin_lines "$t/plugin.json" "$key" > "$t/plugin/found" 2> "$t/plugin.pyerr"; then
    status="no readable report: $(tail -1 "$t/plugin.pyerr")"
  else
    warnings "$t/plugin.log" | comm -13 "$t/plain.w" - > "$t/plugin.neww"
    [ -s "$t/plugin.neww" ] \
      && status="$(wc -l < "$t/plugin.neww") new warnings, first: $(head -1 "$t/plugin.neww")"
  fi
  check_done "$t/plugin" "$key" "$status" plugin

  # neuronfuse-clang (C only).
  case $f in
    *.c)
      key=$(printf '%s\t%s\tclang' "$set/$f" "$fl")
      status=
      mkdir -p "$t/clang"
      : > "$t/clang/found"
      # The flag sets as clang spells them (-Ofast is deprecated there).
      local clang_fl=${real_fl//-Ofast/-O3 -ffast-math}
      echo "$tool --report=$t/clang.json -o $t/out.c $src --" \
	   "$clang_fl $extra $defs -I$(dirname "$src") -w" >> "$t/cmd"
      timeout "$tmo" "$tool" --report="$t/clang.json" -o "$t/out.c" "$src" \
	      -- $clang_fl $extra $defs -I"$(dirname "$src")" -w > "$t/clang.log" 2>&1
      rc=$?
      if [ $rc -ne 0 ]; then
	status="neuronfuse-clang failed (status $rc): $(grep -m1 . "$t/clang.log")"
	printf '%s\tcrash\n' "$key" > "$t/clang/found"
      elif ! pin_lines "$t/clang.json" "$key" > "$t/clang/found" 2> "$t/clang.pyerr"; then
	status="no readable report: $(tail -1 "$t/clang.pyerr")"
      elif cmp -s "$src" "$t/out.c"; then
	grep -q '	region	' "$t/clang/found" \
	  && status="the report lists regions, but the output is the input"
      elif ! grep -q '	region	' "$t/clang/found"; then
	status="no region in the report, but the output differs from the input"
      else
	# The include must be outside every conditional (a known bug put
	# it inside an #if).
	local depth
	depth=$(awk '/^[ \t]*#[ \t]*if/ { d++ }
		     /^[ \t]*#[ \t]*endif/ { d-- }
		     /^[ \t]*#[ \t]*include[ \t]*<neuronfuse\.h>/ { print d + 0 " " NR; exit }' \
		    "$t/out.c")
	echo "$drv $opts -I$inc -c $t/out.c" >> "$t/cmd"
	if [ -z "$depth" ]; then
	  status="the rewritten file does not include <neuronfuse.h>"
	elif [ "${depth% *}" != 0 ]; then
	  status="#include <neuronfuse.h> inside an #if (line ${depth#* } of the output)"
	elif ! timeout "$tmo" $drv $opts -I"$inc" -c "$t/out.c" -o "$t/out.o" \
	       > "$t/out.log" 2>&1; then
	  status="the rewritten file does not compile: $(first_error "$t/out.log")"
	else
	  warnings "$t/out.log" | comm -13 "$t/plain.w" - > "$t/out.neww"
	  [ -s "$t/out.neww" ] \
	    && status="$(wc -l < "$t/out.neww") new warnings in the rewritten file, first: $(head -1 "$t/out.neww")"
	fi
      fi
      check_done "$t/clang" "$key" "$status" clang
      ;;
  esac
  # The files of a failed check stay for a look (cmd: its commands).
  [ -e "$t/failed" ] || rm -rf "$t"
}
export -f one set_opts warnings first_error pin_lines pinned pin_text result check_done
export cc cxx cache work tmo update pins plugin tool inc

# A full run (all files at the default flag sets) also owns the pins of
# files that left the table.
full=
[ -z "$only" ] && [ -z "${REAL_FLAGS:-}" ] && full=1

fails=0
fail_setup () {
  echo "FAIL $1"
  echo "check-real: 0 ok, 1 failures ($1)"
  exit 1
}

# 1. The sources.
command -v npm > /dev/null \
  || fail_setup "fetch: no npm client (Debian: npm): the sources come from npm packages"
while read -r set pkg; do
  [ -d "$cache/$set/package" ] && continue
  rm -rf "${cache:?}/$set" && mkdir -p "$cache/$set"
  tgz=$(cd "$cache/$set" && npm pack --silent "$pkg" 2> "$cache/$set/npm.log" | tail -1)
  if [ -z "$tgz" ] || [ ! -f "$cache/$set/$tgz" ]; then
    fail_setup "fetch: npm pack $pkg failed: $(tail -1 "$cache/$set/npm.log")"
  fi
  tar -xzf "$cache/$set/$tgz" -C "$cache/$set" || fail_setup "fetch: $tgz does not unpack"
done <<< "$packages"

# -march=native: what it means here, and what it meant for the pins.
here=$($cc -march=native -Q --help=target 2> /dev/null \
	 | awk '$1 == "-march=" { print "-march=" $2; exit }')
there=$(sed -n 's/^# native: //p' "$pins" 2> /dev/null | head -1)
native=
if [ -n "$there" ] && [ "$there" != "$here" ] \
   && [[ $flagsets == *-march=native* ]]; then
  native=$there
  echo "check-real: note: -march=native is $here here, $there in the pins: compiling with $there"
fi
export native

# 2. The checks, one job per (file, flag set).
rm -rf "$work" && mkdir -p "$work"
IFS=, read -ra sets <<< "$flagsets"
list=$(while read -r set f; do
	 [ -z "$only" ] || [[ $set/$f =~ $only ]] || continue
	 for fl in "${sets[@]}"; do
	   printf '%s\t%s\t%s\n' "$set" "$f" "$fl"
	 done
       done <<< "$files")
[ -n "$list" ] || [[ page =~ $only ]] || fail_setup "no file matches REAL_ONLY=$only"
out=
[ -z "$list" ] || out=$(tr '\t' '\0' <<< "$list" | tr '\n' '\0' \
      | xargs -0 -n 3 -P "$jobs" bash -c 'one "$1" "$2" "$3"' _)

# Pins of checks that no longer exist (a full run only).
cat "$work"/*.keys 2> /dev/null | sort -u > "$work/run-keys"
if [ -n "$full" ] && [ -z "$update" ] && [ -f "$pins" ]; then
  stale=$(grep -v '^#' "$pins" | cut -f1-3 | sort -u | comm -23 - "$work/run-keys")
  [ -z "$stale" ] || out+=$'\n'$(sed 's/\t/ /g; s/$/: pinned, but not checked (left the table? NF_UPDATE_PINS=1)/; s/^/FAIL /' <<< "$stale")
fi

# 4. One review page for a whole real build (check-page.sh: libopus by
# its own makefile with one CFLAGS line), in a full run or when
# REAL_ONLY matches "page".
if [ -z "$only" ] || [[ page =~ $only ]]; then
  top=$(cd "$(dirname "$plugin")/../.." && pwd)
  out+=$'\n'$(NF_CACHE=$cache REAL_WORK=$work JOBS=$jobs \
    "$(dirname "$0")/check-page.sh" "$plugin" \
      "${NF_REPORT:-$top/report/neuronfuse-report}" \
      "${NF_REPORT_LINES:-$top/testsuite/nf-report-lines}" \
      "${NF_RTLIB:-$top/runtime/.libs}")
fi

grep '^FAIL' <<< "$out"
ok=$(grep -c '^ok ' <<< "$out")
fails=$(grep -c '^FAIL' <<< "$out")
total () { grep "^count $1 " <<< "$out" | awk '{ n += $3 } END { print n + 0 }'; }
crashes=$(total crash)

# 3. An update rewrites the pins: the lines of the checks run replace
# theirs, the others stay.
if [ -n "$update" ]; then
  cat "$work"/*.found 2> /dev/null | sort -u > "$work/new-pins"
  {
    echo "# check-real.pins: what make check-real finds in each real file"
    echo "# (testsuite/check-real.sh).  Tab separated: SET/FILE, FLAGS, WAY"
    echo "# (plugin, clang), then \"region KIND COUNT FUNCTION CALLEE\","
    echo "# \"missed KIND COUNT FUNCTION REASON\", or \"crash\" (the check"
    echo "# crashed: its regions are unknown).  Written by"
    echo "# NF_UPDATE_PINS=1 make check-real; review the diff."
    echo "# native: ${there:-$here}"
    if [ -f "$pins" ] && [ -z "$full" ]; then
      # Keep the lines of checks not run.
      grep -v '^#' "$pins" | awk -F'\t' 'NR == FNR { run[$0] = 1; next }
	!(($1 "\t" $2 "\t" $3) in run)' "$work/run-keys" -
    fi | cat - "$work/new-pins" | sort -u
  } > "$pins.tmp" && mv "$pins.tmp" "$pins"
  echo "check-real: wrote $pins ($(grep -vc '^#' "$pins") lines)"
fi

nfiles=0 nsets=0
if [ -n "$list" ]; then
  nfiles=$(cut -f1,2 <<< "$list" | sort -u | wc -l)
  nsets=$(cut -f3 <<< "$list" | sort -u | wc -l)
fi
secs=$(( $(date +%s) - start ))
echo "check-real: $ok ok, $fails failures ($nfiles files at $nsets flag sets; $crashes crashes; plugin: $(total plugin-region) regions, $(total plugin-missed) missed; neuronfuse-clang: $(total clang-region) regions, $(total clang-missed) missed; $secs s)"
[ "$fails" -eq 0 ]
