//! Transport: the HTTP client per repository (proxy, credentials, headers, timeouts, retries).
