//! Java `.properties` files as Maven Resolver writes its tracking files (`_remote.repositories`,
//! `*.lastUpdated`, `resolver-status.properties`): `key=value` lines, `#` comments, `\` escapes
//! for `:`, `=`, `\`, spaces and non-printable characters. Only what those files use is supported
//! (no line continuations on write; they are accepted on read).

use std::collections::BTreeMap;

/// Parses properties text. Later keys override earlier ones.
pub fn parse(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut logical = String::new();
    for raw in text.lines() {
        let line = raw.trim_start();
        if logical.is_empty() && (line.is_empty() || line.starts_with('#') || line.starts_with('!'))
        {
            continue;
        }
        // continuation: odd number of trailing backslashes
        let trailing = line.chars().rev().take_while(|&c| c == '\\').count();
        if trailing % 2 == 1 {
            logical.push_str(&line[..line.len() - 1]);
            continue;
        }
        logical.push_str(line);
        let (k, v) = split_key_value(&logical);
        out.insert(unescape(&k), unescape(&v));
        logical.clear();
    }
    if !logical.is_empty() {
        let (k, v) = split_key_value(&logical);
        out.insert(unescape(&k), unescape(&v));
    }
    out
}

fn split_key_value(line: &str) -> (String, String) {
    let mut key_end = line.len();
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '=' | ':' | ' ' | '\t' => {
                key_end = i;
                break;
            }
            _ => {}
        }
    }
    let key = line[..key_end].to_string();
    let mut rest = line[key_end..].trim_start_matches([' ', '\t']);
    if let Some(r) = rest.strip_prefix(['=', ':']) {
        rest = r.trim_start_matches([' ', '\t']);
    }
    (key, rest.to_string())
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('f') => out.push('\u{c}'),
            Some('u') => {
                let hex: String = it.by_ref().take(4).collect();
                if let Some(ch) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    out.push(ch);
                }
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

fn escape(s: &str, is_key: bool) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    for (i, c) in s.chars().enumerate() {
        match c {
            '\\' => out.push_str("\\\\"),
            ':' | '=' | '#' | '!' => {
                out.push('\\');
                out.push(c);
            }
            ' ' if is_key || i == 0 => out.push_str("\\ "),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                out.push_str(&format!("\\u{:04X}", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

/// Renders properties with the given comment lines first (each prefixed with `#`).
pub fn render(props: &BTreeMap<String, String>, comments: &[&str]) -> String {
    let mut out = String::new();
    for c in comments {
        out.push('#');
        out.push_str(c);
        out.push('\n');
    }
    for (k, v) in props {
        out.push_str(&escape(k, true));
        out.push('=');
        out.push_str(&escape(v, false));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_of_resolver_keys() {
        let mut p = BTreeMap::new();
        p.insert("foo-1.0.jar>central".to_string(), String::new());
        p.insert(
            "http://127.0.0.1:8080/r/.lastUpdated".to_string(),
            "1700000000000".to_string(),
        );
        p.insert(
            "http://127.0.0.1:8080/r/.error".to_string(),
            "Could not transfer: x=y".to_string(),
        );
        p.insert("a b".to_string(), " v".to_string());
        let text = render(&p, &["NOTE: x", "date"]);
        assert!(text.starts_with("#NOTE: x\n#date\n"));
        assert!(text.contains("foo-1.0.jar>central=\n"), "{text}");
        assert!(
            text.contains("http\\://127.0.0.1\\:8080/r/.lastUpdated=1700000000000"),
            "{text}"
        );
        assert_eq!(parse(&text), p);
    }

    #[test]
    fn java_syntax_variants() {
        let p = parse("  a : b\n! comment\nc=d\\\n   e\nf\tg\nh\nu=\\u00e9\n");
        assert_eq!(p["a"], "b");
        assert_eq!(p["c"], "de");
        assert_eq!(p["f"], "g");
        assert_eq!(p["h"], "");
        assert_eq!(p["u"], "é");
        assert_eq!(p.len(), 5);
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_parse() {
        use crate::download::properties::{parse, render};
        let p = parse("#c\nfoo-1.jar>central=\nhttps\\://h/r/.lastUpdated=17\n");
        assert_eq!(
            p.get("https://h/r/.lastUpdated").map(String::as_str),
            Some("17")
        );
        assert!(render(&p, &[]).contains("https\\://h/r/.lastUpdated=17"));
    }
}
