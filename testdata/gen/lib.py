"""Helpers that write differential fixture cases (see ../README.md).

A case is a folder with settings files, `args` (one argument per line), optional `env`, a one-line `README`
saying what it checks, and `expected.json` (written afterwards by ../regen.sh from the real Maven oracle).
The generators only write inputs; they never write expected.json.
"""
import fnmatch
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = os.path.dirname(HERE)

# Made with the real tool (mvn 3.8.7):
#   mvn --encrypt-master-password masterpw            -> MASTER
#   mvn -Dsettings.security=F --encrypt-password PW   -> ENC[PW]   (F holds MASTER)
MASTER = "{HOJQH96n+AsHKAWNyW0fgcv0k0JTshjvnAXmHKIXpMo=}"
#   mvn --encrypt-master-password otherpw             -> OTHER_MASTER
OTHER_MASTER = "{LFS5ZHmJfj8Hmf64exQrdU9vlBVBimMWf+8XXxLdOS0=}"
ENC = {
    "secret1": "{sQtyF+xSQbEH0bqSoGz2xOuzYNb0E/aRP4h7E7GRZh0=}",
    "proxypw": "{ud2zOLuXr48H9+XgLus1PZCz3m7a53xs76oZ4xk96uE=}",
    "keyphrase": "{dlcQtyojbEkH2JX9ZZZLxkOUTfLRJy/sZJWH5u+JYTM=}",
    "mirrorpw": "{q4/ZHzUSd7oHEsKRsQYYK2HTRPiBbBBhvYLO+V3GlVs=}",
    "p{a}ss&<x>": "{QrrMVAawkcUHY5bQ/Oe/99OU0QlC63E2J6iv/HCMaZA=}",
    "second2": "{8t4EMLSBx7sH3okjzqgoJ/WKCtNiTQwl40yOMmCCLyk=}",
}
# secret1 encrypted under OTHER_MASTER (so it does not decrypt with MASTER)
ENC_OTHER_SECRET1 = "{H085z4E5FhsHS4LTofkf/382hi8QAGq47ZYosoMibnI=}"


def security_xml(master=MASTER, relocation=None, extra=""):
    body = ""
    if master is not None:
        body += "  <master>%s</master>\n" % master
    if relocation is not None:
        body += "  <relocation>%s</relocation>\n" % relocation
    return '<?xml version="1.0" encoding="UTF-8"?>\n<settingsSecurity>\n%s%s</settingsSecurity>\n' % (body, extra)


NS = {
    "1.0.0": "http://maven.apache.org/SETTINGS/1.0.0",
    "1.1.0": "http://maven.apache.org/SETTINGS/1.1.0",
    "1.2.0": "http://maven.apache.org/SETTINGS/1.2.0",
}


def S(body="", ns="1.2.0", decl=True):
    """A settings document with `body` inside <settings>."""
    head = '<?xml version="1.0" encoding="UTF-8"?>\n' if decl else ""
    if ns is None:
        root = "<settings>"
    else:
        uri = NS.get(ns, ns)
        root = ('<settings xmlns="%s"\n          xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"\n'
                '          xsi:schemaLocation="%s https://maven.apache.org/xsd/settings-1.2.0.xsd">' % (uri, uri))
    return "%s%s\n%s</settings>\n" % (head, root, indent(body, 2))


def indent(text, n):
    pad = " " * n
    return "".join(pad + line + "\n" if line.strip() else "\n" for line in text.strip("\n").split("\n")) if text.strip() else ""


def el(tag, value):
    return "" if value is None else "<%s>%s</%s>\n" % (tag, value, tag)


def wrap(tag, inner):
    return "<%s>\n%s</%s>\n" % (tag, indent(inner, 2), tag)


def lst(outer, items):
    return wrap(outer, "".join(items)) if items else ""


def server(id=None, user=None, pw=None, key=None, phrase=None, config=None, extra=""):
    body = el("id", id) + el("username", user) + el("password", pw) + el("privateKey", key) + el("passphrase", phrase)
    if config is not None:
        body += wrap("configuration", config)
    return wrap("server", body + extra)


def mirror(id=None, of=None, url=None, layout=None, layouts=None, blocked=None, name=None, extra=""):
    body = (el("id", id) + el("name", name) + el("mirrorOf", of) + el("url", url) + el("layout", layout)
            + el("mirrorOfLayouts", layouts) + el("blocked", blocked))
    return wrap("mirror", body + extra)


def proxy(id=None, host=None, port=None, protocol=None, active=None, user=None, pw=None, nph=None, extra=""):
    body = (el("id", id) + el("active", active) + el("protocol", protocol) + el("host", host) + el("port", port)
            + el("username", user) + el("password", pw) + el("nonProxyHosts", nph))
    return wrap("proxy", body + extra)


def policy(tag, p):
    """p = (enabled, updatePolicy, checksumPolicy), each None to omit."""
    if p is None:
        return ""
    enabled, update, checksum = p
    return wrap(tag, el("enabled", enabled) + el("updatePolicy", update) + el("checksumPolicy", checksum))


def repo(id=None, url=None, layout=None, rel=None, snap=None, tag="repository", extra=""):
    body = el("id", id) + el("url", url) + el("layout", layout) + policy("releases", rel) + policy("snapshots", snap)
    return wrap(tag, body + extra)


def prof(id=None, repos=(), act=None, props=None, plugin_repos=(), extra=""):
    body = el("id", id)
    if act is not None:
        body += wrap("activation", act)
    if props:
        body += wrap("properties", "".join(el(k, v) for k, v in props))
    body += lst("repositories", list(repos))
    body += lst("pluginRepositories", list(plugin_repos))
    return wrap("profile", body + extra)


def servers(*xs):
    return lst("servers", list(xs))


def mirrors(*xs):
    return lst("mirrors", list(xs))


def proxies(*xs):
    return lst("proxies", list(xs))


def profiles(*xs):
    return lst("profiles", list(xs))


def active(*ids):
    return lst("activeProfiles", [el("activeProfile", i) for i in ids])


def repos_args(*specs):
    out = []
    for s in specs:
        out += ["--repo", s]
    return out


class Writer:
    def __init__(self, group_dir):
        self.root = os.path.join(TESTDATA, group_dir)
        self.names = set()

    def case(self, name, what, settings=None, gs=None, sec=None, args=(), env=None, files=None,
             security="default", home="fakehome", settings_name="settings.xml"):
        """Write one case folder.

        settings: text of settings.xml (None = no file: a missing user settings file).
        gs: text of global-settings.xml (passed with --global-settings when given).
        sec: text of settings-security.xml; security="default" passes --security settings-security.xml when
             sec is given, else --security nonexistent-security.xml; security=None passes no --security.
        home: value for -Duser.home (None = not passed).
        files: {relative path: text} extra files.
        """
        assert name not in self.names, name
        self.names.add(name)
        d = os.path.join(self.root, name)
        kept = None
        if os.path.isdir(d):
            # keep the last oracle answer; ../regen.sh refreshes it after the inputs changed
            exp = os.path.join(d, "expected.json")
            if os.path.isfile(exp):
                with open(exp) as f:
                    kept = f.read()
            shutil.rmtree(d)
        os.makedirs(d)
        if kept is not None:
            write(os.path.join(d, "expected.json"), kept)
        a = ["--settings", settings_name]
        if settings is not None:
            write(os.path.join(d, settings_name), settings)
        if gs is not None:
            write(os.path.join(d, "global-settings.xml"), gs)
            a += ["--global-settings", "global-settings.xml"]
        if sec is not None:
            write(os.path.join(d, "settings-security.xml"), sec)
        if security == "default":
            a += ["--security", "settings-security.xml" if sec is not None else "nonexistent-security.xml"]
        elif security is not None:
            a += ["--security", security]
        if home is not None:
            a.append("-Duser.home=" + home)
        a += list(args)
        for rel, text in (files or {}).items():
            p = os.path.join(d, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            write(p, text)
        write(os.path.join(d, "args"), "".join(x + "\n" for x in a))
        if env:
            write(os.path.join(d, "env"), "".join("%s=%s\n" % kv for kv in env))
        write(os.path.join(d, "README"), what.strip() + "\n")

    def prune(self):
        """Remove case folders that the generator no longer defines.

        Folders that other sources own are kept: see OTHER_SOURCES."""
        if not os.path.isdir(self.root):
            return
        for n in os.listdir(self.root):
            if n in self.names or not os.path.isdir(os.path.join(self.root, n)):
                continue
            if any(fnmatch.fnmatchcase(n, pattern) for pattern in OTHER_SOURCES):
                continue
            shutil.rmtree(os.path.join(self.root, n))


# Case folders in testdata/settings and testdata/injection that gen_settings.py / gen_injection.py
# do not write, so their prune() leaves them alone.
OTHER_SOURCES = [
    # gen_random_settings.py (settings) and gen_random.py (injection): random differential rounds.
    "random-*",
    # Written by hand (hostile input, issue 8): raw bytes a text generator does not express well.
    "parse-charref-*",
    "parse-utf16*",
    "parse-comment-control-char",
    "parse-duplicated-attribute",
]


def write(path, text):
    """Write text as UTF-8 (bytes are written unchanged, for cases that need another encoding)."""
    if isinstance(text, bytes):
        with open(path, "wb") as f:
            f.write(text)
        return
    with open(path, "w", newline="", encoding="utf-8") as f:
        f.write(text)
