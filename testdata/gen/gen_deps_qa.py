#!/usr/bin/env python3
"""Adversarial differential cases for `m2r describe`, `m2r tree` and `m2r versions` (QA rounds).

    python3 gen_deps_qa.py round --seed S --count N --out DIR [--kinds describe,tree,versions] [--no-answer]
    python3 gen_deps_qa.py fixtures [--no-answer]
    python3 gen_deps_qa.py hand --out DIR [--no-answer]     # only the hand-made cases, into DIR

`round` writes N fresh random cases (seeded, deterministic) into DIR, in the layout of
../../../shared/oracle/compare-deps.py, and asks the oracle (deps.sh) for each answer; check an
implementation with `python3 ../../../shared/oracle/compare-deps.py -j 2 DIR -- target/debug/m2r`.
Cases where the oracle gives no JSON answer (Maven crashed) are deleted and listed.

`fixtures` writes the committed cases into testdata/deps/: `*-qa-random-*` (random cases of fixed seeds,
kept so the rules they combine stay pinned) and the hand-made `*-qa-<rule>` cases, each the smallest
input that showed a difference between m2r and Maven (see QA_CASES below), then answers them.

Unlike the per-rule generators (gen_deps_describe.py, gen_trees.py, gen_versions.py), the random cases
here combine features the way real projects do: parent chains (repository parents, relativePath parents
of a project file, `${project.parent.version}`), properties overridden at several levels and by -D,
profiles (activeByDefault against other active profiles, property, jdk ranges, os, file) adding
dependencies, management, properties and repositories, management from parents, own entries and BOM
imports (chains, property versions), interpolation edge cases, relocations, types and classifiers,
system scope, scopes and optional along paths, exclusions with wildcards, ranges through metadata
(with snapshots and missing POMs), conflicts, cycles, duplicate declarations, invalid and missing POMs
at several depths and POM-declared repositories.
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from xml.sax.saxutils import escape

HERE = os.path.dirname(os.path.abspath(__file__))
DEPS = os.path.normpath(os.path.join(HERE, "..", "deps"))
ORACLE = os.environ.get("ORACLE", os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "oracle",
                                                                  "deps.sh")))
JOBS = int(os.environ.get("JOBS", "2"))

SETTINGS = ("<settings><mirrors><mirror><id>fix</id><mirrorOf>{of}</mirrorOf>"
            "<url>file://${{case.dir}}/repo</url></mirror></mirrors></settings>\n")

# ------------------------------------------------------------------------------------------ POM model


def t(name, value):
    return "" if value is None else f"<{name}>{escape(str(value))}</{name}>"


class Dep:
    """A <dependency> as written in a POM (None = element absent)."""

    def __init__(self, g, a, v=None, scope=None, type=None, classifier=None, optional=None, system_path=None,
                 exclusions=None):
        self.g, self.a, self.v = g, a, v
        self.scope, self.type, self.classifier = scope, type, classifier
        self.optional, self.system_path, self.exclusions = optional, system_path, exclusions

    def xml(self):
        x = t("groupId", self.g) + t("artifactId", self.a) + t("version", self.v) + t("type", self.type)
        x += t("classifier", self.classifier) + t("scope", self.scope) + t("systemPath", self.system_path)
        if self.exclusions is not None:
            x += "<exclusions>" + "".join(f"<exclusion>{t('groupId', g)}{t('artifactId', a)}</exclusion>"
                                          for g, a in self.exclusions) + "</exclusions>"
        x += t("optional", self.optional)
        return f"<dependency>{x}</dependency>"


class Profile:
    def __init__(self, pid, activation=""):
        self.id, self.activation = pid, activation
        self.properties, self.deps, self.managed, self.repos = [], [], [], []

    def xml(self):
        x = t("id", self.id)
        if self.activation:
            x += f"<activation>{self.activation}</activation>"
        x += body_xml(self)
        return f"<profile>{x}</profile>"


def body_xml(m):
    x = ""
    if m.repos:
        x += "<repositories>" + "".join(r for r in m.repos) + "</repositories>"
    if m.properties:
        x += "<properties>" + "".join(f"<{k}>{escape(v)}</{k}>" for k, v in m.properties) + "</properties>"
    if m.managed:
        x += "<dependencyManagement><dependencies>" + "".join(d.xml() for d in m.managed) + \
             "</dependencies></dependencyManagement>"
    if m.deps:
        x += "<dependencies>" + "".join(d.xml() for d in m.deps) + "</dependencies>"
    return x


class Pom:
    """A POM 4.0.0 (every field optional so that invalid ones can be written)."""

    def __init__(self, g, a, v, packaging=None):
        self.g, self.a, self.v, self.packaging = g, a, v, packaging
        self.parent = None  # (g, a, v, relativePath or None or "" for <relativePath/>)
        self.properties, self.deps, self.managed, self.repos, self.profiles = [], [], [], [], []
        self.relocation = None  # dict
        self.model_version = "4.0.0"
        self.extra = ""

    def xml(self):
        x = '<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">'
        x += t("modelVersion", self.model_version)
        if self.parent:
            pg, pa, pv, rel = self.parent
            x += "<parent>" + t("groupId", pg) + t("artifactId", pa) + t("version", pv)
            x += ("<relativePath/>" if rel == "" else t("relativePath", rel)) + "</parent>"
        x += t("groupId", self.g) + t("artifactId", self.a) + t("version", self.v) + t("packaging", self.packaging)
        x += body_xml(self)
        if self.relocation is not None:
            x += "<distributionManagement><relocation>" + "".join(
                t(k, v) for k, v in self.relocation.items()) + "</relocation></distributionManagement>"
        if self.profiles:
            x += "<profiles>" + "".join(p.xml() for p in self.profiles) + "</profiles>"
        return x + self.extra + "</project>\n"


def repo_xml(rid, url, releases=None, snapshots=None):
    x = t("id", rid) + t("url", url)
    if releases is not None:
        x += f"<releases><enabled>{releases}</enabled></releases>"
    if snapshots is not None:
        x += f"<snapshots><enabled>{snapshots}</enabled></snapshots>"
    return f"<repository>{x}</repository>"


class Case:
    def __init__(self, name, mode, readme):
        self.name, self.mode, self.readme = name, mode, readme
        self.files = {}
        self.args = []
        self.mirror_of = "*"

    def pom(self, p, repo="repo"):
        g, a, v = p.g, p.a, p.v
        if g is None and p.parent:
            g = p.parent[0]
        if v is None and p.parent:
            v = p.parent[2]
        self.files[f"{repo}/{g.replace('.', '/')}/{a}/{v}/{a}-{v}.pom"] = p.xml()
        return p

    def raw(self, g, a, v, text, repo="repo"):
        self.files[f"{repo}/{g.replace('.', '/')}/{a}/{v}/{a}-{v}.pom"] = text

    def metadata(self, g, a, versions, repo="repo", latest=None, release=None):
        vs = "".join(f"<version>{v}</version>" for v in versions)
        self.files[f"{repo}/{g.replace('.', '/')}/{a}/maven-metadata.xml"] = (
            f"<metadata><groupId>{g}</groupId><artifactId>{a}</artifactId><versioning>"
            + t("latest", latest) + t("release", release) +
            f"<versions>{vs}</versions><lastUpdated>20240101000000</lastUpdated></versioning></metadata>\n")

    def timestamped(self, p, stamp="20240102.030405", build=3, repo="repo"):
        """Publishes a SNAPSHOT POM as a remote repository does: a timestamped file and the
        version's maven-metadata.xml naming it."""
        g, a, v = p.g or p.parent[0], p.a, p.v
        base = v[:-len("SNAPSHOT")]
        d = f"{repo}/{g.replace('.', '/')}/{a}/{v}"
        self.files[f"{d}/{a}-{base}{stamp}-{build}.pom"] = p.xml()
        self.files[f"{d}/maven-metadata.xml"] = (
            f"<metadata modelVersion=\"1.1.0\"><groupId>{g}</groupId><artifactId>{a}</artifactId><version>{v}</version>"
            f"<versioning><snapshot><timestamp>{stamp}</timestamp><buildNumber>{build}</buildNumber></snapshot>"
            f"<lastUpdated>20240102030405</lastUpdated><snapshotVersions>"
            f"<snapshotVersion><extension>pom</extension><value>{base}{stamp}-{build}</value>"
            f"<updated>20240102030405</updated></snapshotVersion>"
            f"<snapshotVersion><extension>jar</extension><value>{base}{stamp}-{build}</value>"
            f"<updated>20240102030405</updated></snapshotVersion>"
            f"</snapshotVersions></versioning></metadata>\n")

    def write(self, root):
        d = os.path.join(root, self.name)
        if os.path.isdir(d):
            for entry in os.listdir(d):
                if entry != "expected.json":
                    p = os.path.join(d, entry)
                    shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
        os.makedirs(d, exist_ok=True)
        files = dict(self.files)
        if self.mode != "versions":
            files.setdefault("settings.xml", SETTINGS.format(of=self.mirror_of))
        for path, content in files.items():
            p = os.path.join(d, path)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w" if isinstance(content, str) else "wb") as f:
                f.write(content)
        with open(os.path.join(d, "args"), "w") as f:
            f.write("\n".join([self.mode] + self.args) + "\n")
        with open(os.path.join(d, "README"), "w") as f:
            f.write(self.readme.strip() + "\n")
        return d


def base_args(case):
    return ["--settings", "settings.xml", "-Dcase.dir=@CASE@"]


# ------------------------------------------------------------------------------------------ random parts

G = "org.qa"
PROPS = ["pa", "pb", "pc", "pd"]

JDK_ACTIVATIONS = ["17", "1.8", "!1.8", "!17", "[1.8,)", "[11,17)", "[17,)", "(,1.8]", "[1.8,18)", "[17,18)",
                   "(,17]", "(,17)", "[17.0.9,)", "11", "1.7", "[1.5,1.9)"]
JAVA_VERSIONS = ["1.8.0_292", "11.0.2", "1.7.0", "17", "21"]
OS_ACTIVATIONS = ["<family>unix</family>", "<family>!windows</family>", "<family>windows</family>",
                  "<name>linux</name>", "<name>Linux</name>", "<name>!linux</name>", "<arch>amd64</arch>",
                  "<arch>x86</arch>", "<family>unix</family><arch>amd64</arch>", "<family>mac</family>",
                  "<family>UNIX</family>", "<arch>!x86</arch>"]


def rand_activation(rng, markers):
    """An <activation> body (or "" for none) and a short description."""
    kind = rng.choice(["none", "default", "prop", "prop-not", "prop-value", "prop-value-not", "jdk", "os",
                       "file-exists", "file-missing", "combo", "default", "prop"])
    if kind == "none":
        return ""
    if kind == "default":
        return "<activeByDefault>true</activeByDefault>"
    if kind == "prop":
        return f"<property><name>{rng.choice(['qa.flag', 'qa.other', 'pa'])}</name></property>"
    if kind == "prop-not":
        return f"<property><name>!{rng.choice(['qa.flag', 'qa.other'])}</name></property>"
    if kind == "prop-value":
        return f"<property><name>qa.mode</name><value>{rng.choice(['dev', 'prod', 'Dev'])}</value></property>"
    if kind == "prop-value-not":
        return f"<property><name>qa.mode</name><value>!{rng.choice(['dev', 'prod'])}</value></property>"
    if kind == "jdk":
        return f"<jdk>{rng.choice(JDK_ACTIVATIONS)}</jdk>"
    if kind == "os":
        return f"<os>{rng.choice(OS_ACTIVATIONS)}</os>"
    if kind in ("file-exists", "file-missing"):
        name = rng.choice(markers)
        base = rng.choice(["${case.dir}/", "${case.dir}/", "${basedir}/", ""])
        return f"<file><{kind[5:]}>{base}{name}</{kind[5:]}></file>"
    # combo: several conditions (all must hold)
    parts = [f"<property><name>{rng.choice(['qa.flag', '!qa.flag'])}</name></property>",
             f"<jdk>{rng.choice(JDK_ACTIVATIONS)}</jdk>", f"<os>{rng.choice(OS_ACTIVATIONS)}</os>"]
    rng.shuffle(parts)
    return "".join(parts[:rng.randint(2, 3)])


def rand_defines(rng, allow_java=True):
    out = []
    if rng.random() < 0.4:
        out.append("-Dqa.flag" if rng.random() < 0.5 else "-Dqa.flag=" + rng.choice(["true", "false", ""]))
    if rng.random() < 0.3:
        out.append("-Dqa.mode=" + rng.choice(["dev", "prod", "Dev"]))
    if rng.random() < 0.25:
        out.append(f"-D{rng.choice(PROPS)}=9.{rng.randint(0, 9)}")
    if allow_java and rng.random() < 0.15:
        out.append("-Djava.version=" + rng.choice(JAVA_VERSIONS))
    if rng.random() < 0.1:
        out.append("-Denv.QA_E=7")
    if rng.random() < 0.05:
        out.append("-Dos.name=Windows 10")
    return out


# ------------------------------------------------------------------------------------------ describe


def version_expr(rng, level_names):
    """A version written as an expression of some kind, or a literal."""
    k = rng.random()
    if k < 0.3:
        return f"${{{rng.choice(PROPS)}}}"
    if k < 0.45:
        return rng.choice(["${project.version}", "${pom.version}", "${version}", "${project.parent.version}",
                           "${parent.version}"])
    if k < 0.5:
        return "${v${sfx}}" if rng.random() < 0.5 else "${pa}-${pb}"
    if k < 0.55:
        return rng.choice(["${env.QA_E}", "${nope}", "1-${nope}", "${project.properties.pa}", "${.pa}",
                           "${env.HOME}", "${env.PATH}", "${project.parent.groupId}", "${parent.artifactId}",
                           "${project.name}", "${project.url}", "${project.organization.name}",
                           "${project.description}", "${project.artifactId}", "${project.packaging}",
                           "${project.build.finalName}", "${project.prerequisites.maven}",
                           "${project.scm.connection}", "${project.inceptionYear}", "${pa.${sfx}}",
                           "${project.properties}", "${project}", "${}", "$${pa}", "${pa", "${ pa }"])
    return f"{rng.randint(1, 3)}.{rng.randint(0, 3)}"


def rand_dep(rng, names, managed_keys=(), system_ok=True):
    a = rng.choice(names)
    g = G if rng.random() < 0.85 else rng.choice(["${project.groupId}", "org.qb", "${pom.groupId}"])
    d = Dep(g, a)
    if not (managed_keys and rng.random() < 0.4):
        d.v = version_expr(rng, None)
    r = rng.random()
    if r < 0.15:
        d.type = rng.choice(["test-jar", "ejb-client", "pom", "war", "zip", "java-source", "javadoc", "jar", "bundle"])
    if rng.random() < 0.12:
        d.classifier = rng.choice(["tests", "sources", "linux", "${os.name}", ""])
    if rng.random() < 0.35:
        d.scope = rng.choice(["compile", "runtime", "test", "provided", "system", "import", ""])
    if d.scope == "system" and system_ok:
        d.system_path = rng.choice(["/opt/lib/x.jar", "${qa.home}/lib/x.jar", "/opt/${pa}.jar"])
    elif d.scope == "system":
        d.scope = None
    if rng.random() < 0.2:
        d.optional = rng.choice(["true", "false", "TRUE", "${qa.opt}"])
    if rng.random() < 0.2:
        d.exclusions = [rng.choice([(G, rng.choice(names)), ("*", rng.choice(names)), ("org.qb", "*"), ("*", "*")])
                        for _ in range(rng.randint(1, 2))]
    return d


def rand_properties(rng, level):
    out = []
    for p in PROPS:
        if rng.random() < 0.5:
            v = rng.choice([f"{level}.{PROPS.index(p)}", f"${{{rng.choice(PROPS)}}}.{level}", "${project.version}",
                            f"{level}.{PROPS.index(p)}", "${project.artifactId}-x"])
            out.append((p, v))
    if rng.random() < 0.3:
        out.append(("sfx", rng.choice(["1", "2"])))
        out.append(("v1", f"{level}.11"))
        if rng.random() < 0.7:
            out.append(("v2", f"{level}.22"))
    if rng.random() < 0.2:
        out.append(("qa.home", "/opt/qa" + str(level)))
    if rng.random() < 0.15:
        out.append(("qa.opt", rng.choice(["true", "false"])))
    if rng.random() < 0.05:
        out.append(("cyc", "${cyc2}"))
        out.append(("cyc2", "${cyc}"))
    return out


def rand_profiles(rng, level, names, case, markers):
    out = []
    for i in range(rng.choices([0, 1, 2, 3], [4, 3, 2, 1])[0]):
        p = Profile(f"p{level}{i}", rand_activation(rng, markers))
        if rng.random() < 0.6:
            p.properties = rand_properties(rng, level * 10 + i + 5)
        if rng.random() < 0.4:
            p.deps = [rand_dep(rng, names) for _ in range(rng.randint(1, 2))]
        if rng.random() < 0.3:
            p.managed = [rand_managed(rng, names, case) for _ in range(rng.randint(1, 2))]
        if rng.random() < 0.2:
            p.repos = [repo_xml(f"prof{level}{i}", f"https://prof{level}.example.org/m2")]
        out.append(p)
    return out


def rand_managed(rng, names, case, depth=0):
    if rng.random() < 0.25 and depth < 2:
        bom = make_bom(rng, names, case, depth + 1)
        return Dep(bom[0], bom[1], bom[2], scope="import", type="pom")
    d = Dep(G, rng.choice(names), version_expr(rng, None) if rng.random() < 0.4 else f"{rng.randint(4, 6)}.0")
    if rng.random() < 0.3:
        d.scope = rng.choice(["runtime", "test", "provided", "compile", "system"])
        if d.scope == "system":
            d.system_path = "/opt/managed/${pa}.jar"
    if rng.random() < 0.15:
        d.type = rng.choice(["test-jar", "pom", "zip"])
    if rng.random() < 0.1:
        d.classifier = "tests"
    if rng.random() < 0.2:
        d.exclusions = [(G, rng.choice(names))]
    if rng.random() < 0.15:
        d.optional = "true"
    return d


BOM_COUNTER = [0]


def make_bom(rng, names, case, depth):
    BOM_COUNTER[0] += 1
    a = f"bom{BOM_COUNTER[0]}"
    b = Pom(G, a, "1", packaging="pom")
    if rng.random() < 0.3:
        b.properties = [("pa", f"b{BOM_COUNTER[0]}.0")]
    b.managed = [rand_managed(rng, names, case, depth) for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.1:
        b.deps = [Dep(G, "bomdep", "1")]
    if rng.random() < 0.2:
        p = Pom(G, f"bomparent{BOM_COUNTER[0]}", "1", packaging="pom")
        p.managed = [rand_managed(rng, names, case, 2)]
        case.pom(p)
        b.parent = (G, p.a, "1", "")
    version = "1"
    if rng.random() < 0.2:
        version = "${bomv}"
    case.pom(b)
    return (G, a, version)


def gen_describe(rng, name, seed):
    case = Case(name, "describe", f"Random descriptor (gen_deps_qa.py, seed {seed}).")
    BOM_COUNTER[0] = 0
    names = [f"d{i}" for i in range(6)]
    markers = ["marker", "nofile"]
    case.files["marker"] = "x\n"
    levels = rng.choice([0, 1, 1, 2, 2, 3])
    chain = []
    for lv in range(levels):
        p = Pom(G, f"par{lv}", f"{lv + 1}.0", packaging="pom")
        chain.append(p)
    app = Pom(G, "app", "1.0")
    chain.append(app)
    for i, p in enumerate(chain):
        if i > 0:
            par = chain[i - 1]
            p.parent = (G, par.a, par.v, "")
            if rng.random() < 0.5 and p is not app:
                p.g = None
            if p is app and rng.random() < 0.3:
                p.g = None
        p.properties = rand_properties(rng, i)
        if rng.random() < 0.4:
            fields = ["<name>N%d-${project.artifactId}</name>" % i, "<url>https://u%d.example.org</url>" % i,
                      "<description>D%d</description>" % i, "<inceptionYear>20%02d</inceptionYear>" % i,
                      "<organization><name>O%d</name></organization>" % i,
                      "<scm><connection>scm:git:c%d</connection></scm>" % i,
                      "<prerequisites><maven>3.%d</maven></prerequisites>" % i]
            p.extra = "".join(rng.sample(fields, rng.randint(1, 4)))
        if rng.random() < 0.15:
            p.properties.append(("bomv", "1"))
        if rng.random() < 0.5:
            p.managed = [rand_managed(rng, names, case) for _ in range(rng.randint(1, 3))]
        if p is app or rng.random() < 0.4:
            keys = [(d.g, d.a) for d in p.managed]
            p.deps = [rand_dep(rng, names, keys) for _ in range(rng.randint(1, 4) if p is app else rng.randint(1, 2))]
        p.profiles = rand_profiles(rng, i, names, case, markers)
        if rng.random() < 0.15:
            p.repos = [repo_xml(f"r{i}", f"https://r{i}.example.org/m2"),
                       ] + ([repo_xml("central", "https://mirror.example.org/central")] if rng.random() < 0.3 else [])
    if any("${bomv}" in d.v for p in chain for d in p.managed if d.v):
        chain[0].properties.append(("bomv", "1"))
    if rng.random() < 0.12:
        # relocation of the described artifact
        target = rng.choice([{"groupId": "org.qb"}, {"artifactId": "app2"}, {"version": "2.0"},
                             {"groupId": "org.qb", "artifactId": "app3"}, {"artifactId": "${pa}"}])
        app.relocation = target
        tg, ta, tv = target.get("groupId", G), target.get("artifactId", "app"), target.get("version", "1.0")
        if "$" not in ta:
            tp = Pom(tg, ta, tv)
            tp.deps = [rand_dep(rng, names)]
            if rng.random() < 0.3:
                tp.relocation = {"version": "3.0"}
                t2 = Pom(tg, ta, "3.0")
                t2.deps = [rand_dep(rng, names)]
                case.pom(t2)
            case.pom(tp)
    for p in chain:
        case.pom(p)
    coord = f"{G}:app:1.0" if rng.random() < 0.85 else rng.choice(
        [f"{G}:app:jar:tests:1.0", f"{G}:app:pom:1.0", f"{G}:app:zip:1.0"])
    case.args = base_args(case) + rand_defines(rng) + [coord]
    return case


# ------------------------------------------------------------------------------------------ tree


def gen_tree(rng, name, seed):
    case = Case(name, "tree", f"Random graph (gen_deps_qa.py, seed {seed}).")
    names = [f"n{i}" for i in range(rng.randint(5, 12))]
    versions = {a: sorted(rng.sample(["1.0", "1.1", "2.0", "2.1-SNAPSHOT", "3.0"], rng.randint(1, 3)),
                          key=lambda v: [int(x) if x.isdigit() else -1 for x in v.replace("-", ".").split(".")])
                for a in names}
    for a in names:  # snapshots only sometimes
        if rng.random() < 0.7:
            versions[a] = [v for v in versions[a] if "SNAPSHOT" not in v] or ["1.0"]
    parent = None
    if rng.random() < 0.5:
        # a parent shared by the library POMs, with management and properties that they use
        parent = Pom(G, "lib-parent", "5", packaging="pom")
        parent.properties = [("libv", rng.choice(versions[names[0]])), ("pa", "1.0")]
        if rng.random() < 0.5:
            parent.managed = [Dep(G, rng.choice(names), rng.choice(["1.0", "2.0", "${libv}"]))]
        if rng.random() < 0.3:
            parent.deps = [Dep(G, rng.choice(names), rng.choice(versions[names[0]] + ["${libv}"]),
                               scope=rng.choice([None, "runtime", "test"]))]
        if rng.random() < 0.3:
            pr = Profile("lp", rand_activation(rng, ["marker"]))
            pr.deps = [Dep(G, rng.choice(names), "1.0")]
            parent.profiles = [pr]
        if rng.random() < 0.2:
            parent.repos = [repo_xml("snaps", "https://snaps.example.org/m2", snapshots="true")]
        case.pom(parent)
        for a in names:
            if parent.deps and parent.deps[0].a == a:
                parent.deps = []
    def pick(exclude, transitive):
        a = rng.choice([x for x in names if x != exclude] or names)
        v = rng.choice(versions[a])
        r = rng.random()
        if r < 0.08:
            v = f"[{versions[a][0]},)"
        elif r < 0.13:
            v = f"[{versions[a][0]},{versions[a][-1]}]"
        elif r < 0.15:
            v = f"(,{versions[a][-1]})"
        elif r < 0.17:
            v = f"[{versions[a][-1]}]"
        elif r < 0.18:
            v = "[9,10)"
        elif r < 0.19:
            v = rng.choice(["LATEST", "RELEASE", f"(,{versions[a][0]}],[{versions[a][-1]},)", f"({versions[a][0]},)",
                            f"[{versions[a][0]},{versions[a][-1]})"])
        elif r < 0.22 and transitive and parent is not None:
            v = "${libv}"
        elif r < 0.25 and not transitive:
            v = rng.choice(["${pa}", "${project.version}", "${libv}"])
        scope = rng.choices([None, "compile", "runtime", "test", "provided", "system", "banana"],
                            [12, 3, 4, 2, 2, 0.4, 0.2])[0]
        d = Dep(G, a, v, scope=scope)
        if scope == "system":
            d.system_path = "/opt/sys/" + a + ".jar"
        if rng.random() < 0.1:
            d.optional = "true"
        if rng.random() < 0.1:
            d.exclusions = [rng.choice([(G, rng.choice(names)), ("*", rng.choice(names)), (G, "*"), ("*", "*")])]
        r = rng.random()
        if r < 0.05:
            d.classifier = "extra"
        elif r < 0.09:
            d.type = rng.choice(["test-jar", "pom", "war", "ejb-client", "zip"])
        return d
    relocated = {}
    for a in names:
        for v in versions[a]:
            if rng.random() < 0.06:
                bad = Pom(G, a, v)
                bad.deps = [Dep(G, rng.choice(names), "1.0")]
                kind = rng.choice(["xml", "no-dep-version", "model-version", "dup-tag", "missing-parent",
                                   "bad-scope", "no-version", "bad-bom"])
                if kind == "xml":
                    case.raw(G, a, v, "<project><oops")
                    continue
                if kind == "no-dep-version":
                    bad.deps[0].v = None
                elif kind == "model-version":
                    bad.model_version = rng.choice(["4.0.1", "5.0.0", None])
                elif kind == "dup-tag":
                    bad.extra = "<packaging>jar</packaging><packaging>jar</packaging>"
                elif kind == "missing-parent":
                    bad.parent = (G, "nowhere", "1", "")
                elif kind == "bad-scope":
                    bad.deps[0].scope = rng.choice(["banana", "import", "COMPILE"])
                elif kind == "no-version":
                    bad.deps[0].v = "${undefined.v}"
                else:
                    bad.managed = [Dep(G, "nobom", "1", scope="import", type="pom")]
                case.pom(bad)
                continue
            if rng.random() < 0.04:
                continue  # missing POM
            p = Pom(G, a, v)
            if parent is not None and rng.random() < 0.7:
                p.parent = (G, parent.a, parent.v, "")
                p.g = None if rng.random() < 0.5 else G
            if rng.random() < 0.05 and a not in relocated:
                target = rng.choice([x for x in names if x != a] + ["moved"])
                p.relocation = {"artifactId": target} if rng.random() < 0.7 else {"groupId": "org.qb"}
                relocated[a] = p.relocation
                if "groupId" in p.relocation:
                    q = Pom("org.qb", a, v)
                    q.deps = [pick(a, True)]
                    case.pom(q)
                elif target == "moved":
                    case.pom(Pom(G, "moved", v))
                case.pom(p)
                continue
            n = rng.choices([0, 1, 2, 3, 4], [3, 3, 3, 2, 1])[0]
            for _ in range(n):
                d = pick(a, True)
                if rng.random() < 0.05 and p.deps:
                    d = Dep(p.deps[0].g, p.deps[0].a, rng.choice(versions[p.deps[0].a]))  # duplicate declaration
                p.deps.append(d)
            if rng.random() < 0.1:
                pr = Profile("x", rand_activation(rng, ["marker"]))
                pr.deps = [pick(a, True)]
                p.profiles = [pr]
            if rng.random() < 0.06:
                p.repos = [repo_xml("snaps", "https://snaps.example.org/m2", snapshots="true")]
            if v.endswith("SNAPSHOT") and rng.random() < 0.4:
                case.timestamped(p)
            else:
                case.pom(p)
        rel = [x for x in versions[a] if "SNAPSHOT" not in x]
        case.metadata(G, a, versions[a], latest=versions[a][-1] if rng.random() < 0.7 else None,
                      release=rel[-1] if rel and rng.random() < 0.7 else None)
    case.files["marker"] = "x\n"
    roots = [pick(None, False) for _ in range(rng.randint(1, 5))]
    managed = []
    for _ in range(rng.choices([0, 1, 2, 3], [4, 3, 2, 1])[0]):
        a = rng.choice(names)
        m = Dep(G, a, rng.choice(versions[a]) if rng.random() < 0.85 else None)
        if m.v and rng.random() < 0.1:
            m.v = f"[{versions[a][0]},)"
        if rng.random() < 0.3:
            m.scope = rng.choice(["compile", "runtime", "test", "provided", "system"])
            if m.scope == "system":
                m.system_path = "/opt/managed.jar"
        if rng.random() < 0.2:
            m.exclusions = [(G, rng.choice(names))]
        if rng.random() < 0.15:
            m.optional = rng.choice(["true", "false"])
        if rng.random() < 0.1:
            m.classifier = "extra"
        if rng.random() < 0.08:
            m.type = "test-jar"
        managed.append(m)
    if rng.random() < 0.15:
        bom = Pom(G, "tbom", "1", packaging="pom")
        a = rng.choice(names)
        bom.managed = [Dep(G, a, rng.choice(versions[a]), scope=rng.choice([None, "runtime"]))]
        case.pom(bom)
        managed.append(Dep(G, "tbom", "1", scope="import", type="pom"))
    defines = rand_defines(rng, allow_java=True)
    if rng.random() < 0.6:
        # a project file, perhaps with a relativePath parent
        proj = Pom(G, "app", "1.0")
        proj.deps, proj.managed = roots, managed
        a0 = names[0]
        proj.properties = [("pa", rng.choice(versions[a0])), ("libv", rng.choice(versions[a0]))]
        if rng.random() < 0.3:
            lp = Pom(G, "local-parent", "1", packaging="pom")
            lp.properties = [("pa", "1.0"), ("libv", "1.0")]
            if rng.random() < 0.5:
                a = rng.choice(names)
                lp.managed = [Dep(G, a, rng.choice(versions[a]), scope=rng.choice([None, "runtime", "test"]))]
            if rng.random() < 0.4:
                lp.deps = [pick(None, False)]
            where = rng.choice(["default", "dir", "file", "empty"])
            if where == "default":
                case.files["pom.xml"] = lp.xml()
                proj.parent = (G, "local-parent", "1", None)
                pom_path = "app/pom.xml"
            else:
                case.files["parent/pom.xml"] = lp.xml()
                if where == "empty":
                    case.pom(lp)
                proj.parent = (G, "local-parent", "1", {"dir": "parent", "file": "parent/pom.xml", "empty": ""}[where])
                pom_path = "pom.xml"
            proj.g = None if rng.random() < 0.5 else G
            if rng.random() < 0.3:
                proj.v = None
        else:
            pom_path = "pom.xml"
        if rng.random() < 0.2:
            pr = Profile("pp", rand_activation(rng, ["marker"]))
            pr.deps = [pick(None, False)]
            proj.profiles = [pr]
        case.files[pom_path] = proj.xml()
        if pom_path.startswith("app/"):
            case.files["app/marker"] = "x\n"
        case.args = base_args(case) + defines + ["--pom", pom_path]
    else:
        root = Pom(G, "root", "1")
        root.deps, root.managed = roots, managed
        root.properties = [("pa", rng.choice(versions[names[0]])), ("libv", rng.choice(versions[names[0]]))]
        case.pom(root)
        case.args = base_args(case) + defines + [f"{G}:root:1"]
    if rng.random() < 0.1:
        case.mirror_of = rng.choice(["*,!snaps", "external:*"])
    return case


# ------------------------------------------------------------------------------------------ relocations


def gen_reloc(rng, name, seed):
    """Small graphs dense in relocations (group, artifact, version, chains, cycles, to excluded or
    managed targets, in ranges), management (version, scope, optional, exclusions, system paths),
    optional and exclusions at several levels, duplicates and types."""
    case = Case(name, "tree", f"Random relocation graph (gen_deps_qa.py, seed {seed}).")
    names = [f"r{i}" for i in range(rng.randint(4, 8))]
    groups = [G, "org.qb"]
    published = {}

    def coord():
        return rng.choice(groups), rng.choice(names), rng.choice(["1", "2"])

    def dep(exclude=None):
        g, a, v = coord()
        d = Dep(g, a, v)
        r = rng.random()
        if r < 0.1:
            d.v = rng.choice(["[1,2]", "[1,)", "(,2)"])
        if rng.random() < 0.2:
            d.scope = rng.choice(["runtime", "test", "provided", "compile", "system"])
            if d.scope == "system":
                d.system_path = "/opt/" + a + ".jar"
        if rng.random() < 0.15:
            d.optional = rng.choice(["true", "false"])
        if rng.random() < 0.25:
            d.exclusions = [rng.choice([(rng.choice(groups), rng.choice(names)), ("*", rng.choice(names)),
                                        (rng.choice(groups), "*")])]
        if rng.random() < 0.1:
            d.classifier = "c"
        if rng.random() < 0.08:
            d.type = rng.choice(["test-jar", "pom", "war"])
        return d

    for g in groups:
        for a in names:
            for v in ("1", "2"):
                if rng.random() < 0.15:
                    continue  # missing
                p = Pom(g, a, v)
                k = rng.random()
                if k < 0.3:
                    # relocations only go "up" (group, then name, then version) so that they form no
                    # cycle: Maven 3.8.7 overflows its stack on a relocation cycle between POMs
                    rank = (groups.index(g), names.index(a), v)
                    targets = [(tg, ta, tv) for tg in groups for ta in names for tv in ("1", "2", "3")
                               if (groups.index(tg), names.index(ta), tv) > rank]
                    if targets:
                        tg, ta, tv = rng.choice(targets)
                        p.relocation = {}
                        if tg != g or rng.random() < 0.2:
                            p.relocation["groupId"] = tg
                        if ta != a or rng.random() < 0.2:
                            p.relocation["artifactId"] = ta
                        if tv != v or rng.random() < 0.2:
                            p.relocation["version"] = tv
                    if rng.random() < 0.3:
                        p.deps = [dep()]  # ignored when the POM relocates
                else:
                    p.deps = [dep() for _ in range(rng.choices([0, 1, 2, 3], [2, 3, 3, 2])[0])]
                case.pom(p)
            case.metadata(g, a, ["1", "2"])
    root = Pom(G, "root", "1")
    root.deps = [dep() for _ in range(rng.randint(1, 4))]
    for _ in range(rng.choices([0, 1, 2, 3], [3, 3, 2, 1])[0]):
        g, a, v = coord()
        m = Dep(g, a, rng.choice([v, v, "3", "[1,2]"]))
        if rng.random() < 0.35:
            m.scope = rng.choice(["runtime", "test", "provided", "compile", "system"])
            if m.scope == "system":
                m.system_path = "/opt/managed.jar"
        if rng.random() < 0.25:
            m.exclusions = [(rng.choice(groups), rng.choice(names + ["*"]))]
        if rng.random() < 0.2:
            m.optional = rng.choice(["true", "false"])
        if rng.random() < 0.1:
            m.classifier = "c"
        root.managed.append(m)
    if rng.random() < 0.5:
        case.pom(root)
        case.args = base_args(case) + [f"{G}:root:1"]
    else:
        case.files["pom.xml"] = root.xml()
        case.args = base_args(case) + ["--pom", "pom.xml"]
    return case


# ------------------------------------------------------------------------------------------ projects


def gen_project(rng, name, seed):
    """A project file with relativePath parents (default ../pom.xml, a directory, a file, empty, a
    wrong one), ${project.parent.version}-style versions, properties at several levels and -D
    (user properties: they beat the project's own), profiles activated by files next to the
    project, and dependencies whose POMs in turn use parents and properties."""
    case = Case(name, "tree", f"Random project (gen_deps_qa.py, seed {seed}).")
    names = [f"l{i}" for i in range(5)]
    for a in names:
        for v in ("1.0", "2.0", "3.0"):
            p = Pom(G, a, v)
            if rng.random() < 0.3:
                p.properties = [("dv", rng.choice(["1.0", "2.0"]))]
                p.deps = [Dep(G, rng.choice(names), "${dv}")]
            elif rng.random() < 0.4:
                p.deps = [Dep(G, rng.choice(names), rng.choice(["1.0", "2.0", "3.0"]),
                              scope=rng.choice([None, "runtime"]))]
            case.pom(p)
        case.metadata(G, a, ["1.0", "2.0", "3.0"])
    layout = rng.choice(["default", "dir", "file", "empty", "wrong", "repo-only", "none"])
    gp = Pom(G, "grand", "7", packaging="pom")
    gp.properties = [("pa", "2.0"), ("pb", "${pa}"), ("pc", "1.0")]
    if rng.random() < 0.5:
        gp.managed = [Dep(G, rng.choice(names), "${pc}", scope=rng.choice([None, "runtime", "test"]))]
    if rng.random() < 0.4:
        pr = Profile("gp", rng.choice(["<activeByDefault>true</activeByDefault>",
                                       "<file><exists>${basedir}/marker</exists></file>",
                                       "<file><missing>marker</missing></file>",
                                       "<property><name>qa.flag</name></property>"]))
        pr.properties = [("pa", "3.0")]
        gp.profiles = [pr]
    par = Pom(G, "par", "5", packaging="pom")
    par.parent = (G, "grand", "7", "")
    par.properties = [("pb", rng.choice(["1.0", "${pa}", "${project.version}"]))]
    if rng.random() < 0.5:
        par.deps = [Dep(G, rng.choice(names), rng.choice(["${pa}", "${pb}", "${project.parent.version}", "1.0"]))]
    if rng.random() < 0.4:
        pr = Profile("pp", rng.choice(["<activeByDefault>true</activeByDefault>",
                                       "<file><exists>${basedir}/marker</exists></file>",
                                       "<jdk>[1.8,)</jdk>", "<os><family>unix</family></os>"]))
        pr.deps = [Dep(G, rng.choice(names), "${pa}")]
        par.profiles = [pr]
    app = Pom(G, "app", "1.0")
    app.parent = (G, "par", "5", None)
    if rng.random() < 0.4:
        app.g = None
    if rng.random() < 0.3:
        app.v = None
    app.properties = [(k, v) for k, v in [("pa", "1.0"), ("pc", "${pb}")] if rng.random() < 0.5]
    vexprs = ["${pa}", "${pb}", "${pc}", "${project.parent.version}", "${parent.version}", "${project.version}",
              "${version}", "1.0", "2.0", "${pom.version}"]
    app.deps = [Dep(G, rng.choice(names), rng.choice(vexprs), scope=rng.choice([None, None, "runtime", "test"]))
                for _ in range(rng.randint(1, 4))]
    if rng.random() < 0.3:
        app.managed = [Dep(G, rng.choice(names), rng.choice(vexprs))]
    case.pom(gp)
    pom_path = "pom.xml"
    if layout == "default":
        case.files["pom.xml"] = par.xml()
        pom_path = "app/pom.xml"
    elif layout in ("dir", "file"):
        case.files["parent/pom.xml"] = par.xml()
        app.parent = (G, "par", "5", "parent" if layout == "dir" else "parent/pom.xml")
    elif layout == "empty":
        app.parent = (G, "par", "5", "")
        case.pom(par)
    elif layout == "wrong":
        case.files["other/pom.xml"] = Pom(G, "other", "1", packaging="pom").xml()
        app.parent = (G, "par", "5", "other")
        case.pom(par)
    elif layout == "repo-only":
        case.pom(par)
    else:
        app.parent = None
        app.g, app.v = G, "1.0"
    if rng.random() < 0.5:
        case.files[os.path.join(os.path.dirname(pom_path), "marker")] = "x\n"
    case.files[pom_path] = app.xml()
    defines = []
    if rng.random() < 0.4:
        defines.append(rng.choice(["-Dpa=3.0", "-Dpb=3.0", "-Dpc=2.0", "-Dpa", "-Dpa="]))
    if rng.random() < 0.2:
        defines.append("-Dqa.flag")
    case.args = base_args(case) + defines + ["--pom", pom_path]
    return case


# ------------------------------------------------------------------------------------------ versions

VERSION_ATOMS = ["0", "1", "2", "10", "00", "007", "2147483647", "2147483648", "9223372036854775808",
                 "99999999999999999999999", "0000000000000000000001", "alpha", "ALPHA", "a", "A", "beta", "B", "m",
                 "M", "milestone", "rc", "RC", "cr", "CR", "snapshot", "SNAPSHOT", "ga", "GA", "final", "FINAL",
                 "release", "Release", "sp", "SP", "foo", "jre", "min", "max", "MAX", "٣", "१", "๓", "１",
                 "𝟏", "𝟎", "é", "É", "ı", "İ", "ß", "Σ", "ς", "σ", "𐐀", "𐐨", "ǅ", "ﬀ", "K", "k", "Å", "Å", "x"]
VERSION_SEPS = [".", "-", "_", "", "", ".", "-", "..", "--", "-.", ".-", "+", "~"]


def gen_versions(rng, name, seed):
    case = Case(name, "versions", f"Random version list (gen_deps_qa.py, seed {seed}).")
    n = rng.choice([2, 3, 5, 8, 12, 20, 31])
    out = []
    for _ in range(n):
        if out and rng.random() < 0.2:
            base = rng.choice(out)
            out.append(base + rng.choice(["", ".0", "-0", "-ga", ".0.0", "-final", "0"]))
            continue
        parts = []
        for i in range(rng.randint(1, 5)):
            if i or rng.random() < 0.05:
                parts.append(rng.choice(VERSION_SEPS))
            parts.append(rng.choice(VERSION_ATOMS) if rng.random() < 0.5 else rng.choice(VERSION_ATOMS[:10]))
        if rng.random() < 0.05:
            parts.append(rng.choice(VERSION_SEPS))
        v = "".join(parts)
        if v and not v.startswith("-"):
            out.append(v)
    case.args = out or ["1"]
    return case


GENERATORS = {"describe": gen_describe, "tree": gen_tree, "versions": gen_versions, "reloc": gen_reloc,
              "project": gen_project}

# ------------------------------------------------------------------------------------------ oracle


def answer(case_dir):
    """Runs the oracle on one case folder and writes expected.json; returns an error or None."""
    case = os.path.abspath(case_dir)
    args = [a.replace("@CASE@", case) for a in open(os.path.join(case, "args")).read().split("\n") if a]
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as local:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LANG": "C.UTF-8",
               "XDG_CACHE_HOME": os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache"))}
        extra = [] if args[0] == "versions" else ["--local-repository", local]
        p = subprocess.run([ORACLE] + args + extra, cwd=case, capture_output=True, text=True, timeout=600, env=env)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        return f"{os.path.basename(case)}: oracle exit {p.returncode}, not JSON: {p.stderr.strip()[-300:]}"
    if p.returncode not in (0, 1):
        return f"{os.path.basename(case)}: oracle exit {p.returncode}"
    doc["status"] = p.returncode
    with open(os.path.join(case, "expected.json"), "w") as f:
        json.dump(doc, f, indent=2, sort_keys=True, ensure_ascii=True)
        f.write("\n")
    return None


def answer_all(case_dirs, drop_failed=False):
    with ThreadPoolExecutor(JOBS) as ex:
        errors = [(d, e) for d, e in zip(case_dirs, ex.map(answer, case_dirs)) if e]
    for d, e in errors:
        print("NO ANSWER " + e, file=sys.stderr)
        if drop_failed:
            shutil.rmtree(d)
    print(f"{len(case_dirs) - len(errors)} answered, {len(errors)} without answer")
    return not errors


# ------------------------------------------------------------------------------------------ main


def round_cases(seed, count, kinds):
    rng = random.Random(seed)
    out = []
    for i in range(count):
        kind = kinds[i % len(kinds)]
        case_seed = rng.randrange(1 << 30)
        mode = {"reloc": "tree", "project": "tree"}.get(kind, kind)
        out.append(GENERATORS[kind](random.Random(case_seed), f"{mode}-qa-{kind}-r{seed}-{i:04d}", case_seed))
    return out


def main():
    argv = sys.argv[1:]
    if not argv or argv[0] not in ("round", "fixtures", "hand"):
        sys.exit(__doc__)
    no_answer = "--no-answer" in argv
    if argv[0] == "round":
        opts = dict(zip(argv[1::2], argv[2::2]))
        seed, count, out = int(opts["--seed"]), int(opts["--count"]), opts["--out"]
        kinds = opts.get("--kinds", "describe,tree,versions").split(",")
        os.makedirs(out, exist_ok=True)
        cases = round_cases(seed, count, kinds)
        dirs = [c.write(out) for c in cases]
        if not no_answer:
            answer_all(dirs, drop_failed=True)
        return
    import gen_deps_qa_cases  # the committed fixture set
    if argv[0] == "hand":
        out = argv[argv.index("--out") + 1]
        cases = gen_deps_qa_cases.all_cases(random_ones=False)
        dirs = [c.write(out) for c in cases]
        if not no_answer:
            answer_all(dirs)
        return
    cases = gen_deps_qa_cases.all_cases()
    names = {c.name for c in cases}
    for d in os.listdir(DEPS):
        if "-qa-" in d and d not in names:
            shutil.rmtree(os.path.join(DEPS, d))
    dirs = [c.write(DEPS) for c in cases]
    if not no_answer:
        sys.exit(0 if answer_all(dirs) else 1)


if __name__ == "__main__":
    main()
