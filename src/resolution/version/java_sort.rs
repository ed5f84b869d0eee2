//! Java's `Collections.sort` (the JDK 17 `ComparableTimSort`), step for step.
//!
//! Resolver's version order is not transitive on some inputs (`0-a` = `a` and `0-a` = `ga-a`,
//! but `ga-a` < `a`), so the result of sorting depends on which pairs the algorithm compares.
//! Maven sorts with Java's TimSort; reproducing its comparisons exactly gives the same order on
//! every input, including those. Where Java gives up ("Comparison method violates its general
//! contract!"), this returns [`ContractViolation`] instead of a result.
//!
//! Rust's own `sort_by` must not be used on versions: it may order such inputs differently, and
//! may panic on a comparator that is not a total order.

use std::cmp::Ordering;

/// Java's TimSort detected an inconsistent comparator (the JDK throws
/// `IllegalArgumentException: Comparison method violates its general contract!`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the comparison is inconsistent (Java's sort reports: Comparison method violates its general contract!)")]
pub struct ContractViolation;

const MIN_MERGE: usize = 32;
const MIN_GALLOP: usize = 7;

/// Sorts `a` ascending exactly as `java.util.Arrays.sort(Object[])` does with `cmp` as
/// `compareTo` (stable; equal elements keep their order).
///
/// ```
/// use m2resolver::resolution::version::java_sort::sort;
/// let mut v = vec![3, 1, 2, 1];
/// sort(&mut v, |a, b| a.cmp(b)).unwrap();
/// assert_eq!(v, [1, 1, 2, 3]);
/// ```
pub fn sort<T: Clone>(
    a: &mut [T],
    mut cmp: impl FnMut(&T, &T) -> Ordering,
) -> Result<(), ContractViolation> {
    let hi = a.len();
    let mut lo = 0;
    let mut remaining = hi;
    if remaining < 2 {
        return Ok(());
    }
    if remaining < MIN_MERGE {
        let run = count_run_and_make_ascending(a, lo, hi, &mut cmp);
        binary_sort(a, lo, hi, lo + run, &mut cmp);
        return Ok(());
    }
    let mut ts = TimSort {
        min_gallop: MIN_GALLOP,
        tmp: Vec::new(),
        run_base: Vec::new(),
        run_len: Vec::new(),
    };
    let min_run = min_run_length(remaining);
    loop {
        let mut run = count_run_and_make_ascending(a, lo, hi, &mut cmp);
        if run < min_run {
            let force = remaining.min(min_run);
            binary_sort(a, lo, lo + force, lo + run, &mut cmp);
            run = force;
        }
        ts.run_base.push(lo);
        ts.run_len.push(run);
        ts.merge_collapse(a, &mut cmp)?;
        lo += run;
        remaining -= run;
        if remaining == 0 {
            break;
        }
    }
    ts.merge_force_collapse(a, &mut cmp)
}

fn min_run_length(mut n: usize) -> usize {
    let mut r = 0;
    while n >= MIN_MERGE {
        r |= n & 1;
        n >>= 1;
    }
    n + r
}

fn binary_sort<T: Clone>(
    a: &mut [T],
    lo: usize,
    hi: usize,
    mut start: usize,
    cmp: &mut impl FnMut(&T, &T) -> Ordering,
) {
    if start == lo {
        start += 1;
    }
    while start < hi {
        let (mut left, mut right) = (lo, start);
        while left < right {
            let mid = (left + right) / 2;
            if cmp(&a[start], &a[mid]) == Ordering::Less {
                right = mid;
            } else {
                left = mid + 1;
            }
        }
        a[left..=start].rotate_right(1);
        start += 1;
    }
}

fn count_run_and_make_ascending<T>(
    a: &mut [T],
    lo: usize,
    hi: usize,
    cmp: &mut impl FnMut(&T, &T) -> Ordering,
) -> usize {
    let mut run_hi = lo + 1;
    if run_hi == hi {
        return 1;
    }
    let descending = cmp(&a[run_hi], &a[lo]) == Ordering::Less;
    run_hi += 1;
    if descending {
        while run_hi < hi && cmp(&a[run_hi], &a[run_hi - 1]) == Ordering::Less {
            run_hi += 1;
        }
        a[lo..run_hi].reverse();
    } else {
        while run_hi < hi && cmp(&a[run_hi], &a[run_hi - 1]) != Ordering::Less {
            run_hi += 1;
        }
    }
    run_hi - lo
}

/// `gallopLeft`: the leftmost position in `run[base..base+len]` where `key` fits.
fn gallop_left<T>(
    key: &T,
    run: &[T],
    base: usize,
    len: usize,
    hint: usize,
    cmp: &mut impl FnMut(&T, &T) -> Ordering,
) -> usize {
    let mut last_ofs: usize;
    let mut ofs: usize;
    if cmp(key, &run[base + hint]) == Ordering::Greater {
        let max_ofs = len - hint;
        last_ofs = 0;
        ofs = 1;
        while ofs < max_ofs && cmp(key, &run[base + hint + ofs]) == Ordering::Greater {
            last_ofs = ofs;
            ofs = (ofs << 1) + 1;
        }
        ofs = ofs.min(max_ofs);
        last_ofs += hint;
        ofs += hint;
        // Java: lastOfs starts at -1 relative when no step was taken; shift by one below.
        return binary_left(key, run, base, last_ofs + 1, ofs, cmp);
    }
    let max_ofs = hint + 1;
    last_ofs = 0;
    ofs = 1;
    while ofs < max_ofs && cmp(key, &run[base + hint - ofs]) != Ordering::Greater {
        last_ofs = ofs;
        ofs = (ofs << 1) + 1;
    }
    ofs = ofs.min(max_ofs);
    // Java: lastOfs = hint - ofs (may be -1), ofs = hint - lastOfs; then lastOfs++.
    let lo = hint + 1 - ofs;
    let hi = hint - last_ofs;
    binary_left(key, run, base, lo, hi, cmp)
}

fn binary_left<T>(
    key: &T,
    run: &[T],
    base: usize,
    mut lo: usize,
    mut hi: usize,
    cmp: &mut impl FnMut(&T, &T) -> Ordering,
) -> usize {
    while lo < hi {
        let m = lo + (hi - lo) / 2;
        if cmp(key, &run[base + m]) == Ordering::Greater {
            lo = m + 1;
        } else {
            hi = m;
        }
    }
    hi
}

/// `gallopRight`: the rightmost position in `run[base..base+len]` where `key` fits.
fn gallop_right<T>(
    key: &T,
    run: &[T],
    base: usize,
    len: usize,
    hint: usize,
    cmp: &mut impl FnMut(&T, &T) -> Ordering,
) -> usize {
    let mut last_ofs: usize = 0;
    let mut ofs: usize = 1;
    if cmp(key, &run[base + hint]) == Ordering::Less {
        let max_ofs = hint + 1;
        while ofs < max_ofs && cmp(key, &run[base + hint - ofs]) == Ordering::Less {
            last_ofs = ofs;
            ofs = (ofs << 1) + 1;
        }
        ofs = ofs.min(max_ofs);
        let lo = hint + 1 - ofs;
        let hi = hint - last_ofs;
        return binary_right(key, run, base, lo, hi, cmp);
    }
    let max_ofs = len - hint;
    while ofs < max_ofs && cmp(key, &run[base + hint + ofs]) != Ordering::Less {
        last_ofs = ofs;
        ofs = (ofs << 1) + 1;
    }
    ofs = ofs.min(max_ofs);
    binary_right(key, run, base, last_ofs + hint + 1, ofs + hint, cmp)
}

fn binary_right<T>(
    key: &T,
    run: &[T],
    base: usize,
    mut lo: usize,
    mut hi: usize,
    cmp: &mut impl FnMut(&T, &T) -> Ordering,
) -> usize {
    while lo < hi {
        let m = lo + (hi - lo) / 2;
        if cmp(key, &run[base + m]) == Ordering::Less {
            hi = m;
        } else {
            lo = m + 1;
        }
    }
    hi
}

struct TimSort<T> {
    min_gallop: usize,
    tmp: Vec<T>,
    run_base: Vec<usize>,
    run_len: Vec<usize>,
}

impl<T: Clone> TimSort<T> {
    fn merge_collapse(
        &mut self,
        a: &mut [T],
        cmp: &mut impl FnMut(&T, &T) -> Ordering,
    ) -> Result<(), ContractViolation> {
        while self.run_len.len() > 1 {
            let len = &self.run_len;
            let mut n = len.len() - 2;
            if (n > 0 && len[n - 1] <= len[n] + len[n + 1])
                || (n > 1 && len[n - 2] <= len[n] + len[n - 1])
            {
                if len[n - 1] < len[n + 1] {
                    n -= 1;
                }
            } else if len[n] > len[n + 1] {
                break;
            }
            self.merge_at(a, n, cmp)?;
        }
        Ok(())
    }

    fn merge_force_collapse(
        &mut self,
        a: &mut [T],
        cmp: &mut impl FnMut(&T, &T) -> Ordering,
    ) -> Result<(), ContractViolation> {
        while self.run_len.len() > 1 {
            let mut n = self.run_len.len() - 2;
            if n > 0 && self.run_len[n - 1] < self.run_len[n + 1] {
                n -= 1;
            }
            self.merge_at(a, n, cmp)?;
        }
        Ok(())
    }

    fn merge_at(
        &mut self,
        a: &mut [T],
        i: usize,
        cmp: &mut impl FnMut(&T, &T) -> Ordering,
    ) -> Result<(), ContractViolation> {
        let mut base1 = self.run_base[i];
        let mut len1 = self.run_len[i];
        let base2 = self.run_base[i + 1];
        let mut len2 = self.run_len[i + 1];
        self.run_len[i] = len1 + len2;
        self.run_base.remove(i + 1);
        self.run_len.remove(i + 1);

        let k = gallop_right(&a[base2], a, base1, len1, 0, cmp);
        base1 += k;
        len1 -= k;
        if len1 == 0 {
            return Ok(());
        }
        len2 = gallop_left(&a[base1 + len1 - 1], a, base2, len2, len2 - 1, cmp);
        if len2 == 0 {
            return Ok(());
        }
        if len1 <= len2 {
            self.merge_lo(a, base1, len1, base2, len2, cmp)
        } else {
            self.merge_hi(a, base1, len1, base2, len2, cmp)
        }
    }

    fn merge_lo(
        &mut self,
        a: &mut [T],
        base1: usize,
        mut len1: usize,
        base2: usize,
        mut len2: usize,
        cmp: &mut impl FnMut(&T, &T) -> Ordering,
    ) -> Result<(), ContractViolation> {
        self.tmp.clear();
        self.tmp.extend_from_slice(&a[base1..base1 + len1]);
        let tmp = &self.tmp;
        let mut cursor1 = 0;
        let mut cursor2 = base2;
        let mut dest = base1;
        a[dest] = a[cursor2].clone();
        dest += 1;
        cursor2 += 1;
        len2 -= 1;
        if len2 == 0 {
            a[dest..dest + len1].clone_from_slice(&tmp[cursor1..cursor1 + len1]);
            return Ok(());
        }
        if len1 == 1 {
            for j in 0..len2 {
                a[dest + j] = a[cursor2 + j].clone();
            }
            a[dest + len2] = tmp[cursor1].clone();
            return Ok(());
        }
        let mut min_gallop = self.min_gallop as isize;
        'outer: loop {
            let mut count1 = 0usize;
            let mut count2 = 0usize;
            loop {
                if cmp(&a[cursor2], &tmp[cursor1]) == Ordering::Less {
                    a[dest] = a[cursor2].clone();
                    dest += 1;
                    cursor2 += 1;
                    count2 += 1;
                    count1 = 0;
                    len2 -= 1;
                    if len2 == 0 {
                        break 'outer;
                    }
                } else {
                    a[dest] = tmp[cursor1].clone();
                    dest += 1;
                    cursor1 += 1;
                    count1 += 1;
                    count2 = 0;
                    len1 -= 1;
                    if len1 == 1 {
                        break 'outer;
                    }
                }
                if ((count1 | count2) as isize) >= min_gallop {
                    break;
                }
            }
            loop {
                count1 = gallop_right(&a[cursor2], tmp, cursor1, len1, 0, cmp);
                if count1 != 0 {
                    a[dest..dest + count1].clone_from_slice(&tmp[cursor1..cursor1 + count1]);
                    dest += count1;
                    cursor1 += count1;
                    len1 -= count1;
                    if len1 <= 1 {
                        break 'outer;
                    }
                }
                a[dest] = a[cursor2].clone();
                dest += 1;
                cursor2 += 1;
                len2 -= 1;
                if len2 == 0 {
                    break 'outer;
                }
                count2 = gallop_left(&tmp[cursor1], a, cursor2, len2, 0, cmp);
                if count2 != 0 {
                    for j in 0..count2 {
                        a[dest + j] = a[cursor2 + j].clone();
                    }
                    dest += count2;
                    cursor2 += count2;
                    len2 -= count2;
                    if len2 == 0 {
                        break 'outer;
                    }
                }
                a[dest] = tmp[cursor1].clone();
                dest += 1;
                cursor1 += 1;
                len1 -= 1;
                if len1 == 1 {
                    break 'outer;
                }
                min_gallop -= 1;
                if !(count1 >= MIN_GALLOP || count2 >= MIN_GALLOP) {
                    break;
                }
            }
            if min_gallop < 0 {
                min_gallop = 0;
            }
            min_gallop += 2;
        }
        self.min_gallop = min_gallop.max(1) as usize;
        if len1 == 1 {
            for j in 0..len2 {
                a[dest + j] = a[cursor2 + j].clone();
            }
            a[dest + len2] = tmp[cursor1].clone();
            Ok(())
        } else if len1 == 0 {
            Err(ContractViolation)
        } else {
            a[dest..dest + len1].clone_from_slice(&tmp[cursor1..cursor1 + len1]);
            Ok(())
        }
    }

    fn merge_hi(
        &mut self,
        a: &mut [T],
        base1: usize,
        mut len1: usize,
        base2: usize,
        mut len2: usize,
        cmp: &mut impl FnMut(&T, &T) -> Ordering,
    ) -> Result<(), ContractViolation> {
        self.tmp.clear();
        self.tmp.extend_from_slice(&a[base2..base2 + len2]);
        let tmp = &self.tmp;
        // Cursors are kept one past their Java value so that -1 needs no sign.
        let mut cursor1 = base1 + len1; // Java: base1 + len1 - 1
        let mut cursor2 = len2; // Java: len2 - 1
        let mut dest = base2 + len2; // Java: base2 + len2 - 1
        a[dest - 1] = a[cursor1 - 1].clone();
        dest -= 1;
        cursor1 -= 1;
        len1 -= 1;
        if len1 == 0 {
            a[dest - len2..dest].clone_from_slice(&tmp[..len2]);
            return Ok(());
        }
        if len2 == 1 {
            dest -= len1;
            cursor1 -= len1;
            move_within(a, cursor1, dest, len1);
            a[dest - 1] = tmp[cursor2 - 1].clone();
            return Ok(());
        }
        let mut min_gallop = self.min_gallop as isize;
        'outer: loop {
            let mut count1 = 0usize;
            let mut count2 = 0usize;
            loop {
                if cmp(&tmp[cursor2 - 1], &a[cursor1 - 1]) == Ordering::Less {
                    a[dest - 1] = a[cursor1 - 1].clone();
                    dest -= 1;
                    cursor1 -= 1;
                    count1 += 1;
                    count2 = 0;
                    len1 -= 1;
                    if len1 == 0 {
                        break 'outer;
                    }
                } else {
                    a[dest - 1] = tmp[cursor2 - 1].clone();
                    dest -= 1;
                    cursor2 -= 1;
                    count2 += 1;
                    count1 = 0;
                    len2 -= 1;
                    if len2 == 1 {
                        break 'outer;
                    }
                }
                if ((count1 | count2) as isize) >= min_gallop {
                    break;
                }
            }
            loop {
                count1 = len1 - gallop_right(&tmp[cursor2 - 1], a, base1, len1, len1 - 1, cmp);
                if count1 != 0 {
                    dest -= count1;
                    cursor1 -= count1;
                    len1 -= count1;
                    move_within(a, cursor1, dest, count1);
                    if len1 == 0 {
                        break 'outer;
                    }
                }
                a[dest - 1] = tmp[cursor2 - 1].clone();
                dest -= 1;
                cursor2 -= 1;
                len2 -= 1;
                if len2 == 1 {
                    break 'outer;
                }
                count2 = len2 - gallop_left(&a[cursor1 - 1], tmp, 0, len2, len2 - 1, cmp);
                if count2 != 0 {
                    dest -= count2;
                    cursor2 -= count2;
                    len2 -= count2;
                    a[dest..dest + count2].clone_from_slice(&tmp[cursor2..cursor2 + count2]);
                    if len2 <= 1 {
                        break 'outer;
                    }
                }
                a[dest - 1] = a[cursor1 - 1].clone();
                dest -= 1;
                cursor1 -= 1;
                len1 -= 1;
                if len1 == 0 {
                    break 'outer;
                }
                min_gallop -= 1;
                if !(count1 >= MIN_GALLOP || count2 >= MIN_GALLOP) {
                    break;
                }
            }
            if min_gallop < 0 {
                min_gallop = 0;
            }
            min_gallop += 2;
        }
        self.min_gallop = min_gallop.max(1) as usize;
        if len2 == 1 {
            dest -= len1;
            cursor1 -= len1;
            move_within(a, cursor1, dest, len1);
            a[dest - 1] = tmp[cursor2 - 1].clone();
            Ok(())
        } else if len2 == 0 {
            Err(ContractViolation)
        } else {
            a[dest - len2..dest].clone_from_slice(&tmp[..len2]);
            Ok(())
        }
    }
}

/// `System.arraycopy(a, from, a, to, len)` for overlapping ranges.
fn move_within<T: Clone>(a: &mut [T], from: usize, to: usize, len: usize) {
    if from == to || len == 0 {
        return;
    }
    if to > from {
        for j in (0..len).rev() {
            a[to + j] = a[from + j].clone();
        }
    } else {
        for j in 0..len {
            a[to + j] = a[from + j].clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_a_stable_sort_for_total_orders() {
        let mut seed = 7u64;
        for n in [0usize, 1, 2, 5, 31, 32, 33, 64, 100, 257, 1000, 5000] {
            let mut v: Vec<(u32, usize)> = (0..n)
                .map(|i| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (((seed >> 33) % 50) as u32, i)
                })
                .collect();
            let mut want = v.clone();
            want.sort_by_key(|p| p.0);
            sort(&mut v, |a, b| a.0.cmp(&b.0)).unwrap();
            assert_eq!(v, want, "n={n}");
        }
    }

    #[test]
    fn inconsistent_comparators_do_not_panic() {
        let mut seed = 1u64;
        for n in [10usize, 40, 100, 1000] {
            let mut v: Vec<usize> = (0..n).collect();
            let _ = sort(&mut v, |_, _| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                match (seed >> 33) % 3 {
                    0 => Ordering::Less,
                    1 => Ordering::Equal,
                    _ => Ordering::Greater,
                }
            });
            let mut s = v.clone();
            s.sort();
            assert_eq!(s, (0..n).collect::<Vec<_>>(), "a permutation");
        }
    }
}
