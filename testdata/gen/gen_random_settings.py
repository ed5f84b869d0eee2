#!/usr/bin/env python3
"""Random settings-engine cases: user (and sometimes global) settings with servers, mirrors,
proxies, profiles (property/file/jdk/os activation, repositories), interpolation from -D and the
environment, odd booleans and ports. The committed testdata/settings/random-NNN cases are the ones
of seed 100 that real Maven can answer (a `${...}` in nonProxyHosts makes Maven crash).

    python3 testdata/gen/gen_random_settings.py OUT_DIR [COUNT] [SEED]
    testdata/regen.sh OUT_DIR/*      # the oracle writes expected.json
    python3 ../shared/oracle/compare.py -j 2 OUT_DIR -- target/debug/m2r explain --json
"""
import os
import random
import sys

out = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 150
random.seed(int(sys.argv[3]) if len(sys.argv) > 3 else 100)


def leaf(tag, vals):
    return f'<{tag}>{random.choice(vals)}</{tag}>'


def maybe(p, s):
    return s if random.random() < p else ''


ids = ['a', 'b', 'default', 'dup', 'dup', 'c', 'central', 'r1']


def server():
    s = '<server>' + leaf('id', ids) + maybe(0.7, leaf('username', ['u', '${env.M2R_U}', '${user.home}', '${foo}', 'a&amp;b', '&lt;x&gt;'])) + maybe(0.7, leaf('password', ['p', '${foo}', 'x {y} z', '${env.M2R_P}', 'pw']))
    s += maybe(0.3, leaf('privateKey', ['/k', '${user.home}/.ssh/id'])) + maybe(0.3, leaf('passphrase', ['pp', '${foo}']))
    s += maybe(0.2, '<configuration><httpHeaders><property><name>X</name><value>${foo}</value></property></httpHeaders></configuration>')
    return s + '</server>'


def mirror():
    return '<mirror>' + leaf('id', ids) + leaf('mirrorOf', ['*', 'central', '${foo}', 'external:*', 'r1', '*,!r1', 'r1,central']) + leaf('url', ['http://m/', '${env.M2R_URL}', 'https://m2/']) + maybe(0.2, leaf('blocked', ['true', 'TRUE', 'yes', ''])) + maybe(0.1, '<layout/>') + '</mirror>'


def proxy():
    return '<proxy>' + leaf('id', ids) + maybe(0.3, leaf('active', ['false', 'true', 'no', ''])) + leaf('host', ['h', 'h2', '${foo}']) + maybe(0.5, leaf('port', ['80', '-1', '+8080', ' 81 '])) + maybe(0.3, leaf('protocol', ['https', 'HTTP', 'http'])) + maybe(0.3, leaf('nonProxyHosts', ['m|r', '*.x', '${foo}'])) + '</proxy>'


def profile():
    p = '<profile>' + leaf('id', ['p1', 'p2', 'p1', 'default', 'p3'])
    r = random.random()
    if r < 0.3:
        p += '<activation>' + leaf('activeByDefault', ['true', 'false']) + '</activation>'
    elif r < 0.5:
        p += '<activation><property>' + leaf('name', ['foo', '!foo', 'env.M2R_U', 'bar']) + maybe(0.5, leaf('value', ['bar', '!bar', ''])) + '</property></activation>'
    elif r < 0.6:
        p += '<activation><file>' + random.choice(['<exists>${basedir}/marker</exists>', '<missing>marker</missing>', '<exists>${user.home}/x</exists>', '<missing>${basedir}/marker</missing>']) + '</file></activation>'
    elif r < 0.7:
        p += '<activation><jdk>' + random.choice(['17', '1.8', '[11,)', '!17', '(,1.8]']) + '</jdk>' + maybe(0.5, '<os><family>unix</family></os>') + '</activation>'
    p += maybe(0.5, '<properties><k>${foo}</k><k2>v</k2></properties>')
    p += maybe(0.7, '<repositories><repository>' + leaf('id', ['r1', 'r2', 'r3', 'central']) + leaf('url', ['http://r/', 'https://r9/', '${foo}', 'http://localhost/r']) + maybe(0.3, '<snapshots><enabled>false</enabled></snapshots>') + maybe(0.3, '<releases><updatePolicy>always</updatePolicy><checksumPolicy>fail</checksumPolicy></releases>') + '</repository><repository><id>r1</id><url>http://r1b/</url></repository></repositories>')
    return p + '</profile>'


def settings():
    parts = []
    if random.random() < 0.3:
        parts.append(leaf('localRepository', ['${user.home}/repo', '/abs/repo', '', 'rel/repo']))
    if random.random() < 0.3:
        parts.append(leaf('offline', ['true', 'false']))
    if random.random() < 0.2:
        parts.append(leaf('interactiveMode', ['false', 'true']))
    if random.random() < 0.6:
        parts.append('<servers>' + ''.join(server() for _ in range(random.randint(1, 3))) + '</servers>')
    if random.random() < 0.5:
        parts.append('<mirrors>' + ''.join(mirror() for _ in range(random.randint(1, 3))) + '</mirrors>')
    if random.random() < 0.4:
        parts.append('<proxies>' + ''.join(proxy() for _ in range(random.randint(1, 2))) + '</proxies>')
    if random.random() < 0.7:
        parts.append('<profiles>' + ''.join(profile() for _ in range(random.randint(1, 3))) + '</profiles>')
    if random.random() < 0.4:
        parts.append('<activeProfiles>' + ''.join(leaf('activeProfile', ['p1', 'p2', 'nope', '${foo}']) for _ in range(random.randint(1, 2))) + '</activeProfiles>')
    if random.random() < 0.3:
        parts.append('<pluginGroups>' + ''.join(leaf('pluginGroup', ['org.x', ' org.y ']) for _ in range(random.randint(1, 2))) + '</pluginGroups>')
    random.shuffle(parts)
    return '<settings>\n' + '\n'.join(parts) + '\n</settings>\n'


for n in range(count):
    d = f'{out}/c{n:03d}'
    os.makedirs(d)
    open(d + '/settings.xml', 'w').write(settings())
    args = ['--settings', 'settings.xml', '--security', 'none.xml', '-Duser.home=fakehome']
    if random.random() < 0.4:
        open(d + '/global-settings.xml', 'w').write(settings())
        args += ['--global-settings', 'global-settings.xml']
    if random.random() < 0.5:
        args.append('-Dfoo=bar')
    if random.random() < 0.3:
        args += ['-P', random.choice(['p1', '!p1', 'p2,-p1', '+p2', '!p3'])]
    if random.random() < 0.3:
        open(d + '/marker', 'w').write('x')
    args += ['--repo', 'central=https://repo.maven.apache.org/maven2']
    if random.random() < 0.5:
        args += ['--repo', 'r2=http://other/']
    open(d + '/args', 'w').write('\n'.join(args) + '\n')
    env = []
    if random.random() < 0.5:
        env.append('M2R_U=envuser')
    if random.random() < 0.3:
        env.append('M2R_URL=http://envurl/')
    if env:
        open(d + '/env', 'w').write('\n'.join(env) + '\n')
