#!/usr/bin/env python3
"""Asks the real Maven 3.8.7 / Resolver 1.6.3 oracle for the answer of every describe case.

    python3 testdata/gen/regen_deps_describe.py                      # every testdata/deps/describe-* case
    python3 testdata/gen/regen_deps_describe.py testdata/deps/describe-basic ...

For each case folder: run `$ORACLE <args lines>` (ORACLE defaults to /work/shared/oracle/deps.sh; `@CASE@`
replaced by the folder's absolute path) in the folder with HOME set to an empty folder and a fresh local
repository, add the exit status as "status", and write expected.json. JOBS (default 2) cases run at once.
A non-JSON answer or an exit status other than 0/1 is an error and keeps the old expected.json.
Cases describing a project file (`--pom`) are answered by DescribeProject.java, compiled on first use.
"""
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
DEPS = os.path.join(os.path.dirname(HERE), "deps")
ORACLE = os.environ.get("ORACLE", "/work/shared/oracle/deps.sh")
JOBS = int(os.environ.get("JOBS", "2"))
MAVEN_LIB = os.environ.get("MAVEN_LIB", "/usr/share/maven/lib")
PROBE_DIR = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "m2r-describe-project")


def classpath():
    jars = [os.path.join(MAVEN_LIB, j) for j in sorted(os.listdir(MAVEN_LIB)) if j.endswith(".jar")]
    boot = os.path.join(MAVEN_LIB, "..", "boot")
    jars += [os.path.join(boot, j) for j in sorted(os.listdir(boot)) if j.endswith(".jar")]
    return ":".join(jars)


def project_probe():
    """`describe --pom` cases: deps.sh has no such mode, DescribeProject.java (real Maven classes,
    built as Deps.java builds the project of `tree --pom`) answers them."""
    src = os.path.join(HERE, "DescribeProject.java")
    cls = os.path.join(PROBE_DIR, "DescribeProject.class")
    if not os.path.exists(cls) or os.path.getmtime(src) > os.path.getmtime(cls):
        os.makedirs(PROBE_DIR, exist_ok=True)
        subprocess.run(["javac", "-nowarn", "-cp", classpath(), "-d", PROBE_DIR, src], check=True)
    return ["java", "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
            "-cp", PROBE_DIR + ":" + classpath(), "DescribeProject"]


def one(case):
    case = os.path.abspath(case)
    args = [a.replace("@CASE@", case) for a in open(os.path.join(case, "args")).read().split("\n") if a]
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as local:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home,
               "XDG_CACHE_HOME": os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache"))}
        oracle = project_probe() if "--pom" in args else [ORACLE]
        p = subprocess.run(oracle + args + ["--local-repository", local], cwd=case, capture_output=True,
                           text=True, env=env, timeout=300)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        return "ERROR %s: not JSON (exit %d): %s" % (os.path.basename(case), p.returncode, p.stderr[-400:])
    if p.returncode not in (0, 1):
        return "ERROR %s: exit %d" % (os.path.basename(case), p.returncode)
    doc["status"] = p.returncode
    with open(os.path.join(case, "expected.json"), "w") as f:
        json.dump(doc, f, indent=2, sort_keys=True)
        f.write("\n")
    return "ok  %s (exit %d)" % (os.path.basename(case), p.returncode)


def main():
    cases = sys.argv[1:] or sorted(os.path.join(DEPS, d) for d in os.listdir(DEPS) if d.startswith("describe-"))
    failed = 0
    with ThreadPoolExecutor(JOBS) as ex:
        for line in ex.map(one, cases):
            print(line)
            failed += line.startswith("ERROR")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
