//! `report libraries` and `report players`: duplicate scoring of the fixed libraries (see
//! [`crate::ops::reports`]).

use super::Ctx;
use crate::cli::standings::ReportCmd;
use crate::error::Result;
use crate::ops::reports::{self, LibraryReport, PlayerReport};
use crate::render::standings::{par, pct};
use crate::render::{Format, Listing, emit};
use std::collections::HashMap;

/// Runs a `report` verb.
pub fn run(ctx: &Ctx, cmd: ReportCmd) -> Result<()> {
    let store = ctx.open()?;
    let snapshot = store.snapshot()?;
    match cmd {
        ReportCmd::Libraries { html, force } => {
            let doc = reports::libraries(&snapshot)?;
            if let Some(file) = &html {
                let print = crate::ops::event::print_head(&snapshot)?;
                let event = crate::store::event::values(&snapshot)?.name().to_string();
                let page =
                    crate::render::reports::LibraryReportPage::new(&doc, &event, print.line(None, "library report"))?;
                crate::output::write(file, crate::output::Kind::LibraryReport, force, page.render()?.as_bytes())?;
            }
            emit(ctx.format, &libraries_listing(&doc), &doc)?;
            if let (Some(file), Format::Human) = (&html, ctx.format) {
                println!("wrote {} (each library against par, with its numbers; print it or open it)", file.display());
            }
            Ok(())
        }
        ReportCmd::Players { name } => {
            let doc = reports::players(&snapshot, name.as_deref())?;
            let listing = match (name, ctx.format) {
                (None, Format::Human) => players_listing(&doc),
                _ => games_listing(&doc),
            };
            emit(ctx.format, &listing, &doc)
        }
    }
}

fn libraries_listing(doc: &LibraryReport) -> Listing {
    let mut listing = Listing::new(&["table", "A", "B", "A-B-draws", "A win rate", "B win rate", "p-value", "flag"])
        .titled("Libraries: A against B at each table");
    let rate: HashMap<&str, f64> = doc.libraries.iter().map(|l| (l.library.as_str(), l.record.win_rate)).collect();
    for t in &doc.tables {
        let r = &t.record;
        listing.row(vec![
            r.table.to_string(),
            t.library_a.clone(),
            t.library_b.clone(),
            format!("{}-{}-{}", r.a_wins, r.b_wins, r.draws),
            pct(rate.get(t.library_a.as_str()).copied().unwrap_or(0.0)),
            pct(rate.get(t.library_b.as_str()).copied().unwrap_or(0.0)),
            pct(r.p_value),
            if r.lopsided { "lopsided".into() } else { String::new() },
        ]);
    }
    listing.footer.push(format!(
        "{}; p-value: two-sided binomial test of the decided games (draws left out); lopsided below {} (6-0 is p = 0.031)",
        crate::domain::words::count(doc.games, "game"),
        doc.alpha
    ));
    if doc.left_out > 0 {
        listing.footer.push(format!(
            "{} left out: not played with one table's two fixed libraries",
            crate::domain::words::count(doc.left_out, "game")
        ));
    }
    listing.footer.extend(reports::not_games_words(&doc.not_games_by_reason));
    listing
}

fn players_listing(doc: &PlayerReport) -> Listing {
    let mut listing = Listing::new(&["player", "record", "games with par", "above par", "matchpoint%"])
        .titled("Players against par (result minus the other users' win rate of the same library)");
    for p in &doc.players {
        listing.row(vec![
            p.name.clone(),
            format!("{}-{}-{}", p.wins, p.losses, p.draws),
            p.games.iter().filter(|g| g.game.par.is_some()).count().to_string(),
            par(p.above_par),
            p.matchpoint_pct.map(pct).unwrap_or_default(),
        ]);
    }
    listing.footer.push("one player's games with their libraries and par: `mmjudge report players NAME`".into());
    listing.footer.extend(reports::not_games_words(&doc.not_games_by_reason));
    listing
}

fn games_listing(doc: &PlayerReport) -> Listing {
    let mut listing = Listing::new(&["player", "round", "library", "opponent", "result", "par", "above par"]);
    if let [one] = doc.players.as_slice() {
        listing.title = Some(format!("{}: {} above par", one.name, par(one.above_par)));
    }
    for p in &doc.players {
        for g in &p.games {
            let result = match g.game.result {
                r if r >= 1.0 => "won",
                r if r <= 0.0 => "lost",
                _ => "drew",
            };
            listing.row(vec![
                p.name.clone(),
                g.game.round.to_string(),
                g.library.clone(),
                g.opponent.clone(),
                result.into(),
                g.game.par.map(pct).unwrap_or_else(|| "-".into()),
                g.game.par.map(|x| par(g.game.result - x)).unwrap_or_else(|| "-".into()),
            ]);
        }
    }
    listing
        .footer
        .push("par: the mean result of the other players who used that library; - when nobody else has".into());
    listing.footer.extend(reports::not_games_words(&doc.not_games_by_reason));
    listing
}
