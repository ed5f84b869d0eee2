//! Every vector of `cipher-test-vectors.md` through the public API, the real-Maven fixtures of
//! `testdata/security/`, relocation and the error messages.

use std::path::{Path, PathBuf};

use m2resolver::security::{
    decrypt_password, decrypt_v4, encrypt_master_password, encrypt_password, encrypt_v4,
    is_encrypted, maven3_payload, CipherError, Decryptor, SecurityContext, SecurityError,
};
use m2resolver::Secret;

const SETTINGS_SECURITY: &str = "settings.security";

/// A temp home with the given files (relative path, content).
fn home_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, content) in files {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
    }
    dir
}

fn ctx(home: &Path) -> SecurityContext {
    SecurityContext::new(home, home)
}

fn legacy_file(master: &str) -> String {
    format!("<settingsSecurity><master>{master}</master></settingsSecurity>")
}

#[test]
fn legacy_decryption_vectors_l1_to_l13() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "L1",
            "ibeHrdCOonkH7d7YnH7sarQLbwOk1ljkkM/z8hUhl4c=",
            "testtest",
            "veryOpenText",
        ),
        (
            "L2",
            "LFulS0pAlmMHpDtm+81oPcqctcwpco5p4Fo7640/gqDRifCahXBefG4FxgKcu17v",
            "testtest",
            "my testing phrase",
        ),
        (
            "L3",
            "1wQaa6S/o8MH7FnaTNL53XmhT5O0SEGXQi3gC49o6OY=",
            SETTINGS_SECURITY,
            "testtest",
        ),
        (
            "L4",
            "BteqUEnqHecHM7MZfnj9FwLcYbdInWxou1C929Txa0A=",
            "testtest",
            "testtest",
        ),
        (
            "L5",
            "KDvsYOFLlXgH4LU8tvpzAGg5otiosZXvfdQq0yO86LU=",
            SETTINGS_SECURITY,
            "masterpassword",
        ),
        (
            "L6",
            "L6L/HbmrY+cH+sNkphnq3fguYepTpM04WlIXb8nB1pk=",
            "masterpassword",
            "password",
        ),
        (
            "L7",
            "biSS3+PaKIMH9acY9wBZjfuzSTrkkrXjgDa7jWvW+ew=",
            SETTINGS_SECURITY,
            "masterpassword",
        ),
        (
            "L8",
            "Y59ndMXzPqkHlZSKdhADs6QXXDWjtIjFe8hBX8EvFxg=",
            SETTINGS_SECURITY,
            "masterPw!",
        ),
        (
            "L9",
            "krz37iVZuF4HCSWYKD0ye863qQyKrIYLzH1IJ1x56h0=",
            SETTINGS_SECURITY,
            "masterPw!",
        ),
        (
            "L10",
            "CN8zjCyFVJMHzTZ1aN1b9MrccParOENbG1kHa+aes0M=",
            "masterPw!",
            "p@ss wörd",
        ),
        (
            "L11",
            "lM8QfRSKzAYHKOsJoG/tX8woNeVni6qZIS6IBqak4nw=",
            "masterPw!",
            "x",
        ),
        (
            "L12",
            "V13ktV/t9XoH7Lw5LUuc51TRMTw1C4VI+gMXsTX1FxU=",
            "pässwörd€",
            "p",
        ),
        (
            "L13",
            "AsNZkdHmEwEHuUD7O48raaWhF7CsJwJ4A3feKiYNj/dv0e+ZRUkmiOmfRKi/ytfJ",
            "k",
            "0123456789abcdef",
        ),
    ];
    for (id, payload, password, clear) in cases {
        // Undecorated and decorated both work (decryptDecorated).
        for value in [payload.to_string(), format!("{{{payload}}}")] {
            let got = decrypt_password(&value, password).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(got.expose(), *clear, "{id}");
        }
    }
    assert_eq!("p@ss wörd".len(), 10);
}

#[test]
fn legacy_negative_vectors() {
    let l1 = "ibeHrdCOonkH7d7YnH7sarQLbwOk1ljkkM/z8hUhl4c=";
    for wrong in ["wrong", "testtesT"] {
        let e = decrypt_password(l1, wrong).unwrap_err();
        assert!(
            matches!(e, SecurityError::Decrypt(CipherError::BadPadding)),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "wrong master password or corrupt value (bad padding)"
        );
    }
    assert!(matches!(
        decrypt_password("abc", "x"),
        Err(SecurityError::Decrypt(CipherError::TooShort { .. }))
    ));
    assert!(matches!(
        decrypt_password("AAECAwQFBgcH", "x"),
        Err(SecurityError::Decrypt(CipherError::BadLayout {
            pad_len: 7,
            ..
        }))
    ));
    assert_eq!(decrypt_password("", "x").unwrap().expose(), "");
    // plexus-cipher 2.0 ignores whitespace inside the payload.
    let spaced = "1wQa a6S/o8MH7F naTNL53XmhT5O0SEGXQi3gC49o6OY=\n";
    assert_eq!(
        decrypt_password(spaced, SETTINGS_SECURITY)
            .unwrap()
            .expose(),
        "testtest"
    );
    // encryptAndDecorate("") is "{}", which is not recognised as encrypted.
    assert_eq!(encrypt_master_password(""), "{}");
    assert!(!is_encrypted("{}"));
}

#[test]
fn deterministic_chain_d1_d2_through_settings_security() {
    let home = home_with(&[(
        ".m2/settings-security.xml",
        &legacy_file("{AAECAwQFBgcH7mA1BBMGqmEAnsuSGYKFp6qqqqqqqqo=}"),
    )]);
    let d = Decryptor::new(ctx(home.path()));
    assert_eq!(d.master_password().unwrap().expose(), "masterPw");
    let v = d
        .decrypt("{AAECAwQFBgcHwhKV1UfKUE7cJY/4QsAQ86qqqqqqqqo=}")
        .unwrap();
    assert_eq!(v.expose(), "secret");
}

#[test]
fn decoration_table_through_public_api() {
    let payload = "CN8zjCyFVJMHzTZ1aN1b9MrccParOENbG1kHa+aes0M=";
    let oleg =
        format!("Oleg reset this password on 2009-03-11, expires on 2009-04-11 {{{payload}}}");
    assert_eq!(maven3_payload(&oleg), Some(payload));
    assert_eq!(
        decrypt_password(&oleg, "masterPw!").unwrap().expose(),
        "p@ss wörd"
    );
    let table: &[(&str, Option<&str>)] = &[
        ("{abc}", Some("abc")),
        ("x {abc} y", Some("abc")),
        ("prefix{abc}suffix", Some("abc")),
        ("This is a test", None),
        (
            "Comment {This is a test} other comment with a: }",
            Some("This is a test"),
        ),
        ("\\{This is a test\\}", None),
        (
            "Comment {foo\\{This is a test\\}} other comment with a: }",
            Some("foo\\{This is a test\\}"),
        ),
        ("{}", None),
        ("\\{abc}", Some("abc")),
        ("{a\\}b}", Some("a\\}b")),
        ("{{abc}}", Some("abc")),
        ("}{abc}", Some("abc")),
        ("a{b}c{d}", Some("b")),
        ("x\n{abc}\ny", None),
        ("{ab\nc}", None),
        ("{abc", None),
    ];
    for (value, expected) in table {
        assert_eq!(maven3_payload(value), *expected, "{value:?}");
        assert_eq!(is_encrypted(value), expected.is_some(), "{value:?}");
    }
}

/// A home whose settings-security.xml holds master L8 (`masterPw!`).
fn home_l8() -> tempfile::TempDir {
    home_with(&[(
        ".m2/settings-security.xml",
        &legacy_file("{Y59ndMXzPqkHlZSKdhADs6QXXDWjtIjFe8hBX8EvFxg=}"),
    )])
}

#[test]
fn maven3_dispatcher_cases() {
    let home = home_l8();
    let d = Decryptor::new(ctx(home.path()));
    // Comment text around the braces, brackets dropped by the lenient decoder.
    let cases = [
        "{CN8zjCyFVJMHzTZ1aN1b9MrccParOENbG1kHa+aes0M=}",
        "Oleg reset this password on 2009-03-11, expires on 2009-04-11 {CN8zjCyFVJMHzTZ1aN1b9MrccParOENbG1kHa+aes0M=}",
        "{[]CN8zjCyFVJMHzTZ1aN1b9MrccParOENbG1kHa+aes0M=}",
    ];
    for value in cases {
        assert_eq!(d.decrypt(value).unwrap().expose(), "p@ss wörd", "{value}");
    }
    assert_eq!(d.decrypt("plain text").unwrap().expose(), "plain text");
    assert_eq!(d.decrypt("\\{abc\\}").unwrap().expose(), "\\{abc\\}");
    let e = d.decrypt("{abc}").unwrap_err();
    assert!(
        matches!(e, SecurityError::Decrypt(CipherError::TooShort { .. })),
        "{e:?}"
    );
    let e = d.decrypt("{[type=foo]xyz}").unwrap_err();
    assert!(e.to_string().starts_with("unknown dispatcher 'foo'"), "{e}");
    // Values encrypted now are decrypted with the same master.
    let fresh = encrypt_password("new one", "masterPw!");
    assert_eq!(d.decrypt(&fresh).unwrap().expose(), "new one");
    assert_eq!(
        d.encrypt_password("via decryptor")
            .map(|v| d.decrypt(&v).unwrap().expose().to_string())
            .unwrap(),
        "via decryptor"
    );
}

#[test]
fn master_password_forms() {
    // Whole-string base64 without braces also works in Maven 3; text around braces is a comment.
    for master in [
        "Y59ndMXzPqkHlZSKdhADs6QXXDWjtIjFe8hBX8EvFxg=",
        "made 2024 {Y59ndMXzPqkHlZSKdhADs6QXXDWjtIjFe8hBX8EvFxg=}",
        "\n   {Y59ndMXzPqkHlZSKdhADs6QXXDWjtIjFe8hBX8EvFxg=}\n  ",
    ] {
        let home = home_with(&[(".m2/settings-security.xml", &legacy_file(master))]);
        let d = Decryptor::new(ctx(home.path()));
        assert_eq!(
            d.master_password().unwrap().expose(),
            "masterPw!",
            "{master:?}"
        );
    }
    // A plaintext master fails in Maven 3.
    let home = home_with(&[(".m2/settings-security.xml", &legacy_file("plaintext"))]);
    let e = Decryptor::new(ctx(home.path()))
        .master_password()
        .unwrap_err();
    assert!(matches!(e, SecurityError::MasterDecrypt { .. }), "{e:?}");
    assert!(!e.to_string().contains("plaintext"), "{e}");
}

#[test]
fn real_maven_fixtures_decrypt() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let tsv = std::fs::read_to_string(root.join("testdata/security/passwords.tsv")).unwrap();
    let rows: Vec<(&str, &str)> = tsv.lines().filter_map(|l| l.split_once('\t')).collect();
    assert_eq!(rows.len(), 4);
    for file in ["settings-security.xml", "settings-security-relocation.xml"] {
        let c = SecurityContext::new("/nonexistent-home", &root)
            .with_property("settings.security", format!("testdata/security/{file}"));
        let d = Decryptor::new(c);
        assert_eq!(
            d.master_password().unwrap().expose(),
            "fixture-Master#1",
            "{file}"
        );
        for (clear, encrypted) in &rows {
            assert_eq!(
                d.decrypt(encrypted).unwrap().expose(),
                *clear,
                "{file}: {clear}"
            );
        }
    }
}

#[test]
fn relocation_chain_loop_and_limit() {
    let home = home_with(&[
        (
            "a.xml",
            "<settingsSecurity><relocation>b.xml</relocation></settingsSecurity>",
        ),
        (
            "b.xml",
            "<settingsSecurity>\n  <relocation>\n    c.xml\n  </relocation>\n</settingsSecurity>",
        ),
        (
            "c.xml",
            &legacy_file("{Y59ndMXzPqkHlZSKdhADs6QXXDWjtIjFe8hBX8EvFxg=}"),
        ),
        (
            "loop1.xml",
            "<settingsSecurity><relocation>loop2.xml</relocation></settingsSecurity>",
        ),
        (
            "loop2.xml",
            "<settingsSecurity><relocation>./loop1.xml</relocation></settingsSecurity>",
        ),
        (
            "self.xml",
            "<settingsSecurity><relocation>self.xml</relocation></settingsSecurity>",
        ),
    ]);
    let with =
        |file: &str| Decryptor::new(ctx(home.path()).with_property("settings.security", file));
    assert_eq!(
        with("a.xml").master_password().unwrap().expose(),
        "masterPw!"
    );
    assert_eq!(
        with("a.xml")
            .decrypt("{lM8QfRSKzAYHKOsJoG/tX8woNeVni6qZIS6IBqak4nw=}")
            .unwrap()
            .expose(),
        "x"
    );
    for start in ["loop1.xml", "self.xml"] {
        let e = with(start).master_password().unwrap_err();
        assert!(matches!(e, SecurityError::RelocationLoop { .. }), "{e:?}");
        assert!(e.to_string().contains("relocation loop"), "{e}");
    }
    // 20 files in a line exceed the limit of 16 hops.
    let chain = tempfile::tempdir().unwrap();
    for i in 0..20 {
        std::fs::write(
            chain.path().join(format!("{i}.xml")),
            format!(
                "<settingsSecurity><relocation>{}.xml</relocation></settingsSecurity>",
                i + 1
            ),
        )
        .unwrap();
    }
    let d = Decryptor::new(ctx(chain.path()).with_property("settings.security", "0.xml"));
    assert!(matches!(
        d.master_password(),
        Err(SecurityError::TooManyRelocations { max: 16, .. })
    ));
    // Relocation to a missing file names that file.
    let home = home_with(&[(
        "r.xml",
        "<settingsSecurity><relocation>/no/such/file.xml</relocation></settingsSecurity>",
    )]);
    let e = Decryptor::new(ctx(home.path()).with_property("settings.security", "r.xml"))
        .master_password()
        .unwrap_err();
    assert!(e.to_string().contains("/no/such/file.xml not found"), "{e}");
}

#[test]
fn legacy_error_messages() {
    let home = home_with(&[]);
    let d = Decryptor::new(ctx(home.path()));
    let e = d.decrypt("{abc}").unwrap_err().to_string();
    let expected = format!(
        "cannot read master password: settings-security file {}/.m2/settings-security.xml not found (set -Dsettings.security=FILE or create it with `m2r encrypt-master-password`)",
        home.path().display()
    );
    assert_eq!(e, expected);

    let home = home_with(&[(".m2/settings-security.xml", "<settingsSecurity/>")]);
    let e = Decryptor::new(ctx(home.path()))
        .decrypt("{abc}")
        .unwrap_err();
    assert!(matches!(e, SecurityError::MasterNotSet { .. }), "{e:?}");

    let home = home_with(&[(
        ".m2/settings-security.xml",
        "<settingsSecurity>\n<modelVersion>4.0</modelVersion>\n</settingsSecurity>",
    )]);
    let e = Decryptor::new(ctx(home.path()))
        .decrypt("{abc}")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("Unrecognised tag: 'modelVersion' (line 2)"),
        "{e}"
    );

    // `~` in the property is replaced by user.home.
    let home = home_l8();
    let d = Decryptor::new(
        ctx(home.path()).with_property("settings.security", "~/.m2/settings-security.xml"),
    );
    assert_eq!(d.master_password().unwrap().expose(), "masterPw!");
}

const G1: &str = "{[name=master,cipher=AES/GCM/NoPadding,version=4.0]w+C6vJwryWolUYkLtAMCkMGCWfB09haER/AiingAH4NEDr37euLdwMYYLvxaSQe/97OJ+A==}";
const G2: &str = "{[name=master,cipher=AES/GCM/NoPadding,version=4.0]/EbAnkmLQnYmz75KTY+5+A4iG/N9AAE8o/SvaWy/E/gOIcyDBuJ5DDFeNj0SI4rtVGPnDbFOHis=}";
const G3: &str = "{[name=master,cipher=AES/GCM/NoPadding,version=4.0,a=b]vvq66pZ7rkvzSPStGTI9q4QDnsmuDwo+LtjraRel2b0XpcGJFdXcYAHAS75HUA6GLpcVtEkmyQ==}";
const GD: &str = "{[name=master,cipher=AES/GCM/NoPadding,version=4.0]AAECAwQFBgcICQoLEBESExQVFhcYGRobHB0eH7BoN4ZaByNQIXU6vXp8ZMWYrYAQKrPPAB4bDQ==}";

const SEC4: &str = r#"<settingsSecurity xmlns="http://codehaus-plexus.github.io/plexus-sec-dispatcher/4.0.0">
  <modelVersion>4.0</modelVersion>
  <defaultDispatcher>master</defaultDispatcher>
  <configurations><configuration><name>master</name><properties>
    <property><name>source</name><value>env:MAVEN_MASTER_PASSWORD</value></property>
    <property><name>cipher</name><value>AES/GCM/NoPadding</value></property>
  </properties></configuration></configurations>
</settingsSecurity>"#;

#[test]
fn maven4_vectors_g1_g2_through_settings_security4() {
    let home = home_with(&[(".m2/settings-security4.xml", SEC4)]);
    let d = Decryptor::new(ctx(home.path()).with_env("MAVEN_MASTER_PASSWORD", "master"));
    assert_eq!(d.decrypt(G1).unwrap().expose(), "testtest");
    assert_eq!(d.decrypt(G2).unwrap().expose(), "secretHeader");
    assert!(is_encrypted(G1));
}

#[test]
fn maven4_vectors_g3_and_constructed_and_negative() {
    let pw = Secret::new("masterPw");
    assert_eq!(decrypt_v4(G3, &pw).unwrap().expose(), "supersecret");
    assert_eq!(decrypt_v4(GD, &pw).unwrap().expose(), "supersecret");
    let e = decrypt_v4(G1, &pw).unwrap_err();
    assert!(
        matches!(e, SecurityError::Decrypt(CipherError::BadTag)),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "wrong master password or corrupt value (authentication tag mismatch)"
    );
}

#[test]
fn maven4_master_source_lookup_g4_g5() {
    let home = home_with(&[]);
    let d = Decryptor::new(
        ctx(home.path())
            .with_env("MASTER_PASSWORD", "masterPw")
            .with_property("masterPassword", "masterPw"),
    );
    let g4 = "{[name=masterSourceLookup,version=something]env:MASTER_PASSWORD}";
    let g5 = "{[name=masterSourceLookup,version=something]system-property:masterPassword}";
    assert_eq!(d.decrypt(g4).unwrap().expose(), "masterPw");
    assert_eq!(d.decrypt(g5).unwrap().expose(), "masterPw");
    let e = d
        .decrypt("{[name=masterSourceLookup,version=x]nope:thing}")
        .unwrap_err();
    assert!(matches!(e, SecurityError::NoSourceHandled { .. }), "{e:?}");
}

#[test]
fn maven4_legacy_dispatcher() {
    // Master L5 with whitespace and a bogus relocation (ignored by Maven 4's legacy dispatcher).
    let sec2 = "<settingsSecurity>\n  <master>\n    {KDvsYOFLlXgH4LU8tvpzAGg5otiosZXvfdQq0yO86LU=}\n  </master>\n  <relocation>to the moon</relocation>\n</settingsSecurity>\n";
    let home = home_with(&[
        (
            "sec1.xml",
            &legacy_file("{KDvsYOFLlXgH4LU8tvpzAGg5otiosZXvfdQq0yO86LU=}"),
        ),
        ("sec2.xml", sec2),
    ]);
    for file in ["sec1.xml", "sec2.xml"] {
        let d = Decryptor::new(ctx(home.path()).with_property("settings.security", file));
        for value in [
            "{L6L/HbmrY+cH+sNkphnq3fguYepTpM04WlIXb8nB1pk=}",
            "Oleg was here {L6L/HbmrY+cH+sNkphnq3fguYepTpM04WlIXb8nB1pk=}",
            "Oleg {L6L/HbmrY+cH+sNkphnq3fguYepTpM04WlIXb8nB1pk=} was here",
            "{[name=legacy,version=4.0]L6L/HbmrY+cH+sNkphnq3fguYepTpM04WlIXb8nB1pk=}",
        ] {
            assert_eq!(
                d.decrypt_maven4(value).unwrap().expose(),
                "password",
                "{file}: {value}"
            );
        }
        // Strict base64: whitespace inside the payload fails in Maven 4.
        let e = d
            .decrypt_maven4("{L6L/HbmrY+cH+sNkphnq3fguYe pTpM04WlIXb8nB1pk=}")
            .unwrap_err();
        assert!(
            matches!(e, SecurityError::Decrypt(CipherError::Base64(_))),
            "{e:?}"
        );
    }
    // Maven 3 follows the relocation of sec2.xml and fails; Maven 4 ignores it.
    let d = Decryptor::new(ctx(home.path()).with_property("settings.security", "sec2.xml"));
    assert!(d
        .decrypt("{L6L/HbmrY+cH+sNkphnq3fguYepTpM04WlIXb8nB1pk=}")
        .is_err());
    // Plaintext master is allowed by Maven 4's legacy dispatcher.
    let home = home_with(&[(".m2/settings-security.xml", &legacy_file("masterpassword"))]);
    let d = Decryptor::new(ctx(home.path()));
    assert_eq!(
        d.decrypt_maven4("{L6L/HbmrY+cH+sNkphnq3fguYepTpM04WlIXb8nB1pk=}")
            .unwrap()
            .expose(),
        "password"
    );
    // No file at all.
    let home = home_with(&[]);
    let e = Decryptor::new(ctx(home.path()))
        .decrypt_maven4("{L6L/HbmrY+cH+sNkphnq3fguYepTpM04WlIXb8nB1pk=}")
        .unwrap_err();
    assert!(
        matches!(e, SecurityError::LegacyMasterUnavailable { .. }),
        "{e:?}"
    );
    assert_eq!(d.decrypt_maven4("plain").unwrap().expose(), "plain");
}

#[test]
fn maven4_error_cases() {
    let home = home_with(&[]);
    let d = Decryptor::new(ctx(home.path()));
    let e = d.decrypt("{[name=foo,version=4.0]xyz}").unwrap_err();
    assert!(e.to_string().starts_with("unknown dispatcher 'foo'"), "{e}");
    let e = d.decrypt("{[name=master,version=4.0]xyz}").unwrap_err();
    assert_eq!(
        e.to_string(),
        "malformed attributes: missing attribute 'cipher'"
    );
    let e = d
        .decrypt("{[name=master,cipher=AES/CBC,version=4.0]xyz}")
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown cipher 'AES/CBC' (only AES/GCM/NoPadding is supported)"
    );
    // No settings-security4.xml: the master dispatcher has no source.
    let e = d.decrypt(G1).unwrap_err();
    assert!(
        matches!(e, SecurityError::MissingConfiguration { ref key, .. } if key == "source"),
        "{e:?}"
    );
    let e = d.encrypt_with_default_dispatcher("x").unwrap_err();
    assert!(matches!(e, SecurityError::NoConfiguration { .. }), "{e:?}");
    // Source configured but the environment variable is missing.
    let home = home_with(&[(".m2/settings-security4.xml", SEC4)]);
    let d = Decryptor::new(ctx(home.path()));
    let e = d.decrypt(G1).unwrap_err().to_string();
    assert!(
        e.contains("Environment variable 'MAVEN_MASTER_PASSWORD' not found"),
        "{e}"
    );
    // A broken settings-security4.xml breaks every Maven 4 dispatcher.
    let home = home_with(&[(
        ".m2/settings-security4.xml",
        "<settingsSecurity><master>x</master></settingsSecurity>",
    )]);
    let d = Decryptor::new(ctx(home.path()).with_env("MASTER_PASSWORD", "m"));
    let e = d
        .decrypt("{[name=masterSourceLookup,version=4.0]env:MASTER_PASSWORD}")
        .unwrap_err();
    assert!(e.to_string().contains("Unrecognised tag: 'master'"), "{e}");
    // No defaultDispatcher, legacy default.
    let home = home_with(&[
        (
            "a/settings-security4.xml",
            "<settingsSecurity><modelVersion>4.0</modelVersion></settingsSecurity>",
        ),
        (
            "b/settings-security4.xml",
            "<settingsSecurity><defaultDispatcher>legacy</defaultDispatcher></settingsSecurity>",
        ),
    ]);
    let e = Decryptor::new(
        ctx(home.path()).with_property("maven.settings.security", "a/settings-security4.xml"),
    )
    .encrypt_with_default_dispatcher("x")
    .unwrap_err();
    assert!(
        matches!(e, SecurityError::NoDefaultDispatcher { .. }),
        "{e:?}"
    );
    let e = Decryptor::new(
        ctx(home.path()).with_property("maven.settings.security", "b/settings-security4.xml"),
    )
    .encrypt_with_default_dispatcher("x")
    .unwrap_err();
    assert!(matches!(e, SecurityError::LegacyEncrypt), "{e:?}");
}

#[test]
fn maven4_encrypt_round_trip_with_file_source() {
    let home = tempfile::tempdir().unwrap();
    let pw_file = home.path().join("master.txt");
    std::fs::write(&pw_file, "# my master\n  file-master  \n").unwrap();
    let sec4 = SEC4.replace(
        "env:MAVEN_MASTER_PASSWORD",
        &format!("file:{}", pw_file.display()),
    );
    std::fs::create_dir_all(home.path().join(".m2")).unwrap();
    std::fs::write(home.path().join(".m2/settings-security4.xml"), sec4).unwrap();
    let d = Decryptor::new(ctx(home.path()));
    let value = d.encrypt_with_default_dispatcher("tëst value").unwrap();
    assert!(
        value.starts_with("{[name=master,cipher=AES/GCM/NoPadding,version=4.0]"),
        "{value}"
    );
    assert_eq!(d.encrypt_with_default_dispatcher(&value).unwrap(), value);
    // Decrypt with a fresh decryptor (no cache) and through encrypt_v4's explicit API.
    assert_eq!(
        Decryptor::new(ctx(home.path()))
            .decrypt(&value)
            .unwrap()
            .expose(),
        "tëst value"
    );
    let v2 = encrypt_v4("other", &Secret::new("file-master"));
    assert_eq!(d.decrypt(&v2).unwrap().expose(), "other");
}

#[test]
fn errors_never_contain_secrets() {
    let home = home_with(&[(
        ".m2/settings-security.xml",
        &legacy_file("{Y59ndMXzPqkHlZSKdhADs6QXXDWjtIjFe8hBX8EvFxg=}"),
    )]);
    let d = Decryptor::new(ctx(home.path()));
    let wrong = encrypt_password("TOPSECRET", "other master");
    let e = d.decrypt(&wrong).unwrap_err();
    for text in [e.to_string(), format!("{e:?}")] {
        assert!(
            !text.contains("TOPSECRET") && !text.contains("masterPw!"),
            "{text}"
        );
    }
    let ok = d
        .decrypt(&encrypt_password("TOPSECRET", "masterPw!"))
        .unwrap();
    assert_eq!(format!("{ok:?}"), "Secret(***)");
}

#[test]
fn vector_headers_salt_pad_len_iv() {
    use base64::Engine;
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.decode(s).unwrap();
    // Legacy: salt(8) and padLen of the payload.
    let legacy = [
        (
            "ibeHrdCOonkH7d7YnH7sarQLbwOk1ljkkM/z8hUhl4c=",
            "89b787add08ea279",
        ),
        (
            "1wQaa6S/o8MH7FnaTNL53XmhT5O0SEGXQi3gC49o6OY=",
            "d7041a6ba4bfa3c3",
        ),
        (
            "BteqUEnqHecHM7MZfnj9FwLcYbdInWxou1C929Txa0A=",
            "06d7aa5049ea1de7",
        ),
        (
            "KDvsYOFLlXgH4LU8tvpzAGg5otiosZXvfdQq0yO86LU=",
            "283bec60e14b9578",
        ),
        (
            "L6L/HbmrY+cH+sNkphnq3fguYepTpM04WlIXb8nB1pk=",
            "2fa2ff1db9ab63e7",
        ),
    ];
    for (payload, salt) in legacy {
        let blob = b64(payload);
        assert_eq!(hex::encode(&blob[..8]), salt, "{payload}");
        assert_eq!(blob[8], 7, "{payload}");
        assert_eq!(blob.len() % 16, 0, "{payload}");
    }
    // Maven 4: iv(12) || salt(16).
    let gcm = [
        (
            G1,
            "c3e0babc9c2bc96a2551890b",
            "b4030290c18259f074f6168447f0228a",
        ),
        (
            G2,
            "fc46c09e498b427626cfbe4a",
            "4d8fb9f80e221bf37d00013ca3f4af69",
        ),
        (
            G3,
            "befabaea967bae4bf348f4ad",
            "19323dab84039ec9ae0f0a3e2ed8eb69",
        ),
    ];
    for (value, iv, salt) in gcm {
        let payload = &value[value.find(']').unwrap() + 1..value.len() - 1];
        let blob = b64(payload);
        assert_eq!(hex::encode(&blob[..12]), iv);
        assert_eq!(hex::encode(&blob[12..28]), salt);
    }
}
