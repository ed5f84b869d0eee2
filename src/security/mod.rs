//! Security: decrypt and encrypt Maven passwords (Maven 3 legacy cipher and Maven 4 AES-GCM
//! dispatchers), read `settings-security.xml` / `settings-security4.xml`, master password sources.
