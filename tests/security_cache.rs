//! The Decryptor reads files once, obtains master passwords once and decrypts each distinct
//! value once, also under concurrency. One test function: it counts process-wide PBKDF2 runs.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use m2resolver::security::{
    encrypt_password, key_derivations, Decryptor, SecurityContext, SecurityError,
};
use m2resolver::Secret;

const G1: &str = "{[name=master,cipher=AES/GCM/NoPadding,version=4.0]w+C6vJwryWolUYkLtAMCkMGCWfB09haER/AiingAH4NEDr37euLdwMYYLvxaSQe/97OJ+A==}";
const G2: &str = "{[name=master,cipher=AES/GCM/NoPadding,version=4.0]/EbAnkmLQnYmz75KTY+5+A4iG/N9AAE8o/SvaWy/E/gOIcyDBuJ5DDFeNj0SI4rtVGPnDbFOHis=}";

#[test]
fn files_masters_and_values_are_processed_once() {
    let home = tempfile::tempdir().unwrap();
    let m2 = home.path().join(".m2");
    std::fs::create_dir_all(&m2).unwrap();
    // Legacy: master L8 ("masterPw!").
    std::fs::write(
        m2.join("settings-security.xml"),
        "<settingsSecurity><master>{Y59ndMXzPqkHlZSKdhADs6QXXDWjtIjFe8hBX8EvFxg=}</master></settingsSecurity>",
    )
    .unwrap();
    // Maven 4: the master comes from a counting custom source.
    std::fs::write(
        m2.join("settings-security4.xml"),
        "<settingsSecurity><modelVersion>4.0</modelVersion><defaultDispatcher>master</defaultDispatcher>\
         <configurations><configuration><name>master</name><properties>\
         <property><name>source</name><value>counting:master</value></property>\
         <property><name>cipher</name><value>AES/GCM/NoPadding</value></property>\
         </properties></configuration></configurations></settingsSecurity>",
    )
    .unwrap();
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = asked.clone();
    let source = move |spec: &str, _: &SecurityContext| -> Option<Result<Secret, SecurityError>> {
        let pw = spec.strip_prefix("counting:")?;
        counter.fetch_add(1, Ordering::SeqCst);
        Some(Ok(Secret::new(pw)))
    };
    let ctx = SecurityContext::new(home.path(), home.path()).with_master_source(Arc::new(source));
    let decryptor = Arc::new(Decryptor::new(ctx));

    // Legacy: after the first value, the file is no longer needed.
    let a = encrypt_password("first", "masterPw!");
    let b = encrypt_password("second", "masterPw!");
    assert_eq!(decryptor.decrypt(&a).unwrap().expose(), "first");
    std::fs::remove_file(m2.join("settings-security.xml")).unwrap();
    assert_eq!(decryptor.decrypt(&b).unwrap().expose(), "second");
    // A fresh decryptor does see the file is gone.
    assert!(Decryptor::new(decryptor.context().clone())
        .decrypt(&b)
        .is_err());

    // Maven 4: 8 threads ask for the same value at once: one PBKDF2, one master lookup.
    let before = key_derivations();
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let d = decryptor.clone();
            std::thread::spawn(move || d.decrypt(G1).map(|s| s.expose().to_string()))
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap().unwrap(), "testtest");
    }
    assert_eq!(key_derivations() - before, 1);
    // Cached: no more derivations for G1; one more for G2; the master was asked once.
    assert_eq!(decryptor.decrypt(G1).unwrap().expose(), "testtest");
    assert_eq!(key_derivations() - before, 1);
    assert_eq!(decryptor.decrypt(G2).unwrap().expose(), "secretHeader");
    assert_eq!(key_derivations() - before, 2);
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    // The settings-security4.xml is not read again either.
    std::fs::remove_file(m2.join("settings-security4.xml")).unwrap();
    assert_eq!(decryptor.decrypt(G2).unwrap().expose(), "secretHeader");
    // Plain values never touch anything.
    assert_eq!(decryptor.decrypt("plain").unwrap().expose(), "plain");
    assert_eq!(key_derivations() - before, 2);
}
