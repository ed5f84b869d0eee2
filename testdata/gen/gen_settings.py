#!/usr/bin/env python3
"""Writes the inputs of testdata/settings/* (settings engine: model, parsing, merge, interpolation,
validation, profile activation, decryption). Run ../regen.sh afterwards to refresh expected.json."""
from lib import (ENC, ENC_OTHER_SECRET1, MASTER, OTHER_MASTER, S, Writer, active, el, mirror, mirrors, prof,
                 profiles, proxies, proxy, repo, repos_args, security_xml, server, servers, wrap)

W = Writer("settings")
c = W.case
CENTRAL = repos_args("central=https://repo.maven.apache.org/maven2")

# ---------------------------------------------------------------- defaults of the model (§1.2)
c("defaults-empty-settings", "An empty <settings/> gives every default (interactiveMode true, offline false, no lists).",
  S(""), args=CENTRAL)
c("defaults-missing-user-file", "A user settings file that does not exist counts as empty settings, no problem.",
  None, args=CENTRAL, settings_name="absent-settings.xml")
c("defaults-missing-ids", "server, mirror, proxy and profile without <id> all get the id 'default'.",
  S(servers(server(user="u")) + mirrors(mirror(of="central", url="https://m.example.com/repo"))
    + proxies(proxy(host="proxy.example.com")) + profiles(prof(repos=[repo("r1", "https://r1.example.com/")]))
    + active("default")), args=CENTRAL)
c("defaults-proxy-fields", "A proxy with only <id> and <host>: port 8080, protocol http, active true, no credentials.",
  S(proxies(proxy("p", "proxy.example.com"))), args=CENTRAL)
c("defaults-mirror-fields", "A mirror without layout/mirrorOfLayouts/blocked: layout default, mirrorOfLayouts default,legacy, not blocked.",
  S(mirrors(mirror("m", "*", "https://m.example.com/repo"))), args=CENTRAL)
c("defaults-boolean-true-uppercase", "Booleans are Boolean.valueOf: TRUE and True are true (offline, blocked, active).",
  S(el("offline", "TRUE") + el("interactiveMode", "FALSE")
    + mirrors(mirror("m", "central", "https://m.example.com/repo", blocked="True"))
    + proxies(proxy("p", "proxy.example.com", active="TRUE"))), args=CENTRAL)
c("defaults-boolean-yes-is-false", "Booleans: 'yes', '1' and 'on' are false (offline/interactiveMode yes, mirror blocked 1, proxy active on).",
  S(el("offline", "yes") + el("interactiveMode", "yes")
    + mirrors(mirror("m", "central", "https://m.example.com/repo", blocked="1"))
    + proxies(proxy("p", "proxy.example.com", active="on"))), args=CENTRAL)
c("defaults-boolean-empty", "Empty boolean elements keep the field default (interactiveMode true, proxy active true, blocked false).",
  S("<offline></offline>\n<interactiveMode/>\n"
    + mirrors(mirror("m", "central", "https://m.example.com/repo", blocked=""))
    + proxies(proxy("p", "proxy.example.com", active=""))), args=CENTRAL)
c("defaults-text-trimmed", "Leaf text is trimmed, including newlines and tabs around ids, urls and passwords.",
  S("<servers>\n  <server>\n    <id>\n      srv\n    </id>\n    <username>\t user \t</username>\n"
    "    <password>  pass word  </password>\n  </server>\n</servers>\n"
    + mirrors(mirror(" m ", " central ", "  https://m.example.com/repo  "))), args=CENTRAL)
c("defaults-local-repository-relative", "A relative <localRepository> is kept as written (not made absolute).",
  S(el("localRepository", "target/local-repo")), args=CENTRAL)
c("defaults-use-plugin-registry", "usePluginRegistry true gives one WARNING (deprecated, no effect).",
  S(el("usePluginRegistry", "true")), args=CENTRAL)
c("defaults-repository-policies", "A profile repository without releases/snapshots: enabled, daily, warn for both.",
  S(profiles(prof("p", repos=[repo("r", "https://r.example.com/repo")])) + active("p")))
c("defaults-policy-partial", "Policies with only some fields: missing updatePolicy -> daily, missing checksumPolicy -> warn, missing enabled -> true.",
  S(profiles(prof("p", repos=[repo("r", "https://r.example.com/repo", rel=(None, "never", None),
                                   snap=(None, None, "fail"))])) + active("p")))

# ---------------------------------------------------------------- namespaces (§1.1)
body_ns = mirrors(mirror("m", "central", "https://m.example.com/repo", layout="default", layouts="default",
                         blocked="false"))
for v in ("1.0.0", "1.1.0", "1.2.0"):
    c("ns-%s" % v.replace(".", ""), "Namespace SETTINGS/%s: parsed the same (Maven 3 ignores the namespace), 1.1.0/1.2.0 mirror fields read." % v,
      S(body_ns, ns=v), args=CENTRAL)
c("ns-none", "No namespace at all on <settings>: parsed normally.", S(body_ns, ns=None), args=CENTRAL)
c("ns-bogus", "A bogus namespace SETTINGS/9.9.9: parsed without any message.",
  S(body_ns, ns="http://maven.apache.org/SETTINGS/9.9.9"), args=CENTRAL)
c("ns-200", "Maven 4's SETTINGS/2.0.0 namespace with 3.x-only content: no message.",
  S(body_ns, ns="http://maven.apache.org/SETTINGS/2.0.0"), args=CENTRAL)
c("ns-prefixed-root", "Root written as <s:settings xmlns:s=...>: the reader sees the name s:settings (wrong root WARNING); the prefixed children are unknown tags, so s:offline is ignored.",
  '<?xml version="1.0"?>\n<s:settings xmlns:s="http://maven.apache.org/SETTINGS/1.2.0">\n'
  '  <s:offline>true</s:offline>\n</s:settings>\n', args=CENTRAL)

# ---------------------------------------------------------------- Maven 4-only elements (§1.1)
c("m4-top-level-repositories", "Top-level <repositories> (Maven 4 only): one WARNING, element dropped, rest kept.",
  S(wrap("repositories", repo("top", "https://top.example.com/")) + servers(server("s", "u", "p"))), args=CENTRAL)
c("m4-server-aliases", "<aliases> in a server (Maven 4 only): one WARNING, aliases dropped, server kept.",
  S(servers(server("s", "u", "p", extra=wrap("aliases", el("alias", "s2"))))), args=repos_args("s2=https://s2.example.com/"))
c("m4-activation-packaging", "<packaging> in a settings profile activation (Maven 4 only): one WARNING, dropped; profile has no activator left.",
  S(profiles(prof("p", repos=[repo("r", "https://r.example.com/")], act=el("packaging", "jar")))))
c("m4-activation-condition", "<condition> (Maven 4 only): one WARNING, dropped, activeByDefault next to it still works.",
  S(profiles(prof("p", repos=[repo("r", "https://r.example.com/")],
                  act=el("activeByDefault", "true") + el("condition", "exists(&quot;${basedir}/x&quot;)")))))
c("m4-several-elements", "Several Maven 4-only elements: only ONE warning (the first strict error), all dropped.",
  S(wrap("repositories", repo("top", "https://top.example.com/"))
    + servers(server("s", "u", "p", extra=wrap("aliases", el("alias", "s2"))))
    + wrap("pluginRepositories", repo("ptop", "https://ptop.example.com/", tag="pluginRepository"))), args=CENTRAL)
c("m4-elements-skipped-unread", "Maven 3 skips Maven 4-only elements unread: text, repeated elements and elements inside their text elements are no error (ONE warning for the first).",
  S("<repositories>\n  stray\n  <repository><id>a</id><id>b</id></repository>\n</repositories>\n<repositories/>\n"
    + servers(server("s", "u", "p", extra="<aliases>t<alias>a<x/></alias></aliases>\n<aliases/>\n"))
    + profiles(prof("p", repos=[repo("r", "https://r.example.com/")],
                    act="<packaging>jar<x/></packaging>\n<packaging/>\n<activeByDefault>true</activeByDefault>\n"))),
  args=repos_args("s=https://s.example.com/"))

# ---------------------------------------------------------------- parsing (§2.2)
c("parse-unknown-element", "Unknown top-level element: one WARNING (line/column), lenient parse keeps everything else.",
  S("<foo>bar</foo>\n" + servers(server("s", "u", "p"))), args=CENTRAL)
c("parse-unknown-element-nested", "Unknown element inside a server: one WARNING; the whole unknown subtree skipped, server kept.",
  S(servers(server("s", "u", "p", extra="<token>\n  <x>1</x>\n</token>\n"))), args=repos_args("s=https://s.example.com/"))
c("parse-unknown-attribute", "Unknown attribute on <settings>: one WARNING, content kept.",
  '<?xml version="1.0"?>\n<settings foo="bar">\n  <offline>true</offline>\n</settings>\n', args=CENTRAL)
c("parse-unknown-attribute-nested", "Unknown attribute on <server>: one WARNING, content kept.",
  '<settings>\n  <servers>\n    <server kind="x">\n      <id>s</id>\n      <username>u</username>\n'
  '    </server>\n  </servers>\n</settings>\n', args=repos_args("s=https://s.example.com/"))
c("parse-wrong-root", "Root <config> instead of <settings>: WARNING, lenient parse reads its children as settings.",
  '<?xml version="1.0"?>\n<config>\n  <offline>true</offline>\n'
  + "  <servers>\n    <server>\n      <id>s</id>\n      <username>u</username>\n    </server>\n  </servers>\n</config>\n",
  args=repos_args("s=https://s.example.com/"))
c("parse-duplicated-tag", "Two <id> in one server: FATAL 'Duplicated tag' even in lenient mode; settings not built.",
  S("<servers>\n  <server>\n    <id>a</id>\n    <id>b</id>\n  </server>\n</servers>\n"), args=CENTRAL)
c("parse-duplicated-toplevel", "Two <offline> at top level: FATAL duplicated tag.",
  S("<offline>true</offline>\n<offline>false</offline>\n"), args=CENTRAL)
c("parse-unclosed-tag", "Unclosed <server> (end tag mismatch): FATAL non-parseable.",
  '<settings>\n  <servers>\n    <server>\n      <id>s</id>\n  </servers>\n</settings>\n', args=CENTRAL)
c("parse-bad-entity", "Undefined entity &foo; in a value: FATAL non-parseable.",
  S(servers(server("s", "u", "a&foo;b"))), args=CENTRAL)
c("parse-predefined-entities", "Predefined and numeric entities (&amp; &lt; &gt; &quot; &apos; &#65; &#x42;) are expanded.",
  S(servers(server("s", "a&amp;b", "&lt;&gt;&quot;&apos;&#65;&#x42;"))), args=repos_args("s=https://s.example.com/"))
c("parse-cdata", "CDATA sections in values are taken literally.",
  S(servers(server("s", "u", "<![CDATA[p<&>w]]>"))), args=repos_args("s=https://s.example.com/"))
c("parse-comment-inside-value", "A comment inside a text value is dropped, the text parts are joined.",
  S(servers(server("s", "u<!-- c -->ser", "pw"))), args=repos_args("s=https://s.example.com/"))
c("parse-text-after-root", "Text after the closing root tag: FATAL non-parseable.",
  S(servers(server("s", "u", "p"))) + "trailing text\n", args=CENTRAL)
c("parse-element-after-root", "A second root element after </settings>: FATAL non-parseable.",
  S("") + "<settings/>\n", args=CENTRAL)
c("parse-empty-file", "A zero-byte settings file: how Maven treats an empty document.", "", args=CENTRAL)
c("parse-whitespace-only-file", "A settings file with only whitespace/newlines.", "\n   \n", args=CENTRAL)
c("parse-port-nonnumeric", "Proxy port 'abc': strict error -> one WARNING, lenient parse gives port 0.",
  S(proxies(proxy("p", "proxy.example.com", port="abc"))), args=CENTRAL)
c("parse-port-negative-and-space", "Proxy port ' 3128 ' is trimmed and parsed; a second proxy with port -1 is accepted as -1.",
  S(proxies(proxy("p1", "proxy.example.com", port=" 3128 "), proxy("p2", "proxy2.example.com", port="-1", protocol="https"))),
  args=CENTRAL)
c("parse-global-malformed", "Malformed global settings file: FATAL, nothing built, although user settings are fine.",
  S(servers(server("s", "u", "p"))), gs="<settings>\n  <servers>\n</settings>\n", args=CENTRAL)
c("parse-global-missing-file", "--global-settings names a file that does not exist: counts as empty, no problem.",
  S(servers(server("s", "u", "p"))), args=["--global-settings", "absent-global.xml"] + CENTRAL)
c("parse-global-unknown-element", "Unknown element in the global file: one WARNING (located in the global file), merge still done.",
  S(servers(server("s", "u", "p"))), gs=S("<bogus/>\n" + servers(server("g", "gu", "gp"))),
  args=repos_args("g=https://g.example.com/"))
c("parse-bom", "A UTF-8 byte order mark before the XML declaration.",
  "\ufeff" + S(servers(server("s", "u", "p"))), args=repos_args("s=https://s.example.com/"))
c("parse-non-ascii", "Non-ASCII text (UTF-8) in username/password survives.",
  S(servers(server("s", "j\u00fcrgen", "p\u00e4ss\u20ac"))), args=repos_args("s=https://s.example.com/"))
c("parse-text-in-class", "Text between the elements of a <server>: strict-only, one WARNING where MXParser sees it (just after the next tag's '<' and first character); the server is read.",
  S("<servers>\n  <server>\n    <id>s</id>\n    stray\n    <username>u</username>\n  </server>\n</servers>\n"),
  args=repos_args("s=https://s.example.com/"))
c("parse-text-in-list", "Text inside <mirrors> between <mirror> elements: FATAL in both modes (the list's nextTag()).",
  S("<mirrors>\n  stray\n  <mirror>\n    <id>m</id>\n    <mirrorOf>central</mirrorOf>\n"
    "    <url>https://m.example.com/repo</url>\n  </mirror>\n</mirrors>\n"), args=CENTRAL)
c("parse-text-in-properties", "Text inside a profile's <properties>: FATAL in both modes.",
  S(profiles(prof("p", extra="<properties>\n  x\n  <a>1</a>\n</properties>\n")) + active("p")), args=CENTRAL)
c("parse-text-in-active-profiles", "Text inside <activeProfiles>: FATAL in both modes.",
  S("<activeProfiles>\n  stray <activeProfile>p</activeProfile>\n</activeProfiles>\n"), args=CENTRAL)
c("parse-nbsp-between-elements", "A no-break space (U+00A0, written as such before a comment) between <server> elements is text, not white space: FATAL.",
  S("<servers>\n  \u00a0<!-- nbsp -->\n" + servers(server("s", "u", "p"))[len("<servers>\n"):]), args=CENTRAL)
c("parse-nbsp-reference-between-elements", "&#160; between <server> elements is text, not white space: FATAL.",
  S("<servers>\n  &#160;\n" + servers(server("s", "u", "p"))[len("<servers>\n"):]), args=CENTRAL)
c("parse-xmlns-on-nested-element", "xmlns is accepted on <settings> only: on a <server> it is an unknown attribute (one WARNING); list wrappers are not checked.",
  S("<servers xmlns=\"http://example.com/x\">\n  <server xmlns=\"http://example.com/y\">\n    <id>s</id>\n"
    "  </server>\n</servers>\n"), args=repos_args("s=https://s.example.com/"))
c("parse-trim-is-java-trim", "Values are trimmed as String.trim(): control characters go; no-break and em spaces (&#160; &#x2003;) and NEL (U+0085) stay.",
  S(el("localRepository", "&#160;/opt/repo") + servers(server("\u001bs\u0007", "&#160;u&#x2003;", "\u0085pw\u0085 "))),
  args=repos_args("s=https://s.example.com/"))
c("parse-strict-error-document-order", "An unknown element, then text, in one <server>: the WARNING is the first of them in the document (the element).",
  S("<servers>\n  <server>\n    <bogus/>\n    stray\n    <id>s</id>\n  </server>\n</servers>\n"),
  args=repos_args("s=https://s.example.com/"))

# ---------------------------------------------------------------- merge (§2.3)
c("merge-servers-by-id", "Servers merge by id: user servers first (user wins for same id, whole element), then global-only ones.",
  S(servers(server("b", "user-b"), server("a", "user-a"))),
  gs=S(servers(server("a", "global-a", "gpw"), server("c", "global-c"), server("b", "global-b"))),
  args=repos_args("a=https://a.example.com/", "b=https://b.example.com/", "c=https://c.example.com/"))
c("merge-mirrors-by-id", "Mirrors merge by id: user first, global-only after; user mirror hides the global one with the same id.",
  S(mirrors(mirror("m1", "central", "https://user-m1.example.com/"))),
  gs=S(mirrors(mirror("m0", "*", "https://global-m0.example.com/"), mirror("m1", "*", "https://global-m1.example.com/"))),
  args=CENTRAL + repos_args("other=https://other.example.com/"))
c("merge-proxies-by-id", "Proxies merge by id: the user proxy hides the global proxy with the same id (no field merge).",
  S(proxies(proxy("p", "user-proxy.example.com", port="3128"))),
  gs=S(proxies(proxy("p", "global-proxy.example.com", port="8888", user="gu", pw="gp"),
               proxy("q", "global-q.example.com", protocol="https"))), args=CENTRAL)
c("merge-profiles-by-id", "Profiles merge by id: the user profile with the same id replaces the global one entirely (repositories too).",
  S(profiles(prof("p", repos=[repo("user-repo", "https://user.example.com/")]))),
  gs=S(profiles(prof("p", repos=[repo("global-repo", "https://global.example.com/")]),
                prof("g", repos=[repo("g-repo", "https://g.example.com/")])) + active("p", "g")), args=CENTRAL)
c("merge-active-profiles-order", "activeProfiles: user list first, then global entries not already present.",
  S(profiles(prof("a"), prof("b"), prof("c")) + active("b", "a")), gs=S(active("c", "a")), args=CENTRAL)
c("merge-plugin-groups", "pluginGroups in both files (not part of the JSON): valid groups in user and global give no problem, settings built.",
  S(wrap("pluginGroups", el("pluginGroup", "org.user") + el("pluginGroup", "org.shared"))),
  gs=S(wrap("pluginGroups", el("pluginGroup", "org.shared") + el("pluginGroup", "org.global"))), args=CENTRAL)
c("merge-local-repository-fallback", "localRepository: user file has none -> the global value is used.",
  S(""), gs=S(el("localRepository", "/opt/global-repo")), args=CENTRAL)
c("merge-local-repository-user-wins", "localRepository: the user value wins over the global one.",
  S(el("localRepository", "/opt/user-repo")), gs=S(el("localRepository", "/opt/global-repo")), args=CENTRAL)
c("merge-local-repository-empty-user", "localRepository: an empty user element falls back to the global value.",
  S("<localRepository></localRepository>\n"), gs=S(el("localRepository", "/opt/global-repo")), args=CENTRAL)
c("merge-global-booleans-ignored", "Global offline=true and interactiveMode=false are ignored; the user file's defaults win.",
  S(""), gs=S(el("offline", "true") + el("interactiveMode", "false")), args=CENTRAL)
c("merge-user-booleans-kept", "User offline=true and interactiveMode=false are kept even when global says the opposite.",
  S(el("offline", "true") + el("interactiveMode", "false")), gs=S(el("offline", "false") + el("interactiveMode", "true")),
  args=CENTRAL)
c("merge-global-only", "User settings file missing, global file present: the global content is the effective settings.",
  None, settings_name="absent-settings.xml",
  gs=S(servers(server("g", "gu", "gp")) + mirrors(mirror("gm", "*", "https://gm.example.com/"))
       + proxies(proxy("gp", "gproxy.example.com"))), args=CENTRAL)
c("merge-duplicate-within-global", "A duplicated server id inside the global file gives a WARNING; the same id in user+global does not.",
  S(servers(server("x", "user-x"))), gs=S(servers(server("x", "global-x1"), server("y", "gy1"), server("y", "gy2"))),
  args=repos_args("x=https://x.example.com/", "y=https://y.example.com/"))
c("merge-global-errors-stop", "A validation ERROR in the global file (mirror without url) stops the build.",
  S(servers(server("s", "u"))), gs=S(mirrors(mirror("gm", "*"))), args=CENTRAL)

# ---------------------------------------------------------------- interpolation (§2.4)
c("interp-env", "${env.NAME} from the environment (env file) in username, url and localRepository.",
  S(el("localRepository", "${env.M2R_FIX_REPO}/repo")
    + servers(server("s", "${env.M2R_FIX_USER}", "x${env.M2R_FIX_USER}y"))
    + mirrors(mirror("m", "central", "https://${env.M2R_FIX_HOST}/maven2"))),
  env=[("M2R_FIX_USER", "envuser"), ("M2R_FIX_HOST", "mirror.example.com"), ("M2R_FIX_REPO", "/srv")],
  args=CENTRAL + repos_args("s=https://s.example.com/"))
c("interp-user-home", "${user.home} takes the -Duser.home value verbatim (fakehome), not $HOME.",
  S(el("localRepository", "${user.home}/.m2/repository") + servers(server("s", "${user.home}"))), args=CENTRAL)
c("interp-user-property", "${foo} from -Dfoo=... in url, id and password.",
  S(servers(server("${sid}", "u", "${pw}")) + mirrors(mirror("m", "${target}", "https://${mhost}/r"))),
  args=["-Dsid=srv", "-Dpw=from-cli", "-Dtarget=central", "-Dmhost=m.example.com"] + CENTRAL + repos_args("srv=https://srv.example.com/"))
c("interp-user-over-env", "A -D user property wins over an env.* value with the same name (-Denv.M2R_FIX_V=cli).",
  S(servers(server("s", "${env.M2R_FIX_V}"))), env=[("M2R_FIX_V", "from-env")], args=["-Denv.M2R_FIX_V=from-cli"] + CENTRAL)
c("interp-settings-prefix", "${settings.x} looks up x: resolved from -Dx; ${settings.localRepository} stays literal; the literal ${settings.} password looks encrypted -> decrypt ERROR.",
  S(el("localRepository", "/r/${settings.localRepository}") + servers(server("s", "${settings.who}", "${settings.}"))),
  args=["-Dwho=prefixed"] + CENTRAL)
c("interp-unresolved-kept", "Unresolvable ${...} expressions stay literally; a password ${env.UNSET} then even looks encrypted ({...}) and gives a decrypt ERROR (no security file).",
  S(servers(server("s", "${undefined.prop}", "${env.M2R_FIX_SURELY_UNSET}")) + el("localRepository", "${nope}/x")),
  args=CENTRAL + repos_args("s=https://s.example.com/"))
c("interp-xml-special-chars", "An interpolated value with XML markup (<tag>&\"') arrives verbatim.",
  S(servers(server("s", "${u}", "${pw}"))), args=["-Du=a&b", "-Dpw=<tag>&\"'x"] + repos_args("s=https://s.example.com/"))
c("interp-recursive-value", "A property value containing ${...} is interpolated recursively (-Da=${b} -Db=deep).",
  S(servers(server("s", "${a}"))), args=["-Da=x-${b}", "-Db=deep"] + CENTRAL)
c("interp-cycle", "A reference cycle (-Da=${b} -Db=${a}): ERROR Failed to interpolate settings, settings not built.",
  S(servers(server("s", "${a}", "plain"))), args=["-Da=${b}", "-Db=${a}"] + CENTRAL)
c("interp-after-validation", "Validation runs on the raw text: ${x} in mirror url/mirrorOf passes; x resolved to empty leaves empty values without ERROR.",
  S(mirrors(mirror("m", "${of}", "${url}"))), args=["-Dof=", "-Durl="] + CENTRAL)
c("interp-port-expression", "${port} in <port> is not possible in Maven 3: strict parse error, lenient port 0.",
  S(proxies(proxy("p", "proxy.example.com", port="${port}"))), args=["-Dport=3128"] + CENTRAL)
c("interp-dollar-edge", "Edge syntax: $x, $${a}, ${} and an unterminated ${a stay or resolve as Maven does.",
  S(servers(server("s1", "$a"), server("s2", "$${a}"), server("s3", "${}"), server("s4", "${a"))),
  args=["-Da=A"] + CENTRAL)
c("interp-in-profile-and-proxy", "Interpolation applies to profile repository urls and proxy hosts/nonProxyHosts too.",
  S(proxies(proxy("p", "${phost}", nph="${nph}")) + profiles(prof("p", repos=[repo("r", "https://${rhost}/repo")]))
    + active("p")),
  args=["-Dphost=proxy.example.com", "-Dnph=*.internal", "-Drhost=r.example.com"])

# ---------------------------------------------------------------- validation (§2.5)
c("valid-server-id-empty", "<id></id> in a server: ERROR 'servers.server[0].id' is missing -> not built.",
  S(servers(server("", "u"))), args=CENTRAL)
c("valid-server-id-blank", "<id>   </id> in a server: trimmed to empty -> ERROR.",
  S(servers(server("ok", "u"), server("   ", "u2"))), args=CENTRAL)
c("valid-server-duplicate", "Two servers with the same id: WARNING; both listed, the first one authenticates.",
  S(servers(server("dup", "first", "p1"), server("dup", "second", "p2"))), args=repos_args("dup=https://d.example.com/"))
c("valid-mirror-id-empty", "Mirror with empty <id></id>: ERROR 'mirrors.mirror.id' for <url> is missing.",
  S(mirrors(mirror("", "*", "https://m.example.com/"))), args=CENTRAL)
c("valid-mirror-id-illegal-chars", "Mirror id with / and : (illegal characters): WARNING naming the last one; mirror still used.",
  S(mirrors(mirror("my/mirror:x", "*", "https://m.example.com/"))), args=CENTRAL)
c("valid-mirror-id-each-illegal-char", "One mirror per illegal id character (\\ \" < > | ? *): one WARNING each.",
  S(mirrors(*[mirror("m%s%d" % (ch, i), "r%d" % i, "https://m%d.example.com/" % i)
               for i, ch in enumerate(["\\", "&quot;", "&lt;", "&gt;", "|", "?", "*"])])), args=CENTRAL)
c("valid-mirror-id-local", "Mirror id 'local': WARNING (reserved); still used.",
  S(mirrors(mirror("local", "central", "https://m.example.com/"))), args=CENTRAL)
c("valid-mirror-url-missing", "Mirror without <url>: ERROR, not built.",
  S(mirrors(mirror("m", "*"))), args=CENTRAL)
c("valid-mirror-mirrorof-missing", "Mirror without <mirrorOf>: ERROR, not built.",
  S(mirrors(mirror("m", None, "https://m.example.com/"))), args=CENTRAL)
c("valid-mirror-duplicate-not-checked", "Duplicate mirror ids are not validated; the first one is used.",
  S(mirrors(mirror("m", "central", "https://first.example.com/"), mirror("m", "*", "https://second.example.com/"))),
  args=CENTRAL + repos_args("other=https://other.example.com/"))
c("valid-profile-duplicate", "Two profiles with the same id: WARNING; only the first profile with that id is kept by the request (its repository r1 only).",
  S(profiles(prof("p", repos=[repo("r1", "https://r1.example.com/")]), prof("p", repos=[repo("r2", "https://r2.example.com/")]))
    + active("p")))
c("valid-repo-id-missing", "Profile repository without <id>: ERROR 'profiles.profile[p].repositories.repository.id' for <url> is missing.",
  S(profiles(prof("p", repos=[repo(None, "https://r.example.com/")]))), args=CENTRAL)
c("valid-repo-id-illegal", "Profile repository id with illegal characters: WARNING.",
  S(profiles(prof("p", repos=[repo("a?b", "https://r.example.com/")])) + active("p")))
c("valid-repo-id-local", "Profile repository id 'local': WARNING (reserved).",
  S(profiles(prof("p", repos=[repo("local", "https://r.example.com/")])) + active("p")))
c("valid-repo-duplicate", "Duplicate repository id inside one profile: WARNING; profile injection merges by id, so the LATER url replaces the earlier one.",
  S(profiles(prof("p", repos=[repo("r", "https://r1.example.com/"), repo("r", "https://r2.example.com/")])) + active("p")))
c("valid-repo-url-missing", "Profile repository without <url>: ERROR, not built.",
  S(profiles(prof("p", repos=[repo("r")]))), args=CENTRAL)
c("valid-repo-legacy-layout", "Profile repository with layout legacy: WARNING (unsupported value).",
  S(profiles(prof("p", repos=[repo("r", "https://r.example.com/", layout="legacy")])) + active("p")))
c("valid-plugin-repo-rules", "pluginRepositories are validated like repositories: missing id ERROR, local WARNING, duplicate WARNING.",
  S(profiles(prof("p", plugin_repos=[repo(None, "https://p0.example.com/", tag="pluginRepository"),
                                     repo("local", "https://p1.example.com/", tag="pluginRepository"),
                                     repo("x", "https://p2.example.com/", tag="pluginRepository"),
                                     repo("x", "https://p3.example.com/", tag="pluginRepository")]))), args=CENTRAL)
c("valid-proxy-duplicate", "Two proxies with the same id: WARNING; both listed, the first active one is used.",
  S(proxies(proxy("p", "first.example.com"), proxy("p", "second.example.com"))), args=CENTRAL)
c("valid-proxy-host-missing", "Proxy without <host>: ERROR, not built.",
  S(proxies(proxy("p"))), args=CENTRAL)
c("valid-proxy-inactive-host-missing", "An inactive proxy without <host> is still validated: ERROR.",
  S(proxies(proxy("p", active="false"))), args=CENTRAL)
c("valid-plugin-group-empty", "An empty <pluginGroup/>: ERROR must not be empty.",
  S(wrap("pluginGroups", el("pluginGroup", "org.ok") + "<pluginGroup> </pluginGroup>\n")), args=CENTRAL)
c("valid-plugin-group-bad-chars", "pluginGroup 'org/bad group': ERROR must denote a valid group id.",
  S(wrap("pluginGroups", el("pluginGroup", "org/bad group"))), args=CENTRAL)
c("valid-plugin-group-ok-chars", "pluginGroup with letters, digits, _ - . only: valid, kept.",
  S(wrap("pluginGroups", el("pluginGroup", "org.Ex_am-ple.9"))), args=CENTRAL)
c("valid-many-problems", "Several ERRORs and WARNINGs in one file are all reported (with their lines).",
  S(servers(server("", "u"), server("s", "a"), server("s", "b")) + mirrors(mirror("local", "*"))
    + proxies(proxy("p", "h"), proxy("p"))), args=CENTRAL)
c("valid-warnings-only", "Only WARNINGs (dup server, legacy layout, mirror id local): settings still built.",
  S(servers(server("s", "a"), server("s", "b")) + mirrors(mirror("local", "*", "https://m.example.com/"))
    + profiles(prof("p", repos=[repo("r", "https://r.example.com/", layout="legacy")])) + active("p")), args=CENTRAL)

# ---------------------------------------------------------------- profile activation (§3)
REPO_OF = lambda pid: [repo("repo-" + pid, "https://%s.example.com/repo" % pid)]  # noqa: E731
c("act-active-profiles", "Profiles listed in <activeProfiles> are active; others are not; activeProfiles in the JSON follow the profile declaration order.",
  S(profiles(prof("a", REPO_OF("a")), prof("b", REPO_OF("b")), prof("c", REPO_OF("c"))) + active("c", "a")))
c("act-active-profile-unknown-id", "An activeProfile id with no matching profile is ignored silently.",
  S(profiles(prof("a", REPO_OF("a"))) + active("nope", "a")))
c("act-cli-activate", "-P b activates profile b in addition to activeProfiles.",
  S(profiles(prof("a", REPO_OF("a")), prof("b", REPO_OF("b"))) + active("a")), args=["-P", "b"])
c("act-cli-deactivate-bang", "-P !a deactivates a profile listed in activeProfiles.",
  S(profiles(prof("a", REPO_OF("a")), prof("b", REPO_OF("b"))) + active("a", "b")), args=["-P", "!a"])
c("act-cli-plus-minus", "-P +b,-a: + activates, - deactivates.",
  S(profiles(prof("a", REPO_OF("a")), prof("b", REPO_OF("b"))) + active("a")), args=["-P", "+b,-a"])
c("act-cli-spaces-and-repeat", "-P ' b , c' then -P !a: tokens are trimmed, repeated -P accumulate.",
  S(profiles(prof("a", REPO_OF("a")), prof("b", REPO_OF("b")), prof("c", REPO_OF("c"))) + active("a")),
  args=["-P", " b , c", "-P", "!a"])
c("act-cli-attached-form", "-Pb,c (attached form) activates b and c.",
  S(profiles(prof("a", REPO_OF("a")), prof("b", REPO_OF("b")), prof("c", REPO_OF("c")))), args=["-Pb,c"])
c("act-cli-activate-and-deactivate-same", "-P a,!a: deactivation wins.",
  S(profiles(prof("a", REPO_OF("a")))), args=["-P", "a,!a"])
c("act-by-default-alone", "activeByDefault profile with no other active profile: active.",
  S(profiles(prof("d", REPO_OF("d"), act=el("activeByDefault", "true")))))
c("act-by-default-with-other-active", "Settings activeByDefault stays active even when another profile is active (not the POM rule).",
  S(profiles(prof("d", REPO_OF("d"), act=el("activeByDefault", "true")), prof("a", REPO_OF("a"))) + active("a")))
c("act-by-default-with-property-active", "activeByDefault plus a profile activated by property: both active.",
  S(profiles(prof("d", REPO_OF("d"), act=el("activeByDefault", "true")),
             prof("q", REPO_OF("q"), act=wrap("property", el("name", "q"))))), args=["-Dq"])
c("act-by-default-deactivated", "activeByDefault profile deactivated with -P !d: inactive.",
  S(profiles(prof("d", REPO_OF("d"), act=el("activeByDefault", "true")))), args=["-P", "!d"])
c("act-by-default-false-explicit", "activeByDefault false: inactive (no other activator).",
  S(profiles(prof("d", REPO_OF("d"), act=el("activeByDefault", "false")))))
c("act-property-name-set", "<property><name>foo</name>: active when -Dfoo is given (bare -Dfoo means true).",
  S(profiles(prof("p", REPO_OF("p"), act=wrap("property", el("name", "foo"))))), args=["-Dfoo"])
c("act-property-name-unset", "<property><name>foo</name>: inactive when foo is not set.",
  S(profiles(prof("p", REPO_OF("p"), act=wrap("property", el("name", "m2r.fix.foo"))))))
c("act-property-name-empty-value", "<property><name>foo</name> with -Dfoo= (empty): inactive (needs a non-empty value).",
  S(profiles(prof("p", REPO_OF("p"), act=wrap("property", el("name", "foo"))))), args=["-Dfoo="])
c("act-property-not-name", "<name>!foo</name>: active when foo is absent, inactive profile q when -Dbar is set for !bar.",
  S(profiles(prof("p", REPO_OF("p"), act=wrap("property", el("name", "!m2r.fix.foo"))),
             prof("q", REPO_OF("q"), act=wrap("property", el("name", "!bar"))))), args=["-Dbar=1"])
c("act-property-value-match", "name=value: active only on exact (case-sensitive) equality.",
  S(profiles(prof("p", REPO_OF("p"), act=wrap("property", el("name", "env") + el("value", "prod"))),
             prof("q", REPO_OF("q"), act=wrap("property", el("name", "env") + el("value", "PROD"))))), args=["-Denv=prod"])
c("act-property-value-negated", "name=!value: active when not equal, also when absent; inactive when equal.",
  S(profiles(prof("p", REPO_OF("p"), act=wrap("property", el("name", "env") + el("value", "!prod"))),
             prof("q", REPO_OF("q"), act=wrap("property", el("name", "env") + el("value", "!dev"))),
             prof("r", REPO_OF("r"), act=wrap("property", el("name", "m2r.fix.absent") + el("value", "!x"))))),
  args=["-Denv=prod"])
c("act-property-bang-name-with-value", "!name together with a value: the ! on the name is ignored.",
  S(profiles(prof("p", REPO_OF("p"), act=wrap("property", el("name", "!env") + el("value", "prod"))))), args=["-Denv=prod"])
c("act-property-env", "Property activation sees environment variables as env.NAME.",
  S(profiles(prof("p", REPO_OF("p"), act=wrap("property", el("name", "env.M2R_FIX_CI") + el("value", "yes"))),
             prof("q", REPO_OF("q"), act=wrap("property", el("name", "env.M2R_FIX_SURELY_UNSET"))))),
  env=[("M2R_FIX_CI", "yes")])
c("act-property-name-missing", "<property> without <name>: activation ERROR for that profile.",
  S(profiles(prof("p", REPO_OF("p"), act=wrap("property", el("value", "x"))), prof("ok", REPO_OF("ok"))) + active("ok")))
c("act-os-linux", "os family unix / name linux / arch amd64 (true on any Linux x86_64 machine); negations and windows false.",
  S(profiles(prof("fam", REPO_OF("fam"), act=wrap("os", el("family", "unix"))),
             prof("name", REPO_OF("name"), act=wrap("os", el("name", "Linux"))),
             prof("arch", REPO_OF("arch"), act=wrap("os", el("arch", "amd64"))),
             prof("win", REPO_OF("win"), act=wrap("os", el("family", "windows"))),
             prof("notwin", REPO_OF("notwin"), act=wrap("os", el("family", "!windows"))),
             prof("notlinux", REPO_OF("notlinux"), act=wrap("os", el("name", "!linux"))),
             prof("mac", REPO_OF("mac"), act=wrap("os", el("family", "mac"))))))
c("act-os-all-fields", "All os sub-fields must match: family unix + arch amd64 active; family unix + arch sparc inactive.",
  S(profiles(prof("both", REPO_OF("both"), act=wrap("os", el("family", "unix") + el("arch", "amd64"))),
             prof("mixed", REPO_OF("mixed"), act=wrap("os", el("family", "unix") + el("arch", "sparc"))),
             prof("notver", REPO_OF("notver"), act=wrap("os", el("version", "!0.0.0-m2r-none"))))))
c("act-jdk-prefix", "jdk prefix against -Djava.version=17.0.2: 17 and 1 match (string prefix), 1.8 and 11 do not.",
  S(profiles(*[prof("jdk" + v.replace(".", "_"), REPO_OF("jdk" + v.replace(".", "_")), act=el("jdk", v))
               for v in ("17", "1", "1.8", "11", "17.0")])), args=["-Djava.version=17.0.2"])
c("act-jdk-negated", "jdk !1.8 active and !17 inactive with java.version 17.0.2.",
  S(profiles(prof("not18", REPO_OF("not18"), act=el("jdk", "!1.8")), prof("not17", REPO_OF("not17"), act=el("jdk", "!17")))),
  args=["-Djava.version=17.0.2"])
c("act-jdk-range", "jdk ranges with java.version 17.0.2: [17,18) and [11,) and [17 match; (,11] and (17.0.2,] do not.",
  S(profiles(*[prof("r%d" % i, REPO_OF("r%d" % i), act=el("jdk", v))
               for i, v in enumerate(["[17,18)", "[11,)", "(,11]", "(17.0.2,]", "[17", "[1.8,17.0.2]"])])),
  args=["-Djava.version=17.0.2"])
c("act-jdk-legacy-version", "jdk activation against an old-style java.version 1.8.0_392: 1.8 prefix and [1.8,9) range match.",
  S(profiles(prof("p18", REPO_OF("p18"), act=el("jdk", "1.8")), prof("range", REPO_OF("range"), act=el("jdk", "[1.8,9)")),
             prof("p17", REPO_OF("p17"), act=el("jdk", "17")))), args=["-Djava.version=1.8.0_392"])
c("act-jdk-invalid-version", "jdk range with a non-numeric java.version abc: activation ERROR (Failed to determine activation), profile inactive, settings still built.",
  S(profiles(prof("range", REPO_OF("range"), act=el("jdk", "[11,)")))), args=["-Djava.version=abc"])
c("act-file-exists-relative", "file exists with a path relative to the project folder (the case folder): active; a missing one inactive.",
  S(profiles(prof("has", REPO_OF("has"), act=wrap("file", el("exists", "marker.txt"))),
             prof("hasnot", REPO_OF("hasnot"), act=wrap("file", el("exists", "no-such-file.txt"))))),
  files={"marker.txt": "marker\n"})
c("act-file-missing", "file missing: active when the file is absent, inactive when present.",
  S(profiles(prof("absent", REPO_OF("absent"), act=wrap("file", el("missing", "no-such-file.txt"))),
             prof("present", REPO_OF("present"), act=wrap("file", el("missing", "marker.txt"))))),
  files={"marker.txt": "marker\n"})
c("act-file-basedir", "file exists with ${basedir}/sub/marker.txt: resolved against the project folder (active); ${project.basedir} is unknown to Maven 3.8.7 (inactive).",
  S(profiles(prof("based", REPO_OF("based"), act=wrap("file", el("exists", "${basedir}/sub/marker.txt"))),
             prof("pbased", REPO_OF("pbased"), act=wrap("file", el("exists", "${project.basedir}/sub/marker.txt"))))),
  files={"sub/marker.txt": "x\n"})
c("act-file-exists-wins", "file with both exists and missing: exists decides.",
  S(profiles(prof("p", REPO_OF("p"), act=wrap("file", el("exists", "marker.txt") + el("missing", "marker.txt"))))),
  files={"marker.txt": "x\n"})
c("act-file-property", "file path with a -D property: ${dir}/marker.txt with -Ddir=sub.",
  S(profiles(prof("p", REPO_OF("p"), act=wrap("file", el("exists", "${dir}/marker.txt"))))),
  args=["-Ddir=sub"], files={"sub/marker.txt": "x\n"})
c("act-and-combination", "Several activators are ANDed: property+jdk both true -> active; property true + jdk false -> inactive.",
  S(profiles(prof("both", REPO_OF("both"), act=el("jdk", "17") + wrap("property", el("name", "go"))),
             prof("half", REPO_OF("half"), act=el("jdk", "1.8") + wrap("property", el("name", "go"))))),
  args=["-Dgo", "-Djava.version=17.0.2"])
c("act-by-default-and-condition-false", "activeByDefault with a property activator that is false: the profile is still active by default.",
  S(profiles(prof("p", REPO_OF("p"), act=el("activeByDefault", "true") + wrap("property", el("name", "m2r.fix.absent"))))))
c("act-empty-activation", "An empty <activation/> element: no activator -> inactive.",
  S(profiles(prof("p", REPO_OF("p"), act=""))))

# ---------------------------------------------------------------- decryption (§7)
SRV_REPO = repos_args("srv=https://srv.example.com/repo")
c("decrypt-server-password", "Encrypted server password ({...} made by mvn -ep) decrypts with settings-security.xml.",
  S(servers(server("srv", "u", ENC["secret1"]))), sec=security_xml(), args=SRV_REPO)
c("decrypt-proxy-password", "Encrypted proxy password decrypts; the proxy auth carries the clear password.",
  S(proxies(proxy("p", "proxy.example.com", user="pu", pw=ENC["proxypw"]))), sec=security_xml(), args=SRV_REPO)
c("decrypt-passphrase", "Encrypted server passphrase with privateKey decrypts.",
  S(servers(server("srv", "u", None, key="keys/id_rsa", phrase=ENC["keyphrase"]))), sec=security_xml(), args=SRV_REPO)
c("decrypt-comment-around", "Text around the braces is a comment: 'Oleg reset this on 2009-03-11 {...}' and '{...} trailing' decrypt.",
  S(servers(server("srv", "u", "Oleg reset this password on 2009-03-11 " + ENC["secret1"]),
            server("srv2", "u", ENC["second2"] + " trailing note"))),
  sec=security_xml(), args=SRV_REPO + repos_args("srv2=https://srv2.example.com/"))
c("decrypt-escaped-braces", "\\{abc\\} is not encrypted: used verbatim with the backslashes; \\{x} still counts as encrypted.",
  S(servers(server("srv", "u", "\\{clear\\}"), server("srv2", "u", "\\" + ENC["secret1"]))),
  sec=security_xml(), args=SRV_REPO + repos_args("srv2=https://srv2.example.com/"))
c("decrypt-newline-before-brace", "A newline before the brace ('note\\n{...}'): Maven 3.8.7 still finds the {...} pair and decrypts it (spec §7.1 table says otherwise; the oracle is the authority).",
  S(servers(server("srv", "u", "note\n" + ENC["secret1"]))), sec=security_xml(), args=SRV_REPO)
c("decrypt-first-brace-pair", "Only the FIRST {...} pair counts: '{QUJD} {valid}' tries QUJD and fails (decrypt ERROR, value kept).",
  S(servers(server("srv", "u", "{QUJD} " + ENC["secret1"]))), sec=security_xml(), args=SRV_REPO)
c("decrypt-empty-braces", "'{}' is not an encrypted value: used verbatim, no problem.",
  S(servers(server("srv", "u", "{}"))), sec=security_xml(), args=SRV_REPO)
c("decrypt-plain-passthrough", "Plain passwords (no braces) are used as written, even when no security file exists.",
  S(servers(server("srv", "u", "plain-pw")) + proxies(proxy("p", "proxy.example.com", user="pu", pw="plain-proxy"))),
  args=SRV_REPO)
c("decrypt-wrong-master", "Value encrypted under another master password: decrypt ERROR problem, the {...} value is kept and sent.",
  S(servers(server("srv", "u", ENC_OTHER_SECRET1))), sec=security_xml(), args=SRV_REPO)
c("decrypt-other-master-file", "The same value decrypts when settings-security.xml holds the matching master.",
  S(servers(server("srv", "u", ENC_OTHER_SECRET1))), sec=security_xml(OTHER_MASTER), args=SRV_REPO)
c("decrypt-missing-security-file", "Encrypted password but --security names a missing file: decrypt ERROR, value kept.",
  S(servers(server("srv", "u", ENC["secret1"]))), args=SRV_REPO)
c("decrypt-relocation", "settings-security.xml relocates to another file holding the master.",
  S(servers(server("srv", "u", ENC["secret1"]))), sec=security_xml(None, relocation="relocated-security.xml"),
  files={"relocated-security.xml": security_xml()}, args=SRV_REPO)
c("decrypt-relocation-chain", "Relocation followed twice (a -> b -> c).",
  S(servers(server("srv", "u", ENC["secret1"]))), sec=security_xml(None, relocation="sec-b.xml"),
  files={"sec-b.xml": security_xml(None, relocation="sec-c.xml"), "sec-c.xml": security_xml()}, args=SRV_REPO)
c("decrypt-relocation-missing-target", "Relocation to a file that does not exist: decrypt ERROR, value kept.",
  S(servers(server("srv", "u", ENC["secret1"]))), sec=security_xml(None, relocation="nowhere.xml"), args=SRV_REPO)
c("decrypt-master-and-relocation", "A file with both <master> and <relocation>: the relocation is followed.",
  S(servers(server("srv", "u", ENC["secret1"]))), sec=security_xml(OTHER_MASTER, relocation="relocated-security.xml"),
  files={"relocated-security.xml": security_xml()}, args=SRV_REPO)
c("decrypt-default-location-user-home", "No --security: the master comes from ${user.home}/.m2/settings-security.xml (-Duser.home=myhome).",
  S(servers(server("srv", "u", ENC["secret1"]))), security=None, home="myhome",
  files={"myhome/.m2/settings-security.xml": security_xml()}, args=SRV_REPO)
c("decrypt-master-missing", "settings-security.xml without <master>: decrypt ERROR, value kept.",
  S(servers(server("srv", "u", ENC["secret1"]))), sec=security_xml(None), args=SRV_REPO)
c("decrypt-master-plaintext", "A plaintext (unencrypted) <master> does not work in Maven 3: decrypt ERROR.",
  S(servers(server("srv", "u", ENC["secret1"]))), sec=security_xml("masterpw"), args=SRV_REPO)
c("decrypt-master-indented", "<master> value on its own indented line (surrounding whitespace) still works.",
  S(servers(server("srv", "u", ENC["secret1"]))),
  sec='<settingsSecurity>\n  <master>\n      %s\n  </master>\n</settingsSecurity>\n' % MASTER, args=SRV_REPO)
c("decrypt-master-with-comment", "<master> with text around the braces ('comment {...}') still decrypts.",
  S(servers(server("srv", "u", ENC["secret1"]))), sec=security_xml("master set 2026 " + MASTER), args=SRV_REPO)
c("decrypt-security-unknown-element", "settings-security.xml with an unknown element (Maven 4 modelVersion): strict parse fails, decrypt ERROR.",
  S(servers(server("srv", "u", ENC["secret1"]))), sec=security_xml(extra="  <modelVersion>4.0</modelVersion>\n"),
  args=SRV_REPO)
c("decrypt-garbage-ciphertext", "{not-base64!!} and a too-short {QUJD}: decrypt ERRORs, values kept.",
  S(servers(server("srv", "u", "{not-base64!!}"), server("srv2", "u", "{QUJD}"))), sec=security_xml(),
  args=SRV_REPO + repos_args("srv2=https://srv2.example.com/"))
c("decrypt-brackets-prefix", "{[]<b64>}: empty attribute block; the lenient base64 decoder drops the brackets and it decrypts.",
  S(servers(server("srv", "u", "{[]" + ENC["secret1"][1:]))), sec=security_xml(), args=SRV_REPO)
c("decrypt-whitespace-in-ciphertext", "Whitespace inside the base64 text is discarded by plexus-cipher 2.0.",
  S(servers(server("srv", "u", ENC["secret1"][:10] + " " + ENC["secret1"][10:22] + "\t" + ENC["secret1"][22:]))),
  sec=security_xml(), args=SRV_REPO)
c("decrypt-special-clear-text", "A password with braces and XML characters (p{a}ss&<x>) round-trips through encryption.",
  S(servers(server("srv", "u", ENC["p{a}ss&<x>"]))), sec=security_xml(), args=SRV_REPO)
c("decrypt-duplicate-server-ids", "Duplicate server ids: only the first is decrypted for the session; the list shows both decrypted.",
  S(servers(server("srv", "u1", ENC["secret1"]), server("srv", "u2", ENC["second2"]))), sec=security_xml(), args=SRV_REPO)
c("decrypt-username-not-decrypted", "Only password/passphrase are decrypted; an encrypted-looking username stays as written.",
  S(servers(server("srv", ENC["secret1"], ENC["second2"]))), sec=security_xml(), args=SRV_REPO)
c("decrypt-inactive-proxy", "An inactive proxy with a bad encrypted password: no decrypt problem for the session (it is dropped).",
  S(proxies(proxy("p", "proxy.example.com", active="false", user="pu", pw=ENC_OTHER_SECRET1))), sec=security_xml(),
  args=SRV_REPO)
c("decrypt-via-interpolation", "An encrypted value delivered through ${env.X} interpolation is decrypted too.",
  S(servers(server("srv", "u", "${env.M2R_FIX_ENC}"))), sec=security_xml(), env=[("M2R_FIX_ENC", ENC["secret1"])],
  args=SRV_REPO)

# ---------------------------------------------------------------- more parsing / interpolation edges
c("parse-latin1-encoding", "encoding=ISO-8859-1 declaration with Latin-1 bytes: the declared encoding is honoured.",
  ('<?xml version="1.0" encoding="ISO-8859-1"?>\n<settings>\n  <servers>\n    <server>\n      <id>s</id>\n'
   '      <username>j\u00fcrgen</username>\n      <password>p\u00e4ss</password>\n    </server>\n  </servers>\n</settings>\n'
   ).encode("latin-1"), args=repos_args("s=https://s.example.com/"))
c("parse-crlf-line-numbers", "CRLF line endings: the unknown-element WARNING still reports the right line.",
  S("<servers>\n  <server>\n    <id>s</id>\n  </server>\n</servers>\n<bogus>x</bogus>\n").replace("\n", "\r\n"), args=CENTRAL)
c("parse-doctype", "A <!DOCTYPE settings> declaration before the root.",
  '<?xml version="1.0"?>\n<!DOCTYPE settings>\n<settings>\n  <offline>true</offline>\n</settings>\n', args=CENTRAL)
c("parse-port-empty", "An empty <port></port> is not the default: strict parse error (WARNING), lenient port 0.",
  S(proxies(proxy("p", "proxy.example.com", port=""))), args=CENTRAL)
c("parse-boolean-padded", "Boolean text with surrounding spaces (' true ') is trimmed first: offline true.",
  S(el("offline", " true ") + mirrors(mirror("m", "central", "https://m.example.com/", blocked="\n  true\n")) ), args=CENTRAL)
c("parse-comments-and-pi", "Comments and processing instructions between elements are ignored.",
  S("<!-- c1 -->\n<?pi data?>\n" + servers("<!-- c2 -->\n" + server("s", "u", "p")) + "<!-- c3 -->\n"),
  args=repos_args("s=https://s.example.com/"))
c("valid-mirror-mirrorof-blank", "<mirrorOf>   </mirrorOf> is trimmed to empty: ERROR.",
  S(mirrors(mirror("m", "   ", "https://m.example.com/"))), args=CENTRAL)
c("interp-active-profile", "${...} in <activeProfile> is interpolated before activation (-Dwhich=b activates b).",
  S(profiles(prof("a", [repo("repo-a", "https://a.example.com/")]), prof("b", [repo("repo-b", "https://b.example.com/")]))
    + active("${which}")), args=["-Dwhich=b"])
c("interp-activation-value", "${...} in an activation property value is interpolated by the settings builder first.",
  S(profiles(prof("p", [repo("repo-p", "https://p.example.com/")],
                  act=wrap("property", el("name", "target") + el("value", "${env.M2R_FIX_TARGET}"))))),
  env=[("M2R_FIX_TARGET", "prod")], args=["-Dtarget=prod"])
c("interp-equals-in-value", "-Dpw=a=b=c keeps everything after the first '=' as the value.",
  S(servers(server("s", "u", "${pw}"))), args=["-Dpw=a=b=c"] + repos_args("s=https://s.example.com/"))
c("act-cli-empty-tokens", "-P ',a,,' : empty tokens are skipped, a is activated.",
  S(profiles(prof("a", [repo("repo-a", "https://a.example.com/")]))), args=["-P", ",a,,"])

W.prune()
print("settings cases:", len(W.names))
