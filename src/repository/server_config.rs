//! Transport settings of a `<server>` entry: what Maven 3.9+/4 translate from the server's
//! `<configuration>` DOM and fields into Resolver configuration (spec §1.3), plus the
//! Wagon-only top-level `<timeout>` that Maven 3.8's Wagon transport honours.
//!
//! - `httpHeaders/property*/{name,value}` → headers (a later same-name property replaces the
//!   value, as Maven's `HashMap` does; a property without name or value is skipped with a
//!   warning, since Maven would put a null key/value that no transport can send);
//! - `connectTimeout`, else `httpConfiguration/all/connectionTimeout` (legacy, with Maven's
//!   warning `Settings for server <id> uses legacy format`), else top-level `timeout` (Wagon's
//!   `AbstractWagon#setTimeout` is the connection timeout);
//! - `requestTimeout`, else `httpConfiguration/all/readTimeout` (legacy, same warning);
//! - the server's `filePermissions` / `directoryPermissions` fields;
//! - beyond Maven: `credentialHelper`, a command that prints the server's credentials
//!   ([`CREDENTIAL_HELPER_ELEMENT`], see `crate::transport`'s `helper` module).
//!
//! Values are Java `Integer.parseInt` of the trimmed text: anything else is an
//! [`InjectionError::InvalidTimeout`] naming the server, as Maven fails on it. Negative values
//! are refused the same way (a negative duration cannot be honoured).

use super::error::InjectionError;
use super::model::TransportConfig;
use crate::secret::Secret;
use crate::settings::{Server, XmlElement};
use std::time::Duration;

/// `<server><configuration><credentialHelper>COMMAND</credentialHelper>`: m2r runs COMMAND for
/// the server's credentials. Maven 3.9's native transport ignores the element; Maven 3.8's
/// Wagon transport applies the `<configuration>` children in order and logs a warning at the
/// first one it does not know, for every transfer (checked with Maven 3.8.7), so write it last.
pub const CREDENTIAL_HELPER_ELEMENT: &str = "credentialHelper";

/// Transport configuration of a server and the warnings its parsing produced.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ServerTransport {
    /// The translated configuration.
    pub config: TransportConfig,
    /// Warnings for the caller to surface (legacy format, incomplete header properties).
    pub warnings: Vec<String>,
    /// The `credentialHelper` command (trimmed, not empty).
    pub credential_helper: Option<String>,
}

fn millis(server_id: &str, element: &str, node: &XmlElement) -> Result<Duration, InjectionError> {
    let text = node.text.as_deref().unwrap_or("").trim();
    let err = || InjectionError::InvalidTimeout {
        server_id: server_id.to_string(),
        element: element.to_string(),
        value: text.to_string(),
    };
    let digits = text.strip_prefix('+').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err());
    }
    let v: i32 = digits.parse().map_err(|_| err())?;
    Ok(Duration::from_millis(u64::from(v.unsigned_abs())))
}

/// `<name>/<child>/<grandchild>` under `root`, if present.
fn path<'a>(root: &'a XmlElement, names: &[&str]) -> Option<&'a XmlElement> {
    names.iter().try_fold(root, |node, n| node.child(n))
}

/// Translates `server`'s configuration (see the module docs).
pub fn server_transport(server: &Server) -> Result<ServerTransport, InjectionError> {
    let id = server.id.as_str();
    let mut out = ServerTransport::default();
    out.config.file_permissions = server.file_permissions.clone();
    out.config.directory_permissions = server.directory_permissions.clone();
    let Some(dom) = &server.configuration else {
        return Ok(out);
    };
    let legacy_warning = format!("Settings for server {id} uses legacy format");
    out.credential_helper = dom
        .child_text(CREDENTIAL_HELPER_ELEMENT)
        .filter(|c| !c.is_empty())
        .map(str::to_string);

    if let Some(headers) = dom.child("httpHeaders") {
        for (i, prop) in headers.children_named("property").enumerate() {
            let name = prop.child_text("name");
            let value = prop.child_text("value");
            match (name, value) {
                (Some(n), Some(v)) => {
                    match out.config.headers.iter_mut().find(|(k, _)| k == n) {
                        Some(slot) => slot.1 = Secret::new(v),
                        None => out.config.headers.push((n.to_string(), Secret::new(v))),
                    }
                }
                _ => out.warnings.push(format!(
                    "server `{id}`: httpHeaders property #{} (line {}) needs both <name> and <value>; ignored",
                    i + 1,
                    prop.line
                )),
            }
        }
    }

    if let Some(n) = dom.child("connectTimeout") {
        out.config.connect_timeout = Some(millis(id, "connectTimeout", n)?);
    } else if let Some(n) = path(dom, &["httpConfiguration", "all", "connectionTimeout"]) {
        out.config.connect_timeout =
            Some(millis(id, "httpConfiguration/all/connectionTimeout", n)?);
        out.warnings.push(legacy_warning.clone());
    } else if let Some(n) = dom.child("timeout") {
        out.config.connect_timeout = Some(millis(id, "timeout", n)?);
    }

    if let Some(n) = dom.child("requestTimeout") {
        out.config.request_timeout = Some(millis(id, "requestTimeout", n)?);
    } else if let Some(n) = path(dom, &["httpConfiguration", "all", "readTimeout"]) {
        out.config.request_timeout = Some(millis(id, "httpConfiguration/all/readTimeout", n)?);
        if !out.warnings.contains(&legacy_warning) {
            out.warnings.push(legacy_warning);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn el(name: &str, text: &str) -> XmlElement {
        XmlElement {
            name: name.into(),
            text: Some(text.into()),
            ..XmlElement::default()
        }
    }

    fn node(name: &str, children: Vec<XmlElement>) -> XmlElement {
        XmlElement {
            name: name.into(),
            children,
            ..XmlElement::default()
        }
    }

    fn server(children: Vec<XmlElement>) -> Server {
        Server {
            id: "srv".into(),
            configuration: Some(node("configuration", children)),
            ..Server::default()
        }
    }

    fn header(name: &str, value: &str) -> XmlElement {
        node("property", vec![el("name", name), el("value", value)])
    }

    #[test]
    fn credential_helper_element() {
        let t = server_transport(&server(vec![el(
            "credentialHelper",
            "  gcloud-helper --x ",
        )]))
        .unwrap();
        assert_eq!(t.credential_helper.as_deref(), Some("gcloud-helper --x"));
        let t = server_transport(&server(vec![el("credentialHelper", " ")])).unwrap();
        assert_eq!(t.credential_helper, None);
        assert!(t.warnings.is_empty());
    }

    #[test]
    fn headers_in_order_later_same_name_replaces() {
        let s = server(vec![node(
            "httpHeaders",
            vec![
                header("X-A", "1"),
                header("X-B", " 2 "),
                header("X-A", "3"),
                node("property", vec![el("name", "X-C")]),
            ],
        )]);
        let t = server_transport(&s).unwrap();
        assert_eq!(
            t.config.headers,
            vec![
                ("X-A".to_string(), Secret::new("3")),
                ("X-B".to_string(), Secret::new("2"))
            ]
        );
        assert_eq!(t.warnings.len(), 1);
        assert!(t.warnings[0].contains("`srv`"));
    }

    #[test]
    fn timeout_precedence_table() {
        let legacy = |c: &str, r: &str| {
            node(
                "httpConfiguration",
                vec![node(
                    "all",
                    vec![el("connectionTimeout", c), el("readTimeout", r)],
                )],
            )
        };
        let ms = |v: u64| Some(Duration::from_millis(v));
        // (children, connect, request, legacy warning?)
        type Case = (Vec<XmlElement>, Option<Duration>, Option<Duration>, bool);
        let cases: Vec<Case> = vec![
            (
                vec![el("connectTimeout", "1"), el("requestTimeout", "2")],
                ms(1),
                ms(2),
                false,
            ),
            (vec![legacy("3", "4")], ms(3), ms(4), true),
            (
                vec![el("connectTimeout", "1"), legacy("3", "4")],
                ms(1),
                ms(4),
                true,
            ),
            (
                vec![
                    el("connectTimeout", "1"),
                    el("requestTimeout", "2"),
                    legacy("3", "4"),
                ],
                ms(1),
                ms(2),
                false,
            ),
            (vec![el("timeout", "9")], ms(9), None, false),
            (
                vec![el("timeout", "9"), legacy("3", "4")],
                ms(3),
                ms(4),
                true,
            ),
            (vec![], None, None, false),
        ];
        for (i, (children, connect, request, warn)) in cases.into_iter().enumerate() {
            let t = server_transport(&server(children)).unwrap();
            assert_eq!(t.config.connect_timeout, connect, "case {i}");
            assert_eq!(t.config.request_timeout, request, "case {i}");
            assert_eq!(
                t.warnings == vec!["Settings for server srv uses legacy format".to_string()],
                warn,
                "case {i}"
            );
        }
    }

    #[test]
    fn non_integer_timeouts_are_errors_naming_the_server() {
        for bad in ["10s", "", "1.5", "-1", "99999999999"] {
            let err = server_transport(&server(vec![el("requestTimeout", bad)])).unwrap_err();
            assert_eq!(
                err,
                InjectionError::InvalidTimeout {
                    server_id: "srv".into(),
                    element: "requestTimeout".into(),
                    value: bad.into()
                }
            );
        }
        assert!(server_transport(&server(vec![el("connectTimeout", "+7")])).is_ok());
    }

    #[test]
    fn permissions_come_from_server_fields() {
        let s = Server {
            id: "x".into(),
            file_permissions: Some("664".into()),
            directory_permissions: Some("775".into()),
            ..Server::default()
        };
        let t = server_transport(&s).unwrap();
        assert_eq!(t.config.file_permissions.as_deref(), Some("664"));
        assert_eq!(t.config.directory_permissions.as_deref(), Some("775"));
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_server_transport() {
        use crate::repository::server_config::server_transport;
        use crate::settings::{Server, XmlElement};
        let el = |name: &str, text: &str| XmlElement {
            name: name.into(),
            text: Some(text.into()),
            ..XmlElement::default()
        };
        let conf = XmlElement {
            name: "configuration".into(),
            children: vec![el("connectTimeout", " 5000 ")],
            ..XmlElement::default()
        };
        let server = Server {
            id: "nexus".into(),
            configuration: Some(conf),
            ..Server::default()
        };
        let t = server_transport(&server).unwrap();
        assert_eq!(
            t.config.connect_timeout,
            Some(std::time::Duration::from_millis(5000))
        );
    }
}
