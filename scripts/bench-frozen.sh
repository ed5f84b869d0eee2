#!/usr/bin/env bash
# bench-frozen.sh: the README's "Locked downloads" table — `m2r resolve --frozen` (the files of
# m2r.lock, no POM, no metadata, no checksum sidecar) against `m2r resolve` and Maven Resolver 1.6.3
# (`mavenfetch get --transitive`), all cold (empty local repository), and the floor of the frozen
# path: `curl --parallel` of exactly the locked jars' URLs through the same proxy with the same
# credentials (as ../shared/bench/floor.sh fetches), and warm `--frozen` (every file present: the
# record of verified files proves them, nothing is hashed or fetched). Wall time, median of RUNS.
#
# Needs the benchmark testbed of ../shared/bench (README there): servers running (started here, and
# stopped again, only when they are not), Java + Maven's jars for mavenfetch, python3, curl.
#
# Environment (defaults):
#   M2R=target/release/m2r   GRAPH=600:12 (make-graph-repo.py N, K roots)   SCENARIO=https-squid-rtt
#   RUNS=5  MAVEN=yes  PAR="32 64" (curl --parallel-max values tried; the floor is the fastest)
#   LOCAL_BASE=/dev/shm/m2r-bench-frozen (tmpfs)
# Every cold run is checked: exit 0 and the same set of jars as the lock.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BENCH=${BENCH:-$ROOT/../shared/bench}
[[ -d $BENCH ]] || BENCH=$ROOT/../../shared/bench
BENCH_TMP=${BENCH_TMP:-${TMPDIR:-/tmp}/m2r-bench}
M2R=${M2R:-$ROOT/target/release/m2r}
GRAPH=${GRAPH:-600:12}
SCENARIO=${SCENARIO:-https-squid-rtt}
RUNS=${RUNS:-5}
MAVEN=${MAVEN:-yes}
PAR=${PAR:-32 64}
LOCAL_BASE=${LOCAL_BASE:-/dev/shm/m2r-bench-frozen}
WORK=$BENCH_TMP/frozen

log() { echo "bench-frozen: $*" >&2; }

STARTED=no
if "$BENCH/servers.sh" status >/dev/null 2>&1 && [[ -f $BENCH_TMP/env ]]; then
  # shellcheck disable=SC1091
  source "$BENCH_TMP/env"
else
  REPO_DIR=$BENCH_TMP/repo-1000-32k
  "$BENCH/make-repo.sh" 1000 32 "$REPO_DIR" >/dev/null
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
mkdir -p "$WORK" "$LOCAL_BASE"

# the graph, its roots and the scenario's settings pointed at it (as bench-transitive.sh does)
n=${GRAPH%%:*} k=${GRAPH##*:}
GRAPH_DIR=$REPO_DIR/collect-g$n
python3 "$BENCH/make-graph-repo.py" "$n" "$GRAPH_DIR" >/dev/null
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

timed() { # LOG CMD... -> wall seconds; exits on failure
  local logf=$1 rc=0
  shift
  /usr/bin/time -o "$logf.time" -f '%e' "$@" >"$logf" 2>&1 || rc=$?
  if ((rc != 0)); then
    log "FAILED (exit $rc): $*"
    tail -n 15 "$logf" >&2
    exit 1
  fi
  cat "$logf.time"
}
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR]=$1} END{if(NR%2) print v[(NR+1)/2]; else printf "%.3f\n", (v[NR/2]+v[NR/2+1])/2}'; }
jars() { (cd "$1" && find . -name '*.jar' | sed 's|^\./||' | sort); }

# the lock (made once, in its own local repository) and the URLs of its files
LOCK_DIR=$WORK/lock-g$n
rm -rf "$LOCK_DIR" && mkdir -p "$LOCK_DIR"
# shellcheck disable=SC2046
(cd "$LOCK_DIR" && "$M2R" lock --settings "$SETTINGS" --local-repository "$LOCAL_BASE/lock" $(cat "$ROOTS")) >/dev/null
python3 - "$LOCK_DIR/m2r.lock" "$WORK/urls.txt" "$WORK/paths.txt" <<'PY'
import json, sys
lock = json.load(open(sys.argv[1]))
urls = {r["id"]: r["url"] for r in lock["repositories"]}
files = sorted({(n.get("url") or urls[n["repository"]], n["file"])
                for p in lock["projects"] for n in p["nodes"] if n.get("repository")})
with open(sys.argv[2], "w") as u, open(sys.argv[3], "w") as f:
    for base, path in files:
        u.write(base.rstrip("/") + "/" + path + "\n")
        f.write(path + "\n")
PY
NJARS=$(wc -l <"$WORK/paths.txt")
sort "$WORK/paths.txt" >"$WORK/paths.sorted"
rm -rf "$LOCAL_BASE/lock"
log "graph $n ($k roots): $NJARS locked files"

declare -A R
check() { # LABEL LOCAL: the same jars as the lock
  if ! diff -q <(jars "$2") "$WORK/paths.sorted" >/dev/null; then
    log "$1 left other jars than the lock:"
    diff <(jars "$2") "$WORK/paths.sorted" | head >&2
    exit 1
  fi
}
curl_floor() { # PAR -> wall seconds
  local par=$1 out=$LOCAL_BASE/curl t0 t1
  rm -rf "$out" && mkdir -p "$out"
  paste -d' ' "$WORK/urls.txt" "$WORK/paths.txt" |
    awk -v o="$out" '{printf "url = \"%s\"\noutput = \"%s/%s\"\n", $1, o, $2}' >"$WORK/curl.cfg"
  t0=$(date +%s.%N)
  timeout 600 curl -sS --no-progress-meter --fail --create-dirs --parallel --parallel-max "$par" --max-time 60 \
    --http1.1 --cacert "$CA_PEM" -u deploy:s3cret -x "http://127.0.0.1:$SQUID_PORT" --proxy-user proxyuser:proxypass \
    -K "$WORK/curl.cfg"
  t1=$(date +%s.%N)
  [[ $(find "$out" -type f | wc -l) -eq $NJARS ]] || { log "curl fetched too few files"; exit 1; }
  rm -rf "$out"
  awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f\n", b-a}'
}

for ((r = 1; r <= RUNS; r++)); do
  L=$LOCAL_BASE/frozen
  rm -rf "$L"
  R[frozen_cold]+="$(cd "$LOCK_DIR" && timed "$WORK/frozen.log" "$M2R" resolve --frozen --settings "$SETTINGS" --local-repository "$L") "
  check frozen "$L"
  R[frozen_warm]+="$(cd "$LOCK_DIR" && timed "$WORK/frozen.log" "$M2R" resolve --frozen --settings "$SETTINGS" --local-repository "$L") "
  rm -rf "$L"
  L=$LOCAL_BASE/resolve
  # shellcheck disable=SC2046
  R[resolve_cold]+="$(timed "$WORK/resolve.log" "$M2R" resolve --settings "$SETTINGS" --local-repository "$L" $(cat "$ROOTS")) "
  check resolve "$L"
  rm -rf "$L"
  if [[ $MAVEN == yes ]]; then
    L=$LOCAL_BASE/maven
    R[maven_cold]+="$(timed "$WORK/maven.log" "$BENCH/mavenfetch" get --transitive --no-verify --settings "$SETTINGS" \
      --local-repository "$L" --from-file "$ROOTS") "
    check maven "$L"
    rm -rf "$L"
  fi
  for p in $PAR; do R[curl_$p]+="$(curl_floor "$p") "; done
  log "run $r of $RUNS done"
done

floor=
for p in $PAR; do
  m=$(median <<<"${R[curl_$p]}")
  if [[ -z $floor ]] || awk -v a="$m" -v b="$floor" 'BEGIN{exit !(a < b)}'; then floor=$m floor_par=$p; fi
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f×", a / b}'; }
row() { printf '| %s | %s s | %s |\n' "$1" "$2" "$(ratio "$2" "$floor")"; }
echo
echo "graph $n, $k roots, $NJARS jars; scenario $SCENARIO (RTT ${RTT_MS} ms); median of $RUNS runs"
echo
echo "| run | wall | vs floor |"
echo "|---|---:|---:|"
row "curl --parallel-max $floor_par, the locked URLs (floor)" "$floor"
row "m2r resolve --frozen, cold" "$(median <<<"${R[frozen_cold]}")"
row "m2r resolve, cold" "$(median <<<"${R[resolve_cold]}")"
[[ $MAVEN == yes ]] && row "Maven Resolver 1.6.3 (mavenfetch --transitive), cold" "$(median <<<"${R[maven_cold]}")"
row "m2r resolve --frozen, warm" "$(median <<<"${R[frozen_warm]}")"
echo
for key in "${!R[@]}"; do echo "  $key: ${R[$key]}"; done | sort
log "load average $(cut -d' ' -f1-3 /proc/loadavg)"
