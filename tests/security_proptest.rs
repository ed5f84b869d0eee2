//! Property tests: both ciphers round-trip, and the decoders never panic on arbitrary input.

use m2resolver::security::{
    decrypt_password, decrypt_v4, encrypt_password, encrypt_v4, is_encrypted, is_maven4_encrypted,
    maven3_payload, maven4_legacy_payload, maven4_settings_decrypts,
};
use m2resolver::Secret;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn legacy_round_trip(clear in "\\PC{1,40}", master in "\\PC{0,20}") {
        let value = encrypt_password(&clear, &master);
        prop_assert!(is_encrypted(&value));
        prop_assert_eq!(maven3_payload(&value), Some(&value[1..value.len() - 1]));
        let back = decrypt_password(&value, &master).unwrap();
        prop_assert_eq!(back.expose(), clear.as_str());
    }

    #[test]
    fn legacy_decoder_never_panics(value in "[A-Za-z0-9+/=\\[\\]{} \\n-]{0,80}", master in "\\PC{0,8}") {
        let _ = decrypt_password(&value, &master);
    }

    #[test]
    fn legacy_decoder_never_panics_on_any_text(value in "\\PC{0,60}") {
        let _ = decrypt_password(&value, "pw");
    }

    #[test]
    fn detection_never_panics_and_payload_is_inside_braces(value in "[{}\\\\a \\n\\r\\[\\]=,é]{0,30}") {
        if let Some(p) = maven3_payload(&value) {
            let decorated = format!("{{{p}}}");
            prop_assert!(value.contains(&decorated));
            prop_assert!(!p.is_empty() && !p.ends_with('\\'));
        }
        let _ = is_maven4_encrypted(&value);
        let _ = maven4_legacy_payload(&value);
        let _ = maven4_settings_decrypts(&value);
    }

    #[test]
    fn maven4_decoder_never_panics(payload in "[A-Za-z0-9+/= ]{0,56}", attrs in "[a-z=, ]{0,20}") {
        // Payloads up to 56 characters decode to at most 42 bytes (< 44): no PBKDF2 run.
        let value = format!("{{[name=master,cipher=AES/GCM/NoPadding,{attrs},version=4.0]{payload}}}");
        let _ = decrypt_v4(&value, &Secret::new("m"));
    }
}

proptest! {
    // Each case runs PBKDF2 twice (310,000 rounds): keep it small.
    #![proptest_config(ProptestConfig::with_cases(2))]

    #[test]
    fn maven4_round_trip(clear in "\\PC{0,30}", master in "[ -~]{1,12}") {
        let value = encrypt_v4(&clear, &Secret::new(master.clone()));
        prop_assert!(is_maven4_encrypted(&value));
        let back = decrypt_v4(&value, &Secret::new(master)).unwrap();
        prop_assert_eq!(back.expose(), clear.as_str());
    }
}
