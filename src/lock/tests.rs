//! Table tests of the lock module.
