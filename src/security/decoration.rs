//! Which values are encrypted, and where the payload is: the `{...}` decoration rules of
//! Maven 3 (plexus-cipher 2.0) and Maven 4 (plexus-sec-dispatcher 4.x). Pure functions.
//!
//! **Maven 3** (`DefaultPlexusCipher.isEncryptedString` / `unDecorate`): the Java regex
//! `.*?[^\\]?\{(.*?[^\\])\}.*` evaluated as `matcher.matches() || matcher.find()` on ONE
//! matcher. `.` excludes the Java line terminators (`\n \r \u0085 \u2028 \u2029`). The subtle
//! part is that a failed `matches()` leaves the matcher's internal `last` index where the
//! backtracking engine last advanced, and `find()` resumes from there, not from 0. So on
//! JDK 17 `x\n{abc}\ny` is NOT encrypted although a fresh `find()` would succeed.
//! [`maven3_payload`] computes that resume position ([`find_resume_index`]) from the shape of
//! the value and then runs the same regex, giving results identical to the JDK (checked by a
//! differential test against `java` in `tests/security_decoration_java.rs`).
//!
//! **Maven 4** (`DefaultSecDispatcher`): `{[name=...,version=...]payload}` with attributes as a
//! prefix block; legacy values are the first `{...}` with no attribute block.
//!
//! Not owned here: reading files, ciphers, caching.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use super::error::SecurityError;

/// Java's `.`: anything but a line terminator.
const DOT: &str = r"[^\n\r\x{85}\x{2028}\x{2029}]";

static MATCHES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"\A(?:{DOT}*?[^\\]?\{{({DOT}*?[^\\])\}}{DOT}*)\z"))
        .unwrap_or_else(|e| panic!("static regex: {e}"))
});
static FIND: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"{DOT}*?[^\\]?\{{({DOT}*?[^\\])\}}{DOT}*"))
        .unwrap_or_else(|e| panic!("static regex: {e}"))
});

fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// Where JDK 17's `Matcher.find()` resumes after `matches()` failed on `value` (byte offset).
///
/// During the failed `matches()` the outer lazy `.*?` walks to the first line terminator `E`
/// (or the end); the last position the engine records is then: `E + 1` after `[^\\]?` consumed
/// the terminator, or, if a `{` follows the terminator, the end of the line after that brace
/// reached by the group's lazy `.*?` (if it advanced at all). With no line terminator the
/// engine ends at the end of the value, and `find()` has nothing left to search.
pub(crate) fn find_resume_index(value: &str) -> usize {
    let Some((e, term)) = value.char_indices().find(|(_, c)| is_line_terminator(*c)) else {
        return value.len();
    };
    let after_term = e + term.len_utf8();
    if !value[after_term..].starts_with('{') {
        return after_term;
    }
    let group_start = after_term + 1;
    let line_end = value[group_start..]
        .char_indices()
        .find(|(_, c)| is_line_terminator(*c))
        .map_or(value.len(), |(i, _)| group_start + i);
    if line_end > group_start {
        line_end
    } else {
        after_term
    }
}

/// Maven 3's `unDecorate`: the payload of an encrypted value, or `None` when Maven 3 treats the
/// value as plain text (`isEncryptedString` false). Text around the braces is a comment.
///
/// ```
/// use m2resolver::security::maven3_payload;
/// assert_eq!(maven3_payload("{abc}"), Some("abc"));
/// assert_eq!(maven3_payload("reset on 2009-03-11 {abc} ok"), Some("abc"));
/// assert_eq!(maven3_payload("\\{abc\\}"), None);
/// assert_eq!(maven3_payload("{}"), None);
/// ```
pub fn maven3_payload(value: &str) -> Option<&str> {
    if value.is_empty() {
        return None;
    }
    if let Some(c) = MATCHES.captures(value) {
        return c.get(1).map(|m| m.as_str());
    }
    let from = find_resume_index(value);
    if from > value.len() {
        return None;
    }
    FIND.captures_at(value, from)
        .and_then(|c| c.get(1))
        .map(|m| m.as_str())
}

/// plexus-sec-dispatcher 2.0 `stripAttributes`: the `[k=v, ...]` block anywhere in the payload
/// (first `[`, first `]`), tokens split on `,` and space, tokens without `=` ignored.
/// `None` when there is no block or it is empty.
pub(crate) fn maven3_attributes(bare: &str) -> Option<HashMap<String, String>> {
    let start = bare.find('[')?;
    let stop = bare.find(']')?;
    if stop <= start || stop == start + 1 {
        return None;
    }
    let attrs = bare[start + 1..stop].trim();
    if attrs.is_empty() {
        return None;
    }
    let mut out = HashMap::new();
    for pair in attrs.split([',', ' ']).filter(|t| !t.is_empty()) {
        if let Some(pos) = pair.find('=') {
            out.insert(
                pair[..pos].trim().to_string(),
                pair[pos + 1..].trim().to_string(),
            );
        }
    }
    Some(out)
}

/// A Maven 4 encrypted value split into its parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Maven4Value<'a> {
    /// Attributes in the order written (keys and values trimmed).
    pub attributes: Vec<(String, String)>,
    /// Everything after the first `]`.
    pub payload: &'a str,
}

impl Maven4Value<'_> {
    /// The value of an attribute (the last one wins, as in a Java HashMap).
    pub fn attribute(&self, key: &str) -> Option<&str> {
        self.attributes
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// plexus-sec-dispatcher 4.x `stripAttributes`: `Ok(None)` for `[]` / blank (Java returns
/// null there), `Ok(Some(empty))` with no block.
fn maven4_attributes(bare: &str) -> Result<Option<Vec<(String, String)>>, SecurityError> {
    let mut out = Vec::new();
    let (Some(start), Some(stop)) = (bare.find('['), bare.find(']')) else {
        return Ok(Some(out));
    };
    if stop <= start {
        return Ok(Some(out));
    }
    if start != 0 {
        return Err(SecurityError::MalformedAttributes {
            reason: "attributes can be prefix only".into(),
        });
    }
    let attrs = bare[start + 1..stop].trim();
    if attrs.is_empty() {
        return Ok(None);
    }
    for pair in attrs.split(',').filter(|t| !t.is_empty()) {
        let Some(pos) = pair.find('=') else {
            return Err(SecurityError::MalformedAttributes {
                reason: format!("attribute malformed: '{}'", pair.trim()),
            });
        };
        out.push((
            pair[..pos].trim().to_string(),
            pair[pos + 1..].trim().to_string(),
        ));
    }
    Ok(Some(out))
}

/// The part between the outer braces if `value` is `{...}` with no other brace inside.
fn shielded(value: &str) -> Option<&str> {
    if value.trim().is_empty()
        || value.len() < 2
        || !value.starts_with('{')
        || !value.ends_with('}')
    {
        return None;
    }
    let inner = &value[1..value.len() - 1];
    (!inner.contains(['{', '}'])).then_some(inner)
}

/// Maven 4 `isEncryptedString`: `{[name=...,...,version=...]payload}`. Values whose attribute
/// block is malformed count as not encrypted here (Maven 4 throws).
pub(crate) fn maven4_parse(value: &str) -> Option<Maven4Value<'_>> {
    let inner = shielded(value)?;
    let attributes = maven4_attributes(inner).ok()??;
    let has = |k: &str| attributes.iter().any(|(key, _)| key == k);
    if !(has("name") && has("version")) {
        return None;
    }
    let payload = &inner[inner.find(']').map_or(0, |i| i + 1)..];
    Some(Maven4Value {
        attributes,
        payload,
    })
}

/// True for the Maven 4 attribute form `{[name=...,version=...]...}`.
///
/// ```
/// use m2resolver::security::is_maven4_encrypted;
/// assert!(is_maven4_encrypted("{[name=master,cipher=AES/GCM/NoPadding,version=4.0]abc=}"));
/// assert!(!is_maven4_encrypted("{abc=}"));
/// ```
pub fn is_maven4_encrypted(value: &str) -> bool {
    maven4_parse(value).is_some()
}

/// Maven 4 `isLegacyEncryptedString`: the inner text of the first `{...}` (text around it is
/// allowed) when it has no nested brace and no attribute block.
pub fn maven4_legacy_payload(value: &str) -> Option<&str> {
    if value.trim().is_empty() {
        return None;
    }
    let open = value.find('{')?;
    let close = open + value[open..].find('}')?;
    let inner = &value[open + 1..close];
    if inner.contains('{') {
        return None;
    }
    match maven4_attributes(inner) {
        Ok(Some(attrs)) if attrs.is_empty() => Some(inner),
        _ => None,
    }
}

/// Whether Maven 4's settings builder decrypts a settings value (§7.5 of the spec): non-empty,
/// no `${`, encrypted in either format, and a legacy value must start with `{` or contain
/// ` {`, and end with `}`.
///
/// ```
/// use m2resolver::security::maven4_settings_decrypts;
/// assert!(maven4_settings_decrypts("Hello Oleg {L6L/HbmrY+cH+sNkphnq3fguYepTpM04WlIXb8nB1pk=}"));
/// assert!(!maven4_settings_decrypts("whatever {foo}.txt"));
/// assert!(!maven4_settings_decrypts("${foo}.txt"));
/// ```
pub fn maven4_settings_decrypts(value: &str) -> bool {
    if value.is_empty() || value.contains("${") {
        return false;
    }
    if is_maven4_encrypted(value) {
        return true;
    }
    maven4_legacy_payload(value).is_some()
        && (value.starts_with('{') || value.contains(" {"))
        && value.ends_with('}')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// §7.1 and cipher-test-vectors §1.4, plus JDK 17 observations for newlines.
    #[test]
    fn maven3_decoration_table() {
        let b64 = "CN8zjCyFVJMHzTZ1aN1b9MrccParOENbG1kHa+aes0M=";
        let oleg =
            format!("Oleg reset this password on 2009-03-11, expires on 2009-04-11 {{{b64}}}");
        let cases: Vec<(&str, Option<&str>)> = vec![
            ("{abc}", Some("abc")),
            (&oleg, Some(b64)),
            ("Oleg reset this password on 2009-03-11 {abc}", Some("abc")),
            ("x {abc} y", Some("abc")),
            ("prefix{abc}suffix", Some("abc")),
            ("This is a test", None),
            (
                "Comment {This is a test} other comment with a: }",
                Some("This is a test"),
            ),
            ("\\{This is a test\\}", None),
            (
                "Comment {foo\\{This is a test\\}} other comment with a: }",
                Some("foo\\{This is a test\\}"),
            ),
            ("{}", None),
            ("\\{abc\\}", None),
            ("\\{abc}", Some("abc")),
            ("{abc\\}def}", Some("abc\\}def")),
            ("{a\\}b}", Some("a\\}b")),
            ("{{abc}}", Some("abc")),
            ("}{abc}", Some("abc")),
            ("a{b}c{d}", Some("b")),
            ("x\n{abc}\ny", None),
            ("{ab\nc}", None),
            ("{abc", None),
            ("", None),
            // JDK 17 observations (see module docs): find() resumes after the failed matches().
            ("x\n{abc}", Some("abc")),
            ("{abc}\ny", None),
            ("x{abc}\ny", None),
            ("\n{abc}", Some("abc")),
            ("ab\ncd{abc}", Some("abc")),
            ("a\n\n{abc}", Some("abc")),
            ("x\r{abc}", Some("abc")),
        ];
        for (value, expected) in cases {
            assert_eq!(maven3_payload(value), expected, "{value:?}");
        }
    }

    #[test]
    fn maven3_attribute_table() {
        assert_eq!(maven3_attributes("abc"), None);
        assert_eq!(maven3_attributes("[]abc"), None);
        assert_eq!(maven3_attributes("[  ]abc"), None);
        assert_eq!(maven3_attributes("]x[abc"), None);
        let a = maven3_attributes("[type=foo, a=b c]xyz").unwrap();
        assert_eq!(a.get("type").map(String::as_str), Some("foo"));
        assert_eq!(a.get("a").map(String::as_str), Some("b"));
        assert_eq!(a.len(), 2);
        let a = maven3_attributes("x[type=]y").unwrap();
        assert_eq!(a.get("type").map(String::as_str), Some(""));
    }

    /// cipher-test-vectors §2.3.
    #[test]
    fn maven4_detection_table() {
        let long = "12345678901234567890123456789012345678901234567890";
        let cases: Vec<(String, bool, bool)> = vec![
            ("".into(), false, false),
            ("foo".into(), false, false),
            ("{foo}".into(), false, true),
            ("Oleg was here {foo}".into(), false, true),
            ("Oleg {foo} was here".into(), false, true),
            (format!("{{{long}}}"), false, true),
            (format!("{{{long}}} Oleg was here"), false, true),
            (format!("Oleg {{{long}}} was here"), false, true),
            ("{KDvsYOFLlX{}gH4LU8tvpzAGg5otiosZXvfdQq0yO86LU=}".into(), false, false),
            ("Oleg was here {KDvsYOFLlX{}gH4LU8tvpzAGg5otiosZXvfdQq0yO86LU=}".into(), false, false),
            ("{KDvsYOFLlXgH4LU8tvpzAGg5otiosZXvfdQq0yO86LU=}".into(), false, true),
            ("Oleg was here {KDvsYOFLlXgH4LU8tvpzAGg5otiosZXvfdQq0yO86LU=}".into(), false, true),
            (
                "{[name=master,cipher=AES/GCM/NoPadding,version=4.0,a=b]vvq66pZ7rkvzSPStGTI9q4QDnsmuDwo+LtjraRel2b0XpcGJFdXcYAHAS75HUA6GLpcVtEkmyQ==}".into(),
                true,
                false,
            ),
            ("{[version=4.0, name = master ]abc}".into(), true, false),
            ("{[name=master]abc}".into(), false, false),
            ("{[]abc}".into(), false, false),
            ("{abc[name=x,version=1]}".into(), false, false),
        ];
        for (value, current, legacy) in cases {
            assert_eq!(is_maven4_encrypted(&value), current, "current {value:?}");
            assert_eq!(
                maven4_legacy_payload(&value).is_some(),
                legacy,
                "legacy {value:?}"
            );
        }
        let v = maven4_parse("{[version=4.0, name = master ,cipher=X]pay=}").unwrap();
        assert_eq!(v.attribute("name"), Some("master"));
        assert_eq!(v.attribute("cipher"), Some("X"));
        assert_eq!(v.payload, "pay=");
    }

    /// cipher-test-vectors §2.4.
    #[test]
    fn maven4_settings_rule_table() {
        let p = "L6L/HbmrY+cH+sNkphnq3fguYepTpM04WlIXb8nB1pk=";
        let cases: Vec<(String, bool)> = vec![
            ("%{foo}.txt".into(), false),
            ("${foo}.txt".into(), false),
            ("whatever {foo}.txt".into(), false),
            ("whatever".into(), false),
            (format!("Hello Oleg {{{p}}} is this a password?"), false),
            (format!("{{{p}}}"), true),
            (format!("Hello Oleg {{{p}}}"), true),
            (
                "{[name=master,cipher=AES/GCM/NoPadding,version=4.0]abc}".into(),
                true,
            ),
        ];
        for (value, expected) in cases {
            assert_eq!(maven4_settings_decrypts(&value), expected, "{value:?}");
        }
    }
}
