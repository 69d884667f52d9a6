//! Exact fractions for the standings' percentages, compared by cross-multiplying.

use std::cmp::Ordering;

/// Exact non-negative fraction; the denominator is kept at most 2^50 (rounded beyond that).
#[derive(Debug, Clone, Copy)]
pub(super) struct Frac {
    num: u128,
    den: u128,
}

const DEN_BITS: u32 = 50;

impl Frac {
    pub(super) const ZERO: Frac = Frac { num: 0, den: 1 };
    pub(super) const THIRD: Frac = Frac { num: 1, den: 3 };

    pub(super) fn new(num: u128, den: u128) -> Frac {
        if den == 0 {
            return Frac::ZERO;
        }
        let g = gcd(num, den);
        let (mut num, mut den) = (num / g, den / g);
        let bits = 128 - den.leading_zeros();
        if bits > DEN_BITS {
            let shift = bits - DEN_BITS;
            num >>= shift;
            den >>= shift;
        }
        Frac { num, den }
    }

    /// `num / den` as it stands, not reduced (`den` > 0): comparing and converting need no reduced form, and
    /// fractions over one denominator compare by their numerators alone.
    pub(super) fn over(num: u64, den: u64) -> Frac {
        Frac { num: u128::from(num), den: u128::from(den.max(1)) }
    }

    /// The numerator, when the denominator is `den`.
    pub(super) fn over_den(self, den: u128) -> Option<u128> {
        (self.den == den).then_some(self.num)
    }

    /// The denominator.
    pub(super) fn den(self) -> u128 {
        self.den
    }

    pub(super) fn add(self, other: Frac) -> Frac {
        let exact = self
            .num
            .checked_mul(other.den)
            .zip(other.num.checked_mul(self.den))
            .and_then(|(x, y)| x.checked_add(y))
            .zip(self.den.checked_mul(other.den));
        match exact {
            Some((num, den)) => Frac::new(num, den),
            None => Frac::from_f64(self.to_f64() + other.to_f64()),
        }
    }

    pub(super) fn div_count(self, count: u32) -> Frac {
        match self.den.checked_mul(u128::from(count)) {
            Some(den) => Frac::new(self.num, den),
            None => Frac::from_f64(self.to_f64() / f64::from(count)),
        }
    }

    fn from_f64(x: f64) -> Frac {
        let den = 1u128 << DEN_BITS;
        Frac::new((x.max(0.0) * den as f64).round() as u128, den)
    }

    pub(super) fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    pub(super) fn max(self, other: Frac) -> Frac {
        if self.compare(other) == Ordering::Less { other } else { self }
    }

    pub(super) fn compare(self, other: Frac) -> Ordering {
        if self.den == other.den {
            return self.num.cmp(&other.num);
        }
        match (self.num.checked_mul(other.den), other.num.checked_mul(self.den)) {
            (Some(x), Some(y)) => x.cmp(&y),
            _ => self.to_f64().total_cmp(&other.to_f64()),
        }
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    if let (Ok(x), Ok(y)) = (u64::try_from(a), u64::try_from(b)) {
        return u128::from(gcd64(x, y));
    }
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

fn gcd64(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_compare_exactly() {
        let a = Frac::new(1, 3).add(Frac::new(1, 6));
        assert_eq!(a.compare(Frac::new(1, 2)), Ordering::Equal);
        assert_eq!(Frac::new(2, 3).compare(Frac::new(3, 5)), Ordering::Greater);
        assert_eq!(Frac::new(5, 0).compare(Frac::ZERO), Ordering::Equal);
    }

    #[test]
    fn averages_stay_exact_and_huge_denominators_are_rounded() {
        // (1/3 + 1/2 + 2/3) / 3 = 1/2 exactly.
        let sum = Frac::new(1, 3).add(Frac::new(1, 2)).add(Frac::new(2, 3));
        assert_eq!(sum.div_count(3).compare(Frac::new(1, 2)), Ordering::Equal);
        assert_eq!(Frac::new(1, 4).max(Frac::THIRD).compare(Frac::THIRD), Ordering::Equal);
        let huge = Frac::new(1, (1u128 << 80) + 1);
        assert!(huge.den <= 1u128 << 50);
        let back = Frac::new(u128::MAX / 3, u128::MAX);
        assert!((back.to_f64() - 1.0 / 3.0).abs() < 1e-12);
    }
}
