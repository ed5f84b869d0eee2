"""Helpers of the collector's dependency fixture generators (gen_versions.py, gen_trees.py).

A case folder has the layout ../../../shared/oracle/compare-deps.py reads: `args` (mode first, one
argument per line, @CASE@ for the folder's absolute path), the files the args name, and `expected.json`
made by ../../../shared/oracle/deps.sh (its exit status stored as "status").
"""
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
DEPS = os.path.normpath(os.path.join(HERE, "..", "deps"))
ORACLE = os.environ.get("ORACLE", os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "oracle", "deps.sh")))
JOBS = int(os.environ.get("JOBS", "2"))


def reset_cases(prefix, names):
    """Deletes case folders with this prefix that the generator no longer defines (not the
    `*-qa-*` ones, which gen_deps_qa.py owns)."""
    os.makedirs(DEPS, exist_ok=True)
    for d in os.listdir(DEPS):
        if d.startswith(prefix) and "-qa-" not in d and d not in names:
            shutil.rmtree(os.path.join(DEPS, d))


def write_case(name, args, files=None, readme=None):
    """Writes the inputs of one case (keeps an existing expected.json until answer() runs)."""
    d = os.path.join(DEPS, name)
    if os.path.isdir(d):
        for entry in os.listdir(d):
            if entry != "expected.json":
                p = os.path.join(d, entry)
                shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "args"), "w") as f:
        f.write("\n".join(args) + "\n")
    for path, content in (files or {}).items():
        p = os.path.join(d, path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w" if isinstance(content, str) else "wb") as f:
            f.write(content)
    if readme:
        with open(os.path.join(d, "README"), "w") as f:
            f.write(readme.strip() + "\n")
    return d


def answer(case_dir):
    """Runs the oracle on one case folder and writes expected.json; returns an error or None."""
    case = os.path.abspath(case_dir)
    args = [a.replace("@CASE@", case) for a in open(os.path.join(case, "args")).read().split("\n") if a]
    p = subprocess.run([ORACLE] + args, cwd=case, capture_output=True, text=True, timeout=600)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        return f"{os.path.basename(case)}: oracle exit {p.returncode}, not JSON: {p.stderr[-400:]}"
    doc["status"] = p.returncode
    with open(os.path.join(case, "expected.json"), "w") as f:
        json.dump(doc, f, indent=2, sort_keys=True, ensure_ascii=True)
        f.write("\n")
    return None


def answer_all(case_dirs):
    with ThreadPoolExecutor(JOBS) as ex:
        errors = [e for e in ex.map(answer, case_dirs) if e]
    for e in errors:
        print(e, file=sys.stderr)
    print(f"{len(case_dirs) - len(errors)} answered, {len(errors)} failed")
    return not errors


