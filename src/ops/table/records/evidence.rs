//! Template notes as evidence in a challenge: attaching notes to a challenge already recorded (the judge read
//! the sheet while hearing it), and the evidence of a challenge as the judge reads it (who declared what, when,
//! and the card's text when the reference has it).

use crate::domain::topic::Topic;
use crate::error::{Error, Refusal, Result, WayOut};
use crate::ops::table::Seated;
use crate::ops::table::records::challenge::check_evidence;
use crate::ops::table::records::note::{NoteView, note_view, player_name};
use crate::store::voids::{self, VoidKind};
use crate::store::{Actor, Change, NoteId, Store, card_text, challenge, matches, notes};
use rusqlite::Connection;

/// Notes to attach to a challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvidenceInput {
    /// The challenge (its id, as `challenges` lists it).
    pub challenge: i64,
    /// The notes (their ids, as `notes TABLE` shows them), of the challenge's match.
    pub notes: Vec<i64>,
}

/// Notes attached.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct EvidenceAttached {
    /// The challenge.
    pub challenge: i64,
    /// Its round.
    pub round: u32,
    /// Its table.
    pub table: u32,
    /// The notes attached now.
    pub added: Vec<NoteId>,
    /// The notes given that were evidence already.
    pub already: Vec<NoteId>,
    /// All its evidence now.
    pub evidence: Vec<NoteId>,
    /// The audit log's line.
    #[serde(skip)]
    pub summary: String,
}

/// `challenge evidence ID NOTE...`: cites notes of the challenge's match as its evidence (a voided challenge or
/// note is refused; notes already cited are named and left as they are).
pub fn attach_evidence(store: &mut Store, actor: &Actor, input: EvidenceInput) -> Result<EvidenceAttached> {
    if input.notes.is_empty() {
        let out = WayOut::NoteIdsAsListed;
        return Err(Refusal::bad_input("which notes? give their ids")
            .way_out_after(crate::error::Join::Comma, out)
            .into());
    }
    store.write(actor, |tx| {
        let id = input.challenge;
        let Some(c) = challenge::get(tx, id)? else {
            return Err(Refusal::not_found(format!("there is no challenge #{id}"))
                .way_out(WayOut::ListChallenges)
                .into());
        };
        if voids::get(tx, VoidKind::Challenge, id)?.is_some() {
            return Err(Error::refused(format!("challenge #{id} was voided: it takes no evidence")));
        }
        let seated = Seated::load(tx, matches::get(tx, c.match_id)?)?;
        let mut wanted = check_evidence(tx, &seated, &input.notes)?;
        wanted.dedup();
        let (mut added, mut already) = (Vec::new(), Vec::new());
        for note in wanted {
            if challenge::add_evidence(tx, id, note)? { added.push(note) } else { already.push(note) }
        }
        let ids = |v: &[NoteId]| v.iter().map(|n| format!("#{}", n.0)).collect::<Vec<_>>().join(", ");
        if added.is_empty() {
            return Err(Error::refused(format!(
                "note{} {} already evidence in challenge #{id}: nothing to attach",
                if already.len() == 1 { " is" } else { "s are" },
                ids(&already)
            )));
        }
        let mut lines = Vec::with_capacity(added.len());
        for n in &added {
            if let Some(note) = notes::get(tx, *n)? {
                let who = player_name(tx, &seated, note.player)?;
                let view = note_view(&seated, &note, &who);
                lines.push(format!("#{} {who} {}: {} at {}", n.0, view.shorthand, card_words(&view), view.time));
            }
        }
        let mut summary =
            format!("challenge #{id} at {}: evidence {} ({})", seated.label(), ids(&added), lines.join("; "));
        if !already.is_empty() {
            summary.push_str(&format!("; {} already cited", ids(&already)));
        }
        let out = EvidenceAttached {
            challenge: id,
            round: seated.m.round,
            table: seated.table(),
            evidence: challenge::evidence_of(tx, id)?,
            added,
            already,
            summary: summary.clone(),
        };
        Ok((out, Change::about(summary, [seated.a.id, seated.b.id]).touching(seated.touched(Topic::Note))))
    })
}

fn card_words(view: &NoteView) -> &str {
    view.card.as_deref().unwrap_or(crate::domain::note_sheet::UNNAMED)
}

/// A note cited as evidence, as the judge reads it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct EvidenceNote {
    /// The note: who declared what, when.
    #[serde(flatten)]
    pub note: NoteView,
    /// The card's rules text, when the reference has it.
    pub text: Option<String>,
    /// Whether a judge voided the note since.
    pub voided: bool,
}

/// The notes cited in a challenge, in the order declared.
pub fn evidence_notes(conn: &Connection, challenge_id: i64) -> Result<Vec<EvidenceNote>> {
    let Some(c) = challenge::get(conn, challenge_id)? else { return Ok(Vec::new()) };
    let seated = Seated::load(conn, matches::get(conn, c.match_id)?)?;
    let voided = voids::of_kind(conn, VoidKind::Note)?;
    let mut out = Vec::new();
    for id in challenge::evidence_of(conn, challenge_id)? {
        let Some(n) = notes::get(conn, id)? else { continue };
        let text = match &n.card {
            Some(name) => card_text::text_by_name(conn, name)?,
            None => None,
        };
        let who = player_name(conn, &seated, n.player)?;
        out.push(EvidenceNote { note: note_view(&seated, &n, &who), text, voided: voided.contains_key(&id.0) });
    }
    out.sort_by(|a, b| a.note.at.cmp(&b.note.at).then(a.note.id.cmp(&b.note.id)));
    Ok(out)
}

/// `#12 Ana B1: Demonic Tutor 14:02`, the words a listing shows for a cited note.
pub fn evidence_words(e: &EvidenceNote) -> String {
    let void = if e.voided { " (void)" } else { "" };
    format!("#{} {} {}: {} {}{void}", e.note.id.0, e.note.player, e.note.shorthand, card_words(&e.note), e.note.time)
}
