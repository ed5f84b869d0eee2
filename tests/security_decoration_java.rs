//! Differential test of Maven 3's `{...}` detection against the JDK itself: random values are
//! run through `java.util.regex` exactly as plexus-cipher 2.0 does (`matches() || find()` on
//! one matcher, then `group(1)`), and through `maven3_payload`. Fails when `java` is
//! absent (`scripts/test.sh` installs it). Bounded: 5000 values, one `java` process with a 120 s limit.

mod java_probe;

use m2resolver::security::maven3_payload;
use rand::{Rng, SeedableRng};

const PROBE: &str = r#"
import java.nio.file.*;
import java.util.*;
import java.util.regex.*;
public class Probe {
  static final Pattern P = Pattern.compile(".*?[^\\\\]?\\{(.*?[^\\\\])\\}.*");
  static String dec(String h) {
    if (h.equals("-")) return "";
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < h.length(); i += 4) sb.append((char) Integer.parseInt(h.substring(i, i + 4), 16));
    return sb.toString();
  }
  static String enc(String s) {
    if (s.isEmpty()) return "-";
    StringBuilder sb = new StringBuilder();
    for (char c : s.toCharArray()) sb.append(String.format("%04x", (int) c));
    return sb.toString();
  }
  public static void main(String[] a) throws Exception {
    StringBuilder out = new StringBuilder();
    for (String line : Files.readAllLines(Paths.get(a[0]))) {
      String s = dec(line);
      Matcher m = P.matcher(s);
      boolean ok = s.length() > 0 && (m.matches() || m.find());
      out.append(ok ? "Y" + enc(m.group(1)) : "N").append('\n');
    }
    System.out.print(out);
  }
}
"#;

use java_probe::enc;

#[test]
fn maven3_detection_matches_the_jdk() {
    assert!(
        java_probe::java_available(),
        "the JDK differential test needs java: run `bash scripts/test.sh`"
    );
    let alphabet = [
        '{', '}', '\\', '\n', '\r', 'a', 'b', ' ', 'é', '\u{2028}', '😀',
    ];
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x5ec);
    let mut values: Vec<String> = (0..5000)
        .map(|_| {
            let len = rng.gen_range(0..24);
            (0..len)
                .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
                .collect()
        })
        .collect();
    // The spec's rows, too.
    for v in [
        "x\n{abc}\ny",
        "{ab\nc}",
        "\\{abc}",
        "{a\\}b}",
        "a{b}c{d}",
        "}{abc}",
        "x\n{abc}",
        "{abc}\ny",
    ] {
        values.push(v.to_string());
    }
    let lines: Vec<String> = values.iter().map(|v| enc(v)).collect();
    let java = java_probe::run("Probe.java", PROBE, None, &lines);
    let mut mismatches = Vec::new();
    for (v, expected) in values.iter().zip(&java) {
        let ours = match maven3_payload(v) {
            Some(p) => format!("Y{}", enc(p)),
            None => "N".into(),
        };
        if &ours != expected {
            mismatches.push(format!("{v:?}: java {expected} ours {ours}"));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} mismatches, first: {:?}",
        mismatches.len(),
        &mismatches[..mismatches.len().min(10)]
    );
}
