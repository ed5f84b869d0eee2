//! `.netrc`: credentials per host, as curl and ftp read them — BEYOND Maven, which never reads
//! the file. The session uses an entry only for a repository that no settings `<server>` gives
//! credentials to (see [`crate::repository`] for the whole precedence).
//!
//! **Where**: `$NETRC` when set and not empty, else `${user.home}/.netrc` (both from the
//! session's [`Environment`](crate::Environment) snapshot, never from the process). A missing
//! file is no error.
//!
//! **Syntax** (curl's `lib/netrc.c`, GNU inetutils): tokens separated by blanks and new lines;
//! `machine NAME` starts an entry, `default` starts the entry that matches every host;
//! `login NAME`, `password PW` and `account X` (ignored) belong to the entry before them;
//! `macdef NAME` starts a macro that runs to the next empty line (skipped). A token may be
//! written in double quotes, with `\"`, `\\`, `\n`, `\r` and `\t` escapes inside (curl 7.84+),
//! so a password may hold blanks or `#`. `#` at the start of a token starts a comment that runs
//! to the end of the line. Anything else is reported as a warning (with `line:column`) and
//! skipped; the rest of the file is still read.
//!
//! **Matching** ([`Netrc::lookup`]): the repository's host, compared without regard to case
//! (IPv6 hosts without their brackets). A `machine` written `host:port` matches only that port
//! (the URL's, or its scheme's default); a plain `host` matches every port. The first matching
//! `machine` entry wins; `default` is used only when no `machine` matches, wherever it is
//! written (curl stops at a `default` written before the machine; inetutils requires it last).
//!
//! **Permissions**: a file that group or others may read gets a warning (curl and ftp warn or
//! refuse); it is still used.
//!
//! Every entry keeps the file and the line of its `machine`/`default` token, so `m2r explain`
//! can say "netrc ~/.netrc:3". Passwords are [`Secret`]s.

use crate::secret::Secret;
use std::path::{Path, PathBuf};

/// One `machine` (or `default`) entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetrcEntry {
    /// The host name as written (`None` for `default`), lower-cased, without its port.
    pub machine: Option<String>,
    /// The port written after the host (`machine repo.example.com:8443`).
    pub port: Option<u16>,
    /// `login`.
    pub login: Option<String>,
    /// `password`.
    pub password: Option<Secret>,
    /// 1-based line of the `machine` or `default` token.
    pub line: usize,
}

impl NetrcEntry {
    /// `machine host[:port]` or `default`, for messages.
    pub fn describe(&self) -> String {
        match (&self.machine, self.port) {
            (Some(m), Some(p)) => format!("machine {m}:{p}"),
            (Some(m), None) => format!("machine {m}"),
            (None, _) => "default".to_string(),
        }
    }

    fn matches(&self, host: &str, port: Option<u16>) -> bool {
        match &self.machine {
            None => true,
            Some(m) => m == host && self.port.is_none_or(|p| Some(p) == port),
        }
    }
}

/// A parsed `.netrc` file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Netrc {
    /// The file it was read from.
    pub path: PathBuf,
    /// Entries in file order.
    pub entries: Vec<NetrcEntry>,
    /// What was not understood or is unsafe (`path:line:column: ...`); no secrets.
    pub warnings: Vec<String>,
}

/// One token and where it starts.
struct Token {
    text: String,
    line: usize,
    column: usize,
}

/// Splits netrc text into tokens, skipping comments; `macdef` bodies are returned as one
/// token per line and skipped by the parser (see [`Lexer::skip_macro`]).
struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    column: usize,
    /// Where a quoted token without its closing quote starts (the lexer stops there).
    unterminated: Option<(usize, usize)>,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Self {
        Lexer {
            chars: text.chars().peekable(),
            line: 1,
            column: 1,
            unterminated: None,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    /// The next token; `None` at the end, or at a quoted token without its closing quote
    /// (recorded in `unterminated`).
    fn next_token(&mut self) -> Option<Token> {
        if self.unterminated.is_some() {
            return None;
        }
        loop {
            match self.chars.peek()? {
                c if c.is_whitespace() => {
                    self.bump();
                }
                '#' => {
                    while let Some(c) = self.bump() {
                        if c == '\n' {
                            break;
                        }
                    }
                }
                _ => break,
            }
        }
        let (line, column) = (self.line, self.column);
        let mut text = String::new();
        if self.chars.peek() == Some(&'"') {
            self.bump();
            loop {
                match self.bump() {
                    None => {
                        self.unterminated = Some((line, column));
                        return None;
                    }
                    Some('"') => break,
                    Some('\\') => match self.bump() {
                        Some('n') => text.push('\n'),
                        Some('r') => text.push('\r'),
                        Some('t') => text.push('\t'),
                        Some(c) => text.push(c),
                        None => {
                            self.unterminated = Some((line, column));
                            return None;
                        }
                    },
                    Some(c) => text.push(c),
                }
            }
        } else {
            while let Some(&c) = self.chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                text.push(c);
                self.bump();
            }
        }
        Some(Token { text, line, column })
    }

    /// Skips a `macdef` body: everything up to and including the next empty line.
    fn skip_macro(&mut self) {
        // The rest of the `macdef NAME` line first.
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
        let mut line_empty = true;
        while let Some(c) = self.bump() {
            match c {
                '\n' if line_empty => return,
                '\n' => line_empty = true,
                '\r' => {}
                _ => line_empty = false,
            }
        }
    }
}

impl Netrc {
    /// Parses `text` (read from `path`, which is only used in messages and provenance).
    ///
    /// ```
    /// use m2resolver::repository::Netrc;
    /// let n = Netrc::parse("machine repo.example.com login ci password \"p w#1\"\ndefault login anon", "/h/.netrc");
    /// let e = n.lookup("REPO.example.com", Some(443)).unwrap();
    /// assert_eq!((e.login.as_deref(), e.line), (Some("ci"), 1));
    /// assert_eq!(e.password.as_ref().unwrap().expose(), "p w#1");
    /// assert_eq!(n.lookup("other.example", None).unwrap().describe(), "default");
    /// ```
    pub fn parse(text: &str, path: impl Into<PathBuf>) -> Netrc {
        let path = path.into();
        let mut netrc = Netrc {
            path,
            ..Netrc::default()
        };
        let mut lexer = Lexer::new(text);
        let mut current: Option<NetrcEntry> = None;
        let warn = |netrc: &mut Netrc, line: usize, column: usize, what: String| {
            netrc
                .warnings
                .push(format!("{}:{line}:{column}: {what}", netrc.path.display()))
        };
        while let Some(token) = lexer.next_token() {
            let value =
                |lexer: &mut Lexer, netrc: &mut Netrc, keyword: &str| match lexer.next_token() {
                    Some(t) => Some(t),
                    None if lexer.unterminated.is_some() => None,
                    None => {
                        warn(
                            netrc,
                            token.line,
                            token.column,
                            format!("`{keyword}` has no value; ignored"),
                        );
                        None
                    }
                };
            match token.text.as_str() {
                "machine" => {
                    netrc.entries.extend(current.take());
                    if let Some(t) = value(&mut lexer, &mut netrc, "machine") {
                        let (machine, port) = split_machine(&t.text);
                        current = Some(NetrcEntry {
                            machine: Some(machine),
                            port,
                            login: None,
                            password: None,
                            line: token.line,
                        });
                    }
                }
                "default" => {
                    netrc.entries.extend(current.take());
                    current = Some(NetrcEntry {
                        machine: None,
                        port: None,
                        login: None,
                        password: None,
                        line: token.line,
                    });
                }
                "login" | "password" | "account" => {
                    let keyword = token.text.clone();
                    let Some(t) = value(&mut lexer, &mut netrc, &keyword) else {
                        continue;
                    };
                    match current.as_mut() {
                        None => warn(
                            &mut netrc,
                            token.line,
                            token.column,
                            format!("`{keyword}` before any `machine` or `default`; ignored"),
                        ),
                        Some(e) if keyword == "login" => e.login = Some(t.text),
                        Some(e) if keyword == "password" => e.password = Some(Secret::new(t.text)),
                        Some(_) => {}
                    }
                }
                "macdef" => {
                    netrc.entries.extend(current.take());
                    lexer.skip_macro();
                }
                other => {
                    let shown = crate::printable::quote_prefix(other, 40);
                    warn(
                        &mut netrc,
                        token.line,
                        token.column,
                        format!("unknown token {shown}; ignored"),
                    );
                }
            }
        }
        if let Some((line, column)) = lexer.unterminated {
            // The entry being read is incomplete: its password may be cut short.
            current = None;
            warn(
                &mut netrc,
                line,
                column,
                "a quoted token has no closing `\"`; the rest of the file is ignored".into(),
            );
        }
        netrc.entries.extend(current);
        netrc
    }

    /// The entry for a repository host (and port: the URL's, or its scheme's default): the
    /// first `machine` that matches, else the `default` entry.
    pub fn lookup(&self, host: &str, port: Option<u16>) -> Option<&NetrcEntry> {
        let host = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_ascii_lowercase();
        self.entries
            .iter()
            .find(|e| e.machine.is_some() && e.matches(&host, port))
            .or_else(|| self.entries.iter().find(|e| e.machine.is_none()))
    }

    /// `path:line` of an entry, for provenance.
    pub fn location(&self, entry: &NetrcEntry) -> String {
        format!("{}:{}", self.path.display(), entry.line)
    }
}

/// `host`, `host:port`, `[v6]` or `[v6]:port` → (lower-cased host, port).
fn split_machine(text: &str) -> (String, Option<u16>) {
    let (host, port) = if let Some(rest) = text.strip_prefix('[') {
        match rest.split_once(']') {
            Some((h, tail)) => (h, tail.strip_prefix(':').and_then(|p| p.parse().ok())),
            None => (rest, None),
        }
    } else {
        match text.rsplit_once(':') {
            // One colon: host:port. More: an IPv6 address written without brackets.
            Some((h, p)) if !h.contains(':') => match p.parse::<u16>() {
                Ok(port) => (h, Some(port)),
                Err(_) => (text, None),
            },
            _ => (text, None),
        }
    };
    (host.to_ascii_lowercase(), port)
}

/// The netrc file a session reads: `$NETRC` (when set and not empty), else
/// `<user_home>/.netrc`.
pub fn netrc_path(netrc_var: Option<&str>, user_home: &Path) -> PathBuf {
    match netrc_var.filter(|v| !v.is_empty()) {
        Some(p) => PathBuf::from(p),
        None => user_home.join(".netrc"),
    }
}

/// Largest netrc file read (a larger one is ignored with a warning).
pub const MAX_NETRC_BYTES: u64 = 1 << 20;

/// Reads and parses the netrc file at `path`: `Ok(None)` when it does not exist; a file that
/// group or others may read gets a warning.
pub fn read_netrc(path: &Path) -> Result<Option<Netrc>, String> {
    let bytes = match crate::bounded::read_regular_file(path, MAX_NETRC_BYTES) {
        Ok(b) => b,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(format!("{e}; netrc credentials are not used")),
    };
    let mut netrc = Netrc::parse(&String::from_utf8_lossy(&bytes), path);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(meta) = std::fs::metadata(path) {
            let mode = meta.permissions().mode() & 0o777;
            if mode & 0o077 != 0 {
                netrc.warnings.push(format!(
                    "{} can be read by other users (mode {mode:o}): run `chmod 600 {}`",
                    path.display(),
                    path.display()
                ));
            }
        }
    }
    Ok(Some(netrc))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Netrc {
        Netrc::parse(text, "/h/.netrc")
    }

    /// (login, password, line) of the lookup.
    fn found(n: &Netrc, host: &str, port: Option<u16>) -> Option<(String, String, usize)> {
        n.lookup(host, port).map(|e| {
            (
                e.login.clone().unwrap_or_default(),
                e.password
                    .as_ref()
                    .map(|p| p.expose().to_string())
                    .unwrap_or_default(),
                e.line,
            )
        })
    }

    fn f(login: &str, password: &str, line: usize) -> Option<(String, String, usize)> {
        Some((login.into(), password.into(), line))
    }

    #[test]
    fn lookup_table() {
        let n = parse(
            "# company repositories\n\
             default login anon password guest\n\
             machine repo.example.com login ci password pw1\n\
             machine repo.example.com login second password pw2\n\
             machine Nexus.Corp:8443 login n password pw3 account ignored\n\
             machine [::1]:9000 login v6 password pw4\n\
             machine 10.0.0.1 login ip password pw5\n",
        );
        assert!(n.warnings.is_empty(), "{:?}", n.warnings);
        let cases = [
            ("repo.example.com", Some(443), f("ci", "pw1", 3)),
            ("REPO.EXAMPLE.COM", None, f("ci", "pw1", 3)),
            ("nexus.corp", Some(8443), f("n", "pw3", 5)),
            // a port written in the file must match
            ("nexus.corp", Some(443), f("anon", "guest", 2)),
            ("[::1]", Some(9000), f("v6", "pw4", 6)),
            ("::1", Some(9000), f("v6", "pw4", 6)),
            ("10.0.0.1", Some(80), f("ip", "pw5", 7)),
            // another host: the default entry, even though it is written first
            ("other.example", Some(443), f("anon", "guest", 2)),
            ("sub.repo.example.com", None, f("anon", "guest", 2)),
        ];
        for (host, port, want) in cases {
            assert_eq!(found(&n, host, port), want, "{host} {port:?}");
        }
        let none = parse("machine a login x password y");
        assert_eq!(found(&none, "b", None), None);
    }

    #[test]
    fn quoted_tokens_comments_and_macros() {
        let n = parse(
            "machine a.example login \"c i\" password \"p\\\"w #x\\\\y\"\n\
             # machine commented.example login no password no\n\
             macdef init\n\
             cd /pub\n\
             machine inside.macro login m password m\n\
             \n\
             machine b.example\n\
             \tlogin b\tpassword #notacomment\n",
        );
        assert_eq!(found(&n, "a.example", None), f("c i", "p\"w #x\\y", 1));
        assert_eq!(found(&n, "commented.example", None), None);
        assert_eq!(
            found(&n, "inside.macro", None),
            None,
            "macro bodies are skipped"
        );
        // `#` inside a token does not start a comment; at a token's start it does
        assert_eq!(found(&n, "b.example", None), f("b", "", 7));
        let n = parse("machine b login b password x#y");
        assert_eq!(found(&n, "b", None), f("b", "x#y", 1));
    }

    #[test]
    fn problems_are_warnings_with_positions_and_no_secrets() {
        let n = parse("login early\nmachine a login x password \"s3cret");
        assert_eq!(n.warnings.len(), 2, "{:?}", n.warnings);
        assert!(n.warnings[0].starts_with("/h/.netrc:1:1: `login` before any"));
        assert!(n.warnings[1].starts_with("/h/.netrc:2:28: a quoted token"));
        assert!(n.warnings.iter().all(|w| !w.contains("s3cret")));
        let n = parse("machine a bogus login x");
        assert!(n.warnings[0].contains("1:11: unknown token"));
        assert_eq!(found(&n, "a", None), f("x", "", 1));
        let n = parse("machine");
        assert!(n.warnings[0].contains("`machine` has no value"));
        assert!(n.entries.is_empty());
    }

    #[test]
    fn path_and_permissions() {
        assert_eq!(
            netrc_path(Some("/etc/ci.netrc"), Path::new("/h")),
            PathBuf::from("/etc/ci.netrc")
        );
        assert_eq!(
            netrc_path(Some(""), Path::new("/h")),
            PathBuf::from("/h/.netrc")
        );
        assert_eq!(
            netrc_path(None, Path::new("/h")),
            PathBuf::from("/h/.netrc")
        );
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read_netrc(&dir.path().join("none")).unwrap(), None);
        let p = dir.path().join(".netrc");
        std::fs::write(&p, "machine h login u password p\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
            let n = read_netrc(&p).unwrap().unwrap();
            assert!(n.warnings[0].contains("mode 644"), "{:?}", n.warnings);
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        let n = read_netrc(&p).unwrap().unwrap();
        assert!(n.warnings.is_empty());
        assert_eq!(n.location(&n.entries[0]), format!("{}:1", p.display()));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 512, ..Default::default() })]
        #[test]
        fn parser_never_panics(text in "[a-z \"\\\\#\\n\\t:\\[\\]0-9]{0,80}") {
            let n = Netrc::parse(&text, "x");
            let _ = n.lookup("a", Some(1));
        }
    }
}
