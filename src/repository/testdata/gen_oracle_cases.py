#!/usr/bin/env python3
"""Regenerate src/repository/testdata/oracle_cases.json with real Maven 3.8.7 answers.

Each case describes settings mirrors/proxies/servers, the repositories of one active settings
profile and `--repo` entries. This script writes a settings.xml for it, runs the oracle
(/work/shared/oracle/run.sh) and stores the case with the oracle's `repositories` list. The
Rust test `repository::oracle_tests` rebuilds the same inputs in Rust and must print the same.

Usage: python3 gen_oracle_cases.py [ORACLE_RUN_SH]
"""
import json, os, subprocess, sys, tempfile
from xml.sax.saxutils import escape

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/oracle/run.sh"


def el(name, value):
    return "" if value is None else f"<{name}>{escape(str(value))}</{name}>"


def policy_xml(tag, p):
    if p is None:
        return ""
    return f"<{tag}>" + el("enabled", p.get("enabled")) + el("updatePolicy", p.get("updatePolicy")) \
        + el("checksumPolicy", p.get("checksumPolicy")) + f"</{tag}>"


def settings_xml(case):
    out = ["<settings>"]
    out.append("<mirrors>")
    for m in case.get("mirrors", []):
        out.append("<mirror>" + "".join(el(k, m.get(k)) for k in
                   ["id", "mirrorOf", "url", "layout", "mirrorOfLayouts", "blocked"]) + "</mirror>")
    out.append("</mirrors><proxies>")
    for p in case.get("proxies", []):
        out.append("<proxy>" + "".join(el(k, p.get(k)) for k in
                   ["id", "active", "protocol", "host", "port", "username", "password", "nonProxyHosts"]) + "</proxy>")
    out.append("</proxies><servers>")
    for s in case.get("servers", []):
        out.append("<server>" + "".join(el(k, s.get(k)) for k in
                   ["id", "username", "password", "privateKey", "passphrase"]) + "</server>")
    out.append("</servers>")
    repos = case.get("profileRepos", [])
    if repos:
        out.append("<profiles><profile><id>p</id><repositories>")
        for r in repos:
            out.append("<repository>" + el("id", r["id"]) + el("url", r["url"]) + el("layout", r.get("layout"))
                       + policy_xml("releases", r.get("releases")) + policy_xml("snapshots", r.get("snapshots"))
                       + "</repository>")
        out.append("</repositories></profile></profiles><activeProfiles><activeProfile>p</activeProfile></activeProfiles>")
    out.append("</settings>")
    return "\n".join(out)


CASES = [
    {"name": "star mirror merges policies of profile and --repo repositories",
     "mirrors": [{"id": "all", "mirrorOf": "*", "url": "http://m/all"}],
     "profileRepos": [
         {"id": "r1", "url": "https://r1/", "releases": {"enabled": "false"},
          "snapshots": {"updatePolicy": "always", "checksumPolicy": "fail"}},
         {"id": "r2", "url": "https://r2/", "releases": {"updatePolicy": "interval:30"},
          "snapshots": {"enabled": "false"}}],
     "repos": ["a=http://x/a", "b=http://y/b"]},
    {"name": "checksum merge less strict and unknown values",
     "mirrors": [{"id": "all", "mirrorOf": "*", "url": "http://m/all"}],
     "profileRepos": [
         {"id": "f", "url": "https://f/", "releases": {"checksumPolicy": "fail", "updatePolicy": "never"},
          "snapshots": {"checksumPolicy": "ignore", "updatePolicy": "bogus"}},
         {"id": "g", "url": "https://g/", "releases": {"checksumPolicy": "bogus", "updatePolicy": "interval:x"},
          "snapshots": {"checksumPolicy": "fail", "updatePolicy": "never"}},
         {"id": "h", "url": "https://h/", "releases": {"checksumPolicy": "fail", "updatePolicy": "interval:2000"},
          "snapshots": {"checksumPolicy": "FAIL", "updatePolicy": "Always"}}]},
    {"name": "all disabled stays disabled",
     "mirrors": [{"id": "all", "mirrorOf": "*", "url": "http://m/all"}],
     "profileRepos": [
         {"id": "d1", "url": "https://d1/", "releases": {"enabled": "false", "updatePolicy": "always"},
          "snapshots": {"enabled": "false", "checksumPolicy": "ignore"}},
         {"id": "d2", "url": "https://d2/", "releases": {"enabled": "false", "checksumPolicy": "fail"},
          "snapshots": {"enabled": "false", "updatePolicy": "never"}}]},
    {"name": "repeated ids: first wins, mirrored repeat not re-added",
     "mirrors": [{"id": "m", "mirrorOf": "a,b", "url": "http://m/"}],
     "profileRepos": [{"id": "a", "url": "https://a1/", "releases": {"updatePolicy": "never"}}],
     "repos": ["a=https://a2/", "c=https://c1/", "c=https://c2/", "b=https://b/", "m=https://plain-m/"]},
    {"name": "plain repository with a mirror's id wins over the mirror",
     "mirrors": [{"id": "m", "mirrorOf": "x", "url": "http://m/"}],
     "repos": ["m=https://plain-m/", "x=https://x/"]},
    {"name": "exact id beats earlier star, exclusions and whitespace",
     "mirrors": [{"id": "star", "mirrorOf": "*,!excluded", "url": "http://star/"},
                 {"id": "exact", "mirrorOf": "central", "url": "http://exact/"},
                 {"id": "spaced", "mirrorOf": "!foo, *", "url": "http://spaced/"}],
     "repos": ["central=https://repo1/", "excluded=https://ex/", "foo=https://foo/", "Central=https://c/"]},
    {"name": "external wildcards and local hosts",
     "mirrors": [{"id": "blocker", "mirrorOf": "external:http:*", "url": "http://0.0.0.0/", "blocked": "true"},
                 {"id": "ext", "mirrorOf": "external:*", "url": "https://ext/"}],
     "repos": ["h=http://plain.example/", "s=https://secure.example/", "l=http://localhost:8080/r",
               "L=http://LOCALHOST/r", "i=http://127.0.0.1/r", "f=file:///tmp/r", "d=dav:http://dav.example/",
               "v6=http://[::1]:8080/r", "ds=dav:https://x/"]},
    {"name": "layouts: legacy mirrored becomes default, p2 not mirrored",
     "mirrors": [{"id": "def", "mirrorOf": "*", "url": "http://m/", "mirrorOfLayouts": "default"},
                 {"id": "any", "mirrorOf": "leg", "url": "http://leg/", "layout": "legacy-ish"}],
     "profileRepos": [{"id": "leg", "url": "https://leg/", "layout": "legacy"},
                      {"id": "p2", "url": "https://p2/", "layout": "p2"},
                      {"id": "plain", "url": "https://plain/"}]},
    {"name": "proxies: per type, nonProxyHosts, https fallback, inactive",
     "proxies": [{"id": "off", "active": "false", "protocol": "http", "host": "off", "port": "1"},
                 {"id": "h1", "protocol": "http", "host": "h1", "port": "3128", "nonProxyHosts": "*.internal|bar.com,baz.com",
                  "username": "pu", "password": "ppw"},
                 {"id": "s1", "protocol": "HTTPS", "host": "s1", "port": "3129", "nonProxyHosts": "*.Secure.ORG| skip.me"},
                 {"id": "h2", "protocol": "http", "host": "h2", "nonProxyHosts": "10.0.0.[0-9]"},
                 {"id": "f1", "protocol": "ftp", "host": "f1", "port": "21"}],
     "repos": ["a=http://plain.example/", "b=https://plain.example/", "c=https://a.secure.org/",
               "d=http://x.internal/", "e=https://x.internal/", "f=http://bar.com/", "g=https://skip.me/",
               "h=dav:https://dav.example/", "i=ftp://ftp.example/", "j=file:///tmp", "k=http://10.0.0.7/"]},
    {"name": "authentication by mirror id, first server wins, passphrase needs key",
     "mirrors": [{"id": "corp", "mirrorOf": "external:*", "url": "https://nexus/"}],
     "servers": [{"id": "corp", "username": "u1", "password": "p1"},
                 {"id": "corp", "username": "u2", "password": "p2"},
                 {"id": "central", "username": "nope", "password": "nope"},
                 {"id": "local", "passphrase": "ignored"},
                 {"id": "keyed", "privateKey": "/k", "passphrase": "pp"},
                 {"id": "pwonly", "password": "only"}],
     "repos": ["central=https://repo1/", "local=http://localhost/", "keyed=http://127.0.0.1/k",
               "pwonly=file:///tmp/x"]},
    {"name": "mirror of mirrors with proxies and auth attached once",
     "mirrors": [{"id": "m1", "mirrorOf": "a,b", "url": "https://m1/"},
                 {"id": "m2", "mirrorOf": "*", "url": "http://m2/"}],
     "proxies": [{"id": "p", "protocol": "http", "host": "proxy", "port": "8888", "nonProxyHosts": "m1"}],
     "servers": [{"id": "m2", "username": "u"}],
     "profileRepos": [{"id": "b", "url": "https://b/", "snapshots": {"enabled": "false"}}],
     "repos": ["a=https://a/", "c=https://c/", "d=https://d/"]},
    {"name": "duplicate ids among mirrors and active proxies, inactive duplicate ignored",
     "mirrors": [{"id": "dup", "mirrorOf": "a", "url": "http://first/"},
                 {"id": "dup", "mirrorOf": "*", "url": "http://second/"}],
     "proxies": [{"id": "px", "active": "false", "protocol": "https", "host": "inactive"},
                 {"id": "px", "protocol": "https", "host": "active1", "password": "nouser"},
                 {"id": "px", "protocol": "http", "host": "active2"}],
     "repos": ["a=https://a/", "b=https://b/", "c=http://c/"]},
    {"name": "proxy host matching uses Maven's host: ipv6 bracket, userinfo, case",
     "proxies": [{"id": "p", "protocol": "http", "host": "p", "nonProxyHosts": "\\[|HOST.EXAMPLE|user*"},
                 {"id": "q", "protocol": "http", "host": "q"}],
     "repos": ["v6=http://[::1]:8080/", "ui=http://user@host.example/", "up=http://HOST.example:80/",
               "odd=http://user@/x"]},
    {"name": "dav protocols and https-only proxy",
     "proxies": [{"id": "s", "protocol": "https", "host": "s", "port": "443"},
                 {"id": "d", "protocol": "dav", "host": "d"}],
     "repos": ["a=dav:http://x/", "b=dav:https://x/", "c=davs://x/", "e=dav://x/", "f=http://x/",
               "g=DAV:HTTPS://x/"]},
    {"name": "mirrorOfLayouts tokens, empty mirror layout, blocked, FILE: protocol",
     "mirrors": [{"id": "nop2", "mirrorOf": "*", "url": "http://nop2/", "mirrorOfLayouts": "*,!p2", "layout": ""},
                 {"id": "p2only", "mirrorOf": "external:*", "url": "http://p2/", "mirrorOfLayouts": "p2",
                  "blocked": "true"}],
     "profileRepos": [{"id": "a", "url": "https://a/", "layout": "p2"},
                      {"id": "b", "url": "FILE:///tmp/b", "layout": "p2"},
                      {"id": "c", "url": "https://c/", "layout": "weird"}]},
    {"name": "proxy and server credentials partially set",
     "proxies": [{"id": "p", "protocol": "http", "host": "p", "username": "onlyuser"}],
     "servers": [{"id": "a", "username": "u", "privateKey": "/key", "passphrase": "pp", "password": "pw"},
                 {"id": "b", "privateKey": "/key"}],
     "repos": ["a=https://a/", "b=https://b/"]},
    {"name": "odd urls and mirrorOf edge tokens",
     "mirrors": [{"id": "e1", "mirrorOf": "!,,", "url": "http://e1/"},
                 {"id": "e2", "mirrorOf": "x,", "url": "http://e2/"},
                 {"id": "e3", "mirrorOf": "external:*,!u1", "url": "http://e3/"}],
     "repos": ["u1=http://user:pw@host.example:81/x", "u2=scp://host:/path", "u3=http://a@b@c/x",
               "x=https://x/", "u4=relative/path"]},
]


def main():
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "none.xml"), "w") as f:
            f.write("<settingsSecurity/>")
        for case in CASES:
            with open(os.path.join(tmp, "settings.xml"), "w") as f:
                f.write(settings_xml(case))
            args = [ORACLE, "--settings", "settings.xml", "--security", "none.xml"]
            for r in case.get("repos", []):
                args += ["--repo", r]
            res = subprocess.run(args, cwd=tmp, capture_output=True, text=True, check=True)
            doc = json.loads(res.stdout)
            if doc["problems"]:
                print(case["name"], "problems:", doc["problems"], file=sys.stderr)
            out.append({"case": case, "expected": doc["repositories"]})
    with open(os.path.join(HERE, "oracle_cases.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"{len(out)} cases written")


if __name__ == "__main__":
    main()
