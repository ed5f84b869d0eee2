#!/usr/bin/env python3
"""Multi-module fixtures for `m2r tree --pom AGGREGATOR` (testdata/mvn-tree/reactor-*), answered by the real
`mvn dependency:tree`.

    python3 gen_reactor.py [--no-answer] [--only NAME[,NAME...]]

Each case is written twice, `reactor-NAME` (plain) and `reactor-NAME-verbose`, in the mvn-tree fixture layout:

    project/         the aggregator's pom.xml and the module folders
    repo/            a Maven 2 layout `file:` repository with every external POM the reactor needs (no jars)
    args             extra `m2r tree` arguments, one per line: empty, or `--verbose`
    expected.txt     the exact stdout of the oracle (below)
    expected.status  only when mvn failed: its exit status (a reactor cycle, a duplicate project, ...)
    README           one line: what the case checks

The oracle command, run in the case folder (at most 2 at a time, niced):

    ../shared/oracle/mvn-tree.py [--verbose] --repo repo project

(`mvn -B -ntp dependency:tree [-Dverbose]` of Maven 3.8.7 with maven-dependency-plugin 3.5.0, the repository as a
`*` mirror with Debian's /usr/share/maven-repo for the plugin itself). The external POMs are real: copied from
Debian's repository of Maven Central POMs (/usr/share/maven-repo, with the closure of their parents, imports,
dependencies and relocations), plus synthetic ones written here (conflicts, relocations, ranges with metadata).
Random cases come from a seeded generator (SEED below): the output is the same on every run. `--no-answer` writes
the inputs only; without it every case is answered (existing answers are replaced).
"""
import os
import random
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from xml.sax.saxutils import escape

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "mvn-tree"))
SOURCE = "/usr/share/maven-repo"
SEED = 16
RANDOM_CASES = 64
JOBS = int(os.environ.get("JOBS", "2"))


def find_oracle():
    if os.environ.get("MVN_TREE"):
        return os.environ["MVN_TREE"]
    d = HERE
    while d != os.path.dirname(d):
        candidate = os.path.join(d, "shared", "oracle", "mvn-tree.py")
        if os.path.isfile(candidate):
            return candidate
        d = os.path.dirname(d)
    sys.exit("mvn-tree.py not found: set MVN_TREE")


# ------------------------------------------------------------------------------------------------ POMs

def t(name, value):
    return "" if value is None else f"<{name}>{escape(str(value))}</{name}>"


class Dep:
    def __init__(self, g, a, v=None, scope=None, type=None, classifier=None, optional=None, exclusions=None):
        self.g, self.a, self.v = g, a, v
        self.scope, self.type, self.classifier, self.optional = scope, type, classifier, optional
        self.exclusions = exclusions or []

    def xml(self):
        ex = ""
        if self.exclusions:
            ex = "<exclusions>" + "".join(
                f"<exclusion>{t('groupId', g)}{t('artifactId', a)}</exclusion>" for g, a in self.exclusions
            ) + "</exclusions>"
        return ("<dependency>" + t("groupId", self.g) + t("artifactId", self.a) + t("version", self.v)
                + t("type", self.type) + t("classifier", self.classifier) + t("scope", self.scope)
                + t("optional", self.optional) + ex + "</dependency>")


def deps_xml(deps, tag="dependencies"):
    return f"<{tag}>" + "".join(d.xml() for d in deps) + f"</{tag}>" if deps else ""


class Proj:
    """A project of the reactor at `path` (relative to project/, "" for the aggregator)."""

    def __init__(self, path, a, g="org.reactor", v="1.0", packaging=None, parent=None, relative_path=None,
                 modules=(), deps=(), managed=(), properties=None, profiles="", build="", inherit_gv=False):
        self.path, self.g, self.a, self.v = path, g, a, v
        self.packaging, self.parent, self.relative_path = packaging, parent, relative_path
        self.modules, self.deps, self.managed = list(modules), list(deps), list(managed)
        self.properties = properties or {}
        self.profiles, self.build, self.inherit_gv = profiles, build, inherit_gv

    def xml(self):
        x = ["<project>", "<modelVersion>4.0.0</modelVersion>"]
        if self.parent:
            pg, pa, pv = self.parent
            x.append("<parent>" + t("groupId", pg) + t("artifactId", pa) + t("version", pv)
                     + t("relativePath", self.relative_path) + "</parent>")
        if not self.inherit_gv:
            x.append(t("groupId", self.g))
        x.append(t("artifactId", self.a))
        if not self.inherit_gv:
            x.append(t("version", self.v))
        x.append(t("packaging", self.packaging))
        if self.properties:
            x.append("<properties>" + "".join(t(k, v) for k, v in self.properties.items()) + "</properties>")
        if self.modules:
            x.append("<modules>" + "".join(t("module", m) for m in self.modules) + "</modules>")
        if self.managed:
            x.append("<dependencyManagement>" + deps_xml(self.managed) + "</dependencyManagement>")
        x.append(deps_xml(self.deps))
        x.append(self.build)
        x.append(self.profiles)
        x.append("</project>")
        return "".join(x) + "\n"

    def gav(self):
        return (self.g, self.a, self.v)


def ext_pom(g, a, v, deps=(), parent=None, relocation=None, packaging=None, managed=()):
    x = ["<project><modelVersion>4.0.0</modelVersion>"]
    if parent:
        x.append("<parent>" + t("groupId", parent[0]) + t("artifactId", parent[1]) + t("version", parent[2])
                 + "</parent>")
    x.append(t("groupId", g) + t("artifactId", a) + t("version", v) + t("packaging", packaging))
    if managed:
        x.append("<dependencyManagement>" + deps_xml(managed) + "</dependencyManagement>")
    x.append(deps_xml(list(deps)))
    if relocation:
        rg, ra, rv = relocation
        x.append("<distributionManagement><relocation>" + t("groupId", rg) + t("artifactId", ra)
                 + t("version", rv) + "</relocation></distributionManagement>")
    x.append("</project>\n")
    return "".join(x)


class Case:
    def __init__(self, name, readme, projects, externals=None, real=(), metadata=None, files=None):
        self.name, self.readme, self.projects = name, readme, projects
        self.externals = externals or {}  # (g, a, v) -> POM text
        self.real = list(real)  # (g, a, v) of real POMs (their closure is copied)
        self.metadata = metadata or {}  # (g, a) -> [versions]
        self.files = files or {}  # extra files under project/


# ------------------------------------------------------------------------------ real POM closure

NS = re.compile(r"\{[^}]*\}")


def strip(tag):
    return NS.sub("", tag)


def pom_file(g, a, v):
    return os.path.join(SOURCE, *g.split("."), a, v, f"{a}-{v}.pom")


def versions_of(g, a):
    d = os.path.join(SOURCE, *g.split("."), a)
    if not os.path.isdir(d):
        return []
    return sorted(v for v in os.listdir(d) if os.path.isfile(os.path.join(d, v, f"{a}-{v}.pom")))


def child(e, name):
    for c in e:
        if strip(c.tag) == name:
            return c
    return None


def kids(e):
    return list(e) if e is not None else []


def text(e, name):
    c = child(e, name) if e is not None else None
    return c.text.strip() if c is not None and c.text else None


_parsed = {}


def parse(g, a, v):
    key = (g, a, v)
    if key not in _parsed:
        f = pom_file(g, a, v)
        try:
            _parsed[key] = ET.parse(f).getroot() if os.path.isfile(f) else None
        except ET.ParseError:
            _parsed[key] = None
    return _parsed[key]


def props_of(g, a, v, depth=0):
    """Properties as the POM and its parents define them (nearest wins), with project.* values."""
    root = parse(g, a, v)
    if root is None or depth > 10:
        return {}
    out = {}
    parent = child(root, "parent")
    if parent is not None:
        pg, pa, pv = text(parent, "groupId"), text(parent, "artifactId"), text(parent, "version")
        if pg and pa and pv:
            out.update(props_of(pg, pa, pv, depth + 1))
            out["project.parent.version"] = pv
            out["project.parent.groupId"] = pg
    p = child(root, "properties")
    if p is not None:
        for c in p:
            out[strip(c.tag)] = (c.text or "").strip()
    out["project.version"] = text(root, "version") or out.get("project.parent.version", v)
    out["project.groupId"] = text(root, "groupId") or out.get("project.parent.groupId", g)
    out["project.artifactId"] = a
    for k in ("version", "groupId", "artifactId"):
        out["pom." + k] = out["project." + k]
        out[k] = out["project." + k]
    return out


def interpolate(value, props):
    for _ in range(10):
        new = re.sub(r"\$\{([^}]+)\}", lambda m: props.get(m.group(1), m.group(0)), value)
        if new == value:
            break
        value = new
    return value


def managed_versions(g, a, v, depth=0):
    """`groupId:artifactId` -> version of the POM's dependencyManagement with its parents' and imported BOMs'
    (nearest first), interpolated as well as this script can."""
    root = parse(g, a, v)
    if root is None or depth > 10:
        return {}
    props = props_of(g, a, v)
    out = {}
    dm = child(root, "dependencyManagement")
    deps = child(dm, "dependencies") if dm is not None else None
    imports = []
    for e in (deps if deps is not None else []):
        if strip(e.tag) != "dependency":
            continue
        dg, da, dv = (interpolate(text(e, k) or "", props) for k in ("groupId", "artifactId", "version"))
        if text(e, "scope") == "import":
            imports.append((dg, da, dv))
        elif dg and da and dv and "${" not in dv:
            out.setdefault(f"{dg}:{da}", dv)
    parent = child(root, "parent")
    if parent is not None:
        pg, pa, pv = text(parent, "groupId"), text(parent, "artifactId"), text(parent, "version")
        if pg and pa and pv:
            for k, ver in managed_versions(pg, pa, pv, depth + 1).items():
                out.setdefault(k, ver)
    for ig, ia, iv in imports:
        for k, ver in managed_versions(ig, ia, iv, depth + 1).items():
            out.setdefault(k, ver)
    return out


def referenced(g, a, v):
    """What reading the POM can lead to: its parent, imported BOMs, relocation, and the dependencies Maven may follow
    below it (not declared test, provided or optional; any profile's), at their declared or managed version, or
    `None` when this script cannot tell."""
    root = parse(g, a, v)
    if root is None:
        return []
    props = props_of(g, a, v)
    managed = managed_versions(g, a, v)
    out = []
    parent = child(root, "parent")
    if parent is not None:
        out.append((text(parent, "groupId"), text(parent, "artifactId"), text(parent, "version")))
    bases = [root] + [p for ps in [child(root, "profiles")] if ps is not None for p in ps
                      if strip(p.tag) == "profile"]
    for base in bases:
        listed = [(e, False) for e in kids(child(base, "dependencies"))]
        dm = child(base, "dependencyManagement")
        listed += [(e, True) for e in kids(child(dm, "dependencies") if dm is not None else None)]
        for e, in_management in listed:
            if strip(e.tag) != "dependency":
                continue
            dg, da, dv = text(e, "groupId"), text(e, "artifactId"), text(e, "version")
            scope, optional = text(e, "scope"), text(e, "optional")
            if not dg or not da:
                continue
            if in_management != (scope == "import"):
                continue
            if scope in ("test", "provided", "system") or optional == "true":
                continue
            dg, da = interpolate(dg, props), interpolate(da, props)
            dv = interpolate(dv, props) if dv else managed.get(f"{dg}:{da}")
            if dv and ("${" in dv or dv.startswith("[") or dv.startswith("(")):
                dv = None
            out.append((dg, da, dv))
    dm = child(root, "distributionManagement")
    reloc = child(dm, "relocation") if dm is not None else None
    if reloc is not None:
        out.append((text(reloc, "groupId") or g, text(reloc, "artifactId") or a, text(reloc, "version") or v))
    return out


def closure(seeds):
    """The real POMs (relative paths) reachable from `seeds` at the versions this script can tell."""
    todo, seen, files = list(seeds), set(), set()
    while todo:
        g, a, v = todo.pop()
        if not g or not a:
            continue
        # A version this script cannot tell is left to `read_by_m2r`.
        vs = [v] if v else []
        for ver in vs:
            if (g, a, ver) in seen:
                continue
            seen.add((g, a, ver))
            if os.path.isfile(pom_file(g, a, ver)):
                files.add(os.path.relpath(pom_file(g, a, ver), SOURCE))
                todo.extend(referenced(g, a, ver))
    return sorted(files)


def find_m2r():
    if os.environ.get("M2R"):
        return os.environ["M2R"]
    built = [os.path.normpath(os.path.join(HERE, "..", "..", "target", profile, "m2r")) for profile in ("release",
                                                                                                       "debug")]
    built = [p for p in built if os.path.isfile(p)]
    return max(built, key=os.path.getmtime) if built else None


def read_by_m2r(project_dir, repo_dir, modules):
    """The POMs of Debian's repository `m2r tree --verbose` reads for the reactor, the case's repository in front (a
    safety net for what `closure` cannot tell: anything it reads is copied too)."""
    m2r = find_m2r()
    if m2r is None:
        print("warning: no m2r binary (set M2R): repositories hold the computed closure only")
        return []
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        union = os.path.join(tmp, "union")
        subprocess.run(["cp", "-rs", SOURCE + "/.", union + "/"], check=True)
        subprocess.run(["cp", "-rsn", repo_dir + "/.", union + "/"], check=True)
        settings = os.path.join(tmp, "settings.xml")
        with open(settings, "w") as f:
            f.write(f"<settings><mirrors><mirror><id>all</id><mirrorOf>*</mirrorOf><url>file://{union}</url>"
                    "</mirror></mirrors></settings>")
        local = os.path.join(tmp, "local")
        subprocess.run([m2r, "tree", "--verbose", "--pom", os.path.join(project_dir, "pom.xml"), "-s", settings,
                        "--local-repository", local], capture_output=True, env={"PATH": os.environ["PATH"],
                                                                                 "HOME": tmp})
        out = []
        for dirpath, _, names in os.walk(local):
            for n in names:
                if n.endswith(".pom"):
                    rel = os.path.relpath(os.path.join(dirpath, n), local)
                    if os.path.isfile(os.path.join(SOURCE, rel)) and not rel.startswith(tuple(modules)):
                        out.append(rel)
        return sorted(out)


# ---------------------------------------------------------------------------------------- writing

def write(path, content):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(content)


def metadata_xml(g, a, versions):
    vs = "".join(t("version", v) for v in versions)
    return (f"<metadata><groupId>{g}</groupId><artifactId>{a}</artifactId><versioning>"
            f"<latest>{versions[-1]}</latest><release>{versions[-1]}</release><versions>{vs}</versions>"
            "<lastUpdated>20240101000000</lastUpdated></versioning></metadata>\n")


def write_case(case, verbose):
    name = f"reactor-{case.name}" + ("-verbose" if verbose else "")
    d = os.path.join(OUT, name)
    answers = {}
    for f in ("expected.txt", "expected.status"):
        p = os.path.join(d, f)
        if os.path.isfile(p):
            answers[f] = open(p).read()
    if os.path.isdir(d):
        shutil.rmtree(d)
    for p in case.projects:
        write(os.path.join(d, "project", p.path, "pom.xml"), p.xml())
    for rel, content in case.files.items():
        write(os.path.join(d, "project", rel), content)
    repo = os.path.join(d, "repo")
    os.makedirs(repo, exist_ok=True)
    for (g, a, v), text_ in sorted(case.externals.items()):
        write(os.path.join(repo, *g.split("."), a, v, f"{a}-{v}.pom"), text_)
    for (g, a), versions in sorted(case.metadata.items()):
        write(os.path.join(repo, *g.split("."), a, "maven-metadata.xml"), metadata_xml(g, a, versions))
    seeds = case.real + [r for key in sorted(case.externals) for r in getattr(case.externals[key], "real", [])]
    modules = [R.replace(".", "/") + "/"]
    real = set(closure(seeds)) | set(read_by_m2r(os.path.join(d, "project"), repo, modules))
    for rel in sorted(real):
        dst = os.path.join(repo, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(os.path.join(SOURCE, rel), dst)
    write(os.path.join(d, "args"), "--verbose\n" if verbose else "")
    write(os.path.join(d, "README"), case.readme + (" (verbose)" if verbose else "") + "\n")
    for f, content in answers.items():
        write(os.path.join(d, f), content)
    return d


def answer(d):
    verbose = open(os.path.join(d, "args")).read().strip() == "--verbose"
    cmd = ["nice", sys.executable, find_oracle()] + (["--verbose"] if verbose else []) + ["--repo", "repo",
                                                                                          "project"]
    p = subprocess.run(cmd, cwd=d, capture_output=True, text=True)
    with open(os.path.join(d, "expected.txt"), "w") as f:
        f.write(p.stdout)
    status = os.path.join(d, "expected.status")
    if p.returncode != 0:
        with open(status, "w") as f:
            f.write(f"{p.returncode}\n")
    elif os.path.exists(status):
        os.remove(status)
    return d, p.returncode, p.stderr


# ------------------------------------------------------------------------------------- the cases

R = "org.reactor"
AGG = (R, "agg", "1.0")


def agg(modules, packaging="pom", **kw):
    return Proj("", "agg", packaging=packaging, modules=modules, **kw)


def mod(path, a=None, parent=AGG, **kw):
    return Proj(path, a or os.path.basename(path), parent=parent, **kw)


def sib(a, v="1.0", **kw):
    return Dep(R, a, v, **kw)


LANG3 = Dep("org.apache.commons", "commons-lang3", "3.12.0")
TEXT = Dep("org.apache.commons", "commons-text", "1.10.0")
IO = Dep("commons-io", "commons-io", "2.11.0")
GUAVA = Dep("com.google.guava", "guava", "31.1-jre")
GUICE = Dep("com.google.inject", "guice", "4.2.3")
JUNIT = Dep("junit", "junit", "4.13.2", scope="test")
SLF4J = Dep("org.slf4j", "slf4j-api", "1.7.32")
SLF4J_SIMPLE = Dep("org.slf4j", "slf4j-simple", "1.7.32")
HTTPCLIENT = Dep("org.apache.httpcomponents", "httpclient", "4.5.14")
MAVEN_CORE = Dep("org.apache.maven", "maven-core", "3.8.7")
MAVEN_MODEL = Dep("org.apache.maven", "maven-model", "3.8.7")
RESOLVER_IMPL = Dep("org.apache.maven.resolver", "maven-resolver-impl", "1.6.3")
PLEXUS_UTILS = Dep("org.codehaus.plexus", "plexus-utils", "3.4.2")
COMPRESS = Dep("org.apache.commons", "commons-compress", "1.22")
VELOCITY = Dep("org.apache.velocity", "velocity", "1.7")
DOM4J = Dep("org.dom4j", "dom4j", "2.1.1")
XERCES = Dep("xerces", "xercesImpl", "2.12.0")
ASM_COMMONS = Dep("org.ow2.asm", "asm-commons", "9.4")
ARCHIVER = Dep("org.codehaus.plexus", "plexus-archiver", "4.6.1")
BEANUTILS = Dep("commons-beanutils", "commons-beanutils", "1.9.4")
CONFIGURATION = Dep("commons-configuration", "commons-configuration", "1.10")
WAGON_FILE = Dep("org.apache.maven.wagon", "wagon-file", "3.5.3")
SISU_PLEXUS = Dep("org.eclipse.sisu", "org.eclipse.sisu.plexus", "0.3.4")
REAL_POOL = [LANG3, TEXT, IO, GUAVA, GUICE, SLF4J, SLF4J_SIMPLE, HTTPCLIENT, MAVEN_MODEL, PLEXUS_UTILS, COMPRESS,
             VELOCITY, DOM4J, XERCES, ASM_COMMONS, BEANUTILS, CONFIGURATION, WAGON_FILE, SISU_PLEXUS,
             Dep("org.apache.maven", "maven-artifact", "3.8.7"), Dep("org.apache.maven", "maven-settings", "3.8.7"),
             Dep("org.apache.maven.resolver", "maven-resolver-util", "1.6.3"),
             Dep("org.codehaus.plexus", "plexus-interpolation", "1.26"), Dep("commons-codec", "commons-codec", "1.15"),
             Dep("commons-cli", "commons-cli", "1.5.0"), Dep("org.fusesource.jansi", "jansi", "2.4.0"),
             Dep("org.tukaani", "xz", "1.9"), Dep("commons-collections", "commons-collections", "3.2.2")]


def real_of(projects):
    """The real artifacts the projects name (a version given by a property: every version of it)."""
    out = []
    for p in projects:
        for d in p.deps + p.managed:
            if d.g != R and not d.g.startswith(("org.ext", "org.old", "${")):
                if d.v and "${" not in d.v:
                    out.append((d.g, d.a, d.v))
                else:
                    out.extend((d.g, d.a, ver) for ver in versions_of(d.g, d.a))
        if p.parent and p.parent[0] != R:
            out.append(p.parent)
    return out


def c(name, readme, projects, externals=None, real=(), **kw):
    return Case(name, readme, projects, externals, list(real) + real_of(projects), **kw)


class Ext(str):
    """A synthetic POM's text, with its real dependencies (they seed the closure)."""

    def __new__(cls, text_, deps):
        obj = super().__new__(cls, text_)
        obj.real = [(d.g, d.a, d.v) for d in deps if not d.g.startswith(("org.ext", "org.old", R))]
        return obj


def ext(a, v="1", deps=(), g="org.ext", **kw):
    return {(g, a, v): Ext(ext_pom(g, a, v, deps, **kw), deps)}


def merge(*dicts):
    out = {}
    for d in dicts:
        out.update(d)
    return out


def with_(dep, **kw):
    d = Dep(dep.g, dep.a, dep.v, dep.scope, dep.type, dep.classifier, dep.optional, dep.exclusions)
    for k, v in kw.items():
        setattr(d, k, v)
    return d


def hand_cases():
    cases = []
    cases.append(c("siblings", "A module depends on a sibling: the sibling's node and its real dependencies below it",
                   [agg(["core", "app"]), mod("core", deps=[LANG3, JUNIT]), mod("app", deps=[sib("core"), GUAVA])]))
    cases.append(c("declared-after", "A module declared before the sibling it depends on is built after it",
                   [agg(["app", "core", "tool"]), mod("app", deps=[sib("core")]), mod("core", deps=[IO]),
                    mod("tool", deps=[SLF4J])]))
    cases.append(c("aggregator-not-parent",
                   "Modules that do not name the aggregator as parent: the aggregator is built after them, its own "
                   "dependencies in its block",
                   [agg(["b", "a"], deps=[JUNIT]), mod("a", parent=None, deps=[sib("b")]),
                    mod("b", parent=None, packaging="war", deps=[TEXT])]))
    cases.append(c("test-scoped-sibling",
                   "A test-scoped sibling and a test-jar sibling; test scope is not transitive to the next module",
                   [agg(["m1", "m2", "m3"]), mod("m1", deps=[LANG3]),
                    mod("m2", deps=[sib("m1", scope="test"), sib("m1", type="test-jar", scope="test"), IO]),
                    mod("m3", deps=[sib("m2")])]))
    cases.append(c("parent-management",
                   "The parent's dependencyManagement gives versions (and a scope) of siblings and real artifacts",
                   [agg(["api", "impl", "web"],
                        managed=[sib("api", "${project.version}"), sib("impl", "${project.version}", scope="runtime"),
                                 LANG3, GUAVA, with_(SLF4J, v="1.7.32")]),
                    mod("api", deps=[Dep("org.apache.commons", "commons-lang3")]),
                    mod("impl", deps=[Dep(R, "api"), Dep("com.google.guava", "guava")]),
                    mod("web", deps=[Dep(R, "impl"), Dep("org.slf4j", "slf4j-api")])]))
    cases.append(c("exclusions",
                   "An exclusion on a sibling dependency removes the sibling's own dependencies from the consumer",
                   [agg(["lib", "app"]), mod("lib", deps=[GUAVA, TEXT]),
                    mod("app", deps=[sib("lib", exclusions=[("com.google.guava", "guava"),
                                                            ("org.apache.commons", "commons-lang3")])])]))
    cases.append(c("optional",
                   "An optional dependency of a sibling is not transitive; an optional sibling is not either",
                   [agg(["a", "b", "c"]), mod("a", deps=[with_(IO, optional="true"), LANG3]),
                    mod("b", deps=[sib("a", optional="true")]), mod("c", deps=[sib("b"), sib("a")])]))
    cases.append(c("scopes", "Provided and runtime siblings, and how their dependencies' scopes derive",
                   [agg(["base", "svc", "app"]), mod("base", deps=[SLF4J, with_(SLF4J_SIMPLE, scope="runtime")]),
                    mod("svc", deps=[sib("base", scope="provided"), with_(IO, scope="runtime")]),
                    mod("app", deps=[sib("svc", scope="runtime"), sib("base", scope="test")])]))
    cases.append(c("relocation",
                   "A module depends on a relocated external artifact, and on one relocated to a module of the reactor",
                   [agg(["core", "app"]), mod("core", deps=[Dep("org.ext", "util", "2")]),
                    mod("app", deps=[Dep("org.old", "util", "1"), Dep("org.old", "core", "1.0")])],
                   merge(ext("util", "2", [IO]), ext("util", "1", g="org.old", relocation=("org.ext", "util", "2")),
                         ext("core", "1.0", g="org.old", relocation=(R, "core", "1.0")))))
    cases.append(c("nested",
                   "Nested aggregators: a module depends on a module of another aggregator's module",
                   [agg(["api", "impl", "app"]), mod("api", deps=[SLF4J]),
                    mod("impl", packaging="pom", modules=["impl-a", "impl-b"]),
                    mod("impl/impl-a", parent=(R, "impl", "1.0"), deps=[sib("api"), LANG3]),
                    mod("impl/impl-b", parent=(R, "impl", "1.0"), deps=[sib("impl-a")]),
                    mod("app", deps=[sib("impl-b"), sib("impl-a", scope="test")])]))
    cases.append(c("module-parent",
                   "A module whose parent is another module (not the aggregator), inheriting its dependencies and "
                   "management",
                   [agg(["platform", "svc-a", "svc-b"]),
                    mod("platform", packaging="pom", deps=[SLF4J], managed=[GUAVA, sib("svc-a")]),
                    mod("svc-a", parent=(R, "platform", "1.0"), relative_path="../platform",
                        deps=[Dep("com.google.guava", "guava")]),
                    mod("svc-b", parent=(R, "platform", "1.0"), relative_path="../platform/pom.xml",
                        deps=[Dep(R, "svc-a")])]))
    cases.append(c("cycle", "Two modules depend on each other: Maven refuses the reactor",
                   [agg(["a", "b"]), mod("a", deps=[sib("b")]), mod("b", deps=[sib("a")])]))
    cases.append(c("cycle-three", "A cycle through three modules, named from the edge that closes it",
                   [agg(["a", "b", "c"]), mod("a", deps=[sib("b")]), mod("b", deps=[sib("c")]),
                    mod("c", deps=[sib("a", scope="test")])]))
    cases.append(c("profile-modules",
                   "Modules listed in active profiles (activeByDefault, file activation) join the reactor; those of an "
                   "inactive profile do not",
                   [agg(["core"], profiles="<profiles>"
                        "<profile><id>extra</id><activation><activeByDefault>true</activeByDefault></activation>"
                        "<modules><module>extra</module></modules></profile>"
                        "<profile><id>tools</id><activation><file><exists>${basedir}/tools.flag</exists></file>"
                        "</activation><modules><module>tools</module><module>core</module></modules></profile>"
                        "<profile><id>off</id><activation><property><name>never.set</name></property></activation>"
                        "<modules><module>off</module></modules></profile></profiles>"),
                    mod("core", deps=[LANG3]), mod("extra", deps=[sib("core"), SLF4J]),
                    mod("tools", deps=[sib("extra")]), mod("off", deps=[sib("core")])],
                   files={"tools.flag": ""}))
    cases.append(c("bom-module",
                   "A BOM that is a module of the reactor, imported by the parent: versions come from it",
                   [agg(["bom", "lib", "app"], managed=[Dep(R, "bom", "1.0", type="pom", scope="import")]),
                    Proj("bom", "bom", packaging="pom", managed=[sib("lib"), GUAVA, IO]),
                    mod("lib", deps=[Dep("com.google.guava", "guava")]),
                    mod("app", deps=[Dep(R, "lib"), Dep("commons-io", "commons-io")])]))
    cases.append(c("conflict",
                   "Siblings bring different versions of one artifact: the nearest wins in the consumer",
                   [agg(["x", "y", "app"]), mod("x", deps=[Dep("org.ext", "shared", "1")]),
                    mod("y", deps=[Dep("org.ext", "mid", "1")]),
                    mod("app", deps=[sib("y"), sib("x"), Dep("org.ext", "shared", "3", scope="runtime")])],
                   merge(ext("shared", "1"), ext("shared", "2"), ext("shared", "3"),
                         ext("mid", "1", [Dep("org.ext", "shared", "2")]))))
    cases.append(c("war-module", "A war module as a dependency (type war) is not traversed; its jar is",
                   [agg(["web", "it"]), mod("web", packaging="war", deps=[LANG3]),
                    mod("it", deps=[sib("web", type="war"), sib("web", scope="test")])]))
    cases.append(c("pom-type-sibling", "A dependency of type pom on a module brings that module's dependencies",
                   [agg(["deps", "app"]), mod("deps", packaging="pom", deps=[IO, SLF4J]),
                    mod("app", deps=[sib("deps", type="pom")])]))
    cases.append(c("classifier", "A sibling dependency with a classifier and one of type test-jar",
                   [agg(["core", "app"]), mod("core", deps=[TEXT]),
                    mod("app", deps=[sib("core", classifier="shaded"), sib("core", type="test-jar", scope="test")])]))
    cases.append(c("range-external", "Version ranges on external artifacts resolved through the repository's metadata",
                   [agg(["a", "b"]), mod("a", deps=[Dep("org.ext", "ranged", "[1,2)")]),
                    mod("b", deps=[sib("a"), Dep("org.ext", "ranged", "[1.1,1.5]")])],
                   merge(ext("ranged", "1.0"), ext("ranged", "1.2"), ext("ranged", "1.9"), ext("ranged", "2.0")),
                   metadata={("org.ext", "ranged"): ["1.0", "1.2", "1.9", "2.0"]}))
    cases.append(c("range-module",
                   "A version range on a module: mvn dependency:tree runs no phase, the reactor offers no jar, the "
                   "collection fails",
                   [agg(["a", "b"]), mod("a"), mod("b", deps=[sib("a", "[1.0,2.0)")])]))
    cases.append(c("duplicate", "The same module listed by two aggregators: Maven refuses the duplicate project",
                   [agg(["a", "g"]), mod("a"), mod("g", packaging="pom", modules=["../a"])]))
    cases.append(c("missing-module", "A listed module that does not exist: Maven cannot read the reactor",
                   [agg(["a", "gone"]), mod("a")]))
    cases.append(c("maven-core",
                   "Modules of a Maven extension on maven-core and the resolver: large real graphs shared by modules",
                   [agg(["api", "impl", "cli"], properties={"maven.version": "3.8.7"},
                        managed=[with_(MAVEN_CORE, v="${maven.version}")]),
                    mod("api", deps=[MAVEN_MODEL, with_(Dep("org.apache.maven", "maven-core"), scope="provided")]),
                    mod("impl", deps=[sib("api"), RESOLVER_IMPL, PLEXUS_UTILS]),
                    mod("cli", deps=[sib("impl"), Dep("commons-cli", "commons-cli", "1.5.0"), JUNIT])]))
    cases.append(c("chain-of-eight", "Eight modules in a chain, declared in reverse order",
                   [agg([f"m{i}" for i in range(8, 0, -1)])]
                   + [mod(f"m{i}", deps=[sib(f"m{i - 1}")] if i > 1 else [IO]) for i in range(8, 0, -1)]))
    cases.append(c("plugin-module",
                   "A module's build uses a plugin that is a module of the reactor: the plugin is built first",
                   [agg(["app", "helper-plugin"]),
                    mod("app", deps=[LANG3],
                        build=f"<build><plugins><plugin><groupId>{R}</groupId><artifactId>helper-plugin</artifactId>"
                              "<version>1.0</version></plugin></plugins></build>"),
                    mod("helper-plugin", packaging="maven-plugin", deps=[PLEXUS_UTILS])]))
    cases.append(c("relative-parent",
                   "Modules find their parent in a sibling folder through relativePath; the aggregator is no parent",
                   [agg(["parent", "a", "b"]), mod("parent", parent=None, packaging="pom", managed=[TEXT],
                                                   deps=[JUNIT]),
                    mod("a", parent=(R, "parent", "1.0"), relative_path="../parent",
                        deps=[Dep("org.apache.commons", "commons-text")]),
                    mod("b", parent=(R, "parent", "1.0"), relative_path="../parent", deps=[sib("a")])]))
    cases.append(c("external-parent",
                   "The aggregator's parent is a real POM from the repository (httpcomponents-client): its management "
                   "gives versions to modules and their dependencies",
                   [agg(["a", "b"], parent=("org.apache.httpcomponents", "httpcomponents-client", "4.5.14")),
                    mod("a", deps=[IO, Dep("commons-codec", "commons-codec")]),
                    mod("b", deps=[sib("a"), COMPRESS, Dep("commons-logging", "commons-logging"), HTTPCLIENT])]))
    cases.append(c("real-bom", "The parent imports a real BOM (guice-bom); modules use guice without versions",
                   [agg(["a", "b"], managed=[Dep("com.google.inject", "guice-bom", "4.2.3", type="pom",
                                                 scope="import")]),
                    mod("a", deps=[Dep("com.google.inject", "guice")]),
                    mod("b", deps=[sib("a"), Dep("com.google.inject.extensions", "guice-assistedinject")])]))
    cases.append(c("aggregator-dependencies",
                   "The aggregator is the parent and has dependencies: every module inherits them",
                   [agg(["a", "b"], deps=[SLF4J, JUNIT]), mod("a", deps=[LANG3]), mod("b", deps=[sib("a")])]))
    cases.append(c("parent-depends-on-child",
                   "The parent depends on its own module: the module inherits a dependency on itself, which Maven "
                   "refuses",
                   [agg(["a"], deps=[sib("a", scope="test")]), mod("a", deps=[IO])]))
    cases.append(c("other-version-of-a-module",
                   "A dependency on another version of a module comes from the repository, not the reactor",
                   [agg(["lib", "app"]), mod("lib", deps=[LANG3]), mod("app", deps=[sib("lib", "0.9")])],
                   merge(ext("lib", "0.9", [IO], g=R))))
    cases.append(c("snapshots", "SNAPSHOT versions of modules resolve from the reactor",
                   [Proj("", "agg", v="1.0-SNAPSHOT", packaging="pom", modules=["a", "b"]),
                    Proj("a", "a", parent=(R, "agg", "1.0-SNAPSHOT"), inherit_gv=True, deps=[LANG3]),
                    Proj("b", "b", parent=(R, "agg", "1.0-SNAPSHOT"), inherit_gv=True,
                         deps=[Dep(R, "a", "${project.version}")])]))
    cases.append(c("diamond", "A diamond of modules: each module once, in dependency order",
                   [agg(["top", "left", "right", "bottom"]), mod("top", deps=[sib("left"), sib("right")]),
                    mod("left", deps=[sib("bottom"), GUAVA]), mod("right", deps=[sib("bottom"), IO]),
                    mod("bottom", deps=[LANG3])]))
    cases.append(c("module-paths", "Modules named by a POM file and by a path with `./`",
                   [agg(["a/pom.xml", "./b"]), mod("a", deps=[IO]), mod("b", deps=[sib("a")])]))
    cases.append(c("depends-on-aggregator", "A module depends on the aggregator POM (type pom)",
                   [agg(["a", "b"], parent=None, deps=[SLF4J]), mod("a", parent=None,
                                                                   deps=[Dep(R, "agg", "1.0", type="pom")]),
                    mod("b", parent=None, deps=[sib("a")])]))
    cases.append(c("verbose-conflicts",
                   "Real libraries whose graphs overlap in every module (duplicates and conflicts for --verbose)",
                   [agg(["a", "b", "c"]), mod("a", deps=[GUICE, GUAVA]), mod("b", deps=[sib("a"), HTTPCLIENT,
                                                                                        CONFIGURATION]),
                    mod("c", deps=[sib("b"), BEANUTILS, VELOCITY])]))
    cases.append(c("system-and-management-scope",
                   "Management in the parent changes a sibling's scope to test and pins a transitive version",
                   [agg(["a", "b", "c"], managed=[sib("a", scope="test"), Dep("org.ext", "t", "2")]),
                    mod("a", deps=[Dep("org.ext", "t", "1")]), mod("b", deps=[sib("a"), Dep("org.ext", "u", "1")]),
                    mod("c", deps=[sib("b")])],
                   merge(ext("t", "1"), ext("t", "2"), ext("u", "1", [Dep("org.ext", "t", "1")]))))
    cases.append(c("deep-nesting", "Three levels of aggregators, a leaf depending on a module two levels up",
                   [agg(["core", "l1"]), mod("core", deps=[SLF4J]),
                    mod("l1", packaging="pom", modules=["l2"]),
                    mod("l1/l2", parent=(R, "l1", "1.0"), packaging="pom", modules=["leaf"]),
                    mod("l1/l2/leaf", parent=(R, "l2", "1.0"), deps=[sib("core"), DOM4J])]))
    cases.append(c("property-versions",
                   "Sibling versions through ${project.version} and parent properties; modules inherit groupId and "
                   "version",
                   [agg(["a", "b"], properties={"lang.version": "3.12.0"}),
                    Proj("a", "a", parent=AGG, inherit_gv=True,
                         deps=[Dep("org.apache.commons", "commons-lang3", "${lang.version}")]),
                    Proj("b", "b", parent=AGG, inherit_gv=True,
                         deps=[Dep("${project.groupId}", "a", "${project.version}")])]))
    return cases


def random_case(i, rng):
    n = rng.randint(2, 8)
    names = [f"m{j}" for j in range(n)]
    # A random order in which dependencies may point (no cycle): rank
    rank = names[:]
    rng.shuffle(rank)
    nested = n >= 4 and rng.random() < 0.4
    group_members = set(rng.sample(names, rng.randint(2, n - 1))) if nested else set()
    use_parent = rng.random() < 0.75
    managed_siblings = use_parent and rng.random() < 0.5
    externals = {}
    ext_libs = []
    for k in range(rng.randint(0, 3)):
        a = f"lib{k}"
        vs = ["1", "2"] if rng.random() < 0.5 else ["1"]
        for v in vs:
            d = []
            if rng.random() < 0.5:
                d.append(with_(rng.choice(REAL_POOL)))
            externals.update(ext(a, v, d))
        ext_libs.append((a, vs))
    projects = []
    top_modules = [m for m in names if m not in group_members] + (["group"] if nested else [])
    rng.shuffle(top_modules)
    managed = []
    if managed_siblings:
        managed = [sib(m, "${project.version}") for m in names if rng.random() < 0.5]
    agg_deps = [JUNIT] if use_parent and rng.random() < 0.3 else []
    projects.append(agg(top_modules, managed=managed, deps=agg_deps))
    if nested:
        members = sorted(group_members)
        rng.shuffle(members)
        projects.append(Proj("group", "group", parent=AGG if use_parent else None, packaging="pom", modules=members))
    managed_keys = {d.a for d in managed}
    for m in names:
        path = f"group/{m}" if m in group_members else m
        parent = None
        if use_parent:
            parent = (R, "group", "1.0") if m in group_members and rng.random() < 0.5 else AGG
        deps = []
        lower = [x for x in rank[:rank.index(m)]]
        for x in rng.sample(lower, min(len(lower), rng.randint(0, 3))):
            kw = {}
            r = rng.random()
            if r < 0.15:
                kw["scope"] = "test"
            elif r < 0.25:
                kw["scope"] = "runtime"
            elif r < 0.3:
                kw["scope"] = "provided"
            if rng.random() < 0.1:
                kw["optional"] = "true"
            if rng.random() < 0.1:
                kw["type"] = "test-jar"
                kw["scope"] = "test"
            # Management is keyed by type too: a test-jar keeps its version.
            v = None if x in managed_keys and rng.random() < 0.7 and "type" not in kw else "1.0"
            deps.append(sib(x, v, **kw))
        for real in rng.sample(REAL_POOL, rng.randint(0, 3)):
            d = with_(real)
            if rng.random() < 0.2:
                d.scope = rng.choice(["test", "runtime", "provided"])
            if rng.random() < 0.15:
                d.exclusions = [("*", "*")] if rng.random() < 0.3 else [("org.apache.commons", "commons-lang3")]
            deps.append(d)
        for a, vs in ext_libs:
            if rng.random() < 0.4:
                deps.append(Dep("org.ext", a, rng.choice(vs)))
        if rng.random() < 0.2:
            deps.append(JUNIT)
        rng.shuffle(deps)
        packaging = "war" if rng.random() < 0.1 else None
        projects.append(Proj(path, m, parent=parent, deps=deps, packaging=packaging,
                             relative_path="../../pom.xml" if parent == AGG and m in group_members else None))
    return c(f"random-{i:02d}",
             f"Random reactor {i} (seed {SEED}): {n} modules{', nested' if nested else ''}"
             f"{', parent' if use_parent else ', no parent'}{', managed siblings' if managed_siblings else ''}",
             projects, externals)


def all_cases():
    cases = hand_cases()
    rng = random.Random(SEED)
    for i in range(RANDOM_CASES):
        cases.append(random_case(i, rng))
    return cases


def main():
    args = sys.argv[1:]
    no_answer = "--no-answer" in args
    only = None
    if "--only" in args:
        only = set(args[args.index("--only") + 1].split(","))
    cases = all_cases()
    names = {f"reactor-{x.name}" for x in cases} | {f"reactor-{x.name}-verbose" for x in cases}
    # Cases this generator no longer defines go.
    if os.path.isdir(OUT) and only is None:
        for d in os.listdir(OUT):
            if d.startswith("reactor-") and d not in names:
                shutil.rmtree(os.path.join(OUT, d))
    dirs = []
    for case in cases:
        if only and case.name not in only:
            continue
        for verbose in (False, True):
            dirs.append(write_case(case, verbose))
    print(f"{len(dirs)} case folders written under {OUT}")
    if no_answer:
        return
    print(f"answering with {find_oracle()} ({JOBS} at a time)")
    with ThreadPoolExecutor(JOBS) as pool:
        for d, status, err in pool.map(answer, dirs):
            note = f" (status {status}: {err.strip().splitlines()[0] if err.strip() else ''})" if status else ""
            print(f"  {os.path.basename(d)}{note}", flush=True)


if __name__ == "__main__":
    main()
