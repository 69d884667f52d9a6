use super::*;

fn sender(i: u32) -> String {
    format!("10.0.{}.{}", i / 256, i % 256)
}

fn targets() -> Vec<String> {
    vec!["judge 1".to_string()]
}

/// A try from `i` at `s` seconds, settled as wrong (its count written back to `file` as the server does).
fn wrong(g: &mut Guesses, file: &mut Option<(f64, i64)>, i: u32, t0: Instant, s: u64) -> Result<(), u64> {
    let now_ms = (s * 1000) as i64;
    let t = g.start(sender(i), "kim", &targets(), &[*file], false, (t0 + Duration::from_secs(s), now_ms))?;
    *file = Some(g.rules.after_wrong(*file, now_ms));
    g.settle(&t, Outcome::Wrong);
    Ok(())
}

#[test]
fn the_chance_of_guessing_a_pin_or_a_code_in_12_hours_from_any_number_of_addresses_is_under_1_percent() {
    assert_eq!(Rules::PINS.most_tries(), 100 + 12 * 500);
    assert_eq!(Rules::PINS.device_tries(), 73 * 5);
    assert!((Rules::PINS.chance(1, 0) - 0.0061).abs() < 1e-9, "{}", Rules::PINS.chance(1, 0));
    assert!((Rules::PINS.chance(1, 4) - 0.00756).abs() < 1e-9, "{}", Rules::PINS.chance(1, 4));
    assert_eq!(Rules::CODES.most_tries(), 3_100);
    assert!((Rules::CODES.chance(1, 0) - 0.0031).abs() < 1e-9);
    assert!((Rules::CODES.chance(1, 12) - 0.00748).abs() < 1e-9, "{}", Rules::CODES.chance(1, 12));
    assert!((Rules::CODES.chance(2, 0) - 0.0062).abs() < 1e-9);
    for c in [Rules::PINS.chance(1, 4), Rules::CODES.chance(1, 12), Rules::CODES.chance(2, 0)] {
        assert!(c < 0.01, "{c}");
    }
}

#[test]
fn the_numbers_hold_against_a_new_address_for_every_try_for_12_hours() {
    for rules in [Rules::PINS, Rules::CODES] {
        let mut g = Guesses::new(rules);
        let mut file = None;
        let t0 = Instant::now();
        let mut tries = 0u64;
        let mut i = 0;
        // A hundred new addresses every ten seconds, each trying once.
        let mut s = 0;
        while s <= HOURS * 3600 {
            for _ in 0..100 {
                i += 1;
                if wrong(&mut g, &mut file, i, t0, s).is_ok() {
                    tries += 1;
                }
            }
            s += 10;
        }
        assert!(tries <= rules.most_tries(), "{tries} > {}", rules.most_tries());
        assert!(rules.chance(1, 0) < 0.01);
    }
}

#[test]
fn an_address_is_held_back_after_five_wrong_tries_for_ten_minutes() {
    let mut g = Guesses::new(Rules::PINS);
    let mut file = None;
    let t0 = Instant::now();
    for _ in 0..5 {
        assert_eq!(wrong(&mut g, &mut file, 9, t0, 0), Ok(()));
    }
    assert_eq!(wrong(&mut g, &mut file, 9, t0, 0), Err(600));
    assert!(wrong(&mut g, &mut file, 9, t0, 599).is_err());
    assert_eq!(wrong(&mut g, &mut file, 9, t0, 600), Ok(()));
}

#[test]
fn a_spent_budget_holds_back_new_addresses_but_never_a_known_device() {
    let mut g = Guesses::new(Rules::PINS);
    let mut file = None;
    let t0 = Instant::now();
    for i in 0..100 {
        wrong(&mut g, &mut file, i, t0, 0).expect("within the budget");
    }
    let held = wrong(&mut g, &mut file, 500, t0, 0);
    assert_eq!(held, Err(8), "one try drains in 3600 / 500 = 7.2 s");
    let t = g.start("device ab".into(), "kim", &targets(), &[file], true, (t0, 0)).expect("a known device");
    g.settle(&t, Outcome::Right);
    assert!(wrong(&mut g, &mut file, 501, t0, 8).is_ok(), "drained by one try after 8 s");
}

#[test]
fn tries_being_checked_count_against_the_budget_and_an_unchecked_one_is_taken_back() {
    let mut g = Guesses::new(Rules::CODES);
    let t0 = Instant::now();
    let mut running = Vec::new();
    for i in 0..100 {
        running.push(g.start(sender(i), "table 1", &targets(), &[None], false, (t0, 0)).expect("counted"));
    }
    assert!(g.start(sender(200), "table 1", &targets(), &[None], false, (t0, 0)).is_err(), "all at once");
    for t in &running {
        g.settle(t, Outcome::Unchecked);
    }
    assert!(g.start(sender(200), "table 1", &targets(), &[None], false, (t0, 0)).is_ok(), "taken back");
}

#[test]
fn a_standby_counts_its_own_wrong_tries_in_memory() {
    let mut g = Guesses::new(Rules::CODES);
    let t0 = Instant::now();
    for i in 0..100 {
        let t = g.start(sender(i), "table 1", &targets(), &[None], false, (t0, 0)).expect("counted");
        g.spend_here(t.targets(), &[None], 0);
        g.settle(&t, Outcome::Wrong);
    }
    assert!(g.start(sender(300), "table 1", &targets(), &[None], false, (t0, 0)).is_err());
}
