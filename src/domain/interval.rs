//! An exact (Clopper–Pearson) interval for a rate, so that a library is not called unfair from three matches:
//! with `k` successes out of `n` (a draw counts half a success), the lower bound is the `alpha/2` quantile of
//! Beta(k, n − k + 1) and the upper bound the `1 − alpha/2` quantile of Beta(k + 1, n − k) (0 and 1 at the ends).
//! The quantiles come from the regularized incomplete beta function (its continued fraction), solved by
//! bisection: no table, no approximation beyond 1e-12.

/// The exact interval of a rate: `k` successes (may be a half) out of `n` trials, at level `alpha` (0.05: a 95 %
/// interval). `(0, 1)` when there are no trials.
pub fn clopper_pearson(k: f64, n: f64, alpha: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let k = k.clamp(0.0, n);
    let lower = if k <= 0.0 { 0.0 } else { beta_quantile(alpha / 2.0, k, n - k + 1.0) };
    let upper = if k >= n { 1.0 } else { beta_quantile(1.0 - alpha / 2.0, k + 1.0, n - k) };
    (lower, upper)
}

/// The `q` quantile of Beta(a, b), by bisection on the regularized incomplete beta function.
fn beta_quantile(q: f64, a: f64, b: f64) -> f64 {
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if regularized_beta(mid, a, b) < q {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-12 {
            break;
        }
    }
    (lo + hi) / 2.0
}

/// I_x(a, b), the regularized incomplete beta function (Lentz's continued fraction, on the side where it
/// converges fast).
fn regularized_beta(x: f64, a: f64, b: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    if x < (a + 1.0) / (a + b + 2.0) {
        ln_front.exp() * continued_fraction(x, a, b) / a
    } else {
        1.0 - ln_front.exp() * continued_fraction(1.0 - x, b, a) / b
    }
}

fn continued_fraction(x: f64, a: f64, b: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..300 {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        d = if d.abs() < TINY { TINY } else { d };
        c = 1.0 + aa / c;
        c = if c.abs() < TINY { TINY } else { c };
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        d = if d.abs() < TINY { TINY } else { d };
        c = 1.0 + aa / c;
        c = if c.abs() < TINY { TINY } else { c };
        d = 1.0 / d;
        let step = d * c;
        h *= step;
        if (step - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, nine terms: about 15 digits).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1 − x) = π / sin(πx).
        return std::f64::consts::PI.ln() - (std::f64::consts::PI * x).sin().abs().ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut sum = G[0];
    for (i, g) in G.iter().enumerate().skip(1) {
        sum += g / (x + i as f64);
    }
    let t = x + 7.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(x: f64, y: f64) -> bool {
        (x - y).abs() < 1e-4
    }

    #[test]
    fn the_interval_matches_published_values() {
        // 95 % Clopper–Pearson intervals as statistics packages give them (R: binom.test(k, n)$conf.int).
        let cases = [
            (0.0, 3.0, (0.0, 0.707_6)),
            (3.0, 3.0, (0.292_4, 1.0)),
            (1.0, 3.0, (0.008_4, 0.905_7)),
            (5.0, 10.0, (0.187_1, 0.812_9)),
            (7.0, 20.0, (0.153_9, 0.592_2)),
            (50.0, 100.0, (0.398_3, 0.601_7)),
        ];
        for (k, n, (lo, hi)) in cases {
            let (l, h) = clopper_pearson(k, n, 0.05);
            assert!(close(l, lo) && close(h, hi), "{k}/{n}: ({l}, {h}) against ({lo}, {hi})");
        }
        assert_eq!(clopper_pearson(0.0, 0.0, 0.05), (0.0, 1.0));
    }

    #[test]
    fn three_matches_never_call_a_library_unfair_and_a_half_sits_between_its_neighbours() {
        let (lo, hi) = clopper_pearson(3.0, 3.0, 0.05);
        assert!(lo < 0.5 && hi == 1.0, "three wins of three still holds par: ({lo}, {hi})");
        let (a, _) = clopper_pearson(2.0, 5.0, 0.05);
        let (b, _) = clopper_pearson(2.5, 5.0, 0.05);
        let (c, _) = clopper_pearson(3.0, 5.0, 0.05);
        assert!(a < b && b < c, "{a} {b} {c}");
    }
}
