#!/bin/bash
# check-page.sh: one review page for a whole real build (issue 20).
#
# A user adds the plugin to a project's build with one CFLAGS line and
# asks for one page.  Here the project is libopus 1.3.1 as check-real.sh
# fetched it (@discordjs/opus ships the whole tree, with its own
# Makefile.unix), built by its own makefile:
#
#   CFLAGS="-fplugin=neuronfuse.so -fplugin-arg-neuronfuse-report=DIR/"
#   make -f Makefile.unix -j all
#
# (the makefile adds its own -O2 -g, warnings and defines after them).
# `all` is the library, opus_demo, opus_compare and the four test
# programs: the programs link the rewritten objects with libneuronfuse.
# Then:
#   1. build   make succeeded with the plugin;
#   2. units   every object of the build has its report in DIR, at the
#              path of the object (obj.o -> DIR/obj.c.neuronfuse.json),
#              and no report is left without an object;
#   3. tests   libopus's own test_opus_api and test_opus_decode pass,
#              built from the rewritten objects;
#   4. page    neuronfuse-report DIR writes the page and headless
#              Chromium renders it: its table of units has every report,
#              and every region (its id, kind and function) and every
#              missed candidate (kind, function and reason) of every
#              report is in the rendered DOM.
# Prints "ok page NAME" or "FAIL page NAME: why" per check, as
# check-real.sh's lines, and exits 1 on a failure.
#
# Usage: check-page.sh PLUGIN.so NEURONFUSE-REPORT NF-REPORT-LINES RUNTIME-LIBDIR
#   NF_CACHE   where check-real.sh unpacked the packages (./real-cache)
#   REAL_WORK  where the build goes (./real-work; kept on a failure)
#   JOBS       make -j (nproc); CHROMIUM (chromium)
set -u
export LC_ALL=C
usage="usage: check-page.sh PLUGIN.so NEURONFUSE-REPORT NF-REPORT-LINES RUNTIME-LIBDIR"
plugin=${1:?$usage}
report=${2:?$usage}
lines=${3:?$usage}
rtlib=${4:?$usage}
cache=${NF_CACHE:-$PWD/real-cache}
work=${REAL_WORK:-$PWD/real-work}/page
jobs=${JOBS:-$(nproc)}
chromium=${CHROMIUM:-chromium}
src=$cache/opus/package/deps/opus
failed=0

ok () { echo "ok page $1"; }
fail () { echo "FAIL page $1: $2"; failed=1; }

[ -f "$src/Makefile.unix" ] || { fail build "no libopus tree in $src (check-real.sh fetches it)"; exit 1; }
rm -rf "$work" && mkdir -p "$work"
cp -r "$src" "$work/opus"
nf=$work/nf

# 1. The build, one CFLAGS line.
if CFLAGS="-fplugin=$plugin -fplugin-arg-neuronfuse-report=$nf/" \
   LDFLAGS="-L$rtlib -Wl,-rpath,$rtlib" LDLIBS="-lneuronfuse" \
   make -C "$work/opus" -f Makefile.unix -j"$jobs" all > "$work/build.log" 2>&1; then
  ok build
else
  fail build "make -f Makefile.unix all failed: $(grep -m1 -E 'error|Error' "$work/build.log")"
  exit 1
fi

# 2. A report per object, at its path; none without one.
objs=$(cd "$work/opus" && find . -name '*.o' | sed 's|^\./||' | sort)
want=$(sed 's|\.o$|.c.neuronfuse.json|' <<< "$objs")
have=$(cd "$nf" && find . -name '*.neuronfuse.json' | sed 's|^\./||' | sort)
if [ "$want" = "$have" ]; then
  ok "units ($(wc -l <<< "$objs") objects, one report each)"
else
  fail units "objects without a report: [$(comm -23 <(echo "$want") <(echo "$have") | head -3 | paste -sd' ')] reports without an object: [$(comm -13 <(echo "$want") <(echo "$have") | head -3 | paste -sd' ')]"
fi

# 3. libopus's own tests on the rewritten objects.
t_fail=
for t in test_opus_api test_opus_decode; do
  (cd "$work/opus" && timeout 600 "./$t") > "$work/$t.log" 2>&1 || t_fail+=" $t"
done
if [ -z "$t_fail" ]; then ok "tests (test_opus_api, test_opus_decode)"; else fail tests "failed:$t_fail"; fi

# 4. The page, rendered.
if ! "$report" -o "$work/page.html" "$nf" > "$work/report.log" 2>&1; then
  fail page "neuronfuse-report failed: $(head -1 "$work/report.log")"
  exit 1
fi
dom=$work/page.dom
env -u LD_PRELOAD "$chromium" --headless --no-sandbox --disable-gpu \
  --dump-dom "file://$work/page.html" > "$dom" 2> /dev/null
if [ ! -s "$dom" ] || ! grep -q 'id="render-check"' "$dom"; then
  fail page "Chromium did not render the page"
  exit 1
fi
# HTML escaping, as the page writes text.
esc () { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g' -e "s/'/\&#39;/g"; }
missing=0 nr=0 nm=0 first=
while read -r json; do
  label=${json%.neuronfuse.json}
  grep -qF "<tr class=\"unit\"><td>$label</td>" "$dom" \
    || { missing=$((missing + 1)); first=${first:-"unit $label"}; }
  while IFS= read -r l; do
    case $l in
      region*)
	read -r _ id kind fn _ <<< "$l"
	nr=$((nr + 1))
	fn=$(esc <<< "$fn")
	grep -qF "data-id=\"$id\" data-kind=\"$kind\"" "$dom" \
	  && grep -qF "$kind in $fn (" "$dom" \
	  || { missing=$((missing + 1)); first=${first:-"region $id $kind $fn of $label"}; };;
      missed*)
	nm=$((nm + 1))
	why=$(sed -E 's/^missed [^ ]+ .* [^ ]+:[0-9]+:[0-9]+ //' <<< "$l" | esc)
	kind=$(cut -d' ' -f2 <<< "$l")
	grep -qF "<td>$kind</td>" "$dom" && grep -qF "<td>$why</td></tr>" "$dom" \
	  || { missing=$((missing + 1)); first=${first:-"missed $kind of $label: $why"}; };;
    esac
  done < <("$lines" "$nf/$json")
done <<< "$have"
units=$(grep -c '<tr class="unit">' "$dom")
if [ "$missing" -eq 0 ] && [ "$units" -eq "$(wc -l <<< "$have")" ] && [ $((nr + nm)) -gt 0 ]; then
  ok "page ($units units, $nr regions, $nm missed candidates, all on the page)"
else
  fail page "$missing entries not on the page (first: $first); $units unit rows"
fi
[ "$failed" -eq 0 ] && rm -rf "$work"
exit "$failed"
