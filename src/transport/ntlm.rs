//! NTLM authentication, version 2 (MS-NLMP), as an HTTP client speaks it to a proxy:
//! `NEGOTIATE_MESSAGE` → `CHALLENGE_MESSAGE` → `AUTHENTICATE_MESSAGE`, base64 in
//! `Proxy-Authorization: NTLM …` headers, all on one kept-alive connection (NTLM authenticates
//! the connection, not a request).
//!
//! Only NTLMv2 responses are produced (LM and NTLMv1 are broken and refused by current servers).
//! No session key is exchanged (`NEGOTIATE_KEY_EXCH` is not requested): HTTP needs no signing or
//! sealing, and a client without `MsvAvFlags` in its own target info sends no MIC
//! (MS-NLMP §3.1.5.1.2). When the challenge's target info has a timestamp, it is used and the LM
//! response is 24 zero bytes, as the specification asks. MD4 and HMAC-MD5 come from RustCrypto's
//! `md4`, `md-5` and `hmac`.
//!
//! User names: `DOMAIN\user` or `user@domain` in the settings' `<username>`; a bare `user` takes
//! the domain from the environment (`USERDOMAIN`), else an empty domain (which most servers map
//! to their own). Parsing never panics: every length and offset of a challenge is checked.

use hmac::{Hmac, Mac};
use md4::Digest as _;
use thiserror::Error;

const SIGNATURE: &[u8; 8] = b"NTLMSSP\0";

/// `NTLMSSP_NEGOTIATE_UNICODE`.
pub const NEGOTIATE_UNICODE: u32 = 0x0000_0001;
/// `NTLM_NEGOTIATE_OEM`.
pub const NEGOTIATE_OEM: u32 = 0x0000_0002;
/// `NTLMSSP_REQUEST_TARGET`.
pub const REQUEST_TARGET: u32 = 0x0000_0004;
/// `NTLMSSP_NEGOTIATE_NTLM`.
pub const NEGOTIATE_NTLM: u32 = 0x0000_0200;
/// `NTLMSSP_NEGOTIATE_ALWAYS_SIGN`.
pub const NEGOTIATE_ALWAYS_SIGN: u32 = 0x0000_8000;
/// `NTLMSSP_NEGOTIATE_EXTENDED_SESSIONSECURITY`.
pub const NEGOTIATE_EXTENDED_SESSIONSECURITY: u32 = 0x0008_0000;
/// `NTLMSSP_NEGOTIATE_TARGET_INFO`.
pub const NEGOTIATE_TARGET_INFO: u32 = 0x0080_0000;
/// `NTLMSSP_NEGOTIATE_128`.
pub const NEGOTIATE_128: u32 = 0x2000_0000;
/// `NTLMSSP_NEGOTIATE_56`.
pub const NEGOTIATE_56: u32 = 0x8000_0000;

/// The flags of m2r's `NEGOTIATE_MESSAGE`.
pub const CLIENT_FLAGS: u32 = NEGOTIATE_UNICODE
    | NEGOTIATE_OEM
    | REQUEST_TARGET
    | NEGOTIATE_NTLM
    | NEGOTIATE_ALWAYS_SIGN
    | NEGOTIATE_EXTENDED_SESSIONSECURITY
    | NEGOTIATE_128
    | NEGOTIATE_56;

/// `MsvAvEOL`, `MsvAvTimestamp` (MS-NLMP §2.2.2.1).
const AV_EOL: u16 = 0;
const AV_TIMESTAMP: u16 = 7;

/// A `CHALLENGE_MESSAGE` m2r cannot use.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NtlmError {
    /// Not base64.
    #[error("the NTLM challenge is not base64")]
    Base64,
    /// Too short, wrong signature or type, or a field pointing outside the message.
    #[error("the NTLM challenge message is malformed: {0}")]
    Malformed(&'static str),
}

/// A user for NTLM: domain and account name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NtlmUser {
    /// The domain (may be empty).
    pub domain: String,
    /// The account name.
    pub user: String,
}

impl NtlmUser {
    /// Splits `DOMAIN\user` or `user@domain`; a bare name takes `default_domain`.
    pub fn parse(username: &str, default_domain: Option<&str>) -> NtlmUser {
        if let Some((d, u)) = username.split_once('\\') {
            return NtlmUser {
                domain: d.to_string(),
                user: u.to_string(),
            };
        }
        if let Some((u, d)) = username.rsplit_once('@') {
            return NtlmUser {
                domain: d.to_string(),
                user: u.to_string(),
            };
        }
        NtlmUser {
            domain: default_domain.unwrap_or_default().to_string(),
            user: username.to_string(),
        }
    }
}

impl std::fmt::Display for NtlmUser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.domain.is_empty() {
            f.write_str(&self.user)
        } else {
            write!(f, "{}\\{}", self.domain, self.user)
        }
    }
}

/// The parts of a `CHALLENGE_MESSAGE` an NTLMv2 answer needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeMessage {
    /// The server's negotiated flags.
    pub flags: u32,
    /// The 8-byte server challenge.
    pub server_challenge: [u8; 8],
    /// `TargetInfo` AV pairs (may be empty).
    pub target_info: Vec<u8>,
}

impl ChallengeMessage {
    /// `MsvAvTimestamp` from the target info, if present.
    pub fn timestamp(&self) -> Option<u64> {
        let ti = &self.target_info;
        let mut i = 0usize;
        while i + 4 <= ti.len() {
            let id = u16::from_le_bytes([ti[i], ti[i + 1]]);
            let len = usize::from(u16::from_le_bytes([ti[i + 2], ti[i + 3]]));
            let value = ti.get(i + 4..i + 4 + len)?;
            match id {
                AV_EOL => return None,
                AV_TIMESTAMP if len == 8 => {
                    return Some(u64::from_le_bytes(value.try_into().ok()?));
                }
                _ => {}
            }
            i += 4 + len;
        }
        None
    }
}

/// The `NEGOTIATE_MESSAGE` (no domain or workstation supplied).
pub fn negotiate_message() -> Vec<u8> {
    let mut m = Vec::with_capacity(32);
    m.extend_from_slice(SIGNATURE);
    m.extend_from_slice(&1u32.to_le_bytes());
    m.extend_from_slice(&CLIENT_FLAGS.to_le_bytes());
    m.extend_from_slice(&[0u8; 16]); // empty domain and workstation fields
    m
}

/// `NTLM <base64>` for a header.
pub fn header_value(message: &[u8]) -> String {
    use base64::Engine;
    format!(
        "NTLM {}",
        base64::engine::general_purpose::STANDARD.encode(message)
    )
}

/// Decodes and parses the token of an `NTLM <base64>` challenge.
pub fn parse_challenge_token(token: &str) -> Result<ChallengeMessage, NtlmError> {
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(token.trim())
        .map_err(|_| NtlmError::Base64)?;
    parse_challenge(&bytes)
}

/// Parses a `CHALLENGE_MESSAGE` (MS-NLMP §2.2.1.2).
pub fn parse_challenge(m: &[u8]) -> Result<ChallengeMessage, NtlmError> {
    if m.len() < 32 {
        return Err(NtlmError::Malformed("shorter than 32 bytes"));
    }
    if &m[..8] != SIGNATURE {
        return Err(NtlmError::Malformed("no NTLMSSP signature"));
    }
    if u32::from_le_bytes([m[8], m[9], m[10], m[11]]) != 2 {
        return Err(NtlmError::Malformed("not a CHALLENGE_MESSAGE (type 2)"));
    }
    let flags = u32::from_le_bytes([m[20], m[21], m[22], m[23]]);
    let mut server_challenge = [0u8; 8];
    server_challenge.copy_from_slice(&m[24..32]);
    // Target info fields exist only with NEGOTIATE_TARGET_INFO (older servers, and squid's
    // ntlm_fake_auth, send a 32- or 40-byte header whose payload may start at byte 40).
    let target_info = if flags & NEGOTIATE_TARGET_INFO != 0 && m.len() >= 48 {
        let len = usize::from(u16::from_le_bytes([m[40], m[41]]));
        let off = u32::from_le_bytes([m[44], m[45], m[46], m[47]]) as usize;
        if len == 0 {
            Vec::new()
        } else if off < 48 {
            return Err(NtlmError::Malformed("target info inside the header"));
        } else {
            m.get(off..off.saturating_add(len))
                .ok_or(NtlmError::Malformed("target info outside the message"))?
                .to_vec()
        }
    } else {
        Vec::new()
    };
    Ok(ChallengeMessage {
        flags,
        server_challenge,
        target_info,
    })
}

fn utf16le(s: &str) -> Vec<u8> {
    s.encode_utf16().flat_map(u16::to_le_bytes).collect()
}

fn hmac_md5(key: &[u8], parts: &[&[u8]]) -> [u8; 16] {
    // HMAC accepts keys of any length.
    let mut mac = <Hmac<md5::Md5> as Mac>::new_from_slice(key).expect("HMAC takes any key length");
    for p in parts {
        mac.update(p);
    }
    mac.finalize().into_bytes().into()
}

/// `NTOWFv2(password, user, domain)` = HMAC-MD5(MD4(UTF-16LE(password)),
/// UTF-16LE(uppercase(user) ‖ domain)) (MS-NLMP §3.3.2).
pub fn ntowfv2(password: &str, user: &str, domain: &str) -> [u8; 16] {
    let nt_hash = md4::Md4::digest(utf16le(password));
    hmac_md5(
        &nt_hash,
        &[&utf16le(&user.to_uppercase()), &utf16le(domain)],
    )
}

/// The NTLMv2 responses for one challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct V2Responses {
    /// `LmChallengeResponse` (LMv2, or 24 zero bytes when the server sent a timestamp).
    pub lm: Vec<u8>,
    /// `NtChallengeResponse` = NTProofStr ‖ temp.
    pub nt: Vec<u8>,
    /// `SessionBaseKey` = HMAC-MD5(NTOWFv2, NTProofStr).
    pub session_base_key: [u8; 16],
}

/// Computes the NTLMv2 responses (MS-NLMP §3.3.2) with the given client challenge and time
/// (100 ns ticks since 1601; the server's `MsvAvTimestamp` wins when present).
pub fn v2_responses(
    challenge: &ChallengeMessage,
    user: &NtlmUser,
    password: &str,
    client_challenge: [u8; 8],
    now: u64,
) -> V2Responses {
    let key = ntowfv2(password, &user.user, &user.domain);
    let server_time = challenge.timestamp();
    let time = server_time.unwrap_or(now);
    let mut temp = Vec::with_capacity(32 + challenge.target_info.len());
    temp.extend_from_slice(&[1, 1, 0, 0, 0, 0, 0, 0]);
    temp.extend_from_slice(&time.to_le_bytes());
    temp.extend_from_slice(&client_challenge);
    temp.extend_from_slice(&[0; 4]);
    temp.extend_from_slice(&challenge.target_info);
    temp.extend_from_slice(&[0; 4]);
    let proof = hmac_md5(&key, &[&challenge.server_challenge, &temp]);
    let mut nt = proof.to_vec();
    nt.extend_from_slice(&temp);
    let lm = if server_time.is_some() {
        vec![0u8; 24]
    } else {
        let mut lm = hmac_md5(&key, &[&challenge.server_challenge, &client_challenge]).to_vec();
        lm.extend_from_slice(&client_challenge);
        lm
    };
    V2Responses {
        lm,
        nt,
        session_base_key: hmac_md5(&key, &[&proof]),
    }
}

/// Now in Windows FILETIME units (100 ns since 1601-01-01).
pub fn filetime_now() -> u64 {
    const EPOCH_DIFF_SECS: u64 = 11_644_473_600;
    let since_unix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    (since_unix.as_secs() + EPOCH_DIFF_SECS) * 10_000_000
        + u64::from(since_unix.subsec_nanos()) / 100
}

/// The `AUTHENTICATE_MESSAGE` answering `challenge` (MS-NLMP §2.2.1.3), with a 64-byte header
/// (no version, no MIC, no session key).
pub fn authenticate_message(
    challenge: &ChallengeMessage,
    user: &NtlmUser,
    password: &str,
    workstation: &str,
    client_challenge: [u8; 8],
    now: u64,
) -> Vec<u8> {
    let r = v2_responses(challenge, user, password, client_challenge, now);
    let unicode = challenge.flags & NEGOTIATE_UNICODE != 0;
    let text = |s: &str| -> Vec<u8> {
        if unicode {
            utf16le(s)
        } else {
            // OEM: the server did not offer Unicode; non-ASCII becomes '?'
            s.chars()
                .map(|c| if c.is_ascii() { c as u8 } else { b'?' })
                .collect()
        }
    };
    let mut flags = challenge.flags
        & (NEGOTIATE_UNICODE
            | NEGOTIATE_OEM
            | REQUEST_TARGET
            | NEGOTIATE_NTLM
            | NEGOTIATE_ALWAYS_SIGN
            | NEGOTIATE_EXTENDED_SESSIONSECURITY
            | NEGOTIATE_TARGET_INFO
            | NEGOTIATE_128
            | NEGOTIATE_56);
    if unicode {
        flags &= !NEGOTIATE_OEM;
    }
    let fields: [Vec<u8>; 6] = [
        r.lm,
        r.nt,
        text(&user.domain),
        text(&user.user),
        text(workstation),
        Vec::new(), // EncryptedRandomSessionKey
    ];
    let mut m = Vec::with_capacity(64 + fields.iter().map(Vec::len).sum::<usize>());
    m.extend_from_slice(SIGNATURE);
    m.extend_from_slice(&3u32.to_le_bytes());
    let mut offset = 64u32;
    for f in &fields {
        // Field lengths are bounded by u16 on the wire; settings values never come close.
        let len = u16::try_from(f.len()).unwrap_or(u16::MAX);
        m.extend_from_slice(&len.to_le_bytes());
        m.extend_from_slice(&len.to_le_bytes());
        m.extend_from_slice(&offset.to_le_bytes());
        offset += u32::from(len);
    }
    m.extend_from_slice(&flags.to_le_bytes());
    for f in &fields {
        m.extend_from_slice(&f[..f.len().min(usize::from(u16::MAX))]);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unhex(s: &str) -> Vec<u8> {
        hex::decode(s).unwrap()
    }

    /// MS-NLMP §4.2.4: the NTLMv2 example.
    const TARGET_INFO: &str =
        "02000c0044006f006d00610069006e0001000c0053006500720076006500720000000000";

    fn sample_challenge() -> ChallengeMessage {
        ChallengeMessage {
            flags: 0xe28a_8233,
            server_challenge: [0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef],
            target_info: unhex(TARGET_INFO),
        }
    }

    fn user() -> NtlmUser {
        NtlmUser {
            domain: "Domain".into(),
            user: "User".into(),
        }
    }

    #[test]
    fn ms_nlmp_4_2_4_ntlmv2_vectors() {
        // §4.2.4.1.1 NTOWFv2
        assert_eq!(
            hex::encode(ntowfv2("Password", "User", "Domain")),
            "0c868a403bfd7a93a3001ef22ef02e3f"
        );
        let r = v2_responses(&sample_challenge(), &user(), "Password", [0xaa; 8], 0);
        // §4.2.4.2.1 LMv2 response
        assert_eq!(
            hex::encode(&r.lm),
            "86c35097ac9cec102554764a57cccc19aaaaaaaaaaaaaaaa"
        );
        // §4.2.4.2.2 NTLMv2 response: NTProofStr ‖ temp
        assert_eq!(
            hex::encode(&r.nt),
            format!(
                "68cd0ab851e51c96aabc927bebef6a1c\
                 01010000000000000000000000000000aaaaaaaaaaaaaaaa00000000{TARGET_INFO}00000000"
            )
        );
        // §4.2.4.1.2 session base key
        assert_eq!(
            hex::encode(r.session_base_key),
            "8de40ccadbc14a82f15cb0ad0de95ca3"
        );
    }

    #[test]
    fn md4_of_the_password_is_the_nt_hash() {
        // MS-NLMP §4.2.2.1.2 NTOWFv1("Password")
        assert_eq!(
            hex::encode(md4::Md4::digest(utf16le("Password"))),
            "a4f49c406510bdcab6824ee7c30fd852"
        );
    }

    #[test]
    fn user_names_are_case_insensitive_domains_are_not() {
        assert_eq!(
            ntowfv2("Password", "user", "Domain"),
            ntowfv2("Password", "USER", "Domain")
        );
        assert_ne!(
            ntowfv2("Password", "User", "domain"),
            ntowfv2("Password", "User", "Domain")
        );
    }

    fn challenge_bytes(target_info: &[u8], flags: u32) -> Vec<u8> {
        let mut m = Vec::new();
        m.extend_from_slice(SIGNATURE);
        m.extend_from_slice(&2u32.to_le_bytes());
        m.extend_from_slice(&[0, 0, 0, 0, 48, 0, 0, 0]); // empty target name
        m.extend_from_slice(&flags.to_le_bytes());
        m.extend_from_slice(&[0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef]);
        m.extend_from_slice(&[0; 8]);
        let len = target_info.len() as u16;
        m.extend_from_slice(&len.to_le_bytes());
        m.extend_from_slice(&len.to_le_bytes());
        m.extend_from_slice(&48u32.to_le_bytes());
        m.extend_from_slice(target_info);
        m
    }

    #[test]
    fn challenge_parsing_and_its_errors() {
        let ti = unhex(TARGET_INFO);
        let c = parse_challenge(&challenge_bytes(&ti, 0xe28a_8233)).unwrap();
        assert_eq!(c, sample_challenge());
        assert_eq!(c.timestamp(), None);
        // through base64, as in a header
        let token = header_value(&challenge_bytes(&ti, 1));
        let c = parse_challenge_token(token.strip_prefix("NTLM ").unwrap()).unwrap();
        assert_eq!(c.flags, 1);
        assert!(
            c.target_info.is_empty(),
            "no NEGOTIATE_TARGET_INFO: no target info"
        );
        // a 32-byte message (no target info) is fine
        let short = &challenge_bytes(&[], 1)[..32];
        assert!(parse_challenge(short).unwrap().target_info.is_empty());
        // errors, never panics
        let mut bad = challenge_bytes(&ti, NEGOTIATE_TARGET_INFO);
        bad[44] = 200; // target info offset past the end
        assert!(parse_challenge(&bad).is_err());
        let mut bad = challenge_bytes(&ti, NEGOTIATE_TARGET_INFO);
        bad[44] = 40; // inside the header
        assert!(parse_challenge(&bad).is_err());
        let mut bad = challenge_bytes(&ti, 1);
        bad[8] = 3;
        assert!(parse_challenge(&bad).is_err());
        assert!(parse_challenge(b"NTLMSSP\0").is_err());
        assert!(parse_challenge(&[0u8; 64]).is_err());
        assert_eq!(parse_challenge_token("***"), Err(NtlmError::Base64));
        for n in 0..60 {
            let mut m = challenge_bytes(&ti, 1);
            m.truncate(n);
            let _ = parse_challenge(&m);
        }
    }

    #[test]
    fn server_timestamp_is_used_and_lm_is_zero() {
        // MsvAvTimestamp = 1, then EOL
        let mut ti = vec![7, 0, 8, 0];
        ti.extend_from_slice(&1u64.to_le_bytes());
        ti.extend_from_slice(&[0, 0, 0, 0]);
        let c = ChallengeMessage {
            target_info: ti,
            ..sample_challenge()
        };
        assert_eq!(c.timestamp(), Some(1));
        let r = v2_responses(&c, &user(), "Password", [0xaa; 8], 999);
        assert_eq!(r.lm, vec![0u8; 24]);
        assert_eq!(&r.nt[24..32], &1u64.to_le_bytes());
        // a truncated pair list does not panic
        let c = ChallengeMessage {
            target_info: vec![7, 0, 8, 0, 1],
            ..sample_challenge()
        };
        assert_eq!(c.timestamp(), None);
    }

    #[test]
    fn messages_have_the_documented_layout() {
        let n = negotiate_message();
        assert_eq!(&n[..8], SIGNATURE);
        assert_eq!(u32::from_le_bytes(n[8..12].try_into().unwrap()), 1);
        assert_eq!(
            u32::from_le_bytes(n[12..16].try_into().unwrap()),
            CLIENT_FLAGS
        );
        let m = authenticate_message(
            &sample_challenge(),
            &user(),
            "Password",
            "COMPUTER",
            [0xaa; 8],
            0,
        );
        let field = |at: usize| {
            let len = u16::from_le_bytes([m[at], m[at + 1]]) as usize;
            let off = u32::from_le_bytes(m[at + 4..at + 8].try_into().unwrap()) as usize;
            m[off..off + len].to_vec()
        };
        assert_eq!(u32::from_le_bytes(m[8..12].try_into().unwrap()), 3);
        assert_eq!(
            hex::encode(field(12)),
            "86c35097ac9cec102554764a57cccc19aaaaaaaaaaaaaaaa"
        );
        assert_eq!(
            hex::encode(&field(20)[..16]),
            "68cd0ab851e51c96aabc927bebef6a1c"
        );
        assert_eq!(field(28), utf16le("Domain"));
        assert_eq!(field(36), utf16le("User"));
        assert_eq!(field(44), utf16le("COMPUTER"));
        assert!(field(52).is_empty());
        let flags = u32::from_le_bytes(m[60..64].try_into().unwrap());
        assert_eq!(flags & NEGOTIATE_OEM, 0, "unicode was negotiated");
        assert_eq!(flags & 0x4000_0000, 0, "no key exchange");
        // OEM strings when the server does not do Unicode
        let oem = ChallengeMessage {
            flags: NEGOTIATE_OEM | NEGOTIATE_NTLM,
            ..sample_challenge()
        };
        let m = authenticate_message(&oem, &user(), "Password", "PC", [0; 8], 0);
        let off = u32::from_le_bytes(m[40..44].try_into().unwrap()) as usize;
        assert_eq!(&m[off..off + 4], b"User");
    }

    #[test]
    fn filetime_is_after_2020() {
        // 2020-01-01 in FILETIME units
        assert!(filetime_now() > 132_223_104_000_000_000);
    }
}

/// The examples of this file's crate-internal items, run as unit tests.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_ntlmuser_parse() {
        use crate::transport::ntlm::NtlmUser;
        assert_eq!(NtlmUser::parse("CORP\\jane", None).domain, "CORP");
        assert_eq!(
            NtlmUser::parse("jane@corp.example", None).domain,
            "corp.example"
        );
        let u = NtlmUser::parse("jane", Some("ENV"));
        assert_eq!((u.domain.as_str(), u.user.as_str()), ("ENV", "jane"));
    }
}
