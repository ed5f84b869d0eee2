#!/usr/bin/env bash
# Runs every test of m2resolver on a fresh Debian machine: installs what the tests need
# (the real servers of the download tests; Java and Maven for the tests that ask real Maven; the
# dependency plugin and junit4 for the real `mvn dependency:tree` of the tree tests' oracle),
# then `cargo test`. Idempotent; `.ci/run` calls exactly this script.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v java >/dev/null 2>&1 || need+=(openjdk-17-jdk-headless)
[[ -d /usr/share/maven/lib ]] || need+=(maven)
# ../shared/oracle/mvn-tree.py: maven-dependency-plugin 3.5.0 and the junit4 its POM names
[[ -d /usr/share/maven-repo/org/apache/maven/plugins/maven-dependency-plugin ]] || need+=(libmaven-dependency-plugin-java)
[[ -d /usr/share/maven-repo/junit/junit ]] || need+=(junit4)
command -v python3 >/dev/null 2>&1 || need+=(python3)
# the publishing oracle (../shared/oracle/mvn-publish.py, scripts/gen_publish_fixtures.py)
[[ -d /usr/share/maven-repo/org/apache/maven/plugins/maven-install-plugin ]] || need+=(libmaven-install-plugin-java)
[[ -d /usr/share/maven-repo/org/apache/maven/plugins/maven-deploy-plugin ]] || need+=(libmaven-deploy-plugin-java)
if ((${#need[@]})); then
  echo "test.sh: installing ${need[*]}" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
if [[ -f scripts/test-servers.sh ]]; then
  bash scripts/test-servers.sh
fi

cargo test
