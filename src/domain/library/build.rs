//! Balanced, seeded building of the tournament main libraries.
//!
//! Method (deterministic for a seed, ChaCha8):
//! 1. order the pool copies by stratum (colour bucket, mana-value bucket), names in a random
//!    order inside a stratum, copies of one name side by side;
//! 2. if the pool is larger than needed, take an evenly spaced sample of that order, so the
//!    copies used keep the pool's proportions (the rest is a reserve);
//! 3. deal the order in a snake (1..n, n..1, ...) across the libraries: every library receives
//!    its share of every stratum, the two libraries of a table sit next to each other;
//! 4. improve by swaps (inside a table, across tables, with the reserve) that lower
//!    sum of `distance_from_mean` + sum of table `pair_distance` + a penalty per duplicate name
//!    (see [`super`] for the measure).

use super::{BUCKETS, PoolCopy, Profile, color_bucket, curve_bucket, pool_profile};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::collections::HashMap;

/// One built main library, placed at a table seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BuiltLibrary {
    /// Table number, from 1.
    pub table: u32,
    /// Seat at the table, `'A'` or `'B'`.
    pub seat: char,
    /// Indices into the pool given to [`build_libraries`], ascending.
    pub cards: Vec<usize>,
}

/// Why libraries could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
pub enum BuildError {
    /// No table was asked for.
    #[error("no tables to build libraries for: ask for at least 1 table")]
    NoTables,
    /// A library size of 0 was asked for.
    #[error("a library of 0 cards cannot be played: ask for a size of at least 1 (40 is usual)")]
    EmptyLibrary,
    /// The pool has fewer usable copies than the libraries need.
    #[error(
        "need {needed} cards for {tables} tables, the pool has {have} usable copies: {short} short \
         (add cards to the pool or build fewer tables)"
    )]
    PoolTooSmall {
        /// Tables asked for.
        tables: u32,
        /// Copies needed: 2 × tables × size.
        needed: usize,
        /// Usable copies in the pool.
        have: usize,
        /// `needed - have`.
        short: usize,
    },
}

/// Weight of one duplicate name in the objective, in cards of distance.
const DUPLICATE_PENALTY: f64 = 8.0;
/// Libraries drawn to pick the least balanced one to improve.
const TOURNAMENT: usize = 3;
/// Swap attempts per card dealt.
const MOVES_PER_CARD: usize = 40;

/// Build `2 * tables` libraries of `size` copies each, drawn from `pool` without replacement.
///
/// Libraries come in table order, seat `A` then `B`. The same pool, tables, size and seed give
/// the same libraries.
pub fn build_libraries(
    pool: &[PoolCopy],
    tables: u32,
    size: usize,
    seed: u64,
) -> Result<Vec<BuiltLibrary>, BuildError> {
    let needed = check_size(pool.len(), tables, size)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let order = stratified_order(pool, &mut rng);
    let (used, reserve) = even_sample(&order, needed, &mut rng);
    Ok(deal(pool, used, reserve, tables, &pool_profile(pool, size), &mut rng))
}

/// Deals the chosen copies over the libraries and improves them toward `target`.
fn deal(
    pool: &[PoolCopy],
    used: Vec<usize>,
    reserve: Vec<usize>,
    tables: u32,
    target: &Profile,
    rng: &mut ChaCha8Rng,
) -> Vec<BuiltLibrary> {
    let moves = used.len().saturating_mul(MOVES_PER_CARD);
    let mut state = Dealing::new(pool, snake_deal(&used, 2 * tables as usize), reserve, target);
    state.improve(rng, moves);
    state.into_libraries()
}

/// Like [`build_libraries`], but balanced toward `target` (the shape of one library) instead of the pool's own
/// profile: more tables' libraries built from what is left in the pool, shaped like the libraries already in
/// play.
pub fn build_libraries_toward(
    pool: &[PoolCopy],
    tables: u32,
    size: usize,
    seed: u64,
    target: &Profile,
) -> Result<Vec<BuiltLibrary>, BuildError> {
    let needed = check_size(pool.len(), tables, size)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let order = stratified_order(pool, &mut rng);
    let (used, reserve) = curve_sample(pool, &order, needed, target, 2 * tables as usize, &mut rng);
    Ok(deal(pool, used, reserve, tables, target, &mut rng))
}

/// `needed` entries of `order` taken per mana-value bucket as `target` asks for `libraries` libraries (as far
/// as each bucket holds copies; the rest evenly from what is left), kept in `order`; and the rest as a reserve.
fn curve_sample(
    pool: &[PoolCopy],
    order: &[usize],
    needed: usize,
    target: &Profile,
    libraries: usize,
    rng: &mut ChaCha8Rng,
) -> (Vec<usize>, Vec<usize>) {
    let mut by_bucket: Vec<Vec<usize>> = vec![Vec::new(); BUCKETS];
    for (pos, &i) in order.iter().enumerate() {
        by_bucket[curve_bucket(pool[i].mana_value)].push(pos);
    }
    let mut taken = vec![false; order.len()];
    let mut count = 0;
    for (b, positions) in by_bucket.iter().enumerate() {
        let want = ((target.curve[b] * libraries as f64).round() as usize).min(positions.len());
        let want = want.min(needed - count);
        if want > 0 {
            let (chosen, _) = even_sample(positions, want, rng);
            for pos in chosen {
                taken[pos] = true;
            }
            count += want;
        }
    }
    if count < needed {
        let rest: Vec<usize> = (0..order.len()).filter(|&p| !taken[p]).collect();
        let (chosen, _) = even_sample(&rest, needed - count, rng);
        for pos in chosen {
            taken[pos] = true;
        }
    }
    let (mut used, mut reserve) = (Vec::with_capacity(needed), Vec::new());
    for (pos, &i) in order.iter().enumerate() {
        if taken[pos] { &mut used } else { &mut reserve }.push(i);
    }
    (used, reserve)
}

fn check_size(have: usize, tables: u32, size: usize) -> Result<usize, BuildError> {
    if tables == 0 {
        return Err(BuildError::NoTables);
    }
    if size == 0 {
        return Err(BuildError::EmptyLibrary);
    }
    let needed = (tables as usize).checked_mul(2).and_then(|n| n.checked_mul(size)).unwrap_or(usize::MAX);
    if needed > have {
        return Err(BuildError::PoolTooSmall { tables, needed, have, short: needed - have });
    }
    Ok(needed)
}

/// Pool indices sorted by (colour, mana value, random name rank), copies of a name together.
fn stratified_order(pool: &[PoolCopy], rng: &mut ChaCha8Rng) -> Vec<usize> {
    let names = name_ids(pool);
    let name_count = names.iter().max().map_or(0, |m| *m as usize + 1);
    let mut rank: Vec<u32> = (0..name_count as u32).collect();
    rank.shuffle(rng);
    let mut order: Vec<usize> = (0..pool.len()).collect();
    order.sort_by_key(|&i| {
        let c = &pool[i];
        (color_bucket(&c.colors), curve_bucket(c.mana_value), rank[names[i] as usize])
    });
    order
}

/// A dense id per distinct name, numbered in pool order.
fn name_ids(pool: &[PoolCopy]) -> Vec<u32> {
    let mut ids: HashMap<&str, u32> = HashMap::new();
    pool.iter()
        .map(|c| {
            let next = ids.len() as u32;
            *ids.entry(c.name.as_str()).or_insert(next)
        })
        .collect()
}

/// `needed` evenly spaced entries of `order` (random offset), and the rest as a reserve.
fn even_sample(order: &[usize], needed: usize, rng: &mut ChaCha8Rng) -> (Vec<usize>, Vec<usize>) {
    let n = order.len() as u128;
    let k = needed as u128;
    let offset = rng.random_range(0..needed) as u128;
    let mut taken = vec![false; order.len()];
    for j in 0..k {
        taken[((j * n + offset) / k) as usize] = true;
    }
    let (mut used, mut reserve) = (Vec::with_capacity(needed), Vec::new());
    for (pos, &i) in order.iter().enumerate() {
        if taken[pos] { &mut used } else { &mut reserve }.push(i);
    }
    (used, reserve)
}

/// Deal `cards` in a snake order across `count` libraries.
fn snake_deal(cards: &[usize], count: usize) -> Vec<Vec<usize>> {
    let mut libs = vec![Vec::with_capacity(cards.len() / count + 1); count];
    for (p, &card) in cards.iter().enumerate() {
        let (round, r) = (p / count, p % count);
        let lib = if round % 2 == 0 { r } else { count - 1 - r };
        libs[lib].push(card);
    }
    libs
}

/// Shape counts: 7 curve buckets then 7 colour buckets.
type Shape = [i32; 2 * BUCKETS];

/// Libraries being improved, with their shapes and the reserve of unused copies.
///
/// Library `x` holds positions `starts[x]..starts[x + 1]` of the flat lists; a proposed swap reads only the small
/// lists of shape keys and names (dealing thousands of libraries is bound by those reads).
struct Dealing {
    /// Where each library's cards start in the flat lists (one more entry than libraries).
    starts: Vec<usize>,
    /// Pool index of every card of the libraries, library after library.
    cards: Vec<usize>,
    /// Shape key (see [`shape_key`]) of every card of `cards`, position by position.
    kinds: Vec<u8>,
    /// Name id of every card of `cards`, position by position (counted for duplicates without a lookup).
    names: Vec<u32>,
    mean: Shape64,
    shapes: Vec<Shape>,
    /// `deviation(shapes[x])` of every library, kept as the shapes change.
    devs: Vec<f64>,
    reserve: Vec<usize>,
    /// Shape key and name id of every reserve copy, position by position.
    reserve_keys: Vec<(u8, u32)>,
}

type Shape64 = [f64; 2 * BUCKETS];

/// A proposed exchange: card `i` of library `x` against card `j` of `y` (`None` = the reserve).
#[derive(Clone, Copy)]
struct Swap {
    x: usize,
    i: usize,
    y: Option<usize>,
    j: usize,
}

impl Dealing {
    fn new(pool: &[PoolCopy], libs: Vec<Vec<usize>>, reserve: Vec<usize>, target: &Profile) -> Self {
        let names = name_ids(pool);
        let keys: Vec<(u8, u32)> = pool.iter().zip(&names).map(|(c, &n)| (shape_key(c), n)).collect();
        let mut starts = vec![0];
        for l in &libs {
            starts.push(starts[starts.len() - 1] + l.len());
        }
        let cards: Vec<usize> = libs.into_iter().flatten().collect();
        let mut dealing = Dealing {
            starts,
            kinds: cards.iter().map(|&c| keys[c].0).collect(),
            names: cards.iter().map(|&c| keys[c].1).collect(),
            cards,
            mean: flat(target),
            shapes: Vec::new(),
            devs: Vec::new(),
            reserve_keys: reserve.iter().map(|&c| keys[c]).collect(),
            reserve,
        };
        dealing.shapes = (0..dealing.count()).map(|x| shape(&dealing.kinds[dealing.span(x)])).collect();
        dealing.devs = dealing.shapes.iter().map(|s| dealing.deviation(s)).collect();
        dealing
    }

    /// How many libraries.
    fn count(&self) -> usize {
        self.starts.len() - 1
    }

    /// Library `x`'s positions in the flat lists.
    fn span(&self, x: usize) -> std::ops::Range<usize> {
        self.starts[x]..self.starts[x + 1]
    }

    /// Random swaps, kept when they do not worsen the objective.
    fn improve(&mut self, rng: &mut ChaCha8Rng, moves: usize) {
        let count = self.count();
        for _ in 0..moves {
            let x = self.pick_unbalanced(rng);
            let y = match rng.random_range(0..8u8) {
                0..4 => Some(x ^ 1),
                4 if !self.reserve.is_empty() => None,
                _ => Some(rng.random_range(0..count)),
            };
            let i = rng.random_range(0..self.span(x).len());
            let j = match y {
                Some(y) => rng.random_range(0..self.span(y).len()),
                None => rng.random_range(0..self.reserve.len()),
            };
            let swap = Swap { x, i, y, j };
            if y != Some(x) && self.gain(swap) >= 0.0 {
                self.apply(swap);
            }
        }
    }

    /// The least balanced of a few libraries drawn at random.
    fn pick_unbalanced(&self, rng: &mut ChaCha8Rng) -> usize {
        let mut best = rng.random_range(0..self.count());
        for _ in 1..TOURNAMENT {
            let other = rng.random_range(0..self.count());
            if self.devs[other] > self.devs[best] {
                best = other;
            }
        }
        best
    }

    /// The shape key and name id of card `pos` of library `lib` (`None` = the reserve).
    fn key_at(&self, lib: Option<usize>, pos: usize) -> (u8, u32) {
        match lib {
            Some(l) => (self.kinds[self.starts[l] + pos], self.names[self.starts[l] + pos]),
            None => self.reserve_keys[pos],
        }
    }

    /// How much the objective drops if the swap is made (negative = worse).
    fn gain(&self, s: Swap) -> f64 {
        let (kc, kd) = (self.key_at(Some(s.x), s.i), self.key_at(s.y, s.j));
        if kc == kd {
            return f64::NEG_INFINITY;
        }
        let nx = moved(self.shapes[s.x], kc.0, kd.0);
        let dup_x = self.dup_change(s.x, kc.1, kd.1);
        let Some(y) = s.y else {
            let before = self.devs[s.x] + self.pair(s.x, &self.shapes[s.x]);
            let after = self.deviation(&nx) + self.pair(s.x, &nx);
            return before - after - dup_x;
        };
        let ny = moved(self.shapes[y], kd.0, kc.0);
        let dups = dup_x + self.dup_change(y, kd.1, kc.1);
        let (sx, sy) = (&self.shapes[s.x], &self.shapes[y]);
        let dev = self.devs[s.x] + self.devs[y] - self.deviation(&nx) - self.deviation(&ny);
        let pairs = if y == s.x ^ 1 {
            l1(sx, sy) - l1(&nx, &ny)
        } else {
            self.pair(s.x, sx) + self.pair(y, sy) - self.pair(s.x, &nx) - self.pair(y, &ny)
        };
        dev + pairs - dups
    }

    fn deviation(&self, s: &Shape) -> f64 {
        s.iter().zip(&self.mean).map(|(c, m)| (*c as f64 - m).abs()).sum()
    }

    /// Pair distance between library `x` (with shape `s`) and its table partner.
    fn pair(&self, x: usize, s: &Shape) -> f64 {
        l1(s, &self.shapes[x ^ 1])
    }

    /// Change in duplicate penalty when library `x` gives a copy of `out` and takes one of `in_`.
    fn dup_change(&self, x: usize, out: u32, in_: u32) -> f64 {
        if out == in_ {
            return 0.0;
        }
        let names = &self.names[self.span(x)];
        let lost = if names.iter().filter(|&&m| m == out).nth(1).is_some() { 1.0 } else { 0.0 };
        let gained = if names.contains(&in_) { 1.0 } else { 0.0 };
        (gained - lost) * DUPLICATE_PENALTY
    }

    fn apply(&mut self, s: Swap) {
        let sc = self.starts[s.x] + s.i;
        let (c, kc) = (self.cards[sc], (self.kinds[sc], self.names[sc]));
        let (d, kd) = match s.y {
            Some(y) => (self.cards[self.starts[y] + s.j], self.key_at(s.y, s.j)),
            None => (self.reserve[s.j], self.reserve_keys[s.j]),
        };
        self.shapes[s.x] = moved(self.shapes[s.x], kc.0, kd.0);
        self.devs[s.x] = self.deviation(&self.shapes[s.x]);
        (self.cards[sc], self.kinds[sc], self.names[sc]) = (d, kd.0, kd.1);
        match s.y {
            Some(y) => {
                self.shapes[y] = moved(self.shapes[y], kd.0, kc.0);
                self.devs[y] = self.deviation(&self.shapes[y]);
                let sd = self.starts[y] + s.j;
                (self.cards[sd], self.kinds[sd], self.names[sd]) = (c, kc.0, kc.1);
            }
            None => (self.reserve[s.j], self.reserve_keys[s.j]) = (c, kc),
        }
    }

    fn into_libraries(self) -> Vec<BuiltLibrary> {
        (0..self.count())
            .map(|k| {
                let mut cards = self.cards[self.span(k)].to_vec();
                cards.sort_unstable();
                BuiltLibrary { table: (k / 2) as u32 + 1, seat: if k % 2 == 0 { 'A' } else { 'B' }, cards }
            })
            .collect()
    }
}

/// A copy's two shape indices in one byte: curve bucket (high half), colour bucket + 7 (low half).
fn shape_key(c: &PoolCopy) -> u8 {
    ((curve_bucket(c.mana_value) as u8) << 4) | (BUCKETS + color_bucket(&c.colors)) as u8
}

/// The shape of cards with these shape keys.
fn shape(kinds: &[u8]) -> Shape {
    let mut s = [0; 2 * BUCKETS];
    for &k in kinds {
        s[(k >> 4) as usize] += 1;
        s[(k & 0xf) as usize] += 1;
    }
    s
}

/// A shape after one card with shape key `out` leaves and one with `in_` arrives.
fn moved(mut s: Shape, out: u8, in_: u8) -> Shape {
    s[(out >> 4) as usize] -= 1;
    s[(out & 0xf) as usize] -= 1;
    s[(in_ >> 4) as usize] += 1;
    s[(in_ & 0xf) as usize] += 1;
    s
}

fn l1(a: &Shape, b: &Shape) -> f64 {
    a.iter().zip(b).map(|(p, q)| p.abs_diff(*q)).sum::<u32>() as f64
}

fn flat(p: &Profile) -> Shape64 {
    let mut s = [0.0; 2 * BUCKETS];
    s[..BUCKETS].copy_from_slice(&p.curve);
    s[BUCKETS..].copy_from_slice(&p.colors);
    s
}

#[cfg(test)]
mod tests {
    use super::super::{build_report, pool_profile};
    use super::*;
    use std::collections::HashSet;

    /// A pool of `names` cards, 1 to 4 copies each, with a skewed curve and colours.
    fn synthetic_pool(names: usize, seed: u64) -> Vec<PoolCopy> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let palette = ["W", "U", "B", "R", "G", "WU", "BR", "", "G", "R"];
        let mut pool = Vec::new();
        for n in 0..names {
            let mv = [0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 6, 7][rng.random_range(0..14)];
            let colors = palette[rng.random_range(0..palette.len())];
            for _ in 0..rng.random_range(1..=4) {
                pool.push(PoolCopy {
                    pool_id: n as i64,
                    name: format!("Card {n}"),
                    cost: String::new(),
                    mana_value: mv,
                    colors: colors.chars().collect(),
                });
            }
        }
        pool
    }

    #[test]
    fn libraries_have_exact_sizes_and_no_copy_twice() {
        let pool = synthetic_pool(400, 1);
        for (tables, size) in [(1, 40), (5, 40), (3, 17)] {
            let libs = build_libraries(&pool, tables, size, 7).unwrap();
            assert_eq!(libs.len(), 2 * tables as usize);
            let mut seen = HashSet::new();
            for (k, lib) in libs.iter().enumerate() {
                assert_eq!(lib.table, k as u32 / 2 + 1);
                assert_eq!(lib.seat, if k % 2 == 0 { 'A' } else { 'B' });
                assert_eq!(lib.cards.len(), size);
                assert!(lib.cards.iter().all(|&c| c < pool.len() && seen.insert(c)));
            }
        }
    }

    #[test]
    fn same_seed_same_libraries_other_seed_other_libraries() {
        let pool = synthetic_pool(300, 2);
        let a = build_libraries(&pool, 4, 40, 42).unwrap();
        assert_eq!(a, build_libraries(&pool, 4, 40, 42).unwrap());
        assert_ne!(a, build_libraries(&pool, 4, 40, 43).unwrap());
    }

    #[test]
    fn an_exactly_sized_pool_is_used_entirely() {
        let pool = synthetic_pool(300, 3);
        let tables = 2;
        let size = pool.len() / 4;
        let cut = &pool[..4 * size];
        let libs = build_libraries(cut, tables, size, 1).unwrap();
        let used: HashSet<usize> = libs.iter().flat_map(|l| l.cards.clone()).collect();
        assert_eq!(used.len(), cut.len());
    }

    /// Mean distance from the pool profile and worst table of a plain shuffle dealt in chunks.
    fn plain_shuffle(pool: &[PoolCopy], tables: u32, size: usize, seed: u64) -> (f64, f64) {
        let mut order: Vec<usize> = (0..pool.len()).collect();
        order.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        let libs: Vec<BuiltLibrary> = order
            .chunks(size)
            .take(2 * tables as usize)
            .enumerate()
            .map(|(k, c)| BuiltLibrary {
                table: k as u32 / 2 + 1,
                seat: if k % 2 == 0 { 'A' } else { 'B' },
                cards: c.to_vec(),
            })
            .collect();
        let r = build_report(pool, &libs, size);
        (r.mean_distance, r.worst_pair.1)
    }

    #[test]
    fn balance_beats_a_plain_shuffle() {
        for (names, tables) in [(700, 16), (300, 8), (2000, 30)] {
            let pool = synthetic_pool(names, names as u64);
            let libs = build_libraries(&pool, tables, 40, 5).unwrap();
            let built = build_report(&pool, &libs, 40);
            let (shuffled_mean, shuffled_worst) = plain_shuffle(&pool, tables, 40, 5);
            assert!(
                built.mean_distance < shuffled_mean / 3.0,
                "built {} vs shuffle {shuffled_mean}",
                built.mean_distance
            );
            assert!(built.worst_pair.1 < shuffled_worst / 3.0);
            assert!(built.worst_pair.1 <= 4.0, "{:?}", built.worst_pair);
            assert!(built.per_library.iter().all(|l| l.2.duplicates == 0));
        }
    }

    #[test]
    fn the_pool_profile_is_kept_when_the_pool_is_larger() {
        let pool = synthetic_pool(2000, 9);
        let libs = build_libraries(&pool, 2, 40, 3).unwrap();
        let mean = pool_profile(&pool, 40);
        let report = build_report(&pool, &libs, 40);
        let colourless = mean.colors[6];
        for (_, _, b) in &report.per_library {
            assert!((b.colors[6] as f64 - colourless).abs() <= 1.0, "{b:?}");
        }
    }

    #[test]
    fn duplicates_are_forced_only_when_names_run_out() {
        let one_name: Vec<PoolCopy> = synthetic_pool(1, 4).into_iter().cycle().take(8).collect();
        let libs = build_libraries(&one_name, 1, 4, 0).unwrap();
        let report = build_report(&one_name, &libs, 4);
        assert!(report.per_library.iter().all(|l| l.2.duplicates == 3));
    }

    #[test]
    fn libraries_built_toward_a_target_take_its_shape() {
        let pool = synthetic_pool(600, 11);
        let cheap = Profile { curve: [0.0, 20.0, 20.0, 0.0, 0.0, 0.0, 0.0], colors: pool_profile(&pool, 40).colors };
        let libs = build_libraries_toward(&pool, 2, 40, 3, &cheap).unwrap();
        let report = build_report(&pool, &libs, 40);
        for (_, _, b) in &report.per_library {
            assert!(b.curve[1] + b.curve[2] >= 36, "{b:?}");
        }
    }

    #[test]
    fn size_errors_say_how_many_cards_are_short() {
        let pool = synthetic_pool(300, 5);
        let have = pool.len();
        let cases = [
            (0, 40, BuildError::NoTables),
            (1, 0, BuildError::EmptyLibrary),
            (100, 40, BuildError::PoolTooSmall { tables: 100, needed: 8000, have, short: 8000 - have }),
        ];
        for (tables, size, want) in cases {
            assert_eq!(build_libraries(&pool, tables, size, 1), Err(want));
        }
        let e = build_libraries(&pool[..600], 8, 40, 1).unwrap_err();
        assert_eq!(
            e.to_string(),
            "need 640 cards for 8 tables, the pool has 600 usable copies: 40 short \
             (add cards to the pool or build fewer tables)"
        );
    }
}
