//! A player's history: everything recorded about the player, newest first — what a judge looks up before
//! deciding on an upgrade.

use crate::error::Result;
use crate::ops::player_names::{find, names_by_id};
use crate::store::matches::{Match, Outcome};
use crate::store::voids::{self, VoidKind};
use crate::store::{PlayerId, challenge, history as store_history, matches, penalty, round, ruling};
use rusqlite::Connection;
use serde_json::json;
use std::collections::HashMap;

/// A player's history (`player history NAME`).
#[derive(Debug, Clone, serde::Serialize)]
pub struct History {
    /// Who.
    pub player: HistoryPlayer,
    /// Matches won, lost, drawn and playing.
    pub record: Record,
    /// Everything recorded, newest first.
    pub entries: Vec<Entry>,
    /// Penalties that count (not voided).
    #[serde(skip)]
    pub penalties: usize,
}

/// The player a history is about.
#[derive(Debug, Clone, serde::Serialize)]
pub struct HistoryPlayer {
    /// The player's id.
    pub id: PlayerId,
    /// The name.
    pub name: String,
    /// The status in words ("active", "dropped after round 2").
    pub status: String,
    /// Disqualified.
    pub disqualified: bool,
}

/// One line of the history: when, where, what kind, the details in words (`what`) and in data (`details`,
/// the fields of its JSON entry beside `kind`, `at`, `round` and `table`).
#[derive(Debug, Clone)]
pub struct Entry {
    /// When (RFC 3339).
    pub at: String,
    /// The round.
    pub round: Option<u32>,
    /// The table.
    pub table: Option<u32>,
    /// "result", "challenge", "ruling", "penalty" or "overrun".
    pub kind: &'static str,
    /// The details in words.
    pub what: String,
    /// The details as data.
    pub details: serde_json::Value,
}

impl serde::Serialize for Entry {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut d = json!({ "kind": self.kind, "at": self.at, "round": self.round, "table": self.table });
        if let (Some(map), serde_json::Value::Object(more)) = (d.as_object_mut(), &self.details) {
            map.extend(more.clone());
        }
        d.serialize(s)
    }
}

/// Won, lost and drawn matches (byes count as won).
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Record {
    /// Matches won, byes included.
    pub won: u32,
    /// Matches lost.
    pub lost: u32,
    /// Matches drawn.
    pub drawn: u32,
    /// Matches being played.
    pub playing: u32,
}

/// `player history NAME`: the player's results, challenges, rulings, penalties and decision overruns,
/// newest first.
pub fn history(conn: &Connection, player: &str) -> Result<History> {
    let p = find(conn, player)?;
    let names = names_by_id(conn)?;
    let name = |id: PlayerId| names.get(&id).cloned().unwrap_or_else(|| format!("#{}", id.0));
    let mut record = Record::default();
    let mut entries = results(conn, p.id, &name, &mut record)?;
    entries.extend(late_losses(conn, &p, &mut record)?);
    entries.extend(challenges(conn, p.id, &name)?);
    entries.extend(rulings(conn, p.id)?);
    let penalties = penalties(conn, p.id)?;
    let penalty_count = penalties.iter().filter(|e| e.details["voided"].is_null()).count();
    entries.extend(penalties);
    entries.extend(overruns(conn, p.id)?);
    entries.sort_by(|a, b| b.at.cmp(&a.at));
    let status = super::status(&p);
    let player = HistoryPlayer { id: p.id, name: p.name, status, disqualified: p.disqualified };
    Ok(History { player, record, entries, penalties: penalty_count })
}

fn results(
    conn: &Connection,
    p: PlayerId,
    name: &dyn Fn(PlayerId) -> String,
    record: &mut Record,
) -> Result<Vec<Entry>> {
    let notes: HashMap<_, u32> = store_history::note_counts(conn, p)?.into_iter().collect();
    let mut out = Vec::new();
    for m in matches::of_player(conn, p)? {
        let notes = notes.get(&m.id).copied().unwrap_or(0);
        let at = match &m.result_at {
            Some(at) => at.clone(),
            None => round::get(conn, m.round)?.map(|r| r.paired_at).unwrap_or_default(),
        };
        let (what, outcome) = result_words(&m, p, name, record);
        let what = if m.is_bye() { what } else { format!("{what}; {notes} template note{}", plural(notes)) };
        let details = json!({
            "match": m.id, "opponent": m.opponent(p).map(name), "outcome": outcome, "reason": m.reason,
            "life": m.life.map(|(a, b)| if m.a == p { [a, b] } else { [b, a] }), "note": m.note, "notes": notes,
        });
        out.push(Entry { at, round: Some(m.round), table: m.table, kind: "result", what, details });
    }
    Ok(out)
}

/// The rounds missed by entering late, each a match loss under the event's `late-entry loss`.
fn late_losses(conn: &Connection, p: &crate::store::player::Player, record: &mut Record) -> Result<Vec<Entry>> {
    let late = crate::store::event::values(conn)?.text("late-entry") == "loss";
    let mut out = Vec::new();
    for r in crate::ops::standings::missed_rounds(p, round::current(conn)?, late) {
        record.lost += 1;
        let at = round::get(conn, r)?.map(|r| r.paired_at).unwrap_or_default();
        let what = format!("match loss: entered late (joined round {}), not paired in round {r}", p.joined_round);
        let details = json!({ "match": null, "opponent": null, "outcome": "lost", "reason": "late-entry" });
        out.push(Entry { at, round: Some(r), table: None, kind: "result", what, details });
    }
    Ok(out)
}

/// The match from the player's side ("beat Bo by life (12 to 0 life)") and its outcome word.
fn result_words(
    m: &Match,
    p: PlayerId,
    name: &dyn Fn(PlayerId) -> String,
    record: &mut Record,
) -> (String, &'static str) {
    let Some(opp) = m.opponent(p) else {
        record.won += 1;
        return ("bye".into(), "bye");
    };
    let opp = name(opp);
    let mine = m.a == p;
    let life = m.life.map(|(a, b)| if mine { (a, b) } else { (b, a) });
    let life = life.map(|(x, y)| format!(" ({x} to {y} life)")).unwrap_or_default();
    let reason = m.reason.clone().unwrap_or_default();
    match m.outcome {
        None => {
            record.playing += 1;
            (format!("playing against {opp}"), "playing")
        }
        Some(Outcome::Draw) => {
            record.drawn += 1;
            (format!("drew with {opp} by {reason}{life}"), "draw")
        }
        Some(o) if (o == Outcome::A) == mine => {
            record.won += 1;
            (format!("beat {opp} by {reason}{life}"), "won")
        }
        Some(_) => {
            record.lost += 1;
            (format!("lost to {opp} by {reason}{life}"), "lost")
        }
    }
}

/// "challenge #3: ..." with " (void)" for a voided record, and its void in the JSON.
fn voided_entry(mut e: Entry, id: i64, v: Option<&voids::Voided>) -> Entry {
    e.what = format!("#{id}: {}{}", e.what, if v.is_some() { " (void)" } else { "" });
    e.details["voided"] = voids::json(v);
    e
}

fn challenges(conn: &Connection, p: PlayerId, name: &dyn Fn(PlayerId) -> String) -> Result<Vec<Entry>> {
    let mut out = Vec::new();
    let voided = voids::of_kind(conn, VoidKind::Challenge)?;
    for c in challenge::list(conn, None, Some(p))? {
        let lost = if c.loser == p { "lost" } else { "won" };
        let what = if c.by == p {
            format!("challenged: \"{}\": {}, {lost} it", c.about, c.ruling)
        } else {
            format!("challenged by {}: \"{}\": {}, {lost} it", name(c.by), c.about, c.ruling)
        };
        let details = json!({
            "challenge": c.id, "by": name(c.by), "about": c.about, "ruling": c.ruling, "lost": c.loser == p,
            "judge": c.judge,
        });
        let (id, v) = (c.id, voided.get(&c.id));
        let e = Entry { at: c.at, round: Some(c.round), table: c.table, kind: "challenge", what, details };
        out.push(voided_entry(e, id, v));
    }
    Ok(out)
}

fn rulings(conn: &Connection, p: PlayerId) -> Result<Vec<Entry>> {
    let voided = voids::of_kind(conn, VoidKind::Ruling)?;
    Ok(ruling::list(conn, Some(p))?
        .into_iter()
        .map(|r| {
            let (id, v) = (r.id, voided.get(&r.id));
            let e = Entry {
                what: r.text.clone(),
                details: json!({ "ruling": r.id, "text": r.text, "judge": r.judge }),
                at: r.at,
                round: Some(r.round),
                table: r.table,
                kind: "ruling",
            };
            voided_entry(e, id, v)
        })
        .collect())
}

fn penalties(conn: &Connection, p: PlayerId) -> Result<Vec<Entry>> {
    let voided = voids::of_kind(conn, VoidKind::Penalty)?;
    Ok(penalty::list(conn, Some(p))?
        .into_iter()
        .map(|x| {
            let mut what = format!("{} for {}", x.penalty, x.infraction);
            for extra in [&x.upgraded, &x.note].into_iter().flatten() {
                what.push_str(&format!("; {extra}"));
            }
            let (id, v) = (x.id, voided.get(&x.id));
            let e = Entry {
                what,
                details: json!({
                    "penalty": x.id, "infraction": x.infraction, "issued": x.penalty, "upgraded": x.upgraded,
                    "note": x.note, "judge": x.judge,
                }),
                at: x.at,
                round: x.round,
                table: x.table,
                kind: "penalty",
            };
            voided_entry(e, id, v)
        })
        .collect())
}

fn overruns(conn: &Connection, p: PlayerId) -> Result<Vec<Entry>> {
    Ok(store_history::overruns(conn, p)?
        .into_iter()
        .map(|o| Entry {
            what: format!(
                "decision took {}, {} over the {} limit",
                crate::domain::clock::seconds_text(o.duration_ms),
                crate::domain::clock::seconds_text(o.overrun_ms),
                crate::domain::clock::seconds_text(o.limit_ms)
            ),
            details: json!({ "duration_ms": o.duration_ms, "limit_ms": o.limit_ms, "overrun_ms": o.overrun_ms }),
            at: o.at,
            round: Some(o.round),
            table: o.table,
            kind: "overrun",
        })
        .collect())
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}
