#!/usr/bin/env python3
"""Makes the expected trees of the publishing fixtures (testdata/publish/<case>/expected/) with real Maven.

    scripts/gen_publish_fixtures.py [CASE_DIR...]      (default: every folder of testdata/publish)

A case folder holds:
  args          first line `deploy` or `install`, then one argument per line for `m2r <mode>` and
                `mvn-publish.py <mode>` alike (paths relative to the case folder); the harness adds
                `--to pub::URL --settings S` (deploy) or `--local-repository DIR` (install)
  runs          optional: how many times to run it (a snapshot deployed twice: 2)
  server/       optional: files the repository (deploy) or local repository (install) holds before
  settings.xml  optional: settings to use instead of the harness's (which holds <server id="pub">)
  README        what the case checks

For each case this script starts nginx (`dav_methods PUT; create_full_put_path on;`, Basic auth
deploy:s3cret) on loopback, seeds it with server/, runs /work/shared/oracle/mvn-publish.py (real Maven
3.8.7, maven-deploy-plugin 3.0.0 / maven-install-plugin 3.1.0) `runs` times, then writes what the
repository holds, normalised, to expected/ and the command it ran to `command`.

Normalisation (cli/tests/publish_fixtures.rs applies the same): in file names and metadata, snapshot
timestamps `yyyyMMdd.HHmmss` become TIMESTAMP, `<lastUpdated>`/`<updated>` values LASTUPDATED/UPDATED;
checksum files of metadata (they hash the timestamps) hold CHECKSUM (the test checks them against the
metadata instead); `_remote.repositories` loses its date comment and has its lines sorted (Java writes
them in hash order).
"""
import base64
import hashlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLE = os.environ.get("ORACLE", "/work/shared/oracle/mvn-publish.py")
SETTINGS = """<settings>
  <servers><server><id>pub</id><username>deploy</username><password>s3cret</password></server></servers>
</settings>
"""


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start_nginx(work, root):
    d = os.path.join(work, "nginx")
    os.makedirs(d)
    sha = base64.b64encode(hashlib.sha1(b"s3cret").digest()).decode()
    with open(os.path.join(d, "htpasswd"), "w") as f:
        f.write("deploy:{SHA}%s\n" % sha)
    port = free_port()
    conf = f"""daemon off; master_process off; worker_processes 1; pid {d}/nginx.pid;
error_log {d}/error.log warn; events {{ worker_connections 256; }}
http {{ access_log {d}/access.log; client_body_temp_path {d}/body; proxy_temp_path {d}/proxy;
  fastcgi_temp_path {d}/fastcgi; uwsgi_temp_path {d}/uwsgi; scgi_temp_path {d}/scgi; client_max_body_size 0;
  server {{ listen 127.0.0.1:{port};
    location /private/ {{ alias {root}/; dav_methods PUT; create_full_put_path on;
      auth_basic "deploy"; auth_basic_user_file {d}/htpasswd; }} }} }}
"""
    with open(os.path.join(d, "nginx.conf"), "w") as f:
        f.write(conf)
    p = subprocess.Popen(["nginx", "-c", os.path.join(d, "nginx.conf"), "-p", d, "-e", os.path.join(d, "error.log")],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return p, port
        except OSError:
            time.sleep(0.05)
    p.kill()
    sys.exit("nginx did not start")


def norm_name(name):
    return re.sub(r"\d{8}\.\d{6}-", "TIMESTAMP-", name)


def norm_metadata(text):
    text = re.sub(r"<lastUpdated>\d{14}</lastUpdated>", "<lastUpdated>LASTUPDATED</lastUpdated>", text)
    text = re.sub(r"<updated>\d{14}</updated>", "<updated>UPDATED</updated>", text)
    text = re.sub(r"<timestamp>\d{8}\.\d{6}</timestamp>", "<timestamp>TIMESTAMP</timestamp>", text)
    return re.sub(r"\d{8}\.\d{6}-", "TIMESTAMP-", text)


def normalised(path, name):
    data = open(path, "rb").read()
    if re.match(r"maven-metadata.*\.xml$", name):
        return norm_metadata(data.decode()).encode()
    if re.match(r"maven-metadata.*\.xml\.", name):
        return b"CHECKSUM"
    if name == "_remote.repositories":
        lines = [l for l in data.decode().splitlines() if l and not l.startswith("#")]
        return ("".join(l + "\n" for l in sorted(lines))).encode()
    return data


def write_expected(src, dst):
    if os.path.exists(dst):
        shutil.rmtree(dst)
    for d, _, files in os.walk(src):
        for f in files:
            rel = os.path.relpath(os.path.join(d, f), src)
            out = os.path.join(dst, norm_name(rel))
            os.makedirs(os.path.dirname(out), exist_ok=True)
            with open(out, "wb") as o:
                o.write(normalised(os.path.join(d, f), f))


def run_case(case):
    lines = open(os.path.join(case, "args")).read().split("\n")
    mode, args = lines[0].strip(), [l for l in lines[1:] if l]
    runs = int(open(os.path.join(case, "runs")).read().strip()) if os.path.exists(os.path.join(case, "runs")) else 1
    with tempfile.TemporaryDirectory() as work:
        root = os.path.join(work, "repo")
        seed = os.path.join(case, "server")
        if os.path.isdir(seed):
            shutil.copytree(seed, root)
        else:
            os.makedirs(root)
        settings = os.path.join(case, "settings.xml")
        if not os.path.exists(settings):
            settings = os.path.join(work, "settings.xml")
            with open(settings, "w") as f:
                f.write(SETTINGS)
        nginx, port = (start_nginx(work, root) if mode == "deploy" else (None, None))
        try:
            if mode == "deploy":
                extra = ["--to", f"pub::http://127.0.0.1:{port}/private/", "--settings", settings]
            else:
                extra = ["--local-repository", root, "--settings", settings]
            cmd = [ORACLE, mode] + args + extra
            for i in range(runs):
                if i:
                    time.sleep(1.1)  # a new timestamp second
                p = subprocess.run(cmd, cwd=case, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                if p.returncode != 0:
                    print(p.stdout)
                    sys.exit(f"{case}: the oracle failed")
        finally:
            if nginx:
                nginx.kill()
                nginx.wait()
        write_expected(root, os.path.join(case, "expected"))
    shown = " ".join(["mvn-publish.py", mode] + args + (["--to", "pub::URL", "--settings", "S"] if mode == "deploy"
                                                      else ["--local-repository", "DIR"]))
    with open(os.path.join(case, "command"), "w") as f:
        f.write(f"# made by scripts/gen_publish_fixtures.py ({runs} run(s), in this folder):\n{shown}\n")
    print(f"{os.path.basename(case)}: ok")


def main():
    cases = sys.argv[1:] or sorted(
        os.path.join(ROOT, "testdata", "publish", c) for c in os.listdir(os.path.join(ROOT, "testdata", "publish"))
        if os.path.isfile(os.path.join(ROOT, "testdata", "publish", c, "args")))
    for c in cases:
        run_case(os.path.abspath(c))


if __name__ == "__main__":
    main()
