#!/usr/bin/env bash
# bench-fleet.sh: the README's "CI fleets" table — what repository filters and a chained local repository
# save on a cold resolve through a proxy with round-trip time.
#
# 1. Filters: `make-graph-repo.py N`'s graph (roots.txt) with EMPTY repositories declared ahead of the one
#    that holds it (all in an active settings profile; central is mirrored to an empty folder, and never
#    asked since the graph is complete), through the testbed's SCENARIO proxy: Maven Resolver 1.6.3
#    (`mavenfetch get --transitive`, which has no filtering), m2r without filters, m2r with
#    `-Daether.remoteRepositoryFilter.prefixes=true` (prefixes-<id>.txt: `/com/example/none` for the
#    empty repositories, `/org/graph` for the graph's). Requests and 404s are counted in nginx's access log.
# 2. Chained local repository: the graph's own repository only; a cold `m2r resolve` into an empty local
#    repository vs one into an empty head with `-Dmaven.repo.local.tail=TAIL`, TAIL holding TAIL_PCT % of
#    the graph's artifacts (copied, with their _remote.repositories, from a first resolve; made read-only).
#
# Needs the testbed of ../shared/bench (README there): servers running at $BENCH_TMP (started here, and
# stopped again, only when they are not), Java + Maven's jars for mavenfetch, python3. When others use the
# testbed's default ports, give this run its own: BENCH_TMP=/tmp/bench-fleet HTTP_PORT=18180 HTTPS_PORT=18543
# RTT_HTTP_PORT=18181 RTT_HTTPS_PORT=18544 PROXY_PORT=18988 SQUID_PORT=13228 SOCKS_PORT=11180.
#
# Environment (defaults): BENCH=../shared/bench M2R=target/release/m2r N=600 EMPTY=4 SCENARIO=https-squid-rtt
#   RUNS=3 TAIL_PCT=90 MAVEN=yes (no: m2r only) LOCAL_BASE=/dev/shm/m2r-bench-fleet (tmpfs)
# Every run must exit 0 and resolve the same class path as the first run of its table.
# Output: two markdown tables on stdout (medians of RUNS), every run in $BENCH_TMP/results/fleet-<stamp>.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BENCH=${BENCH:-$ROOT/../shared/bench}
[[ -d $BENCH ]] || BENCH=/work/shared/bench
BENCH_TMP=${BENCH_TMP:-${TMPDIR:-/tmp}/m2r-bench}
export BENCH_TMP
M2R=${M2R:-$ROOT/target/release/m2r}
N=${N:-600}
EMPTY=${EMPTY:-4}
SCENARIO=${SCENARIO:-https-squid-rtt}
RUNS=${RUNS:-3}
TAIL_PCT=${TAIL_PCT:-90}
MAVEN=${MAVEN:-yes}
LOCAL_BASE=${LOCAL_BASE:-/dev/shm/m2r-bench-fleet}
WORK=$BENCH_TMP/fleet

log() { echo "bench-fleet: $*" >&2; }

STARTED=no
if "$BENCH/servers.sh" status >/dev/null 2>&1 && [[ -f $BENCH_TMP/env ]]; then
  # shellcheck disable=SC1091
  source "$BENCH_TMP/env"
else
  REPO_DIR=$BENCH_TMP/repo-fleet
  "$BENCH/make-repo.sh" 20 8 "$REPO_DIR" >/dev/null
  "$BENCH/servers.sh" start "$REPO_DIR" >/dev/null
  STARTED=yes
  # shellcheck disable=SC1091
  source "$BENCH_TMP/env"
fi
cleanup() {
  chmod -R u+w "$LOCAL_BASE" 2>/dev/null || true
  rm -rf "$LOCAL_BASE"
  if [[ $STARTED == yes ]]; then "$BENCH/servers.sh" stop; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
export SSL_CERT_FILE=$CA_PEM

mkdir -p "$WORK" "$BENCH_TMP/results" "$LOCAL_BASE"
STAMP=$(date +%Y%m%d-%H%M%S)
TSV=$BENCH_TMP/results/fleet-$STAMP.tsv
printf 'table\ttool\trun\twall_s\trequests\tnot_found\n' >"$TSV"

GRAPH_DIR=$REPO_DIR/collect-g$N
python3 "$BENCH/make-graph-repo.py" "$N" "$GRAPH_DIR"
ROOTS=$GRAPH_DIR/roots.txt
mkdir -p "$REPO_DIR/empty-central"
for ((i = 1; i <= EMPTY; i++)); do mkdir -p "$REPO_DIR/empty$i"; done

# The scenario's proxy and the base URL of its mirror (scheme://host:port).
BASE=$(sed -n 's:.*<url>\(https\?\://[^/<]*\)/.*</url>.*:\1:p' "$SETTINGS_DIR/$SCENARIO.xml" | head -n1)
PROXIES=$(python3 -c 'import re,sys; t=open(sys.argv[1]).read(); m=re.search(r"<proxies>.*?</proxies>", t, re.S); print(m.group(0) if m else "")' "$SETTINGS_DIR/$SCENARIO.xml")
[[ -n $BASE ]] || { log "no mirror URL in $SCENARIO.xml"; exit 1; }

# settings: EMPTY empty repositories, then the graph's (basic auth), central mirrored to an empty folder
MULTI=$WORK/multi-$SCENARIO.xml
{
  echo "<settings><servers><server><id>graph</id><username>deploy</username><password>s3cret</password></server></servers>"
  echo "<mirrors><mirror><id>central-mirror</id><mirrorOf>central</mirrorOf><url>$BASE/public/empty-central/</url></mirror></mirrors>"
  echo "$PROXIES"
  echo "<profiles><profile><id>fleet</id><activation><activeByDefault>true</activeByDefault></activation><repositories>"
  for ((i = 1; i <= EMPTY; i++)); do
    echo "<repository><id>empty$i</id><url>$BASE/public/empty$i/</url><snapshots><enabled>false</enabled></snapshots></repository>"
  done
  echo "<repository><id>graph</id><url>$BASE/private/collect-g$N/</url><snapshots><enabled>false</enabled></snapshots></repository>"
  echo "</repositories></profile></profiles></settings>"
} >"$MULTI"
# settings: the graph's repository alone (mirror of everything)
SINGLE=$WORK/single-$SCENARIO.xml
sed -e "s|<url>\(https\?://[^<]*\)/private/</url>|<url>\1/private/collect-g$N/</url>|" \
  -e "s|<mirrorOf>[^<]*</mirrorOf>|<mirrorOf>*</mirrorOf>|" "$SETTINGS_DIR/$SCENARIO.xml" >"$SINGLE"
FILTERS=$WORK/filters
mkdir -p "$FILTERS"
for ((i = 1; i <= EMPTY; i++)); do
  printf '## repository-prefixes/2.0\n/com/example/none\n' >"$FILTERS/prefixes-empty$i.txt"
done
printf '## repository-prefixes/2.0\n/org/graph\n' >"$FILTERS/prefixes-graph.txt"

ACCESS_LOG=$BENCH_TMP/run/nginx/access.log
NGINX_PIDFILE=$BENCH_TMP/run/nginx/nginx.pid
flush_log() { # nginx buffers its access log: reopening it writes the buffer out
  kill -USR1 "$(cat "$NGINX_PIDFILE")"
  sleep 1
}
log_lines() { flush_log; wc -l <"$ACCESS_LOG"; }

# run LABEL LOCAL CMD... -> "wall requests 404s"; checks exit 0; the class path it printed -> $WORK/last.cp
run() {
  local label=$1 local_repo=$2 before after rc=0 t0 t1
  shift 2
  before=$(log_lines)
  t0=$(date +%s.%N)
  "$@" >"$WORK/last.out" 2>"$WORK/last.err" || rc=$?
  t1=$(date +%s.%N)
  if ((rc != 0)); then
    log "$label FAILED (exit $rc): $*"
    tail -n 15 "$WORK/last.err" >&2
    exit 1
  fi
  after=$(log_lines)
  local new
  new=$(tail -n +"$((before + 1))" "$ACCESS_LOG" | head -n "$((after - before))")
  printf '%s %d %d\n' "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b - a}')" "$((after - before))" \
    "$(grep -c '" 404 ' <<<"$new" || true)"
}

jars_of() { # the resolved jars: mavenfetch's local repository, or m2r's printed class path
  if [[ $1 == maven ]]; then (cd "$2" && find . -name '*.jar' -printf '%f\n' | sort); else
    tr ':' '\n' <"$WORK/last.out" | sed 's:.*/::' | grep '\.jar$' | sort
  fi
}

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR]=$1} END{if(NR%2) print v[(NR+1)/2]; else printf "%.3f\n", (v[NR/2]+v[NR/2+1])/2}'; }

declare -A R
check_same() { # TABLE LABEL LIST
  if [[ -z ${R[$1:ref]:-} ]]; then R[$1:ref]=$3; R[$1:jars]=$(wc -l <<<"$3"); elif [[ $3 != "${R[$1:ref]}" ]]; then
    log "$2 resolved other jars than the first run of table $1:"
    diff <(echo "${R[$1:ref]}") <(echo "$3") | head -n 10 >&2
    exit 1
  fi
}
record() { # TABLE LABEL RUN "wall requests 404s"
  read -r w q nf <<<"$4"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$w" "$q" "$nf" >>"$TSV"
  R[$1:$2:wall]+="$w " R[$1:$2:req]+="$q " R[$1:$2:nf]+="$nf "
}

# ---- 1. filters
tools=()
[[ $MAVEN == yes ]] && tools+=(maven)
tools+=(m2r m2r-filters)
for ((r = 1; r <= RUNS; r++)); do
  for t in "${tools[@]}"; do
    L=$LOCAL_BASE/$t
    rm -rf "$L"
    case $t in
      maven) out=$(run "$t" "$L" "$BENCH/mavenfetch" get --transitive --no-verify --settings "$MULTI" \
        --local-repository "$L" --from-file "$ROOTS") ;;
      m2r) out=$(run "$t" "$L" "$M2R" resolve --settings "$MULTI" --local-repository "$L" $(cat "$ROOTS")) ;;
      m2r-filters) out=$(run "$t" "$L" "$M2R" resolve --settings "$MULTI" --local-repository "$L" \
        -Daether.remoteRepositoryFilter.prefixes=true -Daether.remoteRepositoryFilter.prefixes.basedir="$FILTERS" \
        $(cat "$ROOTS")) ;;
    esac
    record filters "$t" "$r" "$out"
    check_same filters "$t" "$(jars_of "$t" "$L")"
    rm -rf "$L"
  done
done
log "filters: ${R[filters:jars]} jars"

# ---- 2. chained local repository
FULL=$LOCAL_BASE/full
TAIL=$LOCAL_BASE/tail
rm -rf "$FULL" "$TAIL"
run fill "$FULL" "$M2R" resolve --settings "$SINGLE" --local-repository "$FULL" $(cat "$ROOTS") >/dev/null
mapfile -t dirs < <(cd "$FULL" && find . -name '*.pom' -printf '%h\n' | sort -u)
kept=0
for ((i = 0; i < ${#dirs[@]}; i++)); do
  # TAIL_PCT % of the artifact folders, spread over the graph (i mod 10 below TAIL_PCT / 10)
  if (((i % 10) * 10 < TAIL_PCT)); then
    mkdir -p "$TAIL/${dirs[$i]}"
    cp -p "$FULL/${dirs[$i]}"/* "$TAIL/${dirs[$i]}/"
    kept=$((kept + 1))
  fi
done
chmod -R a-w "$TAIL"
log "tail: $kept of ${#dirs[@]} artifact folders"
for ((r = 1; r <= RUNS; r++)); do
  for t in m2r-empty m2r-tail; do
    L=$LOCAL_BASE/$t
    rm -rf "$L"
    case $t in
      m2r-empty) out=$(run "$t" "$L" "$M2R" resolve --settings "$SINGLE" --local-repository "$L" $(cat "$ROOTS")) ;;
      m2r-tail) out=$(run "$t" "$L" "$M2R" resolve --settings "$SINGLE" --local-repository "$L" \
        -Dmaven.repo.local.tail="$TAIL" $(cat "$ROOTS")) ;;
    esac
    record tail "$t" "$r" "$out"
    check_same tail "$t" "$(jars_of "$t" "$L")"
    rm -rf "$L"
  done
done

med() { median <<<"${R[$1]}"; }
echo
echo "| $N-artifact graph, $EMPTY empty repositories first, $SCENARIO | cold | requests | of them 404 |"
echo "|---|---:|---:|---:|"
for t in "${tools[@]}"; do
  case $t in
    maven) name="Maven Resolver 1.6.3 (no filtering)" ;;
    m2r) name="m2r" ;;
    m2r-filters) name="m2r, prefix filters" ;;
  esac
  printf '| %s | %s s | %s | %s |\n' "$name" "$(med "filters:$t:wall")" "$(med "filters:$t:req")" "$(med "filters:$t:nf")"
done
echo
echo "| cold m2r resolve, ${R[tail:jars]} jars, $SCENARIO | time | requests |"
echo "|---|---:|---:|"
printf '| empty local repository | %s s | %s |\n' "$(med tail:m2r-empty:wall)" "$(med tail:m2r-empty:req)"
printf '| empty head, tail with %s of %s artifacts (%s %%) | %s s | %s |\n' "$kept" "${#dirs[@]}" "$TAIL_PCT" \
  "$(med tail:m2r-tail:wall)" "$(med tail:m2r-tail:req)"
echo
echo "runs: $TSV"
log "rtt ${RTT_MS} ms, load average $(cut -d' ' -f1-3 /proc/loadavg)"
