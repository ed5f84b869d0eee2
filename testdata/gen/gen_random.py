#!/usr/bin/env python3
"""Random differential cases: settings files with random mirrors (mirrorOf token soup, layouts,
blocked), proxies (protocols, bad ports, nonProxyHosts), servers, profiles (activation, repository
policies) and random --repo entries. The first 100 of seed 2026 are committed as
testdata/injection/random-NNN; run more to look for disagreements with Maven:

    python3 testdata/gen/gen_random.py OUT_DIR [COUNT] [SEED]
    # then, per case folder: the oracle writes expected.json (testdata/regen.sh CASE_DIR...)
    python3 ../shared/oracle/compare.py -j 2 OUT_DIR -- target/debug/m2r explain --json
"""
import os
import random
import sys

out = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
random.seed(int(sys.argv[3]) if len(sys.argv) > 3 else 2026)

ids = ['central', 'snap', 'corp', 'a', 'b', 'local', 'Central', 'x-y', 'mirror1', 'repo.1']
hosts = ['repo.example.com', 'localhost', '127.0.0.1', 'LOCALHOST', 'nexus.corp.example', '[::1]', '10.0.0.1',
         'a.b.example.org']
protos = ['http', 'https', 'dav:http', 'file', 'HTTP', 'ftp']


def url():
    p = random.choice(protos)
    if p == 'file':
        return 'file:///tmp/repo'
    h = random.choice(hosts)
    port = random.choice(['', ':8080', ':443'])
    return f'{p}://{h}{port}/{random.choice(["maven2", "repo/x", ""])}'


def mirrorof():
    toks = []
    for _ in range(random.randint(1, 3)):
        toks.append(random.choice(ids + ['*', 'external:*', 'external:http:*', '!' + random.choice(ids), ' *',
                                         '!' + random.choice(ids) + ' ', '']))
    return ','.join(toks)


def policy(tag):
    if random.random() < 0.5:
        return ''
    parts = []
    if random.random() < 0.6:
        parts.append(f'<enabled>{random.choice(["true", "false", "TRUE", ""])}</enabled>')
    if random.random() < 0.6:
        parts.append(f'<updatePolicy>{random.choice(["always", "daily", "never", "interval:5", "interval:x", "weird", ""])}</updatePolicy>')
    if random.random() < 0.6:
        parts.append(f'<checksumPolicy>{random.choice(["fail", "warn", "ignore", "bogus"])}</checksumPolicy>')
    return f'<{tag}>{"".join(parts)}</{tag}>'


for n in range(count):
    d = f'{out}/case{n:03d}'
    os.makedirs(d)
    x = ['<settings>']
    if random.random() < 0.8:
        x.append('<mirrors>')
        for _ in range(random.randint(1, 4)):
            m = f'<mirror><id>{random.choice(ids)}</id><mirrorOf>{mirrorof()}</mirrorOf><url>{url()}</url>'
            if random.random() < 0.3:
                m += f'<mirrorOfLayouts>{random.choice(["default", "*", "!legacy", "legacy,p2", ""])}</mirrorOfLayouts>'
            if random.random() < 0.3:
                m += f'<layout>{random.choice(["default", "legacy", ""])}</layout>'
            if random.random() < 0.2:
                m += f'<blocked>{random.choice(["true", "false"])}</blocked>'
            x.append(m + '</mirror>')
        x.append('</mirrors>')
    if random.random() < 0.7:
        x.append('<proxies>')
        for _ in range(random.randint(1, 3)):
            p = (f'<proxy><id>p{random.randint(0, 2)}</id><active>{random.choice(["true", "false", "true"])}</active>'
                 f'<protocol>{random.choice(["http", "https", "HTTP", "socks5", "ftp"])}</protocol>'
                 f'<host>proxy{random.randint(0, 9)}</host><port>{random.choice(["3128", "abc", "8080"])}</port>')
            if random.random() < 0.5:
                p += f'<username>u</username><password>pw{random.randint(0, 9)}</password>'
            if random.random() < 0.6:
                p += f'<nonProxyHosts>{random.choice(["localhost", "*.example.com", "*.Example.COM|127.*", "repo.example.com,localhost", " *.corp.example", "nexus.*|*example.org", "[::1]", "*"])}</nonProxyHosts>'
            x.append(p + '</proxy>')
        x.append('</proxies>')
    if random.random() < 0.7:
        x.append('<servers>')
        for _ in range(random.randint(1, 4)):
            s = f'<server><id>{random.choice(ids)}</id>'
            if random.random() < 0.7:
                s += '<username>user</username>'
            if random.random() < 0.7:
                s += f'<password>pw{random.randint(0, 9)}</password>'
            if random.random() < 0.3:
                s += '<privateKey>/k</privateKey>'
            if random.random() < 0.3:
                s += '<passphrase>pp</passphrase>'
            x.append(s + '</server>')
        x.append('</servers>')
    pids = []
    if random.random() < 0.8:
        x.append('<profiles>')
        for k in range(random.randint(1, 3)):
            pid = random.choice(['p1', 'p2', 'p3', 'ci'])
            pids.append(pid)
            pr = f'<profile><id>{pid}</id>'
            r = random.random()
            if r < 0.2:
                pr += '<activation><activeByDefault>true</activeByDefault></activation>'
            elif r < 0.4:
                pr += (f'<activation><property><name>{random.choice(["foo", "!foo", "env.CI", "bar"])}</name>'
                       f'{random.choice(["", "<value>bar</value>", "<value>!bar</value>"])}</property></activation>')
            elif r < 0.5:
                pr += f'<activation><jdk>{random.choice(["17", "1.8", "!1.8", "[11,)", "(,11]", "[1.8,18)"])}</jdk></activation>'
            pr += '<repositories>'
            for _ in range(random.randint(1, 3)):
                pr += (f'<repository><id>{random.choice(ids)}</id><url>{url()}</url>'
                       f'{random.choice(["", "<layout>legacy</layout>", "<layout>p2</layout>"])}'
                       f'{policy("releases")}{policy("snapshots")}</repository>')
            pr += '</repositories></profile>'
            x.append(pr)
        x.append('</profiles>')
    if pids and random.random() < 0.6:
        x.append('<activeProfiles>' + ''.join(
            f'<activeProfile>{random.choice(pids + ["nope"])}</activeProfile>' for _ in range(random.randint(1, 2)))
                 + '</activeProfiles>')
    x.append('</settings>')
    open(d + '/settings.xml', 'w').write('\n'.join(x) + '\n')
    args = ['--settings', 'settings.xml', '--security', 'none.xml', '-Duser.home=fakehome']
    if random.random() < 0.5:
        args.append('-Dfoo=bar')
    if random.random() < 0.3 and pids:
        args += ['-P', random.choice(['', '!', '-', '+']) + random.choice(pids)]
    for _ in range(random.randint(0, 4)):
        args += ['--repo', f'{random.choice(ids)}={url()}']
    open(d + '/args', 'w').write('\n'.join(args) + '\n')
