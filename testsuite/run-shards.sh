#!/bin/sh
# run-shards.sh TOOL SRCDIR RUNTEST [RUNTESTFLAGS...]: make check's
# DejaGnu run (testsuite/Makefile.am's check-DEJAGNU), on several cores.
#
# Design.  runtest runs one compilation at a time, and make check is
# nearly all compilations, so N runtest processes ("shards") run side by
# side, N = NF_JOBS, by default the number of CPUs (nproc) up to 4; with
# RUNTESTFLAGS given (one test, by hand) and NF_JOBS unset, or NF_JOBS=1,
# one runtest runs here as Automake's rule ran it, and nothing below
# happens.  Each shard runs in a directory of its own, shard-K (with a
# site.exp of its own, the srcdir made absolute), because the tests
# write their executables, reports and dumps into the current directory.
# Every shard runs every .exp file, in the same order; the work in them
# is cut into units (lib/neuronfuse.exp's nf-claim: one per directory
# and option set of the matrix, one per test file of clang.exp, one per
# test file and instruction set of runtime.exp, one per whole .exp for
# the rest) that every shard meets in the same order and
# numbers alike.  A shard runs a unit only if it is the first to create
# the unit's file in the shared claim directory shard-claims (an
# exclusive create: one shard wins), so the work is shared out as it
# goes, whatever the units cost and whatever else loads the machine; no
# list of tests is split up front, and a shard that dies loses only the
# unit it was in (its status fails the run).  GCC's testsuite shares its
# test files out among parallel runtests the same way.
#
# When all shards are done, their .sum and .log files are merged into
# TOOL.sum and TOOL.log here: the first shard's header, then each .exp's
# "Running" line and its units in their order (each shard marks the
# units it ran with an "NF-UNIT: NUMBER WHAT (shard K, TIME)" line), so the
# merged .sum has the lines of a one-process run in its order, and a
# summary recounted from them.  The .log keeps the NF-UNIT lines (which
# shard ran what).  The exit status is 1 if a shard failed, if a result
# is FAIL, XPASS, KPASS, UNRESOLVED or ERROR, if a unit ran twice, or if
# a claimed unit has no results.
set -u
tool=$1 srcdir=$2 runtest=$3
shift 3

jobs=${NF_JOBS:-}
if [ -z "$jobs" ]; then
  if [ $# -gt 0 ]; then
    jobs=1
  else
    jobs=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
    [ "$jobs" -le 4 ] || jobs=4
  fi
fi
case $jobs in
  ''|*[!0-9]*|0) echo "run-shards.sh: NF_JOBS=$jobs: not a number of processes" >&2; exit 2 ;;
esac

# One process: today's run, in this directory.
if [ "$jobs" -eq 1 ]; then
  exec $runtest --tool "$tool" --srcdir "$srcdir" "$@"
fi

top=$(pwd)
abs_srcdir=$(cd "$srcdir" && pwd) || exit 2
rm -rf shard-* "$tool.sum" "$tool.log"
mkdir shard-claims || exit 2
echo "run-shards.sh: $jobs runtest processes (NF_JOBS), in shard-1 to shard-$jobs"

k=1
while [ "$k" -le "$jobs" ]; do
  mkdir "shard-$k" || exit 2
  sed -e "s|^set srcdir .*|set srcdir \"$abs_srcdir\"|" \
      -e "s|^set objdir .*|set objdir \"$top/shard-$k\"|" site.exp > "shard-$k/site.exp"
  # runtest's terminal output (the Running lines, failures, summary),
  # each line marked with its shard.
  ( cd "shard-$k" &&
    { NF_SHARD=$k NF_SHARD_CLAIMS=$top/shard-claims \
        $runtest --tool "$tool" --srcdir "$abs_srcdir" "$@" 2>&1
      echo $? > status; } | awk -v p="[$k] " '{ print p $0; fflush() }' ) &
  k=$((k + 1))
done
wait

# The merge, of the shards' .sum (MODE sum: without the NF-UNIT lines)
# or .log (MODE log): the first file's header, each .exp's Running line
# with the lines before its first unit (those of all files, each once),
# then its units by number; the summary and whatever follows it go to
# TAIL (all files'), not the summary itself.  Exit status 1 if a unit
# number is in two files, or a number up to the largest has no unit.
merge_awk='
FNR == 1 { file++; sec = "head"; blanks = 0 }
sec == "head" {
  if ($0 !~ /^Running .*\.exp \.\.\.$/) { if (file == 1) head[++nhead] = $0; next }
  sec = "body"
}
sec == "tail" { if ($0 != "" && $0 !~ /^# of /) print > tail; next }
/^\t\t=== .* Summary ===$/ { sec = "tail"; blanks = 0; next }
# Blank lines are kept back until the next line: the summary follows one.
$0 == "" { blanks++; next }
{
  for (; blanks > 0; blanks--) store("")
  if ($0 ~ /^Running .*\.exp \.\.\.$/) {
    if (!($0 in expno)) { expno[$0] = ++nexp; expline[nexp] = $0 }
    e = expno[$0]; unit = 0
    next
  }
  if ($0 ~ /^NF-UNIT: [0-9]+ /) {
    unit = $2 + 0
    if (unit in ufile) {
      printf "run-shards.sh: unit %s ran in shard-%d and shard-%d\n", $2, ufile[unit], file > "/dev/stderr"
      bad = 1
    }
    ufile[unit] = file; uexp[unit] = e; ustart[unit] = nl + 1
    if (unit > maxu) maxu = unit
    if (mode == "log") store($0)
    uend[unit] = nl
    next
  }
  store($0)
}
function store(s) {
  if (unit) { L[++nl] = s; uend[unit] = nl; return }
  if ((e, s) in pre_seen) return
  pre_seen[e, s] = 1
  pre[e, ++npre[e]] = s
}
END {
  for (i = 1; i <= nhead; i++) print head[i]
  for (x = 1; x <= nexp; x++) {
    print expline[x]
    for (i = 1; i <= npre[x]; i++) print pre[x, i]
    for (u = 1; u <= maxu; u++)
      if (u in uexp && uexp[u] == x)
        for (i = ustart[u]; i <= uend[u]; i++) print L[i]
  }
  for (u = 1; u <= maxu; u++)
    if (!(u in ufile)) {
      printf "run-shards.sh: unit %04d has no results\n", u > "/dev/stderr"
      bad = 1
    }
  exit bad
}'

status=0
k=1
sums= logs=
while [ "$k" -le "$jobs" ]; do
  rc=$(cat "shard-$k/status" 2>/dev/null)
  if [ "${rc:-none}" != 0 ]; then
    echo "run-shards.sh: shard-$k: runtest exited with status ${rc:-none}"
    status=1
  fi
  sums="$sums shard-$k/$tool.sum" logs="$logs shard-$k/$tool.log"
  k=$((k + 1))
done

# The summary of the merged .sum, as DejaGnu's log_summary writes it.
summary () {
  printf '\n\t\t=== %s Summary ===\n\n' "$tool"
  for r in 'PASS expected passes' 'FAIL unexpected failures' \
           'XPASS unexpected successes' 'XFAIL expected failures' \
           'KPASS unknown successes' 'KFAIL known failures' \
           'UNRESOLVED unresolved testcases' 'UNTESTED untested testcases' \
           'UNSUPPORTED unsupported tests'; do
    n=$(grep -c "^${r%% *}: " "$tool.sum.tmp")
    [ "$n" -eq 0 ] && continue
    mess="# of ${r#* }"
    [ ${#mess} -lt 24 ] && mess="$mess	"
    printf '%s\t%s\n' "$mess" "$n"
  done
}

awk -v mode=sum -v tail=shard-claims/sum-tail "$merge_awk" $sums > "$tool.sum.tmp" || status=1
awk -v mode=log -v tail=shard-claims/log-tail "$merge_awk" $logs > "$tool.log.tmp" || status=1
summary > shard-claims/summary
cat "$tool.sum.tmp" shard-claims/summary > "$tool.sum"
[ ! -f shard-claims/sum-tail ] || cat shard-claims/sum-tail >> "$tool.sum"
cat "$tool.log.tmp" shard-claims/summary > "$tool.log"
[ ! -f shard-claims/log-tail ] || cat shard-claims/log-tail >> "$tool.log"
rm -f "$tool.sum.tmp" "$tool.log.tmp"

claimed=$(ls shard-claims | grep -c '^[0-9]')
ran=$(grep -c '^NF-UNIT: ' "$tool.log")
if [ "$claimed" -ne "$ran" ]; then
  echo "run-shards.sh: $claimed units claimed, $ran with results"
  status=1
fi
if grep -qE '^(FAIL|XPASS|KPASS|UNRESOLVED|ERROR): ' "$tool.sum"; then
  grep -E '^(FAIL|XPASS|KPASS|UNRESOLVED|ERROR): ' "$tool.sum" | head -40
  status=1
fi
echo "run-shards.sh: $ran units in $jobs shards, merged into $tool.sum and $tool.log"
cat shard-claims/summary
exit $status
