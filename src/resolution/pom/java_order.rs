//! The order in which Maven 3.8.7 on Java 17 walks a POM's `<properties>`: a
//! `java.util.Properties`, which is a `ConcurrentHashMap` inside, iterates by hash bucket, and
//! the buckets depend on the string hashes, the table size and the history of puts and resizes.
//!
//! The order is visible: the model interpolator rewrites each property in place, in this order,
//! while later fields (and later properties) read the rewritten values, so a property whose value
//! refers to itself (`<v>${v}.1</v>`, with `-Dv=2` for a dependency POM) gives `2.1` to fields
//! visited after it and `2` to those before; and `${project.properties}` prints the map.
//!
//! Maven builds the effective properties with three operations, reproduced here on lists kept
//! in iteration order: the reader's `put`s in document order ([`after_puts`]), `Model.clone()`
//! (`new ConcurrentHashMap<>(map)`: [`cloned`]), profile injection (`new Properties()`,
//! `putAll(model)`, `putAll(profile)`: [`injected`]) and inheritance (`new Properties()`, the
//! parent's entries `put` one by one, then `putAll(child)`: [`inherited`]). Bins of eight or more
//! colliding keys in a table of 64 or more (a red-black tree in Java) are kept as lists: with the
//! property counts of POMs such a bin does not happen in practice.
//!
//! This module owns only the order; what the entries are is [`super::merge`]'s business.

use super::model::Property;

/// Java's `String.hashCode` (over UTF-16 code units), spread as `ConcurrentHashMap.spread`.
fn spread_hash(key: &str) -> u32 {
    let mut h: u32 = 0;
    for unit in key.encode_utf16() {
        h = h.wrapping_mul(31).wrapping_add(u32::from(unit));
    }
    (h ^ (h >> 16)) & 0x7fff_ffff
}

/// `ConcurrentHashMap.tableSizeFor`.
fn table_size_for(c: usize) -> usize {
    c.max(1).next_power_of_two()
}

/// A single-threaded `ConcurrentHashMap<String, _>`: bins of indices into `entries`.
struct ChmOrder {
    table: Vec<Vec<usize>>,
    size_ctl: usize,
    count: usize,
    entries: Vec<(u32, Property)>,
}

impl ChmOrder {
    /// `new Properties()` (`new ConcurrentHashMap<>(8)`) and `new ConcurrentHashMap<>(map)`
    /// both start with a size control of 16 and no table.
    fn new() -> Self {
        ChmOrder {
            table: Vec::new(),
            size_ctl: 16,
            count: 0,
            entries: Vec::new(),
        }
    }

    fn create_table(&mut self, n: usize) {
        self.table = vec![Vec::new(); n];
        self.size_ctl = n - (n >> 2);
    }

    /// `transfer`: doubles the table, splitting each bin into the part that stays and the part
    /// that moves up by `n`; the nodes before the bin's last run are re-linked in reverse.
    fn transfer(&mut self) {
        let n = self.table.len();
        let mut next = vec![Vec::new(); 2 * n];
        for (i, bin) in self.table.iter().enumerate() {
            let Some(&first) = bin.first() else { continue };
            let bit = |e: usize| self.entries[e].0 as usize & n;
            let mut run_bit = bit(first);
            let mut last_run = 0;
            for (j, &e) in bin.iter().enumerate().skip(1) {
                if bit(e) != run_bit {
                    run_bit = bit(e);
                    last_run = j;
                }
            }
            let mut low: Vec<usize> = Vec::new();
            let mut high: Vec<usize> = Vec::new();
            if run_bit == 0 {
                low.extend(&bin[last_run..]);
            } else {
                high.extend(&bin[last_run..]);
            }
            for &e in &bin[..last_run] {
                if bit(e) == 0 {
                    low.insert(0, e);
                } else {
                    high.insert(0, e);
                }
            }
            next[i] = low;
            next[i + n] = high;
        }
        self.table = next;
        self.size_ctl = (n << 1) - (n >> 1);
    }

    /// `tryPresize(size)`, as `putAll` calls it first.
    fn try_presize(&mut self, size: usize) {
        let c = table_size_for(size + (size >> 1) + 1);
        loop {
            if self.table.is_empty() {
                self.create_table(self.size_ctl.max(c));
            } else if c <= self.size_ctl {
                break;
            } else {
                self.transfer();
            }
        }
    }

    /// `put(key, value)`: a known key keeps its place and takes the value; a new one goes at
    /// the end of its bin, and the table doubles when the count reaches three quarters of it.
    fn put(&mut self, p: &Property) {
        if self.table.is_empty() {
            let n = self.size_ctl;
            self.create_table(n);
        }
        let hash = spread_hash(&p.key);
        let n = self.table.len();
        let index = (n - 1) & hash as usize;
        let found = self.table[index]
            .iter()
            .position(|&e| self.entries[e].1.key == p.key);
        let bin_count = match found {
            Some(pos) => {
                let e = self.table[index][pos];
                self.entries[e].1 = p.clone();
                pos + 1
            }
            None => {
                let len = self.table[index].len();
                self.entries.push((hash, p.clone()));
                self.table[index].push(self.entries.len() - 1);
                len
            }
        };
        if bin_count >= 8 && n < 64 {
            // `treeifyBin` on a small table grows it instead
            self.try_presize(n << 1);
        }
        if found.is_none() {
            self.count += 1;
            while self.count >= self.size_ctl {
                self.transfer();
            }
        }
    }

    /// `putAll(map)`: presize, then `put` each entry in the map's own order.
    fn put_all(&mut self, ps: &[Property]) {
        self.try_presize(ps.len());
        for p in ps {
            self.put(p);
        }
    }

    fn into_vec(self) -> Vec<Property> {
        let ChmOrder { table, entries, .. } = self;
        let mut slots: Vec<Option<Property>> = entries.into_iter().map(|(_, p)| Some(p)).collect();
        table
            .iter()
            .flatten()
            .filter_map(|&e| slots[e].take())
            .collect()
    }
}

/// The POM reader: `new Properties()` then `put` per element, in document order (a repeated key
/// keeps its first place and takes the last value).
pub(crate) fn after_puts(ps: &[Property]) -> Vec<Property> {
    let mut m = ChmOrder::new();
    for p in ps {
        m.put(p);
    }
    m.into_vec()
}

/// `Model.clone()`: `new ConcurrentHashMap<>(properties)`.
pub(crate) fn cloned(ps: &[Property]) -> Vec<Property> {
    let mut m = ChmOrder::new();
    m.put_all(ps);
    m.into_vec()
}

/// Profile injection (`ModelMerger.mergeModelBase_Properties`, source dominant): the model's
/// entries, then the profile's, each with `putAll`.
pub(crate) fn injected(model: &[Property], profile: &[Property]) -> Vec<Property> {
    let mut m = ChmOrder::new();
    m.put_all(model);
    m.put_all(profile);
    m.into_vec()
}

/// Inheritance (`InheritanceModelMerger.mergeModelBase_Properties`): the parent's entries `put`
/// one by one (without `exclude`), then the child's with `putAll`.
pub(crate) fn inherited(
    child: &[Property],
    parent: &[Property],
    exclude: Option<&str>,
) -> Vec<Property> {
    let mut m = ChmOrder::new();
    for p in parent.iter().filter(|p| Some(p.key.as_str()) != exclude) {
        m.put(p);
    }
    m.put_all(child);
    m.into_vec()
}

/// `Properties.toString()` of entries in iteration order: `{a=1, b=2}`.
pub(crate) fn to_java_string<'a>(entries: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    let items: Vec<String> = entries.map(|(k, v)| format!("{k}={v}")).collect();
    format!("{{{}}}", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolution::pom::model::Origin;

    fn props(spec: &str) -> Vec<Property> {
        spec.split_whitespace()
            .map(|kv| {
                let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
                Property {
                    key: k.to_string(),
                    value: v.to_string(),
                    origin: Origin::default(),
                }
            })
            .collect()
    }

    fn keys(ps: &[Property]) -> String {
        ps.iter()
            .map(|p| p.key.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn java_string_hashes() {
        // String.hashCode: "a" = 97, "Aa" and "BB" collide (2112), spread folds the high bits
        assert_eq!(spread_hash("a"), 97);
        assert_eq!(spread_hash("Aa"), spread_hash("BB"));
        assert_eq!(spread_hash("version"), {
            let h: u32 = 351_608_024;
            (h ^ (h >> 16)) & 0x7fff_ffff
        });
        // UTF-16 units, not bytes or chars: U+1D7CE is a surrogate pair
        let pair: u32 = 0xD835u32.wrapping_mul(31).wrapping_add(0xDFCE);
        assert_eq!(
            spread_hash("\u{1D7CE}"),
            (pair ^ (pair >> 16)) & 0x7fff_ffff
        );
    }

    /// Orders printed by Maven 3.8.7's `DefaultModelBuilder` on Java 17 (the effective model's
    /// `getProperties().keySet()`) for the same POMs; the super POM has no properties.
    #[test]
    fn orders_of_the_real_builder() {
        let effective = |own: &[Property], parent: &[Property]| inherited(own, parent, None);
        // one POM, read then cloned: by bucket, the colliding Aa and BB in insertion order
        let raw = props("pb=1 pa=2 BB=3 version=4 Aa=5 zz=6");
        assert_eq!(
            keys(&effective(&cloned(&after_puts(&raw)), &[])),
            "BB Aa zz version pa pb"
        );
        // a repeated key keeps its first place and takes the last value
        let read = after_puts(&props("k2=1 k1=1 k2=2"));
        assert_eq!(keys(&read), "k1 k2");
        assert_eq!(read[1].value, "2");
        // thirteen entries: the table grew to 32 while reading, a resize reversed p11 and p12
        let many = props("k2=1 k1=1 k2=2 k3 k4 k5 k6 k7 k8 k9 p10 p11 p12");
        assert_eq!(
            keys(&effective(&cloned(&after_puts(&many)), &[])),
            "p10 p12 p11 k1 k2 k3 k4 k5 k6 k7 k8 k9"
        );
        // inheritance: the parent's entries put one by one, then the child's with putAll
        let parent = effective(&cloned(&after_puts(&props("zz=1 revision=2 a=3"))), &[]);
        let child = cloned(&after_puts(&props("b=1 a=4")));
        let merged = effective(&child, &parent);
        assert_eq!(keys(&merged), "zz a b revision");
        assert_eq!(merged[1].value, "4");
        // profile injection (putAll of both sides) before inheritance
        let with_profile = injected(&child, &after_puts(&props("argLine=x b=2")));
        assert_eq!(
            to_java_string(
                with_profile
                    .iter()
                    .map(|p| (p.key.as_str(), p.value.as_str()))
            ),
            "{a=4, b=2, argLine=x}"
        );
        assert_eq!(
            keys(&effective(&with_profile, &parent)),
            "zz a b argLine revision"
        );
    }
}
