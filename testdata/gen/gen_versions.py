#!/usr/bin/env python3
"""Writes the `versions-*` cases of testdata/deps/ and asks the oracle (deps.sh versions) for each.

    python3 gen_versions.py            # rewrite the inputs, then answer every versions-* case
    python3 gen_versions.py --no-answer

Hand-made cases cover one rule each (qualifier ranks and aliases, case, separators, digit/letter
transitions, leading zeros, big numbers, trailing-zero and release padding, min/max, unknown words,
Unicode digits, non-transitive inputs); `versions-random-*` are random lists (seed 11) from the same
building blocks, some longer than 32 so Java's TimSort merges runs.
"""
import random
import sys

from collect_lib import DEPS, answer_all, reset_cases, write_case

HAND = {
    "qualifier-ranks": "1-sp 1 1-ga 1-final 1-release 1-snapshot 1-rc 1-cr 1-milestone 1-beta 1-alpha 1-foo 1-z",
    "qualifier-letters": "1a1 1b1 1m1 1-a 1-b 1-m 1-a-1 1.a.1 1alpha1 1beta1 1milestone1",
    "qualifier-case": "1.0-ALPHA 1.0-alpha 1.0-Alpha 1.0-RC1 1.0-rc1 1.0-Rc-1 1.0-SNAPSHOT 1.0-snapshot 1.0-GA 1.0-Final",
    "separators": "1.2.3 1-2-3 1_2_3 1.2-3 1..2 1.-2 1-.2 1._2 -1 .1 _1 1- 1. 1_",
    "transitions": "1a 1-a a1 a-1 1a1 1-a-1 a1b2 1.0a 1.0-a 1rc 1.0rc1 1.0-rc-1 2.0.0.RELEASE 2.0.0RELEASE",
    "leading-zeros": "01 1 001 0.1 00.1 1.01 1.1 1.001 0 00 000 0.0",
    "big-numbers": "999999999 1000000000 2147483647 2147483648 9223372036854775807 9223372036854775808 "
                   "123456789012345678901234567890 0000000000123 123 1.999999999 1.1000000000",
    "padding": "1 1.0 1.0.0 1-0 1.0-0 1-ga 1.0-final 1.0.0.0.0 1-0-ga-0 1.0-0.0 1.0-ga-1 1.0.0-1",
    "padding-mixed": "1-alpha 1.0-alpha 1.0.0-alpha 1-0-alpha 1.0.1-ga 1.0.1 1-alpha-0 1-alpha.0.0",
    "min-max": "1.min 1 1.0 1.max 2.min 2 1.max.1 1-max 1.2.max 1.2.min min max 1.MAX 1.MIN",
    "unknown-words": "1.0-foo 1.0-bar 1.0-sp 1.0-SP1 1.0-jre 1.0-android 1.0-Foo 1.0-foo1 1.0.1 1.0-z",
    "real-world": "31.1-jre 31.1-android 32.0.0-jre 30.1.1-jre 4.13.2 4.13-beta-3 4.13-rc-2 4.13 "
                  "5.3.9.RELEASE 5.3.9 2.0.0-M1 2.0.0-RC1 2.0.0 1.7.36 2.0.0-alpha1 1.10.19 1.9",
    "snapshots": "1.0-SNAPSHOT 1.0 1.0-20230101.120000-1 1.0-rc-SNAPSHOT 1.1-SNAPSHOT 0.9",
    "separators-only": "0 - . -- 1 a A _ --- .-_",
    "unicode-digits": "1.٢ 1.2 １.２ 1.२ 1.๒ 1.3",
    "unicode-words": "1-é 1-e 1-É 1-ı 1-i 1-I 1-Straße 1-STRASSE 1-ß",
    "non-transitive-1": "0-a a ga-a",
    "non-transitive-2": "ga-a a 0-a",
    "non-transitive-3": "a 0-a ga-a",
    "non-transitive-4": "ga 0 final-a 0-a a 1",
    "stable-equal": "1.0 1 1.0.0 1-ga 1.0-final 1.0.0.0",
    "descending-run": "9 8 7 6 5 4 3 2 1 0",
    "long-sorted-run": " ".join(str(i) for i in range(40)),
    "long-descending": " ".join(str(40 - i) + ".0" for i in range(45)),
}


def usual_list(rng, n):
    """Versions as people write them (numbers, then an optional qualifier): a total order, so
    long lists sort without Java's "Comparison method violates its general contract"."""
    quals = ["alpha", "beta", "rc", "RC", "SNAPSHOT", "ga", "final", "sp", "jre", "android", "M", "CR"]
    out = []
    for _ in range(n):
        v = ".".join(str(rng.choice([0, 0, 1, 2, 3, 10, 11])) for _ in range(rng.randint(1, 4)))
        if rng.random() < 0.4:
            v += "-" + rng.choice(quals) + rng.choice(["", "1", "2", "-1", ".3"])
        out.append(v)
    return out


def random_list(rng, n):
    """Anything the tokenizer distinguishes; short lists only (these mixes are often not
    transitive, and Java's TimSort throws on long ones)."""
    words = ["alpha", "a", "beta", "b", "m", "milestone", "rc", "cr", "SNAPSHOT", "ga", "final",
             "release", "sp", "foo", "jre", "x", "min", "max", "RC", "Final"]
    nums = ["0", "00", "1", "2", "10", "01", "999999999", "1000000000", "20230101"]
    seps = [".", "-", "_", ""]
    out = []
    for _ in range(n):
        parts = []
        for i in range(rng.randint(1, 5)):
            if i:
                parts.append(rng.choice(seps))
            parts.append(rng.choice(nums) if rng.random() < 0.65 else rng.choice(words))
        out.append("".join(parts))
    return out


def main():
    rng = random.Random(11)
    names = []
    for name, text in HAND.items():
        versions = text.split(" ")
        names.append("versions-" + name)
        write_case(names[-1], ["versions"] + versions, readme=f"Version order: {name.replace('-', ' ')}.")
    for i in range(30):
        n = rng.choice([3, 8, 15, 25, 40, 70])
        versions = random_list(rng, n) if n < 32 else usual_list(rng, n)
        names.append(f"versions-random-{i:02d}")
        write_case(names[-1], ["versions"] + versions, readme="Random version list (gen_versions.py, seed 11).")
    reset_cases("versions-", set(names))
    if "--no-answer" not in sys.argv:
        ok = answer_all([f"{DEPS}/{n}" for n in names])
        sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
