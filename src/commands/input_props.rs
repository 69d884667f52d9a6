//! Property tests over every importer and every parser of typed text: whatever the bytes, no panic, and
//! what comes out holds no control character and stays within its bounds. The same inputs through the
//! real binary (exit codes, one-line errors, an unchanged event file) are in tests/cli/props.rs.

use crate::domain::cardref::parse_detailed;
use crate::domain::{bounds, text};
use proptest::prelude::*;

/// Text a hostile or careless file holds: letters, digits, signs, CSV and JSON punctuation, braces of
/// costs, line breaks and control characters.
fn messy() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            4 => proptest::char::range('a', 'z'),
            2 => proptest::char::range('0', '9'),
            2 => proptest::sample::select(vec![',', '"', '{', '}', '/', ' ', '=', '+', '-', '@', ':', '.', '\'', ';']),
            1 => proptest::sample::select(vec!['\n', '\r', '\t', '\0', '\u{1b}', '\u{7f}', '\u{85}', '\u{202e}']),
            1 => proptest::sample::select(vec!['R', 'U', 'W', 'B', 'G', 'X', 'Æ', 'é', '—', '\u{feff}']),
        ],
        0..24,
    )
    .prop_map(|cs| cs.into_iter().collect())
}

/// A number as a user might type it: small, huge, negative, or not a number at all.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        (0i64..40).prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        Just("99999999999999999999999".to_string()),
        Just("1e9".to_string()),
        messy(),
    ]
}

fn csv_cell(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

fn no_controls(s: &str) -> bool {
    text::first_control(s, false).is_none()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn card_files_of_any_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = parse_detailed(&bytes, &mut |_, _| {});
    }

    #[test]
    fn card_csv_rows_come_out_clean(rows in proptest::collection::vec((messy(), messy(), messy(), messy()), 0..8)) {
        let mut csv = String::from("name,mana_cost,type_line,flags\n");
        for (n, c, t, f) in &rows {
            csv.push_str(&format!("{},{},{},{}\n", csv_cell(n), csv_cell(c), csv_cell(t), csv_cell(f)));
        }
        if let Ok(out) = parse_detailed(csv.as_bytes(), &mut |_, _| {}) {
            for card in &out.cards {
                prop_assert!(!card.name.trim().is_empty());
                prop_assert!(no_controls(&card.name) && no_controls(&card.type_line), "{card:?}");
                prop_assert!(card.mana_cost.as_deref().is_none_or(no_controls));
                prop_assert!(!out.cost_conflicts.iter().any(|(n, _)| *n == card.name));
            }
        }
    }

    #[test]
    fn mtgjson_and_scryfall_objects_come_out_clean(objs in proptest::collection::vec((messy(), messy(), messy()), 1..6)) {
        let json = |(n, c, t): &(String, String, String)| {
            serde_json::json!({"name": n, "manaCost": c, "type": t, "layout": "normal", "object": "card",
                               "mana_cost": c, "type_line": t, "set": "lea"})
        };
        let cards: Vec<serde_json::Value> = objs.iter().map(json).collect();
        let set = serde_json::json!({"meta": {}, "data": {"code": "LEA", "type": "core", "cards": cards}});
        let scry = serde_json::Value::Array(cards);
        for doc in [set, scry] {
            let bytes = doc.to_string().into_bytes();
            if let Ok(out) = parse_detailed(&bytes, &mut |_, _| {}) {
                for card in &out.cards {
                    prop_assert!(!card.name.trim().is_empty() && no_controls(&card.name), "{card:?}");
                    prop_assert!(!card.type_line.trim().is_empty() && no_controls(&card.type_line), "{card:?}");
                }
            }
        }
    }

    #[test]
    fn card_lists_of_any_text_never_panic_and_come_out_clean(
        rows in proptest::collection::vec((messy(), number(), messy(), messy()), 0..8),
        junk in proptest::collection::vec(any::<u8>(), 0..200),
    ) {
        let _ = crate::ops::pool::import::read_lines(&junk, "junk.csv");
        let mut csv = String::from("name,count,mana_cost,type_line\n");
        for (n, k, c, t) in &rows {
            csv.push_str(&format!("{},{},{},{}\n", csv_cell(n), csv_cell(k), csv_cell(c), csv_cell(t)));
        }
        if let Ok((lines, _)) = crate::ops::pool::import::read_lines_counted(csv.as_bytes(), "x.csv") {
            for l in &lines {
                prop_assert!(no_controls(&l.name) && no_controls(&l.count));
                if let Ok(n) = crate::ops::pool::import::parse_count(&l.count) {
                    prop_assert!(n <= bounds::MAX_BASIC_COPIES);
                }
            }
        }
    }

    #[test]
    fn player_files_of_any_text_never_panic(rows in proptest::collection::vec((messy(), messy()), 0..8)) {
        let dir = tempfile::tempdir().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let path = dir.path().join("players.csv");
        let mut csv = String::from("name,email\n");
        for (n, e) in &rows {
            csv.push_str(&format!("{},{}\n", csv_cell(n), csv_cell(e)));
        }
        std::fs::write(&path, csv).map_err(|e| TestCaseError::fail(e.to_string()))?;
        if let Ok((rows, _)) = crate::commands::player::read_csv_counted(&path) {
            prop_assert!(rows.iter().all(|r| no_controls(&r.name) && r.email.as_deref().is_none_or(no_controls)));
        }
    }

    #[test]
    fn typed_numbers_costs_names_and_moments_never_panic(t in messy(), n in number()) {
        let _ = crate::domain::cost::ManaCost::parse(&t);
        let _ = crate::domain::cost::ManaCost::parse(&format!("{{{n}}}{{{n}}}{t}")).map(|c| c.mana_value());
        let _ = crate::ops::pool::import::printed_text(&t);
        let _ = crate::domain::names::fold(&t);
        let _ = crate::domain::names::closest(&t, ["Shock", "Brainstorm", &t], 2);
        let now = chrono::DateTime::<chrono::Utc>::UNIX_EPOCH;
        let _ = crate::time::parse_at(&t, now);
        let _ = crate::time::parse_at(&n, now);
        let _ = crate::domain::settings::find(&t).map(|s| crate::domain::settings::normalize(s, &n));
        for key in ["rounds", "seed", "name", "round-minutes"] {
            if let Ok(s) = crate::domain::settings::find(key) {
                let _ = crate::domain::settings::normalize(s, &t);
                let _ = crate::domain::settings::normalize(s, &n);
            }
        }
        if let Ok(v) = bounds::whole(&n, bounds::MIN_LIFE, bounds::MAX_LIFE, "a life total") {
            prop_assert!((bounds::MIN_LIFE..=bounds::MAX_LIFE).contains(&v));
        }
        let _ = bounds::seed(&n);
    }

    #[test]
    fn every_typed_command_line_parses_or_refuses_without_panic(
        pick in 0usize..14, a in number(), b in number(), t in messy(),
    ) {
        let lines: Vec<Vec<&str>> = vec![
            vec!["pool", "add", &t, "--count", &a],
            vec!["pool", "remove", &t, "--count", &a],
            vec!["library", "build", "--tables", &a, "--seed", &b],
            vec!["event", "new", &t, "--rounds", &a, "--seed", &b],
            vec!["result", &a, &t, "--by", "time", "--life", &a, &b, "--round", &b],
            vec!["note", &a, &t, &t, &t, "--round", &b],
            vec!["challenge", &a, "--by", &t, "--about", &t, "--ruling", "denied", "--evidence", &b],
            vec!["penalty", &t, "slow", "--table", &a, "--round", &b],
            vec!["ruling", &a, &t, "--round", &b],
            vec!["round", "extend", &a, &b, "--reason", &t],
            vec!["movement", "preview", "--players", &a, "--tables", &b, "--rounds", &b],
            vec!["demo", "--players", &a, "--rounds", &b, "--seed", &b],
            vec!["standings", "--round", &a],
            vec!["clock", &a, "--start", &t, "--at", &b],
        ];
        let mut args = vec!["mmjudge"];
        args.extend(lines[pick].iter().copied());
        let _ = <crate::cli::Cli as clap::Parser>::try_parse_from(&args);
    }

    #[test]
    fn escaped_text_and_csv_cells_are_inert(t in messy()) {
        prop_assert!(no_controls(&text::escape(&t, false)));
        prop_assert!(text::first_control(&text::escape(&t, true), true).is_none());
        let (kept, n) = text::strip(&t, false);
        prop_assert!(no_controls(&kept));
        prop_assert_eq!(kept.chars().count() + n, t.chars().count());
        let cell = crate::render::safe_cell(&t);
        // Every part a spreadsheet may take as a cell (split on `;` in much of Europe) is inert.
        for part in cell.split(';') {
            let risky = part.starts_with(['=', '+', '@', '\t', '\r']) || part.starts_with('-');
            let number = part.strip_prefix(['-', '+']).unwrap_or(part).chars().all(|c| c.is_ascii_digit() || c == '.' || c == '%');
            prop_assert!(!risky || number, "{t:?} -> {cell:?}");
        }
    }
}
