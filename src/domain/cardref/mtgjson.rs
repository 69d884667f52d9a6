//! MTGJSON v5 files: AtomicCards, AllPrintings and single set files.
//!
//! Every card object (one per face and printing) is grouped by its `name` (split cards share
//! `Fire // Ice`, double-faced cards share `Front // Back`), then the group becomes one card.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Deserializer};

use super::{
    CardRecord, CardText, DropReason, ExcludedKind, FaceRecord, Format, Gathered, ImportError, PORTAL_SETS, Ruling,
    cost_of, mentions_ante, whole_text,
};

/// Set codes of joke sets, used when the file does not carry set types (AtomicCards).
const FUNNY_SETS: [&str; 13] =
    ["UGL", "UNH", "UST", "UND", "UNF", "UNK", "PCEL", "HHO", "PUST", "PUNH", "CMB1", "CMB2", "PTG"];

/// Set codes of digital-only sets, used when the file does not say `isOnlineOnly`.
const DIGITAL_SETS: [&str; 30] = [
    "ME1", "ME2", "ME3", "ME4", "MED", "VMA", "TPR", "PZ1", "PZ2", "J21", "HBG", "AJMP", "ANA", "ANB", "OANA", "XANA",
    "PANA", "EA1", "Y22", "Y23", "Y24", "Y25", "YMID", "YNEO", "YSNC", "YDMU", "YBRO", "YONE", "YMOM", "YWOE",
];

fn null_default<'de, D: Deserializer<'de>, T: Default + Deserialize<'de>>(d: D) -> Result<T, D::Error> {
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// The fields read from one MTGJSON card object (the rest is skipped).
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct MjCard {
    #[serde(deserialize_with = "null_default")]
    name: String,
    face_name: Option<String>,
    side: Option<String>,
    #[serde(deserialize_with = "null_default")]
    layout: String,
    mana_cost: Option<String>,
    #[serde(rename = "type", deserialize_with = "null_default")]
    type_line: String,
    text: Option<String>,
    power: Option<String>,
    toughness: Option<String>,
    loyalty: Option<String>,
    #[serde(deserialize_with = "null_default")]
    rulings: Vec<Ruling>,
    #[serde(deserialize_with = "null_default")]
    identifiers: Identifiers,
    is_funny: Option<bool>,
    is_online_only: Option<bool>,
    is_rebalanced: Option<bool>,
    #[serde(deserialize_with = "null_default")]
    availability: Vec<String>,
    #[serde(deserialize_with = "null_default")]
    printings: Vec<String>,
    set_code: Option<String>,
    legalities: Option<HashMap<String, String>>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Identifiers {
    scryfall_oracle_id: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct MjSet {
    #[serde(deserialize_with = "null_default")]
    code: String,
    #[serde(rename = "type", deserialize_with = "null_default")]
    set_type: String,
    is_online_only: Option<bool>,
    #[serde(deserialize_with = "null_default")]
    cards: Vec<MjCard>,
}

#[derive(Deserialize)]
struct Wrapped<T> {
    data: T,
}

/// What a set says about its printings.
#[derive(Clone, Copy, Default)]
struct SetFacts {
    funny: bool,
    online: bool,
}

/// One card group being gathered over its face objects and printings.
#[derive(Default)]
struct Group {
    layout: String,
    faces: BTreeMap<String, FaceRecord>,
    codes: BTreeSet<String>,
    seen_codes: BTreeSet<String>,
    any_funny: bool,
    has_legalities: bool,
    future_only: bool,
    vintage_legal: bool,
    ante: bool,
    rebalanced: bool,
    all_offline: bool,
    /// Costs of one face that differ between objects of the group (empty when they agree).
    cost_conflict: Vec<Option<String>>,
    rulings: Vec<Ruling>,
    oracle_id: Option<String>,
}

/// Decodes the file and gathers its cards.
pub(super) fn parse(
    bytes: &[u8],
    format: Format,
    out: &mut Gathered,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(), ImportError> {
    let label = format.label();
    let sets: Vec<MjSet> = match format {
        Format::MtgjsonAtomic => {
            let file: Wrapped<HashMap<String, Vec<MjCard>>> = decode(bytes, label)?;
            let cards = file.data.into_values().flatten().collect();
            vec![MjSet { cards, ..MjSet::default() }]
        }
        Format::MtgjsonAllPrintings => {
            let file: Wrapped<HashMap<String, MjSet>> = decode(bytes, label)?;
            file.data.into_values().collect()
        }
        _ if bare_set(bytes) => vec![decode::<MjSet>(bytes, label)?],
        _ => vec![decode::<Wrapped<MjSet>>(bytes, label)?.data],
    };
    gather(sets, out, progress);
    Ok(())
}

/// A bare set file starts with a set field rather than `meta` or `data`.
fn bare_set(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(256)]);
    let first_key = text.trim_start_matches(['\u{feff}', '{', ' ', '\n', '\r', '\t']);
    !(first_key.starts_with("\"meta\"") || first_key.starts_with("\"data\""))
}

fn decode<'de, T: Deserialize<'de>>(bytes: &'de [u8], format: &'static str) -> Result<T, ImportError> {
    let bytes = super::detect::strip_bom(bytes);
    serde_json::from_slice(bytes).map_err(|e| json_error(&e, format))
}

/// Turns a JSON error into an import error naming the place.
pub(super) fn json_error(e: &serde_json::Error, format: &'static str) -> ImportError {
    let (line, column) = (e.line(), e.column());
    if e.is_eof() {
        return ImportError::JsonTruncated { format, line, column };
    }
    let full = e.to_string();
    let detail = full.split(" at line ").next().unwrap_or(&full).to_string();
    ImportError::JsonInvalid { format, line, column, detail }
}

fn gather(sets: Vec<MjSet>, out: &mut Gathered, progress: &mut dyn FnMut(usize, usize)) {
    let facts: HashMap<String, SetFacts> =
        sets.iter().filter(|s| !s.code.is_empty()).map(|s| (s.code.clone(), set_facts(s))).collect();
    let total = sets.iter().map(|s| s.cards.len()).sum();
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    let mut done = 0usize;
    for set in sets {
        for card in set.cards {
            add_object(&mut groups, card, &set.code);
            done += 1;
            if done.is_multiple_of(4096) {
                progress(done, total);
            }
        }
    }
    for (name, group) in groups {
        finish(&name, group, &facts, out);
    }
    progress(done, total);
}

fn set_facts(set: &MjSet) -> SetFacts {
    SetFacts { funny: set.set_type == "funny", online: set.is_online_only == Some(true) }
}

fn add_object(groups: &mut BTreeMap<String, Group>, card: MjCard, set_code: &str) {
    let g = groups.entry(card.name.clone()).or_insert_with(|| Group {
        all_offline: true,
        future_only: true,
        ..Group::default()
    });
    g.layout.clone_from(&card.layout);
    let code = card.set_code.clone().unwrap_or_else(|| set_code.to_string());
    if !code.is_empty() {
        g.seen_codes.insert(code.clone());
        g.codes.insert(code);
    }
    g.codes.extend(card.printings.iter().cloned());
    g.any_funny |= card.is_funny == Some(true);
    g.has_legalities |= card.legalities.is_some();
    let legal = card.legalities.unwrap_or_default();
    let vintage = legal.get("vintage");
    g.vintage_legal |= vintage.is_some_and(|v| !v.eq_ignore_ascii_case("not_legal"));
    g.future_only &= legal.keys().all(|k| k == "future") && !legal.is_empty();
    g.ante |= card.text.as_deref().is_some_and(mentions_ante);
    g.rebalanced |= card.is_rebalanced == Some(true);
    let paper = card.availability.iter().any(|a| a == "paper");
    g.all_offline &= !card.availability.is_empty() && !paper || card.is_online_only == Some(true);
    if g.rulings.is_empty() {
        g.rulings = card.rulings;
    }
    if g.oracle_id.is_none() {
        g.oracle_id = card.identifiers.scryfall_oracle_id;
    }
    let side = card.side.unwrap_or_default();
    let cost = cost_of(card.mana_cost.as_deref());
    if let Some(face) = g.faces.get(&side) {
        if face.mana_cost != cost {
            g.cost_conflict.extend([face.mana_cost.clone(), cost]);
        }
        return;
    }
    g.faces.insert(
        side,
        FaceRecord {
            name: card.face_name.unwrap_or(card.name),
            mana_cost: cost,
            type_line: card.type_line,
            text: CardText {
                text: Some(card.text.unwrap_or_default()),
                power: card.power,
                toughness: card.toughness,
                loyalty: card.loyalty,
            },
        },
    );
}

/// Turns a group into a card (or a drop).
fn finish(name: &str, g: Group, facts: &HashMap<String, SetFacts>, out: &mut Gathered) {
    if !g.cost_conflict.is_empty() {
        out.conflict(name, g.cost_conflict);
        return;
    }
    let kinds = kinds_of(&g, facts);
    if g.future_only && name.split(" // ").all(quoted) {
        out.drop(name, DropReason::Placeholder);
        return;
    }
    let front_missing = !g.faces.contains_key("a") && !g.faces.contains_key("");
    if g.layout == "meld" && front_missing {
        let back = g.faces.values().next().map_or(name, |f| f.name.as_str());
        out.drop(back, DropReason::MeldBack);
        return;
    }
    let sets: Vec<String> = g.codes.iter().cloned().collect();
    let faces: Vec<FaceRecord> = g.faces.into_values().collect();
    let joined_types = || join(faces.iter().map(|f| f.type_line.as_str()));
    let split_like = matches!(g.layout.as_str(), "split" | "aftermath");
    let text = match faces.len() {
        0 | 1 => faces.first().map(|f| f.text.clone()).unwrap_or_default(),
        _ if g.layout == "meld" => faces.first().map(|f| f.text.clone()).unwrap_or_default(),
        _ => whole_text(&faces),
    };
    let (card_name, mana_cost, type_line, faces) = if faces.len() <= 1 {
        let face = faces.into_iter().next();
        let cost = face.as_ref().and_then(|f| f.mana_cost.clone());
        let type_line = face.map(|f| f.type_line).unwrap_or_default();
        (name.to_string(), cost, type_line, Vec::new())
    } else if split_like {
        let costs = faces.iter().map(|f| f.mana_cost.as_deref().unwrap_or(""));
        let cost = faces.iter().any(|f| f.mana_cost.is_some()).then(|| join(costs));
        (name.to_string(), cost, joined_types(), faces)
    } else if g.layout == "meld" {
        let front = faces.first().cloned();
        let front = front.map(|f| (f.name, f.mana_cost, f.type_line));
        let (n, c, t) = front.unwrap_or_default();
        (n, c, t, Vec::new())
    } else {
        let types = joined_types();
        let front = faces.first().map(|f| (f.name.clone(), f.mana_cost.clone()));
        let (n, c) = front.unwrap_or_default();
        (n, c, types, faces)
    };
    let (rulings, oracle_id) = (g.rulings, g.oracle_id);
    let layout = g.layout;
    out.add(CardRecord { name: card_name, mana_cost, type_line, layout, faces, kinds, sets, text, rulings, oracle_id });
}

/// `"Thief of the Coast"`: a name wholly in quotes.
fn quoted(name: &str) -> bool {
    name.len() > 2 && name.starts_with('"') && name.ends_with('"')
}

fn join<'a>(parts: impl Iterator<Item = &'a str>) -> String {
    parts.collect::<Vec<_>>().join(" // ")
}

fn kinds_of(g: &Group, facts: &HashMap<String, SetFacts>) -> Vec<ExcludedKind> {
    let known = |c: &String| facts.get(c.as_str());
    let funny = |c: &String| known(c).map_or(FUNNY_SETS.contains(&c.as_str()), |f| f.funny);
    let online = |c: &String| known(c).map_or(DIGITAL_SETS.contains(&c.as_str()), |f| f.online);
    let all = |p: &dyn Fn(&String) -> bool| !g.codes.is_empty() && g.codes.iter().all(p);
    let any_funny_set = g.codes.iter().any(funny);
    let funny_sets = if g.has_legalities { any_funny_set } else { all(&funny) };
    let joke = !g.vintage_legal && (g.any_funny || funny_sets);
    let offline_elsewhere = g.codes.iter().all(|c| g.seen_codes.contains(c) || online(c));
    let digital = g.rebalanced || all(&online) || g.all_offline && offline_elsewhere;
    let portal = all(&|c: &String| PORTAL_SETS.contains(&c.as_str()));
    let table = [
        (joke, ExcludedKind::Joke),
        (digital, ExcludedKind::Digital),
        (g.ante, ExcludedKind::Ante),
        (portal, ExcludedKind::Portal),
    ];
    table.iter().filter(|(on, _)| *on).map(|(_, k)| *k).collect()
}

#[cfg(test)]
mod tests {
    use super::super::{CardRecord, parse, parse_detailed};
    use super::*;
    use ExcludedKind::*;

    const APC_BARE: &str = r#"{"baseSetSize":2,"code":"APC","type":"expansion","cards":[
      {"name":"Fire // Ice","faceName":"Fire","side":"a","layout":"split","manaCost":"{1}{R}",
       "type":"Instant","text":"Fire deals 2 damage.","availability":["paper"],"printings":["APC","MH2"],
       "legalities":{"vintage":"Legal"}},
      {"name":"Fire // Ice","faceName":"Ice","side":"b","layout":"split","manaCost":"{1}{U}",
       "type":"Instant","text":"Tap target permanent.","availability":["paper"],"printings":["APC","MH2"]},
      {"name":"Goblin Trenches","layout":"normal","manaCost":"{1}{R}{W}","type":"Enchantment",
       "printings":["APC"],"legalities":{"vintage":"Legal"}},
      {"name":"\"Thief of the Coast\"","layout":"normal","manaCost":"{1}{U}","type":"Creature",
       "printings":["APC"],"legalities":{"future":"Legal"}},
      {"name":"Consider","layout":"normal","manaCost":"{U}","type":"Instant",
       "printings":["APC"],"legalities":{"future":"Legal"}}],"tokens":[{"name":"Goblin"}]}"#;

    const UNH_WRAPPED: &str = r#"{"meta":{"version":"5"},"data":{"code":"UNH","type":"funny","cards":[
      {"name":"Ach! Hans, Run!","layout":"normal","manaCost":"{2}{R}{R}{G}{G}","type":"Enchantment",
       "printings":["UNH"],"legalities":{}},
      {"name":"Who // What","faceName":"Who","side":"a","layout":"split","manaCost":"{X}{W}",
       "type":"Instant","printings":["UND","UNH"]},
      {"name":"Who // What","faceName":"What","side":"b","layout":"split","manaCost":"{2}{R}",
       "type":"Instant","printings":["UND","UNH"]},
      {"name":"Booster Tutor","layout":"normal","manaCost":"{B}","type":"Instant",
       "printings":["PAL04","UNH"],"legalities":{}},
      {"name":"Plains","layout":"normal","type":"Basic Land — Plains","printings":["LEA","UNH"],
       "legalities":{"vintage":"Legal"}}]}}"#;

    const ATOMIC: &str = r#"{"meta":{},"data":{
      "Delver of Secrets // Insectile Aberration":[
        {"name":"Delver of Secrets // Insectile Aberration","faceName":"Delver of Secrets","side":"a",
         "layout":"transform","manaCost":"{U}","type":"Creature — Human Wizard","printings":["ISD"]},
        {"name":"Delver of Secrets // Insectile Aberration","faceName":"Insectile Aberration",
         "side":"b","layout":"transform","type":"Creature — Human Insect","printings":["ISD"]}],
      "Bruna, the Fading Light // Brisela, Voice of Nightmares":[
        {"name":"Bruna, the Fading Light // Brisela, Voice of Nightmares","faceName":"Bruna, the Fading Light",
         "side":"a","layout":"meld","manaCost":"{5}{W}{W}","type":"Legendary Creature — Angel Horror","printings":["EMN"]},
        {"name":"Bruna, the Fading Light // Brisela, Voice of Nightmares","faceName":"Brisela, Voice of Nightmares",
         "side":"b","layout":"meld","type":"Legendary Creature — Eldrazi Angel","printings":["EMN"]}],
      "Brisela, Voice of Nightmares":[
        {"name":"Brisela, Voice of Nightmares","faceName":"Brisela, Voice of Nightmares","side":"b",
         "layout":"meld","type":"Legendary Creature — Eldrazi Angel","printings":["EMN"]}],
      "Jeweled Bird":[{"name":"Jeweled Bird","layout":"normal","manaCost":"{1}","type":"Artifact",
        "text":"Remove Jeweled Bird from your deck before playing if you're not playing for ante.",
        "printings":["ATQ"],"legalities":{"vintage":"Banned"}}],
      "A-Akki Ronin":[{"name":"A-Akki Ronin","layout":"normal","manaCost":"{R}","type":"Creature",
        "isRebalanced":true,"printings":["YNEO"]}],
      "Alaborn Zealot":[{"name":"Alaborn Zealot","layout":"normal","manaCost":"{W}","type":"Creature",
        "printings":["P02"]}],
      "Alaborn Musketeer":[{"name":"Alaborn Musketeer","layout":"normal","manaCost":"{1}{W}",
        "type":"Creature","printings":["ME4","P02"]}],
      "Power Play":[{"name":"Power Play","layout":"normal","type":"Conspiracy","printings":["CNS"]}],
      "Dark Depths":[{"name":"Dark Depths","layout":"normal","manaCost":null,"type":"Legendary Snow Land",
        "printings":["CSP"]}]}}"#;

    const ALL_PRINTINGS: &str = r#"{"meta":{},"data":{
      "UST":{"code":"UST","type":"funny","cards":[
        {"name":"Shock","layout":"normal","manaCost":"{R}","type":"Instant","setCode":"UST",
         "printings":["UST","M19"]},
        {"name":"Steamflogger Boss","layout":"normal","manaCost":"{3}{R}","type":"Creature",
         "setCode":"UST","printings":["UST"]}]},
      "M19":{"code":"M19","type":"core","cards":[
        {"name":"Shock","layout":"normal","manaCost":"{R}","type":"Instant","setCode":"M19",
         "printings":["UST","M19"]}]},
      "YMID":{"code":"YMID","type":"alchemy","isOnlineOnly":true,"cards":[
        {"name":"Key to the Archive","layout":"normal","manaCost":"{5}","type":"Artifact",
         "setCode":"YMID","printings":["YMID"],"availability":["arena"]}]}}}"#;

    fn cards(text: &str, want: Format) -> Vec<CardRecord> {
        let got = parse(text.as_bytes(), &mut |_, _| {});
        assert_eq!(got.as_ref().map(|(f, _)| *f), Ok(want), "{got:?}");
        got.map(|(_, c)| c).unwrap_or_default()
    }

    fn get<'a>(cards: &'a [CardRecord], name: &str) -> &'a CardRecord {
        let found = cards.iter().find(|c| c.name == name);
        found.unwrap_or_else(|| panic!("no {name} in {cards:?}"))
    }

    #[test]
    fn bare_set_joins_split_faces_and_skips_tokens() {
        let cards = cards(APC_BARE, Format::MtgjsonSet);
        let names: Vec<&str> = cards.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, vec!["Consider", "Fire // Ice", "Goblin Trenches"]);
        let dropped = parse_detailed(APC_BARE.as_bytes(), &mut |_, _| {}).map(|o| o.dropped);
        let placeholder = ("\"Thief of the Coast\"".to_string(), DropReason::Placeholder);
        assert_eq!(dropped, Ok(vec![placeholder]));
        let fire = get(&cards, "Fire // Ice");
        assert_eq!(fire.mana_cost.as_deref(), Some("{1}{R} // {1}{U}"));
        assert_eq!(fire.type_line, "Instant // Instant");
        let faces: Vec<&str> = fire.faces.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(faces, vec!["Fire", "Ice"]);
        assert_eq!(fire.sets, vec!["APC", "MH2"]);
        assert!(fire.kinds.is_empty());
    }

    #[test]
    fn wrapped_funny_set_marks_jokes_but_not_reprints() {
        let cards = cards(UNH_WRAPPED, Format::MtgjsonSet);
        assert_eq!(get(&cards, "Ach! Hans, Run!").kinds, vec![Joke]);
        assert_eq!(get(&cards, "Who // What").kinds, vec![Joke]);
        assert_eq!(get(&cards, "Booster Tutor").kinds, vec![Joke]);
        assert!(get(&cards, "Plains").kinds.is_empty());
        assert_eq!(get(&cards, "Plains").mana_cost, None);
    }

    #[test]
    fn atomic_cards_name_by_front_and_classify() {
        let cards = cards(ATOMIC, Format::MtgjsonAtomic);
        let delver = get(&cards, "Delver of Secrets");
        assert_eq!(delver.mana_cost.as_deref(), Some("{U}"));
        assert_eq!(delver.type_line, "Creature — Human Wizard // Creature — Human Insect");
        assert_eq!(delver.faces.len(), 2);
        let bruna = get(&cards, "Bruna, the Fading Light");
        assert_eq!((bruna.mana_cost.as_deref(), bruna.faces.len()), (Some("{5}{W}{W}"), 0));
        assert_eq!(get(&cards, "Jeweled Bird").kinds, vec![Ante]);
        assert_eq!(get(&cards, "A-Akki Ronin").kinds, vec![Digital]);
        assert_eq!(get(&cards, "Alaborn Zealot").kinds, vec![Portal]);
        assert!(get(&cards, "Alaborn Musketeer").kinds.is_empty());
        assert_eq!(get(&cards, "Dark Depths").mana_cost, None);
        let outcome = parse_detailed(ATOMIC.as_bytes(), &mut |_, _| {});
        let dropped = outcome.map(|o| o.dropped).unwrap_or_default();
        assert_eq!(
            dropped,
            vec![
                ("Brisela, Voice of Nightmares".to_string(), DropReason::MeldBack),
                ("Power Play".to_string(), DropReason::Conspiracy)
            ]
        );
    }

    #[test]
    fn all_printings_merge_printings_by_name() {
        let mut calls = Vec::new();
        let got = parse(ALL_PRINTINGS.as_bytes(), &mut |d, t| calls.push((d, t)));
        assert_eq!(calls.last(), Some(&(4, 4)));
        let (format, cards) = got.unwrap_or((Format::Csv, vec![]));
        assert_eq!(format, Format::MtgjsonAllPrintings);
        assert_eq!(cards.len(), 3);
        let shock = get(&cards, "Shock");
        assert_eq!((shock.sets.clone(), shock.kinds.clone()), (vec!["M19".into(), "UST".into()], vec![]));
        assert_eq!(get(&cards, "Steamflogger Boss").kinds, vec![Joke]);
        assert_eq!(get(&cards, "Key to the Archive").kinds, vec![Digital]);
    }

    #[test]
    fn truncated_or_misshaped_json_is_an_error() {
        let cut = &ATOMIC[..ATOMIC.len() / 2];
        let got = parse(cut.as_bytes(), &mut |_, _| {});
        assert!(matches!(got, Err(ImportError::JsonTruncated { .. })), "{got:?}");
        let msg = got.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(msg.contains("MTGJSON AtomicCards file ends early"), "{msg}");
        let bad = r#"{"data":{"Shock":[{"name":42}]}}"#;
        let got = parse(bad.as_bytes(), &mut |_, _| {});
        assert!(
            matches!(&got, Err(ImportError::JsonInvalid { line: 1, detail, .. }) if detail.contains("invalid type")),
            "{got:?}"
        );
        let empty = r#"{"data":{"code":"X","cards":[]}}"#;
        assert!(matches!(parse(empty.as_bytes(), &mut |_, _| {}), Err(ImportError::NoCards { .. })));
    }

    #[test]
    fn texts_pt_loyalty_rulings_and_oracle_ids_are_kept() {
        let set = r#"{"code":"T","cards":[
          {"name":"Bear","layout":"normal","manaCost":"{1}{G}","type":"Creature","power":"2","toughness":"2",
           "rulings":[{"date":"2020-01-01","text":"R."}],"identifiers":{"scryfallOracleId":"o-1"}},
          {"name":"Walker","layout":"normal","manaCost":"{3}","type":"Planeswalker","loyalty":"4","text":"+1: Win."},
          {"name":"Up // Down","faceName":"Up","side":"a","layout":"split","manaCost":"{U}","type":"Instant","text":"A."},
          {"name":"Up // Down","faceName":"Down","side":"b","layout":"split","manaCost":"{B}","type":"Instant","text":"B."}]}"#;
        let cards = cards(set, Format::MtgjsonSet);
        let bear = get(&cards, "Bear");
        assert_eq!((bear.text.power.as_deref(), bear.text.toughness.as_deref()), (Some("2"), Some("2")));
        assert_eq!(bear.text.text.as_deref(), Some(""), "a vanilla creature has an empty text, not an unknown one");
        assert_eq!(bear.rulings, vec![Ruling { date: "2020-01-01".into(), text: "R.".into() }]);
        assert_eq!(bear.oracle_id.as_deref(), Some("o-1"));
        assert_eq!(get(&cards, "Walker").text.loyalty.as_deref(), Some("4"));
        let split = get(&cards, "Up // Down");
        assert_eq!(split.text.text.as_deref(), Some("A.\n//\nB."));
        assert_eq!(split.faces[1].text.text.as_deref(), Some("B."));
    }
}
