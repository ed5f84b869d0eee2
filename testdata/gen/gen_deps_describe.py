#!/usr/bin/env python3
"""Writes the `m2r describe` differential cases: testdata/deps/describe-*/ (see ../README.md).

Each case is a folder in the layout of /work/shared/oracle/compare-deps.py: `args` (mode first, `@CASE@` for
the case folder), `settings.xml` mirroring every repository to `file://${case.dir}/repo`, `repo/` with the
POMs (Maven 2 layout), a one-line `README`, and `expected.json` written afterwards by
`regen_deps_describe.py` from the real Maven 3.8.7 / Resolver 1.6.3 oracle (`deps.sh`).

The described artifact is `org.fix:app:1.0` unless a case says otherwise. The generator rewrites the inputs of
every case it defines, keeps existing `expected.json` files, and deletes describe-* folders it no longer defines.

    python3 testdata/gen/gen_deps_describe.py && python3 testdata/gen/regen_deps_describe.py
"""
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "deps")

SETTINGS = ('<settings><mirrors><mirror><id>fixture</id><mirrorOf>*</mirrorOf>'
            '<url>file://${case.dir}/repo</url></mirror></mirrors></settings>\n')

# ------------------------------------------------------------------------------------------ POM DSL


def tag(name, value):
    return "" if value is None else "<%s>%s</%s>" % (name, value, name)


def D(g, a, v=None, scope=None, type=None, classifier=None, optional=None, systemPath=None, excl=None, extra=""):
    """A <dependency>."""
    body = tag("groupId", g) + tag("artifactId", a) + tag("version", v) + tag("type", type)
    body += tag("classifier", classifier) + tag("scope", scope) + tag("systemPath", systemPath)
    if excl is not None:
        body += "<exclusions>%s</exclusions>" % "".join(
            "<exclusion>%s%s</exclusion>" % (tag("groupId", x[0]), tag("artifactId", x[1])) for x in excl)
    body += tag("optional", optional) + extra
    return "\n      <dependency>%s</dependency>" % body


def deps(*ds):
    return "\n  <dependencies>%s\n  </dependencies>" % "".join(ds)


def dm(*ds):
    return "\n  <dependencyManagement><dependencies>%s\n  </dependencies></dependencyManagement>" % "".join(ds)


def props(**kv):
    return "\n  <properties>%s</properties>" % "".join("<%s>%s</%s>" % (k.replace("__", "."), v, k.replace("__", "."))
                                                      for k, v in kv.items())


def props_list(pairs):
    return "\n  <properties>%s</properties>" % "".join("<%s>%s</%s>" % (k, v, k) for k, v in pairs)


def repos(*rs):
    out = ""
    for r in rs:
        rid, url = r[0], r[1]
        extra = r[2] if len(r) > 2 else ""
        out += "<repository>%s%s%s</repository>" % (tag("id", rid), tag("url", url), extra)
    return "\n  <repositories>%s</repositories>" % out


def profile(pid, activation=None, *parts):
    act = "" if activation is None else "<activation>%s</activation>" % activation
    return "<profile>%s%s%s</profile>" % (tag("id", pid), act, "".join(parts))


def profiles(*ps):
    return "\n  <profiles>%s\n  </profiles>" % "".join(ps)


def parent(g, a, v, rel=None):
    return "\n  <parent>%s%s%s%s</parent>" % (tag("groupId", g), tag("artifactId", a), tag("version", v),
                                              tag("relativePath", rel))


def relocation(g=None, a=None, v=None, extra=""):
    return "\n  <distributionManagement><relocation>%s%s%s%s</relocation></distributionManagement>" % (
        tag("groupId", g), tag("artifactId", a), tag("version", v), extra)


def P(g, a, v, *parts, par=None, packaging=None, mv="4.0.0", head='<?xml version="1.0" encoding="UTF-8"?>\n'):
    """A POM: modelVersion, optional parent, coordinates (None leaves one out), packaging, parts."""
    body = tag("modelVersion", mv)
    if par is not None:
        body += par
    body += "\n  " + tag("groupId", g) + tag("artifactId", a) + tag("version", v) + tag("packaging", packaging)
    body += "".join(parts)
    return head + '<project xmlns="http://maven.apache.org/POM/4.0.0">\n  %s\n</project>\n' % body


def metadata(g, a, *versions):
    """`maven-metadata.xml` of groupId:artifactId listing `versions`."""
    body = "".join("<version>%s</version>" % v for v in versions)
    return {(g, a, None, "maven-metadata.xml"):
            "<metadata><groupId>%s</groupId><artifactId>%s</artifactId><versioning><versions>%s</versions>"
            "</versioning></metadata>\n" % (g, a, body)}

def BOM(g, a, v, *parts, par=None):
    return P(g, a, v, *parts, par=par, packaging="pom")


# ------------------------------------------------------------------------------------------ cases

CASES = []


def case(name, readme, repo, coord="org.fix:app:1.0", args=(), files=None):
    """`repo`: {(g, a, v) or (g, a, v, filename): text or bytes}."""
    CASES.append((name, readme, repo, coord, list(args), files or {}))


def app(*parts, **kw):
    return {("org.fix", "app", "1.0"): P("org.fix", "app", "1.0", *parts, **kw)}


def lib(g, a, v, *parts, **kw):
    return {(g, a, v): P(g, a, v, *parts, **kw)}


def merge(*repos_):
    out = {}
    for r in repos_:
        out.update(r)
    return out


PAR = parent("org.fix", "parent", "1")


def with_parent(parent_parts, child_parts, child_coords=("org.fix", "app", "1.0"), par=PAR, parent_kw=None):
    g, a, v = child_coords
    return {
        ("org.fix", "parent", "1"): P("org.fix", "parent", "1", *parent_parts, packaging="pom", **(parent_kw or {})),
        (g or "org.fix", a, v or "1"): P(g, a, v, *child_parts, par=par),
    }


# --- A. dependencies as Resolver sees them: types, classifiers, scopes, optional, exclusions -------------

case("basic", "plain dependencies keep their order; no scope means compile",
     app(deps(D("org.x", "a", "1"), D("org.x", "b", "2", scope="test"), D("org.x", "c", "3", scope="runtime"),
              D("org.x", "d", "4", scope="provided"))))
case("no-dependencies", "a POM without dependencies: only the super POM's central", app())
for t, c in [("test-jar", None), ("ejb-client", None), ("java-source", None), ("javadoc", None), ("pom", None),
             ("war", None), ("ear", None), ("rar", None), ("par", None), ("maven-plugin", None), ("ejb", None),
             ("bundle", None), ("zip", "bin"), ("test-jar", "custom"), ("jar", "sources")]:
    case("type-%s%s" % (t, "-" + c if c else ""), "type %s%s maps to extension and classifier" % (t, " with classifier " + c if c else ""),
         app(deps(D("org.x", "a", "1", type=t, classifier=c))))
case("type-test-jar-empty-classifier", "an explicit empty classifier wins over the type's (descriptor reader)",
     app(deps(D("org.x", "a", "1", type="test-jar", classifier=""))))
case("type-empty", "an empty <type/> makes the POM invalid", app(deps(D("org.x", "a", "1", type=""))))
case("type-uppercase", "types are case-sensitive: JAR is an unknown type", app(deps(D("org.x", "a", "1", type="JAR"))))
for o in ["true", "false", "TRUE", "yes", ""]:
    case("optional-%s" % (o.lower() or "empty") + ("-upper" if o == "TRUE" else ""),
         "optional %r as Boolean.parseBoolean reads it" % o, app(deps(D("org.x", "a", "1", optional=o))))
case("scope-unknown", "an unknown scope is kept as written", app(deps(D("org.x", "a", "1", scope="banana"))))
case("scope-import-in-dependencies", "scope import on a plain dependency is kept", app(deps(D("org.x", "a", "1", scope="import", type="pom"))))
case("scope-empty", "an empty scope becomes compile", app(deps(D("org.x", "a", "1", scope=""))))
case("exclusions", "exclusions keep order; a repeated one is listed once; wildcards are kept",
     app(deps(D("org.x", "a", "1", excl=[("g1", "a1"), ("*", "*"), ("g1", "a1"), ("g2", "*")]))))
case("exclusion-missing-parts", "an exclusion without groupId or artifactId prints empty parts",
     app(deps(D("org.x", "a", "1", excl=[(None, "a1"), ("g1", None)]))))
case("system-scope", "system scope with an absolute systemPath (missing file: only a warning)",
     app(deps(D("org.x", "tools", "1", scope="system", systemPath="/nonexistent/lib/tools.jar"))))
case("system-scope-relative", "a relative systemPath makes the POM invalid",
     app(deps(D("org.x", "tools", "1", scope="system", systemPath="lib/tools.jar"))))
case("system-scope-no-path", "system scope without systemPath makes the POM invalid",
     app(deps(D("org.x", "tools", "1", scope="system"))))
case("system-path-without-system-scope", "a systemPath on a compile dependency makes the POM invalid",
     app(deps(D("org.x", "tools", "1", systemPath="/nonexistent/tools.jar"))))
case("system-path-java-home", "${java.home} is unknown to the oracle and to m2r: the path stays relative, invalid",
     app(deps(D("com.sun", "tools", "1", scope="system", systemPath="${java.home}/../lib/tools.jar"))))
case("system-path-java-home-defined", "-Djava.home makes the systemPath absolute",
     app(deps(D("com.sun", "tools", "1", scope="system", systemPath="${java.home}/../lib/tools.jar"))),
     args=["-Djava.home=/opt/jdk"])
case("dependency-no-version", "a dependency without version (and no management) makes the POM invalid",
     app(deps(D("org.x", "a"))))
case("dependency-no-groupid", "a dependency without groupId makes the POM invalid", app(deps(D(None, "a", "1"))))
case("dependency-bad-groupid", "a groupId with a space is not a valid id: invalid", app(deps(D("org x", "a", "1"))))
case("dependency-bad-artifactid", "an artifactId with a slash is not a valid id: invalid", app(deps(D("org.x", "a/b", "1"))))
case("dependency-duplicate", "a repeated dependency keeps the first place and the last declaration",
     app(deps(D("org.x", "a", "1"), D("org.x", "b", "1"), D("org.x", "a", "2", scope="test"))))
case("dependency-duplicate-classifier", "different classifiers are different dependencies",
     app(deps(D("org.x", "a", "1"), D("org.x", "a", "1", classifier="tests"), D("org.x", "a", "1", type="test-jar"))))
case("dependency-self", "a dependency on the POM itself is fine at the descriptor's validation level",
     app(deps(D("org.fix", "app", "1.0"), D("org.x", "a", "1"))))
case("dependency-version-range", "a version range is kept as written", app(deps(D("org.x", "a", "[1.0,2.0)"))))
case("dependency-version-latest", "LATEST and RELEASE are kept (a warning only)",
     app(deps(D("org.x", "a", "LATEST"), D("org.x", "b", "RELEASE"))))
case("coordinate-classifier", "the described coordinate keeps its classifier",
     app(deps(D("org.x", "a", "1"))), coord="org.fix:app:jar:tests:1.0")
case("coordinate-pom", "the described coordinate keeps its extension",
     app(deps(D("org.x", "a", "1"))), coord="org.fix:app:pom:1.0")

# --- B. parents and inheritance ---------------------------------------------------------------------------

case("parent-basic", "groupId and version inherited; the parent's dependencies come after the child's",
     with_parent([deps(D("org.x", "p", "1"))], [deps(D("org.x", "c", "1"))], child_coords=(None, "app", None)),
     coord="org.fix:app:1")
case("parent-override-dependency", "a child dependency with the parent's key wins (and keeps its place)",
     with_parent([deps(D("org.x", "a", "1", scope="test"), D("org.x", "b", "1"))], [deps(D("org.x", "b", "2"))]))
case("parent-grandparent", "three generations: dependencies and management from every level",
     merge({("org.fix", "grand", "1"): P("org.fix", "grand", "1", deps(D("org.x", "g", "1")), dm(D("org.x", "m", "7")),
                                         packaging="pom"),
            ("org.fix", "parent", "1"): P("org.fix", "parent", "1", deps(D("org.x", "p", "1")), packaging="pom",
                                          par=parent("org.fix", "grand", "1"))},
           app(deps(D("org.x", "m")), par=PAR)))
case("parent-management", "the parent's dependencyManagement gives the child's version and scope",
     with_parent([dm(D("org.x", "a", "2", scope="runtime"))], [deps(D("org.x", "a"))]))
case("parent-properties", "a property of the parent in a child dependency; the child overrides another",
     with_parent([props(v__a="1", v__b="1")], [props(v__b="2"), deps(D("org.x", "a", "${v.a}"), D("org.x", "b", "${v.b}"))]))
case("parent-late-binding", "the parent's management uses a property the child defines (interpolation after inheritance)",
     with_parent([props(lib__version="1"), dm(D("org.x", "a", "${lib.version}"))],
                 [props(lib__version="9"), deps(D("org.x", "a"))]))
case("parent-packaging-jar", "a parent whose packaging is not pom makes the POM invalid",
     {("org.fix", "parent", "1"): P("org.fix", "parent", "1"),
      ("org.fix", "app", "1.0"): P("org.fix", "app", "1.0", deps(D("org.x", "a", "1")), par=PAR)})
case("parent-missing", "a parent that is in no repository fails the descriptor",
     app(deps(D("org.x", "a", "1")), par=parent("org.fix", "nowhere", "1")))
case("parent-missing-grandparent", "a missing grandparent fails the descriptor too",
     merge({("org.fix", "parent", "1"): P("org.fix", "parent", "1", packaging="pom", par=parent("org.fix", "gone", "3"))},
           app(par=PAR)))
case("parent-cycle", "parents forming a cycle make the POM invalid",
     merge({("org.fix", "parent", "1"): P("org.fix", "parent", "1", packaging="pom", par=parent("org.fix", "other", "1")),
            ("org.fix", "other", "1"): P("org.fix", "other", "1", packaging="pom", par=parent("org.fix", "parent", "1"))},
           app(par=PAR)))
case("parent-cycle-through-child", "the parent's parent is the POM itself",
     merge({("org.fix", "parent", "1"): P("org.fix", "parent", "1", packaging="pom", par=parent("org.fix", "app", "1.0"))},
           {("org.fix", "app", "1.0"): P("org.fix", "app", "1.0", packaging="pom", par=PAR)}))
case("parent-self", "a parent with the POM's own groupId:artifactId makes it invalid",
     app(par=parent("org.fix", "app", "0.9")))
case("parent-no-version", "a parent without version makes the POM invalid", app(par=parent("org.fix", "parent", None)))
case("parent-expression-version", "a parent version expression is not interpolated before the lookup: fails",
     merge({("org.fix", "parent", "1"): P("org.fix", "parent", "1", packaging="pom")},
           app(props(pv="1"), par=parent("org.fix", "parent", "${pv}"))))
case("parent-snapshot-from-central", "a SNAPSHOT parent through the releases-only central mirror cannot be found",
     merge({("org.fix", "parent", "1-SNAPSHOT"): P("org.fix", "parent", "1-SNAPSHOT", packaging="pom")},
           app(par=parent("org.fix", "parent", "1-SNAPSHOT"))))
case("parent-snapshot-repo", "a SNAPSHOT parent from a --repo repository (snapshots enabled)",
     merge({("org.fix", "parent", "1-SNAPSHOT"): P("org.fix", "parent", "1-SNAPSHOT", deps(D("org.x", "p", "1")), packaging="pom")},
           app(par=parent("org.fix", "parent", "1-SNAPSHOT"))),
     args=["--repo", "fixrepo=file:///nonexistent-fixture-repo"])
case("parent-repositories", "repositories: the child's, the parent's, then the super POM's central",
     with_parent([repos(("prepo", "https://p.example/repo"), ("shared", "https://parent.example/shared"))],
                 [repos(("crepo", "https://c.example/repo"), ("shared", "https://child.example/shared"))]))
case("parent-central-override", "a POM repository with id central replaces the super POM's",
     app(repos(("central", "https://mirror.example/maven2"))))
case("parent-modules-not-inherited", "a parent with modules; modules are not inherited by a jar child",
     with_parent(["\n  <modules><module>app</module></modules>"], [deps(D("org.x", "a", "1"))]))
case("modules-in-jar", "modules in a POM whose packaging is jar make it invalid",
     app("\n  <modules><module>sub</module></modules>"))
case("modules-in-pom", "modules in a pom-packaged POM are fine", app("\n  <modules><module>sub</module></modules>", packaging="pom"))
case("parent-relocation-not-inherited", "a parent's relocation is not inherited",
     with_parent([relocation("org.moved")], [deps(D("org.x", "a", "1"))]))
case("parent-profile-active", "a profile active in the parent injects into the parent, the child inherits",
     with_parent([profiles(profile("p", "<activeByDefault>true</activeByDefault>", deps(D("org.x", "from-parent-profile", "1"))))],
                 [deps(D("org.x", "a", "1"))]))
case("parent-properties-project-version", "${project.version} in the parent's management is the child's version",
     with_parent([dm(D("org.fix", "sibling", "${project.version}"))],
                 [deps(D("org.fix", "sibling"))], child_coords=("org.fix", "app", "5.0")), coord="org.fix:app:5.0")
case("parent-version-inherited-expression", "${project.version} of a child without version is the parent's",
     with_parent([], [deps(D("org.x", "a", "${project.version}"), D("org.x", "b", "${project.parent.version}"),
                           D("org.x", "c", "${parent.version}"))], child_coords=(None, "app", None)),
     coord="org.fix:app:1")
case("parent-relative-path-empty", "an empty relativePath: the parent comes from the repository",
     with_parent([deps(D("org.x", "p", "1"))], [], par=parent("org.fix", "parent", "1", rel="")))
case("parent-relative-path-wrong", "relativePath to another POM: a warning, the repository's parent is used",
     merge(with_parent([deps(D("org.x", "p", "1"))], [], par=parent("org.fix", "parent", "1", rel="app-1.0.pom"))))
case("parent-dependency-management-merged", "child and parent management merged: the child's entry wins",
     with_parent([dm(D("org.x", "a", "1"), D("org.x", "b", "1"))], [dm(D("org.x", "a", "2")), deps(D("org.x", "a"), D("org.x", "b"))]))
case("parent-duplicate-after-interpolation", "keys are compared as written: ${project.groupId} and the literal both stay",
     with_parent([deps(D("org.fix", "x", "1"))], [deps(D("${project.groupId}", "x", "2"))]))



def parents(*versions):
    out = metadata("org.fix", "parent", *versions)
    for v in versions:
        out[("org.fix", "parent", v)] = P("org.fix", "parent", v, deps(D("org.x", "from-parent", v)), packaging="pom")
    return out


case("parent-range", "a parent version range: the highest listed version inside it",
     merge(parents("1", "2", "3"), app(par=parent("org.fix", "parent", "[1,3)"))))
case("parent-range-inclusive", "an inclusive upper bound includes it",
     merge(parents("1", "2", "3"), app(par=parent("org.fix", "parent", "[1,3]"))))
case("parent-range-single", "a one-version range needs no listing",
     merge(parents("2"), app(par=parent("org.fix", "parent", "[2]"))))
case("parent-range-no-upper-bound", "a parent range without upper bound fails the descriptor",
     merge(parents("1", "2"), app(par=parent("org.fix", "parent", "[1,)"))))
case("parent-range-no-match", "no listed version in the parent range fails the descriptor",
     merge(parents("1", "2"), app(par=parent("org.fix", "parent", "[5,6)"))))
case("parent-range-child-without-version", "a child without version under a parent range: 'Version must be a constant'",
     merge(parents("1", "2"), {("org.fix", "app", "1.0"): P("org.fix", "app", None, par=parent("org.fix", "parent", "[1,3)"))}))
case("parent-range-qualifiers", "the version order decides: 2.0-beta < 2.0 < 2.0.1",
     merge(parents("2.0-beta", "2.0", "2.0.1", "3.0-SNAPSHOT"), app(par=parent("org.fix", "parent", "[2.0-alpha,3.0)"))))

# --- C. profiles ------------------------------------------------------------------------------------------

def act_case(name, readme, activation, args=(), more=""):
    case("profile-" + name, readme,
         app(deps(D("org.x", "base", "1")),
             profiles(profile("p", activation, deps(D("org.x", "from-profile", "1"))) + more)),
         args=args)


act_case("default", "activeByDefault alone is active", "<activeByDefault>true</activeByDefault>")
act_case("default-false", "activeByDefault false is not active", "<activeByDefault>false</activeByDefault>")
act_case("default-with-other-active", "activeByDefault is off when another profile of the POM is active",
         "<activeByDefault>true</activeByDefault>", args=["-Dgo"],
         more=profile("q", "<property><name>go</name></property>", deps(D("org.x", "from-q", "1"))))
act_case("default-other-inactive", "activeByDefault stays on when the other profile's condition fails",
         "<activeByDefault>true</activeByDefault>",
         more=profile("q", "<property><name>go</name></property>", deps(D("org.x", "from-q", "1"))))
act_case("property-present", "property name present (-D)", "<property><name>flag</name></property>", args=["-Dflag=x"])
act_case("property-absent", "property name absent", "<property><name>flag</name></property>")
act_case("property-negated", "!name: active when absent", "<property><name>!flag</name></property>")
act_case("property-negated-present", "!name with the property set: inactive", "<property><name>!flag</name></property>",
         args=["-Dflag=x"])
act_case("property-value", "name=value matches", "<property><name>env</name><value>ci</value></property>", args=["-Denv=ci"])
act_case("property-value-mismatch", "name=value with another value", "<property><name>env</name><value>ci</value></property>",
         args=["-Denv=dev"])
act_case("property-value-negated", "name=!value", "<property><name>env</name><value>!ci</value></property>", args=["-Denv=dev"])
act_case("property-value-negated-absent", "name=!value with no property at all: active",
         "<property><name>env</name><value>!ci</value></property>")
act_case("property-empty-value", "-Dflag= (empty) does not count as present", "<property><name>flag</name></property>",
         args=["-Dflag="])
act_case("property-no-name", "an activation property without name is an error: POM invalid", "<property><value>x</value></property>")
act_case("property-system", "a fixed system property (java.specification.version)",
         "<property><name>java.specification.version</name><value>17</value></property>")
act_case("property-model-property", "a POM property does not activate a profile",
         "<property><name>mine</name></property>", more="")
act_case("jdk-prefix", "jdk 17 prefix matches java 17", "<jdk>17</jdk>")
act_case("jdk-prefix-mismatch", "jdk 1.8 does not match java 17", "<jdk>1.8</jdk>")
act_case("jdk-negated", "!1.8 matches java 17", "<jdk>!1.8</jdk>")
act_case("jdk-range", "[11,) matches java 17", "<jdk>[11,)</jdk>")
act_case("jdk-range-upper", "(,1.8] does not match java 17", "<jdk>(,1.8]</jdk>")
act_case("jdk-range-bad", "a jdk range that is not numeric: activation error, POM invalid", "<jdk>[abc,)</jdk>")
act_case("os-family", "os family unix on Linux", "<os><family>unix</family></os>")
act_case("os-family-negated", "os family !windows", "<os><family>!windows</family></os>")
act_case("os-name-arch", "os name linux and arch amd64", "<os><name>Linux</name><arch>amd64</arch></os>")
act_case("os-name-mismatch", "os name windows does not match", "<os><name>Windows 10</name></os>")
act_case("file-exists", "file exists, path from a -D property", "<file><exists>${case.dir}/marker.txt</exists></file>")
act_case("file-missing", "file missing, path from a -D property", "<file><missing>${case.dir}/no-such-file</missing></file>")
act_case("file-exists-absent", "file exists on an absent file", "<file><exists>${case.dir}/no-such-file</exists></file>")
act_case("file-relative", "a relative path never activates a dependency POM's profile", "<file><missing>no-such-file</missing></file>")
act_case("file-basedir", "${basedir} has no value for a dependency POM: not active", "<file><missing>${basedir}/x</missing></file>")
act_case("and-all-match", "jdk and property both match", "<jdk>17</jdk><property><name>flag</name></property>", args=["-Dflag"])
act_case("and-one-fails", "jdk matches, property does not", "<jdk>17</jdk><property><name>flag</name></property>")
act_case("empty-activation", "an empty <activation> is not active", "")
case("profile-dependency-override", "a profile dependency with an existing key replaces it in place",
     app(deps(D("org.x", "a", "1"), D("org.x", "b", "1")),
         profiles(profile("p", "<activeByDefault>true</activeByDefault>", deps(D("org.x", "a", "2", scope="test"), D("org.x", "c", "1"))))))
case("profile-management-and-properties", "a profile's properties and management override the POM's",
     app(props(v="1"), dm(D("org.x", "m", "1")), deps(D("org.x", "a", "${v}"), D("org.x", "m")),
         profiles(profile("p", "<activeByDefault>true</activeByDefault>", props(v="2"), dm(D("org.x", "m", "2"))))))
case("profile-repositories-first", "a profile's repositories come before the POM's",
     app(repos(("main", "https://main.example/r")),
         profiles(profile("p", "<activeByDefault>true</activeByDefault>", repos(("prof", "https://prof.example/r"))))))
case("profile-relocation-ignored", "a relocation in an active profile is not injected",
     app(deps(D("org.x", "a", "1")), profiles(profile("p", "<activeByDefault>true</activeByDefault>", relocation("org.moved")))))
case("profile-two-active-order", "two active profiles inject in declaration order (the later wins a key)",
     app(deps(D("org.x", "a", "1")), profiles(profile("one", "<property><name>go</name></property>", deps(D("org.x", "a", "2"))),
                                              profile("two", "<property><name>go</name></property>", deps(D("org.x", "a", "3"))))),
     args=["-Dgo"])
case("profile-duplicate-ids", "two profiles with the same id are both evaluated",
     app(profiles(profile("p", "<activeByDefault>true</activeByDefault>", deps(D("org.x", "one", "1"))),
                  profile("p", "<activeByDefault>true</activeByDefault>", deps(D("org.x", "two", "1"))))))
case("profile-inactive-cycle", "properties of an inactive profile are no property source: no cycle between them",
     app(deps(D("org.x", "a", "1")), profiles(profile("p", None, props(x="${y}", y="${x}")))))
case("profile-inactive-expression-cycle", "a cycle met while interpolating an inactive profile's dependency makes the POM invalid",
     app(props(a="${b}", b="${a}"), deps(D("org.x", "a", "1")),
         profiles(profile("p", None, deps(D("org.x", "b", "${zzz}"))))))
case("profile-super-release", "-DperformRelease=true activates the super POM's release profile (no visible change)",
     app(deps(D("org.x", "a", "1"))), args=["-DperformRelease=true"])

# --- D. interpolation --------------------------------------------------------------------------------------

case("interp-project-fields", "project.*, pom.* and unprefixed model fields",
     app(deps(D("${project.groupId}", "a", "${project.version}"), D("org.x", "b", "${pom.version}"),
              D("org.x", "c", "${version}"), D("org.x", "${project.artifactId}-x", "1"),
              D("org.x", "d", "1", classifier="${project.packaging}"), D("org.x", "e", "1", classifier="${artifactId}"))))
case("interp-property-chain", "properties refer to properties", app(props(a="${b}", b="${c}", c="3"), deps(D("org.x", "a", "${a}"))))
case("interp-model-beats-define", "for a dependency POM, its own property wins over -D",
     app(props(v="pom"), deps(D("org.x", "a", "${v}"))), args=["-Dv=cli"])
case("interp-define-when-absent", "-D answers when the POM has no such property",
     app(deps(D("org.x", "a", "${v}"))), args=["-Dv=cli"])
case("interp-system-property", "a system property (os.name, the same on every Linux)", app(deps(D("org.x", "a", "1", classifier="${os.name}"))))
case("interp-env-define", "${env.X} from -Denv.X", app(deps(D("org.x", "a", "${env.FIX_V}"))), args=["-Denv.FIX_V=7"])
case("interp-env-unprefixed", "${X} also finds the system property env.X",
     app(deps(D("org.x", "a", "${FIX_V}"))), args=["-Denv.FIX_V=8"])
case("interp-unresolved", "an unresolved expression stays as written", app(deps(D("org.x", "a", "${nope}"), D("org.x", "b", "1-${nope}"))))
case("interp-self-reference", "version=${version}: the property is skipped, the model's version answers",
     app(props(version="${version}"), deps(D("org.x", "a", "${version}"))))
case("interp-cycle", "a property cycle used by a dependency: POM invalid",
     app(props(a="${b}", b="${a}"), deps(D("org.x", "a", "${a}"))))
case("interp-cycle-unused", "a property cycle nobody uses still makes the POM invalid",
     app(props(a="${b}", b="x${a}"), deps(D("org.x", "a", "1"))))
case("interp-cycle-description", "a cycle in <description> makes the POM invalid",
     app(props(a="${a}"), "\n  <description>${a}</description>", deps(D("org.x", "a", "1"))))
case("interp-project-version-cycle", "<version>${project.version}</version> refers to itself: invalid",
     {("org.fix", "app", "1.0"): P("org.fix", "app", "${project.version}", deps(D("org.x", "a", "1")))})
case("interp-version-from-property", "the POM's own version from a property (a warning only)",
     {("org.fix", "app", "1.0"): P("org.fix", "app", "${rev}", props(rev="1.0"), deps(D("org.x", "a", "${project.version}")))})
case("interp-revision-define", "${revision} from -D when the POM defines none",
     {("org.fix", "app", "1.0"): P("org.fix", "app", "${revision}", deps(D("org.x", "a", "${revision}")))},
     args=["-Drevision=1.0"])
case("interp-build-directory", "${project.build.directory} has no base directory here: systemPath invalid",
     app(deps(D("org.x", "a", "1", scope="system", systemPath="${project.build.directory}/lib/a.jar"))))
case("interp-basedir", "${project.basedir} stays unresolved in a dependency POM",
     app(deps(D("org.x", "a", "1", classifier="${project.basedir}"), D("org.x", "b", "1", classifier="${basedir}"))))
case("interp-build-finalname", "${project.build.finalName} from the super POM",
     app(deps(D("org.x", "a", "1", classifier="${project.build.finalName}"))))
case("interp-timestamp", "${maven.build.timestamp} is unknown outside a project build",
     app(deps(D("org.x", "a", "1", classifier="${maven.build.timestamp}"))))
case("interp-nested", "nested and unterminated expressions stay literal",
     app(props(a="1"), deps(D("org.x", "a", "${a${a}}"), D("org.x", "b", "x-${a"))))
case("interp-dot-prefix", "${.a} is ${a}", app(props(a="5"), deps(D("org.x", "a", "${.a}"))))
case("interp-scope-type-optional", "expressions in scope, type, optional and exclusions",
     app(props(s="test", t="test-jar", o="true", ex="org.bad"),
         deps(D("org.x", "a", "1", scope="${s}", type="${t}", optional="${o}", excl=[("${ex}", "*")]))))
case("interp-repository-url", "repository ids and URLs are interpolated",
     app(props(host="repo.example"), repos(("r-${host}", "https://${host}/maven"))))
case("interp-project-id", "${project.id} is groupId:artifactId:packaging:version",
     app(deps(D("org.x", "a", "1", classifier="${project.id}"))))
case("interp-project-name-url", "${project.name} and ${project.url}; name is not inherited, url is (with the artifactId)",
     with_parent(["\n  <name>Parent</name><url>https://example.org/parent</url>"],
                 [deps(D("org.x", "a", "1", classifier="${project.url}"), D("org.x", "b", "1", classifier="${project.name}"))]))
case("interp-dependency-index", "${project.dependencies[0].version}",
     app(deps(D("org.x", "a", "1.5"), D("org.x", "b", "${project.dependencies[0].version}"))))
case("interp-whitespace", "values are trimmed around expressions", app(props(v=" 2 "), deps(D("org.x", "a", "  ${v}  "))))
case("interp-parent-property-in-child-profile", "a profile property overrides an inherited one",
     with_parent([props(v="parent")], [deps(D("org.x", "a", "${v}")),
                                       profiles(profile("p", "<activeByDefault>true</activeByDefault>", props(v="profile")))]))

# --- E. dependency management ---------------------------------------------------------------------------

case("dm-version-scope", "management gives version and scope to a dependency without them",
     app(dm(D("org.x", "a", "2", scope="test")), deps(D("org.x", "a"))))
case("dm-declared-wins", "a dependency's own version and scope win over management",
     app(dm(D("org.x", "a", "2", scope="test")), deps(D("org.x", "a", "1", scope="runtime"))))
case("dm-optional-not-managed", "optional is never taken from management",
     app(dm(D("org.x", "a", "2", optional="true")), deps(D("org.x", "a"))))
case("dm-exclusions", "exclusions come from management only when the dependency has none",
     app(dm(D("org.x", "a", "2", excl=[("g", "m")]), D("org.x", "b", "2", excl=[("g", "m")])),
         deps(D("org.x", "a"), D("org.x", "b", excl=[("g", "own")]))))
case("dm-classifier-key", "the classifier is part of the key",
     app(dm(D("org.x", "a", "2", classifier="tests"), D("org.x", "a", "3")),
         deps(D("org.x", "a", classifier="tests"), D("org.x", "a"))))
case("dm-type-key", "the type is part of the key (test-jar vs jar)",
     app(dm(D("org.x", "a", "2", type="test-jar"), D("org.x", "a", "3")), deps(D("org.x", "a", type="test-jar"), D("org.x", "a"))))
case("dm-duplicate-first-wins", "two management entries with one key: the first gives the version",
     app(dm(D("org.x", "a", "1"), D("org.x", "a", "2", scope="test")), deps(D("org.x", "a"))))
case("dm-system-path", "management gives scope system and its systemPath",
     app(dm(D("org.x", "a", "1", scope="system", systemPath="/nonexistent/a.jar")), deps(D("org.x", "a"))))
case("dm-managed-scope-empty", "a managed entry without scope prints an empty scope", app(dm(D("org.x", "a", "1"))))
case("dm-no-version", "a managed entry without version is fine until used",
     app(dm(D("org.x", "a", scope="test")), deps(D("org.x", "b", "1"))))
case("dm-no-version-used", "a dependency managed without version stays without: invalid",
     app(dm(D("org.x", "a", scope="test")), deps(D("org.x", "a"))))
case("dm-bad-groupid", "an invalid groupId in management makes the POM invalid", app(dm(D("org x", "a", "1"))))
case("dm-from-parent-for-profile-dependency", "the parent's management applies to a dependency from the child's profile",
     with_parent([dm(D("org.x", "a", "4"))], [profiles(profile("p", "<activeByDefault>true</activeByDefault>", deps(D("org.x", "a"))))]))
case("dm-systempath-property", "management systemPath with a -D property",
     app(dm(D("org.x", "a", "1", scope="system", systemPath="${libdir}/a.jar")), deps(D("org.x", "a"))),
     args=["-Dlibdir=/nonexistent/lib"])

# --- F. import scope (BOMs) --------------------------------------------------------------------------------


def bom(a, *ds, v="1", parts=(), par=None):
    return {("org.bom", a, v): BOM("org.bom", a, v, dm(*ds), *parts, par=par)}


def imp(a, v="1", **kw):
    return D("org.bom", a, v, type="pom", scope="import", **kw)


case("import-basic", "an imported BOM manages versions; the import entry itself disappears",
     merge(bom("b", D("org.x", "a", "1"), D("org.x", "b", "2", scope="test")), app(dm(imp("b")), deps(D("org.x", "a"), D("org.x", "b")))))
case("import-order", "two BOMs managing one key: the first import wins",
     merge(bom("one", D("org.x", "a", "1")), bom("two", D("org.x", "a", "2"), D("org.x", "c", "2")),
           app(dm(imp("one"), imp("two")), deps(D("org.x", "a"), D("org.x", "c")))))
case("import-own-wins", "the POM's own management wins over a BOM, wherever the import is declared",
     merge(bom("b", D("org.x", "a", "1")), app(dm(imp("b"), D("org.x", "a", "9")), deps(D("org.x", "a")))))
case("import-recursive", "a BOM importing a BOM",
     merge(bom("outer", D("org.x", "a", "1"), imp("inner")), bom("inner", D("org.x", "b", "2"), D("org.x", "a", "5")),
           app(dm(imp("outer")), deps(D("org.x", "a"), D("org.x", "b")))))
case("import-bom-parent", "a BOM's parent management is part of what it exports",
     merge({("org.bom", "bparent", "1"): BOM("org.bom", "bparent", "1", dm(D("org.x", "p", "3")))},
           bom("b", D("org.x", "a", "1"), par=parent("org.bom", "bparent", "1")),
           app(dm(imp("b")), deps(D("org.x", "a"), D("org.x", "p")))))
case("import-bom-properties", "a BOM's entries are interpolated with the BOM's own properties, not the importer's",
     merge(bom("b", D("org.x", "a", "${a.version}"), parts=[props(a__version="1")]),
           app(props(a__version="9"), dm(imp("b")), deps(D("org.x", "a")))))
case("import-cycle", "BOMs importing each other: POM invalid",
     merge(bom("x", D("org.x", "a", "1"), imp("y")), bom("y", D("org.x", "b", "1"), imp("x")),
           app(dm(imp("x")), deps(D("org.x", "a", "1")))))
case("import-self", "a POM importing itself: cycle, invalid",
     {("org.fix", "app", "1.0"): P("org.fix", "app", "1.0", dm(D("org.fix", "app", "1.0", type="pom", scope="import")), packaging="pom")})
case("import-missing", "a BOM that is in no repository fails the descriptor",
     app(dm(imp("absent")), deps(D("org.x", "a", "1"))))
case("import-missing-in-parent", "a missing BOM imported by the parent fails the descriptor",
     with_parent([dm(imp("absent"))], [deps(D("org.x", "a", "1"))]))
case("import-no-version", "an import without version makes the POM invalid",
     app(dm(D("org.bom", "b", None, type="pom", scope="import")), deps(D("org.x", "a", "1"))))
case("import-type-jar", "scope import without type pom is a plain managed entry",
     merge(bom("b", D("org.x", "a", "1")), app(dm(D("org.bom", "b", "1", scope="import")), deps(D("org.x", "c", "1")))))
case("import-with-classifier", "an import with a classifier still imports (warning only at project level)",
     merge(bom("b", D("org.x", "a", "1")), app(dm(imp("b", classifier="x")), deps(D("org.x", "a")))))
case("import-in-parent", "the parent imports, the child uses",
     merge(bom("b", D("org.x", "a", "1")), with_parent([dm(imp("b"))], [deps(D("org.x", "a"))])))
case("import-in-profile", "an import declared in an active profile",
     merge(bom("b", D("org.x", "a", "1")),
           app(deps(D("org.x", "a")), profiles(profile("p", "<activeByDefault>true</activeByDefault>", dm(imp("b")))))))
case("import-invalid-bom", "an invalid BOM (no modelVersion) makes the importer invalid",
     merge({("org.bom", "b", "1"): P("org.bom", "b", "1", dm(D("org.x", "a", "1")), packaging="pom", mv=None)},
           app(dm(imp("b")), deps(D("org.x", "a")))))
case("import-exclusions", "imported entries bring their exclusions and scopes",
     merge(bom("b", D("org.x", "a", "1", scope="runtime", excl=[("g", "x")])), app(dm(imp("b")), deps(D("org.x", "a")))))
case("import-version-property", "the import's version from a property",
     merge(bom("b", D("org.x", "a", "1"), v="7"), app(props(bom__v="7"), dm(imp("b", v="${bom.v}")), deps(D("org.x", "a")))))
case("import-bom-relocated", "a BOM's relocation is not followed",
     merge({("org.bom", "b", "1"): BOM("org.bom", "b", "1", dm(D("org.x", "a", "1")), relocation("org.elsewhere"))},
           app(dm(imp("b")), deps(D("org.x", "a")))))
case("import-shared-bom", "a parent and the child import the same BOM",
     merge(bom("b", D("org.x", "a", "1")), with_parent([dm(imp("b"))], [dm(imp("b")), deps(D("org.x", "a"))])))
case("import-bom-dependencies-ignored", "a BOM's own dependencies are not imported",
     merge({("org.bom", "b", "1"): BOM("org.bom", "b", "1", dm(D("org.x", "a", "1")), deps(D("org.x", "extra", "1")))},
           app(dm(imp("b")))))

case("parent-range-snapshot-repo", "a repository with snapshots enabled lists 3.0-SNAPSHOT, which the range contains",
     merge(parents("2.0", "3.0-SNAPSHOT"), app(par=parent("org.fix", "parent", "[2.0,3.0)"))),
     args=["--repo", "fixrepo=file:///nonexistent-fixture-repo"])
case("import-range", "an import version range is not resolved: the BOM is not found",
     merge(metadata("org.bom", "b", "1"), {("org.bom", "b", "1"): BOM("org.bom", "b", "1", dm(D("org.x", "a", "1")))},
           app(dm(imp("b", v="[1,2)")), deps(D("org.x", "a", "1")))))

# --- G. relocation ----------------------------------------------------------------------------------------

case("relocation-group", "relocation to another groupId",
     merge(app(relocation("org.moved")), lib("org.moved", "app", "1.0", deps(D("org.x", "a", "1")))))
case("relocation-all-parts", "relocation of groupId, artifactId and version",
     merge(app(relocation("org.moved", "renamed", "2.0")), lib("org.moved", "renamed", "2.0", deps(D("org.x", "a", "1")))))
case("relocation-chain", "two relocations in a row",
     merge(app(relocation("org.step")), lib("org.step", "app", "1.0", relocation(None, "final")),
           lib("org.step", "final", "1.0", deps(D("org.x", "a", "1")))))
case("relocation-cycle", "relocations forming a cycle: reported invalid, artifact kept",
     merge(app(relocation("org.other")), lib("org.other", "app", "1.0", relocation("org.fix"))))
case("relocation-empty", "an empty relocation points at the artifact itself: a cycle",
     app("\n  <distributionManagement><relocation/></distributionManagement>"))
case("relocation-target-missing", "the relocation target's POM is missing",
     app(relocation("org.nowhere")))
case("relocation-target-invalid", "the relocation target's POM is invalid",
     merge(app(relocation("org.moved")), {("org.moved", "app", "1.0"): "<project><broken>"}))
case("relocation-classifier", "a relocated coordinate keeps its classifier",
     merge(app(relocation("org.moved")), lib("org.moved", "app", "1.0", deps(D("org.x", "a", "1")))),
     coord="org.fix:app:jar:tests:1.0")
case("relocation-interpolated", "relocation parts are interpolated",
     merge(app(props(target="org.moved"), relocation("${target}", None, "${project.version}")),
           lib("org.moved", "app", "1.0", deps(D("org.x", "a", "1")))))
case("relocation-with-dependencies", "a relocating POM's own dependencies are dropped",
     merge(app(deps(D("org.x", "old", "1")), relocation("org.moved")), lib("org.moved", "app", "1.0", deps(D("org.x", "new", "1")))))

# --- H. reading and validation ------------------------------------------------------------------------------

def raw_app(text):
    return {("org.fix", "app", "1.0"): text}


HEADER = '<project><modelVersion>4.0.0</modelVersion><groupId>org.fix</groupId><artifactId>app</artifactId><version>1.0</version>'
case("read-malformed", "malformed XML: invalid", raw_app(HEADER + "<dependencies><dependency></dependencies></project>"))
case("read-unknown-element", "unknown elements are skipped by the lenient reader",
     raw_app(HEADER + "<foo><bar/></foo>" + deps(D("org.x", "a", "1", extra="<bogus>1</bogus>")) + "</project>"))
case("read-duplicate-tag", "a repeated single element is fatal", raw_app(HEADER + "<version>2</version></project>"))
case("read-text-in-project", "stray text between elements is skipped leniently",
     raw_app(HEADER + "stray text" + deps(D("org.x", "a", "1")) + "</project>"))
case("read-text-in-list", "text inside <dependencies> is fatal", raw_app(HEADER + "<dependencies>text" + D("org.x", "a", "1") + "</dependencies></project>"))
case("read-no-model-version", "no modelVersion: invalid", app(deps(D("org.x", "a", "1")), mv=None))
case("read-model-version-other", "modelVersion 4.0.1 is accepted at the descriptor's level", app(deps(D("org.x", "a", "1")), mv="4.0.1"))
case("read-wrong-root", "the lenient reader accepts any root element name",
     raw_app('<pom><modelVersion>4.0.0</modelVersion><groupId>org.fix</groupId><artifactId>app</artifactId><version>1.0</version>'
             + deps(D("org.x", "a", "1")) + '</pom>'))
case("read-latin1", "an ISO-8859-1 POM", raw_app(('<?xml version="1.0" encoding="ISO-8859-1"?>\n' + HEADER +
                                                 '<description>caf\xe9</description>' + deps(D("org.x", "a", "1")) + '</project>').encode("latin-1")))
case("read-utf8-bom", "a UTF-8 byte order mark", raw_app(b"\xef\xbb\xbf" + (HEADER + deps(D("org.x", "a", "1")) + "</project>").encode()))
case("read-entities", "XML and XHTML entities and character references in values",
     raw_app(HEADER + deps(D("org.x", "a", "1", classifier="x&amp;&lt;y&gt;"), D("org.x", "c", "&#49;.&#x32;"),
                           D("org.x", "d", "1", classifier="x&nbsp;y&copy;")) + "</project>"))
case("read-entity-in-id", "an entity giving an illegal character in an artifactId: invalid",
     raw_app(HEADER + deps(D("org.x", "a&amp;b", "1")) + "</project>"))
case("read-undefined-entity", "an undefined entity is fatal", raw_app(HEADER + deps(D("org.x", "a", "&bogus;")) + "</project>"))
case("read-cdata-comment", "CDATA and comments inside values",
     raw_app(HEADER + deps(D("org.x", "a", "<![CDATA[1.0]]>"), D("org.x", "b", "2.<!-- c -->0")) + "</project>"))
case("read-empty-file", "an empty POM file is invalid", raw_app(""))
case("read-whitespace-values", "values are trimmed", raw_app(HEADER + deps(D(" org.x ", "\n a \n", "\t1\t", scope=" test ")) + "</project>"))
case("read-no-artifactid", "a POM without artifactId is invalid",
     raw_app('<project><modelVersion>4.0.0</modelVersion><groupId>org.fix</groupId><version>1.0</version></project>'))
case("read-no-version", "a POM without version and parent is invalid",
     raw_app('<project><modelVersion>4.0.0</modelVersion><groupId>org.fix</groupId><artifactId>app</artifactId></project>'))
case("read-empty-packaging", "an empty packaging is invalid", app(packaging=""))
case("read-properties-nested", "an element inside a property is fatal",
     raw_app(HEADER + "<properties><a><b>1</b></a></properties></project>"))
case("read-second-root", "a second root element is fatal", raw_app(HEADER + "</project><project/>"))
case("read-missing", "no POM at all: missing-pom, the artifact is kept", {("org.other", "thing", "1"): P("org.other", "thing", "1")})
case("read-element-in-version", "an element inside a text element is fatal",
     raw_app(HEADER + deps(D("org.x", "a", "<b>1</b>")) + "</project>"))
case("read-attribute", "unknown attributes are ignored leniently",
     raw_app(HEADER.replace("<project>", '<project foo="bar">') + deps(D("org.x", "a", "1", extra="")).replace("<dependency>", '<dependency x="1">') + "</project>"))
case("read-organisation-alias", "the <organisation> spelling is accepted",
     raw_app(HEADER + "<organisation><name>n</name></organisation>" + deps(D("org.x", "a", "1")) + "</project>"))
case("read-groupid-expression", "a groupId made of an expression (a warning only)",
     {("org.fix", "app", "1.0"): P("${g}", "app", "1.0", props(g="org.fix"), deps(D("org.x", "a", "1")))})
case("read-bad-own-groupid", "the POM's own groupId with illegal characters is invalid",
     {("org.fix", "app", "1.0"): P("org.fix", "app", "1.0", deps(D("org.x", "a", "1"))).replace("<groupId>org.fix</groupId>", "<groupId>org fix</groupId>")})

# --- I. repositories and snapshots -----------------------------------------------------------------------------

case("snapshot-central", "a SNAPSHOT through the releases-only central: missing-pom",
     {("org.fix", "app", "1.0-SNAPSHOT"): P("org.fix", "app", "1.0-SNAPSHOT")}, coord="org.fix:app:1.0-SNAPSHOT")
case("snapshot-repo", "a SNAPSHOT from a --repo repository (snapshots enabled)",
     {("org.fix", "app", "1.0-SNAPSHOT"): P("org.fix", "app", "1.0-SNAPSHOT", deps(D("org.x", "a", "1")))},
     coord="org.fix:app:1.0-SNAPSHOT", args=["--repo", "fixrepo=file:///nonexistent-fixture-repo"])
case("repository-no-id", "a POM repository without id or url",
     app(repos((None, "https://noid.example/r"), ("noid-url", None))))
case("repository-policies", "repository policies do not show in the descriptor",
     app(repos(("r", "https://r.example/", "<releases><enabled>false</enabled></releases><snapshots><updatePolicy>always</updatePolicy></snapshots>"))))
case("repository-duplicate-id", "two POM repositories with one id: the later entry, at the first place",
     app(repos(("r", "https://one.example/"), ("s", "https://s.example/"), ("r", "https://two.example/"))))

# --- J. project files (--pom): DefaultModelBuilder at validation level 3.0, answered by DescribeProject.java ------


def project(name, readme, files, repo=None, args=(), pom="app/pom.xml"):
    case("project-" + name, readme, repo or {}, coord=None, args=list(args) + ["--pom", pom], files=files)


APP = ("org.fix", "app", "1.0")


def app_pom(*parts, **kw):
    return P(*APP, *parts, **kw)


project("basic", "a project file: dependencies, management, the super POM's central",
        {"app/pom.xml": app_pom(dm(D("org.x", "m", "2")), deps(D("org.x", "a", "1"), D("org.x", "m")))})
project("unknown-element", "strict reading: an unknown element is an ERROR for a project file",
        {"app/pom.xml": app_pom(deps(D("org.x", "a", "1")), "\n  <bogus/>")})
project("unknown-element-in-parent", "a parent from the repository is read leniently: a warning only",
        {"app/pom.xml": app_pom(deps(D("org.x", "a", "1")), par=PAR)},
        repo={("org.fix", "parent", "1"): P("org.fix", "parent", "1", "\n  <bogus/>", deps(D("org.x", "p", "1")), packaging="pom")})
project("local-parent", "the parent is found at ../pom.xml (not in any repository)",
        {"pom.xml": P("org.fix", "parent", "1", deps(D("org.x", "p", "1")), packaging="pom"),
         "app/pom.xml": app_pom(par=PAR)}, pom="app/pom.xml")
project("local-parent-wrong-coordinates", "../pom.xml is another project: warning, the repository's parent",
        {"pom.xml": P("org.fix", "unrelated", "1", deps(D("org.x", "local", "1")), packaging="pom"),
         "app/pom.xml": app_pom(par=PAR)},
        repo={("org.fix", "parent", "1"): P("org.fix", "parent", "1", deps(D("org.x", "remote", "1")), packaging="pom")})
project("local-parent-other-version", "../pom.xml has another version: the repository's parent",
        {"pom.xml": P("org.fix", "parent", "2", deps(D("org.x", "local", "1")), packaging="pom"),
         "app/pom.xml": app_pom(par=PAR)},
        repo={("org.fix", "parent", "1"): P("org.fix", "parent", "1", deps(D("org.x", "remote", "1")), packaging="pom")})
project("relative-path-directory", "relativePath naming a directory finds its pom.xml",
        {"parents/base/pom.xml": P("org.fix", "parent", "1", deps(D("org.x", "p", "1")), packaging="pom"),
         "app/pom.xml": app_pom(par=parent("org.fix", "parent", "1", rel="../parents/base"))})
project("relative-path-empty", "an empty relativePath skips ../pom.xml",
        {"pom.xml": P("org.fix", "parent", "1", deps(D("org.x", "local", "1")), packaging="pom"),
         "app/pom.xml": app_pom(par=parent("org.fix", "parent", "1", rel=""))},
        repo={("org.fix", "parent", "1"): P("org.fix", "parent", "1", deps(D("org.x", "remote", "1")), packaging="pom")})
project("parent-missing", "a parent neither local nor in the repository: the model fails",
        {"app/pom.xml": app_pom(par=parent("org.fix", "nowhere", "1"))})
project("local-parent-chain", "two local parents up the directory tree",
        {"pom.xml": P("org.fix", "grand", "1", deps(D("org.x", "g", "1")), packaging="pom"),
         "mid/pom.xml": P("org.fix", "parent", "1", deps(D("org.x", "p", "1")), packaging="pom", par=parent("org.fix", "grand", "1")),
         "mid/app/pom.xml": app_pom(par=PAR)}, pom="mid/app/pom.xml")
project("local-parent-malformed", "a malformed local parent fails the model",
        {"pom.xml": "<project><groupId>org.fix</groupId><artifactId>parent</artifactId>",
         "app/pom.xml": app_pom(par=PAR)})
project("user-property-wins", "for a project file -D wins over the POM's properties",
        {"app/pom.xml": app_pom(props(v="pom"), deps(D("org.x", "a", "${v}")))}, args=["-Dv=cli"])
project("revision", "-Drevision replaces the POM's revision property (CI-friendly versions)",
        {"app/pom.xml": P("org.fix", "app", "${revision}", props(revision="1.0"), deps(D("org.x", "a", "${revision}")))},
        args=["-Drevision=2.0"])
project("basedir-file-activation", "${basedir} in file activation is the project directory",
        {"app/pom.xml": app_pom(profiles(profile("p", "<file><exists>${basedir}/marker.txt</exists></file>", deps(D("org.x", "p", "1"))))),
         "app/marker.txt": "x\n"})
project("relative-file-activation", "a relative activation path is aligned to the project directory",
        {"app/pom.xml": app_pom(profiles(profile("p", "<file><exists>marker.txt</exists></file>", deps(D("org.x", "p", "1"))))),
         "app/marker.txt": "x\n"})
project("project-property-file-activation", "file activation sees the POM's own properties",
        {"app/pom.xml": app_pom(props(markername="marker.txt"),
                                profiles(profile("p", "<file><exists>${basedir}/${markername}</exists></file>", deps(D("org.x", "p", "1"))))),
         "app/marker.txt": "x\n"})
project("version-expression", "a dependency version left as an expression is an ERROR at level 3.0",
        {"app/pom.xml": app_pom(deps(D("org.x", "a", "${nope}")))})
project("optional-invalid", "optional 'maybe' is an ERROR at level 3.0",
        {"app/pom.xml": app_pom(deps(D("org.x", "a", "1", optional="maybe")))})
project("scope-unknown", "an unknown scope is a warning at level 3.0",
        {"app/pom.xml": app_pom(deps(D("org.x", "a", "1", scope="banana")))})
project("duplicate-dependency", "a duplicate dependency is a warning at level 3.0 (the last wins)",
        {"app/pom.xml": app_pom(deps(D("org.x", "a", "1"), D("org.x", "a", "2")))})
project("no-model-version", "no modelVersion: ERROR",
        {"app/pom.xml": app_pom(deps(D("org.x", "a", "1")), mv=None)})
project("model-version-newer", "modelVersion 5.0.0: FATAL",
        {"app/pom.xml": app_pom(mv="5.0.0")})
project("no-group-id", "no groupId and no parent: FATAL",
        {"app/pom.xml": P(None, "app", "1.0")})
project("repository-duplicate-id", "two repositories with one id: ERROR at level 3.0",
        {"app/pom.xml": app_pom(repos(("r", "https://a.example/"), ("r", "https://b.example/")))})
project("repository-local-id", "a repository with id 'local': warning only at level 3.0",
        {"app/pom.xml": app_pom(repos(("local", "https://a.example/")))})
project("import-classifier", "an import with a classifier: ERROR at level 3.0",
        {"app/pom.xml": app_pom(dm(D("org.bom", "b", "1", type="pom", scope="import", classifier="x")))},
        repo={("org.bom", "b", "1"): BOM("org.bom", "b", "1", dm(D("org.x", "a", "1")))})
project("import", "a project imports a BOM from the repository",
        {"app/pom.xml": app_pom(dm(D("org.bom", "b", "1", type="pom", scope="import")), deps(D("org.x", "a")))},
        repo={("org.bom", "b", "1"): BOM("org.bom", "b", "1", dm(D("org.x", "a", "1")))})
project("self-dependency", "a dependency on the project itself: FATAL at level 3.0",
        {"app/pom.xml": app_pom(deps(D("org.fix", "app", "1.0")))})
project("plugin-no-artifact", "a plugin without artifactId: FATAL at level 3.0",
        {"app/pom.xml": app_pom("\n  <build><plugins><plugin><groupId>org.x</groupId></plugin></plugins></build>")})
project("plugin-empty-version", "a plugin with an empty version: FATAL at level 3.0",
        {"app/pom.xml": app_pom("\n  <build><plugins><plugin><artifactId>p</artifactId><version/></plugin></plugins></build>")})
project("plugin-duplicate", "a plugin declared twice: warning at level 3.0",
        {"app/pom.xml": app_pom("\n  <build><plugins><plugin><artifactId>p</artifactId></plugin><plugin><artifactId>p</artifactId></plugin></plugins></build>",
                                deps(D("org.x", "a", "1")))})
project("plugin-version-expression", "a plugin version left as an expression: ERROR at level 3.0",
        {"app/pom.xml": app_pom("\n  <build><plugins><plugin><artifactId>p</artifactId><version>${nope}</version></plugin></plugins></build>")})
project("modules-in-jar", "modules in a jar project: ERROR",
        {"app/pom.xml": app_pom("\n  <modules><module>x</module></modules>")})
project("snapshot-format", "a version like 1.0SNAPSHOT: warning at level 3.0",
        {"app/pom.xml": P("org.fix", "app", "1.0SNAPSHOT", deps(D("org.x", "a", "1")))})
project("exclusion-wildcards", "wildcard exclusions are valid at level 3.0",
        {"app/pom.xml": app_pom(deps(D("org.x", "a", "1", excl=[("*", "*"), ("org.*", "x?")])))})
project("classifier-empty-test-jar", "a project file's empty classifier takes the type's (RepositoryUtils)",
        {"app/pom.xml": app_pom(deps(D("org.x", "a", "1", type="test-jar", classifier="")))})
project("profile-property-activation", "-D activates a project profile",
        {"app/pom.xml": app_pom(profiles(profile("p", "<property><name>go</name></property>", deps(D("org.x", "p", "1")))))},
        args=["-Dgo"])
project("parent-relocation-ignored", "a project's own relocation does not apply to a project model",
        {"app/pom.xml": app_pom(relocation("org.moved"), deps(D("org.x", "a", "1")))})

FILES_FOR = {"profile-file-exists": {"marker.txt": "present\n"}}


def path_of(key):
    g, a, v = key[:3]
    name = key[3] if len(key) > 3 else "%s-%s.pom" % (a, v)
    if v is None:
        return os.path.join("repo", *g.split("."), a, name)
    return os.path.join("repo", *g.split("."), a, v, name)



def write():
    os.makedirs(OUT, exist_ok=True)
    names = set()
    for name, readme, repo, coord, args, files in CASES:
        folder = "describe-" + name
        assert folder not in names, folder
        names.add(folder)
        d = os.path.join(OUT, folder)
        if os.path.isdir(os.path.join(d, "repo")):
            shutil.rmtree(os.path.join(d, "repo"))
        os.makedirs(d, exist_ok=True)
        for key, text in repo.items():
            p = os.path.join(d, path_of(key))
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "wb") as f:
                f.write(text if isinstance(text, bytes) else text.encode("utf-8"))
        for fname, text in dict(FILES_FOR.get(name, {}), **files).items():
            os.makedirs(os.path.dirname(os.path.join(d, fname)), exist_ok=True)
            with open(os.path.join(d, fname), "w") as f:
                f.write(text)
        with open(os.path.join(d, "settings.xml"), "w") as f:
            f.write(SETTINGS)
        with open(os.path.join(d, "README"), "w") as f:
            f.write(readme + "\n")
        with open(os.path.join(d, "args"), "w") as f:
            tail = [coord] if coord else []
            f.write("\n".join(["describe", "--settings", "settings.xml", "-Dcase.dir=@CASE@"] + args + tail) + "\n")
    for existing in os.listdir(OUT):
        if existing.startswith("describe-") and "-qa-" not in existing and existing not in names:
            shutil.rmtree(os.path.join(OUT, existing))
    print("%d describe cases in %s" % (len(names), OUT))


if __name__ == "__main__":
    write()
