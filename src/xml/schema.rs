//! Reading a tree by a format's schema into [`XNode`]s, as a modello-generated reader does.
//!
//! A format describes its model classes as tables ([`Class`]: the elements of each class,
//! their [`Kind`], the attributes it accepts); [`read`] walks a [`super::dom`] tree once by
//! them, with the rules of [`super::modello`], and keeps the known elements only, aliases
//! normalised (`organisation` → `organization`), text trimmed. The format then maps the
//! [`XNode`] tree to its own types. POMs, `maven-metadata.xml` and the security files read this
//! way; settings map the tree directly (it is faster for 1 MB files and they need the typed
//! errors of each field).

use super::dom::{Node, Pos, XmlError};
use super::modello::{java_trim, leaf, wrapper_text, Checked, ModelReader, Seen};

/// An element as Maven's reader keeps it: known elements only, aliases normalised
/// (`organisation` → `organization`), text trimmed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct XNode {
    /// Element name.
    pub name: String,
    /// Trimmed text (for text elements and configuration DOMs).
    pub text: String,
    /// Attributes Maven keeps (trimmed values), in document order.
    pub attrs: Vec<(String, String)>,
    /// Child elements.
    pub children: Vec<XNode>,
    /// Where the element starts (its `<`).
    pub pos: Pos,
}

impl XNode {
    /// The first child with this name.
    pub fn child(&self, name: &str) -> Option<&XNode> {
        self.children.iter().find(|c| c.name == name)
    }

    /// The text of the first child with this name.
    pub fn child_text(&self, name: &str) -> Option<&str> {
        self.child(name).map(|c| c.text.as_str())
    }

    /// The items of the list child `name` (`<versions><version>`...), none when it is absent.
    pub fn items(&self, name: &str) -> impl Iterator<Item = &XNode> {
        self.child(name).into_iter().flat_map(|c| &c.children)
    }

    /// The value of an attribute.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// How an element is read.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind {
    /// Text (strings, booleans, numbers: all kept as text).
    Text,
    /// A nested class.
    Obj(&'static Class),
    /// A wrapper of `item` elements: text items (`None`) or class items.
    List(&'static str, Option<&'static Class>),
    /// `<properties>`-like: any child name, text values.
    Props,
    /// A free-form DOM (plugin configuration, goals, reports).
    Dom,
}

/// One element of a class.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Field {
    pub(crate) name: &'static str,
    pub(crate) alias: Option<&'static str>,
    pub(crate) kind: Kind,
}

/// A model class: its elements and the attributes it accepts. The class read at the document
/// element names the root element strict mode expects.
#[derive(Debug)]
pub(crate) struct Class {
    pub(crate) name: &'static str,
    pub(crate) attrs: &'static [&'static str],
    pub(crate) fields: &'static [Field],
}

/// An element of `kind`.
pub(crate) const fn f(name: &'static str, kind: Kind) -> Field {
    Field {
        name,
        alias: None,
        kind,
    }
}

/// A text element.
pub(crate) const fn t(name: &'static str) -> Field {
    f(name, Kind::Text)
}

/// A list of `item` elements of `class`.
pub(crate) const fn list(name: &'static str, item: &'static str, class: &'static Class) -> Field {
    f(name, Kind::List(item, Some(class)))
}

/// A list of `item` text elements.
pub(crate) const fn texts(name: &'static str, item: &'static str) -> Field {
    f(name, Kind::List(item, None))
}

/// A class without attributes.
pub(crate) const fn class(name: &'static str, fields: &'static [Field]) -> Class {
    Class {
        name,
        attrs: &[],
        fields,
    }
}

/// A tree read by a schema.
#[derive(Debug, Clone)]
pub(crate) struct SchemaRead {
    /// The document element (whatever it was called) with the known elements.
    pub(crate) root: XNode,
    /// The first complaint strict mode would have stopped at, if any.
    pub(crate) strict_error: Option<XmlError>,
}

/// Reads `root`, parsed from `text`, by `class` leniently, remembering the first complaint only
/// strict mode makes. The error is what stops both modes.
pub(crate) fn read(text: &str, root: &Node, class: &Class) -> Result<SchemaRead, XmlError> {
    let mut walker = Walker {
        reader: ModelReader::new(text),
    };
    walker.reader.root(root, class.name);
    match walker.class(root, class, true) {
        Ok(root) => Ok(SchemaRead {
            root,
            strict_error: walker.reader.take_strict_error(),
        }),
        Err(fatal) => Err(walker.reader.error(fatal)),
    }
}

/// Reads `root`, parsed from `text`, by `class` strictly: the first complaint of either kind,
/// in document order, is the error.
pub(crate) fn read_strict(text: &str, root: &Node, class: &Class) -> Result<XNode, XmlError> {
    let mut walker = Walker {
        reader: ModelReader::new(text),
    };
    walker.reader.root(root, class.name);
    let walked = walker.class(root, class, true);
    let strict_first = match (&walked, walker.reader.strict_offset()) {
        (_, None) => false,
        (Ok(_), Some(_)) => true,
        (Err(fatal), Some(strict)) => strict <= fatal.offset,
    };
    if strict_first {
        return Err(walker
            .reader
            .take_strict_error()
            .expect("a strict complaint was recorded"));
    }
    walked.map_err(|fatal| walker.reader.error(fatal))
}

struct Walker<'t> {
    reader: ModelReader<'t>,
}

impl Walker<'_> {
    fn node(&self, n: &Node, name: &str) -> XNode {
        XNode {
            name: name.to_string(),
            pos: self.reader.pos(n.start),
            ..XNode::default()
        }
    }

    fn leaf(&self, n: &Node, name: &str) -> Checked<XNode> {
        let mut x = self.node(n, name);
        x.text = leaf(n)?.to_string();
        Ok(x)
    }

    fn class(&mut self, n: &Node, class: &Class, root: bool) -> Checked<XNode> {
        let mut x = self.node(n, n.name);
        self.reader.attributes(n, class.attrs, root);
        for (name, value) in &n.attributes {
            if class.attrs.contains(&name.as_str()) {
                x.attrs.push((name.clone(), java_trim(value).to_string()));
            }
        }
        self.reader.class_text(n);
        let mut seen = Seen::default();
        for c in &n.children {
            let Some(field) = class
                .fields
                .iter()
                .find(|f| f.name == c.name || f.alias == Some(c.name))
            else {
                self.reader.unknown(c);
                continue;
            };
            seen.check(field.name, c)?;
            let child = match field.kind {
                Kind::Text => self.leaf(c, field.name)?,
                Kind::Obj(inner) => {
                    let mut o = self.class(c, inner, false)?;
                    o.name = field.name.to_string();
                    o
                }
                Kind::List(item, item_kind) => {
                    wrapper_text(c)?;
                    let mut list = self.node(c, field.name);
                    for i in &c.children {
                        if i.name != item {
                            self.reader.unknown(i);
                            continue;
                        }
                        let element = match item_kind {
                            Some(inner) => {
                                let mut o = self.class(i, inner, false)?;
                                o.name = item.to_string();
                                o
                            }
                            None => self.leaf(i, item)?,
                        };
                        list.children.push(element);
                    }
                    list
                }
                Kind::Props => {
                    wrapper_text(c)?;
                    let mut props = self.node(c, field.name);
                    for p in &c.children {
                        props.children.push(self.leaf(p, p.name)?);
                    }
                    props
                }
                Kind::Dom => self.dom(c),
            };
            x.children.push(child);
        }
        Ok(x)
    }

    /// A free-form configuration DOM (Xpp3Dom, values trimmed).
    fn dom(&self, n: &Node) -> XNode {
        let mut x = self.node(n, n.name);
        x.text = java_trim(&n.text).to_string();
        x.attrs = n.attributes.clone();
        x.children = n.children.iter().map(|c| self.dom(c)).collect();
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xml::dom::parse;

    static ITEM: Class = class("item", &[t("a"), t("b")]);
    static DOC: Class = Class {
        name: "doc",
        attrs: &["v"],
        fields: &[
            t("x"),
            list("items", "item", &ITEM),
            texts("names", "name"),
            f("props", Kind::Props),
        ],
    };

    fn strict(text: &str) -> Result<XNode, String> {
        let root = parse(text).unwrap();
        read_strict(text, &root, &DOC).map_err(|e| e.to_string())
    }

    #[test]
    fn strict_reading_reports_the_first_complaint_in_document_order() {
        let cases: &[(&str, Result<&str, &str>)] = &[
            ("<doc v=' 1 '><x> a </x></doc>", Ok("a")),
            (
                "<doc><y/><x>a</x><x>b</x></doc>",
                Err("Unrecognised tag: 'y' (line 1, column 10)"),
            ),
            (
                "<doc><x>a</x><x>b</x><y/></doc>",
                Err("Duplicated tag: 'x' (line 1, column 17)"),
            ),
            (
                "<doc w='1'/>",
                Err("Unknown attribute 'w' for tag 'doc' (line 1, column 13)"),
            ),
            (
                "<other/>",
                Err("Expected root element 'doc' but found 'other' (line 1, column 9)"),
            ),
            (
                "<doc><items>t<item/></items></doc>",
                Err("expected START_TAG or END_TAG not TEXT inside <items> (line 1, column 16)"),
            ),
        ];
        for (text, expected) in cases {
            let got = strict(text);
            match expected {
                Ok(x) => assert_eq!(got.unwrap().child_text("x"), Some(*x), "{text}"),
                Err(e) => assert_eq!(got.unwrap_err(), *e, "{text}"),
            }
        }
    }

    #[test]
    fn lenient_reading_keeps_known_elements_only() {
        let text = "<doc v='1' xmlns='n'>t<items><item><a>1</a><c/></item><z/><item/></items>\
                    <names><name> n </name></names><props><p> 2 </p></props></doc>";
        let root = parse(text).unwrap();
        let read = read(text, &root, &DOC).unwrap();
        assert_eq!(
            read.strict_error.unwrap().message,
            "expected START_TAG or END_TAG not TEXT inside <doc>"
        );
        let doc = read.root;
        assert_eq!(doc.attr("v"), Some("1"));
        assert_eq!(doc.items("items").count(), 2);
        assert_eq!(
            doc.items("items").next().unwrap().child_text("a"),
            Some("1")
        );
        assert_eq!(doc.items("names").next().unwrap().text, "n");
        assert_eq!(doc.child("props").unwrap().child_text("p"), Some("2"));
        assert_eq!(doc.items("nothing").count(), 0);
    }
}
