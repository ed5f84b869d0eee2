#!/usr/bin/env bash
# bench-deploy.sh: deploy N release modules (POM + jar + sources jar of SIZE_KB each) through the testbed's
# https-squid-rtt route (squid with Basic proxy auth, a CONNECT tunnel, 20 ms of round-trip time, nginx with
# Basic server auth), with Maven Resolver 1.6.3 as a Maven reactor deploys (scripts/bench/MavenDeploy.java:
# one session, one DeployRequest per module, one after another, Wagon's HTTP transport) and with m2r as a build
# tool embedding it would (examples/deploy_modules.rs: one Session::deploy of every module). Each run deploys to
# its own folder of a fresh server tree; the trees of both tools are compared file by file (metadata with its
# lastUpdated normalised, its checksums checked against it), so both left identical files. Medians of RUNS,
# wall time and CPU time (user + system) of the process.
#
#   scripts/bench-deploy.sh                       # N=200 SIZE_KB=64 RUNS=3
#   N=50 RUNS=1 scripts/bench-deploy.sh           # quicker
#
# The testbed (../shared/bench, or $BENCH) provides squid, delayfwd and TLS; its nginx takes no PUT, so this
# script replaces it with one that does (dav_methods PUT; create_full_put_path on; HTTP/2 and HTTP/1.1), on the
# same ports. Work files and servers live under BENCH_TMP (default /tmp/bench-publish) on ports shifted from the
# testbed's defaults (so a testbed already running is left alone); everything is stopped at the end.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH=${BENCH:-$(cd "$ROOT/../shared/bench" 2>/dev/null && pwd || cd "$ROOT/../../shared/bench" && pwd)}
export BENCH_TMP=${BENCH_TMP:-/tmp/bench-publish}
export HTTP_PORT=${HTTP_PORT:-28080} HTTPS_PORT=${HTTPS_PORT:-28443} RTT_HTTP_PORT=${RTT_HTTP_PORT:-28081}
export RTT_HTTPS_PORT=${RTT_HTTPS_PORT:-28444} PROXY_PORT=${PROXY_PORT:-28888} SQUID_PORT=${SQUID_PORT:-23128}
export SOCKS_PORT=${SOCKS_PORT:-21080} RTT_MS=${RTT_MS:-20}
N=${N:-200}
SIZE_KB=${SIZE_KB:-64}
RUNS=${RUNS:-3}
MAVEN_LIB=${MAVEN_LIB:-/usr/share/maven/lib}
log() { echo "bench-deploy: $*" >&2; }

cleanup() {
  "$BENCH/servers.sh" stop >/dev/null 2>&1 || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- inputs: N modules
IN=$BENCH_TMP/inputs-$N-${SIZE_KB}k
if [[ ! -f $IN/modules.txt ]]; then
  log "writing $N modules of ${SIZE_KB} KiB files to $IN"
  python3 - "$IN" "$N" "$SIZE_KB" <<'EOF'
import hashlib, os, sys
out, n, kb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lines = []
for i in range(n):
    d = os.path.join(out, f"mod-{i:03d}")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "pom.xml"), "w") as f:
        f.write(f'<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n'
                f'  <modelVersion>4.0.0</modelVersion>\n  <groupId>org.bench.deploy</groupId>\n'
                f'  <artifactId>mod-{i:03d}</artifactId>\n  <version>1.0</version>\n</project>\n')
    for name in ("mod.jar", "mod-sources.jar"):
        data, k = bytearray(), 0
        while len(data) < kb * 1024:
            data += hashlib.sha256(f"{name}{i}/{k}".encode()).digest(); k += 1
        with open(os.path.join(d, name), "wb") as f:
            f.write(data[:kb * 1024])
    lines.append(f"{d}/pom.xml {d}/mod.jar {d}/mod-sources.jar\n")
with open(os.path.join(out, "modules.txt"), "w") as f:
    f.writelines(lines)
EOF
fi

# ---- tools
log "building m2r (examples/deploy_modules, release) and MavenDeploy.java"
(cd "$ROOT" && cargo build -q --release --example deploy_modules)
M2R=$ROOT/target/release/examples/deploy_modules
mkdir -p "$BENCH_TMP/classes"
javac -Xlint:all,-path -Werror --release 17 -d "$BENCH_TMP/classes" -cp "$MAVEN_LIB/*" "$ROOT/scripts/bench/MavenDeploy.java"

# ---- servers: the testbed's, then nginx replaced by one taking PUTs
mkdir -p "$BENCH_TMP/served"
# servers.sh checks what its nginx serves: a tiny generated repository
"$BENCH/make-repo.sh" 10 1 "$BENCH_TMP/check-repo" >/dev/null
"$BENCH/servers.sh" start "$BENCH_TMP/check-repo" >/dev/null
# shellcheck disable=SC1091
source "$BENCH_TMP/env"
RUN=$BENCH_TMP/run/nginx
kill -TERM "$NGINX_PID"
for _ in $(seq 50); do kill -0 "$NGINX_PID" 2>/dev/null || break; sleep 0.1; done
printf 'deploy:{SHA}%s\n' "$(printf '%s' s3cret | openssl dgst -sha1 -binary | base64)" >"$RUN/htpasswd"
cat >"$RUN/deploy.conf" <<EOF
$( ((EUID == 0)) && echo "user root root;")
worker_processes 1;
pid $RUN/nginx.pid;
error_log $RUN/error.log warn;
events { worker_connections 4096; }
http {
    access_log $RUN/deploy-access.log;
    client_body_temp_path $RUN/body;
    client_max_body_size 0;
    keepalive_timeout 75s;
    keepalive_requests 100000;
    tcp_nodelay on;
    server {
        listen 127.0.0.1:$HTTP_PORT backlog=4096;
        listen 127.0.0.1:$HTTPS_PORT ssl http2 backlog=4096;
        ssl_certificate $BENCH_TMP/tls/server-chain.pem;
        ssl_certificate_key $BENCH_TMP/tls/server.key;
        location /private/ {
            alias $BENCH_TMP/served/;
            dav_methods PUT;
            create_full_put_path on;
            auth_basic "bench deploy";
            auth_basic_user_file $RUN/htpasswd;
        }
    }
}
EOF
nginx -c "$RUN/deploy.conf" -p "$RUN" -e "$RUN/error.log"
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$HTTPS_PORT") 2>/dev/null && break; sleep 0.1; done
SETTINGS=$BENCH_TMP/deploy-settings.xml
cat >"$SETTINGS" <<EOF
<settings>
  <servers><server><id>bench-deploy</id><username>deploy</username><password>s3cret</password></server></servers>
  <proxies><proxy><id>bench-squid</id><protocol>http</protocol><host>127.0.0.1</host><port>$SQUID_PORT</port>
    <username>proxyuser</username><password>proxypass</password></proxy></proxies>
</settings>
EOF
URL=https://127.0.0.1:$RTT_HTTPS_PORT/private

# ---- runs
results=$BENCH_TMP/deploy-results.tsv
: >"$results"
timed() { # NAME RUN COMMAND...: appends "NAME wall user sys" to the results
  local name=$1 run=$2; shift 2
  local out=$BENCH_TMP/$name-$run
  if ! /usr/bin/time -f "%e %U %S" -o "$out.time" "$@" >"$out.out" 2>"$out.err"; then
    cat "$out.out" "$out.err" >&2
    log "$name failed (run $run)"
    exit 1
  fi
  echo "$name $(tail -1 "$out.time")" >>"$results"
  log "$name run $run: wall/user/sys $(tail -1 "$out.time"): $(tail -1 "$out.out")"
}
for r in $(seq "$RUNS"); do
  rm -rf "$BENCH_TMP/served/maven-$r" "$BENCH_TMP/served/m2r-$r" "$BENCH_TMP/local-"*
  timed maven "$r" java -Djavax.net.ssl.trustStore="$TRUSTSTORE" -Djavax.net.ssl.trustStorePassword=changeit \
    -Djavax.net.ssl.trustStoreType=PKCS12 -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -cp "$BENCH_TMP/classes:$MAVEN_LIB/*" MavenDeploy --settings "$SETTINGS" \
    --local-repository "$BENCH_TMP/local-maven" --to "bench-deploy::$URL/maven-$r/" --modules "$IN/modules.txt"
  timed m2r "$r" env SSL_CERT_FILE="$CA_PEM" HOME="$BENCH_TMP" "$M2R" --settings "$SETTINGS" \
    -Dmaven.repo.local="$BENCH_TMP/local-m2r" --to "bench-deploy::$URL/m2r-$r/" --modules "$IN/modules.txt"
done

# ---- the same files on the server
python3 - "$BENCH_TMP/served/maven-1" "$BENCH_TMP/served/m2r-1" "$N" <<'EOF'
import hashlib, os, re, sys
a, b, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def files(root):
    return sorted(os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs)
fa, fb = files(a), files(b)
if fa != fb:
    sys.exit(f"different file names: {sorted(set(fa) ^ set(fb))[:10]}")
if len(fa) != n * 12:
    sys.exit(f"{len(fa)} files, expected {n * 12}")
algos = {"sha1": hashlib.sha1, "md5": hashlib.md5}
for f in fa:
    x, y = open(os.path.join(a, f), "rb").read(), open(os.path.join(b, f), "rb").read()
    if "maven-metadata.xml" in f and not f.endswith(".xml"):
        md = open(os.path.join(b, f.rsplit(".", 1)[0]), "rb").read()
        if algos[f.rsplit(".", 1)[1]](md).hexdigest().encode() != y:
            sys.exit(f"{f}: not the checksum of m2r's metadata")
        continue
    if f.endswith("maven-metadata.xml"):
        x, y = (re.sub(rb"<lastUpdated>\d{14}", b"<lastUpdated>", v) for v in (x, y))
    if x != y:
        sys.exit(f"{f} differs")
print(f"identical: {len(fa)} files")
EOF

# ---- table
python3 - "$results" "$N" "$SIZE_KB" "$RTT_MS" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, wall, user, sys_ = line.split()
    rows.setdefault(name, []).append((float(wall), float(user) + float(sys_)))
n, kb, rtt = sys.argv[2], sys.argv[3], sys.argv[4]
med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in rows.items()}
print(f"| deploy {n} modules (POM + jar + sources, {kb} KiB), https-squid-rtt ({rtt} ms) | wall (median of {len(rows['m2r'])}) | CPU (user+sys) |")
print("|---|---|---|")
print(f"| Maven Resolver 1.6.3 + Wagon, one session, modules one after another | {med['maven'][0]:.2f} s | {med['maven'][1]:.2f} s |")
print(f"| m2r, one `Session::deploy` of every module | {med['m2r'][0]:.2f} s | {med['m2r'][1]:.2f} s |")
print(f"| ratio | {med['maven'][0] / med['m2r'][0]:.1f}x | {med['maven'][1] / med['m2r'][1]:.1f}x |")
EOF
