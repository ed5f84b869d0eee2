#!/usr/bin/env python3
"""Asks the real Maven 3.8.7 / Resolver 1.6.3 oracle for the answer of every describe case.

    python3 testdata/gen/regen_deps_describe.py                      # every testdata/deps/describe-* case
    python3 testdata/gen/regen_deps_describe.py testdata/deps/describe-basic ...

For each case folder: run `$ORACLE <args lines>` (ORACLE defaults to /work/shared/oracle/deps.sh; `@CASE@`
replaced by the folder's absolute path) in the folder with HOME set to an empty folder and a fresh local
repository, add the exit status as "status", and write expected.json. JOBS (default 2) cases run at once.
A non-JSON answer or an exit status other than 0/1 is an error and keeps the old expected.json.
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


def one(case):
    case = os.path.abspath(case)
    args = [a.replace("@CASE@", case) for a in open(os.path.join(case, "args")).read().split("\n") if a]
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as local:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home,
               "XDG_CACHE_HOME": os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache"))}
        p = subprocess.run([ORACLE] + args + ["--local-repository", local], cwd=case, capture_output=True,
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
