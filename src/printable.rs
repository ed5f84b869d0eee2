//! Text for a terminal: values from settings files and servers may hold control characters
//! (Maven accepts raw ones in settings text) that a terminal would obey — an `ESC [2J` clears the
//! screen, a carriage return hides what came before, bidirectional overrides reorder text.
//! [`escape_for_terminal`] shows them as `\u{1b}` instead. Line feeds and tabs stay.
//!
//! Used by the human output of the CLI; machine output (`--json`) escapes through JSON itself.

use std::borrow::Cow;

fn needs_escape(c: char) -> bool {
    (c.is_control() && !matches!(c, '\n' | '\t'))
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// `text` with every control character (but `\n` and `\t`) and every invisible direction or
/// format character written as `\u{..}`.
///
/// ```
/// use m2resolver::printable::escape_for_terminal;
/// assert_eq!(escape_for_terminal("a\u{1b}[2Jb\n"), "a\\u{1b}[2Jb\n");
/// assert_eq!(escape_for_terminal("plain"), "plain");
/// ```
pub fn escape_for_terminal(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if needs_escape(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A value or body quoted in a message: escaped like a Rust string literal's content and cut to
/// `max` characters (with `…` when cut), so a hostile value can neither flood a message nor
/// drive a terminal.
///
/// ```
/// use m2resolver::printable::quote_prefix;
/// assert_eq!(quote_prefix("ab\u{1b}c", 80), "ab\\u{1b}c");
/// assert_eq!(quote_prefix(&"x".repeat(10), 4), "xxxx…");
/// ```
pub fn quote_prefix(text: &str, max: usize) -> String {
    let mut out: String = text
        .chars()
        .take(max)
        .flat_map(char::escape_debug)
        .collect();
    if text.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

/// An error and its causes on one line, `what: cause: cause` — each message once, walking
/// [`std::error::Error::source`] (no error of this crate repeats its cause in its message).
///
/// ```
/// use m2resolver::printable::error_chain;
/// let e = std::io::Error::other("disk full");
/// assert_eq!(error_chain(&e), "disk full");
/// ```
pub fn error_chain<E: std::error::Error + ?Sized>(error: &E) -> String {
    let mut out = error.to_string();
    let mut cause = error.source();
    while let Some(c) = cause {
        let text = c.to_string();
        // A foreign error (hyper, io) may quote its cause already: print it once.
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        cause = c.source();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_a_terminal_would_act_on() {
        let cases = [
            ("user\0name", "user\\u{0}name"),
            ("a\rb", "a\\u{d}b"),
            ("x\u{7f}\u{85}", "x\\u{7f}\\u{85}"),
            ("abc\u{202E}def", "abc\\u{202e}def"),
            ("tab\tand\nline", "tab\tand\nline"),
            ("café ☕", "café ☕"),
        ];
        for (input, want) in cases {
            assert_eq!(escape_for_terminal(input), want, "{input:?}");
        }
    }
}
