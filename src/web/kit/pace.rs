//! The pace of players' writes: each code and each table may send a burst of [`BURST`] writes, then about one a
//! second ([`PER_SECOND`]); beyond that a write is answered 429 with `Retry-After` (the page keeps it and sends it
//! again). Judges' writes are not paced. Kept in memory: a restart only gives a new burst.

use std::collections::HashMap;
use std::time::Instant;

/// Writes one code or one table may send at once.
pub const BURST: f64 = 60.0;
/// Writes a second after the burst.
pub const PER_SECOND: f64 = 1.0;
/// How many buckets are kept before the full ones are forgotten.
const KEPT: usize = 10_000;

/// The buckets of writes, by key (`table 3`, `code HASH`).
#[derive(Debug, Default)]
pub struct Pace {
    buckets: HashMap<String, (f64, Instant)>,
}

impl Pace {
    /// Takes one write from each key's bucket, or `Err(seconds to wait)` (nothing taken) when one is empty.
    pub fn take(&mut self, keys: &[String], now: Instant) -> Result<(), u64> {
        if self.buckets.len() > KEPT {
            self.buckets.retain(|_, (left, at)| *left + now.duration_since(*at).as_secs_f64() * PER_SECOND < BURST);
        }
        let mut after = Vec::with_capacity(keys.len());
        for k in keys {
            let (left, at) = self.buckets.get(k).copied().unwrap_or((BURST, now));
            let left = (left + now.saturating_duration_since(at).as_secs_f64() * PER_SECOND).min(BURST);
            if left < 1.0 {
                return Err(((1.0 - left) / PER_SECOND).ceil().max(1.0) as u64);
            }
            after.push(left - 1.0);
        }
        for (k, left) in keys.iter().zip(after) {
            self.buckets.insert(k.clone(), (left, now));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_burst_of_sixty_then_one_a_second() {
        let mut p = Pace::default();
        let t0 = Instant::now();
        let keys = ["table 1".to_string(), "code a".to_string()];
        for _ in 0..60 {
            assert_eq!(p.take(&keys, t0), Ok(()));
        }
        assert_eq!(p.take(&keys, t0), Err(1));
        assert_eq!(p.take(&keys, t0 + Duration::from_millis(1000)), Ok(()));
        assert_eq!(p.take(&keys, t0 + Duration::from_millis(1100)), Err(1));
        assert_eq!(p.take(&["table 2".to_string()], t0), Ok(()), "another table has its own");
    }
}
