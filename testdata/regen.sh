#!/usr/bin/env bash
# Regenerate expected.json of every fixture case from the real Maven oracle.
#
#   testdata/regen.sh                       # all cases of testdata/settings and testdata/injection
#   testdata/regen.sh testdata/injection/mirror-star ...   # only these case folders
#
# For each case folder: cd into it, add the NAME=VALUE lines of `env` (if any) to the environment, and run
#   $ORACLE <one argument per line of `args`>  > expected.json
# ORACLE defaults to /work/shared/oracle/run.sh (Maven 3.8.7 classes). JOBS (default 2) cases run at once.
# The oracle exits 1 when settings building fails (that document is still the expected answer); any other
# non-zero status or a non-JSON output is an error and leaves the previous expected.json untouched.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ORACLE=${ORACLE:-/work/shared/oracle/run.sh}
JOBS=${JOBS:-2}
export ORACLE

if [ "${1:-}" = "--one" ]; then
  dir=$2
  cd "$dir"
  mapfile -t args < args
  if [ -f env ]; then
    while IFS= read -r line || [ -n "$line" ]; do
      case "$line" in ''|'#'*) continue ;; esac
      export "${line%%=*}=${line#*=}"
    done < env
  fi
  rc=0
  "$ORACLE" "${args[@]}" > expected.json.tmp 2> oracle.stderr.tmp || rc=$?
  if [ "$rc" -gt 1 ] || ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' expected.json.tmp 2>/dev/null; then
    echo "ERROR $dir: oracle exit $rc" >&2
    tail -n 5 oracle.stderr.tmp >&2 || true
    rm -f expected.json.tmp oracle.stderr.tmp
    exit 1
  fi
  mv expected.json.tmp expected.json
  rm -f oracle.stderr.tmp
  echo "ok  $(basename "$dir") (exit $rc)"
  exit 0
fi

# Build the oracle once before running cases in parallel (run.sh compiles on first use).
"$ORACLE" --settings /nonexistent-m2r-settings.xml --security /nonexistent-m2r-security >/dev/null 2>&1 || true

if [ "$#" -gt 0 ]; then
  dirs=("$@")
else
  dirs=()
  for d in "$here"/settings/*/ "$here"/injection/*/; do
    [ -f "$d/args" ] && dirs+=("${d%/}")
  done
fi
printf '%s\0' "${dirs[@]}" | xargs -0 -n 1 -P "$JOBS" "$here/regen.sh" --one
