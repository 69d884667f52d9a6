//! Table-driven tests for mana costs.

use super::*;

fn cost(s: &str) -> ManaCost {
    match ManaCost::parse(s) {
        Ok(c) => c,
        Err(e) => panic!("{e}"),
    }
}

fn key_texts(s: &str) -> Vec<String> {
    cost(s).keys().iter().map(Key::to_string).collect()
}

#[test]
fn parses_both_notations_to_canonical() {
    let table = [
        // brace form
        ("{2}{B}{B}", "{2}{B}{B}"),
        ("{X}{R}", "{X}{R}"),
        ("{W/U}", "{W/U}"),
        ("{U/W}", "{W/U}"),
        ("{2/W}", "{2/W}"),
        ("{W/2}", "{2/W}"),
        ("{G/P}", "{G/P}"),
        ("{g/p}", "{G/P}"),
        ("{B/G/P}", "{B/G/P}"),
        ("{C}", "{C}"),
        ("{S}", "{S}"),
        ("{0}", "{0}"),
        ("{10}", "{10}"),
        ("{C/W}", "{C/W}"),
        ("{HW}", "{HW}"),
        ("{R}{X}", "{X}{R}"),
        ("{1}{2}", "{3}"),
        ("{0}{R}", "{R}"),
        // shorthand of players' notes
        ("B1", "{1}{B}"),
        ("W1", "{1}{W}"),
        ("U1", "{1}{U}"),
        ("B3", "{3}{B}"),
        ("WW", "{W}{W}"),
        ("BX", "{X}{B}"),
        ("XR", "{X}{R}"),
        ("RRRR3", "{3}{R}{R}{R}{R}"),
        ("0", "{0}"),
        ("2WU", "{2}{W}{U}"),
        ("UW2", "{2}{W}{U}"),
        ("12", "{12}"),
        ("b1", "{1}{B}"),
        (" B 1 ", "{1}{B}"),
        ("(W/U)", "{W/U}"),
        ("W/U", "{W/U}"),
        ("1(G/W)(G/W)", "{1}{G/W}{G/W}"),
        ("2/R 2/R 2/R", "{2/R}{2/R}{2/R}"),
        ("U/P", "{U/P}"),
        ("X1B", "{X}{1}{B}"),
        ("C3", "{3}{C}"),
        // printed colour order
        ("RW", "{R}{W}"),
        ("WG", "{G}{W}"),
        ("GBW1", "{1}{W}{B}{G}"),
        ("UGB", "{B}{G}{U}"),
        ("GRBUW", "{W}{U}{B}{R}{G}"),
        ("{R}{U/R}{U}", "{U}{U/R}{R}"),
        ("{U}{W/B}{2}", "{2}{W/B}{U}"),
        ("{W}{G/U}", "{G/U}{W}"),
        ("{S}{G}{C}", "{C}{G}{S}"),
    ];
    for (given, want) in table {
        assert_eq!(cost(given).canonical(), want, "parse({given:?})");
    }
}

#[test]
fn shorthand_is_letters_then_x_then_number() {
    let table = [
        ("{1}{B}", "B1"),
        ("{X}{B}", "BX"),
        ("{3}{R}{R}{R}{R}", "RRRR3"),
        ("{0}", "0"),
        ("{2}{W}{U}", "WU2"),
        ("{W/U}", "(W/U)"),
        ("{X}{1}{B}", "BX1"),
        ("{2/R}{2/R}", "(2/R)(2/R)"),
        ("{1}{G/P}", "(G/P)1"),
        ("{X}", "X"),
    ];
    for (given, want) in table {
        let c = cost(given);
        assert_eq!(c.shorthand(), want, "shorthand of {given}");
        assert_eq!(cost(&c.shorthand()), c, "shorthand of {given} reads back");
    }
}

#[test]
fn bad_costs_are_refused_with_a_position() {
    let table = [
        ("", "the cost is empty"),
        ("   ", "the cost is empty"),
        ("{Q}", "unknown symbol \"Q\" at character 2"),
        ("B-1", "unexpected \"-\" at character 2"),
        ("{2/}", "unknown symbol \"2/\" at character 4"),
        ("{", "\"{\" at character 1 is never closed"),
        ("B{", "\"{\" at character 2 is never closed"),
        ("{}", "unknown symbol \"\" at character 1"),
        ("{W/W}", "unknown symbol \"W/W\" at character 2"),
        ("{B}}", "unexpected \"}\" at character 4"),
        ("W/", "unexpected \"/\" at character 2"),
        ("Q1", "unknown symbol \"Q\" at character 1"),
        ("{99999999999}", "number at character 2 is too large"),
    ];
    for (given, want) in table {
        let err = match ManaCost::parse(given) {
            Ok(c) => panic!("{given:?} was read as {c}"),
            Err(e) => e.to_string(),
        };
        assert!(err.contains(want), "{given:?}: {err}");
        assert!(err.starts_with(&format!("cannot read cost \"{given}\"")), "{err}");
    }
}

#[test]
fn error_message_names_input_and_fix() {
    let err = ManaCost::parse("{Q}").map(|c| c.canonical());
    assert_eq!(
        err.map_err(|e| e.to_string()),
        Err("cannot read cost \"{Q}\": unknown symbol \"Q\" at character 2; \
             write costs like {1}{B} or B1"
            .to_string())
    );
}

#[test]
fn oversized_costs_are_refused() {
    assert!(ManaCost::parse(&"R".repeat(65)).is_err());
    assert!(ManaCost::parse(&"R".repeat(64)).is_ok());
    // 12 distinct hybrid kinds: 2^12 = 4096 readings, the most allowed; twice each: 3^12.
    let many = "{W/U}{U/B}{B/R}{R/G}{G/W}{W/B}{U/R}{B/G}{R/W}{G/U}{2/W}{2/U}";
    let doubled = format!("{many}{many}");
    assert!(ManaCost::parse(&doubled).is_err());
    assert!(cost(many).keys().len() <= 4096);
}

#[test]
fn numbers_about_a_cost() {
    // (cost, mana value, generic, coloured total, white count, colours)
    let table = [
        ("{2}{B}{B}", 4, 2, 2, 0, "B"),
        ("{X}{R}", 1, 0, 1, 0, "R"),
        ("{2/W}{2/W}", 4, 0, 2, 2, "W"),
        ("{1}{W/U}", 2, 1, 1, 1, "WU"),
        ("{U/P}", 1, 0, 1, 0, "U"),
        ("{0}", 0, 0, 0, 0, ""),
        ("{3}{C}", 4, 3, 0, 0, ""),
        ("{1}{G}{W}{U}", 4, 1, 3, 1, "GWU"),
    ];
    for (given, mv, generic, colored, white, colors) in table {
        let c = cost(given);
        assert_eq!(c.mana_value(), mv, "mana value of {given}");
        assert_eq!(c.generic(), generic, "generic of {given}");
        assert_eq!(c.colored_total(), colored, "coloured total of {given}");
        assert_eq!(c.colored_count(Color::W), white, "white in {given}");
        let letters: String = c.colors().into_iter().map(Color::as_char).collect();
        assert_eq!(letters, colors, "colours of {given}");
    }
}

#[test]
fn keys_expand_hybrids() {
    let table: [(&str, &[&str]); 9] = [
        ("{2/R}{2/R}{2/R}", &["{R}{R}{R}", "{2}{R}{R}", "{4}{R}", "{6}"]),
        ("{W/U}", &["{W}", "{U}"]),
        ("{1}{W/U}{W/U}", &["{1}{W}{W}", "{1}{W}{U}", "{1}{U}{U}"]),
        ("{U/P}", &["{U}"]),
        ("{B/G/P}", &["{B}", "{G}"]),
        ("{C/W}", &["{C}", "{W}"]),
        ("{X}{R}", &["{X}{R}"]),
        ("{1}{B}", &["{1}{B}"]),
        ("{0}", &["{0}"]),
    ];
    for (given, want) in table {
        let mut want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
        want.sort();
        let mut got = key_texts(given);
        got.sort();
        assert_eq!(got, want, "keys of {given}");
    }
}

#[test]
fn keys_are_sorted_and_deduplicated() {
    let keys = cost("{W/U}{U/W}{W}{U}").keys();
    let mut sorted = keys.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(keys, sorted);
    assert_eq!(keys.len(), 3);
}

#[test]
fn keys_round_trip_through_text() {
    for given in ["{2}{B}{B}", "{X}{X}{1}{G}{U}", "{0}", "{3}{C}{S}", "{HW}", "{X}{Y}{Z}{R}{R}"] {
        for key in cost(given).keys() {
            assert_eq!(Key::parse_display(&key.to_string()), Ok(key), "{given}");
        }
    }
    assert!(Key::parse_display("{W/U}").is_err());
    assert!(Key::parse_display("{G/P}").is_err());
    assert!(Key::parse_display("{Q}").is_err());
}

#[test]
fn printed_and_declared_costs_match() {
    let table = [
        ("{2/R}{2/R}{2/R}", "{2}{R}{R}", true),
        ("{2/R}{2/R}{2/R}", "RRR", true),
        ("{2/R}{2/R}{2/R}", "6", true),
        ("{2/R}{2/R}{2/R}", "{3}{R}", false),
        ("{U/P}", "U", true),
        ("{U/P}", "1", false),
        ("{W/U}", "W", true),
        ("{W/U}", "U", true),
        ("{W/U}", "B", false),
        ("{X}{R}", "XR", true),
        ("{X}{R}", "R", false),
        ("{X}{R}", "1R", false),
        ("{1}{B}", "B1", true),
        ("{1}{B}", "B2", false),
        ("{1}{W/U}", "{1}{G/U}", true),
        ("{0}", "0", true),
    ];
    for (printed, declared, want) in table {
        assert_eq!(costs_match(&cost(printed), &cost(declared)), want, "{printed} vs {declared}");
    }
}

#[test]
fn no_cost_matches_zero() {
    assert_eq!(cost_or_zero(None), ManaCost::zero());
    assert!(costs_match(&cost_or_zero(None), &cost("0")));
    assert!(!costs_match(&cost_or_zero(None), &cost("U")));
    let c = cost("U");
    assert_eq!(cost_or_zero(Some(&c)), c);
}

#[test]
fn split_halves_combine() {
    let fire = cost("{1}{R}");
    let ice = cost("{1}{U}");
    assert_eq!(fire.combined(&ice).canonical(), "{2}{U}{R}");
}

#[test]
fn every_small_cost_round_trips() {
    // Exhaustive over all sequences of up to three symbols from a varied pool.
    let pool = [
        "{1}", "{3}", "{X}", "{W}", "{U}", "{B}", "{R}", "{G}", "{C}", "{S}", "{W/U}", "{B/G}", "{2/R}", "{G/P}",
        "{R/W/P}", "{C/U}",
    ];
    let mut texts = vec![String::new()];
    for _ in 0..3 {
        let longer: Vec<String> = texts.iter().flat_map(|t| pool.iter().map(move |s| format!("{t}{s}"))).collect();
        texts.extend(longer);
        texts.dedup();
    }
    for text in texts.iter().filter(|t| !t.is_empty()) {
        let c = cost(text);
        assert_eq!(cost(&c.canonical()), c, "canonical of {text}");
        assert_eq!(cost(&c.shorthand()), c, "shorthand of {text}");
        assert_eq!(cost(&c.canonical().to_lowercase()), c, "lower case {text}");
        assert!(costs_match(&c, &c), "{text} matches itself");
        let keys = c.keys();
        assert!(!keys.is_empty(), "{text} has keys");
        for key in &keys {
            assert_eq!(Key::parse_display(&key.to_string()).as_ref(), Ok(key), "{text}");
            assert!(costs_match(&c, &key.to_cost()), "{text} matches its key {key}");
            assert_eq!(key.to_cost().mana_value() + c.x_count(), key_value(key), "{text}");
        }
    }
}

/// Mana value of a key plus its X count, computed from the fields.
fn key_value(k: &Key) -> u32 {
    k.generic
        + u32::from(k.x)
        + u32::from(k.colorless)
        + u32::from(k.snow)
        + k.colored.iter().map(|&n| u32::from(n)).sum::<u32>()
}
