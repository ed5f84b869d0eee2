//! One version string as Maven Resolver 1.6.3's `GenericVersion` reads and orders it.
//!
//! A version is split into items at `.`, `-`, `_` and at every transition between digits and
//! non-digits. Numbers (any size; leading zeros do not count) compare numerically; the
//! qualifiers `alpha`/`a`, `beta`/`b`, `milestone`/`m` (the one-letter forms only when a number
//! follows), `rc`/`cr`, `snapshot`, the release forms (`""`, `ga`, `final`, `release`) and `sp`
//! have fixed ranks below every other word; other words compare case-insensitively; `min` and
//! `max` as the last item are the smallest and greatest versions with their prefix. Where a number
//! meets a word, the shorter side is padded with `0` / release items until the kinds agree, and
//! trailing padding is dropped when parsing (`1.0.0` = `1` = `1-ga`).
//!
//! Every input is a version (the scheme never rejects one); parsing is linear in the input.

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

/// A parsed version: the original text and its items.
///
/// ```
/// use m2resolver::resolution::version::Version;
/// let v = |s: &str| Version::parse(s);
/// assert!(v("1.0-alpha-1") < v("1.0-beta"));
/// assert!(v("1.0-rc1") < v("1.0-SNAPSHOT"));
/// assert!(v("1.0-SNAPSHOT") < v("1.0"));
/// assert_eq!(v("1.0.0"), v("1-ga"));
/// assert!(v("1.0") < v("1.0-sp") && v("1.0-sp") < v("1.0-foo") && v("1.0-foo") < v("1.0.1"));
/// assert_eq!(v("1.0-RC1").to_string(), "1.0-RC1");
/// ```
#[derive(Clone)]
pub struct Version {
    text: Arc<str>,
    items: Arc<[Item]>,
}

/// One item of a version, in the kind order Resolver uses (`MIN` < qualifier < word < number <
/// big number < `MAX`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Item {
    /// `min` as the last item.
    Min,
    /// A well-known qualifier with its rank (alpha −5 … release 0, sp 1).
    Qualifier(i32),
    /// Any other word, lower-cased.
    Word(Box<str>),
    /// A number of at most nine digits.
    Int(u32),
    /// A number of ten digits or more: ASCII digits without leading zeros.
    BigInt(Box<str>),
    /// `max` as the last item.
    Max,
}

const QUALIFIER_ALPHA: i32 = -5;
const QUALIFIER_BETA: i32 = -4;
const QUALIFIER_MILESTONE: i32 = -3;

/// The well-known qualifiers and their ranks (`GenericVersion.Tokenizer.QUALIFIERS`, matched
/// case-insensitively).
const QUALIFIERS: &[(&str, i32)] = &[
    ("alpha", QUALIFIER_ALPHA),
    ("beta", QUALIFIER_BETA),
    ("milestone", QUALIFIER_MILESTONE),
    ("cr", -2),
    ("rc", -2),
    ("snapshot", -1),
    ("ga", 0),
    ("final", 0),
    ("release", 0),
    ("", 0),
    ("sp", 1),
];

impl Item {
    fn kind(&self) -> u8 {
        match self {
            Item::Min => 0,
            Item::Qualifier(_) => 2,
            Item::Word(_) => 3,
            Item::Int(_) => 4,
            Item::BigInt(_) => 5,
            Item::Max => 8,
        }
    }

    /// Numbers, `min` and `max` are "number" items; qualifiers and words are not.
    fn is_number(&self) -> bool {
        !matches!(self, Item::Qualifier(_) | Item::Word(_))
    }

    /// Comparison with the padding item (`0` or release).
    fn cmp_padding(&self) -> Ordering {
        match self {
            Item::Min => Ordering::Less,
            Item::Max | Item::BigInt(_) | Item::Word(_) => Ordering::Greater,
            Item::Int(n) => n.cmp(&0),
            Item::Qualifier(q) => q.cmp(&0),
        }
    }

    fn cmp_item(&self, other: &Item) -> Ordering {
        match (self, other) {
            (Item::Qualifier(a), Item::Qualifier(b)) => a.cmp(b),
            (Item::Int(a), Item::Int(b)) => a.cmp(b),
            (Item::BigInt(a), Item::BigInt(b)) => a.len().cmp(&b.len()).then_with(|| a.cmp(b)),
            (Item::Word(a), Item::Word(b)) => compare_ignore_case(a, b),
            _ => self.kind().cmp(&other.kind()),
        }
    }
}

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Item::Min => f.write_str("min"),
            Item::Max => f.write_str("max"),
            Item::Qualifier(q) => f.write_str(match q {
                -5 => "alpha",
                -4 => "beta",
                -3 => "milestone",
                -2 => "rc",
                -1 => "snapshot",
                0 => "ga",
                _ => "sp",
            }),
            Item::Word(w) => f.write_str(w),
            Item::Int(n) => write!(f, "{n}"),
            Item::BigInt(n) => f.write_str(n),
        }
    }
}

impl Version {
    /// Parses a version; every string is a version (an empty one reads as `0`).
    pub fn parse(text: &str) -> Version {
        let mut items = Tokenizer::new(text).collect::<Vec<_>>();
        trim_padding(&mut items);
        Version {
            text: Arc::from(text),
            items: Arc::from(items),
        }
    }

    /// The text the version was parsed from.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The items compared, for diagnostics: `1.0-RC1` → `1`, `rc`, `1` (qualifiers by their
    /// canonical name, words lower-cased, trailing padding dropped).
    pub fn items(&self) -> Vec<String> {
        self.items.iter().map(ToString::to_string).collect()
    }

    /// [`Version::items`] joined with `, `.
    pub fn describe_items(&self) -> String {
        self.items().join(", ")
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Debug for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Version({:?})", &*self.text)
    }
}

impl PartialEq for Version {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Version {}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Version {
    /// `GenericVersion.compareTo`: item by item; where one side is a number and the other is not
    /// (or one side has ended), the rest of the longer side is compared with padding.
    fn cmp(&self, other: &Self) -> Ordering {
        let (these, those) = (&*self.items, &*other.items);
        let mut number = true;
        let mut index = 0;
        loop {
            match (these.get(index), those.get(index)) {
                (None, None) => return Ordering::Equal,
                (None, Some(_)) => return compare_padding(those, index, None).reverse(),
                (Some(_), None) => return compare_padding(these, index, None),
                (Some(a), Some(b)) => {
                    if a.is_number() != b.is_number() {
                        return if number == a.is_number() {
                            compare_padding(these, index, Some(number))
                        } else {
                            compare_padding(those, index, Some(number)).reverse()
                        };
                    }
                    let rel = a.cmp_item(b);
                    if rel != Ordering::Equal {
                        return rel;
                    }
                    number = a.is_number();
                }
            }
            index += 1;
        }
    }
}

fn compare_padding(items: &[Item], index: usize, number: Option<bool>) -> Ordering {
    let mut rel = Ordering::Equal;
    for item in &items[index..] {
        if number.is_some_and(|n| n != item.is_number()) {
            break;
        }
        rel = item.cmp_padding();
        if rel != Ordering::Equal {
            break;
        }
    }
    rel
}

/// `GenericVersion.trimPadding`: from the end, drop padding items (`0`, release qualifiers) that
/// end a run of items of the same kind (numbers or not); the first item always stays.
fn trim_padding(items: &mut Vec<Item>) {
    if items.is_empty() {
        return;
    }
    let mut number: Option<bool> = None;
    let mut end = items.len() - 1;
    let mut i = end;
    while i > 0 {
        let item_number = items[i].is_number();
        if number != Some(item_number) {
            end = i;
            number = Some(item_number);
        }
        if end == i
            && (i == items.len() - 1 || items[i - 1].is_number() == item_number)
            && items[i].cmp_padding() == Ordering::Equal
        {
            items.remove(i);
            // `end` may wrap only when i == 0, which the loop never reaches.
            end -= 1;
        }
        i -= 1;
    }
}

/// Splits a version into items (`GenericVersion.Tokenizer`). Characters are read as Java reads
/// them (UTF-16 units), so only Basic Multilingual Plane digits count as digits.
struct Tokenizer<'a> {
    text: &'a str,
    /// Byte index of the next character.
    index: usize,
}

impl<'a> Tokenizer<'a> {
    fn new(text: &'a str) -> Self {
        Tokenizer {
            text: if text.is_empty() { "0" } else { text },
            index: 0,
        }
    }
}

impl Iterator for Tokenizer<'_> {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        let text = self.text;
        let n = text.len();
        if self.index >= n {
            return None;
        }
        // -2: nothing yet; -1: letters; 0: only zeros so far; 1: a number.
        let mut state: i8 = -2;
        let mut start = self.index;
        let mut end = n;
        let mut terminated_by_number = false;
        let base = self.index;
        for (offset, c) in text[base..].char_indices() {
            let at = base + offset;
            if c == '.' || c == '-' || c == '_' {
                end = at;
                self.index = at + 1;
                break;
            }
            match java_digit(c) {
                Some(digit) => {
                    if state == -1 {
                        end = at;
                        terminated_by_number = true;
                        self.index = at;
                        break;
                    }
                    if state == 0 {
                        // A leading zero: skip it (Java advances one UTF-16 unit; the zero
                        // before it is a single unit of the same width as this digit's run).
                        start = next_char_start(text, start);
                    }
                    state = if state > 0 || digit > 0 { 1 } else { 0 };
                }
                None => {
                    if state >= 0 {
                        end = at;
                        self.index = at;
                        break;
                    }
                    state = -1;
                }
            }
            self.index = at + c.len_utf8();
        }
        let last = self.index >= n;
        if end > start {
            let token = &text[start..end];
            if state >= 0 {
                Some(number_item(token))
            } else {
                Some(word_item(token, last, terminated_by_number))
            }
        } else {
            Some(Item::Int(0))
        }
    }
}

fn next_char_start(text: &str, at: usize) -> usize {
    at + text[at..].chars().next().map_or(1, char::len_utf8)
}

fn number_item(token: &str) -> Item {
    let digits: String = token
        .chars()
        .map(|c| char::from(b'0' + java_digit(c).unwrap_or(0)))
        .collect();
    // Java counts UTF-16 units; every decimal digit is one unit.
    if token.chars().count() < 10 {
        Item::Int(digits.parse().unwrap_or(0))
    } else {
        let trimmed = digits.trim_start_matches('0');
        Item::BigInt(if trimmed.is_empty() { "0" } else { trimmed }.into())
    }
}

fn word_item(token: &str, last: bool, terminated_by_number: bool) -> Item {
    if last {
        if java_equals_ignore_case(token, "min") {
            return Item::Min;
        }
        if java_equals_ignore_case(token, "max") {
            return Item::Max;
        }
    }
    if terminated_by_number && token.chars().count() == 1 && token.len() == 1 {
        match token.as_bytes()[0] {
            b'a' | b'A' => return Item::Qualifier(QUALIFIER_ALPHA),
            b'b' | b'B' => return Item::Qualifier(QUALIFIER_BETA),
            b'm' | b'M' => return Item::Qualifier(QUALIFIER_MILESTONE),
            _ => {}
        }
    }
    if let Some((_, rank)) = QUALIFIERS
        .iter()
        .find(|(q, _)| java_equals_ignore_case(token, q))
    {
        return Item::Qualifier(*rank);
    }
    Item::Word(token.to_lowercase().into())
}

/// Zero digits of the decimal digit runs of the Basic Multilingual Plane (Java 17's
/// `Character.digit(c, 10) >= 0`: Unicode `Nd`, 37 runs of ten).
const DIGIT_ZEROS: &[u32] = &[
    0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66,
    0xde6, 0xe50, 0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90,
    0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10,
];

/// Java's `Character.digit(c, 10)` for a character Java sees as one UTF-16 unit.
fn java_digit(c: char) -> Option<u8> {
    let cp = c as u32;
    if c.is_ascii_digit() {
        return Some((cp - 0x30) as u8);
    }
    if !(0x660..=0xffff).contains(&cp) {
        return None;
    }
    let i = DIGIT_ZEROS.partition_point(|&z| z <= cp);
    let zero = DIGIT_ZEROS[i.checked_sub(1)?];
    (cp - zero < 10).then(|| (cp - zero) as u8)
}

/// Java's per-character simple case folding (`Character.toUpperCase` then `toLowerCase`; a
/// character whose mapping is more than one character keeps itself, as Java's simple mapping).
fn fold_char(c: char) -> char {
    fn single(mut mapped: impl Iterator<Item = char>, c: char) -> char {
        match (mapped.next(), mapped.next()) {
            (Some(m), None) => m,
            _ => c,
        }
    }
    let upper = single(c.to_uppercase(), c);
    single(upper.to_lowercase(), upper)
}

/// `String.compareToIgnoreCase` (Java 17, code point by code point).
fn compare_ignore_case(a: &str, b: &str) -> Ordering {
    if a.is_ascii() && b.is_ascii() {
        let (x, y) = (a.as_bytes(), b.as_bytes());
        for (p, q) in x.iter().zip(y) {
            let (p, q) = (p.to_ascii_lowercase(), q.to_ascii_lowercase());
            if p != q {
                return p.cmp(&q);
            }
        }
        return x.len().cmp(&y.len());
    }
    let mut ai = a.chars();
    let mut bi = b.chars();
    loop {
        match (ai.next(), bi.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(p), Some(q)) => {
                if p == q {
                    continue;
                }
                let (fp, fq) = (fold_char(p), fold_char(q));
                if fp != fq {
                    return fp.cmp(&fq);
                }
            }
        }
    }
}

fn java_equals_ignore_case(a: &str, b: &str) -> bool {
    compare_ignore_case(a, b) == Ordering::Equal
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s)
    }

    #[test]
    fn items_of_versions() {
        let cases: &[(&str, &[&str])] = &[
            ("1", &["1"]),
            ("1.0.0", &["1"]),
            ("1-ga", &["1"]),
            ("", &["0"]),
            ("0", &["0"]),
            ("007", &["7"]),
            ("1a1", &["1", "alpha", "1"]),
            ("1-a", &["1", "a"]),
            ("1.0-rc1", &["1", "rc", "1"]),
            ("1..2", &["1", "0", "2"]),
            ("-1", &["0", "1"]),
            ("1-", &["1"]),
            ("1.max", &["1", "max"]),
            ("1.max.2", &["1", "max", "2"]),
            ("12345678901", &["12345678901"]),
            ("0000000000001", &["1"]),
            ("1.0.0.0-0.0", &["1"]),
            ("1-0-final-0", &["1"]),
            ("١٢", &["12"]),
        ];
        for (text, items) in cases {
            assert_eq!(v(text).items(), *items, "{text}");
        }
    }

    #[test]
    fn ordering_table() {
        // Each row ascending; adjacent entries strictly less unless joined by '='.
        let rows: &[&[&str]] = &[
            &[
                "1-alpha",
                "1-beta",
                "1-milestone",
                "1-rc",
                "1-snapshot",
                "1",
                "1-sp",
                "1-abc",
                "1.1",
            ],
            &["1a1", "1b1", "1m1", "1rc1", "1"],
            &["1.0-alpha1", "1.0-alpha2", "1.0-alpha10"],
            &["1.min", "1", "1.1", "1.max", "2"],
            &["1", "1.0.1"],
            &["999999999", "1000000000", "12345678901"],
            &["1.0-a", "1.0-b", "1.0-z"],
        ];
        for row in rows {
            for w in row.windows(2) {
                assert!(v(w[0]) < v(w[1]), "{} < {}", w[0], w[1]);
                assert!(v(w[1]) > v(w[0]), "{} > {}", w[1], w[0]);
            }
        }
        let equal: &[(&str, &str)] = &[
            ("1", "1.0.0"),
            ("1-ga", "1.final"),
            ("1.RELEASE", "1"),
            ("1-CR1", "1rc1"),
            ("1.ABC", "1.abc"),
            ("1-1", "1.1"),
            ("1_1", "1.1"),
            ("01", "1"),
            ("1A1", "1-alpha-1"),
        ];
        for (a, b) in equal {
            assert_eq!(v(a), v(b), "{a} = {b}");
        }
    }

    #[test]
    fn unicode_digits_are_numbers() {
        assert_eq!(java_digit('٣'), Some(3));
        assert_eq!(java_digit('９'), Some(9));
        assert_eq!(java_digit('a'), None);
        assert_eq!(java_digit('𝟘'), None); // outside the BMP: a surrogate pair in Java
        assert_eq!(v("１.２"), v("1.2"));
    }
}
