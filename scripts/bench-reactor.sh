#!/usr/bin/env bash
# bench-reactor.sh: the README's "Multi-module builds" table — `m2r resolve --pom REACTOR/pom.xml` (every
# module of the reactor in one session) against Maven Resolver 1.6.3 (`mavenfetch get --modules`, the modules
# one after another in one session, as Maven's reactor resolves them), cold (empty local repository) and warm
# (the same command again), wall time, CPU time (user + sys) and peak memory (max RSS), median of RUNS, for
# the first 10, 20 and 40 modules of the testbed's reactor.
#
# Needs the benchmark testbed of ../shared/bench (README there): Java + Maven's jars for mavenfetch, python3,
# the servers' packages. The servers are started here on their own ports and work folder (BENCH_TMP below, so
# that a testbed already running on the default ports is left alone) and stopped at the end.
#
# Environment (defaults):
#   M2R="m2r=target/release/m2r"  space-separated LABEL=PATH pairs (several m2r builds, runs interleaved);
#                                 PATH,ARG,ARG... adds arguments (e.g. m2r-t128=target/release/m2r,--threads,128)
#   N=600                         `make-graph-repo.py N` (its DIR/reactor/: an aggregator and 40 modules)
#   MODULES="10 20 40"            reactors of the first K modules (same dependencies as modules.txt's K lines)
#   SCENARIO=https-squid-rtt      the testbed's scenario, its mirror pointed at the graph, `<mirrorOf>*`
#   RUNS=3  MAVEN=yes (no: only m2r)  LOCAL_BASE=/dev/shm/m2r-bench-reactor (tmpfs)
#   BENCH_TMP=/tmp/bench-reactor  the servers' work folder; ports shifted by PORT_SHIFT=217 from the
#                                 testbed's defaults (HTTP_PORT, HTTPS_PORT, RTT_*, PROXY_PORT, SQUID_PORT,
#                                 SOCKS_PORT can be set one by one)
# Every cold run is checked: exit 0 and the same set of jars in the local repository as Maven's first run.
# Output: a markdown table on stdout, every run in $BENCH_TMP/results/reactor-<stamp>.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
if [[ -z ${BENCH:-} ]]; then
  BENCH=$ROOT/../shared/bench
  [[ -d $BENCH ]] || BENCH=$ROOT/../../shared/bench # a git worktree one level down
fi
export BENCH_TMP=${BENCH_TMP:-/tmp/bench-reactor}
PORT_SHIFT=${PORT_SHIFT:-217}
export HTTP_PORT=${HTTP_PORT:-$((18080 + PORT_SHIFT))} HTTPS_PORT=${HTTPS_PORT:-$((18443 + PORT_SHIFT))}
export RTT_HTTP_PORT=${RTT_HTTP_PORT:-$((18081 + PORT_SHIFT))} RTT_HTTPS_PORT=${RTT_HTTPS_PORT:-$((18444 + PORT_SHIFT))}
export PROXY_PORT=${PROXY_PORT:-$((18888 + PORT_SHIFT))} SQUID_PORT=${SQUID_PORT:-$((13128 + PORT_SHIFT))}
export SOCKS_PORT=${SOCKS_PORT:-$((11080 + PORT_SHIFT))}
M2R=${M2R:-m2r=$ROOT/target/release/m2r}
N=${N:-600}
MODULES=${MODULES:-10 20 40}
SCENARIO=${SCENARIO:-https-squid-rtt}
RUNS=${RUNS:-3}
MAVEN=${MAVEN:-yes}
LOCAL_BASE=${LOCAL_BASE:-/dev/shm/m2r-bench-reactor}
WORK=$BENCH_TMP/reactor

log() { echo "bench-reactor: $*" >&2; }

REPO_DIR=$BENCH_TMP/repo
"$BENCH/make-repo.sh" 10 1 "$REPO_DIR" >/dev/null # the testbed serves a flat repository; the graph joins it
"$BENCH/servers.sh" start "$REPO_DIR" >/dev/null
cleanup() {
  rm -rf "$LOCAL_BASE"
  "$BENCH/servers.sh" stop || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# shellcheck disable=SC1091
source "$BENCH_TMP/env"
export SSL_CERT_FILE=$CA_PEM # m2r trusts the testbed's CA (mavenfetch gets the truststore itself)

mkdir -p "$WORK" "$BENCH_TMP/results" "$LOCAL_BASE"
STAMP=$(date +%Y%m%d-%H%M%S)
TSV=$BENCH_TMP/results/reactor-$STAMP.tsv
printf 'modules\ttool\tstate\trun\twall_s\tcpu_s\tmax_rss_kb\n' >"$TSV"

GRAPH_DIR=$REPO_DIR/reactor-g$N
python3 "$BENCH/make-graph-repo.py" "$N" "$GRAPH_DIR"
SETTINGS=$WORK/$SCENARIO-g$N.xml
sed -e "s|<url>\(https\?://[^<]*\)/private/</url>|<url>\1/private/reactor-g$N/</url>|" \
  -e "s|<mirrorOf>[^<]*</mirrorOf>|<mirrorOf>*</mirrorOf>|" "$SETTINGS_DIR/$SCENARIO.xml" >"$SETTINGS"
grep -q "reactor-g$N/" "$SETTINGS" || { log "cannot point $SCENARIO.xml at the graph"; exit 1; }

# reactor K -> $WORK/reactor-K/pom.xml (the first K modules, the same POMs) and $WORK/modules-K.txt
reactor() {
  local k=$1 dir=$WORK/reactor-$1 i name
  rm -rf "$dir"
  mkdir -p "$dir"
  head -n "$k" "$GRAPH_DIR/modules.txt" >"$WORK/modules-$k.txt"
  local modules=
  for ((i = 0; i < k; i++)); do
    name=$(printf 'm%02d' "$i")
    cp -r "$GRAPH_DIR/reactor/$name" "$dir/"
    modules+="<module>$name</module>"
  done
  sed -e "s|<modules>.*</modules>|<modules>$modules</modules>|" "$GRAPH_DIR/reactor/pom.xml" >"$dir/pom.xml"
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

run_tool() { # LABEL PATH K LOCAL LOG
  local label=$1 path=$2 k=$3 local_repo=$4 logf=$5
  if [[ $label == maven ]]; then
    timed "$logf" "$BENCH/mavenfetch" get --modules "$WORK/modules-$k.txt" --no-verify --settings "$SETTINGS" \
      --local-repository "$local_repo"
  else
    local -a cmd
    IFS=, read -r -a cmd <<<"$path"
    timed "$logf" "${cmd[0]}" resolve "${cmd[@]:1}" --pom "$WORK/reactor-$k/pom.xml" --settings "$SETTINGS" \
      --local-repository "$local_repo"
  fi
}

jars() { (cd "$1" && find . -name '*.jar' | sort); }

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR]=$1} END{if(NR%2) print v[(NR+1)/2]; else printf "%.3f\n", (v[NR/2]+v[NR/2+1])/2}'; }

tools=()
[[ $MAVEN == yes ]] && tools+=("maven=mavenfetch")
for t in $M2R; do tools+=("$t"); done

declare -A RESULT
for k in $MODULES; do
  reactor "$k"
  reference=
  count=
  for ((r = 1; r <= RUNS; r++)); do
    for t in "${tools[@]}"; do
      label=${t%%=*} path=${t#*=}
      local_repo=$LOCAL_BASE/$label-$k
      rm -rf "$local_repo"
      for state in cold warm; do
        read -r wall cpu rss < <(run_tool "$label" "$path" "$k" "$local_repo" "$WORK/last-$label.log")
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$label" "$state" "$r" "$wall" "$cpu" "$rss" >>"$TSV"
        RESULT[$k:$label:$state:wall]+="$wall "
        RESULT[$k:$label:$state:cpu]+="$cpu "
        RESULT[$k:$label:$state:rss]+="$rss "
        if [[ $state == cold ]]; then
          list=$(jars "$local_repo")
          if [[ -z $reference ]]; then
            reference=$list
            count=$(wc -l <<<"$list")
          elif [[ $list != "$reference" ]]; then
            log "$label ($k modules, run $r) left other jars than the first tool:"
            diff <(echo "$reference") <(echo "$list") | head -n 10 >&2
            exit 1
          fi
        fi
      done
      rm -rf "$local_repo"
    done
  done
  RESULT[$k:jars]=$count
  log "$k modules ($count jars) done"
done

med() { median <<<"${RESULT[$1]}"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b > 0) printf "%.0f×", a / b; else print "-" }'; }
mb() { awk -v k="$1" 'BEGIN{printf "%.0f", k / 1024}'; }

echo
echo "| modules (jars) | tool | cold | warm | cold ratio | warm ratio | CPU cold / warm | peak memory cold / warm |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for k in $MODULES; do
  for t in "${tools[@]}"; do
    label=${t%%=*}
    cold=$(med "$k:$label:cold:wall") warm=$(med "$k:$label:warm:wall")
    if [[ $MAVEN == yes && $label != maven ]]; then
      rc=$(ratio "$(med "$k:maven:cold:wall")" "$cold") rw=$(ratio "$(med "$k:maven:warm:wall")" "$warm")
    else
      rc= rw=
    fi
    printf '| %s (%s) | %s | %s s | %s s | %s | %s | %s / %s s | %s / %s MB |\n' "$k" "${RESULT[$k:jars]}" "$label" \
      "$cold" "$warm" "$rc" "$rw" "$(med "$k:$label:cold:cpu")" "$(med "$k:$label:warm:cpu")" \
      "$(mb "$(med "$k:$label:cold:rss")")" "$(mb "$(med "$k:$label:warm:rss")")"
  done
done
echo
echo "runs (wall s): see $TSV"
for k in $MODULES; do
  for t in "${tools[@]}"; do
    label=${t%%=*}
    echo "  $k modules $label cold: ${RESULT[$k:$label:cold:wall]}warm: ${RESULT[$k:$label:warm:wall]}"
  done
done
log "scenario $SCENARIO, rtt ${RTT_MS} ms, load average $(cut -d' ' -f1-3 /proc/loadavg)"
