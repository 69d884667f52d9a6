//! Corrections: the `void` verbs, `result clear`, and the `rulings` and `stalls` listings. The rules are in
//! `ops::corrections`; this module reads the command line, calls them and prints.

use super::Ctx;
use super::table::{Seated, hhmm, round_or_current, text_field};
use crate::cli::challenge::ChallengeCmd;
use crate::cli::corrections::{RulingsArgs, StallCmd, StallsArgs, VoidResultSub, VoidSub};
use crate::cli::penalty::{PenaltyCmd, RulingCmd};
use crate::cli::round::ExtendCmd;
use crate::error::{Error, Result};
use crate::ops::corrections::{self as ops, ClearInput, VoidInput, VoidOutcome};
use crate::render::{Listing, done, emit};
use crate::store::voids::{self, VoidKind};
use crate::store::{MatchId, PlayerId, clock, ruling};
use rusqlite::Connection;

/// `penalty ...` or `penalty void ID`.
pub fn penalty(ctx: &Ctx, cmd: PenaltyCmd) -> Result<()> {
    match (cmd.void, cmd.record) {
        (Some(VoidResultSub::Void(v)), _) => void(ctx, VoidKind::Penalty, v.id, v.reason, v.force),
        (None, Some(args)) => super::penalty::run(ctx, &args),
        (None, None) => Err(Error::refused("mmjudge penalty PLAYER INFRACTION, or mmjudge penalty void ID")),
    }
}

/// `challenge ...` or `challenge void ID`.
pub fn challenge(ctx: &Ctx, cmd: ChallengeCmd) -> Result<()> {
    match (cmd.void, cmd.record) {
        (Some(VoidResultSub::Void(v)), _) => void(ctx, VoidKind::Challenge, v.id, v.reason, v.force),
        (None, Some(args)) => super::challenge::run(ctx, &args),
        (None, None) => Err(Error::refused("mmjudge challenge TABLE --by PLAYER ..., or mmjudge challenge void ID")),
    }
}

/// `ruling ...` or `ruling void ID`.
pub fn ruling(ctx: &Ctx, cmd: RulingCmd) -> Result<()> {
    match (cmd.void, cmd.record) {
        (Some(VoidSub::Void(v)), _) => void(ctx, VoidKind::Ruling, v.id, v.reason, false),
        (None, Some(args)) => super::penalty::ruling(ctx, &args),
        (None, None) => Err(Error::refused("mmjudge ruling TABLE TEXT, or mmjudge ruling void ID")),
    }
}

/// `round extend ...` or `round extend void ID`.
pub fn extend(ctx: &Ctx, cmd: ExtendCmd) -> Result<()> {
    match (cmd.void, cmd.grant) {
        (Some(VoidSub::Void(v)), _) => void(ctx, VoidKind::Extension, v.id, v.reason, false),
        (None, Some(a)) => super::round_clock::extend(ctx, a.table, &a.minutes, &a.reason),
        (None, None) => {
            Err(Error::refused("mmjudge round extend TABLE MINUTES --reason TEXT, or mmjudge round extend void ID"))
        }
    }
}

/// `stall void ID`.
pub fn stall(ctx: &Ctx, cmd: StallCmd) -> Result<()> {
    match cmd {
        StallCmd::Void(v) => void(ctx, VoidKind::Stall, v.id, v.reason, false),
    }
}

/// Voids one record and prints what that changed.
pub fn void(ctx: &Ctx, kind: VoidKind, id: i64, reason: Option<String>, force: bool) -> Result<()> {
    let reason = reason.as_deref().map(|r| text_field("--reason", r)).transpose()?.map(String::from);
    let input = VoidInput { id, reason, force };
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let out = match kind {
        VoidKind::Penalty => ops::void_penalty(&mut store, &actor, input),
        VoidKind::Challenge => ops::void_challenge(&mut store, &actor, input),
        VoidKind::Ruling => ops::void_ruling(&mut store, &actor, input),
        VoidKind::Note => ops::void_note(&mut store, &actor, input),
        VoidKind::Extension => ops::void_extension(&mut store, &actor, input),
        VoidKind::Stall => ops::void_stall(&mut store, &actor, input),
    }?;
    done(ctx.format, &out.summary, void_doc(&out))
}

fn void_doc(o: &VoidOutcome) -> serde_json::Value {
    serde_json::json!({
        "kind": o.kind, "id": o.id, "record": o.record, "round": o.round, "table": o.table,
        "voided": voids::json(Some(&o.voided)), "regraded": o.regraded, "reopened": o.reopened,
        "reinstated": o.reinstated, "later_rounds": o.later_rounds,
    })
}

/// `result clear TABLE [--round N] [--force]`.
pub fn clear(ctx: &Ctx, table: u32, round: Option<u32>, force: bool) -> Result<()> {
    let mut store = ctx.open()?;
    let out = ops::clear_result(&mut store, &ctx.actor()?, ClearInput { table, round, force })?;
    let r = &out.reopened;
    let doc = serde_json::json!({
        "round": r.round, "table": r.table, "match": r.match_id, "was": r.was, "later_rounds": out.later_rounds,
    });
    done(ctx.format, &out.summary, doc)
}

/// The match filter of a listing: a table (in the current round unless --round), else none; and the
/// round filter without a table.
fn filters(conn: &Connection, table: Option<u32>, round: Option<u32>) -> Result<(Option<Seated>, Option<u32>)> {
    match table {
        Some(t) => Ok((Some(Seated::at(conn, t, round)?), None)),
        None => Ok((None, round.map(|r| round_or_current(conn, Some(r))).transpose()?)),
    }
}

/// "void" in a listing's last column, with who and why.
pub fn void_cell(v: Option<&voids::Voided>) -> String {
    match v {
        Some(v) => {
            let why = v.reason.as_deref().map(|r| format!(": {r}")).unwrap_or_default();
            format!("VOID ({} {}{why})", v.judge, hhmm(&v.at))
        }
        None => String::new(),
    }
}

/// `rulings [--table T] [--round N] [--player P]`.
pub fn rulings(ctx: &Ctx, args: &RulingsArgs) -> Result<()> {
    let store = ctx.open()?;
    let conn = store.conn();
    let (seated, round) = filters(conn, args.table, args.round)?;
    let who = args.player.as_deref().map(|p| super::player::resolve(conn, p)).transpose()?;
    let mut rows = match &seated {
        Some(s) => ruling::of_match(conn, s.m.id)?,
        None => ruling::list(conn, who.as_ref().map(|p| p.id))?,
    };
    rows.retain(|r| round.is_none_or(|n| r.round == n));
    if let (Some(_), Some(p)) = (&seated, &who) {
        rows.retain(|_| seated.as_ref().is_some_and(|s| s.seat_of(p.id).is_some()));
    }
    let voided = voids::of_kind(conn, VoidKind::Ruling)?;
    let title = match &seated {
        Some(s) => format!("Rulings at {}", s.label()),
        None => "Rulings".to_string(),
    };
    let mut listing = Listing::new(&["#", "round", "table", "ruling", "judge", "at", "void"]).titled(title);
    let mut doc = Vec::with_capacity(rows.len());
    for r in &rows {
        let v = voided.get(&r.id);
        listing.row(vec![
            r.id.to_string(),
            r.round.to_string(),
            r.table.map(|t| t.to_string()).unwrap_or_default(),
            r.text.clone(),
            r.judge.clone(),
            hhmm(&r.at),
            void_cell(v),
        ]);
        doc.push(serde_json::json!({
            "id": r.id, "round": r.round, "table": r.table, "match": r.match_id, "text": r.text, "judge": r.judge,
            "at": r.at, "voided": voids::json(v),
        }));
    }
    listing.footer.push(count_words(rows.len(), rows.iter().filter(|r| voided.contains_key(&r.id)).count(), "ruling"));
    emit(ctx.format, &listing, &serde_json::json!({ "rulings": doc }))
}

/// `stalls [--table T] [--round N] [--player P]`.
pub fn stalls(ctx: &Ctx, args: &StallsArgs) -> Result<()> {
    let store = ctx.open()?;
    let conn = store.conn();
    let (seated, round) = filters(conn, args.table, args.round)?;
    let who = args.player.as_deref().map(|p| super::player::resolve(conn, p)).transpose()?;
    let match_id: Option<MatchId> = seated.as_ref().map(|s| s.m.id);
    let mut rows = clock::stalls(conn, match_id, who.as_ref().map(|p| p.id))?;
    rows.retain(|s| round.is_none_or(|n| s.round == n));
    let names = super::player::names_by_id(conn)?;
    let name = |id: PlayerId| names.get(&id).cloned().unwrap_or_else(|| format!("#{}", id.0));
    let voided = voids::of_kind(conn, VoidKind::Stall)?;
    let title = match &seated {
        Some(s) => format!("Stalls logged at {}", s.label()),
        None => "Stalls logged on the live clock".to_string(),
    };
    let mut listing = Listing::new(&["#", "round", "table", "player", "at", "void"]).titled(title);
    let mut doc = Vec::with_capacity(rows.len());
    for s in &rows {
        let v = voided.get(&s.id);
        listing.row(vec![
            s.id.to_string(),
            s.round.to_string(),
            s.table.map(|t| t.to_string()).unwrap_or_default(),
            name(s.player_id),
            hhmm(&s.at),
            void_cell(v),
        ]);
        doc.push(serde_json::json!({
            "id": s.id, "round": s.round, "table": s.table, "match": s.match_id, "player": name(s.player_id),
            "at": s.at, "voided": voids::json(v),
        }));
    }
    listing.footer.push(count_words(rows.len(), rows.iter().filter(|s| voided.contains_key(&s.id)).count(), "stall"));
    emit(ctx.format, &listing, &serde_json::json!({ "stalls": doc }))
}

/// "3 rulings (1 void)".
pub fn count_words(n: usize, void: usize, noun: &str) -> String {
    let mut s = format!("{n} {noun}{}", if n == 1 { "" } else { "s" });
    if void > 0 {
        s.push_str(&format!(" ({void} void)"));
    }
    s
}
