#!/usr/bin/env bash
# Installs the real servers the download integration tests start on loopback (tests/support/):
# nginx (HTTP/HTTPS repository with basic auth; its dav module takes the deployment tests' PUTs), tinyproxy and squid (authenticating HTTP proxies with
# CONNECT; squid's helpers basic_ncsa_auth, digest_file_auth and ntlm_fake_auth come with it),
# apache2 (a repository answering WWW-Authenticate: Digest with mod_auth_digest, and taking PUTs
# with mod_dav), microsocks
# (authenticating SOCKS5 proxy) and openssl (test CA and certificates).
# Idempotent: installs only what is missing; the tests start and stop the servers themselves.
set -euo pipefail
missing=()
command -v nginx >/dev/null 2>&1 || [[ -x /usr/sbin/nginx ]] || missing+=(nginx)
command -v tinyproxy >/dev/null 2>&1 || [[ -x /usr/bin/tinyproxy ]] || missing+=(tinyproxy)
command -v squid >/dev/null 2>&1 || [[ -x /usr/sbin/squid ]] || missing+=(squid)
command -v microsocks >/dev/null 2>&1 || missing+=(microsocks)
[[ -x /usr/sbin/apache2 && -f /usr/lib/apache2/modules/mod_auth_digest.so && -f /usr/lib/apache2/modules/mod_dav_fs.so ]] || missing+=(apache2)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
if ((${#missing[@]})); then
  echo "test-servers: installing ${missing[*]}" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# the distribution may start its own instances on install; the tests use their own ports and configs
echo "test-servers: nginx tinyproxy squid apache2 microsocks openssl present" >&2
