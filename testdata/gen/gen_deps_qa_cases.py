"""The committed QA cases (`python3 gen_deps_qa.py fixtures`): hand-made `*-qa-<rule>` cases, each
the smallest input that showed a difference between m2r and Maven 3.8.7 / Resolver 1.6.3 during the
QA rounds (the README of each says which rule), and `*-qa-random-*`, random cases of fixed seeds
that agreed, kept so the combinations they exercise stay pinned.
"""
import random

from gen_deps_qa import G, Case, Dep, Pom, Profile, base_args, gen_describe, gen_tree, gen_versions, repo_xml

HAND = []


def hand(name, mode, readme):
    c = Case(f"{mode}-qa-{name}", mode, readme)
    HAND.append(c)
    return c


def tree_cases():
    # --- a one-version range reads the metadata like any other range (no shortcut in 3.8.7)
    c = hand("range-single-version-needs-listing", "tree",
             "[2.0] and [1.0,1.0] are ranges: Maven 3.8.7 reads maven-metadata.xml for them too, and a "
             "version it does not list (or a SNAPSHOT the repository's policy disables) fails the collection.")
    c.pom(Pom(G, "a", "2.0"))
    c.pom(Pom(G, "a", "2.1-SNAPSHOT"))
    c.metadata(G, "a", ["1.0", "2.1-SNAPSHOT"])
    root = c.pom(Pom(G, "root", "1"))
    root.deps = [Dep(G, "a", "[2.1-SNAPSHOT]")]
    c.pom(root)
    c.args = base_args(c) + [f"{G}:root:1"]

    c = hand("range-single-version-listed", "tree",
             "[1.0] resolves through the listing: 1.0 is listed, so it is chosen; [2.0] beside it is not.")
    c.pom(Pom(G, "a", "1.0"))
    c.pom(Pom(G, "b", "2.0"))
    c.metadata(G, "a", ["1.0", "2.0"])
    c.metadata(G, "b", ["1.0"])
    root = Pom(G, "root", "1")
    root.deps = [Dep(G, "a", "[1.0]"), Dep(G, "b", "[2.0]")]
    c.pom(root)
    c.args = base_args(c) + [f"{G}:root:1"]

    # --- a local file cached from a repository that is not in the request is not available
    c = hand("local-file-from-other-repository", "tree",
             "b's SNAPSHOT POM is downloaded below a (whose POM declares the snapshot repository snaps, not "
             "mirrored); the root's own b:x then asks only central (snapshots disabled): the local file "
             "came from snaps, which is not in that request, so Maven reports the POM missing.")
    c.mirror_of = "*,!snaps"
    a = Pom(G, "a", "1")
    a.repos = [repo_xml("snaps", "file://${case.dir}/snaps", releases="false", snapshots="true")]
    a.deps = [Dep(G, "b", "1.0-SNAPSHOT")]
    c.pom(a)
    b = Pom(G, "b", "1.0-SNAPSHOT")
    b.deps = [Dep(G, "c", "1")]
    c.pom(b, repo="snaps")
    c.pom(Pom(G, "c", "1"))
    root = Pom(G, "root", "1")
    root.deps = [Dep(G, "a", "1"), Dep(G, "b", "1.0-SNAPSHOT", classifier="x")]
    c.pom(root)
    c.args = base_args(c) + [f"{G}:root:1"]


    # --- no model cache in the oracle's session: a parent one list reached is not found by another
    c = hand("parent-reached-through-other-list", "tree",
             "p:1, the parent of b and c, is only in the repository extra that a's POM declares (not "
             "mirrored). Below a, b finds it; c, outside a's sub-graph, asks only the mirror: the local copy "
             "came from extra, which is not in c's request, so c's parent is not resolvable and the "
             "collection fails (Maven's session has no model cache sharing parents between descriptors).")
    c.mirror_of = "*,!extra"
    a = Pom(G, "a", "1")
    a.repos = [repo_xml("extra", "file://${case.dir}/extra")]
    a.deps = [Dep(G, "b", "1")]
    c.pom(a)
    p = Pom(G, "p", "1", packaging="pom")
    p.deps = [Dep(G, "z", "1")]
    c.pom(p, repo="extra")
    for name in ("b", "c"):
        x = Pom(None, name, "1")
        x.parent = (G, "p", "1", "")
        c.pom(x, repo="extra" if name == "b" else "repo")
    c.pom(Pom(G, "z", "1"), repo="extra")
    c.pom(Pom(G, "z", "1"))
    d = Pom(G, "d", "1")
    d.deps = [Dep(G, "c", "1")]
    c.pom(d)
    root = Pom(G, "root", "1")
    root.deps = [Dep(G, "a", "1"), Dep(G, "d", "1")]
    c.pom(root)
    c.args = base_args(c) + [f"{G}:root:1"]

    # --- Maven's order decides what the local repository holds when a mirror's policy differs by path
    c = hand("snapshot-local-after-enabling-path", "tree",
             "a's POM declares a repository with snapshots enabled; mirrored by *, the mirror fix gains "
             "snapshots below a, and b:1.0-SNAPSHOT's POM is downloaded there. The root's own b:x then asks "
             "fix with central's policy (no snapshots): the local copy came from fix, so Maven uses it, "
             "because a's sub-graph was collected first.")
    a = Pom(G, "a", "1")
    a.repos = [repo_xml("snaps", "https://snaps.example.org/m2", snapshots="true")]
    a.deps = [Dep(G, "b", "1.0-SNAPSHOT")]
    c.pom(a)
    b = Pom(G, "b", "1.0-SNAPSHOT")
    b.deps = [Dep(G, "e", "1")]
    c.pom(b)
    c.pom(Pom(G, "e", "1"))
    root = Pom(G, "root", "1")
    root.deps = [Dep(G, "a", "1"), Dep(G, "b", "1.0-SNAPSHOT", classifier="x")]
    c.pom(root)
    c.args = base_args(c) + [f"{G}:root:1"]

    c = hand("snapshot-missing-before-enabling-path", "tree",
             "The same graph in the other order: the root's b:x comes first, when nothing is local yet and "
             "central's policy allows no snapshots: missing; below a, b:1.0-SNAPSHOT is then downloaded.")
    c.files = dict(HAND[-2].files)
    root = Pom(G, "root", "1")
    root.deps = [Dep(G, "b", "1.0-SNAPSHOT", classifier="x"), Dep(G, "a", "1")]
    c.pom(root)
    c.args = base_args(c) + [f"{G}:root:1"]


def describe_cases():
    c = hand("parent-single-version-range-unlisted", "describe",
             "A parent version [2] is a range: Maven 3.8.7 resolves it through maven-metadata.xml, and "
             "without a listing naming 2 the parent is not found (the descriptor fails).")
    par = Pom(G, "parent", "2", packaging="pom")
    par.deps = [Dep("org.x", "from-parent", "2")]
    c.pom(par)
    app = Pom(G, "app", "1.0")
    app.parent = (G, "parent", "[2]", None)
    c.pom(app)
    c.args = base_args(c) + [f"{G}:app:1.0"]

    c = hand("parent-single-version-range-listed", "describe",
             "The same parent [2,2] with a listing that names 1 and 2: 2 is chosen.")
    c.files = dict(HAND[-2].files)
    c.metadata(G, "parent", ["1", "2"])
    app = Pom(G, "app", "1.0")
    app.parent = (G, "parent", "[2,2]", None)
    c.pom(app)
    c.args = base_args(c) + [f"{G}:app:1.0"]


def interpolation_cases():
    c = hand("property-rewritten-in-place", "describe",
             "pa=${pa}.3 with -Dpa=9 (a system property for a dependency POM): interpolating the property "
             "skips its own value and takes 9, so pa becomes 9.3; Maven rewrites the property in place, "
             "so dependencies (visited after the properties) read 9.3.")
    app = Pom(G, "app", "1.0")
    app.properties = [("pa", "${pa}.3"), ("pb", "${pa}-b")]
    app.deps = [Dep(G, "a", "${pa}"), Dep(G, "b", "${pb}")]
    c.pom(app)
    c.args = base_args(c) + ["-Dpa=9", f"{G}:app:1.0"]

    c = hand("property-rewritten-after-modules", "describe",
             "The same property read by <modules> (visited before the properties): the text ${pa} gives 9 "
             "there and Maven remembers each text's answer, so a dependency version written ${pa} is 9 "
             "too, while ${pa}.0 (a new text, after the rewrite) is 9.3.0.")
    app = Pom(G, "app", "1.0", packaging="pom")
    app.properties = [("pa", "${pa}.3")]
    app.extra = "<modules><module>${pa}</module></modules>"
    app.deps = [Dep(G, "a", "${pa}"), Dep(G, "b", "${pa}.0")]
    c.pom(app)
    c.args = base_args(c) + ["-Dpa=9", f"{G}:app:1.0"]

    c = hand("property-rewrite-order", "describe",
             "Properties are rewritten in Java's Properties order (hash buckets: qq, pa, r): qq=${pa} is "
             "visited before pa, so qq takes the skipped-self answer 9 and the text ${pa} is remembered as 9 "
             "(for the dependency b too); r=${pa}x comes after pa's rewrite: 9.3x.")
    app = Pom(G, "app", "1.0")
    app.properties = [("pa", "${pa}.3"), ("qq", "${pa}"), ("r", "${pa}x")]
    app.deps = [Dep(G, "a", "${qq}"), Dep(G, "b", "${pa}"), Dep(G, "c", "${r}")]
    c.pom(app)
    c.args = base_args(c) + ["-Dpa=9", f"{G}:app:1.0"]

    c = hand("project-properties-to-string", "describe",
             "${project.properties} is the Properties map printed by Java, in its iteration order, with the "
             "values rewritten so far.")
    app = Pom(G, "app", "1.0")
    app.properties = [("zz", "1"), ("version.x", "${project.version}"), ("Aa", "2"), ("BB", "3"), ("k", "${zz}")]
    app.deps = [Dep(G, "a", "1", classifier="${project.properties}")]
    c.pom(app)
    c.args = base_args(c) + [f"{G}:app:1.0"]


def activation_cases():
    JDK = ["17", "1.8", "!1.8", "!17", "[1.8,)", "[11,17)", "[17,)", "(,1.8]", "[1.8,18)", "[17,18)", "(,17]", "(,17)",
           "[17.0.9,)", "11", "1.7", "[1.5,1.9)", "17.0", "17.0.9", "17.0.10", "(17,)", "(17.0.9,)", "[17.0.9]", "1", "!1",
           "[1.8,11),[17,)", "(,1.8),(11,17)", "[,17]", "[17,]", "[ 17 , ]", "1.8.0", "[1.8.0_292,)", "(1.8.0_292,)",
           "21", "[21,)", "!21", "17-ea", "[17-ea,)", "", "!", "[abc,)", "abc", "17,18", "[17, 18)", " 17", "1.8.0_292"]
    for jv in [None, "1.8.0_292", "11.0.2", "21-ea", "abc"]:
        c = Case(f"describe-qa-jdk-{jv or 'default'}", "describe", f"jdk activation matrix (prefixes, !, ranges, unions, odd specs), java.version={jv or '17.0.9'}; each active profile adds one dependency")
        app = Pom(G, "app", "1.0")
        for i, spec in enumerate(JDK):
            pr = Profile(f"j{i}", f"<jdk>{spec}</jdk>")
            pr.deps = [Dep(G, f"jdk{i}", "1")]
            app.profiles.append(pr)
        c.pom(app)
        c.args = base_args(c) + ([f"-Djava.version={jv}"] if jv else []) + [f"{G}:app:1.0"]
        HAND.append(c)
    OS = ["<family>unix</family>", "<family>!windows</family>", "<family>windows</family>", "<name>linux</name>",
          "<name>Linux</name>", "<name>!linux</name>", "<arch>amd64</arch>", "<arch>x86</arch>", "<arch>AMD64</arch>",
          "<family>unix</family><arch>amd64</arch>", "<family>mac</family>", "<family>UNIX</family>", "<arch>!x86</arch>",
          "<family>dos</family>",
          "<family>os/2</family>", "<family>tandem</family>", "<family>win9x</family>", "<family>z/os</family>",
          "<family>os/400</family>", "<family>openvms</family>", "<family>netware</family>", "<family>nonsense</family>",
          "<family></family>", "<name></name>", "<name>!Linux</name>", "<family>!unix</family>", "<arch>x86_64</arch>",
          "<name>linux</name><family>windows</family>", "<family> unix </family>", "<name>LINUX</name>"]
    for osn in [None, "Windows 10", "Mac OS X"]:
        c = Case(f"describe-qa-os-{(osn or 'default').replace(' ', '')}", "describe", f"os activation matrix, -Dos.name={osn}: os activation reads the JVM's own os.* (plexus Os), never -D; {len(OS)} profiles, each adding one dependency")
        app = Pom(G, "app", "1.0")
        for i, spec in enumerate(OS):
            pr = Profile(f"o{i}", f"<os>{spec}</os>")
            pr.deps = [Dep(G, f"os{i}", "1")]
            app.profiles.append(pr)
        c.pom(app)
        c.args = base_args(c) + ([f"-Dos.name={osn}"] if osn else []) + [f"{G}:app:1.0"]
        HAND.append(c)
    PROP = [("x", None), ("!x", None), ("x", "v"), ("x", "!v"), ("!x", "v"), ("x", ""), ("x", "V"), ("", None),
            ("!", None), ("x", "!"), ("mp", None), ("!mp", None), ("mp", "m"), ("env.QA_E", None), ("y", "true"),
            ("y", "!true"), ("x ", None), (" x", "v"), ("x", " v"), ("java.version", None), ("os.name", "Linux"),
            ("user.home", None), ("!y", None), ("case.dir", None)]
    for dv in [[], ["-Dx=v"], ["-Dx="], ["-Dx=V", "-Dy"], ["-D", "x=v"]]:
        c = Case(f"describe-qa-prop-{'_'.join(d.replace('-D','').replace('=','-') for d in dv) or 'none'}", "describe",
                 f"property activation matrix (name, !name, values, !value, empty, POM properties do not count), {' '.join(dv) or 'no -D'}")
        app = Pom(G, "app", "1.0")
        app.properties = [("mp", "m"), ("x", "model")]
        for i, (n, v) in enumerate(PROP):
            act = f"<property><name>{n}</name>" + (f"<value>{v}</value>" if v is not None else "") + "</property>"
            pr = Profile(f"p{i}", act)
            pr.deps = [Dep(G, f"prop{i}", "1")]
            app.profiles.append(pr)
        c.pom(app)
        c.args = base_args(c) + dv + [f"{G}:app:1.0"]
        HAND.append(c)
    FILE = ["<exists>${case.dir}/marker</exists>", "<missing>${case.dir}/marker</missing>", "<exists>marker</exists>",
            "<missing>marker</missing>", "<exists>${basedir}/marker</exists>", "<missing>${basedir}/marker</missing>",
            "<exists>${project.basedir}/marker</exists>", "<exists>${case.dir}/nofile</exists>",
            "<missing>${case.dir}/nofile</missing>", "<exists>${case.dir}/marker</exists><missing>${case.dir}/marker</missing>",
            "<exists>${case.dir}/dir</exists>", "<exists>${case.dir}/marker/</exists>", "<exists></exists>",
            "<missing></missing>", "<exists>${nope}/marker</exists>", "<missing>${nope}/marker</missing>",
            "<exists>/</exists>", "<exists>${case.dir}/m*</exists>",
            "<exists>${mp}</exists>", "<exists>${case.dir}/${mp}arker</exists>", "<exists> ${case.dir}/marker </exists>",
            "<exists>${env.QA_DIR}/marker</exists>", "<exists>${java.home}</exists>", "<exists>file:${case.dir}/marker</exists>"]
    c = Case("describe-qa-file-matrix", "describe", "file activation matrix for a dependency POM (no basedir; ${case.dir} from -D; relative paths against the working directory)")
    app = Pom(G, "app", "1.0")
    app.properties = [("mp", "m")]
    for i, spec in enumerate(FILE):
        pr = Profile(f"f{i}", f"<file>{spec}</file>")
        pr.deps = [Dep(G, f"file{i}", "1")]
        app.profiles.append(pr)
    c.pom(app)
    c.files["marker"] = "x\n"
    c.files["dir/x"] = "x\n"
    c.args = base_args(c) + ["-Denv.QA_DIR=@CASE@", f"{G}:app:1.0"]
    HAND.append(c)
    c2 = Case("tree-qa-file-matrix-project", "tree", "file activation matrix for a project file (${basedir} is the project folder)")
    c2.files = dict(c.files)
    del c2.files["repo/org/qa/app/1.0/app-1.0.pom"]
    for i in range(len(FILE)):
        c2.pom(Pom(G, f"file{i}", "1"))
    c2.files["pom.xml"] = app.xml()
    c2.args = base_args(c2) + ["-Denv.QA_DIR=@CASE@", "--pom", "pom.xml"]
    HAND.append(c2)


def latest_cases():
    # --- LATEST/RELEASE are versions the descriptor reader resolves before reading the POM
    c = hand("latest-without-latest-element", "tree",
             "LATEST on metadata that has <release> but no <latest>: DefaultVersionResolver falls back to "
             "the release; RELEASE beside it reads <release> only, LATEST on metadata with neither fails, and "
             "LATEST naming a version without a POM is reported missing under that version (the node keeps LATEST).")
    for v in ("1.0", "2.0"):
        c.pom(Pom(G, "a", v))
        c.pom(Pom(G, "b", v))
    c.metadata(G, "a", ["1.0", "2.0"], release="1.0")
    c.metadata(G, "b", ["1.0", "2.0"], latest="2.0")
    c.metadata(G, "c", ["1.0"])
    c.pom(Pom(G, "c", "1.0"))
    c.metadata(G, "d", ["1.0", "2.0"], latest="2.0")
    c.pom(Pom(G, "d", "1.0"))
    root = Pom(G, "root", "1")
    root.deps = [Dep(G, "a", "LATEST"), Dep(G, "b", "RELEASE"), Dep(G, "c", "LATEST"), Dep(G, "d", "LATEST")]
    c.pom(root)
    c.args = base_args(c) + [f"{G}:root:1"]

    c = hand("latest-pom-missing", "describe",
             "describe of LATEST whose metadata names a version without a POM: the version is resolved "
             "first, so the missing POM is reported under 2.0, not LATEST.")
    c.pom(Pom(G, "a", "1.0"))
    c.metadata(G, "a", ["1.0", "2.0"], latest="2.0", release="2.0")
    c.args = base_args(c) + [f"{G}:a:LATEST"]

    c = hand("release-resolved", "describe",
             "describe of RELEASE: the artifact is described under the version <release> names.")
    a = Pom(G, "a", "1.0")
    a.deps = [Dep(G, "b", "1")]
    c.pom(a)
    c.metadata(G, "a", ["1.0", "2.0-SNAPSHOT"], latest="2.0-SNAPSHOT", release="1.0")
    c.args = base_args(c) + [f"{G}:a:RELEASE"]


def parent_range_cases():
    # --- a relativePath parent stands for a parent version range that contains its version
    for name, version, readme in [
        ("parent-range-local", "1.0",
         "The project's parent is declared [1,2) and ../pom.xml is par:1: readParentLocally takes it "
         "(the range contains its version), so no maven-metadata.xml is needed; its dependency c is "
         "used, not the repository parent's b."),
        ("parent-range-local-inherited-version", None,
         "As parent-range-local, but the project inherits its version: a parent found through a range "
         "may not give it ('Version must be a constant', FATAL)."),
    ]:
        c = hand(name, "tree", readme)
        for a in ("b", "c"):
            c.pom(Pom(G, a, "1"))
        par = Pom(G, "par", "1", packaging="pom")
        par.deps = [Dep(G, "b", "1")]
        c.pom(par)
        local = Pom(G, "par", "1", packaging="pom")
        local.deps = [Dep(G, "c", "1")]
        c.files["pom.xml"] = local.xml()
        app = Pom(None, "app", version)
        app.parent = (G, "par", "[1,2)", None)
        c.files["app/pom.xml"] = app.xml()
        c.args = base_args(c) + ["--pom", "app/pom.xml"]


def random_fixtures():
    out = []
    rng = random.Random(20260101)
    for kind, gen, n in (("describe", gen_describe, 40), ("tree", gen_tree, 45), ("versions", gen_versions, 15)):
        for i in range(n):
            seed = rng.randrange(1 << 30)
            out.append(gen(random.Random(seed), f"{kind}-qa-random-{i:03d}", seed))
    return out


def all_cases(random_ones=True):
    HAND.clear()
    tree_cases()
    describe_cases()
    interpolation_cases()
    activation_cases()
    latest_cases()
    parent_range_cases()
    return HAND + (random_fixtures() if random_ones else [])
