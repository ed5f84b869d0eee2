//! Differential test of the Maven 3 cipher against the real plexus-cipher classes Maven 3.8.7
//! ships (`/usr/share/maven/lib/plexus-cipher.jar`, `DefaultPlexusCipher.decryptDecorated`):
//! valid values, values with junk characters inserted (the lenient base64 decoder drops
//! them), truncated and corrupted values, and wrong passwords. Fails when `java` or the jar
//! is absent (`scripts/test.sh` installs them). Bounded: 1500 values, one `java` process, 120 s limit.

mod java_probe;

use std::path::Path;

use m2resolver::security::{decrypt_password, encrypt_password};
use rand::{Rng, SeedableRng};

const JAR: &str = "/usr/share/maven/lib/plexus-cipher.jar";

const PROBE: &str = r#"
import java.nio.file.*;
import org.sonatype.plexus.components.cipher.DefaultPlexusCipher;
public class CipherProbe {
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
    DefaultPlexusCipher cipher = new DefaultPlexusCipher();
    StringBuilder out = new StringBuilder();
    for (String line : Files.readAllLines(Paths.get(a[0]))) {
      String[] parts = line.split(" ");
      try {
        String clear = cipher.decryptDecorated(dec(parts[0]), dec(parts[1]));
        out.append("OK").append(enc(clear));
      } catch (Exception e) {
        out.append("ERR");
      }
      out.append('\n');
    }
    System.out.print(out);
  }
}
"#;

use java_probe::enc;

#[test]
fn maven3_cipher_matches_plexus_cipher() {
    assert!(
        java_probe::java_available() && Path::new(JAR).is_file(),
        "the plexus-cipher differential test needs java and {JAR} (Debian's maven): run `bash scripts/test.sh`"
    );
    let mut rng = rand::rngs::StdRng::seed_from_u64(0xc1f);
    let junk = [
        '[', ']', ' ', '\n', '!', '=', 'é', '{', '}', '\\', 'A', '/', '+',
    ];
    let mut cases: Vec<(String, String)> = Vec::new();
    for i in 0..1500 {
        let master = format!("m{}", i % 7);
        let clear: String = (0..rng.gen_range(1..40))
            .map(|_| rng.gen_range(' '..='~'))
            .collect();
        let mut value: Vec<char> = encrypt_password(&clear, &master).chars().collect();
        match i % 6 {
            0 => {}
            1 => {
                for _ in 0..rng.gen_range(1..4) {
                    let at = rng.gen_range(1..value.len());
                    value.insert(at, junk[rng.gen_range(0..junk.len())]);
                }
            }
            2 => {
                let cut = rng.gen_range(1..value.len());
                value.truncate(cut);
            }
            3 => {
                let at = rng.gen_range(1..value.len() - 1);
                value[at] = junk[rng.gen_range(0..junk.len())];
            }
            4 => {
                value = (0..rng.gen_range(0..30))
                    .map(|_| junk[rng.gen_range(0..junk.len())])
                    .collect()
            }
            _ => {
                cases.push((value.iter().collect(), "wrong".into()));
                continue;
            }
        }
        cases.push((value.iter().collect(), master));
    }
    let lines: Vec<String> = cases
        .iter()
        .map(|(v, pw)| format!("{} {}", enc(v), enc(pw)))
        .collect();
    let java = java_probe::run("CipherProbe.java", PROBE, Some(Path::new(JAR)), &lines);
    let mut mismatches = Vec::new();
    let mut successes = 0;
    for ((v, pw), expected) in cases.iter().zip(&java) {
        let ours = match decrypt_password(v, pw) {
            Ok(s) => format!("OK{}", enc(s.expose())),
            Err(_) => "ERR".into(),
        };
        successes += usize::from(ours.starts_with("OK"));
        // A wrong password passes the padding check about once in 256 tries and yields
        // garbage that is not UTF-8; Java and Rust substitute U+FFFD for invalid sequences
        // slightly differently, so for garbage only "both decoded" is compared.
        let garbage = expected.starts_with("OK") && expected.contains("fffd");
        if garbage && ours.starts_with("OK") {
            continue;
        }
        if &ours != expected {
            mismatches.push(format!("{v:?} / {pw}: java {expected} ours {ours}"));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} mismatches, first: {:?}",
        mismatches.len(),
        &mismatches[..mismatches.len().min(5)]
    );
    assert!(
        successes > 400,
        "too few successful decryptions ({successes}) to mean anything"
    );
}
