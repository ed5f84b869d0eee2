//! Versions: Resolver's `GenericVersionScheme` against the real classes Maven 3.8.7 ships
//! (`/usr/share/maven/lib/maven-resolver-util.jar`, run through one `java` process; fails
//! when Java or the jar is absent), and properties that hold for any input: no
//! panic, bounded time on long inputs, antisymmetry, and sorting that keeps every version.

mod java_probe;

use java_probe::enc;
use m2resolver::resolution::version::view::sort_versions;
use m2resolver::resolution::version::{Version, VersionConstraint};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use std::cmp::Ordering;
use std::path::Path;

const JAR: &str = "/usr/share/maven/lib/maven-resolver-util.jar";
const API_JAR: &str = "/usr/share/maven/lib/maven-resolver-api.jar";

const PROBE: &str = r#"
import java.nio.file.*;
import java.util.*;
import org.eclipse.aether.util.version.GenericVersionScheme;
import org.eclipse.aether.version.*;
public class VersionProbe {
  static String dec(String h) {
    if (h.equals("-")) return "";
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < h.length(); i += 4) sb.append((char) Integer.parseInt(h.substring(i, i + 4), 16));
    return sb.toString();
  }
  public static void main(String[] a) throws Exception {
    GenericVersionScheme scheme = new GenericVersionScheme();
    StringBuilder out = new StringBuilder();
    for (String line : Files.readAllLines(Paths.get(a[0]))) {
      String[] parts = line.split(" ", -1);
      try {
        if (parts[0].equals("S")) {
          List<Version> vs = new ArrayList<>();
          IdentityHashMap<Version, Integer> index = new IdentityHashMap<>();
          for (int i = 1; i < parts.length; i++) {
            Version v = scheme.parseVersion(dec(parts[i]));
            vs.add(v);
            index.put(v, i - 1);
          }
          Collections.sort(vs);
          Version prev = null;
          StringBuilder s = new StringBuilder();
          for (Version v : vs) {
            if (prev != null) s.append(prev.compareTo(v) == 0 ? "=" : "<");
            s.append(index.get(v));
            prev = v;
          }
          out.append(s);
        } else {
          VersionConstraint c = scheme.parseVersionConstraint(dec(parts[1]));
          StringBuilder s = new StringBuilder();
          for (int i = 2; i < parts.length; i++) s.append(c.containsVersion(scheme.parseVersion(dec(parts[i]))) ? '1' : '0');
          out.append("OK").append(s);
        }
      } catch (Exception e) {
        out.append("ERR");
      }
      out.append('\n');
    }
    System.out.print(out);
  }
}
"#;

/// Version-like strings built from the pieces that matter to the tokenizer.
fn random_version(rng: &mut impl Rng) -> String {
    const WORDS: &[&str] = &[
        "alpha",
        "ALPHA",
        "a",
        "A",
        "beta",
        "b",
        "B",
        "milestone",
        "m",
        "M",
        "rc",
        "RC",
        "cr",
        "snapshot",
        "SNAPSHOT",
        "ga",
        "GA",
        "final",
        "Final",
        "release",
        "sp",
        "SP",
        "min",
        "max",
        "MAX",
        "foo",
        "abc",
        "xyz",
        "jre",
        "android",
        "x",
        "z",
        "ı",
        "é",
        "Straße",
        "",
    ];
    const NUMBERS: &[&str] = &[
        "0",
        "00",
        "1",
        "01",
        "2",
        "9",
        "10",
        "999999999",
        "1000000000",
        "2147483648",
        "0000000000001",
        "123456789012345678901234567890",
        "٣",
        "１",
    ];
    const SEPS: &[&str] = &[".", "-", "_", ""];
    let n = rng.gen_range(0..6);
    let mut s = String::new();
    for i in 0..n {
        if i > 0 || rng.gen_bool(0.1) {
            s.push_str(SEPS[rng.gen_range(0..SEPS.len())]);
        }
        if rng.gen_bool(0.6) {
            s.push_str(NUMBERS[rng.gen_range(0..NUMBERS.len())]);
        } else {
            s.push_str(WORDS[rng.gen_range(0..WORDS.len())]);
        }
    }
    if rng.gen_bool(0.05) {
        s.push_str(SEPS[rng.gen_range(0..3)]);
    }
    s
}

fn ours_sorted(list: &[String]) -> String {
    let Ok(sorted) = sort_versions(list) else {
        return "ERR".into();
    };
    let mut out = String::new();
    for (ci, class) in sorted.classes.iter().enumerate() {
        for (vi, (position, _)) in class.iter().enumerate() {
            if ci > 0 || vi > 0 {
                out.push(if vi == 0 { '<' } else { '=' });
            }
            out.push_str(&position.to_string());
        }
    }
    out
}

#[test]
fn versions_and_ranges_match_resolver() {
    assert!(
        java_probe::java_available() && Path::new(JAR).is_file(),
        "the GenericVersionScheme differential test needs java and {JAR} (Debian's maven): \
         run `bash scripts/test.sh`"
    );
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x5e7);
    let mut sort_cases: Vec<Vec<String>> = Vec::new();
    for i in 0..3000 {
        // Mostly short lists (binary insertion sort), some long enough for TimSort's merges.
        let len = if i % 10 == 0 {
            rng.gen_range(32..300)
        } else {
            rng.gen_range(1..20)
        };
        sort_cases.push((0..len).map(|_| random_version(&mut rng)).collect());
    }
    // Inputs on which the order is not transitive: the sort's comparisons decide.
    for list in [
        ["0-a", "a", "ga-a"],
        ["ga-a", "a", "0-a"],
        ["a", "0-a", "ga-a"],
    ] {
        sort_cases.push(list.iter().map(|s| s.to_string()).collect());
    }
    const RANGES: &[&str] = &[
        "[1.0,2.0)",
        "(,1.0]",
        "[1.5]",
        "(,1.0],[1.2,)",
        "[1.2.*]",
        "[1,2],[3,4)",
        "(1,)",
        "[,]",
        "[ 1 , 2 ]",
        "[1",
        "(1)",
        "[2,1]",
        "[1,2,3]",
        "[1,2]x",
        "1.0",
        "",
        "[1.0-SNAPSHOT,1.0]",
        "[1.0-alpha,1.0-rc)",
        "[1.max]",
        "(1.min,1.max)",
        "[1,2] , (3,4)",
        "[1.*]",
    ];
    let mut range_cases: Vec<(String, Vec<String>)> = Vec::new();
    for r in RANGES {
        range_cases.push((
            r.to_string(),
            (0..30).map(|_| random_version(&mut rng)).collect(),
        ));
    }
    for _ in 0..300 {
        let (a, b) = (random_version(&mut rng), random_version(&mut rng));
        let open = ["[", "("][rng.gen_range(0..2)];
        let close = ["]", ")"][rng.gen_range(0..2)];
        let spec = match rng.gen_range(0..4) {
            0 => format!("{open}{a},{b}{close}"),
            1 => format!("{open},{b}{close}"),
            2 => format!("{open}{a},{close}"),
            _ => format!("{open}{a},{b}{close},[{b}]"),
        };
        range_cases.push((spec, (0..10).map(|_| random_version(&mut rng)).collect()));
    }
    let mut lines: Vec<String> = sort_cases
        .iter()
        .map(|l| {
            let mut s = "S".to_string();
            for v in l {
                s.push(' ');
                s.push_str(&enc(v));
            }
            s
        })
        .collect();
    for (spec, versions) in &range_cases {
        let mut s = format!("R {}", enc(spec));
        for v in versions {
            s.push(' ');
            s.push_str(&enc(v));
        }
        lines.push(s);
    }
    let classpath = std::env::join_paths([JAR, API_JAR]).unwrap();
    let java = java_probe::run(
        "VersionProbe.java",
        PROBE,
        Some(Path::new(&classpath)),
        &lines,
    );
    let mut mismatches = Vec::new();
    for (list, expected) in sort_cases.iter().zip(&java) {
        let ours = ours_sorted(list);
        if &ours != expected {
            mismatches.push(format!("sort {list:?}: java {expected} ours {ours}"));
        }
    }
    for ((spec, versions), expected) in range_cases.iter().zip(&java[sort_cases.len()..]) {
        let ours = match VersionConstraint::parse(spec) {
            Ok(c) => {
                let bits: String = versions
                    .iter()
                    .map(|v| {
                        if c.contains(&Version::parse(v)) {
                            '1'
                        } else {
                            '0'
                        }
                    })
                    .collect();
                format!("OK{bits}")
            }
            Err(_) => "ERR".into(),
        };
        if &ours != expected {
            mismatches.push(format!(
                "range {spec:?} on {versions:?}: java {expected} ours {ours}"
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} mismatches, first: {:#?}",
        mismatches.len(),
        &mismatches[..mismatches.len().min(5)]
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any text parses; comparison is reflexive and antisymmetric (Resolver's order is not
    /// transitive on some inputs, see `java_sort`, so transitivity is not claimed).
    #[test]
    fn any_text_is_a_version(a in any::<String>(), b in "[0-9a-zA-Z._-]{0,30}") {
        let (va, vb) = (Version::parse(&a), Version::parse(&b));
        prop_assert_eq!(va.cmp(&va), Ordering::Equal);
        prop_assert_eq!(va.cmp(&vb), vb.cmp(&va).reverse());
        let _ = VersionConstraint::parse(&a);
        let _ = VersionConstraint::parse(&format!("[{a},{b})"));
    }

    /// Sorting never loses or duplicates a version; it fails only where Java's sort throws
    /// (checked against Java above), never panics.
    #[test]
    fn sorting_keeps_every_version(list in prop::collection::vec("[0-9a-c.-]{0,8}", 0..80)) {
        if let Ok(sorted) = sort_versions(&list) {
            let mut positions: Vec<usize> = sorted.classes.iter().flatten().map(|e| e.0).collect();
            positions.sort_unstable();
            prop_assert_eq!(positions, (0..list.len()).collect::<Vec<_>>());
        }
    }

    /// On the versions people write (numbers, then an optional qualifier or word with a
    /// number), the order is total: transitive, and sorting puts neighbours in order.
    #[test]
    fn usual_versions_are_totally_ordered(
        list in prop::collection::vec(
            "[0-9]{1,3}(\\.[0-9]{1,3}){0,3}(-(alpha|beta|rc|RC|SNAPSHOT|sp|ga|final|foo|jre)[0-9]{0,2})?",
            1..60,
        )
    ) {
        let sorted = sort_versions(&list).unwrap();
        let all: Vec<&Version> = sorted.classes.iter().flatten().map(|e| &e.1).collect();
        for w in all.windows(2) {
            prop_assert!(w[0].cmp(w[1]) != Ordering::Greater, "{} > {}", w[0], w[1]);
        }
        for a in &all {
            for b in &all {
                if a.cmp(b) != Ordering::Less { continue; }
                for c in &all {
                    if b.cmp(c) != Ordering::Greater {
                        prop_assert_eq!(a.cmp(c), Ordering::Less, "{} < {} <= {}", a, b, c);
                    }
                }
            }
        }
    }
}

/// Long inputs stay linear: a 1 MB version of alternating digits and letters, and a
/// constraint of 10,000 ranges, parse and compare quickly (bounded by the test timeout, and
/// checked here with a generous limit that a quadratic tokenizer would exceed).
#[test]
fn long_inputs_are_bounded() {
    let started = std::time::Instant::now();
    let long: String = (0..100_000)
        .map(|i| if i % 2 == 0 { "1a" } else { "0-" })
        .collect();
    let v = Version::parse(&long);
    let w = Version::parse(&format!("{long}1"));
    assert_ne!(v.cmp(&w), Ordering::Equal);
    let ranges: Vec<String> = (0..10_000).map(|i| format!("[{i},{})", i + 1)).collect();
    let c = VersionConstraint::parse(&ranges.join(",")).unwrap();
    assert!(c.contains(&Version::parse("5000.5")));
    let zeros = "0.".repeat(200_000);
    assert_eq!(Version::parse(&zeros), Version::parse("0"));
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
}
