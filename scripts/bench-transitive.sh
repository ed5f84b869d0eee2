#!/usr/bin/env bash
# bench-transitive.sh: the README's "Transitive resolution" table — `m2r resolve` against Maven Resolver
# 1.6.3 (`mavenfetch get --transitive`), cold (empty local repository) and warm (everything already local,
# the same command again), wall time, CPU time (user + sys) and peak memory (max RSS), median of RUNS.
#
# Needs the benchmark testbed of ../shared/bench (README there): servers running (started here, and
# stopped again, only when they are not), Java + Maven's jars for mavenfetch, python3.
#
# Environment (defaults):
#   M2R="m2r=target/release/m2r"  space-separated LABEL=PATH pairs: several m2r builds (before/after)
#                                 are measured in the same session, runs interleaved
#   GRAPHS="360:12 600:12 2400:80"  N:K pairs: `make-graph-repo.py N` (served under
#                                 $REPO_DIR/collect-gN/), the K first artifacts of its layer 0 at their
#                                 release version as the direct dependencies (K = 12 is the generator's
#                                 own roots.txt; K = 80 on N = 2,400 gives about 1,000 artifacts)
#   SCENARIO=https-squid-rtt      the settings of the testbed's scenario, with the mirror's URL pointed at
#                                 the graph and `<mirrorOf>*` (the super POM's central goes there too)
#   RUNS=3  MAVEN=yes (no: only m2r)  LOCAL_BASE=/dev/shm/m2r-bench-transitive (tmpfs)
#   QUIET_IDLE=0 QUIET_WAIT=60: wait (at most QUIET_WAIT s) before each run until the CPUs are QUIET_IDLE %
#                                 idle; runs that could not wait are marked with * (default: no waiting)
# Every cold run's local repository is checked: exit 0 and the same set of jars as Maven's first run.
# Output: a markdown table on stdout, every run in $BENCH_TMP/results/transitive-<stamp>.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BENCH=${BENCH:-$ROOT/../shared/bench}
BENCH_TMP=${BENCH_TMP:-${TMPDIR:-/tmp}/m2r-bench}
M2R=${M2R:-m2r=$ROOT/target/release/m2r}
GRAPHS=${GRAPHS:-360:12 600:12 2400:80}
SCENARIO=${SCENARIO:-https-squid-rtt}
RUNS=${RUNS:-3}
MAVEN=${MAVEN:-yes}
LOCAL_BASE=${LOCAL_BASE:-/dev/shm/m2r-bench-transitive}
QUIET_IDLE=${QUIET_IDLE:-0}
QUIET_WAIT=${QUIET_WAIT:-60}
WORK=$BENCH_TMP/transitive

log() { echo "bench-transitive: $*" >&2; }

STARTED=no
if "$BENCH/servers.sh" status >/dev/null 2>&1 && [[ -f $BENCH_TMP/env ]]; then
  # shellcheck disable=SC1091
  source "$BENCH_TMP/env"
else
  REPO_DIR=$BENCH_TMP/repo-1000-32k
  "$BENCH/make-repo.sh" 1000 32 "$REPO_DIR"
  "$BENCH/servers.sh" start "$REPO_DIR" >/dev/null
  STARTED=yes
  # shellcheck disable=SC1091
  source "$BENCH_TMP/env"
fi
cleanup() {
  rm -rf "$LOCAL_BASE"
  if [[ $STARTED == yes ]]; then "$BENCH/servers.sh" stop; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
export SSL_CERT_FILE=$CA_PEM # m2r trusts the testbed's CA (mavenfetch gets the truststore itself)

mkdir -p "$WORK" "$BENCH_TMP/results" "$LOCAL_BASE"
STAMP=$(date +%Y%m%d-%H%M%S)
TSV=$BENCH_TMP/results/transitive-$STAMP.tsv
printf 'graph\ttool\tstate\trun\twall_s\tcpu_s\tmax_rss_kb\tmachine\n' >"$TSV"

idle_pct() {
  local a b
  a=$(awk '/^cpu /{print $2+$3+$4+$5+$6+$7+$8+$9, $5+$6}' /proc/stat)
  sleep 0.5
  b=$(awk '/^cpu /{print $2+$3+$4+$5+$6+$7+$8+$9, $5+$6}' /proc/stat)
  awk -v a="$a" -v b="$b" 'BEGIN{split(a,x," "); split(b,y," "); t=y[1]-x[1]; print (t>0) ? int(100*(y[2]-x[2])/t) : 100}'
}
wait_quiet() {
  ((QUIET_IDLE > 0)) || { echo quiet; return; }
  local deadline=$((SECONDS + QUIET_WAIT)) idle
  while idle=$(idle_pct) && ((idle < QUIET_IDLE)); do
    if ((SECONDS >= deadline)); then echo busy; return; fi
    sleep 1
  done
  echo quiet
}

# graph N K -> sets GRAPH_DIR, ROOTS, SETTINGS
graph() {
  local n=$1 k=$2 i v
  GRAPH_DIR=$REPO_DIR/collect-g$n
  python3 "$BENCH/make-graph-repo.py" "$n" "$GRAPH_DIR"
  ROOTS=$WORK/roots-g$n-$k.txt
  : >"$ROOTS"
  for ((i = 0; i < k; i++)); do
    v=$(sed -n 's:.*<release>\(.*\)</release>.*:\1:p' "$GRAPH_DIR/org/graph/l0/art$i/maven-metadata.xml")
    [[ -n $v ]] || { log "graph $n has fewer than $k artifacts in layer 0"; exit 1; }
    echo "org.graph.l0:art$i:$v" >>"$ROOTS"
  done
  SETTINGS=$WORK/$SCENARIO-g$n.xml
  sed -e "s|<url>\(https\?://[^<]*\)/private/</url>|<url>\1/private/collect-g$n/</url>|" \
    -e "s|<mirrorOf>[^<]*</mirrorOf>|<mirrorOf>*</mirrorOf>|" "$SETTINGS_DIR/$SCENARIO.xml" >"$SETTINGS"
  grep -q "collect-g$n/" "$SETTINGS" || { log "cannot point $SCENARIO.xml at the graph"; exit 1; }
}

# timed LOG CMD... -> "wall cpu maxrss"; the command's output goes to LOG
timed() {
  local logf=$1 rc=0
  shift
  /usr/bin/time -o "$logf.time" -f '%e %U %S %M' "$@" >"$logf" 2>&1 || rc=$?
  if ((rc != 0)); then
    log "FAILED (exit $rc): $*"
    tail -n 15 "$logf" >&2
    exit 1
  fi
  awk '{printf "%.3f %.3f %d\n", $1, $2 + $3, $4}' "$logf.time"
}

run_tool() { # LABEL PATH LOCAL LOG
  local label=$1 path=$2 local_repo=$3 logf=$4
  if [[ $label == maven ]]; then
    timed "$logf" "$BENCH/mavenfetch" get --transitive --no-verify --settings "$SETTINGS" \
      --local-repository "$local_repo" --from-file "$ROOTS"
  else
    # shellcheck disable=SC2046
    timed "$logf" "$path" resolve --settings "$SETTINGS" --local-repository "$local_repo" $(cat "$ROOTS")
  fi
}

jars() { (cd "$1" && find . -name '*.jar' | sort); }

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR]=$1} END{if(NR%2) print v[(NR+1)/2]; else printf "%.3f\n", (v[NR/2]+v[NR/2+1])/2}'; }

tools=()
[[ $MAVEN == yes ]] && tools+=("maven=mavenfetch")
for t in $M2R; do tools+=("$t"); done

declare -A RESULT
table_rows=()
for spec in $GRAPHS; do
  n=${spec%%:*} k=${spec##*:}
  graph "$n" "$k"
  reference=
  count=
  for ((r = 1; r <= RUNS; r++)); do
    for t in "${tools[@]}"; do
      label=${t%%=*} path=${t#*=}
      local_repo=$LOCAL_BASE/$label-g$n
      rm -rf "$local_repo"
      for state in cold warm; do
        machine=$(wait_quiet)
        read -r wall cpu rss < <(run_tool "$label" "$path" "$local_repo" "$WORK/last-$label.log")
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n:$k" "$label" "$state" "$r" "$wall" "$cpu" "$rss" "$machine" >>"$TSV"
        mark=
        [[ $machine == busy ]] && mark='*'
        RESULT[$n:$k:$label:$state:wall]+="$wall "
        RESULT[$n:$k:$label:$state:shown]+="$wall$mark "
        RESULT[$n:$k:$label:$state:cpu]+="$cpu "
        RESULT[$n:$k:$label:$state:rss]+="$rss "
        if [[ $state == cold ]]; then
          list=$(jars "$local_repo")
          if [[ -z $reference ]]; then
            reference=$list
            count=$(wc -l <<<"$list")
          elif [[ $list != "$reference" ]]; then
            log "$label (g$n, run $r) left other jars than the first tool:"
            diff <(echo "$reference") <(echo "$list") | head -n 10 >&2
            exit 1
          fi
        fi
      done
      rm -rf "$local_repo"
    done
  done
  RESULT[$n:$k:jars]=$count
  log "g$n ($k roots, $count jars) done"
done

med() { median <<<"${RESULT[$1]}"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b > 0) printf "%.0f×", a / b; else print "-" }'; }
mb() { awk -v k="$1" 'BEGIN{printf "%.0f", k / 1024}'; }

echo
echo "| graph (N, roots, jars) | tool | cold | warm | cold ratio | warm ratio | CPU cold / warm | peak memory cold / warm |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for spec in $GRAPHS; do
  n=${spec%%:*} k=${spec##*:}
  for t in "${tools[@]}"; do
    label=${t%%=*}
    cold=$(med "$n:$k:$label:cold:wall") warm=$(med "$n:$k:$label:warm:wall")
    if [[ $MAVEN == yes && $label != maven ]]; then
      rc=$(ratio "$(med "$n:$k:maven:cold:wall")" "$cold") rw=$(ratio "$(med "$n:$k:maven:warm:wall")" "$warm")
    else
      rc= rw=
    fi
    printf '| %s, %s, %s | %s | %s s | %s s | %s | %s | %s / %s s | %s / %s MB |\n' "$n" "$k" "${RESULT[$n:$k:jars]}" "$label" \
      "$cold" "$warm" "$rc" "$rw" "$(med "$n:$k:$label:cold:cpu")" "$(med "$n:$k:$label:warm:cpu")" \
      "$(mb "$(med "$n:$k:$label:cold:rss")")" "$(mb "$(med "$n:$k:$label:warm:rss")")"
  done
done
echo
echo "runs (wall s; * = CPUs were busy): see $TSV"
for spec in $GRAPHS; do
  n=${spec%%:*} k=${spec##*:}
  for t in "${tools[@]}"; do
    label=${t%%=*}
    echo "  g$n/$k $label cold: ${RESULT[$n:$k:$label:cold:shown]}warm: ${RESULT[$n:$k:$label:warm:shown]}"
  done
done
log "scenario $SCENARIO, rtt ${RTT_MS} ms, load average $(cut -d' ' -f1-3 /proc/loadavg)"
