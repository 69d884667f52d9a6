//! Card reference files: the list of real Magic cards a card may be declared as.
//!
//! Reads a CSV card list, MTGJSON v5 (AtomicCards, AllPrintings, one set file) or a Scryfall
//! oracle-cards bulk file into plain [`CardRecord`]s, one per Oracle card. The format is found
//! from the content, never from the file name. Parsing is all-or-nothing: any error returns no
//! cards at all.
//!
//! Objects that are not playable cards are dropped and counted in [`ParseOutcome::dropped`]:
//! tokens, emblems, schemes, planes, phenomena, vanguards, conspiracies (real cards, but they
//! never enter a game), art-series cards, dungeons, sticker sheets, attractions, Hero cards,
//! objects typed just "Card" (Day // Night and the like) and the back faces of meld pairs
//! (half of two cards, never a card of its own). MTGJSON preview placeholders (a name wholly
//! in quotes, such as `"Thief of the Coast"`, legal only in `future`) are dropped too.

mod csv;
mod detect;
mod mtgjson;
mod scryfall;

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::Serialize;

/// One Oracle card of the reference.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardRecord {
    /// Oracle name: split cards as `Fire // Ice`, other multi-face cards by their front face.
    pub name: String,
    /// Raw brace text of the whole card (split cards: `{1}{R} // {1}{U}`); `None` without a cost.
    pub mana_cost: Option<String>,
    /// Type line; faces joined with ` // ` where the source does so.
    pub type_line: String,
    /// Layout word of the source (`normal`, `split`, `transform`, `adventure`, ...).
    pub layout: String,
    /// Faces of a multi-face card, front first; empty for single-faced cards.
    pub faces: Vec<FaceRecord>,
    /// Kinds of cards an event may exclude, in the order of [`ExcludedKind::ALL`].
    pub kinds: Vec<ExcludedKind>,
    /// Set codes the card was printed in (as the source gives them).
    pub sets: Vec<String>,
    /// Oracle text and the rest of what the card says (front face for multi-face cards; `None` when the
    /// file does not carry text at all, as a CSV without a `text` column).
    pub text: CardText,
    /// Official rulings (date, text), oldest first.
    pub rulings: Vec<Ruling>,
    /// Scryfall's Oracle id (to match Scryfall's rulings file), when the file gives it.
    pub oracle_id: Option<String>,
}

/// What a card or face says: rules text, power/toughness, loyalty.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CardText {
    /// Rules text; `None` when the source carries no text, `Some("")` when the card has none.
    pub text: Option<String>,
    /// Power, as printed (`*`, `1+*`).
    pub power: Option<String>,
    /// Toughness, as printed.
    pub toughness: Option<String>,
    /// Starting loyalty.
    pub loyalty: Option<String>,
}

/// One official ruling.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Ruling {
    /// Date published, `YYYY-MM-DD`.
    pub date: String,
    /// The ruling.
    pub text: String,
}

/// One face of a multi-face card.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FaceRecord {
    /// Face name (`Fire`, `Insectile Aberration`).
    pub name: String,
    /// Raw brace text of the face's cost; `None` when the face has none.
    pub mana_cost: Option<String>,
    /// Face type line (may be empty when the source does not give it).
    pub type_line: String,
    /// What the face says.
    pub text: CardText,
}

/// Kinds of real cards an event may refuse as templates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ExcludedKind {
    /// Only printed in joke sets (Un-sets, acorn cards).
    Joke,
    /// Only exists in digital games (Arena, MTGO-only, Alchemy).
    Digital,
    /// Mentions playing for ante.
    Ante,
    /// Only printed in the Portal starter sets.
    Portal,
}

impl ExcludedKind {
    /// Every kind, in a fixed order.
    pub const ALL: [ExcludedKind; 4] = [Self::Joke, Self::Digital, Self::Ante, Self::Portal];

    /// Lower-case slug used on the command line and in the store.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Joke => "joke",
            Self::Digital => "digital",
            Self::Ante => "ante",
            Self::Portal => "portal",
        }
    }
}

impl fmt::Display for ExcludedKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An unknown excluded-kind word.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("unknown card kind `{0}`: use joke, digital, ante or portal")]
pub struct UnknownKind(pub String);

impl FromStr for ExcludedKind {
    type Err = UnknownKind;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let word = s.trim().to_ascii_lowercase();
        Self::ALL.into_iter().find(|k| k.as_str() == word).ok_or_else(|| UnknownKind(s.to_string()))
    }
}

/// Card reference formats, detected from the content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Format {
    /// CSV with at least `name` and `mana_cost` columns.
    Csv,
    /// MTGJSON v5 AtomicCards (`data` maps card names to faces).
    MtgjsonAtomic,
    /// MTGJSON v5 AllPrintings (`data` maps set codes to sets).
    MtgjsonAllPrintings,
    /// One MTGJSON v5 set, wrapped in `data` or bare.
    MtgjsonSet,
    /// Scryfall bulk data (an array of card objects) or a Scryfall list object.
    Scryfall,
}

impl Format {
    /// Human name of the format, for messages.
    pub fn label(self) -> &'static str {
        match self {
            Self::Csv => "CSV",
            Self::MtgjsonAtomic => "MTGJSON AtomicCards",
            Self::MtgjsonAllPrintings => "MTGJSON AllPrintings",
            Self::MtgjsonSet => "MTGJSON set",
            Self::Scryfall => "Scryfall",
        }
    }
}

/// Why an object of the source was not taken as a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DropReason {
    /// Token or double-faced token.
    Token,
    /// Emblem.
    Emblem,
    /// Archenemy scheme.
    Scheme,
    /// Planechase plane or phenomenon.
    Plane,
    /// Vanguard avatar.
    Vanguard,
    /// Conspiracy: a real card, but it starts the game in the command zone and is never played.
    Conspiracy,
    /// Art-series card (not a game piece).
    ArtSeries,
    /// Dungeon.
    Dungeon,
    /// Unfinity sticker sheet.
    Sticker,
    /// Attraction (played from a separate attraction deck).
    Attraction,
    /// Hero card of the Theros challenge decks.
    Hero,
    /// Object typed just "Card" (Day // Night, helper cards).
    NotACard,
    /// Back face of a meld pair.
    MeldBack,
    /// Preview placeholder of MTGJSON: a name wholly in quotes, legal only in `future`.
    Placeholder,
    /// An object with no type line: not a real card (a CSV row may say `no-type` to keep a real card whose
    /// source lacks it).
    NoTypeLine,
}

/// The result of a parse, with what was left out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ParseOutcome {
    /// Detected format.
    pub format: Format,
    /// Cards, sorted by name, one per name.
    pub cards: Vec<CardRecord>,
    /// Objects left out (name and reason), sorted by name, one per name.
    pub dropped: Vec<(String, DropReason)>,
    /// Objects with no name, left out.
    pub unnamed: usize,
    /// Names given with different costs (each with its costs, sorted), left out rather than keep one.
    pub cost_conflicts: Vec<(String, Vec<String>)>,
    /// Control characters removed from the file's text.
    pub control_characters_removed: usize,
}

/// A card file that cannot be imported.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ImportError {
    /// Nothing but white space.
    #[error("the card file is empty: give a CSV, MTGJSON or Scryfall card file")]
    Empty,
    /// Not a known format.
    #[error("file is in no known card format: expected CSV with a name column, MTGJSON or Scryfall JSON")]
    UnknownFormat,
    /// JSON that stops before its end.
    #[error("the {format} file ends early at line {line}, column {column}: it is truncated, download it again")]
    JsonTruncated {
        /// Format label.
        format: &'static str,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// JSON that is malformed or shaped unlike the format.
    #[error(
        "the {format} file is invalid at line {line}, column {column} ({detail}): use an unmodified MTGJSON v5 or Scryfall file"
    )]
    JsonInvalid {
        /// Format label.
        format: &'static str,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the JSON reader found.
        detail: String,
    },
    /// A CSV without a needed column.
    #[error(
        "the CSV has no `{column}` column (columns found: {found}): add a header line such as name,mana_cost,type_line"
    )]
    CsvMissingColumn {
        /// The missing column.
        column: &'static str,
        /// The columns of the header, comma-separated.
        found: String,
    },
    /// A CSV line that cannot be read.
    #[error("CSV line {line}: {detail}: correct that line and import again")]
    CsvLine {
        /// 1-based line number in the file.
        line: u64,
        /// What is wrong.
        detail: String,
    },
    /// A file of a known format that holds no card.
    #[error("the {format} file holds no cards: check that it is the right file")]
    NoCards {
        /// Format label.
        format: &'static str,
    },
}

/// Finds the format of a card file from its first bytes (only a prefix is examined for CSV;
/// JSON is scanned without being decoded).
pub fn detect(bytes: &[u8]) -> Result<Format, ImportError> {
    detect::detect(bytes)
}

/// Parses a card file into one record per card, sorted by name.
///
/// `progress(done, total)` is called now and then: rows read for CSV, card objects handled for
/// JSON (JSON is decoded first, then the cards are reported as they are gathered); the last
/// call has `done == total`.
pub fn parse(bytes: &[u8], progress: &mut dyn FnMut(usize, usize)) -> Result<(Format, Vec<CardRecord>), ImportError> {
    parse_detailed(bytes, progress).map(|o| (o.format, o.cards))
}

/// Like [`parse`], but also reports what was dropped and why.
pub fn parse_detailed(bytes: &[u8], progress: &mut dyn FnMut(usize, usize)) -> Result<ParseOutcome, ImportError> {
    let format = detect(bytes)?;
    let mut gathered = Gathered::default();
    match format {
        Format::Csv => csv::parse(bytes, &mut gathered, progress)?,
        Format::Scryfall => scryfall::parse(bytes, &mut gathered, progress)?,
        _ => mtgjson::parse(bytes, format, &mut gathered, progress)?,
    }
    for name in gathered.conflicts.keys() {
        gathered.cards.remove(name);
    }
    if gathered.cards.is_empty() {
        return Err(ImportError::NoCards { format: format.label() });
    }
    Ok(ParseOutcome {
        format,
        cards: gathered.cards.into_values().collect(),
        dropped: gathered.dropped.into_iter().collect(),
        unnamed: gathered.unnamed,
        cost_conflicts: gathered.conflicts.into_iter().map(|(n, c)| (n, c.into_iter().collect())).collect(),
        control_characters_removed: gathered.controls_removed,
    })
}

/// Why an object with this layout and type line is not a card, if it is not.
pub fn drop_reason(layout: &str, type_line: &str) -> Option<DropReason> {
    let by_layout = match layout {
        "token" | "double_faced_token" => Some(DropReason::Token),
        "emblem" => Some(DropReason::Emblem),
        "art_series" => Some(DropReason::ArtSeries),
        "planar" => Some(DropReason::Plane),
        "scheme" => Some(DropReason::Scheme),
        "vanguard" => Some(DropReason::Vanguard),
        _ => None,
    };
    by_layout.or_else(|| drop_by_type(type_line))
}

fn drop_by_type(type_line: &str) -> Option<DropReason> {
    let front = type_line.split(" // ").next().unwrap_or("");
    let (types, subtypes) = front.split_once('—').unwrap_or((front, ""));
    let has = |w: &str| types.split_whitespace().any(|t| t == w);
    let table = [
        ("Token", DropReason::Token),
        ("Emblem", DropReason::Emblem),
        ("Scheme", DropReason::Scheme),
        ("Plane", DropReason::Plane),
        ("Phenomenon", DropReason::Plane),
        ("Vanguard", DropReason::Vanguard),
        ("Conspiracy", DropReason::Conspiracy),
        ("Dungeon", DropReason::Dungeon),
        ("Stickers", DropReason::Sticker),
        ("Hero", DropReason::Hero),
    ];
    if let Some((_, r)) = table.iter().find(|(w, _)| has(w)) {
        return Some(*r);
    }
    if types.trim() == "Card" {
        return Some(DropReason::NotACard);
    }
    subtypes.split_whitespace().any(|s| s == "Attraction").then_some(DropReason::Attraction)
}

/// Whether rules text mentions ante as a word ("playing for ante", "Ante the top card").
pub(super) fn mentions_ante(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric()).any(|w| w.eq_ignore_ascii_case("ante"))
}

/// Set codes of the Portal starter sets.
pub(super) const PORTAL_SETS: [&str; 3] = ["POR", "P02", "PTK"];

/// An empty cost text means no cost.
pub(super) fn cost_of(raw: Option<&str>) -> Option<String> {
    raw.map(str::trim).filter(|c| !c.is_empty()).map(str::to_string)
}

/// The text of a whole multi-face card: the faces' texts joined by a `//` line (none if no face has
/// text), and the front face's power, toughness and loyalty.
pub(super) fn whole_text(faces: &[FaceRecord]) -> CardText {
    let front = faces.first().map(|f| f.text.clone()).unwrap_or_default();
    let texts: Vec<&str> = faces.iter().filter_map(|f| f.text.text.as_deref()).collect();
    let text = (!texts.is_empty()).then(|| texts.join("\n//\n"));
    CardText { text, ..front }
}

/// Cards and drops gathered by a format reader, merged by name.
#[derive(Debug, Default)]
pub(super) struct Gathered {
    pub(super) cards: BTreeMap<String, CardRecord>,
    pub(super) dropped: BTreeMap<String, DropReason>,
    pub(super) unnamed: usize,
    pub(super) conflicts: BTreeMap<String, std::collections::BTreeSet<String>>,
    pub(super) controls_removed: usize,
}

impl Gathered {
    /// Adds a card, or merges it into the card of the same name: sets are united; Joke, Digital
    /// and Portal hold only if they hold for both; Ante if for either. Control characters are removed
    /// from its text (and counted); a card with no name or no type line is left out (and counted); a
    /// name seen with two different costs is recorded as a conflict.
    pub(super) fn add(&mut self, card: CardRecord) {
        self.add_typed(card, true);
    }

    /// Like [`Gathered::add`]; with `need_type` false a card with no type line is kept (a CSV without a
    /// `type_line` column, or a row flagged `no-type`).
    pub(super) fn add_typed(&mut self, mut card: CardRecord, need_type: bool) {
        self.clean(&mut card);
        if card.name.trim().is_empty() {
            self.unnamed += 1;
            return;
        }
        if let Some(reason) = drop_reason(&card.layout, &card.type_line) {
            self.dropped.insert(card.name, reason);
            return;
        }
        if need_type && card.type_line.split("//").all(|t| t.trim().is_empty()) {
            self.dropped.insert(card.name, DropReason::NoTypeLine);
            return;
        }
        match self.cards.get_mut(&card.name) {
            None => {
                self.cards.insert(card.name.clone(), card);
            }
            Some(old) => {
                if old.mana_cost != card.mana_cost {
                    let costs = self.conflicts.entry(card.name.clone()).or_default();
                    costs.insert(cost_shown(old.mana_cost.as_deref()));
                    costs.insert(cost_shown(card.mana_cost.as_deref()));
                }
                merge(old, card)
            }
        }
    }

    /// Records an object left out (a nameless one is only counted).
    pub(super) fn drop(&mut self, name: &str, reason: DropReason) {
        let (name, n) = super::text::strip(name, false);
        self.controls_removed += n;
        if name.trim().is_empty() {
            self.unnamed += 1;
            return;
        }
        self.dropped.insert(name, reason);
    }

    /// Records a name seen with two different costs (by a reader that merges objects itself).
    pub(super) fn conflict(&mut self, name: &str, costs: impl IntoIterator<Item = Option<String>>) {
        let (name, n) = super::text::strip(name, false);
        self.controls_removed += n;
        let entry = self.conflicts.entry(name.trim().to_string()).or_default();
        entry.extend(costs.into_iter().map(|c| cost_shown(c.as_deref())));
    }

    fn clean(&mut self, card: &mut CardRecord) {
        let n = &mut self.controls_removed;
        super::text::strip_in_place(&mut card.name, n);
        card.name = card.name.trim().to_string();
        super::text::strip_in_place(&mut card.type_line, n);
        super::text::strip_in_place(&mut card.layout, n);
        if let Some(c) = card.mana_cost.as_mut() {
            super::text::strip_in_place(c, n);
        }
        card.mana_cost = cost_of(card.mana_cost.as_deref());
        for f in &mut card.faces {
            super::text::strip_in_place(&mut f.name, n);
            super::text::strip_in_place(&mut f.type_line, n);
            if let Some(c) = f.mana_cost.as_mut() {
                super::text::strip_in_place(c, n);
            }
        }
        for set in &mut card.sets {
            super::text::strip_in_place(set, n);
        }
    }
}

/// A cost as shown in a conflict report: its text, or "no cost".
fn cost_shown(cost: Option<&str>) -> String {
    cost.map_or_else(|| "no cost".to_string(), str::to_string)
}

fn merge(old: &mut CardRecord, new: CardRecord) {
    if old.text.text.is_none() && new.text.text.is_some() {
        old.text = new.text;
    }
    if old.rulings.is_empty() {
        old.rulings = new.rulings;
    }
    if old.oracle_id.is_none() {
        old.oracle_id = new.oracle_id;
    }
    for set in new.sets {
        if !old.sets.contains(&set) {
            old.sets.push(set);
        }
    }
    let keep = |k: &ExcludedKind| match k {
        ExcludedKind::Ante => true,
        _ => new.kinds.contains(k),
    };
    let mut kinds: Vec<ExcludedKind> = old.kinds.iter().copied().filter(keep).collect();
    if new.kinds.contains(&ExcludedKind::Ante) && !kinds.contains(&ExcludedKind::Ante) {
        kinds.push(ExcludedKind::Ante);
    }
    kinds.sort();
    old.kinds = kinds;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_and_reject_unknown() {
        for k in ExcludedKind::ALL {
            assert_eq!(k.as_str().parse::<ExcludedKind>(), Ok(k));
        }
        assert_eq!(" Joke ".parse::<ExcludedKind>(), Ok(ExcludedKind::Joke));
        assert!("funny".parse::<ExcludedKind>().is_err());
    }

    #[test]
    fn drop_reasons_by_layout_and_type() {
        let cases = [
            ("token", "Creature — Goblin", Some(DropReason::Token)),
            ("normal", "Token Creature — Goblin", Some(DropReason::Token)),
            ("double_faced_token", "Card // Card", Some(DropReason::Token)),
            ("normal", "Card // Card", Some(DropReason::NotACard)),
            ("emblem", "Emblem — Ajani", Some(DropReason::Emblem)),
            ("planar", "Plane — Dominaria", Some(DropReason::Plane)),
            ("normal", "Phenomenon", Some(DropReason::Plane)),
            ("normal", "Ongoing Scheme", Some(DropReason::Scheme)),
            ("normal", "Conspiracy", Some(DropReason::Conspiracy)),
            ("normal", "Artifact — Attraction", Some(DropReason::Attraction)),
            ("normal", "Stickers", Some(DropReason::Sticker)),
            ("art_series", "Card", Some(DropReason::ArtSeries)),
            ("normal", "Legendary Planeswalker — Jace", None),
            ("normal", "Artifact — Equipment", None),
            ("normal", "", None),
            ("split", "Instant // Instant", None),
        ];
        for (layout, type_line, want) in cases {
            assert_eq!(drop_reason(layout, type_line), want, "{layout} {type_line}");
        }
    }

    #[test]
    fn ante_is_a_whole_word() {
        assert!(mentions_ante("Remove this card if you're not playing for ante."));
        assert!(mentions_ante("Ante the top card of your library."));
        assert!(!mentions_ante("Antelope, antecedent and dante."));
    }

    fn card(name: &str, kinds: &[ExcludedKind], sets: &[&str]) -> CardRecord {
        CardRecord {
            name: name.into(),
            mana_cost: None,
            type_line: "Instant".into(),
            layout: "normal".into(),
            faces: vec![],
            kinds: kinds.to_vec(),
            sets: sets.iter().map(|s| s.to_string()).collect(),
            text: CardText::default(),
            rulings: vec![],
            oracle_id: None,
        }
    }

    #[test]
    fn merge_keeps_joke_only_when_every_printing_is_joke() {
        use ExcludedKind::*;
        let mut g = Gathered::default();
        g.add(card("X", &[Joke, Portal], &["UNH"]));
        g.add(card("X", &[Ante], &["LEA"]));
        let x = &g.cards["X"];
        assert_eq!(x.kinds, vec![Ante]);
        assert_eq!(x.sets, vec!["UNH", "LEA"]);
        g.add(card("Y", &[Joke], &["UGL"]));
        g.add(card("Y", &[Joke], &["UNH"]));
        assert_eq!(g.cards["Y"].kinds, vec![Joke]);
    }

    #[test]
    fn unknown_and_empty_input_are_errors() {
        let mut p = |_: usize, _: usize| {};
        assert_eq!(parse(b"  \n ", &mut p), Err(ImportError::Empty));
        assert_eq!(parse(b"just words", &mut p), Err(ImportError::UnknownFormat));
        assert_eq!(parse(b"{\"x\": 1}", &mut p), Err(ImportError::UnknownFormat));
        let msg = ImportError::UnknownFormat.to_string();
        assert!(msg.contains("expected CSV with a name column"));
    }
}
