#!/usr/bin/env python3
"""Writes the `tree-*` cases of testdata/deps/ and asks the oracle (deps.sh tree) for each.

    python3 gen_trees.py             # rewrite the inputs, then answer every tree-* case
    python3 gen_trees.py --no-answer

Every case is a small repository (`repo/`, file: URL through a `*` mirror in `settings.xml`) plus a
root: a coordinate in the repository or a project file (`pom.xml`, with --pom). Hand-made cases cover
one collector rule each (management of transitive versions, scopes and exclusions, scope pruning,
optional, exclusions with wildcards, relocations, cycles, ranges including unsatisfiable ones, missing
and invalid POMs, POM-declared repositories, nearest and first-declaration wins, scope widening,
direct-dependency scope, types and classifiers, system scope); `tree-random-*` are random graphs
(seed 7) with conflicts, management, ranges and pruned scopes.
"""
import random
import sys
from xml.sax.saxutils import escape

from collect_lib import DEPS, answer_all, reset_cases, write_case

SETTINGS = ("<settings><mirrors><mirror><id>fix</id><mirrorOf>{of}</mirrorOf>"
            "<url>file://${{case.dir}}/repo</url></mirror></mirrors></settings>\n")


def dep_xml(d, tag="dependency"):
    g, a, v = d["g"], d["a"], d.get("v")
    x = f"<{tag}><groupId>{g}</groupId><artifactId>{a}</artifactId>"
    if v is not None:
        x += f"<version>{escape(v)}</version>"
    for k in ("type", "classifier", "scope", "systemPath"):
        if d.get(k) is not None:
            x += f"<{k}>{escape(d[k])}</{k}>"
    if d.get("optional") is not None:
        x += f"<optional>{'true' if d['optional'] else 'false'}</optional>"
    if d.get("exclusions"):
        x += "<exclusions>" + "".join(
            f"<exclusion><groupId>{eg}</groupId><artifactId>{ea}</artifactId></exclusion>" for eg, ea in d["exclusions"]
        ) + "</exclusions>"
    return x + f"</{tag}>"


def pom(g, a, v, deps=(), managed=(), packaging=None, parent=None, relocation=None, repositories=(), extra=""):
    x = '<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
    if parent:
        pg, pa, pv = parent
        x += f"<parent><groupId>{pg}</groupId><artifactId>{pa}</artifactId><version>{pv}</version><relativePath/></parent>"
    x += f"<groupId>{g}</groupId><artifactId>{a}</artifactId><version>{v}</version>"
    if packaging:
        x += f"<packaging>{packaging}</packaging>"
    if repositories:
        x += "<repositories>" + "".join(
            f"<repository><id>{rid}</id><url>{url}</url></repository>" for rid, url in repositories) + "</repositories>"
    if relocation is not None:
        x += "<distributionManagement><relocation>" + "".join(
            f"<{k}>{val}</{k}>" for k, val in relocation.items()) + "</relocation></distributionManagement>"
    if managed:
        x += "<dependencyManagement><dependencies>" + "".join(dep_xml(d) for d in managed) + "</dependencies></dependencyManagement>"
    if deps:
        x += "<dependencies>" + "".join(dep_xml(d) for d in deps) + "</dependencies>"
    return x + extra + "</project>\n"


def D(coord, scope=None, **kw):
    p = coord.split(":")
    d = {"g": p[0], "a": p[1], "v": p[2] if len(p) > 2 else None}
    if scope:
        d["scope"] = scope
    d.update(kw)
    return d


class Repo:
    def __init__(self):
        self.files = {}

    def add(self, coord, deps=(), **kw):
        g, a, v = coord.split(":")
        self.files[f"repo/{g.replace('.', '/')}/{a}/{v}/{a}-{v}.pom"] = pom(g, a, v, deps, **kw)
        return self

    def raw(self, coord, text):
        g, a, v = coord.split(":")
        self.files[f"repo/{g.replace('.', '/')}/{a}/{v}/{a}-{v}.pom"] = text
        return self

    def metadata(self, ga, versions, repo="repo"):
        g, a = ga.split(":")
        vs = "".join(f"<version>{v}</version>" for v in versions)
        self.files[f"{repo}/{g.replace('.', '/')}/{a}/maven-metadata.xml"] = (
            f"<metadata><groupId>{g}</groupId><artifactId>{a}</artifactId><versioning>"
            f"<latest>{versions[-1]}</latest><release>{versions[-1]}</release><versions>{vs}</versions>"
            f"<lastUpdated>20240101000000</lastUpdated></versioning></metadata>\n")
        return self

    def versions(self, ga, versions, deps=()):
        for v in versions:
            self.add(f"{ga}:{v}", deps)
        return self.metadata(ga, versions)


CASES = {}


def case(name, repo, root, readme, project=None, mirror_of="*", extra_args=()):
    """root: a coordinate, or None with project = (deps, managed) for a pom.xml root."""
    files = dict(repo.files)
    files["settings.xml"] = SETTINGS.format(of=mirror_of)
    args = ["tree", "--settings", "settings.xml", "-Dcase.dir=@CASE@", *extra_args]
    if project is not None:
        deps, managed = project[:2]
        files["pom.xml"] = pom("org.fix", "app", "1.0", deps, managed, **(project[2] if len(project) > 2 else {}))
        args += ["--pom", "pom.xml"]
    else:
        args.append(root)
    CASES["tree-" + name] = (args, files, readme)


def hand_cases():
    g = "org.fix"
    # --- nearest wins, first declaration ---------------------------------------------------------
    r = Repo().add(f"{g}:a:1", [D(f"{g}:c:1")]).add(f"{g}:b:1", [D(f"{g}:c:2")]).add(f"{g}:c:1").add(f"{g}:c:2")
    case("first-declaration-wins", r, None, "c:1 (under a, declared first) beats c:2 at the same depth.",
         project=([D(f"{g}:a:1"), D(f"{g}:b:1")], []))
    r = Repo().add(f"{g}:a:1", [D(f"{g}:x:1")]).add(f"{g}:x:1", [D(f"{g}:c:1")]).add(f"{g}:b:1", [D(f"{g}:c:2")]) \
        .add(f"{g}:c:1").add(f"{g}:c:2")
    case("nearest-wins", r, None, "c:2 at depth 2 beats c:1 at depth 3 although declared later.",
         project=([D(f"{g}:a:1"), D(f"{g}:b:1")], []))
    case("direct-wins", r, None, "A direct c:0.5 beats every transitive c.",
         project=([D(f"{g}:a:1"), D(f"{g}:b:1"), D(f"{g}:c:1")], []))
    # --- management --------------------------------------------------------------------------------
    r = Repo().add(f"{g}:a:1", [D(f"{g}:c:1"), D(f"{g}:d:1", "runtime")]).add(f"{g}:c:1").add(f"{g}:c:3") \
        .add(f"{g}:d:1").add(f"{g}:d:2")
    case("managed-version", r, None, "The project's dependencyManagement sets c to 3 below a.",
         project=([D(f"{g}:a:1")], [D(f"{g}:c:3")]))
    case("managed-scope", r, None, "Management turns transitive c into provided and d into test... scopes managed.",
         project=([D(f"{g}:a:1")], [D(f"{g}:c", "provided", v="1"), D(f"{g}:d:2", "compile")]))
    case("managed-direct-version-kept", r, None, "A direct dependency keeps its declared version despite management.",
         project=([D(f"{g}:a:1"), D(f"{g}:c:1")], [D(f"{g}:c:3")]))
    r2 = Repo().add(f"{g}:a:1", [D(f"{g}:c:1"), D(f"{g}:e:1")]).add(f"{g}:c:1", [D(f"{g}:x:1"), D(f"{g}:y:1")]) \
        .add(f"{g}:e:1", [D(f"{g}:x:1")]).add(f"{g}:x:1").add(f"{g}:y:1")
    case("managed-exclusions", r2, None, "Management adds exclusions to transitive c (x, y gone under c, x stays under e).",
         project=([D(f"{g}:a:1")], [D(f"{g}:c:1", exclusions=[(g, "x"), (g, "y")])]))
    case("managed-exclusions-direct", r2, None, "Managed exclusions apply to a direct dependency too.",
         project=([D(f"{g}:a:1")], [D(f"{g}:a:1", exclusions=[(g, "c")])]))
    case("managed-optional", r2, None, "Managed optional=true on a transitive dependency.",
         project=([D(f"{g}:a:1")], [D(f"{g}:e:1", optional=True)]))
    case("artifact-root-management", Repo().add(f"{g}:root:1", [D(f"{g}:a:1")], managed=[D(f"{g}:c:3")])
         .add(f"{g}:a:1", [D(f"{g}:c:1")]).add(f"{g}:c:1").add(f"{g}:c:3"), f"{g}:root:1",
         "An artifact root's own dependencyManagement manages its graph.")
    r3 = Repo().add(f"{g}:a:1", [D(f"{g}:b:1")], managed=[D(f"{g}:c:9")]).add(f"{g}:b:1", [D(f"{g}:c:1")]) \
        .add(f"{g}:c:1").add(f"{g}:c:9")
    case("transitive-management-ignored", r3, None, "Management of a dependency's POM does not apply below it (classic manager).",
         project=([D(f"{g}:a:1")], []))
    # --- scopes --------------------------------------------------------------------------------------
    r = Repo().add(f"{g}:a:1", [D(f"{g}:t:1", "test"), D(f"{g}:p:1", "provided"), D(f"{g}:r:1", "runtime"),
                                D(f"{g}:c:1", "compile"), D(f"{g}:s:1", "system", systemPath="/opt/s.jar")]) \
        .add(f"{g}:t:1").add(f"{g}:p:1").add(f"{g}:r:1", [D(f"{g}:rc:1")]).add(f"{g}:c:1", [D(f"{g}:cc:1", "runtime")]) \
        .add(f"{g}:rc:1").add(f"{g}:cc:1")
    case("scope-pruning", r, None, "Transitive test and provided dependencies are dropped; runtime and compile kept.",
         project=([D(f"{g}:a:1")], []))
    case("scope-derivation-test", r, None, "Everything below a test dependency is test.",
         project=([D(f"{g}:a:1", "test")], []))
    case("scope-derivation-provided", r, None, "Below a provided dependency: provided.",
         project=([D(f"{g}:a:1", "provided")], []))
    case("scope-derivation-runtime", r, None, "Below a runtime dependency: runtime.",
         project=([D(f"{g}:a:1", "runtime")], []))
    r = Repo().add(f"{g}:a:1", [D(f"{g}:c:1", "runtime")]).add(f"{g}:b:1", [D(f"{g}:c:1")]).add(f"{g}:c:1")
    case("scope-widening", r, None, "c reached as runtime and compile at the same depth gets compile.",
         project=([D(f"{g}:a:1"), D(f"{g}:b:1")], []))
    case("direct-scope-kept", r, None, "A direct test c keeps test although a compile path exists.",
         project=([D(f"{g}:a:1"), D(f"{g}:c:1", "test")], []))
    case("direct-runtime-kept", r, None, "A direct runtime c keeps runtime.",
         project=([D(f"{g}:c:1", "runtime"), D(f"{g}:b:1")], []))
    # --- optional -------------------------------------------------------------------------------------
    r = Repo().add(f"{g}:a:1", [D(f"{g}:o:1", optional=True), D(f"{g}:c:1")]).add(f"{g}:o:1").add(f"{g}:c:1")
    case("optional-transitive-dropped", r, None, "A transitive optional dependency is dropped.",
         project=([D(f"{g}:a:1")], []))
    case("optional-direct-kept", r, None, "A direct optional dependency stays, optional, with its children.",
         project=([D(f"{g}:a:1", optional=True)], []))
    # --- exclusions -----------------------------------------------------------------------------------
    r = Repo().add(f"{g}:a:1", [D(f"{g}:b:1"), D("other:c:1")]).add(f"{g}:b:1", [D(f"{g}:x:1"), D("other:y:1")]) \
        .add("other:c:1", [D("other:y:1")]).add(f"{g}:x:1").add("other:y:1")
    case("exclusion-exact", r, None, "Excluding g:x below a.", project=([D(f"{g}:a:1", exclusions=[(g, "x")])], []))
    case("exclusion-group-wildcard", r, None, "Excluding other:* below a.",
         project=([D(f"{g}:a:1", exclusions=[("other", "*")])], []))
    case("exclusion-artifact-wildcard", r, None, "Excluding *:y below a.",
         project=([D(f"{g}:a:1", exclusions=[("*", "y")])], []))
    case("exclusion-all", r, None, "Excluding *:* keeps a alone.", project=([D(f"{g}:a:1", exclusions=[("*", "*")])], []))
    r = Repo().add(f"{g}:a:1", [D(f"{g}:b:1", exclusions=[(g, "x")])]).add(f"{g}:b:1", [D(f"{g}:c:1")]) \
        .add(f"{g}:c:1", [D(f"{g}:x:1")]).add(f"{g}:x:1")
    case("exclusion-accumulates", r, None, "An exclusion declared on b applies two levels below it.",
         project=([D(f"{g}:a:1")], []))
    # --- relocations ------------------------------------------------------------------------------------
    r = Repo().add(f"{g}:old:1", relocation={"artifactId": "new"}).add(f"{g}:new:1", [D(f"{g}:c:1")]).add(f"{g}:c:1")
    case("relocation", r, None, "old:1 relocates to new:1 (relocations listed).", project=([D(f"{g}:old:1")], []))
    r.add(f"{g}:older:1", relocation={"artifactId": "old"})
    case("relocation-chain", r, None, "older → old → new.", project=([D(f"{g}:older:1")], []))
    r = Repo().add(f"{g}:a:1", [D(f"{g}:old:1")]).add(f"{g}:old:1", relocation={"groupId": "org.new"}) \
        .add("org.new:old:1").add("org.new:old:2").add(f"{g}:b:1", [D("org.new:old:2")])
    case("relocation-conflict", r, None, "A relocated artifact conflicts with the target reached another way.",
         project=([D(f"{g}:a:1"), D(f"{g}:b:1")], []))
    r = Repo().add(f"{g}:a:1", [D(f"{g}:v:1")]).add(f"{g}:v:1", relocation={"version": "2"}).add(f"{g}:v:2")
    case("relocation-version", r, None, "A relocation to another version of the same artifact (management disabled after).",
         project=([D(f"{g}:a:1")], [D(f"{g}:v:1")]))
    # --- cycles -------------------------------------------------------------------------------------------
    r = Repo().add(f"{g}:a:1", [D(f"{g}:b:1")]).add(f"{g}:b:1", [D(f"{g}:a:1"), D(f"{g}:c:1")]).add(f"{g}:c:1", [D(f"{g}:b:1")])
    case("cycle", r, None, "a → b → a and b → c → b are cut.", project=([D(f"{g}:a:1")], []))
    case("cycle-artifact-root", r, f"{g}:a:1", "A root that its dependencies depend on.")
    r = Repo().add(f"{g}:a:1", [D(f"{g}:b:1")]).add(f"{g}:b:1", [D(f"{g}:a:2")]).add(f"{g}:a:2", [D(f"{g}:z:1")]).add(f"{g}:z:1")
    case("cycle-other-version", r, None, "a:1 → b → a:2 counts as a cycle.", project=([D(f"{g}:a:1")], []))
    r = Repo().add(f"{g}:self:1", [D(f"{g}:self:1")])
    case("cycle-self", r, None, "A POM that depends on itself.", project=([D(f"{g}:self:1")], []))
    # --- ranges -------------------------------------------------------------------------------------------
    r = Repo().versions(f"{g}:c", ["1.0", "1.5", "2.0", "2.5", "3.0"]).add(f"{g}:a:1", [D(f"{g}:c:[1.0,2.0]")]) \
        .add(f"{g}:b:1", [D(f"{g}:c:[1.5,3.0)")])
    case("range-highest", r, None, "A range resolves to the highest listed version.", project=([D(f"{g}:a:1")], []))
    case("range-intersection", r, None, "Two ranges on c: the highest version in both.",
         project=([D(f"{g}:a:1"), D(f"{g}:b:1")], []))
    case("range-direct", r, None, "A direct range.", project=([D(f"{g}:c:(,2.0)")], []))
    case("range-exact", r, None, "[1.5] needs no metadata.", project=([D(f"{g}:c:[1.5]")], []))
    case("range-union", r, None, "A union of ranges.", project=([D(f"{g}:c:(,1.0],[2.0,2.5]")], []))
    case("range-unsatisfied", r, None, "A range no listed version satisfies fails the collection.",
         project=([D(f"{g}:a:1"), D(f"{g}:c:[4,5)")], []))
    case("range-conflict", r, None, "Disjoint ranges on two paths fail conflict resolution.",
         project=([D(f"{g}:a:1"), D(f"{g}:c:[2.5,3.0]")], []))
    case("range-vs-soft", r, None, "A soft version nearer than a range wins if the range admits it.",
         project=([D(f"{g}:a:1"), D(f"{g}:c:2.0")], []))
    case("range-invalid", r, None, "An invalid range fails the collection.", project=([D(f"{g}:c:[1.0")], []))
    r = Repo().versions(f"{g}:c", ["1.0", "2.0"], deps=[D(f"{g}:d:1")]).add(f"{g}:d:1")
    case("range-no-metadata", Repo().add(f"{g}:c:1.0"), None, "A range on an artifact without metadata fails.",
         project=([D(f"{g}:c:[1.0,)")], []))
    case("range-children", r, None, "Each version of a range is collected; the loser's subtree goes.",
         project=([D(f"{g}:c:[1.0,3.0)")], []))
    # --- missing and invalid POMs -----------------------------------------------------------------------
    r = Repo().add(f"{g}:a:1", [D(f"{g}:gone:1"), D(f"{g}:bad:1"), D(f"{g}:c:1")]).raw(f"{g}:bad:1", "<project><broken") \
        .add(f"{g}:c:1")
    case("missing-and-invalid", r, None, "A missing and a malformed POM are warnings; their nodes stay.",
         project=([D(f"{g}:a:1")], []))
    r = Repo().add(f"{g}:a:1", [D(f"{g}:orphan:1")]).add(f"{g}:orphan:1", parent=(g, "nowhere", "1"))
    case("missing-parent", r, None, "A dependency whose parent cannot be found fails the collection.",
         project=([D(f"{g}:a:1")], []))
    case("missing-root", Repo(), f"{g}:nothing:1", "An artifact root without a POM.")
    r = Repo().add(f"{g}:a:1", [D(f"{g}:c:1")]).add(f"{g}:c:1", extra="<build><plugins><plugin></plugin></plugins></build>")
    case("invalid-model", r, None, "A POM with a plugin without artifactId (not an error for dependency POMs).",
         project=([D(f"{g}:a:1")], []))
    # --- POM-declared repositories ---------------------------------------------------------------------
    r = Repo().add(f"{g}:a:1", [D("org.extra:e:1")], repositories=[("extra", "file://${case.dir}/extra")])
    r.files["extra/org/extra/e/1/e-1.pom"] = pom("org.extra", "e", "1", [D("org.extra:f:1")])
    r.files["extra/org/extra/f/1/f-1.pom"] = pom("org.extra", "f", "1")
    case("pom-repository", r, None, "a's POM declares a repository where e and f live (not mirrored).",
         project=([D(f"{g}:a:1")], []), mirror_of="*,!extra")
    case("pom-repository-mirrored", r, None, "The same repository mirrored away: e is missing.",
         project=([D(f"{g}:a:1")], []))
    # --- types, classifiers, system ----------------------------------------------------------------------
    r = Repo().add(f"{g}:a:1", [D(f"{g}:c:1")]).add(f"{g}:c:1", [D(f"{g}:d:1")]).add(f"{g}:d:1").add(f"{g}:w:1", [D(f"{g}:d:1")], packaging="war")
    case("types", r, None, "test-jar, classifier, pom, war (not traversed), ejb-client, zip types.",
         project=([D(f"{g}:a:1"), D(f"{g}:c:1", type="test-jar"), D(f"{g}:c:1", classifier="sources"),
                   D(f"{g}:c:1", type="pom"), D(f"{g}:w:1", type="war"), D(f"{g}:c:1", type="ejb-client"),
                   D(f"{g}:c:1", type="zip")], []))
    case("system-scope", r, None, "A system dependency with systemPath has no POM to read.",
         project=([D(f"{g}:a:1"), D(f"{g}:sys:1", "system", systemPath="/opt/sys.jar")], []))
    r = Repo().add(f"{g}:a:1", [D(f"{g}:c:1", classifier="x")]).add(f"{g}:b:1", [D(f"{g}:c:2")]).add(f"{g}:c:1").add(f"{g}:c:2")
    case("classifier-no-conflict", r, None, "c:x:1 and c:2 do not conflict (different classifiers).",
         project=([D(f"{g}:a:1"), D(f"{g}:b:1")], []))
    # --- shared sub-graphs ---------------------------------------------------------------------------------
    r = Repo().add(f"{g}:a:1", [D(f"{g}:s:1")]).add(f"{g}:b:1", [D(f"{g}:s:1", exclusions=[(g, "y")])]) \
        .add(f"{g}:s:1", [D(f"{g}:x:1"), D(f"{g}:y:1")]).add(f"{g}:x:1").add(f"{g}:y:1", [D(f"{g}:x:2")]).add(f"{g}:x:2")
    case("shared-subgraph", r, None, "s reached twice with different exclusions.",
         project=([D(f"{g}:a:1"), D(f"{g}:b:1")], []))


def random_cases(n, seed=7):
    rng = random.Random(seed)
    for i in range(n):
        g = "org.rnd"
        names = [f"m{j}" for j in range(rng.randint(4, 14))]
        versions = {a: sorted(rng.sample(["1.0", "1.1", "2.0", "2.1", "3.0"], rng.randint(1, 3))) for a in names}
        repo = Repo()
        def pick_dep(exclude):
            a = rng.choice([x for x in names if x != exclude] or names)
            v = rng.choice(versions[a])
            r = rng.random()
            if r < 0.08:
                v = f"[{versions[a][0]},)"
            elif r < 0.12:
                v = f"[{versions[a][0]},{versions[a][-1]}]"
            scope = rng.choices([None, "compile", "runtime", "test", "provided"], [6, 2, 2, 1, 1])[0]
            d = D(f"{g}:{a}:{v}", scope)
            if rng.random() < 0.1:
                d["optional"] = True
            if rng.random() < 0.1:
                d["exclusions"] = [(g, rng.choice(names))] if rng.random() < 0.7 else [("*", rng.choice(names))]
            if rng.random() < 0.04:
                d["classifier"] = "extra"
            return d
        for a in names:
            for v in versions[a]:
                deps = []
                for _ in range(rng.choices([0, 1, 2, 3, 4], [3, 3, 3, 2, 1])[0]):
                    d = pick_dep(a)
                    if all(x["a"] != d["a"] or x.get("classifier") != d.get("classifier") for x in deps):
                        deps.append(d)
                if rng.random() < 0.05:
                    repo.raw(f"{g}:{a}:{v}", "<project><oops")
                elif rng.random() < 0.05:
                    continue  # missing POM
                else:
                    repo.add(f"{g}:{a}:{v}", deps)
            repo.metadata(f"{g}:{a}", versions[a])
        roots = []
        for _ in range(rng.randint(1, 5)):
            d = pick_dep(None)
            if all(x["a"] != d["a"] for x in roots):
                roots.append(d)
        managed = []
        for _ in range(rng.choices([0, 1, 2], [5, 3, 2])[0]):
            a = rng.choice(names)
            m = D(f"{g}:{a}:{rng.choice(versions[a])}")
            if rng.random() < 0.3:
                m["scope"] = rng.choice(["compile", "runtime", "test", "provided"])
            if rng.random() < 0.2:
                m["exclusions"] = [(g, rng.choice(names))]
            managed.append(m)
        case(f"random-{i:03d}", repo, None, f"Random graph {i} (gen_trees.py, seed {seed}).", project=(roots, managed))


def main():
    hand_cases()
    random_cases(int(__import__("os").environ.get("RANDOM_TREES", "110")))
    for name, (args, files, readme) in CASES.items():
        write_case(name, args, files, readme)
    reset_cases("tree-", set(CASES))
    if "--no-answer" not in sys.argv:
        names = sys.argv[1:] if len(sys.argv) > 1 and sys.argv[1] != "--no-answer" else list(CASES)
        ok = answer_all([f"{DEPS}/{n}" for n in names])
        sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
