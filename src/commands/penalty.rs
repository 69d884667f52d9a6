//! `penalty`, `penalties` and `ruling`: what judges rule at a table.

use super::Ctx;
use super::table::{Seated, at_or_now, hhmm, round_or_current, text_field};
use crate::cli::penalty::{PenaltiesArgs, PenaltyArgs, RulingArgs};
use crate::domain::penalty::{Infraction, PenaltyKind, effective_penalty, ends_match};
use crate::domain::result::Reason;
use crate::error::{Error, Result};
use crate::render::{Listing, done, emit};
use crate::store::penalty::{self, NewPenalty};
use crate::store::{Change, PlayerId, matches, player, round, ruling};
use rusqlite::Connection;

/// Records a penalty, upgraded per the guide; a Game Loss, Match Loss or Disqualification ends the
/// player's match, and a Disqualification removes the player from the standings and pairings.
pub fn run(ctx: &Ctx, args: &PenaltyArgs) -> Result<()> {
    let infraction = Infraction::parse(&args.infraction)
        .map_err(|e| Error::refused(format!("{e} (`mmjudge penalty --help` lists every infraction)")))?;
    let chosen: Option<PenaltyKind> =
        args.penalty.as_deref().map(str::parse).transpose().map_err(|e| Error::refused(format!("{e}")))?;
    let note = args.note.as_deref().map(|n| text_field("--note", n)).transpose()?;
    let at = at_or_now(ctx, args.at.as_deref())?;
    let mut store = ctx.open()?;
    let (summary, doc) = store.write(&ctx.actor()?, |tx| {
        let (p, mut seated) = player_and_match(tx, &args.player, args.table, args.round)?;
        if let Some(s) = &seated {
            s.not_before_start(tx, args.at.as_deref(), &at)?;
        } else if args.at.is_some() {
            super::clock::check_event_moment(tx, crate::time::unstamp(&at)?)?;
        }
        let prior = penalty::prior_warnings(tx, p.id, infraction.slug())?;
        let (kind, upgraded) = effective_penalty(infraction, prior, chosen);
        if kind == PenaltyKind::Disqualification
            && let Some((id, when)) = penalty::disqualification(tx, p.id)?
        {
            return Err(Error::refused(format!(
                "{} is already disqualified (penalty #{id} at {})",
                p.name,
                hhmm(&when)
            )));
        }
        let id = penalty::insert(
            tx,
            &NewPenalty {
                player: p.id,
                match_id: seated.as_ref().map(|s| s.m.id),
                infraction: infraction.slug(),
                penalty: kind.slug(),
                upgraded: upgraded.as_deref(),
                note,
                judge: &ctx.judge,
                at: &at,
            },
        )?;
        let mut summary = format!("penalty #{id}: {} for {} to {}", kind.name(), infraction.name(), p.name);
        if let Some(u) = &upgraded {
            summary.push_str(&format!(" ({u})"));
        }
        if let Some(s) = &seated {
            summary.push_str(&format!(" at {}", s.label()));
        }
        let mut ended = false;
        if ends_match(kind)
            && let Some(s) = seated.as_mut()
        {
            ended = end_match(tx, s, &p, kind, infraction, &at, &mut summary)?;
        }
        if kind == PenaltyKind::Disqualification {
            player::set_disqualified(tx, p.id)?;
            summary.push_str(&format!("; {} is disqualified: out of the standings and further pairings", p.name));
        }
        let doc = serde_json::json!({
            "penalty": id, "player": p.name, "infraction": infraction.slug(), "issued": kind.slug(),
            "upgraded": upgraded, "round": seated.as_ref().map(|s| s.m.round),
            "table": seated.as_ref().map(Seated::table), "match_ended": ended,
            "result": seated.as_ref().map(Seated::result_json),
            "disqualified": kind == PenaltyKind::Disqualification,
        });
        let mut players = vec![p.id];
        players.extend(seated.as_ref().and_then(|s| s.m.opponent(p.id)));
        Ok(((summary.clone(), doc), Change::about(summary, players)))
    })?;
    done(ctx.format, &summary, doc)
}

/// The penalised player and the match the penalty is given at: the table given (the player must sit
/// there; a prefix is tried against the two players first), else the player's match in the round (none
/// for a bye or before any round is paired).
fn player_and_match(
    conn: &Connection,
    query: &str,
    table: Option<u32>,
    round: Option<u32>,
) -> Result<(player::Player, Option<Seated>)> {
    if let Some(t) = table {
        let seated = Seated::at(conn, t, round)?;
        let p = seated.resolve_player(conn, query)?.1.clone();
        return Ok((p, Some(seated)));
    }
    let p = super::player::resolve(conn, query)?;
    if round.is_none() && round::current(conn)? == 0 {
        return Ok((p, None));
    }
    let n = round_or_current(conn, round)?;
    let seated = match matches::of_player_in_round(conn, p.id, n)? {
        Some(m) if !m.is_bye() => Some(Seated::load(conn, m)?),
        _ => None,
    };
    Ok((p, seated))
}

/// Ends the match for a Game Loss, Match Loss or Disqualification (the opponent wins by `penalty`);
/// returns whether it did (a match with a result is left as it is, and the summary says so).
fn end_match(
    conn: &Connection,
    s: &mut Seated,
    p: &player::Player,
    kind: PenaltyKind,
    infraction: Infraction,
    at: &str,
    summary: &mut String,
) -> Result<bool> {
    let Some(seat) = s.seat_of(p.id) else { return Ok(false) };
    if s.m.outcome.is_some() {
        summary.push_str(&format!(
            "; the match already has a result ({}), not changed: use `mmjudge result fix {} --round {}` if needed",
            s.describe_recorded(),
            s.table(),
            s.m.round
        ));
        return Ok(false);
    }
    let note = format!("{} to {} for {}", kind.name(), p.name, infraction.name());
    s.record_loss(conn, seat, Reason::Penalty, &note, at)?;
    summary.push_str(&format!("; the match is over: {}", s.describe_recorded()));
    Ok(true)
}

/// Lists penalties, optionally of one player.
pub fn list(ctx: &Ctx, args: &PenaltiesArgs) -> Result<()> {
    let store = ctx.open()?;
    let conn = store.conn();
    let who = args.player.as_deref().map(|p| super::player::resolve(conn, p)).transpose()?;
    let names = super::player::names_by_id(conn)?;
    let name = |id: PlayerId| names.get(&id).cloned().unwrap_or_else(|| format!("#{}", id.0));
    let rows = penalty::list(conn, who.as_ref().map(|p| p.id))?;
    let title = match &who {
        Some(p) => format!("Penalties of {}", p.name),
        None => "Penalties".into(),
    };
    let mut listing =
        Listing::new(&["#", "player", "infraction", "penalty", "round", "table", "why", "judge", "at", "void"])
            .titled(title);
    let voided = crate::store::voids::of_kind(conn, crate::store::voids::VoidKind::Penalty)?;
    let mut doc = Vec::new();
    for p in &rows {
        let v = voided.get(&p.id);
        let why = [p.upgraded.clone(), p.note.clone()].into_iter().flatten().collect::<Vec<_>>().join("; ");
        listing.row(vec![
            p.id.to_string(),
            name(p.player),
            p.infraction.clone(),
            p.penalty.clone(),
            p.round.map(|r| r.to_string()).unwrap_or_default(),
            p.table.map(|t| t.to_string()).unwrap_or_default(),
            why,
            p.judge.clone(),
            hhmm(&p.at),
            super::corrections::void_cell(v),
        ]);
        doc.push(serde_json::json!({
            "id": p.id, "player": name(p.player), "infraction": p.infraction, "penalty": p.penalty,
            "upgraded": p.upgraded, "note": p.note, "round": p.round, "table": p.table, "match": p.match_id,
            "judge": p.judge, "at": p.at, "voided": crate::store::voids::json(v),
        }));
    }
    let void = rows.iter().filter(|p| voided.contains_key(&p.id)).count();
    let void = if void > 0 { format!(" ({void} void)") } else { String::new() };
    listing.footer.push(format!("{} penalt{}{void}", rows.len(), if rows.len() == 1 { "y" } else { "ies" }));
    emit(ctx.format, &listing, &serde_json::json!({ "penalties": doc }))
}

/// Logs a ruling at a table.
pub fn ruling(ctx: &Ctx, args: &RulingArgs) -> Result<()> {
    let text = text_field("the ruling", &args.text)?;
    let at = at_or_now(ctx, args.at.as_deref())?;
    let mut store = ctx.open()?;
    let (summary, doc) = store.write(&ctx.actor()?, |tx| {
        let seated = Seated::at(tx, args.table, args.round)?;
        seated.not_before_start(tx, args.at.as_deref(), &at)?;
        let id = ruling::insert(tx, seated.m.id, text, &ctx.judge, &at)?;
        let summary = format!("ruling #{id} at {}: {text}", seated.label());
        let doc = serde_json::json!({ "ruling": id, "round": seated.m.round, "table": seated.table() });
        Ok(((summary.clone(), doc), Change::about(summary, [seated.a.id, seated.b.id])))
    })?;
    done(ctx.format, &summary, doc)
}
