//! The rules of the readers modello generates for Maven's formats (`SettingsXpp3Reader`,
//! `MavenXpp3Reader`, `MetadataXpp3Reader`, `SecurityConfigurationXpp3Reader`), applied to a
//! [`super::dom`] tree, with Maven's messages and positions.
//!
//! Those readers parse in one of two modes. Strict mode stops at an unknown element or
//! attribute, a wrong root element, or text between the elements of a class. Lenient mode
//! skips these; both stop at malformed XML, a single-valued element given twice, elements inside
//! a text element and text inside a list. A [`ModelReader`] walks leniently and keeps the first
//! strict complaint, so one walk answers both modes: settings and POMs report it as Maven's
//! strict-then-lenient reading does, metadata ignores it (read leniently only) and security
//! files fail on it (read strictly only).
//!
//! Values are trimmed as Java's `String.trim()` does ([`java_trim`]): characters up to U+0020,
//! not Unicode white space.

use super::dom::{LineIndex, Node, Pos, XmlError};

/// A rule broken at a byte offset of the text (turned into an [`XmlError`] by
/// [`ModelReader::error`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Complaint {
    /// Maven's message.
    pub(crate) message: String,
    /// Byte offset Maven reports it at.
    pub(crate) offset: usize,
}

impl Complaint {
    fn new(message: String, offset: usize) -> Self {
        Complaint { message, offset }
    }
}

/// A step of a reader: `Err` is fatal in both modes.
pub(crate) type Checked<T> = Result<T, Complaint>;

/// The reading of one document: positions and the first strict-only complaint.
pub(crate) struct ModelReader<'t> {
    index: LineIndex<'t>,
    strict_error: Option<Complaint>,
}

impl<'t> ModelReader<'t> {
    /// A reader of a tree parsed from `text`.
    pub(crate) fn new(text: &'t str) -> Self {
        ModelReader {
            index: LineIndex::new(text),
            strict_error: None,
        }
    }

    /// The line and column of a byte offset.
    pub(crate) fn pos(&self, offset: usize) -> Pos {
        self.index.pos(offset)
    }

    /// A fatal complaint as an error with its position.
    pub(crate) fn error(&self, complaint: Complaint) -> XmlError {
        XmlError::malformed(complaint.message, self.pos(complaint.offset))
    }

    /// Records a complaint only strict mode makes. Strict mode stops at the first one in
    /// document order, which is not always the first one a walk meets (the text of a class is
    /// checked before its children): the earliest offset wins, the first recorded on a tie.
    pub(crate) fn strict(&mut self, message: String, offset: usize) {
        if self
            .strict_error
            .as_ref()
            .is_none_or(|first| offset < first.offset)
        {
            self.strict_error = Some(Complaint::new(message, offset));
        }
    }

    /// The first strict-only complaint, as an error with its position.
    pub(crate) fn take_strict_error(&mut self) -> Option<XmlError> {
        self.strict_error.take().map(|c| self.error(c))
    }

    /// Where the first strict-only complaint stands, if any.
    pub(crate) fn strict_offset(&self) -> Option<usize> {
        self.strict_error.as_ref().map(|c| c.offset)
    }

    /// Strict mode wants the document element to be `expected`.
    pub(crate) fn root(&mut self, root: &Node, expected: &str) {
        if root.name != expected {
            self.strict(
                format!(
                    "Expected root element '{expected}' but found '{}'",
                    root.name
                ),
                root.after_start,
            );
        }
    }

    /// An element the model does not know: strict mode stops at it, lenient mode skips it.
    pub(crate) fn unknown(&mut self, node: &Node) {
        self.strict(
            format!("Unrecognised tag: '{}'", node.name),
            node.after_start,
        );
    }

    /// The attributes of a class element other than `known`, namespaced ones (`xsi:...`) and,
    /// on the document element only, `xmlns`: each is a strict-only complaint.
    pub(crate) fn attributes(&mut self, node: &Node, known: &[&str], root: bool) {
        for (name, _) in &node.attributes {
            if name.contains(':') || (root && name == "xmlns") || known.contains(&name.as_str()) {
                continue;
            }
            self.strict(
                format!("Unknown attribute '{}' for tag '{}'", name, node.name),
                node.after_start,
            );
        }
    }

    /// Text between the elements of a class: strict mode stops at it, lenient mode skips it.
    pub(crate) fn class_text(&mut self, node: &Node) {
        if let Some(offset) = node.stray_text {
            self.strict(not_text(node), offset);
        }
    }
}

/// Text inside a list or `<properties>`: the parser's own `nextTag()` refuses it in both
/// modes.
pub(crate) fn wrapper_text(node: &Node) -> Checked<()> {
    match node.stray_text {
        Some(offset) => Err(Complaint::new(not_text(node), offset)),
        None => Ok(()),
    }
}

fn not_text(node: &Node) -> String {
    format!(
        "expected START_TAG or END_TAG not TEXT inside <{}>",
        node.name
    )
}

/// The text of a text element, trimmed; `nextText()` refuses an element inside it.
pub(crate) fn leaf<'n>(node: &'n Node) -> Checked<&'n str> {
    if let Some(child) = node.children.first() {
        return Err(Complaint::new(
            format!(
                "TEXT must be immediately followed by END_TAG and not START_TAG (element <{}> inside <{}>)",
                child.name, node.name
            ),
            child.after_start,
        ));
    }
    Ok(java_trim(&node.text))
}

/// Which single-valued elements of a class were seen, for Maven's `Duplicated tag` rule.
#[derive(Default)]
pub(crate) struct Seen<'n>(Vec<&'n str>);

impl<'n> Seen<'n> {
    /// Marks `name` (the element's name, or the name an alias stands for) as seen in `node`'s
    /// parent; a second time is fatal.
    pub(crate) fn check(&mut self, name: &'n str, node: &Node) -> Checked<()> {
        if self.0.contains(&name) {
            return Err(Complaint::new(
                format!("Duplicated tag: '{name}'"),
                node.after_start,
            ));
        }
        self.0.push(name);
        Ok(())
    }
}

/// `String.trim()`: strips characters up to U+0020 at both ends.
pub(crate) fn java_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xml::dom::parse;

    #[test]
    fn java_trim_strips_controls_not_unicode_spaces() {
        let cases = [
            (" a ", "a"),
            ("\u{1b}a\t\r\n", "a"),
            ("\u{a0}a\u{2003}", "\u{a0}a\u{2003}"),
            ("\u{85}", "\u{85}"),
            ("", ""),
        ];
        for (input, trimmed) in cases {
            assert_eq!(java_trim(input), trimmed, "{input:?}");
        }
    }

    #[test]
    fn rules_and_positions() {
        let text = "<r a='1' xmlns='x' x:y='2'><l>t<i/></l><c>\n  x <d/></c><k>v<e/></k></r>";
        let root = parse(text).unwrap();
        let mut reader = ModelReader::new(text);
        reader.attributes(&root, &[], true);
        assert_eq!(
            reader.take_strict_error().unwrap().message,
            "Unknown attribute 'a' for tag 'r'"
        );
        reader.attributes(&root, &["a"], false);
        assert_eq!(
            reader.take_strict_error().unwrap().message,
            "Unknown attribute 'xmlns' for tag 'r'"
        );
        let list = wrapper_text(&root.children[0]).unwrap_err();
        assert_eq!(reader.pos(list.offset).column, 34, "after `<i`");
        reader.class_text(&root.children[1]);
        let class = reader.take_strict_error().unwrap();
        assert_eq!(
            (class.message.as_str(), class.pos),
            (
                "expected START_TAG or END_TAG not TEXT inside <c>",
                Some(Pos { line: 2, column: 7 })
            )
        );
        let e = leaf(&root.children[2]).unwrap_err();
        assert!(e
            .message
            .starts_with("TEXT must be immediately followed by END_TAG"));
        let mut seen = Seen::default();
        seen.check("k", &root.children[2]).unwrap();
        assert_eq!(
            seen.check("k", &root.children[2]).unwrap_err().message,
            "Duplicated tag: 'k'"
        );
    }
}
