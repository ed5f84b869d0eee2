//! A small positioned XML tree built with quick-xml, with the parser behaviour Maven's readers
//! (MXParser behind the modello-generated Xpp3 readers of settings, security files, metadata
//! and POMs) show on malformed input.
//!
//! The tree keeps, for every element, the positions Maven reports problems at: just after the
//! start tag, just after the end tag, and where stray text between child elements is reported.
//! Entities are the five XML ones, character references and the XHTML set Maven pre-declares;
//! nothing else is expanded, no DTD is ever loaded, and input size and nesting depth are
//! bounded so hostile files cannot exhaust memory or stack.
//!
//! As MXParser does: a character reference to something that is not an XML character (`&#0;`,
//! `&#27;`, `&#xD800;`, `&#xFFFE;`) is fatal, and so is a control character inside a comment;
//! raw control characters in text and attribute values are accepted (printing them is the
//! caller's business: human output escapes them). Files starting with a UTF-16 byte order mark
//! are read as UTF-16, as Maven's `XmlStreamReader` does. Attributes are checked for duplicates
//! in linear time (200,000 attributes parse in milliseconds, not minutes).
//!
//! Mapping the tree to a model is each format's job, with the rules of [`super::modello`].

use super::xhtml_entities;
use quick_xml::events::Event;
use quick_xml::Reader;
use std::borrow::Cow;

/// Largest XML input accepted (Maven has no limit; 1 MB settings files with 2,000 servers
/// exist). Callers reading files bound them first, usually lower.
pub const MAX_INPUT_BYTES: usize = 32 * 1024 * 1024;
/// Deepest element nesting accepted (settings files and POMs need about 10; configuration DOMs
/// a few more).
pub const MAX_DEPTH: usize = 256;

/// A 1-based line and column (columns count characters, as Maven does).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// An element of the tree. Names and text borrow from the input where no entity had to be
/// expanded; positions are byte offsets, turned into [`Pos`] by a [`LineIndex`] only when a
/// problem or an origin needs them.
#[derive(Debug, Clone, Default)]
pub struct Node<'a> {
    /// Qualified name as written.
    pub name: &'a str,
    /// Attributes (qualified name, unescaped value), in document order.
    pub attributes: Vec<(String, String)>,
    /// Child elements.
    pub children: Vec<Node<'a>>,
    /// All character data directly inside this element, concatenated and unescaped.
    pub text: Cow<'a, str>,
    /// Where Maven reports character data other than whitespace directly inside this element
    /// when none may stand there: just after the `<` and the next character of the tag that
    /// ends the first run of such text (how far MXParser has read when it sees the text).
    pub stray_text: Option<usize>,
    /// Offset of the `<` of the start tag.
    pub start: usize,
    /// Offset just after the start tag's `>`.
    pub after_start: usize,
    /// Offset just after the end tag's `>` (same as `after_start` for `<x/>`).
    pub after_end: usize,
}

/// What kind of failure an [`XmlError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum XmlErrorKind {
    /// The bytes could not be read as a document (encoding, no data, truncated, over a
    /// limit): what Maven reports as "Non-readable" rather than "Non-parseable".
    Unreadable,
    /// Not well-formed XML, or against a rule of the model reader.
    Malformed,
    /// An entity or character reference that does not resolve. The message names the
    /// reference, text a format holding secrets may choose not to print.
    Reference,
}

/// Why a document could not be read: Maven's message and where Maven reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XmlError {
    /// What went wrong, worded as Maven's parser and readers word it.
    pub message: String,
    /// Where, when Maven reports a position (it does not for end-of-input errors).
    pub pos: Option<Pos>,
    /// What kind of failure it is.
    pub kind: XmlErrorKind,
}

impl XmlError {
    /// A malformed document or a model rule broken at `pos`.
    pub fn malformed(message: impl Into<String>, pos: Pos) -> Self {
        XmlError {
            message: message.into(),
            pos: Some(pos),
            kind: XmlErrorKind::Malformed,
        }
    }

    fn reference(message: String, pos: Pos) -> Self {
        XmlError {
            message,
            pos: Some(pos),
            kind: XmlErrorKind::Reference,
        }
    }

    /// Input that cannot be read as a document at all.
    pub fn unreadable_input(message: impl Into<String>) -> Self {
        XmlError {
            message: message.into(),
            pos: None,
            kind: XmlErrorKind::Unreadable,
        }
    }

    /// True for what Maven reports as "Non-readable" rather than "Non-parseable".
    pub fn is_unreadable(&self) -> bool {
        self.kind == XmlErrorKind::Unreadable
    }
}

impl std::fmt::Display for XmlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)?;
        if let Some(pos) = self.pos {
            write!(f, " (line {}, column {})", pos.line, pos.column)?;
        }
        Ok(())
    }
}

impl std::error::Error for XmlError {}

/// Maps byte offsets to 1-based line and character column.
pub struct LineIndex<'a> {
    text: &'a str,
    line_starts: Vec<usize>,
    /// The last position answered (line start, byte offset, column): offsets mostly come in
    /// order, so the next column is counted from there (a POM written on one line would
    /// otherwise count from the line start for every element).
    last: std::cell::Cell<(usize, usize, usize)>,
}

impl<'a> LineIndex<'a> {
    /// Indexes the line starts of `text`.
    pub fn new(text: &'a str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex {
            text,
            line_starts,
            last: std::cell::Cell::new((0, 0, 0)),
        }
    }

    /// The position of a byte offset (clamped to the text).
    pub fn pos(&self, offset: usize) -> Pos {
        let offset = offset.min(self.text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let (last_start, last_offset, last_column) = self.last.get();
        let (from, counted) = if last_start == start && last_offset <= offset {
            (last_offset, last_column)
        } else {
            (start, 0)
        };
        let column = match self.text.get(from..offset) {
            Some(s) => {
                let column = counted + s.chars().count();
                self.last.set((start, offset, column));
                column
            }
            None => offset - start,
        };
        Pos {
            line: (line + 1) as u32,
            column: (column + 1) as u32,
        }
    }
}

/// Decodes the raw bytes of an XML file: UTF-8 (with or without BOM), UTF-16 with a byte
/// order mark, or ISO-8859-1 when the XML declaration says so. Invalid UTF-8 or UTF-16 is an
/// error that says where.
pub fn decode(bytes: &[u8]) -> Result<String, XmlError> {
    decode_with(bytes, false)
}

/// [`decode`], but as Java's decoders do: malformed input becomes U+FFFD instead of an error
/// (what Maven's `XmlStreamReader` reads).
pub fn decode_lossy(bytes: &[u8]) -> String {
    decode_with(bytes, true).unwrap_or_default()
}

fn decode_with(bytes: &[u8], lossy: bool) -> Result<String, XmlError> {
    if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        return decode_utf16(rest, u16::from_le_bytes, lossy);
    }
    if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        return decode_utf16(rest, u16::from_be_bytes, lossy);
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if declared_latin1(bytes) {
        return Ok(bytes.iter().map(|&b| b as char).collect());
    }
    if lossy {
        return Ok(String::from_utf8_lossy(bytes).into_owned());
    }
    String::from_utf8(bytes.to_vec()).map_err(|e| {
        XmlError::unreadable_input(format!(
            "invalid UTF-8 at byte {} (declare encoding=\"ISO-8859-1\" in the XML declaration or save the file as UTF-8)",
            e.utf8_error().valid_up_to()
        ))
    })
}

fn decode_utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16, lossy: bool) -> Result<String, XmlError> {
    let units = bytes.chunks_exact(2).map(|c| unit([c[0], c[1]]));
    let odd = !bytes.len().is_multiple_of(2);
    if lossy {
        let mut text: String = char::decode_utf16(units)
            .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect();
        if odd {
            text.push(char::REPLACEMENT_CHARACTER);
        }
        return Ok(text);
    }
    if odd {
        return Err(XmlError::unreadable_input(
            "the file starts with a UTF-16 byte order mark but has an odd number of bytes",
        ));
    }
    char::decode_utf16(units)
        .enumerate()
        .map(|(i, c)| {
            c.map_err(|_| {
                XmlError::unreadable_input(format!(
                    "invalid UTF-16 (unpaired surrogate) at byte {}",
                    2 + 2 * i
                ))
            })
        })
        .collect()
}

/// XML's white space (`S`): what MXParser skips between elements.
fn is_xml_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

/// XML 1.0's `Char` production: what a character reference may name.
fn is_xml_char(c: u32) -> bool {
    matches!(c, 0x9 | 0xA | 0xD | 0x20..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
}

/// A character MXParser refuses inside a comment: C0 controls but tab, LF and CR, and the
/// non-characters U+FFFE and U+FFFF.
fn illegal_in_comment(c: char) -> bool {
    (c < '\u{20}' && !matches!(c, '\t' | '\n' | '\r')) || matches!(c, '\u{FFFE}' | '\u{FFFF}')
}

fn declared_latin1(bytes: &[u8]) -> bool {
    if !bytes.starts_with(b"<?xml") {
        return false;
    }
    let end = bytes
        .iter()
        .position(|&b| b == b'>')
        .unwrap_or(bytes.len().min(200));
    let decl = String::from_utf8_lossy(&bytes[..end]).to_ascii_lowercase();
    [
        "iso-8859-1",
        "iso8859-1",
        "latin1",
        "latin-1",
        "windows-1252",
        "us-ascii",
    ]
    .iter()
    .any(|enc| decl.contains(&format!("\"{enc}\"")) || decl.contains(&format!("'{enc}'")))
}

/// Resolves `&name;` as Maven's reader does: the five XML entities and the XHTML set.
fn resolve_entity(name: &str) -> Option<char> {
    match name {
        "lt" => Some('<'),
        "gt" => Some('>'),
        "amp" => Some('&'),
        "apos" => Some('\''),
        "quot" => Some('"'),
        _ => xhtml_entities::lookup(name),
    }
}

/// Unescapes character data: entity and character references. On an unknown entity or a
/// reference to something that is not an XML character, returns Maven's message and the byte
/// offset just after the `;` within `raw`.
fn unescape(raw: &str) -> Result<Cow<'_, str>, (String, usize)> {
    if !raw.contains('&') {
        return Ok(Cow::Borrowed(raw));
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    let mut consumed = 0;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let Some(semi) = after.find(';') else {
            return Err((
                format!("could not resolve entity named '{after}'"),
                consumed + rest.len(),
            ));
        };
        let name = &after[..semi];
        let end = consumed + amp + 1 + semi + 1;
        if let Some(num) = name.strip_prefix('#') {
            let hex = num.strip_prefix('x').or_else(|| num.strip_prefix('X'));
            let code = match hex {
                Some(h) => u32::from_str_radix(h, 16).ok(),
                None => num.parse::<u32>().ok(),
            };
            match code.filter(|c| is_xml_char(*c)).and_then(char::from_u32) {
                Some(c) => out.push(c),
                None => {
                    let what = match hex {
                        Some(h) => format!("hex value {h}"),
                        None => format!("decimal value {num}"),
                    };
                    return Err((format!("character reference (with {what}) is invalid"), end));
                }
            }
        } else {
            match resolve_entity(name) {
                Some(c) => out.push(c),
                None => return Err((format!("could not resolve entity named '{name}'"), end)),
            }
        }
        consumed = end;
        rest = &raw[end..];
    }
    out.push_str(rest);
    Ok(Cow::Owned(out))
}

/// Parses `text` into a tree. The error mirrors what Maven's parser reports for the same input.
pub fn parse(text: &str) -> Result<Node<'_>, XmlError> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(XmlError::unreadable_input(format!(
            "input is {} bytes, more than the {} bytes m2resolver reads as XML",
            text.len(),
            MAX_INPUT_BYTES
        )));
    }
    if text.is_empty() {
        return Err(XmlError::unreadable_input("input contained no data"));
    }
    let pos = |offset: usize| LineIndex::new(text).pos(offset);
    let err_at = |message: String, offset: usize| XmlError::malformed(message, pos(offset));
    let reference_at = |message: String, offset: usize| XmlError::reference(message, pos(offset));
    let mut reader = Reader::from_str(text);
    {
        let config = reader.config_mut();
        config.trim_text(false);
        config.check_end_names = true;
        config.expand_empty_elements = false;
        config.check_comments = true;
    }
    let mut stack: Vec<Node<'_>> = Vec::new();
    let mut root: Option<Node<'_>> = None;
    // The innermost open element holds text other than white space whose position is known
    // only at the next tag (`Node::stray_text`).
    let mut stray_pending = false;
    loop {
        let before = reader.buffer_position() as usize;
        let event = match reader.read_event() {
            Ok(e) => e,
            Err(e) => {
                let at = reader.buffer_position() as usize;
                let line = stack
                    .last()
                    .map(|n| LineIndex::new(text).pos(n.start).line)
                    .unwrap_or(0);
                return Err(err_at(describe_quick_xml_error(&e, line), at));
            }
        };
        let after = reader.buffer_position() as usize;
        if stray_pending && matches!(event, Event::Start(_) | Event::Empty(_) | Event::End(_)) {
            stray_pending = false;
            if let Some(node) = stack.last_mut() {
                let next = text[before + 1..].chars().next().map_or(0, char::len_utf8);
                node.stray_text = Some(before + 1 + next);
            }
        }
        match event {
            Event::Start(_) | Event::Empty(_) => {
                let empty = matches!(event, Event::Empty(_));
                // Names borrow from the input: the tag's bytes are `text[before + 1 ..]`.
                let tag = &text[before + 1..after - if empty { 2 } else { 1 }];
                let name_len = tag
                    .find(|c: char| is_xml_space(c) || c == '/' || c == '>')
                    .unwrap_or(tag.len());
                let name = &tag[..name_len];
                if root.is_some() {
                    return Err(err_at(
                        format!("start tag not allowed in epilog but got {name}"),
                        before + 1 + name.len(),
                    ));
                }
                if stack.len() >= MAX_DEPTH {
                    return Err(err_at(
                        format!("elements nested deeper than {MAX_DEPTH} levels; m2resolver refuses such a file"),
                        after,
                    ));
                }
                let mut attributes = Vec::new();
                if name_len < tag.len() {
                    let (Event::Start(e) | Event::Empty(e)) = &event else {
                        continue;
                    };
                    // quick-xml's own duplicate check compares each attribute with every
                    // earlier one; a set keeps it linear.
                    let mut keys = std::collections::HashSet::new();
                    for attr in e.attributes().with_checks(false) {
                        let attr = attr.map_err(|err| {
                            err_at(format!("malformed attribute in <{name}>: {err}"), after)
                        })?;
                        let key = String::from_utf8_lossy(attr.key.as_ref()).into_owned();
                        if !keys.insert(key.clone()) {
                            return Err(err_at(
                                format!("duplicated attributes {key} and {key}"),
                                after,
                            ));
                        }
                        let raw = String::from_utf8_lossy(&attr.value).into_owned();
                        let value = unescape(&raw)
                            .map_err(|(message, _)| reference_at(message, after))?
                            .into_owned();
                        attributes.push((key, value));
                    }
                }
                let node = Node {
                    name,
                    attributes,
                    start: before,
                    after_start: after,
                    after_end: after,
                    ..Node::default()
                };
                if empty {
                    close(node, &mut stack, &mut root);
                } else {
                    stack.push(node);
                }
            }
            Event::End(_) => {
                let Some(mut node) = stack.pop() else {
                    return Err(err_at("end tag without start tag".into(), after));
                };
                node.after_end = after;
                close(node, &mut stack, &mut root);
            }
            Event::Text(_) => {
                let raw = &text[before..after];
                match stack.last_mut() {
                    Some(node) => {
                        let value = unescape(raw)
                            .map_err(|(message, end)| reference_at(message, before + end))?;
                        if node.stray_text.is_none()
                            && !stray_pending
                            && !value.chars().all(is_xml_space)
                        {
                            stray_pending = true;
                        }
                        append(&mut node.text, value);
                    }
                    None => {
                        if let Some(i) = raw.find(|c: char| !is_xml_space(c)) {
                            let c = raw[i..].chars().next().unwrap_or(' ');
                            let what = if root.is_some() {
                                format!(
                                    "in epilog non whitespace content is not allowed but got {c}"
                                )
                            } else {
                                format!(
                                    "only whitespace content allowed before start tag and not {c}"
                                )
                            };
                            return Err(err_at(what, before + i + 1));
                        }
                    }
                }
            }
            Event::CData(_) => {
                // `<![CDATA[` ... `]]>`
                let raw = text.get(before + 9..after.saturating_sub(3)).unwrap_or("");
                match stack.last_mut() {
                    Some(node) => {
                        if node.stray_text.is_none() && !raw.chars().all(is_xml_space) {
                            stray_pending = true;
                        }
                        append(&mut node.text, Cow::Borrowed(raw));
                    }
                    None => {
                        return Err(err_at(
                            "CDATA is not allowed outside the root element".into(),
                            after,
                        ));
                    }
                }
            }
            Event::Comment(_) => {
                let raw = &text[before..after];
                if let Some((i, c)) = raw.char_indices().find(|(_, c)| illegal_in_comment(*c)) {
                    return Err(err_at(
                        format!("Illegal character 0x{:x} found in comment", c as u32),
                        before + i + c.len_utf8(),
                    ));
                }
            }
            Event::Decl(_) | Event::PI(_) | Event::DocType(_) => {}
            Event::Eof => break,
        }
    }
    if !stack.is_empty() {
        let index = LineIndex::new(text);
        let open: Vec<String> = stack
            .iter()
            .rev()
            .map(|n| format!("</{}>", n.name))
            .collect();
        let from: Vec<String> = stack
            .iter()
            .rev()
            .map(|n| {
                format!(
                    "start tag <{}> from line {}",
                    n.name,
                    index.pos(n.start).line
                )
            })
            .collect();
        return Err(XmlError::unreadable_input(format!(
            "no more data available - expected end tags {} to close {}",
            open.join(""),
            from.join(" and ")
        )));
    }
    root.ok_or_else(|| {
        XmlError::unreadable_input("no more data available: the file holds no root element")
    })
}

fn append<'a>(text: &mut Cow<'a, str>, piece: Cow<'a, str>) {
    if text.is_empty() {
        *text = piece;
    } else if !piece.is_empty() {
        text.to_mut().push_str(&piece);
    }
}

fn close<'a>(node: Node<'a>, stack: &mut [Node<'a>], root: &mut Option<Node<'a>>) {
    match stack.last_mut() {
        Some(parent) => parent.children.push(node),
        None => *root = Some(node),
    }
}

fn describe_quick_xml_error(e: &quick_xml::Error, line: u32) -> String {
    use quick_xml::errors::{IllFormedError, SyntaxError};
    match e {
        quick_xml::Error::IllFormed(IllFormedError::MismatchedEndTag { expected, found }) => {
            format!(
                "end tag name </{found}> must match start tag name <{expected}> from line {line}"
            )
        }
        quick_xml::Error::IllFormed(IllFormedError::UnmatchedEndTag(name)) => {
            format!("end tag </{name}> without a matching start tag")
        }
        quick_xml::Error::Syntax(SyntaxError::UnclosedTag) => {
            "unclosed tag: expected >".to_string()
        }
        quick_xml::Error::Syntax(s) => format!("malformed XML: {s}"),
        other => format!("malformed XML: {other}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_follow_maven() {
        let text = "<settings>\n    <unknown>x</unknown>\n</settings>";
        let doc = parse(text).unwrap();
        let unknown = &doc.children[0];
        let index = LineIndex::new(text);
        let at = |offset| {
            let p = index.pos(offset);
            (p.line, p.column)
        };
        assert_eq!(at(unknown.after_start), (2, 14));
        assert_eq!(at(unknown.after_end), (2, 25));
        assert_eq!(unknown.text, "x");
    }

    #[test]
    fn entities_and_references() {
        let doc = parse("<a>x&amp;&#65;&#x42;&copy;&nbsp;<![CDATA[<y>]]></a>").unwrap();
        assert_eq!(doc.text, "x&AB\u{a9}\u{a0}<y>");
    }

    #[test]
    fn malformed_inputs_are_refused_with_positions() {
        let cases: &[(&str, Option<u32>, bool)] = &[
            ("", None, true),
            ("  \n", None, true),
            ("<settings>\n<servers>\n", None, true),
            ("<settings><id>a&foo;b</id></settings>", Some(1), false),
            ("<settings></settings>\nhello", Some(2), false),
            ("<settings></settings><x/>", Some(1), false),
            ("<settings>\n<a>\n</b></settings>", Some(3), false),
            (
                "<!DOCTYPE s [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>\n<s>&e;</s>",
                Some(2),
                false,
            ),
        ];
        for (input, line, unreadable) in cases {
            let err = parse(input).unwrap_err();
            assert_eq!(err.pos.map(|p| p.line), *line, "{input:?}: {err:?}");
            assert_eq!(err.is_unreadable(), *unreadable, "{input:?}: {err:?}");
        }
    }

    #[test]
    fn invalid_character_references_and_comment_controls_are_fatal_as_in_maven() {
        let cases: &[(&str, &str, u32)] = &[
            (
                "<s>\n<u>a&#0;b</u></s>",
                "character reference (with decimal value 0) is invalid",
                9,
            ),
            (
                "<s><u>a&#27;b</u></s>",
                "character reference (with decimal value 27) is invalid",
                13,
            ),
            (
                "<s><u>&#xD800;</u></s>",
                "character reference (with hex value D800) is invalid",
                15,
            ),
            (
                "<s><u>&#xFFFE;</u></s>",
                "character reference (with hex value FFFE) is invalid",
                15,
            ),
            (
                "<s a=\"&#1;\"/>",
                "character reference (with decimal value 1) is invalid",
                14,
            ),
            (
                "<s><!-- a\u{1b}b --></s>",
                "Illegal character 0x1b found in comment",
                11,
            ),
            ("<s a=\"1\" a=\"2\"/>", "duplicated attributes a and a", 17),
        ];
        for (input, message, column) in cases {
            let err = parse(input).unwrap_err();
            assert_eq!(err.message, *message, "{input:?}");
            assert_eq!(err.pos.unwrap().column, *column, "{input:?}: {err:?}");
        }
        // accepted as Maven accepts them
        let doc =
            parse("<s a=\"x\u{1b}\"><u>a\u{1b}&#9;&#x10000;&#127;</u><!-- \t --><?p \u{1}?></s>")
                .unwrap();
        assert_eq!(doc.children[0].text, "a\u{1b}\t\u{10000}\u{7f}");
        assert_eq!(doc.attributes[0].1, "x\u{1b}");
    }

    #[test]
    fn utf16_with_a_byte_order_mark_is_read() {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><s>caf\u{e9} \u{1F600}</s>";
        let le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        assert_eq!(decode(&le).unwrap(), text);
        assert_eq!(decode(&be).unwrap(), text);
        assert!(decode(&le[..le.len() - 1]).is_err());
        assert!(decode(&[0xFF, 0xFE, 0x00, 0xD8])
            .unwrap_err()
            .is_unreadable());
        // Read as Java's decoders read them: U+FFFD instead of an error.
        let cut = format!("{}\u{fffd}", &text[..text.len() - 1]);
        assert_eq!(decode_lossy(&le[..le.len() - 1]), cut);
        assert_eq!(decode_lossy(&[0xFF, 0xFE, 0x00, 0xD8]), "\u{fffd}");
        assert_eq!(decode_lossy(b"<s>a\xffb</s>"), "<s>a\u{fffd}b</s>");
        assert!(decode(b"<s>a\xffb</s>").unwrap_err().is_unreadable());
    }

    #[test]
    fn stray_text_is_placed_after_the_next_tags_first_character() {
        let text = "<a>\n  x &#32;<!-- c -->\n  <b/>y</a>";
        let doc = parse(text).unwrap();
        let at = LineIndex::new(text).pos(doc.stray_text.unwrap());
        assert_eq!((at.line, at.column), (3, 5), "the first run ends at `<b`");
        // White space, also from references, is not stray text; U+00A0 is.
        assert_eq!(parse("<a> &#32;\t<b/></a>").unwrap().stray_text, None);
        assert_eq!(parse("<a>&#160;<b/></a>").unwrap().stray_text, Some(11));
        assert_eq!(parse("<a><![CDATA[z]]></a>").unwrap().stray_text, Some(18));
    }

    #[test]
    fn many_attributes_are_kept_and_a_late_duplicate_is_found() {
        // The duplicate check is linear (a quadratic one took 30 s for 200,000 attributes); its
        // speed is measured by `cargo bench --bench settings -- settings_attributes`.
        let mut xml = String::from("<settings");
        for i in 0..200_000 {
            xml.push_str(&format!(" a{i}=\"v\""));
        }
        let whole = format!("{xml}/>");
        let doc = parse(&whole).unwrap();
        assert_eq!(doc.attributes.len(), 200_000);
        let duplicated = format!("{xml} a7=\"again\"/>");
        let err = parse(&duplicated).unwrap_err();
        assert!(err.message.contains("a7"), "{err:?}");
    }

    #[test]
    fn deep_nesting_is_refused() {
        let deep = "<a>".repeat(MAX_DEPTH + 5);
        let err = parse(&deep).unwrap_err();
        assert!(err.message.contains("nested deeper"), "{err:?}");
    }

    #[test]
    fn empty_elements_have_both_positions() {
        let doc = parse("<s><id/></s>").unwrap();
        assert_eq!(doc.children[0].name, "id");
        assert_eq!(doc.children[0].text, "");
    }
}
