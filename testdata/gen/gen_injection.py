#!/usr/bin/env python3
"""Writes the inputs of testdata/injection/* (mirror selection, aggregation, repository order, proxy and
authentication injection). Run ../regen.sh afterwards to refresh expected.json."""
from lib import (ENC, ENC_OTHER_SECRET1, S, Writer, active, el, mirror, mirrors, prof, profiles, proxies, proxy,
                 repo, repos_args, security_xml, server, servers, wrap)

W = Writer("injection")
c = W.case
A = repos_args
CENTRAL = "central=https://repo.maven.apache.org/maven2"
BLOCKER = mirror("maven-default-http-blocker", "external:http:*", "http://0.0.0.0/", blocked="true",
                 name="Pseudo repository to mirror external repositories initially using HTTP.")
MIXED = A(CENTRAL, "remote-http=http://repo.example.com/maven2", "local-http=http://localhost:8081/repo",
          "loopback=http://127.0.0.1:8081/repo", "files=file:///srv/repo")


def one_mirror(of, **kw):
    return S(mirrors(mirror("m", of, "https://mirror.example.com/all", **kw)))


# ---------------------------------------------------------------- mirrorOf matching (§4.1)
c("mirror-exact-id", "mirrorOf 'central' mirrors only the repository with id central.",
  one_mirror("central"), args=A(CENTRAL, "other=https://other.example.com/repo"))
c("mirror-star", "mirrorOf '*' mirrors every repository, local and file: ones included, all aggregated behind one mirror.",
  one_mirror("*"), args=MIXED)
c("mirror-external-star", "external:* skips localhost, 127.0.0.1 and file: repositories; remote http/https are mirrored.",
  one_mirror("external:*"), args=MIXED)
c("mirror-external-uppercase-localhost", "external:* compares the host exactly: LOCALHOST is external (mirrored).",
  one_mirror("external:*"), args=A("up=http://LOCALHOST:8081/repo", "low=http://localhost:8081/repo"))
c("mirror-external-ipv6", "external:* with http://[::1]:8081/ (host parses as '[') is external; 127.0.0.2 is external too.",
  one_mirror("external:*"), args=A("v6=http://[::1]:8081/repo", "lo2=http://127.0.0.2/repo"))
c("mirror-external-file-uppercase", "external:* treats FILE: (any case) as local.",
  one_mirror("external:*"), args=A("f1=FILE:///srv/repo", "f2=file:/srv/repo2"))
c("mirror-external-userinfo-port", "external:* host parsing strips user info and port: http://user@localhost:8080/ is local.",
  one_mirror("external:*"), args=A("ui=http://user@localhost:8080/repo", "ui2=https://user:pw@repo.example.com:8443/r"))
c("mirror-external-http-protocols", "external:http:* matches http, dav:http, dav+http and dav (remote), not https or dav:https.",
  one_mirror("external:http:*"),
  args=A("h=http://repo.example.com/r", "s=https://repo.example.com/r", "dh=dav:http://repo.example.com/r",
         "ds=dav:https://repo.example.com/r", "dp=dav+http://repo.example.com/r", "d=dav://repo.example.com/r"))
c("mirror-external-http-local", "external:http:* does not match http://localhost or http://127.0.0.1.",
  one_mirror("external:http:*"), args=A("lh=http://localhost/r", "lb=http://127.0.0.1/r", "ext=http://10.0.0.1/r"))
c("mirror-external-http-uppercase-scheme", "external:http:* compares the protocol case-insensitively (HTTP:// matches).",
  one_mirror("external:http:*"), args=A("up=HTTP://repo.example.com/r", "s=HTTPS://repo.example.com/r"))
c("mirror-list", "mirrorOf 'a,b' mirrors a and b, not c.",
  one_mirror("a,b"), args=A("a=https://a.example.com/", "b=https://b.example.com/", "c=https://c.example.com/"))
c("mirror-star-exclude", "mirrorOf '*,!b': everything except b.",
  one_mirror("*,!b"), args=A("a=https://a.example.com/", "b=https://b.example.com/", "c=https://c.example.com/"))
c("mirror-exclude-star", "mirrorOf '!b,*': same result as '*,!b'.",
  one_mirror("!b,*"), args=A("a=https://a.example.com/", "b=https://b.example.com/", "c=https://c.example.com/"))
c("mirror-id-then-exclude", "mirrorOf 'a,!a': the exact id comes first and wins (a mirrored).",
  one_mirror("a,!a"), args=A("a=https://a.example.com/", "b=https://b.example.com/"))
c("mirror-exclude-then-id", "mirrorOf '!a,a': the exclusion comes first and wins (a not mirrored).",
  one_mirror("!a,a"), args=A("a=https://a.example.com/", "b=https://b.example.com/"))
c("mirror-exclude-only", "mirrorOf '!a' alone mirrors nothing.",
  one_mirror("!a"), args=A("a=https://a.example.com/", "b=https://b.example.com/"))
c("mirror-external-exclude", "mirrorOf 'external:*,!ext2': remote repos except ext2; localhost stays.",
  one_mirror("external:*,!ext2"),
  args=A("ext1=https://e1.example.com/", "ext2=https://e2.example.com/", "lh=http://localhost/r"))
c("mirror-star-then-exclude-external", "mirrorOf 'external:*,local-http' adds a local repo by id.",
  one_mirror("external:*,local-http"), args=MIXED)
c("mirror-whitespace-star-exclude", "mirrorOf '*, !foo': ' !foo' is not an exclusion, so foo IS mirrored (MNG-6432).",
  one_mirror("*, !foo"), args=A("foo=https://foo.example.com/", "bar=https://bar.example.com/"))
c("mirror-whitespace-exclude-star", "mirrorOf '!foo, *': ' *' is not a wildcard, so nothing is mirrored.",
  one_mirror("!foo, *"), args=A("foo=https://foo.example.com/", "bar=https://bar.example.com/"))
c("mirror-whitespace-list", "mirrorOf 'a, b': the token ' b' does not match id b; only a is mirrored.",
  one_mirror("a, b"), args=A("a=https://a.example.com/", "b=https://b.example.com/"))
c("mirror-empty-tokens", "mirrorOf ',a,,': empty tokens are ignored; a is mirrored.",
  one_mirror(",a,,"), args=A("a=https://a.example.com/", "b=https://b.example.com/"))
c("mirror-case-sensitive", "mirrorOf 'Central' does not match id central (case-sensitive).",
  one_mirror("Central"), args=A(CENTRAL, "Central=https://upper.example.com/"))
c("mirror-exact-beats-wildcard", "Pass 1 exact match wins over an earlier '*' mirror.",
  S(mirrors(mirror("star", "*", "https://star.example.com/"), mirror("exact", "central", "https://exact.example.com/"))),
  args=A(CENTRAL, "other=https://other.example.com/"))
c("mirror-first-wildcard-wins", "Two '*' mirrors: the first in settings order wins.",
  S(mirrors(mirror("first", "*", "https://first.example.com/"), mirror("second", "*", "https://second.example.com/"))),
  args=A(CENTRAL))
c("mirror-list-not-exact-pass", "mirrorOf 'central,x' is not an exact match (pass 2); an earlier '*' mirror wins.",
  S(mirrors(mirror("star", "*", "https://star.example.com/"), mirror("list", "central,x", "https://list.example.com/"))),
  args=A(CENTRAL))
c("mirror-whole-string-id", "A repository whose id is literally 'a,b' is matched exactly by mirrorOf 'a,b' (pass 1).",
  S(mirrors(mirror("m", "a,b", "https://m.example.com/"))), args=A("a,b=https://ab.example.com/", "a=https://a.example.com/"))
c("mirror-duplicate-ids", "Two mirrors with the same id: only the first is added to the selector.",
  S(mirrors(mirror("m", "central", "https://first.example.com/"), mirror("m", "*", "https://second.example.com/"))),
  args=A(CENTRAL, "other=https://other.example.com/"))
c("mirror-of-mirror-id", "A mirror is not mirrored again: the mirror m1 made for central is not re-mirrored by m2 (mirrorOf m1), while the declared repo m1 is.",
  S(mirrors(mirror("m1", "central", "https://m1.example.com/"), mirror("m2", "m1", "https://m2.example.com/"))),
  args=A(CENTRAL, "m1=https://direct-m1.example.com/"))
c("mirror-id-equals-repo-id", "Repository 'm' declared directly plus mirror 'm' of central: the mirror repo has the same id as the direct one, so aggregation keeps the direct m and central disappears.",
  S(mirrors(mirror("m", "central", "https://mirror.example.com/"))), args=A("m=https://direct.example.com/", CENTRAL))

# ---------------------------------------------------------------- mirrorOfLayouts / layout (§4.1, §4.2)
def layout_profile(*rs):
    return profiles(prof("lay", repos=list(rs))) + active("lay")


LEG = repo("leg", "https://leg.example.com/", layout="legacy")
P2 = repo("p2", "https://p2.example.com/", layout="p2")
DEF = repo("def", "https://def.example.com/")
c("layouts-default-mirror-on-legacy", "Default mirrorOfLayouts (default,legacy): a legacy repo is mirrored and takes the mirror layout 'default'.",
  S(mirrors(mirror("m", "*", "https://m.example.com/")) + layout_profile(LEG, DEF)))
c("layouts-default-only", "mirrorOfLayouts 'default': the legacy repo is not mirrored, the default one is.",
  S(mirrors(mirror("m", "*", "https://m.example.com/", layouts="default")) + layout_profile(LEG, DEF)))
c("layouts-p2-not-mirrored", "A p2-layout repository is not mirrored by a mirror with default mirrorOfLayouts.",
  S(mirrors(mirror("m", "*", "https://m.example.com/")) + layout_profile(P2, DEF)))
c("layouts-star", "mirrorOfLayouts '*': the p2 repo is mirrored too and gets the mirror's layout.",
  S(mirrors(mirror("m", "*", "https://m.example.com/", layouts="*")) + layout_profile(P2, DEF)))
c("layouts-not-legacy", "mirrorOfLayouts '!legacy' alone matches nothing (no positive token): neither repo mirrored.",
  S(mirrors(mirror("m", "*", "https://m.example.com/", layouts="!legacy")) + layout_profile(LEG, DEF)))
c("layouts-star-not-legacy", "mirrorOfLayouts '*,!legacy': default and p2 mirrored, legacy not.",
  S(mirrors(mirror("m", "*", "https://m.example.com/", layouts="*,!legacy")) + layout_profile(LEG, P2, DEF)))
c("layouts-p2-mirror", "A mirror with layout p2 and mirrorOfLayouts p2: the p2 repo is mirrored and keeps content type p2.",
  S(mirrors(mirror("m", "*", "https://m.example.com/", layout="p2", layouts="p2")) + layout_profile(P2, DEF)))
c("layouts-empty-element", "Empty <mirrorOfLayouts></mirrorOfLayouts> and <layout></layout> stay empty: empty layouts match every repo layout, and an empty mirror layout keeps the first original's (p2).",
  S(mirrors(mirror("m", "*", "https://m.example.com/", layout="", layouts="")) + layout_profile(P2, DEF)))
c("layouts-two-mirrors", "First mirror only for default layout, second for p2: each repo goes to its own mirror.",
  S(mirrors(mirror("md", "*", "https://md.example.com/", layouts="default"),
            mirror("mp", "*", "https://mp.example.com/", layout="p2", layouts="p2")) + layout_profile(P2, DEF)))

# ---------------------------------------------------------------- blocked mirrors and the http blocker (§4.2)
c("mirror-blocked", "A mirror with blocked=true: the mirror repository is marked blocked.",
  S(mirrors(mirror("m", "central", "https://m.example.com/", blocked="true"))), args=A(CENTRAL, "o=https://o.example.com/"))
c("http-blocker-global", "Global settings hold maven-default-http-blocker: remote http repos go to the blocked mirror, https and localhost do not.",
  S(""), gs=S(mirrors(BLOCKER)), args=MIXED)
c("http-blocker-overridden-by-user", "A user mirror with id maven-default-http-blocker (not blocked) replaces the global blocker.",
  S(mirrors(mirror("maven-default-http-blocker", "external:dummy:*", "http://0.0.0.0/", blocked="false"))),
  gs=S(mirrors(BLOCKER)), args=MIXED)
c("http-blocker-user-star-first", "A user '*' mirror comes before the global blocker, so http repos go to the user mirror.",
  S(mirrors(mirror("corp", "*", "https://corp.example.com/all"))), gs=S(mirrors(BLOCKER)), args=MIXED)
c("http-blocker-exact-user-mirror", "A user mirror for the http repo id (exact, pass 1) beats the global blocker.",
  S(mirrors(mirror("fix-http", "remote-http", "https://fixed.example.com/r"))), gs=S(mirrors(BLOCKER)), args=MIXED)
c("http-blocker-external-user-mirror", "A user external:* mirror comes first: remote http AND https go to it, blocker unused.",
  S(mirrors(mirror("ext", "external:*", "https://ext.example.com/"))), gs=S(mirrors(BLOCKER)), args=MIXED)
c("http-blocker-profile-repo", "The blocker also catches an http repository declared in an active settings profile.",
  S(profiles(prof("p", repos=[repo("insecure", "http://insecure.example.com/repo")])) + active("p")),
  gs=S(mirrors(BLOCKER)), args=A(CENTRAL))
c("http-blocker-with-auth", "A server with the blocker's id gives the blocked mirror credentials (auth follows the mirror id).",
  S(servers(server("maven-default-http-blocker", "bu", "bp"))), gs=S(mirrors(BLOCKER)), args=MIXED)

# ---------------------------------------------------------------- aggregation (§4.3)
def agg(*rs, mirror_of="*"):
    return S(mirrors(mirror("m", mirror_of, "https://m.example.com/all")) + profiles(prof("p", repos=list(rs))) + active("p"))


c("agg-update-policy-most-frequent", "Repos behind one mirror: updatePolicy merges to the most frequent (always < interval < daily < never).",
  agg(repo("r1", "https://r1.example.com/", rel=(None, "never", None), snap=(None, "daily", None)),
      repo("r2", "https://r2.example.com/", rel=(None, "interval:60", None), snap=(None, "always", None)),
      repo("r3", "https://r3.example.com/", rel=(None, "daily", None), snap=(None, "interval:5", None))))
c("agg-update-policy-intervals", "interval:30 vs interval:120 -> interval:30; interval:1440 vs daily is a tie (second argument wins).",
  agg(repo("r1", "https://r1.example.com/", rel=(None, "interval:120", None), snap=(None, "interval:1440", None)),
      repo("r2", "https://r2.example.com/", rel=(None, "interval:30", None), snap=(None, "daily", None))))
c("agg-update-policy-tie-order", "Tie order reversed: daily then interval:1440 -> interval:1440; never then unknown 'weekly' -> weekly (ties keep the second).",
  agg(repo("r1", "https://r1.example.com/", rel=(None, "daily", None), snap=(None, "never", None)),
      repo("r2", "https://r2.example.com/", rel=(None, "interval:1440", None), snap=(None, "weekly", None))))
c("agg-update-policy-unknown", "An unknown updatePolicy ('weekly') counts as never when merging; a known one wins.",
  agg(repo("r1", "https://r1.example.com/", rel=(None, "weekly", None), snap=(None, "weekly", None)),
      repo("r2", "https://r2.example.com/", rel=(None, "never", None), snap=(None, "interval:10", None))))
c("agg-checksum-least-strict", "checksumPolicy merges to the least strict (ignore < warn < fail).",
  agg(repo("r1", "https://r1.example.com/", rel=(None, None, "fail"), snap=(None, None, "fail")),
      repo("r2", "https://r2.example.com/", rel=(None, None, "warn"), snap=(None, None, "ignore")),
      repo("r3", "https://r3.example.com/", rel=(None, None, "fail"), snap=(None, None, "warn"))))
c("agg-checksum-all-fail", "Releases fail+fail -> fail; snapshots: unknown checksum 'bogus' merged with the default warn.",
  agg(repo("r1", "https://r1.example.com/", rel=(None, None, "fail"), snap=(None, None, "bogus")),
      repo("r2", "https://r2.example.com/", rel=(None, None, "fail")), mirror_of="r1,r2"))
c("agg-enabled-disabled", "Releases disabled on the first repo, enabled on the second: the enabled policy is taken.",
  agg(repo("r1", "https://r1.example.com/", rel=("false", "always", "fail"), snap=("true", "never", "fail")),
      repo("r2", "https://r2.example.com/", rel=("true", "never", "ignore"), snap=("false", "always", "ignore"))))
c("agg-all-disabled", "Snapshots disabled everywhere: the merged snapshot policy stays disabled (dominant kept).",
  agg(repo("r1", "https://r1.example.com/", snap=("false", "always", "fail")),
      repo("r2", "https://r2.example.com/", snap=("false", "never", "ignore"))))
c("agg-first-repo-fields", "The mirror repository keeps the first repository's policies when the rest are identical; mirrored order = declaration order.",
  agg(repo("z", "https://z.example.com/"), repo("a", "https://a.example.com/"), repo("m2", "https://m2.example.com/")))
c("agg-mixed-mirrors", "Two mirrors: repos aggregate per mirror, unmirrored ones stay in place.",
  S(mirrors(mirror("ma", "a1,a2", "https://ma.example.com/"), mirror("mb", "b1,b2", "https://mb.example.com/"))),
  args=A("a1=https://a1.example.com/", "b1=https://b1.example.com/", "x=https://x.example.com/",
         "a2=https://a2.example.com/", "b2=https://b2.example.com/"))
c("agg-cli-and-profile", "Profile repos and --repo repos behind the same mirror aggregate into one entry (profile repos first).",
  S(mirrors(mirror("m", "*", "https://m.example.com/all"))
    + profiles(prof("p", repos=[repo("pr", "https://pr.example.com/", snap=("false", None, None))])) + active("p")),
  args=A(CENTRAL, "other=https://other.example.com/"))
c("agg-repeated-mirrored-id", "The same repo id twice behind a mirror: listed once in mirroredRepositories.",
  one_mirror("*"), args=A("a=https://a1.example.com/", "a=https://a2.example.com/", "b=https://b.example.com/"))

# ---------------------------------------------------------------- repeated ids and repository order (§2.7, §4.3)
c("order-repeated-cli-id", "--repo a twice with different urls: the first one wins.",
  S(""), args=A("a=https://first.example.com/", "b=https://b.example.com/", "a=https://second.example.com/"))
c("order-profile-overrides-cli-id", "A profile repository with the same id as a --repo entry: profile injection merges by id, the profile's url and policies replace the --repo entry.",
  S(profiles(prof("p", repos=[repo("central", "https://profile-central.example.com/", rel=("true", "always", "fail"))]))
    + active("p")), args=A(CENTRAL, "other=https://other.example.com/"))
c("order-two-profiles-same-id", "Two active profiles declare repository 'shared': the last-activated profile's one comes first and wins.",
  S(profiles(prof("a", repos=[repo("shared", "https://from-a.example.com/")]),
             prof("b", repos=[repo("shared", "https://from-b.example.com/")])) + active("a", "b")))
c("order-active-profiles", "Several active profiles: the last-activated profile's repositories come first; each profile keeps its own order.",
  S(profiles(prof("a", repos=[repo("a1", "https://a1.example.com/"), repo("a2", "https://a2.example.com/")]),
             prof("b", repos=[repo("b1", "https://b1.example.com/"), repo("b2", "https://b2.example.com/")]),
             prof("c", repos=[repo("c1", "https://c1.example.com/")])) + active("a", "b", "c")), args=A(CENTRAL))
c("order-active-profiles-reversed", "activeProfiles listed c,b,a: activation follows profile declaration order, not the activeProfiles order.",
  S(profiles(prof("a", repos=[repo("a1", "https://a1.example.com/")]), prof("b", repos=[repo("b1", "https://b1.example.com/")]),
             prof("c", repos=[repo("c1", "https://c1.example.com/")])) + active("c", "b", "a")), args=A(CENTRAL))
c("order-cli-profiles", "-P c,a with no activeProfiles: repository order is decided by profile declaration order.",
  S(profiles(prof("a", repos=[repo("a1", "https://a1.example.com/")]), prof("b", repos=[repo("b1", "https://b1.example.com/")]),
             prof("c", repos=[repo("c1", "https://c1.example.com/")]))), args=["-P", "c,a"] + A(CENTRAL))
c("order-mixed-activation", "Profiles active by activeByDefault, property, activeProfiles and -P (declared in that order): repositories in reverse declaration order.",
  S(profiles(prof("def", repos=[repo("r-def", "https://def.example.com/")], act=el("activeByDefault", "true")),
             prof("prop", repos=[repo("r-prop", "https://prop.example.com/")], act=wrap("property", el("name", "useprop"))),
             prof("listed", repos=[repo("r-listed", "https://listed.example.com/")]),
             prof("cli", repos=[repo("r-cli", "https://cli.example.com/")])) + active("listed")),
  args=["-P", "cli", "-Duseprop"] + A(CENTRAL))
c("order-global-profiles", "Global-only profiles are merged after user profiles, so the global profile's repository comes first (last activated first).",
  S(profiles(prof("u", repos=[repo("r-u", "https://u.example.com/")])) + active("u", "g")),
  gs=S(profiles(prof("g", repos=[repo("r-g", "https://g.example.com/")]))), args=A(CENTRAL))
c("order-plugin-repos-ignored", "pluginRepositories of an active profile do not appear among the (artifact) repositories.",
  S(profiles(prof("p", repos=[repo("r", "https://r.example.com/")],
                  plugin_repos=[repo("pr", "https://pr.example.com/", tag="pluginRepository")])) + active("p")))

# ---------------------------------------------------------------- proxies (§5)
HTTP_HTTPS = A("plain=http://repo.example.com/r", "secure=https://repo.example.com/r")
c("proxy-http-only", "Only an http proxy: used for both http and https repositories.",
  S(proxies(proxy("p", "proxy.example.com", "3128"))), args=HTTP_HTTPS)
c("proxy-https-only", "Only an https proxy: used for https repos, never for http repos.",
  S(proxies(proxy("p", "sproxy.example.com", "3129", protocol="https"))), args=HTTP_HTTPS)
c("proxy-both", "http and https proxies: each protocol gets its own.",
  S(proxies(proxy("ph", "hproxy.example.com", "3128"), proxy("ps", "sproxy.example.com", "3129", protocol="https"))),
  args=HTTP_HTTPS)
c("proxy-https-fallback", "The https proxy excludes the host, the http proxy does not: the https repo falls back to the http proxy.",
  S(proxies(proxy("ps", "sproxy.example.com", "3129", protocol="https", nph="repo.example.com"),
            proxy("ph", "hproxy.example.com", "3128"))), args=HTTP_HTTPS)
c("proxy-first-per-type", "Two active http proxies with different ids: the first one wins for http.",
  S(proxies(proxy("p1", "first.example.com"), proxy("p2", "second.example.com"))), args=HTTP_HTTPS)
c("proxy-first-excluded-second-used", "The first http proxy excludes the host, so the second http proxy is used.",
  S(proxies(proxy("p1", "first.example.com", nph="*.example.com"), proxy("p2", "second.example.com"))), args=HTTP_HTTPS)
c("proxy-inactive", "An inactive proxy is never used.",
  S(proxies(proxy("p", "proxy.example.com", active="false"))), args=HTTP_HTTPS)
c("proxy-inactive-then-active", "Inactive proxy first, active proxy second: the active one is used.",
  S(proxies(proxy("off", "off.example.com", active="false"), proxy("on", "on.example.com"))), args=HTTP_HTTPS)
c("proxy-duplicate-ids", "Two active proxies with the same id but different protocols: the second is dropped (de-dup by id).",
  S(proxies(proxy("p", "hproxy.example.com"), proxy("p", "sproxy.example.com", protocol="https"))), args=HTTP_HTTPS)
c("proxy-duplicate-id-inactive-first", "Same id, first inactive and second active: the inactive one is dropped first, so the second is used.",
  S(proxies(proxy("p", "off.example.com", active="false"), proxy("p", "on.example.com"))), args=HTTP_HTTPS)
c("proxy-protocol-case", "Proxy protocol 'HTTPS' / 'Http' is matched case-insensitively; the attached proxy type keeps the written case.",
  S(proxies(proxy("ps", "sproxy.example.com", protocol="HTTPS"), proxy("ph", "hproxy.example.com", protocol="Http"))),
  args=HTTP_HTTPS)
c("proxy-socks-never-matches", "A proxy with protocol socks5 never matches http/https repositories.",
  S(proxies(proxy("s", "socks.example.com", "1080", protocol="socks5"))), args=HTTP_HTTPS)
c("proxy-dav-protocols", "dav:http/dav use the http proxy, dav:https/davs the https proxy.",
  S(proxies(proxy("ph", "hproxy.example.com"), proxy("ps", "sproxy.example.com", protocol="https"))),
  args=A("dh=dav:http://repo.example.com/r", "d=dav://repo.example.com/r", "ds=dav:https://repo.example.com/r",
         "dss=davs://repo.example.com/r"))
c("proxy-ftp", "An ftp proxy only serves ftp repositories.",
  S(proxies(proxy("pf", "fproxy.example.com", protocol="ftp"))),
  args=A("f=ftp://repo.example.com/r", "h=http://repo.example.com/r"))
c("proxy-file-repo", "An http proxy is not used for a file: repository.",
  S(proxies(proxy("p", "proxy.example.com"))), args=A("files=file:///srv/repo", "h=http://repo.example.com/r"))
c("proxy-mirror-host", "After mirroring, the proxy decision uses the MIRROR url's host (nonProxyHosts lists the mirror host).",
  S(mirrors(mirror("m", "central", "https://mirror.internal/maven2"))
    + proxies(proxy("p", "proxy.example.com", nph="mirror.internal"))), args=A(CENTRAL, "other=https://other.example.com/"))
c("proxy-with-credentials", "Proxy username/password are attached to the proxy.",
  S(proxies(proxy("p", "proxy.example.com", "3128", user="pu", pw="ppw"))), args=HTTP_HTTPS)
c("proxy-encrypted-password", "Encrypted proxy password is decrypted before the proxy is attached.",
  S(proxies(proxy("p", "proxy.example.com", "3128", user="pu", pw=ENC["proxypw"]))), sec=security_xml(), args=HTTP_HTTPS)
c("proxy-encrypted-password-fails", "Proxy password encrypted under another master: decrypt ERROR, the {...} text is attached as password.",
  S(proxies(proxy("p", "proxy.example.com", "3128", user="pu", pw=ENC_OTHER_SECRET1))), sec=security_xml(), args=HTTP_HTTPS)
c("proxy-username-only", "Proxy with username but no password.",
  S(proxies(proxy("p", "proxy.example.com", user="pu"))), args=HTTP_HTTPS)

NPH_REPOS = A("a=https://a.example.com/r", "b=https://b.example.com/r", "x=https://x.com/r", "sub=https://deep.sub.x.com/r",
              "lh=http://localhost:8080/r", "ip=http://10.1.2.3/r")
for name, nph, what in [
    ("pipe", "a.example.com|b.example.com", "two hosts separated by |"),
    ("wildcard", "*.x.com", "*.x.com excludes deep.sub.x.com but not x.com"),
    ("wildcard-bare", "*x.com", "*x.com excludes x.com and deep.sub.x.com"),
    ("case-insensitive", "A.EXAMPLE.COM|*.X.Com", "patterns match case-insensitively"),
    ("comma-not-separator", "a.example.com,b.example.com", "',' is not a separator: the single pattern matches neither host"),
    ("leading-space", " a.example.com| b.example.com", "the outer text is trimmed (a excluded) but the space before b.example.com stays part of that pattern (b proxied)"),
    ("empty-tokens", "||a.example.com||", "empty tokens between | are ignored"),
    ("star", "*", "'*' excludes every host"),
    ("localhost-ip", "localhost|10.*", "localhost and 10.* (by IP prefix) excluded"),
    ("with-port", "a.example.com:443|localhost:8080", "a pattern with a port never matches (the host has no port)"),
    ("regex-meta", "a.example.co?|b+.example.com", "regex metacharacters other than . and * keep their regex meaning (co? does not match com; b+ matches b)"),
    ("middle-wildcard", "a.*.com", "a.*.com excludes a.example.com"),
]:
    c("nph-" + name, "nonProxyHosts '%s': %s." % (nph, what),
      S(proxies(proxy("p", "proxy.example.com", "3128", nph=nph))), args=NPH_REPOS)
c("nph-ipv6-url", "Repository URL with an IPv6 literal: the host parses as '[' so nonProxyHosts '::1' does not exclude it; 127.0.0.1 is excluded.",
  S(proxies(proxy("p", "proxy.example.com", "3128", nph="::1|127.0.0.1"))), args=A("v6=http://[::1]:8080/r", "v4=http://127.0.0.1/r"))
c("nph-port-in-repo-url", "The repository URL's port is ignored for nonProxyHosts matching (host only).",
  S(proxies(proxy("p", "proxy.example.com", "3128", nph="repo.example.com"))),
  args=A("p1=https://repo.example.com:8443/r", "p2=http://repo.example.com:8080/r", "p3=https://other.example.com:443/r"))
c("nph-userinfo-in-repo-url", "User info in the repository URL is stripped before host matching.",
  S(proxies(proxy("p", "proxy.example.com", "3128", nph="repo.example.com"))),
  args=A("u=https://user:pw@repo.example.com/r", "o=https://user@other.example.com/r"))
c("nph-newline-separated", "nonProxyHosts written over several lines: newlines/indent are part of the patterns (only the outer text is trimmed).",
  S(proxies(proxy("p", "proxy.example.com", "3128", nph="a.example.com|\n        b.example.com"))), args=NPH_REPOS)

# ---------------------------------------------------------------- authentication (§6)
c("auth-by-repo-id", "A server whose id equals the repository id gives username/password; other repos get none.",
  S(servers(server("central", "cu", "cp"))), args=A(CENTRAL, "other=https://other.example.com/"))
c("auth-by-mirror-id", "Mirrored repos take credentials of the MIRROR id; the server for the original repo id is not used.",
  S(servers(server("central", "cu", "cp"), server("m", "mu", "mp"))
    + mirrors(mirror("m", "central", "https://m.example.com/"))), args=A(CENTRAL, "other=https://other.example.com/"))
c("auth-mirror-without-server", "A mirror with no server entry: no authentication even though the mirrored repo has a server.",
  S(servers(server("central", "cu", "cp")) + mirrors(mirror("m", "*", "https://m.example.com/"))), args=A(CENTRAL))
c("auth-private-key-passphrase", "Server with privateKey and passphrase (no password).",
  S(servers(server("r", "git", key="/home/u/.ssh/id_rsa", phrase="kp"))), args=A("r=https://r.example.com/"))
c("auth-passphrase-without-key", "A passphrase without privateKey is not added to the authentication.",
  S(servers(server("r", "u", "p", phrase="kp"))), args=A("r=https://r.example.com/"))
c("auth-private-key-only", "Server with only a privateKey: authentication with privateKey, no username.",
  S(servers(server("r", key="keys/id_ed25519"))), args=A("r=https://r.example.com/"))
c("auth-configuration-only", "Server with only <configuration> (headers): no authentication attached.",
  S(servers(server("r", config=wrap("httpHeaders", wrap("property", el("name", "X-Token") + el("value", "abc")))))),
  args=A("r=https://r.example.com/"))
c("auth-empty-server", "Server with only an id: no authentication.",
  S(servers(server("r"))), args=A("r=https://r.example.com/"))
c("auth-empty-password", "Server with an empty <password></password>: what the authentication holds.",
  S(servers(server("r", "u", ""))), args=A("r=https://r.example.com/"))
c("auth-duplicate-server-ids", "Duplicate server ids: the first one authenticates (WARNING for the duplicate).",
  S(servers(server("r", "first", "p1"), server("r", "second", "p2"))), args=A("r=https://r.example.com/"))
c("auth-user-over-global-server", "User server and global server with the same id: the user one authenticates.",
  S(servers(server("r", "user", "up"))), gs=S(servers(server("r", "global", "gp"), server("g", "gonly", "gop"))),
  args=A("r=https://r.example.com/", "g=https://g.example.com/"))
c("auth-encrypted-password", "Encrypted server password decrypted into the repository authentication.",
  S(servers(server("r", "u", ENC["secret1"]))), sec=security_xml(), args=A("r=https://r.example.com/"))
c("auth-encrypted-mirror-password", "Encrypted password of the mirror's server reaches the mirror repository.",
  S(servers(server("m", "mu", ENC["mirrorpw"])) + mirrors(mirror("m", "*", "https://m.example.com/"))), sec=security_xml(),
  args=A(CENTRAL, "other=https://other.example.com/"))
c("auth-encrypted-passphrase", "Encrypted passphrase decrypted for a server with privateKey.",
  S(servers(server("r", "u", key="keys/id_rsa", phrase=ENC["keyphrase"]))), sec=security_xml(), args=A("r=https://r.example.com/"))
c("auth-encrypted-fails", "Encrypted password that does not decrypt: decrypt ERROR, the {...} text is used as password.",
  S(servers(server("r", "u", ENC_OTHER_SECRET1))), sec=security_xml(), args=A("r=https://r.example.com/"))
c("auth-profile-repo", "A repository from an active profile gets the server with its id.",
  S(servers(server("pr", "pu", "pp")) + profiles(prof("p", repos=[repo("pr", "https://pr.example.com/")])) + active("p")))
c("auth-and-proxy-together", "A repository gets both its server credentials and the proxy with proxy credentials.",
  S(servers(server("r", "u", "p")) + proxies(proxy("px", "proxy.example.com", "3128", user="pu", pw="pp"))),
  args=A("r=https://r.example.com/"))
c("auth-case-sensitive-id", "Server ids match case-sensitively: server 'Central' does not authenticate 'central'.",
  S(servers(server("Central", "u", "p"))), args=A(CENTRAL))
c("auth-mirror-blocked", "A blocked mirror still gets its server credentials attached.",
  S(servers(server("m", "mu", "mp")) + mirrors(mirror("m", "central", "https://m.example.com/", blocked="true"))), args=A(CENTRAL))
c("auth-interpolated-env", "Server password from ${env.X} reaches the repository authentication.",
  S(servers(server("r", "${env.M2R_FIX_USER}", "${env.M2R_FIX_PASS}"))),
  env=[("M2R_FIX_USER", "ci-bot"), ("M2R_FIX_PASS", "t0k3n")], args=A("r=https://r.example.com/"))

# ---------------------------------------------------------------- everything together
c("combo-corporate", "Typical corporate setup: global blocker, user '*' mirror with encrypted credentials, proxy with nonProxyHosts, profile repos.",
  S(servers(server("corp", "deployer", ENC["mirrorpw"]))
    + mirrors(mirror("corp", "*,!local-snap", "https://nexus.corp.example/repository/public"))
    + proxies(proxy("px", "proxy.corp.example", "3128", user="pxu", pw=ENC["proxypw"], nph="localhost|*.internal"))
    + profiles(prof("corp", repos=[repo("local-snap", "http://localhost:8081/snapshots", rel=("false", None, None),
                                        snap=("true", "always", "fail")),
                                   repo("extra", "https://extra.example.com/r")])) + active("corp")),
  gs=S(mirrors(BLOCKER)), sec=security_xml(), args=A(CENTRAL, "legacy-http=http://old.example.com/r"))
c("combo-mirror-proxy-auth-https-fallback", "Mirror on http, https-only proxy: the http mirror gets no proxy; auth by mirror id.",
  S(servers(server("m", "u", "p")) + mirrors(mirror("m", "*", "http://mirror.example.com/all"))
    + proxies(proxy("ps", "sproxy.example.com", protocol="https"))), args=A(CENTRAL))

# ---------------------------------------------------------------- odd URLs
c("mirror-external-odd-urls", "external:* with odd URLs: no scheme, Http://LocalHost and http://localhost. are external (mirrored); file:relative/dir is local.",
  one_mirror("external:*"), args=A("noscheme=repo.example.com/maven2", "mixed=Http://LocalHost/r", "fileish=file:relative/dir",
                                   "lh-dots=http://localhost./r"))
c("proxy-uppercase-scheme", "HTTPS:// and HTTP:// repository URLs pick the https / http proxy (protocol lower-cased).",
  S(proxies(proxy("ph", "hproxy.example.com"), proxy("ps", "sproxy.example.com", protocol="https"))),
  args=A("up=HTTPS://repo.example.com/r", "uh=HTTP://repo.example.com/r"))
c("nph-uppercase-url-host", "nonProxyHosts matches a host written in upper case in the URL (case-insensitive).",
  S(proxies(proxy("p", "proxy.example.com", nph="repo.example.com"))),
  args=A("up=https://REPO.Example.COM/r", "other=https://other.example.com/r"))
c("order-disabled-repo-kept", "A profile repository with releases and snapshots disabled is still listed.",
  S(profiles(prof("p", repos=[repo("off", "https://off.example.com/", rel=("false", None, None), snap=("false", None, None))]))
    + active("p")), args=A(CENTRAL))

W.prune()
print("injection cases:", len(W.names))
