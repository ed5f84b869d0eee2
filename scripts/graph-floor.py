#!/usr/bin/env python3
"""graph-floor.py REPO_DIR (--roots FILE | --modules FILE) [--rtt-ms MS] [--setup-rtts N]

The floor of a cold transitive resolution of a `make-graph-repo.py` graph over a link with a
round-trip time: the longest chain of POM fetches that must happen one after another, times the
round trip, plus the connection set-up.

A POM can be asked for only once something already read names it: a POM's parent (and its BOM
imports) once the POM is read; a dependency's POM once the descriptor that declares it is
complete (its POM and its parents read: a version may come from the parent's management). So a
POM first reachable at breadth-first depth d of the collection (the roots at depth 1) is read at
round trip d + (parents and imports read in sequence above the first POM, here the shared
`graph-parent`, once). Dependencies followed as Resolver follows them: compile and runtime scope,
not optional (test and provided scopes and optional dependencies are not transitive; the roots'
own are taken as given). The jar of the deepest POM cannot be asked before that POM either: it
adds one round trip, printed separately. A new connection through the testbed's latency
forwarder costs 2 round trips before its first request (TCP handshake and TLS 1.3, see
delayfwd.py), hence --setup-rtts 2.

Prints one line: `chain=C rtt_ms=R setup_rtts=S floor_s=F floor_with_jar_s=J` (F = (C + S) x R).
"""
import argparse
import os
import sys
import xml.etree.ElementTree as ET

NS = "{http://maven.apache.org/POM/4.0.0}"


def strip(tag):
    return tag.split("}", 1)[-1]


def child(el, name):
    for c in el:
        if strip(c.tag) == name:
            return c
    return None


def text(el, name):
    c = child(el, name)
    return c.text.strip() if c is not None and c.text else None


class Repo:
    def __init__(self, root):
        self.root = root
        self.cache = {}

    def pom(self, g, a, v):
        key = (g, a, v)
        if key not in self.cache:
            path = os.path.join(self.root, *g.split("."), a, v, f"{a}-{v}.pom")
            try:
                self.cache[key] = ET.parse(path).getroot()
            except (OSError, ET.ParseError):
                self.cache[key] = None
        return self.cache[key]

    def parents(self, pom):
        """The parent chain of a POM: [(g, a, v), ...]."""
        out = []
        while pom is not None:
            p = child(pom, "parent")
            if p is None:
                break
            key = (text(p, "groupId"), text(p, "artifactId"), text(p, "version"))
            out.append(key)
            pom = self.pom(*key)
        return out

    def management(self, pom):
        managed = {}
        chain = [pom] + [self.pom(*k) for k in self.parents(pom)]
        for p in reversed([c for c in chain if c is not None]):
            dm = child(p, "dependencyManagement")
            deps = child(dm, "dependencies") if dm is not None else None
            for d in deps if deps is not None else []:
                managed[(text(d, "groupId"), text(d, "artifactId"))] = text(d, "version")
        return managed

    def dependencies(self, g, a, v):
        pom = self.pom(g, a, v)
        if pom is None:
            return []
        managed = self.management(pom)
        deps = child(pom, "dependencies")
        out = []
        for d in deps if deps is not None else []:
            dg, da = text(d, "groupId"), text(d, "artifactId")
            scope = text(d, "scope") or "compile"
            optional = (text(d, "optional") or "false") == "true"
            version = text(d, "version") or managed.get((dg, da))
            if scope in ("compile", "runtime") and not optional and version:
                out.append((dg, da, version))
        return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("repo")
    ap.add_argument("--roots")
    ap.add_argument("--modules")
    ap.add_argument("--rtt-ms", type=float, default=20.0)
    ap.add_argument("--setup-rtts", type=int, default=2)
    a = ap.parse_args()
    roots = []
    for f in [a.roots, a.modules]:
        if f:
            for line in open(f):
                for c in line.split():
                    g, art, v = c.split(":")[0], c.split(":")[1], c.split(":")[-1]
                    roots.append((g, art, v))
    if not roots:
        sys.exit("graph-floor: --roots or --modules")
    repo = Repo(a.repo)
    # breadth-first: the round trip at which each POM is read (earliest reference wins)
    read_at = {}
    parents_read = {}
    frontier = [(r, 1) for r in roots]
    last = 0
    while frontier:
        nxt = []
        for key, t in frontier:
            if key in read_at and read_at[key] <= t:
                continue
            read_at[key] = t
            # its parents, one after another, unless read already
            done = t
            for p in repo.parents(repo.pom(*key)):
                done = max(done, parents_read.setdefault(p, done + 1))
            last = max(last, done)
            for d in repo.dependencies(*key):
                nxt.append((d, done + 1))
        frontier = nxt
    chain = last
    floor = (chain + a.setup_rtts) * a.rtt_ms / 1000
    print(f"chain={chain} poms={len(read_at)} rtt_ms={a.rtt_ms:g} setup_rtts={a.setup_rtts} "
          f"floor_s={floor:.3f} floor_with_jar_s={floor + a.rtt_ms / 1000:.3f}")


if __name__ == "__main__":
    main()
