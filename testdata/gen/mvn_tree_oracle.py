#!/usr/bin/env python3
"""The shared oracle `mvn-tree.py` (the real `mvn dependency:tree`), plus `-Dname=value` options
passed on to mvn: the plugin's `-Dscope=`, `-Dincludes=`, `-Dexcludes=` filters, which mvn-tree.py
itself does not take.

    mvn_tree_oracle.py [--verbose] [-Dname=value]... --repo DIR PROJECT_DIR

Everything else is mvn-tree.py's own code, run unchanged: this only appends the -D options to the
`mvn` command line it builds.
"""
import os
import runpy
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The oracle beside the repository (`../shared`), else the machine's shared folder; MVN_TREE wins.
ORACLE = os.environ.get("MVN_TREE") or next(
    (p for p in (os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "oracle", "mvn-tree.py")),
                 "/work/shared/oracle/mvn-tree.py") if os.path.isfile(p)),
    "mvn-tree.py")


def main():
    defines = [a for a in sys.argv[1:] if a.startswith("-D")]
    sys.argv = [ORACLE] + [a for a in sys.argv[1:] if not a.startswith("-D")]
    real_run = subprocess.run

    def run(cmd, *args, **kwargs):
        if isinstance(cmd, list) and cmd and cmd[0] == "mvn":
            cmd = cmd + defines
        return real_run(cmd, *args, **kwargs)

    subprocess.run = run
    runpy.run_path(ORACLE, run_name="__main__")


if __name__ == "__main__":
    main()
