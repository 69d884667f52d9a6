//! The records a head judge may void at one table of the current round, in one list: its notes, challenges,
//! penalties, rulings and extensions (the judges' table page offers a void button for each).

use crate::error::Result;
use crate::ops::table::{RecordFilter, Seated};
use crate::store::clock as store_clock;
use rusqlite::Connection;

/// One record at the table, as the void button names it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Voidable {
    /// The kind, as `/api/void` takes it: note, challenge, penalty, ruling, extension.
    pub kind: &'static str,
    /// The record's id.
    pub id: i64,
    /// The record in words (`B1: Demonic Tutor`, `slow play: warning`).
    pub words: String,
    /// Already voided (no button then).
    pub voided: bool,
}

/// Every record of table `table` of the current round that a void applies to, kind by kind, each in id order.
pub fn at_table(conn: &Connection, table: u32) -> Result<Vec<Voidable>> {
    let seated = Seated::at(conn, table, None)?;
    let filter = RecordFilter { table: Some(table), round: None, player: None };
    let mut out = Vec::new();
    let sheet = crate::ops::table::records::sheet::note_sheet(conn, table, None)?;
    for (n, e) in sheet.sheet.iter().zip(&sheet.notes) {
        let words = format!("{}: {}", e.note.player, n.line());
        out.push(Voidable { kind: "note", id: n.id, words, voided: n.voided });
    }
    for c in crate::ops::table::records::challenge::challenges(conn, &filter)?.challenges {
        let words = format!("{} challenged “{}”: {}", c.by, c.about, c.ruling);
        out.push(Voidable { kind: "challenge", id: c.id, words, voided: c.voided.is_some() });
    }
    for p in crate::ops::table::records::penalty::penalties(conn, None)?.penalties {
        if p.match_id == Some(seated.m.id) {
            let words = format!("{}: {}, {}", p.player, p.infraction, p.penalty);
            out.push(Voidable { kind: "penalty", id: p.id, words, voided: p.voided.is_some() });
        }
    }
    for r in crate::ops::table::records::ruling::rulings(conn, &filter)?.rulings {
        out.push(Voidable { kind: "ruling", id: r.id, words: r.text, voided: r.voided.is_some() });
    }
    for x in store_clock::extensions(conn, seated.m.id)? {
        let words = format!("+{} s for {}", x.seconds, x.reason);
        out.push(Voidable { kind: "extension", id: x.id, words, voided: x.voided.is_some() });
    }
    Ok(out)
}
