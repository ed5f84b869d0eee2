#!/usr/bin/env python3
"""Writes the inputs of testdata/mvn-tree/: single projects whose human `m2r tree` must be, byte for
byte, what the real `mvn dependency:tree` (Maven 3.8.7, maven-dependency-plugin 3.5.0) prints.

    python3 gen_mvn_tree.py [--m2r PATH] [--only PREFIX]
                                             # rewrite the inputs (of the cases named PREFIX*),
                                             # keeping expected.* until regen
    python3 regen_mvn_tree.py [CASE...]      # then ask the oracle (see that script)

A case folder (testdata/mvn-tree/README.md): `project/pom.xml`, `repo/` (a Maven 2 layout file:
repository with every POM the project needs), `args` (extra `m2r tree` arguments, one a line),
`README` (one line), and from the oracle `expected.txt` (+ `expected.status` when mvn failed).
Every project comes in a plain and a `-verbose` variant; a few also with the plugin's filters. A
variant's `project` and `repo` are symbolic links to the plain case's.

The projects:
- `real-*`: real POMs. Debian's repository (/usr/share/maven-repo: Maven Central POMs with their real
  versions, and Debian's `debian` versions) provides them: the POMs a project reads (parents and BOMs
  included) are found by letting `m2r tree --json` read the project through a `*` mirror to Debian's
  repository (the m2r binary: --m2r, default target/release/m2r then target/debug/m2r), and copied into
  `repo/`. The oracle sees all of Debian's repository, so a POM m2r failed to read would make the
  answers differ. `real-single-*` depend on one artifact; `real-mix-*` (seed 16000 + round) on
  several, with scopes, optional, exclusions and dependencyManagement of transitive versions and
  scopes, under a real parent (a jar then) or none (a jar, war or pom).
- `rule-*`: hand-made POMs (groupIds no real repository has) for one rule of the verbose tree each.
- `deps-*`: the projects of gen_trees.py's hand-made cases and its first random graphs (seed 7).
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

from gen_trees import CASES as TREE_CASES, D, Repo, hand_cases, pom, random_cases

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(ROOT, "testdata", "mvn-tree")
DEBIAN = "/usr/share/maven-repo"
SEED = 16
RANDOM_DEPS_CASES = 40

CASES = {}
ONLY = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""


def project_pom(deps=(), managed=(), packaging=None, parent=None, g="org.fix", a="app", v="1.0", extra=""):
    return pom(g, a, v, deps, managed, packaging=packaging, parent=parent, extra=extra)


def add(name, readme, project, repo_files, args=(), verbose=True, filters=()):
    """A project: its plain case, its `-verbose` case, and one case per filter argument list."""
    variants = [(name, [])]
    if verbose:
        variants.append((name + "-verbose", ["--verbose"]))
    for suffix, extra in filters:
        variants.append((f"{name}-{suffix}", list(extra)))
    for n, extra in variants:
        assert n not in CASES, n
        note = readme if not extra else f"{readme} ({' '.join(extra)})"
        CASES[n] = {"project": project, "repo": repo_files, "args": list(args) + extra, "readme": note,
                    "same_as": None if n == name else name}


# ----------------------------------------------------------------------------------- real POMs

def m2r_binary():
    if "--m2r" in sys.argv:
        return sys.argv[sys.argv.index("--m2r") + 1]
    for p in ("target/release/m2r", "target/debug/m2r"):
        if os.path.isfile(os.path.join(ROOT, p)):
            return os.path.join(ROOT, p)
    sys.exit("gen_mvn_tree: build m2r first (cargo build --release), or pass --m2r PATH")


def closure(project_text, synthetic=None):
    """The POMs `m2r tree` reads for this project from Debian's repository (plus `synthetic` files),
    as repo-relative paths -> bytes, and its JSON answer."""
    with tempfile.TemporaryDirectory() as tmp:
        union = os.path.join(tmp, "union")
        subprocess.run(["cp", "-rs", DEBIAN + "/.", union + "/"], check=True)
        for path, text in (synthetic or {}).items():
            p = os.path.join(union, path)
            if os.path.lexists(p):
                os.remove(p)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w") as f:
                f.write(text)
        os.makedirs(os.path.join(tmp, "project"))
        with open(os.path.join(tmp, "project", "pom.xml"), "w") as f:
            f.write(project_text)
        settings = os.path.join(tmp, "settings.xml")
        with open(settings, "w") as f:
            f.write(f"<settings><mirrors><mirror><id>debian</id><mirrorOf>*</mirrorOf><url>file://{union}</url>"
                    "</mirror></mirrors></settings>\n")
        home = os.path.join(tmp, "home")
        os.makedirs(home)
        local = os.path.join(tmp, "local")
        p = subprocess.run([m2r_binary(), "tree", "--json", "--pom", os.path.join(tmp, "project", "pom.xml"),
                            "--settings", settings, "--local-repository", local],
                           capture_output=True, text=True, env={"HOME": home, "PATH": os.environ["PATH"]})
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            sys.exit(f"gen_mvn_tree: m2r gave no JSON: {p.stderr[-500:]}")
        files = {}
        for dirpath, _, names in os.walk(local):
            for n in names:
                if n.endswith(".pom"):
                    full = os.path.join(dirpath, n)
                    with open(full, "rb") as f:
                        files["repo/" + os.path.relpath(full, local)] = f.read()
        for path, text in (synthetic or {}).items():
            files["repo/" + path] = text
        return files, doc


def debian_versions():
    """groupId:artifactId -> the versions Debian's repository has a POM for."""
    out = {}
    for dirpath, _, names in os.walk(DEBIAN):
        for n in names:
            if n.endswith(".pom"):
                rel = os.path.relpath(dirpath, DEBIAN).split(os.sep)
                if len(rel) >= 3:
                    g, a, v = ".".join(rel[:-2]), rel[-2], rel[-1]
                    out.setdefault(f"{g}:{a}", []).append(v)
    return {k: sorted(v) for k, v in out.items()}


REAL_SINGLES = [
    ("org.apache.maven:maven-core:3.8.7", "Maven's core: guice no_aop classifier, sisu, conflicts on plexus-utils."),
    ("org.apache.maven:maven-embedder:3.8.7", "The embedder: the whole Maven 3.8.7 graph."),
    ("org.apache.maven:maven-compat:3.8.7", "maven-compat: wagon, resolver and core, many omitted duplicates."),
    ("org.apache.maven:maven-resolver-provider:3.8.7", "The resolver provider over maven-model-builder."),
    ("org.apache.maven.doxia:doxia-doc-renderer:1.11.1", "Doxia's document renderer: the deepest real graph."),
    ("org.apache.maven.reporting:maven-reporting-impl:3.2.0", "Reporting: doxia, plexus and maven 3 artifacts."),
    ("org.apache.maven.doxia:doxia-module-fo:1.12.0", "Doxia FO: fop and batik below it."),
    ("org.apache.maven.doxia:doxia-site-renderer:1.11.1", "The site renderer: velocity and doxia."),
    ("org.apache.xmlgraphics:batik-squiggle-ext:1.16", "Batik: dozens of siblings depending on each other."),
    ("org.apache.xmlgraphics:fop:2.8", "FOP: batik, xmlgraphics-commons, fontbox."),
    ("org.apache.maven.shared:maven-shared-io:3.0.0", "maven-shared-io: old maven 2 artifacts in conflict."),
    ("org.apache.maven.shared:maven-artifact-transfer:0.13.1", "maven-artifact-transfer: resolver and maven."),
    ("org.apache.maven.shared:maven-dependency-analyzer:1.13.0", "The dependency analyzer: asm and maven."),
    ("org.apache.maven.shared:maven-dependency-tree:3.2.1", "maven-dependency-tree itself."),
    ("org.apache.velocity:velocity-tools:2.0", "velocity-tools: commons-* with optional dependencies."),
    ("org.apache.httpcomponents:httpclient-osgi:4.5.14", "httpclient-osgi: a missing POM among real ones."),
    ("com.google.guava:guava:31.1-jre", "Guava: annotations and failureaccess."),
    ("com.google.inject:guice:4.2.3", "Guice: aopalliance, javax.inject, guava."),
    ("commons-configuration:commons-configuration:1.10", "commons-configuration: optional commons dependencies."),
    ("org.codehaus.plexus:plexus-archiver:4.6.1", "plexus-archiver: compression libraries."),
    ("dom4j:dom4j:debian", "Debian's dom4j POM: a relocation to org.dom4j."),
    ("org.apache.maven:maven-core:debian", "Debian's maven-core: every dependency at version debian."),
]

# A pool of real artifacts for the mixed projects (all read from Debian's repository).
REAL_POOL = [
    "org.apache.maven:maven-core:3.8.7", "org.apache.maven:maven-model-builder:3.8.7",
    "org.apache.maven:maven-settings-builder:3.8.7", "org.apache.maven:maven-plugin-api:3.8.7",
    "org.apache.maven:maven-artifact:3.8.7", "org.apache.maven:maven-resolver-provider:3.8.7",
    "org.apache.maven:maven-archiver:3.6.0", "org.apache.maven.resolver:maven-resolver-impl:1.6.3",
    "org.apache.maven.resolver:maven-resolver-transport-wagon:1.6.3",
    "org.apache.maven.resolver:maven-resolver-connector-basic:1.6.3",
    "org.apache.maven.shared:maven-shared-utils:3.3.4", "org.apache.maven.shared:maven-common-artifact-filters:3.3.2",
    "org.apache.maven.shared:maven-dependency-tree:3.2.1", "org.apache.maven.shared:file-management:3.0.0",
    "org.apache.maven.doxia:doxia-core:1.12.0", "org.apache.maven.doxia:doxia-module-xhtml5:1.12.0",
    "org.apache.maven.doxia:doxia-integration-tools:1.11.1", "org.apache.maven.wagon:wagon-file:3.5.3",
    "org.apache.xmlgraphics:batik-bridge:1.16", "org.apache.xmlgraphics:batik-transcoder:1.16",
    "org.apache.xmlgraphics:batik-dom:1.16", "org.apache.xmlgraphics:xmlgraphics-commons:2.8",
    "org.codehaus.plexus:plexus-utils:3.4.2", "org.codehaus.plexus:plexus-archiver:4.6.1",
    "org.codehaus.plexus:plexus-container-default:2.1.1", "org.codehaus.plexus:plexus-velocity:1.2",
    "org.codehaus.plexus:plexus-i18n:1.0-beta-10", "org.eclipse.sisu:org.eclipse.sisu.plexus:0.3.4",
    "com.google.inject:guice:4.2.3", "com.google.guava:guava:31.1-jre",
    "org.apache.commons:commons-lang3:3.12.0", "org.apache.commons:commons-text:1.10.0",
    "org.apache.commons:commons-compress:1.22", "commons-io:commons-io:2.11.0",
    "commons-beanutils:commons-beanutils:1.9.4", "commons-validator:commons-validator:1.7",
    "org.apache.httpcomponents:httpclient:4.5.14", "org.apache.httpcomponents:fluent-hc:4.5.14",
    "org.apache.velocity:velocity:1.7", "org.slf4j:slf4j-api:1.7.32", "org.slf4j:jcl-over-slf4j:1.7.32",
    "org.slf4j:slf4j-simple:1.7.32", "junit:junit:4.13.2", "org.hamcrest:hamcrest:2.2",
    "xerces:xercesImpl:2.12.0", "xalan:xalan:2.7.2", "org.dom4j:dom4j:2.1.1", "jaxen:jaxen:1.1.6",
    "org.ow2.asm:asm-commons:9.4", "org.tukaani:xz:1.9", "org.fusesource.jansi:jansi:2.4.0",
]
# Parents whose build mvn can set up from Debian's repository alone (commons-parent, maven-parent and
# maven-shared-components bind plugins Debian does not package: mvn fails before the tree).
REAL_PARENTS = [None, None, None, "org.apache:apache:29"]


def dep_of(coord, **kw):
    g, a, v = coord.split(":")
    return {"g": g, "a": a, "v": v, **kw}


def real_cases():
    for coord, readme in REAL_SINGLES:
        if not "real-single-".startswith(ONLY[:len("real-single-")]):
            break
        text = project_pom([dep_of(coord)])
        files, _ = closure(text)
        add("real-single-" + coord.split(":")[1] + ("-debian" if coord.endswith(":debian") else ""),
            readme, {"pom.xml": text}, files)
    versions = debian_versions()
    for i in range(28 if "real-mix-".startswith(ONLY[:len("real-mix-")]) else 0):
        rng = random.Random(SEED * 1000 + i)
        picks = rng.sample(REAL_POOL, rng.randint(2, 5))
        deps = []
        for c in picks:
            d = dep_of(c)
            r = rng.random()
            if r < 0.15:
                d["scope"] = "test"
            elif r < 0.27:
                d["scope"] = "runtime"
            elif r < 0.37:
                d["scope"] = "provided"
            elif r < 0.45:
                d["optional"] = True
            elif r < 0.5:
                d["scope"] = "compile"
            deps.append(d)
        parent = rng.choice(REAL_PARENTS)
        packaging = rng.choice([None, None, None, "war", "pom"])
        if parent:
            packaging = None  # the parent's plugins for war or pom are not in Debian's repository
        par = tuple(parent.split(":")) if parent else None
        text = project_pom(deps, packaging=packaging, parent=par)
        _, doc = closure(text)
        # Transitive artifacts of this graph, to exclude or manage.
        transitive = []

        def walk(nodes, depth, top):
            for n in nodes:
                if depth >= 1:
                    transitive.append((top, n["artifact"]))
                walk(n["children"], depth + 1, top if top is not None else n)
        walk(doc.get("dependencies") or [], 0, None)
        notes = []
        if transitive and rng.random() < 0.5:
            top, art = rng.choice(transitive)
            g, a = art.split(":")[:2]
            for d in deps:
                if top is not None and top["artifact"].startswith(f"{d['g']}:{d['a']}:"):
                    if rng.random() < 0.2:
                        d.setdefault("exclusions", []).append((g, "*"))
                    else:
                        d.setdefault("exclusions", []).append((g, a))
                    notes.append("exclusions")
        managed = []
        for _ in range(rng.choice([0, 0, 1, 2, 3])):
            if not transitive:
                break
            _, art = rng.choice(transitive)
            g, a = art.split(":")[:2]
            vs = [v for v in versions.get(f"{g}:{a}", []) if not v.endswith(".x")]
            if not vs:
                continue
            m = {"g": g, "a": a, "v": rng.choice(vs)}
            if rng.random() < 0.35:
                m["scope"] = rng.choice(["compile", "runtime", "test", "provided"])
            if all(x["a"] != a or x["g"] != g for x in managed):
                managed.append(m)
        if managed:
            notes.append("managed versions/scopes")
        text = project_pom(deps, managed, packaging=packaging, parent=par)
        files, _ = closure(text)
        what = ", ".join(f"{d['a']}" + (f" ({d['scope']})" if d.get("scope") else "")
                         + (" (optional)" if d.get("optional") else "") for d in deps)
        readme = f"Real POMs (seed {SEED * 1000 + i}): {what}" + (f"; parent {parent}" if parent else "") \
            + (f"; packaging {packaging}" if packaging else "") + (f"; {', '.join(notes)}" if notes else "") + "."
        filters = ()
        if i % 7 == 0:
            filters = (("scope-runtime", ["--scope", "runtime"]), ("scope-compile-verbose", ["--verbose", "--scope", "compile"]))
        elif i % 7 == 3:
            filters = (("includes-plexus", ["--includes", "org.codehaus.plexus"]),
                       ("excludes-maven-verbose", ["--verbose", "--excludes", "org.apache.maven:*:jar"]))
        add(f"real-mix-{i:02d}", readme, {"pom.xml": text}, files, filters=filters)
    # A real BOM imported by the project.
    if not "real-bom-".startswith(ONLY[:len("real-bom-")]):
        return
    text = project_pom(
        [{"g": "com.google.inject", "a": "guice"}, {"g": "com.google.inject.extensions", "a": "guice-assistedinject"},
         {"g": "com.google.inject.extensions", "a": "guice-servlet", "scope": "provided"}],
        [{"g": "com.google.inject", "a": "guice-bom", "v": "4.2.3", "type": "pom", "scope": "import"}])
    files, _ = closure(text)
    add("real-bom-guice", "Versions from the real guice-bom 4.2.3 imported by the project.", {"pom.xml": text}, files)


# ----------------------------------------------------------------------------------- rule cases

def rule_cases():
    g = "org.fix"

    def files(repo):
        return dict(repo.files)

    r = Repo().add(f"{g}:a:1", [D(f"{g}:c:1")]).add(f"{g}:c:1")
    add("rule-root-jar", "A jar project's root line says jar (packaging defaults to jar).",
        {"pom.xml": project_pom([D(f"{g}:a:1")])}, files(r))
    add("rule-root-pom", "A pom project's root line says pom.",
        {"pom.xml": project_pom([D(f"{g}:a:1")], packaging="pom")}, files(r))
    add("rule-root-war", "A war project's root line says war.",
        {"pom.xml": project_pom([D(f"{g}:a:1")], packaging="war")}, files(r))
    add("rule-root-snapshot", "A SNAPSHOT project and a SNAPSHOT dependency.",
        {"pom.xml": project_pom([D(f"{g}:s:1.0-SNAPSHOT")], v="2.0-SNAPSHOT")},
        files(Repo().add(f"{g}:s:1.0-SNAPSHOT", [D(f"{g}:c:1")]).add(f"{g}:c:1")))
    add("rule-no-dependencies", "A project without dependencies: the root line alone.",
        {"pom.xml": project_pom()}, {})

    r = Repo().add(f"{g}:a:1", [D(f"{g}:c:1")]).add(f"{g}:b:1", [D(f"{g}:c:1")]).add(f"{g}:c:1")
    add("rule-omitted-duplicate", "The same version reached twice: the second reads `omitted for duplicate`.",
        {"pom.xml": project_pom([D(f"{g}:a:1"), D(f"{g}:b:1")])}, files(r))
    r = Repo().add(f"{g}:a:1", [D(f"{g}:c:1")]).add(f"{g}:b:1", [D(f"{g}:c:2")]).add(f"{g}:c:1").add(f"{g}:c:2")
    add("rule-omitted-conflict", "Another version: `omitted for conflict with 1`.",
        {"pom.xml": project_pom([D(f"{g}:a:1"), D(f"{g}:b:1")])}, files(r))

    r = Repo().add(f"{g}:a:1", [D(f"{g}:c:1")]).add(f"{g}:b:1", [D(f"{g}:c:1")]).add(f"{g}:p:1", [D(f"{g}:c:1")]) \
        .add(f"{g}:t:1", [D(f"{g}:c:2")]).add(f"{g}:c:1").add(f"{g}:c:2")
    add("rule-derived-scope-omitted", "Omitted nodes show the scope derived on their path (runtime, provided, test).",
        {"pom.xml": project_pom([D(f"{g}:a:1"), D(f"{g}:b:1", "runtime"), D(f"{g}:p:1", "provided"),
                                 D(f"{g}:t:1", "test")])}, files(r))

    r = Repo().add(f"{g}:a:1", [D(f"{g}:x:1"), D(f"{g}:k1:1"), D(f"{g}:y:2"), D(f"{g}:k2:1"), D(f"{g}:z:1")]) \
        .add(f"{g}:x:1").add(f"{g}:y:1").add(f"{g}:y:2").add(f"{g}:z:1").add(f"{g}:k1:1").add(f"{g}:k2:1")
    add("rule-declaration-order", "Omitted entries stay where they were declared, between the kept ones.",
        {"pom.xml": project_pom([D(f"{g}:x:1"), D(f"{g}:y:1"), D(f"{g}:z:1"), D(f"{g}:a:1")])}, files(r))

    r = Repo().add(f"{g}:a:1", [D(f"{g}:t:1", "test"), D(f"{g}:o:1", optional=True), D(f"{g}:p:1", "provided"),
                                D(f"{g}:c:1")]).add(f"{g}:t:1").add(f"{g}:o:1").add(f"{g}:p:1").add(f"{g}:c:1")
    add("rule-test-optional-hidden", "Transitive test, provided and optional dependencies are not shown, verbose or not.",
        {"pom.xml": project_pom([D(f"{g}:a:1")])}, files(r))

    r = Repo().add(f"{g}:a:1", [D(f"{g}:m:1"), D(f"{g}:s:1"), D(f"{g}:e:5")]).add(f"{g}:m:1").add(f"{g}:m:2") \
        .add(f"{g}:s:1").add(f"{g}:e:5")
    add("rule-managed", "Managed version, managed scope, and a managed version equal to the declared one.",
        {"pom.xml": project_pom([D(f"{g}:a:1")], [D(f"{g}:m:2"), D(f"{g}:s:1", "runtime"), D(f"{g}:e:5")])}, files(r))
    r = Repo().add(f"{g}:a:1", [D(f"{g}:m:1")]).add(f"{g}:b:1", [D(f"{g}:m:1")]).add(f"{g}:m:1").add(f"{g}:m:3")
    add("rule-managed-loser", "A loser keeps its management notes before `omitted for ...`.",
        {"pom.xml": project_pom([D(f"{g}:a:1"), D(f"{g}:b:1"), D(f"{g}:m:3", "runtime")],
                                [D(f"{g}:m:2", "test")])}, files(r.add(f"{g}:m:2")))

    r = Repo().add(f"{g}:a:1", [D(f"{g}:c:1")]).add(f"{g}:c:1")
    add("rule-scope-not-updated-direct", "A direct test dependency also reached as compile: `scope not updated to compile`.",
        {"pom.xml": project_pom([D(f"{g}:a:1"), D(f"{g}:c:1", "test")])}, files(r))
    r = Repo().add(f"{g}:a:1", [D(f"{g}:d:1", "runtime")]).add(f"{g}:b:1", [D(f"{g}:d:1")]).add(f"{g}:d:1")
    add("rule-scope-not-updated-written", "runtime written in a POM is not the runtime Resolver picks: the note names runtime itself.",
        {"pom.xml": project_pom([D(f"{g}:a:1"), D(f"{g}:b:1", "test")])}, files(r))
    r = Repo().add(f"{g}:a:1", [D(f"{g}:d:1")]).add(f"{g}:b:1", [D(f"{g}:d:1")]).add(f"{g}:d:1")
    add("rule-scope-derived-constant", "runtime derived below a runtime dependency and test below a test one: no note.",
        {"pom.xml": project_pom([D(f"{g}:a:1", "runtime"), D(f"{g}:b:1", "test")])}, files(r))
    r = Repo().add(f"{g}:a:1", [D(f"{g}:p1:1")]).add(f"{g}:p1:1", [D(f"{g}:y:1", "compile")]).add(f"{g}:p1:2") \
        .add(f"{g}:p2:1", [D(f"{g}:y:1")]).add(f"{g}:q:1", [D(f"{g}:y:1")]).add(f"{g}:y:1")
    add("rule-scope-interned", "An equal dependency met first in a subtree that later lost shares its written scope.",
        {"pom.xml": project_pom([D(f"{g}:a:1"), D(f"{g}:p1:2"), D(f"{g}:p2:1"), D(f"{g}:q:1", "test")])}, files(r))
    r = Repo().add(f"{g}:r:1", [D(f"{g}:x:1", "runtime"), D(f"{g}:z:1", "compile"), D(f"{g}:w:1")]) \
        .add(f"{g}:x:1").add(f"{g}:z:1").add(f"{g}:w:1")
    add("rule-scope-interned-direct", "Direct dependencies equal to ones met earlier share their scope text.",
        {"pom.xml": project_pom([D(f"{g}:r:1"), D(f"{g}:x:1", "runtime"), D(f"{g}:z:1", "compile"),
                                 D(f"{g}:w:1", "compile")])}, files(r))
    r = Repo().add(f"{g}:a:1", [D(f"{g}:c:1", "compile")]).add(f"{g}:b:1", [D(f"{g}:c:1")]).add(f"{g}:c:1")
    add("rule-scope-written-compile", "compile written and compile by default, compile and test paths.",
        {"pom.xml": project_pom([D(f"{g}:b:1", "test"), D(f"{g}:a:1")])}, files(r))
    r = Repo().add(f"{g}:a:1", [D(f"{g}:c:1", "runtime")]).add(f"{g}:b:1", [D(f"{g}:c:1", "runtime")]).add(f"{g}:c:1")
    add("rule-scope-managed-text", "A managed scope is the management entry's text.",
        {"pom.xml": project_pom([D(f"{g}:a:1"), D(f"{g}:b:1", "test")], [D(f"{g}:c:1", "runtime")])}, files(r))

    r = Repo().add(f"{g}:a:1", [D(f"{g}:x:[1,3)")]).add(f"{g}:x:1").add(f"{g}:x:2").metadata(f"{g}:x", ["1", "2"])
    add("rule-range-siblings", "Each version of a range is a sibling: the losers beside the winner go silently.",
        {"pom.xml": project_pom([D(f"{g}:a:1")])}, files(r))
    add("rule-range-losers-in-one-list", "Two losers in one list: only the first is shown.",
        {"pom.xml": project_pom([D(f"{g}:x:2"), D(f"{g}:a:1")])}, files(r))

    r = Repo().add(f"{g}:a:1", [D(f"{g}:x:1", type="test-jar"), D(f"{g}:x:1")]).add(f"{g}:x:1")
    add("rule-same-list-loser", "Two declarations of one artifact in one list: the loser is not shown.",
        {"pom.xml": project_pom([D(f"{g}:x:1", classifier="tests"), D(f"{g}:a:1")])}, files(r))

    r = Repo().add(f"{g}:a:1", [D(f"{g}:b:1")]).add(f"{g}:b:1", [D(f"{g}:a:1"), D(f"{g}:c:1")]) \
        .add(f"{g}:c:1", [D(f"{g}:b:1"), D(f"{g}:d:1")]).add(f"{g}:d:1")
    add("rule-cycle", "Cycles are cut without a note.",
        {"pom.xml": project_pom([D(f"{g}:a:1"), D(f"{g}:c:1")])}, files(r))

    r = Repo().add(f"{g}:a:1", [D(f"{g}:old:1")]).add(f"{g}:old:1", relocation={"artifactId": "new"}) \
        .add(f"{g}:new:1").add(f"{g}:new:2").add(f"{g}:b:1", [D(f"{g}:new:2")])
    add("rule-relocation", "Relocated nodes print as their target, in conflicts too.",
        {"pom.xml": project_pom([D(f"{g}:a:1"), D(f"{g}:b:1"), D(f"{g}:old:1", "runtime")])}, files(r))

    r = Repo().add(f"{g}:a:1", [D(f"{g}:t:1", type="test-jar"), D(f"{g}:e:1", type="ejb-client"),
                                D(f"{g}:s:1", classifier="sources"), D(f"{g}:p:1", type="pom"),
                                D(f"{g}:w:1", type="war"), D(f"{g}:z:1", type="zip", classifier="bin")]) \
        .add(f"{g}:t:1").add(f"{g}:e:1").add(f"{g}:s:1").add(f"{g}:p:1", [D(f"{g}:c:1")]).add(f"{g}:c:1") \
        .add(f"{g}:w:1", [D(f"{g}:c:1")]).add(f"{g}:z:1")
    add("rule-types", "Types and classifiers print as type:classifier (test-jar:tests, ejb-client:client, pom, war, zip:bin).",
        {"pom.xml": project_pom([D(f"{g}:a:1"), D(f"{g}:t:1", "test", type="test-jar")])}, files(r))

    r = Repo().add(f"{g}:a:1", [D(f"{g}:s:1", "system", systemPath="/etc/hostname"), D(f"{g}:c:1")]).add(f"{g}:c:1")
    add("rule-system", "System dependencies, direct and transitive.",
        {"pom.xml": project_pom([D(f"{g}:a:1"), D(f"{g}:h:1", "system", systemPath="/etc/hostname")])}, files(r))

    r = Repo().add(f"{g}:a:1", [D(f"{g}:gone:1"), D(f"{g}:c:1")]).add(f"{g}:c:1")
    add("rule-missing-pom", "A dependency whose POM is missing stays, without children (mvn warns).",
        {"pom.xml": project_pom([D(f"{g}:a:1"), D(f"{g}:c:1", "runtime")])}, files(r))
    r = Repo().add(f"{g}:a:1", [D(f"{g}:x:[5,6)")]).add(f"{g}:x:1").metadata(f"{g}:x", ["1"])
    add("rule-collection-fails", "An unsatisfiable range fails mvn: no tree, non-zero exit.",
        {"pom.xml": project_pom([D(f"{g}:a:1")])}, files(r))

    r = Repo().add(f"{g}:o:1", [D(f"{g}:c:1"), D(f"{g}:d:1", "runtime")]).add(f"{g}:c:1").add(f"{g}:d:1") \
        .add(f"{g}:p:1", [D(f"{g}:c:1"), D(f"{g}:d:1")])
    add("rule-optional-provided-direct", "Direct optional and provided dependencies keep their children.",
        {"pom.xml": project_pom([D(f"{g}:o:1", optional=True), D(f"{g}:p:1", "provided")])}, files(r))

    r = Repo().add(f"{g}:a:1", [D(f"{g}:b:1"), D(f"{g}:c:1")]).add(f"{g}:b:1", [D(f"{g}:c:2")]).add(f"{g}:c:1") \
        .add(f"{g}:c:2").add(f"{g}:d:1", [D(f"{g}:c:1")])
    add("rule-exclusion-hides", "An excluded dependency is neither kept nor shown as omitted.",
        {"pom.xml": project_pom([D(f"{g}:a:1", exclusions=[(g, "b")]), D(f"{g}:d:1")])}, files(r))

    # A graph for the filters: several scopes, groups and types.
    r = Repo().add(f"{g}:a:1", [D("org.other:b:1"), D(f"{g}:c:1", "runtime"), D(f"{g}:w:1", type="war")]) \
        .add("org.other:b:1", [D(f"{g}:c:2"), D("org.other:d:1")]).add(f"{g}:c:1").add(f"{g}:c:2") \
        .add("org.other:d:1", [D(f"{g}:e:1.5")]).add(f"{g}:e:1.5").add(f"{g}:w:1").add(f"{g}:t:1", [D("org.other:d:1")]) \
        .add(f"{g}:p:1").add(f"{g}:s:1")
    proj = project_pom([D(f"{g}:a:1"), D(f"{g}:t:1", "test"), D(f"{g}:p:1", "provided"),
                        D(f"{g}:s:1", "system", systemPath="/etc/hostname"), D(f"{g}:r:1", "runtime")])
    r.add(f"{g}:r:1", [D("org.other:d:1")])
    add("rule-filters", "Scopes, groups and types for the plugin's filters.", {"pom.xml": proj}, files(r), filters=(
        ("scope-compile", ["--scope", "compile"]), ("scope-runtime", ["--scope", "runtime"]),
        ("scope-test-verbose", ["--verbose", "--scope", "test"]), ("scope-provided", ["--scope", "provided"]),
        ("scope-compile-runtime", ["--scope", "compile+runtime"]), ("scope-runtime-system", ["--scope", "runtime+system"]),
        ("includes-group", ["--includes", "org.other"]), ("includes-artifact-verbose", ["--verbose", "--includes", ":c"]),
        ("includes-wildcards", ["--includes", "*.fix:*:war,*:d*"]), ("includes-version-range", ["--includes", ":::[1.1,2)"]),
        ("includes-none", ["--includes", "nothing.matches"]), ("excludes-group", ["--excludes", "org.other"]),
        ("excludes-all-verbose", ["--verbose", "--excludes", "*"]), ("excludes-type", ["--excludes", "::jar"]),
        ("includes-excludes", ["--includes", "org.fix", "--excludes", "*:c"]),
        ("includes-scope", ["--scope", "runtime", "--includes", ":d"]),
    ))


def deps_cases():
    """The projects of gen_trees.py (testdata/deps/tree-*) as mvn dependency:tree cases."""
    TREE_CASES.clear()
    hand_cases()
    hand = set(TREE_CASES)
    random_cases(RANDOM_DEPS_CASES)
    for name, (args, files, readme) in TREE_CASES.items():
        if "pom.xml" not in files or "mirrorOf>*<" not in files["settings.xml"]:
            continue
        if any("case.dir" in v for k, v in files.items() if k != "settings.xml"):
            continue
        if any(a.startswith("-D") and "case.dir" not in a for a in args):
            continue
        repo = {k: v for k, v in files.items() if k.startswith("repo/")}
        note = readme if name in hand else readme.replace("(gen_trees.py", "(gen_trees.py random_cases")
        add("deps-" + name[len("tree-"):], note, {"pom.xml": files["pom.xml"]}, repo)


def write(name, case):
    d = os.path.join(OUT, name)
    if os.path.isdir(d):
        for entry in os.listdir(d):
            if not entry.startswith("expected."):
                p = os.path.join(d, entry)
                shutil.rmtree(p) if os.path.isdir(p) and not os.path.islink(p) else os.remove(p)
    os.makedirs(d, exist_ok=True)
    if case["same_as"]:
        # A variant of a project: its project/ and repo/ are the plain case's.
        for part in ("project", "repo"):
            os.symlink(os.path.join("..", case["same_as"], part), os.path.join(d, part))
        case = dict(case, project={}, repo={})
    for path, content in case["project"].items():
        p = os.path.join(d, "project", path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(content)
    if not case["same_as"]:
        os.makedirs(os.path.join(d, "repo"), exist_ok=True)
    for path, content in case["repo"].items():
        assert path.startswith("repo/"), path
        p = os.path.join(d, path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w" if isinstance(content, str) else "wb") as f:
            f.write(content)
    with open(os.path.join(d, "args"), "w") as f:
        f.write("".join(a + "\n" for a in case["args"]))
    with open(os.path.join(d, "README"), "w") as f:
        f.write(case["readme"].strip() + "\n")


def main():
    rule_cases()
    deps_cases()
    real_cases()
    os.makedirs(OUT, exist_ok=True)
    for name, case in CASES.items():
        if name.startswith(ONLY):
            write(name, case)
    for d in os.listdir(OUT):
        if os.path.isdir(os.path.join(OUT, d)) and d.startswith(ONLY) and d not in CASES:
            shutil.rmtree(os.path.join(OUT, d))
    print(f"{len(CASES)} cases in {OUT}")


if __name__ == "__main__":
    main()
