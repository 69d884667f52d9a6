//! `challenge` and `challenges`: challenges heard by a judge, the match lost to the challenge limit, the
//! judges' watch report.

use super::Ctx;
use super::table::{Seated, at_or_now, hhmm, round_or_current, text_field};
use crate::cli::challenge::{ChallengeArgs, ChallengesArgs};
use crate::domain::challenge::{FLAG_WORDS, Heard, Ruling, loses_match, watch};
use crate::domain::result::Reason;
use crate::error::{Error, Result};
use crate::render::{Listing, done, emit};
use crate::store::challenge::{self, NewChallenge};
use crate::store::voids::VoidKind;
use crate::store::{Change, NoteId, PlayerId, event};
use rusqlite::Connection;

/// Records a challenge; a player reaching the event's challenge limit in the match loses it at once.
pub fn run(ctx: &Ctx, args: &ChallengeArgs) -> Result<()> {
    let ruling = Ruling::parse(&args.ruling).ok_or_else(|| Error::refused("--ruling is upheld or denied"))?;
    let about = text_field("--about (the point of contention)", &args.about)?;
    let by_says = args.by_says.as_deref().map(|t| text_field("--by-says", t)).transpose()?;
    let other_says = args.other_says.as_deref().map(|t| text_field("--other-says", t)).transpose()?;
    let at = at_or_now(ctx, args.at.as_deref())?;
    let mut store = ctx.open()?;
    let (summary, doc) = store.write(&ctx.actor()?, |tx| {
        let mut seated = Seated::at(tx, args.table, args.round)?;
        seated.not_before_start(tx, args.at.as_deref(), &at)?;
        let (by_seat, by) = seated.resolve_player(tx, &args.by).map(|(s, p)| (s, p.clone()))?;
        if seated.m.outcome.is_some() && !args.force {
            return Err(Error::refused(format!(
                "{} already has a result ({}): a finished match takes no more challenges; add --force to record \
                 this one anyway (the result stays)",
                seated.label(),
                seated.describe_recorded()
            )));
        }
        let evidence = check_evidence(tx, &seated, &args.evidence)?;
        let loser_seat = if ruling.challenger_lost() { by_seat } else { by_seat.other() };
        let (loser, other) = (seated.player(loser_seat).clone(), seated.player(by_seat.other()).clone());
        let new = NewChallenge {
            match_id: seated.m.id,
            by: by.id,
            about,
            by_says,
            other_says,
            ruling: ruling.slug(),
            loser: loser.id,
            judge: &ctx.judge,
            at: &at,
        };
        let id = challenge::insert(tx, &new, &evidence)?;
        let lost = challenge::lost_in_match(tx, seated.m.id, loser.id)?;
        let limit = u32::try_from(event::values(tx)?.number("challenge-limit")).unwrap_or(2);
        let mut summary = format!(
            "challenge #{id} at {}: {} challenged {} about \"{about}\": {}, so {} lost it ({lost} lost in this match; \
             the limit is {limit})",
            seated.label(),
            by.name,
            other.name,
            ruling.slug(),
            loser.name
        );
        let mut ended = false;
        if loses_match(lost, limit) {
            if seated.m.outcome.is_none() {
                let note = format!("{} lost {}", loser.name, crate::domain::words::count(lost, "challenge"));
                seated.record_loss(tx, loser_seat, Reason::Challenges, &note, &at)?;
                ended = true;
                summary.push_str(&format!("; {} loses the match: {}", loser.name, seated.describe_recorded()));
            } else {
                summary.push_str(&format!(
                    "; the match already has a result ({}), not changed: use `mmjudge result fix {}` if needed",
                    seated.describe_recorded(),
                    seated.table()
                ));
            }
        }
        let doc = serde_json::json!({
            "challenge": id, "round": seated.m.round, "table": seated.table(), "by": by.name, "other": other.name,
            "ruling": ruling.slug(), "loser": loser.name, "lost_in_match": lost, "limit": limit,
            "match_ended": ended, "result": seated.result_json(),
        });
        Ok(((summary.clone(), doc), Change::about(summary, [seated.a.id, seated.b.id])))
    })?;
    done(ctx.format, &summary, doc)
}

/// The evidence notes, each of which must be a note of this match.
fn check_evidence(conn: &Connection, seated: &Seated, ids: &[i64]) -> Result<Vec<NoteId>> {
    let mut out = Vec::with_capacity(ids.len());
    for &id in ids {
        let note = NoteId(id);
        match challenge::note_match(conn, note)? {
            Some(m) if m == seated.m.id && crate::store::voids::get(conn, VoidKind::Note, id)?.is_some() => {
                return Err(Error::refused(format!(
                    "note {id} was voided: it is no evidence; see the notes that count with `mmjudge notes {}`",
                    seated.table()
                )));
            }
            Some(m) if m == seated.m.id => out.push(note),
            _ => {
                return Err(Error::refused(format!(
                    "note {id} is not a note of {}: see the note ids with `mmjudge notes {}`",
                    seated.label(),
                    seated.table()
                )));
            }
        }
    }
    Ok(out)
}

/// Lists challenges, or prints the watch report.
pub fn list(ctx: &Ctx, args: &ChallengesArgs) -> Result<()> {
    let store = ctx.open()?;
    let conn = store.conn();
    let names = super::player::names_by_id(conn)?;
    let name = |id: PlayerId| names.get(&id).cloned().unwrap_or_else(|| format!("#{}", id.0));
    if args.watch {
        return watch_report(ctx, conn, &name);
    }
    let (match_id, title) = match args.table {
        Some(t) => {
            let s = Seated::at(conn, t, args.round)?;
            (Some(s.m.id), format!("Challenges at {}", s.label()))
        }
        None => (None, "Challenges".to_string()),
    };
    let round = match (args.table, args.round) {
        (None, Some(_)) => Some(round_or_current(conn, args.round)?),
        _ => None,
    };
    let who = args.player.as_deref().map(|p| super::player::resolve(conn, p)).transpose()?;
    let mut rows = challenge::list(conn, match_id, who.as_ref().map(|p| p.id))?;
    rows.retain(|c| round.is_none_or(|r| c.round == r));
    let mut listing =
        Listing::new(&["#", "round", "table", "by", "about", "ruling", "lost by", "judge", "at", "void"]).titled(title);
    let voided = crate::store::voids::of_kind(conn, crate::store::voids::VoidKind::Challenge)?;
    let mut evidence = challenge::all_evidence(conn)?;
    let mut doc = Vec::new();
    for c in &rows {
        let evidence = evidence.remove(&c.id).unwrap_or_default();
        let v = voided.get(&c.id);
        listing.row(vec![
            c.id.to_string(),
            c.round.to_string(),
            c.table.map(|t| t.to_string()).unwrap_or_default(),
            name(c.by),
            c.about.clone(),
            c.ruling.clone(),
            name(c.loser),
            c.judge.clone(),
            hhmm(&c.at),
            super::corrections::void_cell(v),
        ]);
        doc.push(serde_json::json!({
            "id": c.id, "round": c.round, "table": c.table, "match": c.match_id, "by": name(c.by),
            "about": c.about, "by_says": c.by_says, "other_says": c.other_says, "ruling": c.ruling,
            "loser": name(c.loser), "judge": c.judge, "at": c.at, "evidence": evidence,
            "voided": crate::store::voids::json(v),
        }));
    }
    let void = rows.iter().filter(|c| voided.contains_key(&c.id)).count();
    listing.footer.push(super::corrections::count_words(rows.len(), void, "challenge"));
    emit(ctx.format, &listing, &serde_json::json!({ "challenges": doc }))
}

fn watch_report(ctx: &Ctx, conn: &Connection, name: &dyn Fn(PlayerId) -> String) -> Result<()> {
    let heard: Vec<Heard<PlayerId>> = challenge::all_outcomes(conn)?
        .into_iter()
        .map(|(by, loser, ruling)| Heard { by, loser, denied: ruling == "denied" })
        .collect();
    let mut lines: Vec<(PlayerId, _)> = watch(&heard).into_iter().collect();
    lines.sort_by(|(pa, a), (pb, b)| {
        b.flagged.cmp(&a.flagged).then(b.denied.cmp(&a.denied)).then(b.made.cmp(&a.made)).then(pa.cmp(pb))
    });
    let mut listing = Listing::new(&["player", "made", "denied", "denied %", "lost", "flag"])
        .titled(format!("Challenge watch: {} heard", crate::domain::words::count(heard.len(), "challenge")));
    let mut doc = Vec::new();
    for (p, l) in &lines {
        let rate = if l.made == 0 { String::new() } else { format!("{:.0}%", l.denied_rate() * 100.0) };
        let flag = if l.flagged { "mostly denied" } else { "" };
        listing.row(vec![name(*p), l.made.to_string(), l.denied.to_string(), rate, l.lost.to_string(), flag.into()]);
        doc.push(serde_json::json!({
            "player": name(*p), "made": l.made, "denied": l.denied, "denied_rate": l.denied_rate(),
            "lost": l.lost, "flagged": l.flagged,
        }));
    }
    let flagged = lines.iter().filter(|(_, l)| l.flagged).count();
    listing.footer.push(format!(
        "{flagged} flagged (possible stalling): {FLAG_WORDS}; lost counts own challenges denied plus opponents' upheld"
    ));
    emit(ctx.format, &listing, &serde_json::json!({ "flag_rule": FLAG_WORDS, "players": doc }))
}
