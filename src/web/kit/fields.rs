//! Fields that several rooms' bodies share: life totals, free text, and a table's result (a judge records it, a
//! head judge fixes it).

use crate::domain::result::Reason;
use crate::error::{Error, Result};
use crate::ops::table;

/// Life totals as JSON `[12, 0]` or a form's `7 0` / `7,0`.
#[derive(Debug, serde::Deserialize)]
#[serde(untagged)]
pub enum Life {
    /// `[A, B]`.
    Pair([i64; 2]),
    /// `"A,B"` (a form field).
    Text(String),
}

/// The life totals given, if any.
pub fn life_of(life: Option<Life>) -> Result<Option<(i64, i64)>> {
    let bad = || Error::bad_input("life: two totals, seat A's then seat B's, e.g. 7 0");
    match life {
        None => Ok(None),
        Some(Life::Pair([a, b])) => Ok(Some((a, b))),
        Some(Life::Text(t)) if t.trim().is_empty() => Ok(None),
        Some(Life::Text(t)) => {
            // "7 0", "7,0" and "7, 0" alike.
            let totals: Vec<&str> = t.split([',', ' ']).filter(|w| !w.is_empty()).collect();
            let [a, b] = totals.as_slice() else { return Err(bad()) };
            Ok(Some((a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?)))
        }
    }
}

/// A text field's words, None when empty.
pub fn blank(text: Option<String>) -> Option<String> {
    text.map(|t| t.trim().to_string()).filter(|t| !t.is_empty())
}

/// A free text field (a reason): no control characters but line feeds.
pub fn text_field(field: &str, text: Option<String>) -> Result<Option<String>> {
    match text.map(|t| t.trim().to_string()).filter(|t| !t.is_empty()) {
        Some(t) => {
            crate::domain::text::check(field, &t, true).map_err(Error::bad_input)?;
            Ok(Some(t))
        }
        None => Ok(None),
    }
}

/// The body of a write that takes no fields (`/api/round/unpair`, `/api/round/reopen`, `/api/standby/detach`).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoFields {}

/// `POST /api/result` and `/api/result/fix` body.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultBody {
    /// The table.
    pub table: u32,
    /// The winner (a name or its beginning) or `draw`.
    pub winner: Option<String>,
    /// Why the game ended (life, decking, ...).
    pub by: String,
    /// Life totals, seat A's then seat B's.
    pub life: Option<Life>,
    /// A judge's remark.
    pub note: Option<String>,
    /// The round (default: the current one).
    pub round: Option<u32>,
    /// (`/api/result/fix`) even though later rounds are paired.
    #[serde(default)]
    pub force: bool,
    /// The turn the game was on when time was called (with `by: "time"`); a form's empty field is none.
    #[serde(default, deserialize_with = "optional_turn")]
    pub turn: Option<u32>,
}

/// A turn as a JSON number or a form's text (an empty field is none).
fn optional_turn<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<u32>, D::Error> {
    use serde::Deserialize;
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Turn {
        Number(u32),
        Text(String),
    }
    match Option::<Turn>::deserialize(d)? {
        None => Ok(None),
        Some(Turn::Number(n)) => Ok(Some(n)),
        Some(Turn::Text(t)) if t.trim().is_empty() => Ok(None),
        Some(Turn::Text(t)) => t.trim().parse().map(Some).map_err(|_| {
            serde::de::Error::custom(format!("turn takes the turn the game was on when time was called, not \"{t}\""))
        }),
    }
}

/// The `ops` input of a result or its fix.
pub fn result_input(b: ResultBody) -> Result<table::records::result::ResultInput> {
    Ok(table::records::result::ResultInput {
        table: b.table,
        round: b.round,
        winner: blank(b.winner),
        reason: Reason::parse(&b.by).map_err(Error::bad_input)?,
        life: life_of(b.life)?,
        note: text_field("note", b.note)?,
        at: None,
        turn: b.turn,
    })
}
