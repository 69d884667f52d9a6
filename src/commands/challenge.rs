//! `challenge` and `challenges`: challenges heard by a judge, the match lost to the challenge limit, the
//! judges' watch report.

use super::Ctx;
use crate::cli::challenge::{ChallengeArgs, ChallengeCmd, ChallengeSub, ChallengesArgs};
use crate::domain::challenge::Ruling;
use crate::error::{Error, Result};
use crate::ops::corrections::{self, VoidInput};
use crate::ops::table::RecordFilter;
use crate::ops::table::hhmm;
use crate::ops::table::records::challenge::{ChallengeInput, WatchReport, record_challenge};
use crate::ops::table::records::evidence::{EvidenceInput, attach_evidence, evidence_words};
use crate::render::records::{count_words, void_cell};
use crate::render::{Listing, done_with, emit};
use crate::store::voids::VoidKind;

/// `challenge ...` or `challenge void ID`.
pub fn run(ctx: &Ctx, cmd: ChallengeCmd) -> Result<()> {
    match (cmd.void, cmd.record) {
        (Some(ChallengeSub::Evidence(e)), _) => {
            let mut store = ctx.open()?;
            let input = EvidenceInput { challenge: e.challenge, notes: e.notes };
            let out = attach_evidence(&mut store, &ctx.actor()?, input)?;
            done_with(ctx.format, &out.summary, &out)
        }
        (Some(ChallengeSub::Void(v)), _) => {
            let mut store = ctx.open()?;
            let input = VoidInput { id: v.id, reason: v.reason, force: v.force };
            let out = corrections::void(&mut store, &ctx.actor()?, VoidKind::Challenge, input)?;
            done_with(ctx.format, &out.summary, &out)
        }
        (None, Some(args)) => record(ctx, &args),
        (None, None) => Err(Error::bad_input(
            "mmjudge challenge TABLE --by PLAYER ..., mmjudge challenge void ID, or mmjudge challenge evidence ID NOTE...",
        )),
    }
}

/// Records a challenge; a player reaching the event's challenge limit in the match loses it at once.
fn record(ctx: &Ctx, args: &ChallengeArgs) -> Result<()> {
    let ruling = Ruling::parse(&args.ruling).ok_or_else(|| Error::bad_input("--ruling is upheld or denied"))?;
    let input = ChallengeInput {
        table: args.table,
        round: args.round,
        by: args.by.clone(),
        about: args.about.clone(),
        by_says: args.by_says.clone(),
        other_says: args.other_says.clone(),
        ruling,
        evidence: args.evidence.clone(),
        force: args.force,
        at: args.at.as_deref().map(|a| ctx.at(Some(a))).transpose()?,
    };
    let mut store = ctx.open()?;
    let out = record_challenge(&mut store, &ctx.actor()?, input)?;
    done_with(ctx.format, &out.summary, &out)
}

/// Lists challenges, or prints the watch report.
pub fn list(ctx: &Ctx, args: &ChallengesArgs) -> Result<()> {
    let store = ctx.open()?;
    if args.watch {
        return watch(ctx, &crate::ops::views::challenge_watch(&store)?);
    }
    let filter = RecordFilter { table: args.table, round: args.round, player: args.player.clone() };
    let (list, evidence) = crate::ops::views::challenges(&store, &filter, args.evidence)?;
    let title = match &list.at {
        Some(label) => format!("Challenges at {label}"),
        None => "Challenges".to_string(),
    };
    let mut listing =
        Listing::new(&["#", "round", "table", "by", "about", "ruling", "lost by", "judge", "at", "void"]).titled(title);
    for c in &list.challenges {
        listing.row(vec![
            c.id.to_string(),
            c.round.to_string(),
            c.table.map(|t| t.to_string()).unwrap_or_default(),
            c.by.clone(),
            c.about.clone(),
            c.ruling.clone(),
            c.loser.clone(),
            c.judge.clone(),
            hhmm(&c.at),
            void_cell(c.voided.as_ref()),
        ]);
    }
    let void = list.challenges.iter().filter(|c| c.voided.is_some()).count();
    listing.footer.push(count_words(list.challenges.len(), void, "challenge"));
    if !args.evidence {
        return emit(ctx.format, &listing, &list);
    }
    // --evidence: each cited note in full (a line per note after the table; in JSON `evidence_notes`).
    let mut doc = serde_json::to_value(&list).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?;
    let mut rows = Vec::with_capacity(list.challenges.len());
    for (c, cited) in list.challenges.iter().zip(evidence) {
        for e in &cited {
            let text = e.text.as_deref().map(|t| format!(" — {}", t.replace('\n', " "))).unwrap_or_default();
            listing.footer.push(format!("challenge #{} evidence: {}{text}", c.id, evidence_words(e)));
        }
        rows.push(cited);
    }
    if let Some(items) = doc["challenges"].as_array_mut() {
        for (item, cited) in items.iter_mut().zip(rows) {
            item["evidence_notes"] =
                serde_json::to_value(cited).map_err(|e| Error::refused(format!("cannot write JSON: {e}")))?;
        }
    }
    emit(ctx.format, &listing, &doc)
}

fn watch(ctx: &Ctx, report: &WatchReport) -> Result<()> {
    let mut listing = Listing::new(&["player", "made", "denied", "denied %", "lost", "flag"])
        .titled(format!("Challenge watch: {} heard", crate::domain::words::count(report.heard, "challenge")));
    for l in &report.players {
        let rate = if l.made == 0 { String::new() } else { format!("{:.0}%", l.denied_rate * 100.0) };
        let flag = if l.flagged { "mostly denied" } else { "" };
        listing.row(vec![
            l.player.clone(),
            l.made.to_string(),
            l.denied.to_string(),
            rate,
            l.lost.to_string(),
            flag.into(),
        ]);
    }
    let flagged = report.players.iter().filter(|l| l.flagged).count();
    listing.footer.push(format!(
        "{flagged} flagged (possible stalling): {}; lost counts own challenges denied plus opponents' upheld",
        report.flag_rule
    ));
    emit(ctx.format, &listing, report)
}
