//! Table-driven tests for declaration checks.

use super::*;

fn cost(s: &str) -> ManaCost {
    match ManaCost::parse(s) {
        Ok(c) => c,
        Err(e) => panic!("{e}"),
    }
}

/// Faces separated by " // ", "-" for no mana cost.
fn faces(costs: &str) -> Vec<Option<ManaCost>> {
    costs.split(" // ").map(|c| (c != "-").then(|| cost(c))).collect()
}

fn printed(costs: &str) -> CardShape<'static> {
    CardShape {
        name: "Printed Card",
        face_costs: faces(costs),
        is_split: costs.contains(" // "),
        is_land: false,
        is_basic_land: false,
    }
}

fn declared(name: &str, costs: &str) -> Declared {
    Declared {
        name: name.to_string(),
        face_costs: faces(costs),
        is_split: name.contains(" // "),
        is_land: false,
        is_basic_land: false,
        banned_group: None,
        excluded_kind: None,
    }
}

fn land(name: &str, basic: bool) -> Declared {
    Declared { is_land: true, is_basic_land: basic, ..declared(name, "-") }
}

fn message(r: Result<(), Refusal>) -> String {
    match r {
        Ok(()) => "ok".to_string(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn standard_declarations() {
    let banned = Declared { banned_group: Some("ruleset ban list".into()), ..declared("Black Lotus", "{0}") };
    let ante = Declared { excluded_kind: Some("ante".into()), ..declared("Jeweled Bird", "{1}") };
    let banned_and_used = Declared { banned_group: Some("ruleset ban list".into()), ..declared("Dark Ritual", "{B}") };
    let earlier = PriorDeclaration { by: "Ana".into(), at: "14:05".into() };
    let strip_mine = CardShape { is_land: true, ..printed("-") };
    // (printed cost, declared card, earlier use, split_combined, expected message)
    let table = [
        ("{1}{B}", declared("Demonic Tutor", "{1}{B}"), None, false, "ok"),
        ("B2", declared("Demonic Tutor", "{1}{B}"), None, false, "MM.3: Demonic Tutor costs {1}{B}, not {2}{B}"),
        (
            "{1}{B}",
            declared("Utopia", "-"),
            None,
            false,
            "MM.4e: \"Utopia\" is the face-down land, never a card name: declare a real card",
        ),
        (
            "{1}{B}",
            declared(" utopia ", "-"),
            None,
            false,
            "MM.4e: \"Utopia\" is the face-down land, never a card name: declare a real card",
        ),
        ("{1}{B}", declared("  ", "{1}{B}"), None, false, "no card name given: declare a real card"),
        (
            "{B}",
            declared("Dark Ritual", "{B}"),
            Some(&earlier),
            false,
            "MM.3e: a template is declared once per game: Dark Ritual was already declared in this game by Ana at 14:05",
        ),
        ("{0}", banned, None, false, "TR.bans: Black Lotus is banned (ruleset ban list): declare another card"),
        (
            "1",
            ante,
            None,
            false,
            "TR.kinds: Jeweled Bird is excluded from this event (ante cards): declare another card",
        ),
        // order: a ban is reported before an earlier use
        (
            "{B}",
            banned_and_used,
            Some(&earlier),
            false,
            "TR.bans: Dark Ritual is banned (ruleset ban list): declare another card",
        ),
        // order: the cost is reported before the earlier use
        ("{R}", declared("Dark Ritual", "{B}"), Some(&earlier), false, "MM.3: Dark Ritual costs {B}, not {R}"),
        ("RRR", declared("Flame Javelin", "{2/R}{2/R}{2/R}"), None, false, "ok"),
        ("U", declared("Gitaxian Probe", "{U/P}"), None, false, "ok"),
        ("0", declared("Ancestral Vision", "-"), None, false, "ok"),
        ("U", declared("Ancestral Vision", "-"), None, false, "MM.3: Ancestral Vision costs {0}, not {U}"),
        ("1R", declared("Fire // Ice", "{1}{R} // {1}{U}"), None, false, "ok"),
        ("1U", declared("Fire // Ice", "{1}{R} // {1}{U}"), None, false, "ok"),
        (
            "2UR",
            declared("Fire // Ice", "{1}{R} // {1}{U}"),
            None,
            false,
            "MM.3: Fire // Ice costs {1}{R} // {1}{U}, not {2}{U}{R}",
        ),
        ("2UR", declared("Fire // Ice", "{1}{R} // {1}{U}"), None, true, "ok"),
        ("XR", declared("Disintegrate", "{X}{R}"), None, false, "ok"),
        ("1R", declared("Disintegrate", "{X}{R}"), None, false, "MM.3: Disintegrate costs {X}{R}, not {1}{R}"),
        (
            "1B",
            land("Wasteland", false),
            None,
            false,
            "BV.standard: Wasteland (land) does not bind with this card (cost {1}{B}) under standard binding",
        ),
        (
            "1B",
            land("Forest", true),
            None,
            false,
            "BV.standard: Forest is a basic land and binds with no card: play the card face down as Utopia",
        ),
    ];
    for (cost_text, decl, prior, combined, want) in table {
        let got = message(check(BindingRule::Standard, &printed(cost_text), &decl, prior, combined));
        assert_eq!(got, want, "{cost_text} as {}", decl.name);
    }
    assert_eq!(message(check(BindingRule::Standard, &strip_mine, &land("Wasteland", false), None, false)), "ok");
}

#[test]
fn alphabet_declarations() {
    let duress = CardShape { name: "Duress", ..printed("{B}") };
    let table = [
        (BindingRule::Alphabet, declared("Doom Blade", "{1}{B}"), "ok"),
        (
            BindingRule::Alphabet,
            declared("Lightning Bolt", "{R}"),
            "BV.alphabet: Lightning Bolt (initial L, 1 coloured mana) does not bind with this card (initial D, 1 coloured mana) under alphabet binding",
        ),
        (
            BindingRule::AlphabetGeneric,
            declared("Doom Blade", "{1}{B}"),
            "BV.alphabet-generic: Doom Blade (initial D, generic 1) does not bind with this card (initial D, generic 0) under alphabet-generic binding",
        ),
        (BindingRule::AlphabetExact, declared("Dark Ritual", "{B}"), "ok"),
        (
            BindingRule::AlphabetExact,
            declared("Dismember", "{1}{B/P}{B/P}"),
            "BV.alphabet-exact: Dismember (initial D, generic 1, 2 coloured mana) does not bind with this card (initial D, generic 0, 1 coloured mana) under alphabet-exact binding",
        ),
        (
            BindingRule::Alphabet,
            land("Forest", true),
            "BV.alphabet: Forest (land) does not bind with this card (initial D, 1 coloured mana) under alphabet binding",
        ),
    ];
    for (rule, decl, want) in table {
        assert_eq!(message(check(rule, &duress, &decl, None, false)), want, "{rule} {}", decl.name);
    }
}

#[test]
fn unknown_names_suggest_the_closest() {
    let with =
        Refusal::UnknownName { name: "Dark Ritaul".into(), closest: vec!["Dark Ritual".into(), "Dark Rift".into()] };
    assert_eq!(with.to_string(), "no card is named \"Dark Ritaul\"; did you mean Dark Ritual, Dark Rift?");
    let without = Refusal::UnknownName { name: "Zzz".into(), closest: vec![] };
    assert_eq!(without.to_string(), "no card is named \"Zzz\": check the spelling");
}

#[test]
fn utopia_names() {
    for (name, want) in [
        ("Utopia", true),
        ("UTOPIA", true),
        ("\"Utopia\"", true),
        ("Utopia Tree", false),
        ("Utopia Sprawl", false),
        ("", false),
    ] {
        assert_eq!(is_utopia(name), want, "{name:?}");
    }
}
