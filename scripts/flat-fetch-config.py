#!/usr/bin/env python3
"""flat-fetch-config.py SETTINGS FROM_DIR OUT_DIR PARTS TARGET_DIR

Writes PARTS curl config files (OUT_DIR/flat-part-N.cfg, mode 0600) that fetch every file a
resolution stored in the local repository FROM_DIR (its `.pom`, `.jar` and checksum files) from
the settings' mirror, through the settings' active proxy, with the mirror's server credentials,
into TARGET_DIR: the same files, asked for all at once, with no chain of POMs between them.

bench-session.sh times one `curl --parallel` per part over these files, side by side, to show
what a plain client needs to move them through the testbed's path with no chain of POMs at all,
beside the chain of round trips that graph-floor.py counts.

Only what bench-session.sh's settings use is read: the first `<mirror>`'s URL, the `<server>`
of the same id, the first active `<proxy>`. Secrets go into the config files, never onto a
command line.
"""
import os
import sys
import xml.etree.ElementTree as ET

FILES = (".pom", ".jar", ".sha1", ".md5", ".sha256", ".sha512")


def strip(tag):
    return tag.split("}", 1)[-1]


def find(el, *path):
    for name in path:
        if el is None:
            return None
        el = next((c for c in el if strip(c.tag) == name), None)
    return el


def text(el, *path):
    found = find(el, *path)
    return found.text.strip() if found is not None and found.text else None


def quote(value):
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    settings, from_dir, out_dir, parts, target = sys.argv[1:]
    parts = int(parts)
    root = ET.parse(settings).getroot()
    mirror = find(root, "mirrors", "mirror")
    if mirror is None:
        sys.exit(f"flat-fetch-config: {settings} has no mirror")
    url = text(mirror, "url").rstrip("/") + "/"
    mirror_id = text(mirror, "id")
    server = next(
        (s for s in (find(root, "servers") or []) if text(s, "id") == mirror_id), None
    )
    proxy = next(
        (p for p in (find(root, "proxies") or []) if (text(p, "active") or "true") == "true"),
        None,
    )
    files = sorted(
        os.path.relpath(os.path.join(d, f), from_dir)
        for d, _, names in os.walk(from_dir)
        for f in names
        if f.endswith(FILES)
    )
    if not files:
        sys.exit(f"flat-fetch-config: no files under {from_dir}")
    common = []
    if server is not None and text(server, "username"):
        user = text(server, "username") + ":" + (text(server, "password") or "")
        common.append(f"user = {quote(user)}")
    if proxy is not None:
        scheme = text(proxy, "protocol") or "http"
        host, port = text(proxy, "host"), text(proxy, "port")
        common.append(f"proxy = {quote(f'{scheme}://{host}:{port}')}")
        if text(proxy, "username"):
            user = text(proxy, "username") + ":" + (text(proxy, "password") or "")
            common.append(f"proxy-user = {quote(user)}")
    os.makedirs(out_dir, exist_ok=True)
    for n in range(parts):
        path = os.path.join(out_dir, f"flat-part-{n}.cfg")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write("\n".join(common) + "\n")
            for f in files[n::parts]:
                out.write(f"url = {quote(url + f)}\noutput = {quote(os.path.join(target, f))}\n")
    print(len(files))


if __name__ == "__main__":
    main()
