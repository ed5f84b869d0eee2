#!/usr/bin/env bash
# bench-session.sh: the README's "One session for a build" table — a reactor of 40 modules and one
# dependency graph, m2r against Maven Resolver 1.6.3 (`mavenfetch`), through the testbed's
# `https-squid-rtt` scenario (HTTPS with basic auth through authenticating squid, +20 ms round trip),
# cold (empty local repository) and warm (the same command again), median of RUNS, runs interleaved.
#
# Workloads, on `make-graph-repo.py 600`:
#   modules  its modules.txt (40 modules, each line a module's direct dependencies):
#            maven      `mavenfetch get --modules` (one JVM session, modules one after another)
#            session    `examples/resolve_modules` (one m2r Session, every module at once)
#            40 procs   40 `m2r resolve` processes, one per module, one after another
#   graph    its roots.txt (12 direct dependencies, ~250 artifacts):
#            maven      `mavenfetch get --transitive`
#            m2r        `m2r resolve`
#            flat       cold only, a yardstick: the files m2r's first cold run stored (POMs,
#                       jars, checksum files), fetched all at once, with no chain and no
#                       parsing, by 3 `curl --parallel --parallel-max 128 --http2` through the
#                       same proxy (scripts/flat-fetch-config.py writes their lists). Not a
#                       floor: curl 7.88 does not multiplex inside a proxy tunnel, so it opens
#                       about 29 tunnels each (counted like the others)
# Counted per run: wall time, CPU (user + sys, children included), and the connections nginx
# accepted = TLS handshakes = proxy CONNECT tunnels: the testbed's squid keeps no access log and
# refuses its cache manager, but every tunnel it opens reaches nginx (through the latency
# forwarder) as one TLS connection, so they are counted at nginx: the difference of nginx's
# connection serial numbers (`c=` in its access log) between a probe request before the run and
# one after it (so connections that carried no request count too).
# Every cold run's local repository must hold the same jars as the first tool's of its workload,
# each byte-identical to the served file (checked after the run, outside the timing).
# The floor of each cold workload (scripts/graph-floor.py: the longest chain of POM fetches one
# after another x the round trip, plus the connection set-up) is printed beside it, and for the
# graph the flat fetch of the same files above (what a plain client needs to move them through
# the testbed's path, chain or no chain).
#
# Environment (defaults): RUNS=3 GRAPH=600 SCENARIO=https-squid-rtt LOCAL_BASE=/dev/shm/m2r-bench-session
#   M2R=target/release/m2r MODULES_BIN=target/release/examples/resolve_modules (built here if missing)
# Servers: started here (and stopped at the end) only when they are not running.
# Output: a markdown table on stdout, every run in $BENCH_TMP/results/session-<stamp>.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BENCH=${BENCH:-${M2R_SHARED_DIR:-$ROOT/../shared}/bench}
BENCH_TMP=${BENCH_TMP:-${TMPDIR:-/tmp}/m2r-bench}
RUNS=${RUNS:-3}
GRAPH=${GRAPH:-600}
SCENARIO=${SCENARIO:-https-squid-rtt}
LOCAL_BASE=${LOCAL_BASE:-/dev/shm/m2r-bench-session}
M2R=${M2R:-$ROOT/target/release/m2r}
MODULES_BIN=${MODULES_BIN:-$ROOT/target/release/examples/resolve_modules}
WORK=$BENCH_TMP/session

log() { echo "bench-session: $*" >&2; }

[[ -x $M2R ]] || cargo build --release -p m2r-cli
[[ -x $MODULES_BIN ]] || cargo build --release -p m2resolver --example resolve_modules

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
export SSL_CERT_FILE=$CA_PEM
NGINX_LOG=$BENCH_TMP/run/nginx/access.log

mkdir -p "$WORK" "$BENCH_TMP/results" "$LOCAL_BASE"
GRAPH_DIR=$REPO_DIR/collect-g$GRAPH
python3 "$BENCH/make-graph-repo.py" "$GRAPH" "$GRAPH_DIR"
SETTINGS=$WORK/$SCENARIO-g$GRAPH.xml
sed -e "s|<url>\(https\?://[^<]*\)/private/</url>|<url>\1/private/collect-g$GRAPH/</url>|" \
  -e "s|<mirrorOf>[^<]*</mirrorOf>|<mirrorOf>*</mirrorOf>|" "$SETTINGS_DIR/$SCENARIO.xml" >"$SETTINGS"
grep -q "collect-g$GRAPH/" "$SETTINGS" || { log "cannot point $SCENARIO.xml at the graph"; exit 1; }
MODULES=$GRAPH_DIR/modules.txt
ROOTS=$GRAPH_DIR/roots.txt
FLOOR_MODULES=$(python3 scripts/graph-floor.py "$GRAPH_DIR" --modules "$MODULES" --rtt-ms "$RTT_MS")
FLOOR_GRAPH=$(python3 scripts/graph-floor.py "$GRAPH_DIR" --roots "$ROOTS" --rtt-ms "$RTT_MS")
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" <<<"$2"; }

STAMP=$(date +%Y%m%d-%H%M%S)
TSV=$BENCH_TMP/results/session-$STAMP.tsv
printf 'workload\ttool\tstate\trun\twall_s\tcpu_s\ttls_connections\trequests\tload\n' >"$TSV"

run_tool() { # TOOL LOCAL LOGFILE
  local tool=$1 local_repo=$2 logf=$3
  case $tool in
    modules-maven) "$BENCH/mavenfetch" get --modules "$MODULES" --no-verify --settings "$SETTINGS" --local-repository "$local_repo" ;;
    modules-session) "$MODULES_BIN" --modules "$MODULES" --settings "$SETTINGS" --local-repository "$local_repo" ;;
    modules-40procs)
      while read -r line; do
        # shellcheck disable=SC2086
        "$M2R" resolve -q --settings "$SETTINGS" --local-repository "$local_repo" $line >/dev/null || return 1
      done <"$MODULES" ;;
    graph-maven) "$BENCH/mavenfetch" get --transitive --no-verify --settings "$SETTINGS" --local-repository "$local_repo" --from-file "$ROOTS" ;;
    graph-m2r)
      # shellcheck disable=SC2046
      "$M2R" resolve -q --settings "$SETTINGS" --local-repository "$local_repo" $(cat "$ROOTS") ;;
    graph-flat)
      local pids=() pid failed=0
      for cfg in "$WORK"/flat-part-*.cfg; do
        curl -sS --fail --create-dirs --parallel --parallel-max 128 --http2 --no-progress-meter \
          --max-time 60 --cacert "$CA_PEM" -K "$cfg" &
        pids+=($!)
      done
      for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
      return $failed ;;
  esac >"$logf" 2>&1
}

# timed TOOL LOCAL -> "wall cpu tls requests"
timed() {
  local tool=$1 local_repo=$2 logf=$WORK/last-$1.log before after c0 c1 rc=0
  probe
  sleep 2.5 # nginx flushes its access log every 2 s
  before=$(wc -l <"$NGINX_LOG")
  c0=$(last_probe_serial "$((before > 1000 ? before - 1000 : 1))")
  /usr/bin/time -o "$logf.time" -f '%e %U %S' bash -c 'run_tool "$@"' _ "$tool" "$local_repo" "$logf" || rc=$?
  if ((rc != 0)); then
    log "FAILED (exit $rc): $tool"
    tail -n 15 "$logf" >&2
    exit 1
  fi
  probe
  sleep 2.5
  after=$(wc -l <"$NGINX_LOG")
  c1=$(last_probe_serial "$((before + 1))")
  # requests of the run: the lines between the two probes
  requests=$(sed -n "$((before + 1)),${after}p" "$NGINX_LOG" | grep -vc ' "GET /health ' || true)
  awk -v t="$((c1 - c0 - 1))" -v r="$requests" '{printf "%.3f %.3f %d %d\n", $1, $2 + $3, t, r}' "$logf.time"
}
# probe: one request on a connection of its own, to read nginx's connection serial number
probe() { curl -sf --cacert "$CA_PEM" -o /dev/null "https://127.0.0.1:$HTTPS_PORT/health"; }
last_probe_serial() { # FROM_LINE -> the c= of the last probe logged from that line on
  sed -n "$1,\$p" "$NGINX_LOG" | grep ' "GET /health ' | tail -n 1 | sed -n 's/.* c=\([0-9]*\) .*/\1/p'
}
# same_bytes LOCAL: every jar in LOCAL is byte-identical to the one served from the graph repository
same_bytes() {
  (cd "$1" && find . -name '*.jar' -print0 | while IFS= read -r -d '' f; do
    cmp -s "$f" "$GRAPH_DIR/$f" || { echo "differs: $f"; exit 1; }
  done)
}

export BENCH MODULES MODULES_BIN SETTINGS M2R ROOTS WORK CA_PEM
export -f run_tool

jars() { (cd "$1" && find . -name '*.jar' | sort); }
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR]=$1} END{if(NR%2) print v[(NR+1)/2]; else printf "%.3f\n", (v[NR/2]+v[NR/2+1])/2}'; }

TOOLS="modules-maven modules-session modules-40procs graph-maven graph-m2r graph-flat"
rm -f "$WORK"/flat-part-*.cfg
declare -A R REF
for ((r = 1; r <= RUNS; r++)); do
  for tool in $TOOLS; do
    workload=${tool%%-*}
    local_repo=$LOCAL_BASE/$tool
    rm -rf "$local_repo"
    states="cold warm"
    [[ $tool == graph-flat ]] && states=cold
    for state in $states; do
      load=$(cut -d' ' -f1 /proc/loadavg)
      read -r wall cpu tls requests < <(timed "$tool" "$local_repo")
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$workload" "$tool" "$state" "$r" "$wall" "$cpu" "$tls" "$requests" "$load" >>"$TSV"
      R[$tool:$state:wall]+="$wall " R[$tool:$state:cpu]+="$cpu " R[$tool:$state:tls]+="$tls "
      R[$tool:$state:load]+="$load "
      if [[ $state == cold ]]; then
        same_bytes "$local_repo" >&2 || { log "$tool (run $r): a jar differs from the served one"; exit 1; }
        list=$(jars "$local_repo")
        if [[ -z ${REF[$workload]:-} ]]; then
          REF[$workload]=$list
          R[$workload:jars]=$(wc -l <<<"$list")
        elif [[ $list != "${REF[$workload]}" ]]; then
          log "$tool (run $r) left other jars than the first tool of $workload:"
          diff <(echo "${REF[$workload]}") <(echo "$list") | head -n 10 >&2
          exit 1
        fi
      fi
      if [[ $tool == graph-m2r && $state == cold && -z ${R[flat:files]:-} ]]; then
        R[flat:files]=$(python3 scripts/flat-fetch-config.py "$SETTINGS" "$local_repo" "$WORK" 3 \
          "$LOCAL_BASE/graph-flat")
      fi
    done
    rm -rf "$local_repo"
  done
  log "run $r of $RUNS done"
done

med() { median <<<"${R[$1]}"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b > 0) printf "%.0f×", a / b; else print "-" }'; }
row() { # WORKLOAD TOOL LABEL FLOOR
  local w=$1 tool=$2 label=$3 floor=$4 maven=$1-maven rc rw
  if [[ $tool == "$maven" ]]; then rc= rw=; else
    rc=$(ratio "$(med "$maven:cold:wall")" "$(med "$tool:cold:wall")")
    rw=$(ratio "$(med "$maven:warm:wall")" "$(med "$tool:warm:wall")")
  fi
  printf '| %s | %s | %s s | %s | %s s | %s | %s / %s s | %s / %s | %s |\n' "$w (${R[$w:jars]} jars)" "$label" \
    "$(med "$tool:cold:wall")" "$rc" "$(med "$tool:warm:wall")" "$rw" \
    "$(med "$tool:cold:cpu")" "$(med "$tool:warm:cpu")" "$(med "$tool:cold:tls")" "$(med "$tool:warm:tls")" "$floor"
}
echo
echo "| workload | tool | cold | × Maven | warm | × Maven | CPU cold / warm | TLS handshakes = CONNECTs, cold / warm | floor (cold) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
fm="$(field floor_s "$FLOOR_MODULES") s (chain $(field chain "$FLOOR_MODULES"))"
fg="$(field floor_s "$FLOOR_GRAPH") s (chain $(field chain "$FLOOR_GRAPH"))"
row modules modules-maven "Maven Resolver, one session" "$fm"
row modules modules-session "m2r, one Session" "$fm"
row modules modules-40procs "m2r, 40 processes" "$fm"
row graph graph-maven "Maven Resolver" "$fg"
row graph graph-m2r "m2r resolve" "$fg"
flat=$(med "graph-flat:cold:wall") m2r=$(med "graph-m2r:cold:wall") floor=$(field floor_with_jar_s "$FLOOR_GRAPH")
echo
echo "graph, cold: m2r $m2r s = $(awk -v a="$m2r" -v b="$floor" 'BEGIN{printf "%.2f", a / b}')× its floor with the jar" \
  "($floor s); the same ${R[flat:files]} files fetched flat by curl (no chain, $(med "graph-flat:cold:tls") tunnels): $flat s" \
  "= $(awk -v a="$flat" -v b="$floor" 'BEGIN{printf "%.2f", a / b}')× that floor, m2r = $(awk -v a="$m2r" -v b="$flat" 'BEGIN{printf "%.2f", a / b}')× the flat fetch"
echo "floors: modules $FLOOR_MODULES; graph $FLOOR_GRAPH"
echo "every run: $TSV"
for tool in $TOOLS; do
  echo "  $tool cold: ${R[$tool:cold:wall]}warm: ${R[$tool:warm:wall]:-none }(load: ${R[$tool:cold:load]})"
done
log "scenario $SCENARIO, rtt ${RTT_MS} ms, load average $(cut -d' ' -f1-3 /proc/loadavg)"
