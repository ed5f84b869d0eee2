//! Credential helpers: a command that prints a repository's credentials, asked when the first
//! request needs them and remembered by the transport ([`CredentialHelpers`]: the session's
//! engine has one transport, so for the session's lifetime) until the answer
//! expires — BEYOND Maven, for short-lived tokens (cloud registries) that users otherwise
//! script into `settings.xml` before every build.
//!
//! The protocol is git's `credential` helper protocol (`git help credential`), so a helper
//! written for git works unchanged:
//!
//! - **Run**: the command line is run by the system shell with `get` as its last argument
//!   (`sh -c '<command> "$@"' <command> get`, as git runs `!`-helpers; `cmd /C` on Windows), in
//!   the session's working directory, with the session's environment snapshot as its
//!   environment (not the process's).
//! - **Input** (stdin): `key=value` lines and an empty line: `capability[]=authtype`,
//!   `protocol=https`, `host=HOST[:PORT]` (the port when the URL names one), `path=PATH` (the
//!   repository's base path, without the leading `/`), and m2r's additions `url=URL` (without
//!   user info) and `repository=ID` (the repository id, the mirror's once mirrored), then
//!   `username=NAME` when the `<server>` names one. Helpers ignore keys they do not know.
//! - **Output** (stdout): `key=value` lines up to an empty line or the end. `username` and
//!   `password` give Basic credentials (a missing `username` is the `<server>`'s);
//!   `authtype=Bearer` with `credential=TOKEN` gives a bearer token, sent as
//!   `Authorization: Bearer TOKEN` (git 2.46's pre-encoded credentials);
//!   `password_expiry_utc=SECONDS` (Unix time) says when the answer expires. Other keys are
//!   ignored; a line without `=` is an error. Exit status 0 with no credentials (or `quit=1`)
//!   means the helper has none for this repository: requests go without.
//! - **Failure**: a non-zero exit status, no answer within the timeout (default 30 s;
//!   `M2R_CREDENTIAL_HELPER_TIMEOUT` in seconds), output that is not `key=value` lines, or an
//!   incomplete answer fails every request of that repository with one error that names the
//!   helper's program (never the rest of its command line), the repository, the exit status
//!   and the start of what it wrote to stderr. The failure is remembered for the session too:
//!   the helper is not run again for every artifact.
//!
//! **Cache**: one answer per (command, repository id, URL, user name) for the session; an
//! answer whose expiry is less than [`EXPIRY_MARGIN`] away is used for the request that asked
//! and then asked for again. Concurrent requests wait for the one run. m2r never calls the
//! helper's `store` or `erase`. Answers are [`Secret`]s and are never logged.

use crate::environment::Vars;
use crate::repository::{Authentication, CredentialHelper, RemoteRepository};
use crate::Secret;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

/// Default time a helper may take.
pub const DEFAULT_HELPER_TIMEOUT: Duration = Duration::from_secs(30);
/// The environment variable that changes it (seconds).
pub const HELPER_TIMEOUT_VARIABLE: &str = "M2R_CREDENTIAL_HELPER_TIMEOUT";
/// An answer that expires sooner than this is asked for again at the next request.
pub const EXPIRY_MARGIN: Duration = Duration::from_secs(30);
/// Largest helper output read (stdout; stderr is cut to the same).
const MAX_OUTPUT: u64 = 64 * 1024;
/// Characters of stderr quoted in an error.
const STDERR_EXCERPT: usize = 300;

/// Why a credential helper gave no usable answer. Messages name the helper's program and the
/// repository; they never contain the answer or the rest of the command line.
#[derive(Debug, Clone, thiserror::Error)]
pub enum HelperError {
    /// The helper could not be started.
    #[error("cannot run credential helper `{program}` for repository `{repository}`")]
    Spawn {
        /// The program (first word of the command).
        program: String,
        /// Repository id.
        repository: String,
        /// The operating system's error.
        #[source]
        source: Arc<std::io::Error>,
    },
    /// It exited with a failure status.
    #[error("credential helper `{program}` failed for repository `{repository}` ({status}){}; no request is made without its credentials",
        if stderr.is_empty() { String::new() } else { format!(": stderr: {stderr}") })]
    Failed {
        /// The program.
        program: String,
        /// Repository id.
        repository: String,
        /// `exit status 1`, `killed by signal 9`.
        status: String,
        /// The start of its stderr, escaped.
        stderr: String,
    },
    /// It did not answer in time (it was killed).
    #[error("credential helper `{program}` did not answer within {after:?} for repository `{repository}` (it was stopped; set {HELPER_TIMEOUT_VARIABLE} to allow longer)")]
    Timeout {
        /// The program.
        program: String,
        /// Repository id.
        repository: String,
        /// The limit.
        after: Duration,
    },
    /// Its output is not the protocol's.
    #[error("credential helper `{program}` answered for repository `{repository}` with output m2r cannot use: {problem} (the protocol is git's credential protocol: `username=`/`password=` or `authtype=Bearer`/`credential=` lines)")]
    BadAnswer {
        /// The program.
        program: String,
        /// Repository id.
        repository: String,
        /// What is wrong (no secret: line numbers and key names only).
        problem: String,
    },
    /// A value m2r would have to send cannot be written in the protocol (a line break).
    #[error("credential helper `{program}` was not run for repository `{repository}`: its {key} contains a line break, which the protocol cannot carry")]
    BadInput {
        /// The program.
        program: String,
        /// Repository id.
        repository: String,
        /// The key.
        key: &'static str,
    },
}

/// A helper's answer, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Answer {
    /// User name and password.
    Basic {
        /// User name.
        username: String,
        /// Password.
        password: Secret,
    },
    /// A bearer token.
    Bearer(Secret),
    /// No credentials for this repository.
    Nothing,
}

impl Answer {
    fn authentication(&self) -> Option<Authentication> {
        match self {
            Answer::Basic { username, password } => Some(Authentication {
                username: Some(username.clone()),
                password: Some(password.clone()),
                ..Authentication::default()
            }),
            Answer::Bearer(token) => Some(Authentication {
                token: Some(token.clone()),
                ..Authentication::default()
            }),
            Answer::Nothing => None,
        }
    }
}

/// A parsed answer and its expiry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Parsed {
    pub(crate) answer: Answer,
    pub(crate) expires: Option<SystemTime>,
}

/// What the helper is told: the protocol's input (see the module docs). `Err` names the key
/// whose value holds a line break.
pub(crate) fn render_request(
    repo: &RemoteRepository,
    username: Option<&str>,
) -> Result<String, &'static str> {
    let mut lines: Vec<(&'static str, String)> = vec![("capability[]", "authtype".into())];
    if let Some(url) = repo.url.parsed() {
        lines.push(("protocol", url.scheme().to_string()));
        let host = url.host_str().unwrap_or_default();
        lines.push((
            "host",
            match url.port() {
                Some(p) => format!("{host}:{p}"),
                None => host.to_string(),
            },
        ));
        let path = url.path().trim_start_matches('/');
        if !path.is_empty() {
            lines.push(("path", path.to_string()));
        }
    }
    let url = match repo.url.parsed() {
        Some(u) => {
            let mut u = u.clone();
            let _ = u.set_username("");
            let _ = u.set_password(None);
            u.to_string()
        }
        None => repo.url.to_string(),
    };
    lines.push(("url", url));
    lines.push(("repository", repo.id.clone()));
    if let Some(u) = username {
        lines.push(("username", u.to_string()));
    }
    let mut out = String::new();
    for (key, value) in lines {
        if value.contains(['\n', '\r', '\0']) {
            return Err(key);
        }
        out.push_str(key);
        out.push('=');
        out.push_str(&value);
        out.push('\n');
    }
    out.push('\n');
    Ok(out)
}

/// Parses a helper's stdout. `username` is the `<server>`'s, used when the answer has none.
/// `Err` says what is wrong without quoting any value.
pub(crate) fn parse_answer(stdout: &[u8], username: Option<&str>) -> Result<Parsed, String> {
    let text = std::str::from_utf8(stdout).map_err(|_| "the output is not UTF-8".to_string())?;
    let mut fields: HashMap<&str, &str> = HashMap::new();
    for (i, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            break;
        }
        let Some((key, value)) = line.split_once('=') else {
            return Err(format!("line {} is not `key=value`", i + 1));
        };
        fields.entry(key).or_insert(value);
    }
    let expires = match fields.get("password_expiry_utc") {
        None => None,
        Some(v) => match v.trim().parse::<u64>() {
            Ok(secs) => Some(SystemTime::UNIX_EPOCH + Duration::from_secs(secs)),
            Err(_) => return Err("`password_expiry_utc` is not a number of seconds".into()),
        },
    };
    let quit = fields
        .get("quit")
        .is_some_and(|v| matches!(v.trim(), "1" | "true" | "yes" | "on"));
    let answer = match (fields.get("authtype"), fields.get("credential")) {
        _ if quit => Answer::Nothing,
        (Some(t), Some(c)) if t.eq_ignore_ascii_case("bearer") => {
            if c.is_empty() {
                return Err("`credential` is empty".into());
            }
            Answer::Bearer(Secret::new(*c))
        }
        (Some(t), Some(_)) => {
            return Err(format!(
                "`authtype` {} is not supported (Bearer is; or answer with `username=` and `password=`)",
                crate::printable::quote_prefix(t, 20)
            ))
        }
        (None, Some(_)) => return Err("`credential` without `authtype`".into()),
        (Some(_), None) => return Err("`authtype` without `credential`".into()),
        (None, None) => {
            let user = fields.get("username").copied().or(username);
            match (user, fields.get("password")) {
                (Some(u), Some(p)) => Answer::Basic {
                    username: u.to_string(),
                    password: Secret::new(*p),
                },
                (None, Some(_)) => {
                    return Err(
                        "a `password` without a `username` (and the <server> names none)".into(),
                    )
                }
                (Some(_), None) if fields.contains_key("username") => {
                    return Err("a `username` without a `password`".into())
                }
                _ => Answer::Nothing,
            }
        }
    };
    Ok(Parsed { answer, expires })
}

/// Whether a cached answer may still be used at `now`.
fn fresh(expires: Option<SystemTime>, now: SystemTime) -> bool {
    expires.is_none_or(|e| now + EXPIRY_MARGIN < e)
}

/// `exit status 1` / `killed by signal 9`.
fn describe_status(status: std::process::ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exit status {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("killed by signal {sig}");
        }
    }
    status.to_string()
}

/// One cached answer (or failure).
#[derive(Debug, Clone)]
enum Slot {
    Empty,
    Answer(Parsed),
    Failed(HelperError),
}

/// The session's credential helpers: runs them and remembers their answers (see the module
/// docs). One per [`crate::transport::Transport`] (a session's engine has one, so a helper runs
/// once per repository for the session's lifetime); thread-safe. `Debug` shows counts.
pub struct CredentialHelpers {
    env: Vars,
    cwd: PathBuf,
    timeout: Duration,
    slots: Mutex<HashMap<String, Arc<tokio::sync::Mutex<Slot>>>>,
    runs: AtomicU64,
}

impl std::fmt::Debug for CredentialHelpers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CredentialHelpers")
            .field("timeout", &self.timeout)
            .field("runs", &self.runs())
            .finish_non_exhaustive()
    }
}

impl Default for CredentialHelpers {
    fn default() -> Self {
        CredentialHelpers::new(Vars::new(), PathBuf::from("."))
    }
}

impl CredentialHelpers {
    /// Helpers run with `env` as their whole environment, in `cwd`; the timeout is
    /// `M2R_CREDENTIAL_HELPER_TIMEOUT` of `env` (seconds), else [`DEFAULT_HELPER_TIMEOUT`].
    pub(crate) fn new(env: Vars, cwd: PathBuf) -> Self {
        let timeout = env
            .value(HELPER_TIMEOUT_VARIABLE)
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs)
            .unwrap_or(DEFAULT_HELPER_TIMEOUT);
        CredentialHelpers {
            env,
            cwd,
            timeout,
            slots: Mutex::new(HashMap::new()),
            runs: AtomicU64::new(0),
        }
    }

    /// How many times a helper was run in this session.
    pub fn runs(&self) -> u64 {
        self.runs.load(Ordering::Relaxed)
    }

    /// The credentials `helper` gives `repo`: the cached answer while it is fresh, else the
    /// helper's (run once however many requests ask at the same time). `Ok(None)`: it has none.
    pub async fn credentials(
        &self,
        helper: &CredentialHelper,
        repo: &RemoteRepository,
    ) -> Result<Option<Authentication>, HelperError> {
        let key = format!(
            "{}\0{}\0{}\0{}",
            helper.command,
            repo.id,
            repo.url.as_written(),
            helper.username.as_deref().unwrap_or("")
        );
        let slot = {
            let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
            slots
                .entry(key)
                .or_insert_with(|| Arc::new(tokio::sync::Mutex::new(Slot::Empty)))
                .clone()
        };
        let mut slot = slot.lock().await;
        match &*slot {
            Slot::Failed(e) => return Err(e.clone()),
            Slot::Answer(p) if fresh(p.expires, SystemTime::now()) => {
                return Ok(p.answer.authentication())
            }
            _ => {}
        }
        match self.run(helper, repo).await {
            Ok(parsed) => {
                let auth = parsed.answer.authentication();
                tracing::debug!(
                    repository = %repo.id,
                    helper = %helper.program(),
                    kind = match parsed.answer { Answer::Basic { .. } => "basic", Answer::Bearer(_) => "bearer", Answer::Nothing => "none" },
                    "credential helper answered"
                );
                *slot = Slot::Answer(parsed);
                Ok(auth)
            }
            Err(e) => {
                *slot = Slot::Failed(e.clone());
                Err(e)
            }
        }
    }

    async fn run(
        &self,
        helper: &CredentialHelper,
        repo: &RemoteRepository,
    ) -> Result<Parsed, HelperError> {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let program = helper.program().to_string();
        let repository = repo.id.clone();
        let input = render_request(repo, helper.username.as_deref()).map_err(|key| {
            HelperError::BadInput {
                program: program.clone(),
                repository: repository.clone(),
                key,
            }
        })?;
        let mut cmd = if cfg!(windows) {
            let mut c = tokio::process::Command::new("cmd");
            c.arg("/C").arg(format!("{} get", helper.command));
            c
        } else {
            let mut c = tokio::process::Command::new("/bin/sh");
            c.arg("-c")
                .arg(format!("{} \"$@\"", helper.command))
                .arg(&helper.command)
                .arg("get");
            c
        };
        cmd.env_clear()
            .envs(self.env.iter())
            .current_dir(&self.cwd)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true);
        tracing::debug!(repository = %repository, helper = %program, "running credential helper");
        self.runs.fetch_add(1, Ordering::Relaxed);
        let mut child = cmd.spawn().map_err(|e| HelperError::Spawn {
            program: program.clone(),
            repository: repository.clone(),
            source: Arc::new(e),
        })?;
        let (mut stdin, stdout, stderr) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let work = async {
            let write = async {
                if let Some(s) = stdin.as_mut() {
                    // A helper that exits without reading closes the pipe: not an error.
                    let _ = s.write_all(input.as_bytes()).await;
                    let _ = s.shutdown().await;
                }
                drop(stdin.take());
            };
            let read = |r: Option<tokio::process::ChildStdout>| async move {
                let mut buf = Vec::new();
                if let Some(r) = r {
                    let _ = r.take(MAX_OUTPUT).read_to_end(&mut buf).await;
                }
                buf
            };
            let read_err = |r: Option<tokio::process::ChildStderr>| async move {
                let mut buf = Vec::new();
                if let Some(r) = r {
                    let _ = r.take(MAX_OUTPUT).read_to_end(&mut buf).await;
                }
                buf
            };
            let ((), out, err) = tokio::join!(write, read(stdout), read_err(stderr));
            let status = child.wait().await;
            (status, out, err)
        };
        let (status, out, err) = match tokio::time::timeout(self.timeout, work).await {
            Ok(r) => r,
            Err(_) => {
                return Err(HelperError::Timeout {
                    program,
                    repository,
                    after: self.timeout,
                })
            }
        };
        let status = status.map_err(|e| HelperError::Spawn {
            program: program.clone(),
            repository: repository.clone(),
            source: Arc::new(e),
        })?;
        if !status.success() {
            let text = String::from_utf8_lossy(&err);
            return Err(HelperError::Failed {
                program,
                repository,
                status: describe_status(status),
                stderr: crate::printable::quote_prefix(text.trim(), STDERR_EXCERPT),
            });
        }
        parse_answer(&out, helper.username.as_deref()).map_err(|problem| HelperError::BadAnswer {
            program,
            repository,
            problem,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repository::HelperOrigin;

    fn repo(url: &str) -> RemoteRepository {
        RemoteRepository::new("corp", url)
    }

    #[test]
    fn request_lines() {
        let r = render_request(
            &repo("https://u:pw@nexus.example:8443/repo/maven2/"),
            Some("ci"),
        )
        .unwrap();
        assert_eq!(
            r,
            "capability[]=authtype\nprotocol=https\nhost=nexus.example:8443\npath=repo/maven2/\n\
             url=https://nexus.example:8443/repo/maven2/\nrepository=corp\nusername=ci\n\n"
        );
        let r = render_request(&repo("https://h/"), None).unwrap();
        assert_eq!(
            r,
            "capability[]=authtype\nprotocol=https\nhost=h\nurl=https://h/\nrepository=corp\n\n"
        );
        assert_eq!(
            render_request(&RemoteRepository::new("a\nb", "https://h/"), None),
            Err("repository")
        );
    }

    #[test]
    fn answer_table() {
        let basic = |u: &str, p: &str| Answer::Basic {
            username: u.into(),
            password: Secret::new(p),
        };
        let bearer = |t: &str| Answer::Bearer(Secret::new(t));
        // (stdout, server username, answer or error fragment)
        let cases: Vec<(&str, Option<&str>, Result<Answer, &str>)> = vec![
            ("username=u\npassword=p\n", None, Ok(basic("u", "p"))),
            (
                "username=u\r\npassword=p=q\r\n",
                None,
                Ok(basic("u", "p=q")),
            ),
            ("password=p\n", Some("srv"), Ok(basic("srv", "p"))),
            (
                "username=mine\npassword=p\n",
                Some("srv"),
                Ok(basic("mine", "p")),
            ),
            ("authtype=Bearer\ncredential=tok\n", None, Ok(bearer("tok"))),
            (
                "authtype=bearer\ncredential=tok\nusername=x\n",
                None,
                Ok(bearer("tok")),
            ),
            ("", None, Ok(Answer::Nothing)),
            ("\nusername=after-blank\n", None, Ok(Answer::Nothing)),
            (
                "quit=1\nusername=u\npassword=p\n",
                None,
                Ok(Answer::Nothing),
            ),
            ("protocol=https\nhost=h\n", None, Ok(Answer::Nothing)),
            (
                "username=u\npassword=p\nnot a pair\n",
                None,
                Err("line 3 is not"),
            ),
            ("password=p\n", None, Err("without a `username`")),
            ("username=u\n", None, Err("without a `password`")),
            (
                "authtype=Basic\ncredential=abc\n",
                None,
                Err("is not supported"),
            ),
            ("credential=abc\n", None, Err("without `authtype`")),
            ("authtype=Bearer\ncredential=\n", None, Err("is empty")),
            (
                "username=u\npassword=p\npassword_expiry_utc=soon\n",
                None,
                Err("not a number"),
            ),
        ];
        for (out, user, want) in cases {
            let got = parse_answer(out.as_bytes(), user);
            match (got, want) {
                (Ok(p), Ok(a)) => assert_eq!(p.answer, a, "{out:?}"),
                (Err(e), Err(frag)) => {
                    assert!(e.contains(frag), "{out:?}: {e}");
                    assert!(!e.contains("abc") && !e.contains("soon"), "{e}");
                }
                (got, want) => panic!("{out:?}: got {got:?}, want {want:?}"),
            }
        }
        assert!(parse_answer(&[0xff, b'='], None)
            .unwrap_err()
            .contains("UTF-8"));
        let p = parse_answer(
            b"username=u\npassword=p\npassword_expiry_utc=1700000000\n",
            None,
        )
        .unwrap();
        assert_eq!(
            p.expires,
            Some(SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000))
        );
    }

    #[test]
    fn freshness() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1000);
        assert!(fresh(None, now));
        assert!(fresh(Some(now + Duration::from_secs(31)), now));
        assert!(!fresh(Some(now + Duration::from_secs(30)), now));
        assert!(!fresh(Some(now - Duration::from_secs(1)), now));
    }

    fn helper(dir: &std::path::Path, script: &str) -> CredentialHelper {
        let path = dir.join("helper.sh");
        std::fs::write(&path, format!("#!/bin/sh\n{script}\n")).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        CredentialHelper {
            command: format!("{} --secret-arg", path.display()),
            origin: HelperOrigin::Environment {
                variable: "M2R_CREDENTIAL_HELPER".into(),
            },
            username: None,
        }
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn runs_once_and_caches_for_concurrent_requests() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("runs.log");
        let h = helper(
            dir.path(),
            &format!(
                "echo \"$1 $2\" >> {log}; cat > {input}; sleep 0.2; echo authtype=Bearer; echo credential=t0k",
                log = log.display(),
                input = dir.path().join("input").display()
            ),
        );
        let helpers = Arc::new(CredentialHelpers::default());
        let r = repo("https://h.example/m2");
        let mut tasks = Vec::new();
        for _ in 0..8 {
            let (helpers, h, r) = (helpers.clone(), h.clone(), r.clone());
            tasks.push(tokio::spawn(
                async move { helpers.credentials(&h, &r).await },
            ));
        }
        for t in tasks {
            let auth = t.await.unwrap().unwrap().unwrap();
            assert_eq!(auth.token.unwrap().expose(), "t0k");
        }
        assert_eq!(helpers.runs(), 1);
        assert_eq!(std::fs::read_to_string(&log).unwrap(), "--secret-arg get\n");
        let input = std::fs::read_to_string(dir.path().join("input")).unwrap();
        assert!(
            input.contains("repository=corp\n") && input.ends_with("\n\n"),
            "{input}"
        );
        // another repository is asked separately
        helpers
            .credentials(&h, &RemoteRepository::new("other", "https://h.example/m2"))
            .await
            .unwrap();
        assert_eq!(helpers.runs(), 2);
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn failures_are_clear_and_remembered() {
        let dir = tempfile::tempdir().unwrap();
        let h = helper(dir.path(), "echo 'token service unreachable' >&2; exit 3");
        let helpers = CredentialHelpers::default();
        let r = repo("https://h.example/m2");
        let e = helpers.credentials(&h, &r).await.unwrap_err();
        let m = e.to_string();
        assert!(
            m.contains("helper.sh`")
                && m.contains("`corp`")
                && m.contains("exit status 3")
                && m.contains("token service unreachable"),
            "{m}"
        );
        assert!(!m.contains("--secret-arg"), "{m}");
        helpers.credentials(&h, &r).await.unwrap_err();
        assert_eq!(helpers.runs(), 1, "a failure is remembered for the session");

        let garbage = helper(dir.path(), "echo 'this is not the protocol'");
        let e = CredentialHelpers::default()
            .credentials(&garbage, &r)
            .await
            .unwrap_err();
        assert!(matches!(e, HelperError::BadAnswer { .. }), "{e}");
        assert!(e.to_string().contains("line 1 is not `key=value`"), "{e}");

        let slow = helper(dir.path(), "sleep 5");
        let env: Vars = [(HELPER_TIMEOUT_VARIABLE.to_string(), "1".to_string())].into();
        let helpers = CredentialHelpers::new(env, dir.path().to_path_buf());
        let started = std::time::Instant::now();
        let e = helpers.credentials(&slow, &r).await.unwrap_err();
        assert!(matches!(e, HelperError::Timeout { .. }), "{e}");
        assert!(started.elapsed() < Duration::from_secs(4));

        let missing = CredentialHelper {
            command: dir.path().join("nope").display().to_string(),
            ..h.clone()
        };
        let e = CredentialHelpers::default()
            .credentials(&missing, &r)
            .await
            .unwrap_err();
        assert!(e.to_string().contains("exit status 127"), "{e}");
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn expired_answers_are_asked_again_and_environment_is_the_snapshot() {
        let dir = tempfile::tempdir().unwrap();
        let h = helper(
            dir.path(),
            "echo username=$CI_USER; echo password=p; echo password_expiry_utc=1000",
        );
        let env: Vars = [("CI_USER".to_string(), "robot".to_string())].into();
        let helpers = CredentialHelpers::new(env, dir.path().to_path_buf());
        let r = repo("https://h.example/m2");
        let a = helpers.credentials(&h, &r).await.unwrap().unwrap();
        assert_eq!(a.username.as_deref(), Some("robot"));
        helpers.credentials(&h, &r).await.unwrap();
        assert_eq!(helpers.runs(), 2, "an expired answer is not reused");
    }
}
