//! Scryfall bulk data (oracle-cards: one object per Oracle card) or a Scryfall list object.
//!
//! Each object carries one printing only, so Joke and Portal are judged from that printing:
//! Joke when its set type is `funny` and the card is not legal in Vintage (Unfinity's
//! tournament-legal cards stay in), Portal when the printing is from a Portal set.

use serde::{Deserialize, Deserializer};

use super::detect::strip_bom;
use super::mtgjson::json_error;
use super::{
    CardRecord, CardText, DropReason, ExcludedKind, FaceRecord, Format, Gathered, ImportError, PORTAL_SETS, cost_of,
    mentions_ante, whole_text,
};

fn null_default<'de, D: Deserializer<'de>, T: Default + Deserialize<'de>>(d: D) -> Result<T, D::Error> {
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Legalities {
    vintage: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Face {
    #[serde(deserialize_with = "null_default")]
    name: String,
    mana_cost: Option<String>,
    #[serde(deserialize_with = "null_default")]
    type_line: String,
    oracle_text: Option<String>,
    power: Option<String>,
    toughness: Option<String>,
    loyalty: Option<String>,
}

impl Face {
    fn text(&self) -> CardText {
        CardText {
            text: Some(self.oracle_text.clone().unwrap_or_default()),
            power: self.power.clone(),
            toughness: self.toughness.clone(),
            loyalty: self.loyalty.clone(),
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Part {
    #[serde(deserialize_with = "null_default")]
    component: String,
    #[serde(deserialize_with = "null_default")]
    name: String,
}

/// The fields read from one Scryfall card object.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Card {
    #[serde(deserialize_with = "null_default")]
    object: String,
    #[serde(deserialize_with = "null_default")]
    name: String,
    #[serde(deserialize_with = "null_default")]
    layout: String,
    mana_cost: Option<String>,
    type_line: Option<String>,
    oracle_text: Option<String>,
    power: Option<String>,
    toughness: Option<String>,
    loyalty: Option<String>,
    oracle_id: Option<String>,
    #[serde(deserialize_with = "null_default")]
    card_faces: Vec<Face>,
    #[serde(deserialize_with = "null_default")]
    set: String,
    #[serde(deserialize_with = "null_default")]
    set_type: String,
    digital: bool,
    #[serde(deserialize_with = "null_default")]
    games: Vec<String>,
    #[serde(deserialize_with = "null_default")]
    legalities: Legalities,
    #[serde(deserialize_with = "null_default")]
    all_parts: Vec<Part>,
}

#[derive(Deserialize)]
struct List {
    data: Vec<Card>,
}

/// Decodes the file and gathers its cards.
pub(super) fn parse(
    bytes: &[u8],
    out: &mut Gathered,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(), ImportError> {
    let bytes = strip_bom(bytes);
    let label = Format::Scryfall.label();
    let is_list = bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    let cards: Vec<Card> =
        if is_list { serde_json::from_slice::<List>(bytes).map(|l| l.data) } else { serde_json::from_slice(bytes) }
            .map_err(|e| json_error(&e, label))?;
    let total = cards.len();
    for (i, card) in cards.into_iter().enumerate() {
        add(card, out);
        if (i + 1).is_multiple_of(4096) {
            progress(i + 1, total);
        }
    }
    progress(total, total);
    Ok(())
}

fn add(card: Card, out: &mut Gathered) {
    if card.object != "card" {
        out.drop(&card.name, DropReason::NotACard);
        return;
    }
    let is_meld_back = card.all_parts.iter().any(|p| p.component == "meld_result" && p.name == card.name);
    if is_meld_back {
        out.drop(&card.name, DropReason::MeldBack);
        return;
    }
    let kinds = kinds_of(&card);
    let split_like = matches!(card.layout.as_str(), "split" | "aftermath");
    let faces: Vec<FaceRecord> = card
        .card_faces
        .iter()
        .map(|f| FaceRecord {
            name: f.name.clone(),
            mana_cost: cost_of(f.mana_cost.as_deref()),
            type_line: f.type_line.clone(),
            text: f.text(),
        })
        .collect();
    let text = if faces.is_empty() {
        CardText {
            text: Some(card.oracle_text.clone().unwrap_or_default()),
            power: card.power.clone(),
            toughness: card.toughness.clone(),
            loyalty: card.loyalty.clone(),
        }
    } else {
        whole_text(&faces)
    };
    let joined_types = faces.iter().map(|f| f.type_line.as_str()).collect::<Vec<_>>();
    let type_line = card.type_line.clone().unwrap_or_else(|| joined_types.join(" // "));
    let (name, mana_cost) = match faces.first() {
        Some(front) if !split_like => (front.name.clone(), front.mana_cost.clone()),
        _ => (card.name.clone(), cost_of(card.mana_cost.as_deref())),
    };
    out.add(CardRecord {
        name,
        mana_cost,
        type_line,
        layout: card.layout,
        faces,
        kinds,
        sets: vec![card.set.to_ascii_uppercase()],
        text,
        rulings: Vec::new(),
        oracle_id: card.oracle_id,
    });
}

fn kinds_of(card: &Card) -> Vec<ExcludedKind> {
    let vintage_legal = card.legalities.vintage.as_deref().is_some_and(|v| v != "not_legal");
    let joke = card.set_type == "funny" && !vintage_legal;
    let paperless = !card.games.is_empty() && !card.games.iter().any(|g| g == "paper");
    let digital = card.digital || paperless;
    let texts =
        std::iter::once(card.oracle_text.as_deref()).chain(card.card_faces.iter().map(|f| f.oracle_text.as_deref()));
    let ante = texts.flatten().any(mentions_ante);
    let set = card.set.to_ascii_uppercase();
    let portal = PORTAL_SETS.contains(&set.as_str());
    let table = [
        (joke, ExcludedKind::Joke),
        (digital, ExcludedKind::Digital),
        (ante, ExcludedKind::Ante),
        (portal, ExcludedKind::Portal),
    ];
    table.iter().filter(|(on, _)| *on).map(|(_, k)| *k).collect()
}

#[cfg(test)]
mod tests {
    use super::super::{CardRecord, parse, parse_detailed};
    use super::*;
    use ExcludedKind::*;

    const BULK: &str = r#"[
 {"object":"card","name":"Fire // Ice","layout":"split","mana_cost":"{1}{R} // {1}{U}",
  "type_line":"Instant // Instant","set":"apc","set_type":"expansion","digital":false,
  "games":["paper","mtgo"],"legalities":{"vintage":"legal"},
  "card_faces":[{"name":"Fire","mana_cost":"{1}{R}","type_line":"Instant","oracle_text":"x"},
                {"name":"Ice","mana_cost":"{1}{U}","type_line":"Instant","oracle_text":"y"}]},
 {"object":"card","name":"Delver of Secrets // Insectile Aberration","layout":"transform",
  "type_line":"Creature — Human Wizard // Creature — Human Insect","set":"isd","set_type":"expansion",
  "games":["paper"],"card_faces":[{"name":"Delver of Secrets","mana_cost":"{U}","type_line":"Creature — Human Wizard"},
  {"name":"Insectile Aberration","mana_cost":"","type_line":"Creature — Human Insect"}]},
 {"object":"card","name":"Brisela, Voice of Nightmares","layout":"meld","type_line":"Legendary Creature",
  "set":"emn","all_parts":[{"component":"meld_result","name":"Brisela, Voice of Nightmares"}]},
 {"object":"card","name":"Goblin","layout":"token","type_line":"Token Creature — Goblin","set":"tm10"},
 {"object":"card","name":"Ach! Hans, Run!","layout":"normal","mana_cost":"{2}{R}{R}{G}{G}",
  "type_line":"Enchantment","set":"unh","set_type":"funny","legalities":{"vintage":"not_legal"}},
 {"object":"card","name":"Sticker Goblin","layout":"normal","mana_cost":"{2}{R}","type_line":"Creature",
  "set":"unf","set_type":"funny","legalities":{"vintage":"legal"}},
 {"object":"card","name":"Key to the Archive","layout":"normal","mana_cost":"{5}","type_line":"Artifact",
  "set":"ymid","set_type":"alchemy","digital":true,"games":["arena"]},
 {"object":"card","name":"Darkpact","layout":"normal","mana_cost":"{B}{B}{B}","type_line":"Sorcery",
  "set":"lea","oracle_text":"Remove Darkpact from your deck before playing if you're not playing for ante."},
 {"object":"card","name":"Alaborn Zealot","layout":"normal","mana_cost":"{W}","type_line":"Creature",
  "set":"p02","set_type":"starter","games":["paper"]}
]"#;

    fn cards(text: &str) -> Vec<CardRecord> {
        let got = parse(text.as_bytes(), &mut |_, _| {});
        assert!(matches!(got, Ok((Format::Scryfall, _))), "{got:?}");
        got.map(|(_, c)| c).unwrap_or_default()
    }

    fn get<'a>(cards: &'a [CardRecord], name: &str) -> &'a CardRecord {
        let found = cards.iter().find(|c| c.name == name);
        found.unwrap_or_else(|| panic!("no {name} in {cards:?}"))
    }

    #[test]
    fn reads_faces_names_and_costs() {
        let cards = cards(BULK);
        assert_eq!(cards.len(), 7);
        let fire = get(&cards, "Fire // Ice");
        assert_eq!((fire.mana_cost.as_deref(), fire.faces.len()), (Some("{1}{R} // {1}{U}"), 2));
        let delver = get(&cards, "Delver of Secrets");
        assert_eq!(delver.mana_cost.as_deref(), Some("{U}"));
        assert_eq!(delver.faces[1].mana_cost, None);
        assert_eq!(delver.sets, vec!["ISD"]);
    }

    #[test]
    fn classifies_kinds() {
        let cards = cards(BULK);
        let cases = [
            ("Ach! Hans, Run!", vec![Joke]),
            ("Sticker Goblin", vec![]),
            ("Key to the Archive", vec![Digital]),
            ("Darkpact", vec![Ante]),
            ("Alaborn Zealot", vec![Portal]),
            ("Fire // Ice", vec![]),
        ];
        for (name, kinds) in cases {
            assert_eq!(get(&cards, name).kinds, kinds, "{name}");
        }
    }

    #[test]
    fn drops_tokens_and_meld_backs() {
        let dropped = parse_detailed(BULK.as_bytes(), &mut |_, _| {}).map(|o| o.dropped);
        let want = vec![
            ("Brisela, Voice of Nightmares".to_string(), DropReason::MeldBack),
            ("Goblin".to_string(), DropReason::Token),
        ];
        assert_eq!(dropped, Ok(want));
    }

    #[test]
    fn list_object_and_truncation() {
        let list = r#"{"object":"list","data":[{"object":"card","name":"Shock","layout":"normal",
            "mana_cost":"{R}","type_line":"Instant","set":"m19"}]}"#;
        assert_eq!(cards(list).len(), 1);
        let cut = &BULK[..BULK.len() - 40];
        let got = parse(cut.as_bytes(), &mut |_, _| {});
        assert!(matches!(got, Err(ImportError::JsonTruncated { .. })), "{got:?}");
    }
}
