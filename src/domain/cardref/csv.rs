//! CSV card lists: `name,mana_cost` required, `type_line,layout,faces,flags,sets,text` optional (plus
//! `power,toughness,loyalty`). A multi-face card's `text` gives each face's text separated by a `//` line.

use super::detect::strip_bom;
use super::{CardRecord, CardText, DropReason, ExcludedKind, FaceRecord, Gathered, ImportError, cost_of};

/// Column positions found in the header.
struct Columns {
    name: usize,
    mana_cost: usize,
    type_line: Option<usize>,
    layout: Option<usize>,
    faces: Option<usize>,
    flags: Option<usize>,
    sets: Option<usize>,
    text: Option<usize>,
    power: Option<usize>,
    toughness: Option<usize>,
    loyalty: Option<usize>,
}

impl Columns {
    fn from_header(header: &csv::StringRecord) -> Result<Self, ImportError> {
        let find = |want: &str| header.iter().position(|h| h.trim().eq_ignore_ascii_case(want));
        let found = || header.iter().collect::<Vec<_>>().join(",");
        let need =
            |column: &'static str| find(column).ok_or_else(|| ImportError::CsvMissingColumn { column, found: found() });
        Ok(Self {
            name: need("name")?,
            mana_cost: need("mana_cost")?,
            type_line: find("type_line"),
            layout: find("layout"),
            faces: find("faces"),
            flags: find("flags"),
            sets: find("sets"),
            text: find("text"),
            power: find("power"),
            toughness: find("toughness"),
            loyalty: find("loyalty"),
        })
    }
}

/// Reads every row; any bad row fails the whole file.
pub(super) fn parse(
    bytes: &[u8],
    out: &mut Gathered,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(), ImportError> {
    let bytes = strip_bom(bytes);
    let total = bytes.iter().filter(|&&b| b == b'\n').count().saturating_sub(1);
    let mut reader = csv::ReaderBuilder::new().flexible(false).from_reader(bytes);
    let header = reader.headers().map_err(|e| line_error(&e, 1))?.clone();
    let cols = Columns::from_header(&header)?;
    let mut row = csv::StringRecord::new();
    let mut done = 0usize;
    loop {
        let line = reader.position().line() + 1;
        match reader.read_record(&mut row) {
            Ok(false) => break,
            Ok(true) => read_row(&row, &cols, out)
                .map_err(|detail| ImportError::CsvLine { line: row.position().map_or(line, |p| p.line()), detail })?,
            Err(e) => return Err(line_error(&e, line)),
        }
        done += 1;
        if done.is_multiple_of(4096) {
            progress(done, total);
        }
    }
    progress(done, done);
    Ok(())
}

fn line_error(e: &csv::Error, fallback: u64) -> ImportError {
    let line = e.position().map_or(fallback, |p| p.line());
    let detail = match e.kind() {
        csv::ErrorKind::UnequalLengths { expected_len, len, .. } => {
            format!("{len} fields where the header has {expected_len}")
        }
        csv::ErrorKind::Utf8 { .. } => "text is not valid UTF-8".to_string(),
        _ => e.to_string(),
    };
    ImportError::CsvLine { line, detail }
}

fn read_row(row: &csv::StringRecord, cols: &Columns, out: &mut Gathered) -> Result<(), String> {
    let field = |i: Option<usize>| i.and_then(|i| row.get(i)).unwrap_or("").trim();
    let name = field(Some(cols.name));
    let flags: Vec<&str> = field(cols.flags).split_whitespace().collect();
    if flags.contains(&"meld-back") {
        out.drop(name, DropReason::MeldBack);
        return Ok(());
    }
    let type_line = field(cols.type_line);
    let layout = match field(cols.layout) {
        "" => "normal",
        l => l,
    };
    let need_type = cols.type_line.is_some() && !flags.contains(&"no-type");
    let given = |i: Option<usize>| i.map(|_| field(i)).filter(|v| !v.is_empty()).map(str::to_string);
    let text = CardText {
        text: given(cols.text).map(|t| t.replace("\r\n", "\n")),
        power: given(cols.power),
        toughness: given(cols.toughness),
        loyalty: given(cols.loyalty),
    };
    let mut faces = parse_faces(field(cols.faces), type_line)?;
    if let Some(whole) = &text.text {
        let parts: Vec<&str> = whole.split("\n//\n").collect();
        if parts.len() == faces.len() {
            for (face, part) in faces.iter_mut().zip(parts) {
                face.text.text = Some(part.to_string());
            }
        }
    }
    out.add_typed(
        CardRecord {
            name: name.to_string(),
            mana_cost: cost_of(Some(field(Some(cols.mana_cost)))),
            type_line: type_line.to_string(),
            layout: layout.to_string(),
            faces,
            kinds: kinds_of(&flags),
            sets: field(cols.sets).split_whitespace().map(str::to_string).collect(),
            text,
            rulings: Vec::new(),
            oracle_id: None,
        },
        need_type,
    );
    Ok(())
}

/// `Fire={1}{R} // Ice={1}{U}`; face type lines come from the ` // ` parts of the type line
/// when their number matches.
fn parse_faces(text: &str, type_line: &str) -> Result<Vec<FaceRecord>, String> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let types: Vec<&str> = type_line.split(" // ").collect();
    let parts: Vec<&str> = text.split(" // ").collect();
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            let (name, cost) = part
                .rsplit_once('=')
                .ok_or_else(|| format!("face `{part}` has no `=`: write faces as Face={{cost}} // Face={{cost}}"))?;
            let face_type = if types.len() == parts.len() { types[i] } else { "" };
            Ok(FaceRecord {
                name: name.trim().to_string(),
                mana_cost: cost_of(Some(cost)),
                type_line: face_type.trim().to_string(),
                text: CardText::default(),
            })
        })
        .collect()
}

fn kinds_of(flags: &[&str]) -> Vec<ExcludedKind> {
    let has = |f: &str| flags.contains(&f);
    let table = [
        (has("un"), ExcludedKind::Joke),
        (has("digital") || has("likely-digital"), ExcludedKind::Digital),
        (has("ante"), ExcludedKind::Ante),
        (has("portal"), ExcludedKind::Portal),
    ];
    table.iter().filter(|(on, _)| *on).map(|(_, k)| *k).collect()
}

#[cfg(test)]
mod tests {
    use super::super::{Format, parse, parse_detailed};
    use super::*;

    const SAMPLE: &str = "name,mana_cost,type_line,layout,faces,flags,sets
Fire // Ice,{1}{R} // {1}{U},Instant // Instant,split,Fire={1}{R} // Ice={1}{U},,APC MH2
Delver of Secrets,{U},Creature — Human Wizard // Creature — Human Insect,transform,Delver of Secrets={U} // Insectile Aberration=,,ISD
\"\"\"Ach! Hans, Run!\"\"\",{2}{R}{R}{G}{G},Enchantment,normal,,un,UNH
Dark Depths,,Legendary Snow Land,normal,,,CSP
\"Brisela, Voice of Nightmares\",,Legendary Creature — Eldrazi Angel,meld,,meld-back,EMN
Jeweled Bird,{1},Artifact,normal,,src-landlord vintage-banned ante,
A-Akki Ronin,{R},,normal,,no-type digital,
Alaborn Zealot,{W},Creature — Human Soldier,normal,,portal,P02
Power Play,,Conspiracy,normal,,,CNS
";

    fn cards() -> Vec<CardRecord> {
        parse(SAMPLE.as_bytes(), &mut |_, _| {}).map(|(_, c)| c).unwrap_or_default()
    }

    fn find<'a>(cards: &'a [CardRecord], name: &str) -> Option<&'a CardRecord> {
        cards.iter().find(|c| c.name == name)
    }

    #[test]
    fn reads_split_and_double_faced_cards() {
        let cards = cards();
        let fire = find(&cards, "Fire // Ice");
        assert_eq!(fire.and_then(|c| c.mana_cost.as_deref()), Some("{1}{R} // {1}{U}"));
        assert_eq!(fire.map(|c| c.faces.len()), Some(2));
        assert_eq!(fire.map(|c| c.sets.clone()), Some(vec!["APC".into(), "MH2".into()]));
        let delver = find(&cards, "Delver of Secrets").map(|c| c.faces.clone());
        let back = delver.as_ref().and_then(|f| f.get(1));
        assert_eq!(back.map(|f| f.name.as_str()), Some("Insectile Aberration"));
        assert_eq!(back.and_then(|f| f.mana_cost.clone()), None);
        assert_eq!(back.map(|f| f.type_line.as_str()), Some("Creature — Human Insect"));
    }

    #[test]
    fn reads_flags_costs_and_drops() {
        use ExcludedKind::*;
        let cards = cards();
        let kinds = |n: &str| find(&cards, n).map(|c| c.kinds.clone());
        assert_eq!(kinds("\"Ach! Hans, Run!\""), Some(vec![Joke]));
        assert_eq!(kinds("Jeweled Bird"), Some(vec![Ante]));
        assert_eq!(kinds("A-Akki Ronin"), Some(vec![Digital]));
        assert_eq!(kinds("Alaborn Zealot"), Some(vec![Portal]));
        assert_eq!(kinds("Fire // Ice"), Some(vec![]));
        assert_eq!(find(&cards, "Dark Depths").map(|c| c.mana_cost.clone()), Some(None));
        assert!(find(&cards, "Brisela, Voice of Nightmares").is_none());
        assert!(find(&cards, "Power Play").is_none());
        let outcome = parse_detailed(SAMPLE.as_bytes(), &mut |_, _| {});
        let dropped = outcome.map(|o| (o.format, o.dropped)).ok();
        assert_eq!(
            dropped,
            Some((
                Format::Csv,
                vec![
                    ("Brisela, Voice of Nightmares".into(), DropReason::MeldBack),
                    ("Power Play".into(), DropReason::Conspiracy)
                ]
            ))
        );
    }

    #[test]
    fn errors_name_the_line_or_the_columns() {
        let cases = [
            ("card,cost\nShock,{R}\n", "columns found: card,cost"),
            ("name,type_line\nShock,Instant\n", "no `mana_cost` column"),
            ("name,mana_cost\nShock,{R}\nBolt,{R},extra\n", "CSV line 3: 3 fields"),
            ("name,mana_cost,faces\nFire // Ice,{1}{R},Fire // Ice\n", "CSV line 2: face `Fire` has no `=`"),
            ("name,mana_cost\n", "holds no cards"),
            ("Name;Cost\nShock;{R}\n", "columns found: Name;Cost"),
        ];
        for (text, want) in cases {
            let got = parse(text.as_bytes(), &mut |_, _| {});
            let msg = got.err().map(|e| e.to_string()).unwrap_or_default();
            assert!(msg.contains(want), "{text:?}: {msg}");
        }
    }

    #[test]
    fn nameless_untyped_conflicting_and_poisoned_rows_are_left_out_and_counted() {
        let text = "name,mana_cost,type_line,flags\n\
                    Shock,{R},Instant,\n\
                    Shock,{1}{R},Instant,\n\
                    \u{1b},{U},Instant,\n\
                    Stickers Sheet,,,\n\
                    Bail Out,{B},,no-type\n\
                    Bra\u{0}instorm,{U},Ins\u{1b}tant,\n";
        let Ok(out) = parse_detailed(text.as_bytes(), &mut |_, _| {}) else { panic!("parse failed") };
        let names: Vec<&str> = out.cards.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, vec!["Bail Out", "Brainstorm"]);
        assert_eq!(out.cards[1].type_line, "Instant");
        assert_eq!(out.unnamed, 1);
        assert_eq!(out.control_characters_removed, 3);
        assert_eq!(out.dropped, vec![("Stickers Sheet".to_string(), DropReason::NoTypeLine)]);
        assert_eq!(out.cost_conflicts, vec![("Shock".to_string(), vec!["{1}{R}".to_string(), "{R}".to_string()])]);
        let untyped = parse(b"name,mana_cost\nShock,{R}\n", &mut |_, _| {}).map(|(_, c)| c.len());
        assert_eq!(untyped, Ok(1), "without a type_line column nothing is left out for it");
    }

    #[test]
    fn minimal_columns_are_enough() {
        let got = parse(b"Name , Mana_Cost\nShock,{R}\n", &mut |_, _| {});
        let names: Vec<String> = got.map(|(_, c)| c.into_iter().map(|c| c.name).collect()).unwrap_or_default();
        assert_eq!(names, vec!["Shock"]);
    }
}
