//! TLS for repository connections (rustls with the *ring* provider): the trusted roots
//! (Mozilla's bundled roots, the system's store, and extra PEM files such as a corporate CA or
//! `SSL_CERT_FILE`) and ALPN offering HTTP/2 then HTTP/1.1, also inside proxy tunnels.

use crate::transport::error::TransportError;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
use std::path::Path;
use std::sync::Arc;

/// Reads the certificates of a PEM file; an unreadable file, or one without certificates, is an
/// error naming the file.
pub fn read_pem_certificates(file: &Path) -> Result<Vec<CertificateDer<'static>>, TransportError> {
    // A CA bundle is a few hundred KiB; /dev/zero or a FIFO here is refused unread.
    let pem = crate::bounded::read_regular_file(file, 16 << 20).map_err(|source| {
        TransportError::CaFile {
            path: file.to_path_buf(),
            problem: format!("cannot be read ({source})"),
            source: Some(source),
        }
    })?;
    let mut certs = Vec::new();
    for c in CertificateDer::pem_slice_iter(&pem) {
        let c = c.map_err(|e| TransportError::CaFile {
            path: file.to_path_buf(),
            problem: format!("is not a PEM bundle: {e}"),
            source: None,
        })?;
        certs.push(c);
    }
    if certs.is_empty() {
        return Err(TransportError::CaFile {
            path: file.to_path_buf(),
            problem: "holds no PEM certificate".into(),
            source: None,
        });
    }
    Ok(certs)
}

/// The trust anchors of `extra` (the extra CA files' certificates): checked when the transport
/// is set up, while [`client_config`] — which reads the system's store — waits for the first
/// connection.
pub fn extra_roots(
    extra: &[CertificateDer<'static>],
) -> Result<rustls::RootCertStore, TransportError> {
    let mut roots = rustls::RootCertStore::empty();
    for c in extra {
        roots.add(c.clone()).map_err(|e| {
            TransportError::Setup(format!("an extra CA certificate is unusable: {e}"))
        })?;
    }
    Ok(roots)
}

/// The client configuration: bundled and system roots plus `extra` (from [`extra_roots`]),
/// ALPN `h2`, `http/1.1`.
pub fn client_config(
    extra: &rustls::RootCertStore,
) -> Result<Arc<rustls::ClientConfig>, TransportError> {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    // An unreadable system store is not fatal: the bundled roots and extra files remain.
    let native = rustls_native_certs::load_native_certs();
    for e in &native.errors {
        tracing::debug!(error = %e, "system certificate store partly unreadable");
    }
    roots.add_parsable_certificates(native.certs);
    roots.roots.extend(extra.roots.iter().cloned());
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| TransportError::Setup(format!("TLS set-up: {e}")))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ca_file_errors_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.pem");
        let e = read_pem_certificates(&missing).unwrap_err().to_string();
        assert!(
            e.contains("missing.pem") && e.contains("cannot be read"),
            "{e}"
        );
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let e = read_pem_certificates(&empty).unwrap_err().to_string();
        assert!(e.contains("no PEM certificate"), "{e}");
        assert!(
            client_config(&extra_roots(&[]).unwrap())
                .unwrap()
                .alpn_protocols[0]
                == b"h2"
        );
    }
}
