//! [`InjectionError`]: what can fail while the mirror, proxy and authentication selectors are
//! built from settings. Selecting and injecting never fail once the selectors exist.

use thiserror::Error;

/// A settings entry that cannot be turned into a selector, as Maven would refuse it when it
/// creates the repository session.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum InjectionError {
    /// A `nonProxyHosts` pattern is not a valid regular expression once `.` → `\.` and
    /// `*` → `.*` are applied (Maven throws `PatternSyntaxException` at session creation).
    #[error(
        "proxy `{proxy_id}`: nonProxyHosts pattern `{pattern}` is not a valid regular expression \
         ({reason}); only `*` is a wildcard and other regex characters keep their meaning, so \
         escape or remove them in <nonProxyHosts>"
    )]
    InvalidNonProxyHost {
        /// The settings proxy id.
        proxy_id: String,
        /// The `|`-separated token as written.
        pattern: String,
        /// What the regex compiler said.
        reason: String,
    },
    /// A server `<configuration>` value that must be an integer is not one (Maven:
    /// `NumberFormatException` from `Integer.parseInt`).
    #[error(
        "server `{server_id}`: <configuration>/{element} must be an integer number of \
         milliseconds, found `{value}`; fix it in the <server> entry of settings.xml"
    )]
    InvalidTimeout {
        /// The server id.
        server_id: String,
        /// Path of the element under `<configuration>` (`connectTimeout`, ...).
        element: String,
        /// The text found.
        value: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_entry_and_the_fix() {
        let e = InjectionError::InvalidTimeout {
            server_id: "nexus".into(),
            element: "connectTimeout".into(),
            value: "10s".into(),
        };
        let text = e.to_string();
        assert!(
            text.contains("`nexus`") && text.contains("connectTimeout") && text.contains("10s")
        );
        let e = InjectionError::InvalidNonProxyHost {
            proxy_id: "corp".into(),
            pattern: "(".into(),
            reason: "unclosed group".into(),
        };
        assert!(e.to_string().contains("proxy `corp`"));
    }
}
