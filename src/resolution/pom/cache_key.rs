//! What a session's descriptor caches are keyed by: an artifact's coordinates as Resolver
//! prints them (`groupId:artifactId:extension[:classifier]:version`, so one POM read for two
//! types of an artifact is one entry) and its repository list, interned as a number
//! ([`ListKeys`]: equal lists as [`super::repositories_key`] compares them get the same number).
//!
//! A lookup borrows the artifact's strings ([`CoordRef`]); only an insertion copies them. A
//! warm build asks these caches of every dependency of every module, so a key is never
//! formatted into a string on the way.
//!
//! Not here: what is cached (the descriptor reader's and the collection source's own maps).

use crate::repository::RemoteRepository;
use crate::resolution::artifact::Artifact;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

/// The hasher of the session's hot caches.
pub(crate) type FastState = foldhash::fast::RandomState;

/// A map of the session's hot caches, looked up by borrowed keys.
pub(crate) type FastMap<K, V> = hashbrown::HashMap<K, V, FastState>;

/// A repository list's number among the lists a session met (see [`ListKeys`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct ListKey(u32);

/// The repository lists of one session, numbered: equal lists (same ids, URLs, layouts,
/// policies, blocked flags and mirrored repositories, in order) share a number. A session
/// meets few distinct lists; the numbers are never reused.
#[derive(Debug, Default)]
pub(crate) struct ListKeys {
    numbers: Mutex<HashMap<String, u32>>,
}

impl ListKeys {
    /// The number of `repositories`.
    pub(crate) fn of(&self, repositories: &[RemoteRepository]) -> ListKey {
        let text = super::repositories_key(repositories);
        let mut numbers = match self.numbers.lock() {
            Ok(n) => n,
            Err(e) => e.into_inner(),
        };
        let next = numbers.len() as u32;
        ListKey(*numbers.entry(text).or_insert(next))
    }
}

/// Repository lists of one collection already numbered, by the address of the shared list
/// (each kept alive here, so an address names one list while it is remembered).
#[derive(Default)]
pub(crate) struct KnownLists {
    by_address: Mutex<HashMap<usize, Known>>,
}

/// A list [`KnownLists`] keeps, with its number.
type Known = (Arc<[RemoteRepository]>, ListKey);

impl KnownLists {
    /// The number of `list`, asked of `keys` the first time this list is seen.
    pub(crate) fn of(&self, keys: &ListKeys, list: &Arc<[RemoteRepository]>) -> ListKey {
        let address = list.as_ptr() as usize;
        let mut known = match self.by_address.lock() {
            Ok(k) => k,
            Err(e) => e.into_inner(),
        };
        if let Some((kept, key)) = known.get(&address) {
            if Arc::ptr_eq(kept, list) {
                return *key;
            }
        }
        let key = keys.of(list);
        known.insert(address, (list.clone(), key));
        key
    }
}

/// An artifact's coordinates as a cache key owns them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Coord {
    group_id: Box<str>,
    artifact_id: Box<str>,
    extension: Box<str>,
    classifier: Box<str>,
    version: Box<str>,
}

/// An artifact's coordinates, borrowed (hashes and compares as the [`Coord`] it names).
#[derive(Debug, Clone, Copy)]
pub(crate) struct CoordRef<'a> {
    group_id: &'a str,
    artifact_id: &'a str,
    extension: &'a str,
    classifier: &'a str,
    version: &'a str,
}

impl<'a> CoordRef<'a> {
    /// The coordinates of `artifact` (its type's other properties are not part of them).
    pub(crate) fn of(artifact: &'a Artifact) -> Self {
        CoordRef {
            group_id: &artifact.group_id,
            artifact_id: &artifact.artifact_id,
            extension: &artifact.extension,
            classifier: &artifact.classifier,
            version: &artifact.version,
        }
    }

    /// The owned key.
    pub(crate) fn owned(&self) -> Coord {
        Coord {
            group_id: self.group_id.into(),
            artifact_id: self.artifact_id.into(),
            extension: self.extension.into(),
            classifier: self.classifier.into(),
            version: self.version.into(),
        }
    }

    fn parts(&self) -> [&'a str; 5] {
        [
            self.group_id,
            self.artifact_id,
            self.extension,
            self.classifier,
            self.version,
        ]
    }
}

impl Coord {
    fn borrowed(&self) -> CoordRef<'_> {
        CoordRef {
            group_id: &self.group_id,
            artifact_id: &self.artifact_id,
            extension: &self.extension,
            classifier: &self.classifier,
            version: &self.version,
        }
    }
}

impl Hash for CoordRef<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for part in self.parts() {
            state.write(part.as_bytes());
            state.write_u8(0xff);
        }
    }
}

impl Hash for Coord {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.borrowed().hash(state)
    }
}

/// A descriptor cache's key: coordinates, repository list, and a flag of the cache's own.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    coord: Coord,
    list: ListKey,
    flag: bool,
}

/// A [`Key`], borrowed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KeyRef<'a> {
    coord: CoordRef<'a>,
    list: ListKey,
    flag: bool,
}

impl<'a> KeyRef<'a> {
    /// The key of `artifact` in the list numbered `list`, with `flag`.
    pub(crate) fn new(artifact: &'a Artifact, list: ListKey, flag: bool) -> Self {
        KeyRef {
            coord: CoordRef::of(artifact),
            list,
            flag,
        }
    }

    /// The owned key.
    pub(crate) fn owned(&self) -> Key {
        Key {
            coord: self.coord.owned(),
            list: self.list,
            flag: self.flag,
        }
    }
}

impl Hash for KeyRef<'_> {
    // As `Key`'s derived `Hash`: its fields in order.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.coord.hash(state);
        self.list.hash(state);
        self.flag.hash(state);
    }
}

impl hashbrown::Equivalent<Key> for KeyRef<'_> {
    fn equivalent(&self, key: &Key) -> bool {
        self.list == key.list
            && self.flag == key.flag
            && self.coord.parts() == key.coord.borrowed().parts()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(id: &str, url: &str) -> RemoteRepository {
        RemoteRepository::new(id, url)
    }

    #[test]
    fn equal_lists_share_a_number_and_others_do_not() {
        let keys = ListKeys::default();
        let a = keys.of(&[repo("central", "https://repo.example/maven2")]);
        let rows: &[(&[RemoteRepository], bool)] = &[
            (&[repo("central", "https://repo.example/maven2")], true),
            (&[repo("central", "https://other.example/maven2")], false),
            (&[repo("other", "https://repo.example/maven2")], false),
            (&[], false),
        ];
        for (list, same) in rows {
            assert_eq!(keys.of(list) == a, *same, "{list:?}");
        }
    }

    #[test]
    fn a_shared_list_is_numbered_once_by_address() {
        let keys = ListKeys::default();
        let known = KnownLists::default();
        let list: Arc<[RemoteRepository]> = Arc::from(vec![repo("r", "https://r.example/")]);
        let copy: Arc<[RemoteRepository]> = Arc::from(list.to_vec());
        assert_eq!(known.of(&keys, &list), known.of(&keys, &list));
        assert_eq!(
            known.of(&keys, &copy),
            known.of(&keys, &list),
            "equal content"
        );
        assert_eq!(keys.numbers.lock().unwrap().len(), 1);
    }

    #[test]
    fn borrowed_keys_find_owned_ones_by_coordinates_only() {
        let keys = ListKeys::default();
        let list = keys.of(&[]);
        let mut map: FastMap<Key, u8> = FastMap::default();
        let jar = Artifact::from_type("g", "a", "jar", "", "1");
        map.insert(KeyRef::new(&jar, list, false).owned(), 1);
        // the same POM read for another type of the same file: one entry
        let mut typed = jar.clone();
        typed.type_id = Some("ejb-client".into());
        assert_eq!(map.get(&KeyRef::new(&typed, list, false)), Some(&1));
        let other_flag = KeyRef::new(&jar, list, true);
        assert_eq!(map.get(&other_flag), None);
        let other = Artifact::from_type("g", "a", "jar", "", "2");
        assert_eq!(map.get(&KeyRef::new(&other, list, false)), None);
        // parts do not run into each other
        let ab = Artifact::new("g", "ab", "jar", "", "1");
        let a_b = Artifact::new("ga", "b", "jar", "", "1");
        let owned = KeyRef::new(&a_b, list, false).owned();
        assert!(!hashbrown::Equivalent::equivalent(
            &KeyRef::new(&ab, list, false),
            &owned
        ));
    }
}
