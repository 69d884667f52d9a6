//! `player history`: everything recorded about a player, newest first — what a judge looks up before
//! deciding on an upgrade.

use super::Ctx;
use super::table::hhmm;
use crate::error::Result;
use crate::render::{Listing, emit};
use crate::store::matches::{Match, Outcome};
use crate::store::voids::{self, VoidKind};
use crate::store::{PlayerId, challenge, history, matches, penalty, round, ruling};
use rusqlite::Connection;
use serde_json::json;
use std::collections::HashMap;

/// One line of the history.
struct Entry {
    at: String,
    round: Option<u32>,
    table: Option<u32>,
    kind: &'static str,
    what: String,
    doc: serde_json::Value,
}

/// Won, lost and drawn matches (byes count as won).
#[derive(Default, serde::Serialize)]
struct Record {
    won: u32,
    lost: u32,
    drawn: u32,
    playing: u32,
}

/// Prints a player's history.
pub fn run(ctx: &Ctx, query: &str) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    let conn = &*snapshot;
    let p = super::player::resolve(conn, query)?;
    let names = super::player::names_by_id(conn)?;
    let name = |id: PlayerId| names.get(&id).cloned().unwrap_or_else(|| format!("#{}", id.0));
    let mut record = Record::default();
    let mut entries = results(conn, p.id, &name, &mut record)?;
    entries.extend(challenges(conn, p.id, &name)?);
    entries.extend(rulings(conn, p.id)?);
    let penalties = penalties(conn, p.id)?;
    let penalty_count = penalties.iter().filter(|e| e.doc["voided"].is_null()).count();
    entries.extend(penalties);
    entries.extend(overruns(conn, p.id)?);
    entries.sort_by(|a, b| b.at.cmp(&a.at));
    let status = super::player::status(&p);
    let mut listing = Listing::new(&["when", "round", "table", "what", "details"]).titled(format!(
        "History of {} ({status}): {} won, {} lost, {} drawn{}; {penalty_count} penalt{}",
        p.name,
        record.won,
        record.lost,
        record.drawn,
        if record.playing > 0 { format!(", {} playing", record.playing) } else { String::new() },
        if penalty_count == 1 { "y" } else { "ies" }
    ));
    let mut doc = Vec::with_capacity(entries.len());
    for e in entries {
        listing.row(vec![
            hhmm(&e.at),
            e.round.map(|r| r.to_string()).unwrap_or_default(),
            e.table.map(|t| t.to_string()).unwrap_or_default(),
            e.kind.into(),
            e.what,
        ]);
        let mut d = json!({ "kind": e.kind, "at": e.at, "round": e.round, "table": e.table });
        if let (Some(map), serde_json::Value::Object(more)) = (d.as_object_mut(), e.doc) {
            map.extend(more);
        }
        doc.push(d);
    }
    let player_doc = json!({ "id": p.id, "name": p.name, "status": status, "disqualified": p.disqualified });
    emit(ctx.format, &listing, &json!({ "player": player_doc, "record": record, "entries": doc }))
}

fn results(
    conn: &Connection,
    p: PlayerId,
    name: &dyn Fn(PlayerId) -> String,
    record: &mut Record,
) -> Result<Vec<Entry>> {
    let notes: HashMap<_, u32> = history::note_counts(conn, p)?.into_iter().collect();
    let mut out = Vec::new();
    for m in matches::of_player(conn, p)? {
        let notes = notes.get(&m.id).copied().unwrap_or(0);
        let at = match &m.result_at {
            Some(at) => at.clone(),
            None => round::get(conn, m.round)?.map(|r| r.paired_at).unwrap_or_default(),
        };
        let (what, outcome) = result_words(&m, p, name, record);
        let what = if m.is_bye() { what } else { format!("{what}; {notes} template note{}", plural(notes)) };
        let doc = json!({
            "match": m.id, "opponent": m.opponent(p).map(name), "outcome": outcome, "reason": m.reason,
            "life": m.life.map(|(a, b)| if m.a == p { [a, b] } else { [b, a] }), "note": m.note, "notes": notes,
        });
        out.push(Entry { at, round: Some(m.round), table: m.table, kind: "result", what, doc });
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
    e.doc["voided"] = voids::json(v);
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
        let doc = json!({
            "challenge": c.id, "by": name(c.by), "about": c.about, "ruling": c.ruling, "lost": c.loser == p,
            "judge": c.judge,
        });
        let (id, v) = (c.id, voided.get(&c.id));
        let e = Entry { at: c.at, round: Some(c.round), table: c.table, kind: "challenge", what, doc };
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
                doc: json!({ "ruling": r.id, "text": r.text, "judge": r.judge }),
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
                doc: json!({
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
    Ok(history::overruns(conn, p)?
        .into_iter()
        .map(|o| Entry {
            what: format!(
                "decision took {:.1} s, {:.1} s over the {:.0} s limit",
                o.duration_ms as f64 / 1000.0,
                o.overrun_ms as f64 / 1000.0,
                o.limit_ms as f64 / 1000.0
            ),
            doc: json!({ "duration_ms": o.duration_ms, "limit_ms": o.limit_ms, "overrun_ms": o.overrun_ms }),
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
