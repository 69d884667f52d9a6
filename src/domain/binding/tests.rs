//! Table-driven tests for binding classes.

use super::*;

fn cost(s: &str) -> ManaCost {
    match ManaCost::parse(s) {
        Ok(c) => c,
        Err(e) => panic!("{e}"),
    }
}

/// A nonland card; `costs` is " // "-separated faces, "-" for a face with no mana cost.
fn card<'a>(name: &'a str, costs: &str) -> CardShape<'a> {
    let face_costs = costs.split(" // ").map(|c| (c != "-").then(|| cost(c))).collect();
    CardShape { name, face_costs, is_split: name.contains(" // "), is_land: false, is_basic_land: false }
}

fn land(name: &str, basic: bool) -> CardShape<'_> {
    CardShape { name, face_costs: vec![None], is_split: false, is_land: true, is_basic_land: basic }
}

#[test]
fn rule_names_round_trip() {
    for rule in BindingRule::ALL {
        assert_eq!(rule.to_string().parse::<BindingRule>(), Ok(rule));
    }
    assert_eq!("Alphabet-Exact".parse(), Ok(BindingRule::AlphabetExact));
    let err = "alfabet".parse::<BindingRule>().map_err(|e| e.to_string());
    assert_eq!(
        err,
        Err("unknown binding rule \"alfabet\": use standard, alphabet, alphabet-generic \
             or alphabet-exact"
            .to_string())
    );
}

#[test]
fn standard_binding_by_cost() {
    use BindingRule::Standard as S;
    // (printed card, declared card, split_combined, binds)
    let table = [
        (card("Doom Blade", "{1}{B}"), card("Demonic Tutor", "{1}{B}"), false, true),
        (card("Hymn", "{2}{B}"), card("Demonic Tutor", "{1}{B}"), false, false),
        (card("Lava Axe", "{2}{R}{R}"), card("Flame Javelin", "{2/R}{2/R}{2/R}"), false, true),
        (card("Ghitu Fire", "{6}"), card("Flame Javelin", "{2/R}{2/R}{2/R}"), false, true),
        (card("Shock", "{3}{R}"), card("Flame Javelin", "{2/R}{2/R}{2/R}"), false, false),
        (card("Opt", "{U}"), card("Gitaxian Probe", "{U/P}"), false, true),
        (card("Shock", "{R}"), card("Gitaxian Probe", "{U/P}"), false, false),
        (card("Shock", "{1}{R}"), card("Fire // Ice", "{1}{R} // {1}{U}"), false, true),
        (card("Opt", "{1}{U}"), card("Fire // Ice", "{1}{R} // {1}{U}"), false, true),
        (card("Izzet", "{2}{U}{R}"), card("Fire // Ice", "{1}{R} // {1}{U}"), false, false),
        (card("Izzet", "{2}{U}{R}"), card("Fire // Ice", "{1}{R} // {1}{U}"), true, true),
        (card("Ornithopter", "{0}"), card("Ancestral Vision", "-"), false, true),
        (card("Opt", "{U}"), card("Ancestral Vision", "-"), false, false),
        (card("Disintegrate", "{X}{R}"), card("Lava Burst", "{X}{R}"), false, true),
        (card("Shock", "{1}{R}"), card("Lava Burst", "{X}{R}"), false, false),
        (card("Shock", "{R}"), card("Lava Burst", "{X}{R}"), false, false),
        // a double-faced card binds by its front face only
        (card("Opt", "{U}"), card("Delver of Secrets", "{U} // -"), false, true),
        (card("Ornithopter", "{0}"), card("Delver of Secrets", "{U} // -"), false, false),
        // lands: nonbasic lands bind together, basic lands never, mana cost ignored
        (land("Strip Mine", false), land("Wasteland", false), false, true),
        (land("Forest", true), land("Wasteland", false), false, false),
        (land("Strip Mine", false), land("Forest", true), false, false),
        // No mana cost counts as {0} (MM.3f): a printed {0} may be declared as a nonbasic land.
        (card("Ornithopter", "{0}"), land("Wasteland", false), false, true),
        (land("Strip Mine", false), card("Ornithopter", "{0}"), false, true),
        (card("Ornithopter", "{0}"), land("Forest", true), false, false),
    ];
    for (printed, declared, combined, want) in table {
        assert_eq!(
            binds(S, &printed, &declared, combined),
            want,
            "{} as {} (combined {combined})",
            printed.name,
            declared.name
        );
    }
}

#[test]
fn alphabet_variants() {
    use BindingRule::*;
    // (printed, declared, [alphabet, alphabet-generic, alphabet-exact])
    let table = [
        (card("Duress", "{B}"), card("Dark Ritual", "{B}"), [true, true, true]),
        (card("Doom Blade", "{1}{B}"), card("Dark Ritual", "{B}"), [true, false, false]),
        (card("Divination", "{2}{U}"), card("Dark Ritual", "{B}"), [true, false, false]),
        (card("Dragon", "{B}{B}"), card("Dark Ritual", "{B}"), [false, true, false]),
        (card("Lightning Bolt", "{R}"), card("Dark Ritual", "{B}"), [false, false, false]),
        (card("armillary sphere", "{2}"), card("Æther Vial", "{1}"), [true, false, false]),
        (card("Aether Spellbomb", "{1}"), card("Æther Vial", "{1}"), [true, true, true]),
        (card("Aura Shards", "{1}{G}{W}"), card("\"Ach! Hans, Run!\"", "{2}{R}{R}{G}{G}"), [false, false, false]),
        (card("Atogatog", "{1}{G}{W}{B}{B}"), card("\"Ach! Hans, Run!\"", "{2}{R}{R}{G}{G}"), [true, false, false]),
        (card("Aura Shards", "{2}{G}{W}"), card("\"Ach! Hans, Run!\"", "{2}{R}{R}{G}{G}"), [false, true, false]),
        (card("Armadillo", "{R}{R}{G}{G}"), card("\"Ach! Hans, Run!\"", "{2}{R}{R}{G}{G}"), [true, false, false]),
        (card("Éowyn", "{W}"), card("Elite Vanguard", "{W}"), [true, true, true]),
        // hybrids pick a half: {2/R} reads as 2 generic or 1 coloured
        (card("Fireball", "{X}{R}{R}"), card("Flame Javelin", "{2/R}{2/R}{2/R}"), [true, true, false]),
        (card("Fling", "{4}{R}"), card("Flame Javelin", "{2/R}{2/R}{2/R}"), [true, true, true]),
        // every land binds with every land, basic or not
        (land("Forest", true), land("Wasteland", false), [true, true, true]),
        (card("Wildfire", "{0}"), land("Wasteland", false), [false, false, false]),
    ];
    for (printed, declared, wants) in table {
        for (rule, want) in [Alphabet, AlphabetGeneric, AlphabetExact].into_iter().zip(wants) {
            assert_eq!(binds(rule, &printed, &declared, false), want, "{rule}: {} as {}", printed.name, declared.name);
        }
    }
}

#[test]
fn key_texts() {
    use BindingRule::*;
    let table: [(BindingRule, CardShape<'_>, bool, &[&str]); 7] = [
        (Standard, card("Demonic Tutor", "{1}{B}"), false, &["S:{1}{B}"]),
        (Standard, card("Fire // Ice", "{1}{R} // {1}{U}"), true, &["S:{1}{R}", "S:{1}{U}", "S:{2}{U}{R}"]),
        (Standard, card("Ancestral Vision", "-"), false, &["S:{0}"]),
        (Standard, land("Forest", true), false, &[]),
        (Alphabet, card("Dark Ritual", "{B}"), false, &["A:d:1"]),
        (AlphabetGeneric, card("Flame Javelin", "{2/R}{2/R}{2/R}"), false, &["AG:f:0", "AG:f:2", "AG:f:4", "AG:f:6"]),
        (AlphabetExact, card("Doom Blade", "{1}{B}"), false, &["AE:d:1:1"]),
    ];
    for (rule, shape, combined, want) in table {
        assert_eq!(binding_keys(rule, &shape, combined), want, "{rule} {}", shape.name);
    }
}

#[test]
fn initials_are_folded() {
    let table = [
        ("Dark Ritual", 'd'),
        ("Æther Vial", 'a'),
        ("Éowyn, Lady of Rohan", 'e'),
        ("\"Ach! Hans, Run!\"", 'a'),
        ("_____", '#'),
        ("+2 Mace", 'm'),
        ("1996 World Champion", 'w'),
        ("cogwork Librarian", 'c'),
    ];
    for (name, want) in table {
        assert_eq!(initial(name), want, "{name}");
    }
}

#[test]
fn printed_keys_typed_by_a_judge() {
    use BindingRule::*;
    let b1 = cost("B1");
    type Row<'a> = (BindingRule, Option<char>, bool, Result<Vec<&'a str>, &'a str>);
    let table: [Row<'_>; 6] = [
        (Standard, None, false, Ok(vec!["S:{1}{B}"])),
        (Standard, None, true, Ok(vec!["L", "S:{0}"])),
        (Alphabet, Some('D'), false, Ok(vec!["A:d:1"])),
        (AlphabetExact, Some('É'), false, Ok(vec!["AE:e:1:1"])),
        (Alphabet, None, false, Err("alphabet binding compares first letters: pass --letter")),
        (AlphabetGeneric, Some('?'), false, Err("\"?\" is not a letter: pass --letter")),
    ];
    for (rule, letter, is_land, want) in table {
        let got = keys_for_printed(rule, &b1, letter, is_land).map_err(|e| e.to_string());
        match (got, want) {
            (Ok(keys), Ok(want)) => assert_eq!(keys, want, "{rule} {letter:?}"),
            (Err(e), Err(want)) => assert!(e.starts_with(want), "{e}"),
            (got, want) => panic!("{rule} {letter:?}: got {got:?}, want {want:?}"),
        }
    }
}

#[test]
fn printed_and_declared_keys_agree() {
    // A judge typing "B1" and the real Doom Blade land in the same class.
    let typed = keys_for_printed(BindingRule::Standard, &cost("B1"), None, false);
    let real = binding_keys(BindingRule::Standard, &card("Doom Blade", "{1}{B}"), false);
    assert_eq!(typed, Ok(real));
}

#[test]
fn snow_counts_as_one_generic_under_the_generic_rules() {
    use BindingRule::*;
    let snow = card("Rime Transfusion", "{1}{B}{S}");
    assert_eq!(binding_keys(AlphabetGeneric, &snow, false), vec!["AG:r:2"]);
    assert_eq!(binding_keys(AlphabetExact, &snow, false), vec!["AE:r:2:1"]);
    assert_eq!(binding_keys(Alphabet, &snow, false), vec!["A:r:1"]);
}

#[test]
fn a_typed_letter_must_be_a_letter() {
    use BindingRule::*;
    assert!(keys_for_printed(Alphabet, &cost("B"), Some('É'), false).is_ok_and(|k| k == vec!["A:e:1"]));
    assert!(keys_for_printed(Alphabet, &cost("B"), Some('2'), false).is_err());
}
