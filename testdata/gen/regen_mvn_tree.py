#!/usr/bin/env python3
"""Answers the cases of testdata/mvn-tree/ with the real `mvn dependency:tree`.

    python3 regen_mvn_tree.py                 # every case
    python3 regen_mvn_tree.py CASE...         # some cases (folder names or paths)
    JOBS=2 (default) oracle runs at a time, each under `nice`.

For each case folder, in that folder, the command is

    mvn-tree.py [--verbose] --repo repo project                          (args: nothing or --verbose)
    mvn_tree_oracle.py [--verbose] [-Dscope=S] [-Dincludes=P] [-Dexcludes=P] --repo repo project

the second (this folder's wrapper of mvn-tree.py) when `args` has `--scope S`, `--includes P` or
`--excludes P`, the plugin's `-Dscope`, `-Dincludes`, `-Dexcludes`. Its stdout is written to
`expected.txt`; a non-zero exit status to `expected.status` (removed when mvn succeeds). The command
is printed for each case. `args` an oracle cannot answer (such as m2r's own `--depth`) are refused.
"""
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "mvn-tree"))
JOBS = int(os.environ.get("JOBS", "2"))
MVN_TREE = os.environ.get("MVN_TREE") or next(
    (p for p in (os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "oracle", "mvn-tree.py")),
                 "/work/shared/oracle/mvn-tree.py") if os.path.isfile(p)),
    "mvn-tree.py")
WRAPPER = os.path.join(HERE, "mvn_tree_oracle.py")
DEFINES = {"--scope": "scope", "--includes": "includes", "--excludes": "excludes"}


def oracle_command(args):
    verbose, defines, i = False, [], 0
    while i < len(args):
        a = args[i]
        if a == "--verbose":
            verbose = True
        elif a in DEFINES and i + 1 < len(args):
            defines.append(f"-D{DEFINES[a]}={args[i + 1]}")
            i += 1
        else:
            raise ValueError(f"no oracle for the argument {a!r}")
        i += 1
    cmd = [WRAPPER] if defines else [MVN_TREE]
    return ["nice"] + cmd + (["--verbose"] if verbose else []) + defines + ["--repo", "repo", "project"]


def answer(case):
    args = [a for a in open(os.path.join(case, "args")).read().split("\n") if a]
    try:
        cmd = oracle_command(args)
    except ValueError as e:
        return f"{os.path.basename(case)}: {e}"
    p = subprocess.run(cmd, cwd=case, capture_output=True, text=True, timeout=900)
    with open(os.path.join(case, "expected.txt"), "w") as f:
        f.write(p.stdout)
    status = os.path.join(case, "expected.status")
    if p.returncode != 0:
        with open(status, "w") as f:
            f.write(f"{p.returncode}\n")
    elif os.path.exists(status):
        os.remove(status)
    print(f"{os.path.basename(case)}: {' '.join(cmd[1:])} -> exit {p.returncode}", flush=True)
    if p.returncode != 0 and not p.stderr.strip():
        return f"{os.path.basename(case)}: exit {p.returncode} without an error message"
    return None


def main():
    names = sys.argv[1:] or sorted(d for d in os.listdir(OUT) if os.path.isfile(os.path.join(OUT, d, "args")))
    cases = [n if os.path.isdir(n) else os.path.join(OUT, n) for n in names]
    with ThreadPoolExecutor(JOBS) as ex:
        errors = [e for e in ex.map(answer, cases) if e]
    for e in errors:
        print(e, file=sys.stderr)
    print(f"{len(cases) - len(errors)} answered, {len(errors)} failed")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
