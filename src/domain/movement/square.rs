//! M1b — square movement: round r, table t: x_{L1(r,t)} against y_{L2(r,t)}, with L1 and L2
//! orthogonal Latin squares of order T.
//!
//! For a prime power q the finite field GF(q) gives L1 = r + t and L2 = a·r + t (a = the
//! field's generator x, or 2 in a prime field). Other orders use the product of the squares of
//! their prime-power factors (MacNeish), which works unless a factor is exactly 2, i.e. unless
//! T ≡ 2 (mod 4). Orders 2 and 6 have no orthogonal pair at all; other orders ≡ 2 mod 4 have
//! one, but this module does not build it, so they are reported as unavailable.

use super::mitchell::two_group;
use super::{MovementError, Schedule};

/// The finite field GF(p^k), elements coded as base-p digits of polynomial coefficients.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The characteristic p.
    pub p: u32,
    /// The degree k.
    pub k: u32,
    /// Low coefficients of the monic irreducible polynomial of degree k (x^k = -sum c_i x^i).
    modulus: Vec<u32>,
}

impl Field {
    /// GF(p^k) for a prime p, with the first irreducible polynomial found.
    pub fn new(p: u32, k: u32) -> Field {
        let modulus = if k == 1 { vec![0] } else { irreducible(p, k) };
        Field { p, k, modulus }
    }

    /// Number of elements q = p^k.
    pub fn order(&self) -> u32 {
        self.p.pow(self.k)
    }

    fn digits(&self, mut v: u32) -> Vec<u32> {
        (0..self.k)
            .map(|_| {
                let d = v % self.p;
                v /= self.p;
                d
            })
            .collect()
    }

    fn value(&self, digits: &[u32]) -> u32 {
        digits.iter().rev().fold(0, |acc, &d| acc * self.p + d)
    }

    /// Field addition.
    pub fn add(&self, a: u32, b: u32) -> u32 {
        if self.p == 2 {
            return a ^ b;
        }
        let (da, db) = (self.digits(a), self.digits(b));
        let sum: Vec<u32> = da.iter().zip(&db).map(|(x, y)| (x + y) % self.p).collect();
        self.value(&sum)
    }

    /// Field multiplication (polynomial product reduced by the modulus).
    pub fn mul(&self, a: u32, b: u32) -> u32 {
        if self.k == 1 {
            return ((u64::from(a) * u64::from(b)) % u64::from(self.p)) as u32;
        }
        if self.p == 2 {
            return self.mul_binary(a, b);
        }
        let (da, db) = (self.digits(a), self.digits(b));
        let k = self.k as usize;
        let mut prod = vec![0u32; 2 * k];
        for (i, x) in da.iter().enumerate() {
            for (j, y) in db.iter().enumerate() {
                prod[i + j] = (prod[i + j] + x * y) % self.p;
            }
        }
        for deg in (k..2 * k).rev() {
            let c = prod[deg];
            if c != 0 {
                prod[deg] = 0;
                for (i, m) in self.modulus.iter().enumerate() {
                    let sub = (c * m) % self.p;
                    let idx = deg - k + i;
                    prod[idx] = (prod[idx] + self.p - sub) % self.p;
                }
            }
        }
        self.value(&prod[..k])
    }

    /// Multiplication in GF(2^k) with bit operations (no allocation): a carry-less product, then
    /// x^k replaced by the modulus' low terms from the top degree down.
    fn mul_binary(&self, a: u32, b: u32) -> u32 {
        let k = self.k;
        let low = self.modulus.iter().enumerate().fold(0u64, |m, (i, &c)| m | (u64::from(c & 1) << i));
        let mut prod = 0u64;
        for i in 0..k {
            if (a >> i) & 1 == 1 {
                prod ^= u64::from(b) << i;
            }
        }
        for deg in (k..2 * k).rev() {
            if (prod >> deg) & 1 == 1 {
                prod ^= 1 << deg;
                prod ^= low << (deg - k);
            }
        }
        prod as u32
    }

    /// The multiplier a of L2 = a·r + t: the generator x (coded p) or 2 in a prime field.
    pub fn multiplier(&self) -> u32 {
        if self.k == 1 { 2 } else { self.p }
    }
}

/// First monic irreducible polynomial of degree k over GF(p), as its k low coefficients.
fn irreducible(p: u32, k: u32) -> Vec<u32> {
    let count = p.pow(k);
    (0..count).map(|c| coeffs(c, p, k)).find(|low| low[0] != 0 && !has_factor(p, low)).unwrap_or_default()
}

fn coeffs(mut c: u32, p: u32, k: u32) -> Vec<u32> {
    (0..k)
        .map(|_| {
            let d = c % p;
            c /= p;
            d
        })
        .collect()
}

/// Whether the monic polynomial with low coefficients `low` has a monic factor of degree 1..=k/2.
fn has_factor(p: u32, low: &[u32]) -> bool {
    let mut f: Vec<u32> = low.to_vec();
    f.push(1);
    let k = low.len() as u32;
    (1..=k / 2).any(|d| {
        (0..p.pow(d)).any(|c| {
            let mut g = coeffs(c, p, d);
            g.push(1);
            remainder_is_zero(p, &f, &g)
        })
    })
}

fn remainder_is_zero(p: u32, f: &[u32], g: &[u32]) -> bool {
    let mut r = f.to_vec();
    let dg = g.len() - 1;
    for deg in (dg..r.len()).rev() {
        let c = r[deg];
        if c != 0 {
            for (i, gi) in g.iter().enumerate() {
                let idx = deg - dg + i;
                r[idx] = (r[idx] + p * p - (c * gi) % p) % p;
            }
        }
    }
    r.iter().all(|&x| x == 0)
}

/// A pair of orthogonal Latin squares of some order, as a product of finite-field squares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LatinPair {
    factors: Vec<Field>,
}

impl LatinPair {
    /// The pair for `order` tables, or why there is none.
    pub fn new(order: u32) -> Result<LatinPair, MovementError> {
        if order == 0 {
            return Err(MovementError::SquareUnavailable(
                "the square movement needs at least 1 table; build a library pair first".to_string(),
            ));
        }
        if order == 2 || order == 6 {
            return Err(MovementError::SquareUnavailable(format!(
                "the square movement does not exist for {order} tables: there is no pair of orthogonal \
                 Latin squares of order {order}; use mitchell"
            )));
        }
        let factors: Vec<Field> = prime_powers(order).into_iter().map(|(p, k)| Field::new(p, k)).collect();
        if factors.iter().any(|f| f.order() == 2) {
            return Err(MovementError::SquareUnavailable(format!(
                "the square movement is not built for {order} tables (orders 2 more than a multiple of 4 \
                 need a special construction); use mitchell"
            )));
        }
        Ok(LatinPair { factors })
    }

    /// (L1(r, t), L2(r, t)) for round r and table index t, both in 0..order; rounds wrap.
    pub fn cell(&self, r: u32, t: u32) -> (u32, u32) {
        let (mut r, mut t) = (r, t);
        let (mut l1, mut l2, mut scale) = (0, 0, 1);
        for f in &self.factors {
            let q = f.order();
            let (ri, ti) = (r % q, t % q);
            (r, t) = (r / q, t / q);
            l1 += scale * f.add(ri, ti);
            l2 += scale * f.add(f.mul(f.multiplier(), ri), ti);
            scale *= q;
        }
        (l1, l2)
    }
}

/// Prime-power factorisation: (p, k) pairs in increasing p.
fn prime_powers(mut n: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut p = 2;
    while p * p <= n {
        let mut k = 0;
        while n.is_multiple_of(p) {
            n /= p;
            k += 1;
        }
        if k > 0 {
            out.push((p, k));
        }
        p += 1;
    }
    if n > 1 {
        out.push((n, 1));
    }
    out
}

/// Whether the square movement is available for `tables` tables.
pub fn square_available(tables: u32) -> bool {
    tables > 0 && LatinPair::new(tables).is_ok()
}

/// The square schedule for 2T players on T tables; rounds past T wrap (players meet again).
pub fn square(tables: u32, rounds: u32) -> Result<Schedule, MovementError> {
    let pair = LatinPair::new(tables)?;
    Ok(two_group(tables, rounds, |r, t| pair.cell(r % tables, t)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both squares Latin (rows: one game per round; columns: no table revisit) and orthogonal.
    fn is_orthogonal_pair(n: u32) -> bool {
        let Ok(pair) = LatinPair::new(n) else { return false };
        let nn = (n * n) as usize;
        let mut marks = vec![vec![false; nn]; 5];
        for r in 0..n {
            for t in 0..n {
                let (a, b) = pair.cell(r, t);
                let keys = [a * n + b, r * n + a, t * n + a, r * n + b, t * n + b];
                for (m, key) in marks.iter_mut().zip(keys) {
                    if m[key as usize] {
                        return false;
                    }
                    m[key as usize] = true;
                }
            }
        }
        true
    }

    #[test]
    fn gf4_matches_the_design() {
        let f = Field::new(2, 2);
        let m: Vec<u32> = (0..4).map(|r| f.mul(2, r)).collect();
        assert_eq!(m, vec![0, 2, 3, 1]);
    }

    #[test]
    fn fields_have_inverses() {
        for (p, k) in [(2, 3), (3, 2), (2, 4), (5, 2), (3, 3), (2, 5), (7, 2), (2, 6), (13, 1)] {
            let f = Field::new(p, k);
            let q = f.order();
            for a in 1..q {
                assert!((1..q).any(|b| f.mul(a, b) == 1), "GF({p}^{k}): {a} has no inverse");
            }
        }
    }

    #[test]
    fn orthogonal_for_every_order_not_2_mod_4() {
        for n in 1..=64 {
            assert_eq!(is_orthogonal_pair(n), n % 4 != 2, "order {n}");
        }
        let e6 = LatinPair::new(6).unwrap_err().to_string();
        assert!(e6.contains("orthogonal Latin squares of order 6") && e6.contains("mitchell"), "{e6}");
        let e10 = LatinPair::new(10).unwrap_err().to_string();
        assert!(e10.contains("10 tables") && e10.contains("mitchell"), "{e10}");
    }
}
