//! Decision times drawn: a player's decisions, each as a bar against its own recorded limit (the slow-play page
//! `GET /judge/decisions`, `decisions --html FILE`, and the judges' table page), with the page's ranking of the
//! players by overruns and median.

use crate::domain::clock::seconds_text;
use crate::error::{Error, Result};
use crate::ops::table::clocks::clock::when_text;
use crate::ops::table::clocks::decisions::{DecisionLine, DecisionStats, PlayerLine, SlowPlay};
use crate::render::chart::{Scale, Tick, nice_ticks};
use askama::Template;

const LEFT: f64 = 48.0;
const RIGHT: f64 = 352.0;
const TOP: f64 = 36.0;
const PLOT: f64 = 130.0;

/// A player's decisions as bars against their own limits (at most [`DecisionChart::MOST`] marks).
#[derive(Debug, Clone, PartialEq, Template)]
#[template(path = "chart/decisions.html")]
pub struct DecisionChart {
    title: String,
    desc: String,
    axis: String,
    marks: Vec<Mark>,
    ticks: Vec<Tick>,
    /// Where each round's decisions begin: (x, "round 2").
    rounds: Vec<(f64, String)>,
    bar: f64,
    left: f64,
    right: f64,
    plot_top: f64,
    plot_bottom: f64,
    legend_y: f64,
    height: f64,
    /// A decision claimed shorter is drawn: the legend says how.
    claimed: bool,
    caption: Option<String>,
}

/// One bar as drawn.
#[derive(Debug, Clone, PartialEq)]
struct Mark {
    duration_ms: i64,
    limit_ms: i64,
    overrun_ms: i64,
    claimed_ms: Option<i64>,
    over: bool,
    x: f64,
    y: f64,
    h: f64,
    limit_y: f64,
    claimed_y: Option<f64>,
    words: String,
}

/// A decision in words: "round 1, table 1, 09:09:00: 50.0 s of 45.0 s, over by 5.0 s".
pub fn decision_words(d: &DecisionLine) -> String {
    let table = d.table.map_or_else(String::new, |t| format!(", table {t}"));
    let over = if d.overrun_ms > 0 { format!(", over by {}", seconds_text(d.overrun_ms)) } else { String::new() };
    let claimed = match d.claimed_ms {
        Some(c) => format!(" (as the server saw it; claimed shorter: {} recorded)", seconds_text(c)),
        None => String::new(),
    };
    format!(
        "round {}{table}, {}: {} of {}{over}{claimed}",
        d.round,
        when_text(&d.started_at),
        seconds_text(d.duration_ms),
        seconds_text(d.limit_ms)
    )
}

impl DecisionChart {
    /// The most bars drawn: past it, each bar stands for the decision furthest over its limit among a run of
    /// decisions in a row.
    pub const MOST: usize = 64;

    /// The chart of `player`'s decisions `ds` (oldest first), titled `title`.
    pub fn new(title: &str, player: &str, ds: &[DecisionLine]) -> DecisionChart {
        let per = ds.len().div_ceil(Self::MOST).max(1);
        let kept: Vec<&DecisionLine> = ds
            .chunks(per)
            .filter_map(|run| run.iter().max_by_key(|d| (d.duration_ms - d.limit_ms, d.duration_ms)))
            .collect();
        let top_ms = kept.iter().map(|d| d.duration_ms.max(d.limit_ms)).max().unwrap_or(0).max(1000) as f64;
        let mut steps = nice_ticks(0.0, top_ms / 1000.0 * 1.05, 4);
        let step = if steps.len() > 1 { steps[1] - steps[0] } else { 1.0 };
        if let Some(last) = steps.last().copied()
            && last < top_ms / 1000.0 * 1.05
        {
            steps.push(last + step);
        }
        let top_s = steps.last().copied().unwrap_or(1.0);
        let y = Scale::new(0.0, top_s, TOP + PLOT, TOP);
        let slot = (RIGHT - LEFT) / kept.len().max(1) as f64;
        let bar = ((slot * 0.6).min(14.0) * 10.0).round() / 10.0;
        let mut rounds = Vec::new();
        let mut marks = Vec::new();
        for (i, d) in kept.iter().enumerate() {
            let x = ((LEFT + slot * i as f64 + (slot - bar) / 2.0) * 10.0).round() / 10.0;
            if rounds.last().is_none_or(|(_, r): &(f64, u32)| *r != d.round) {
                rounds.push((((LEFT + slot * i as f64) * 10.0).round() / 10.0, d.round));
            }
            let top = y.at(d.duration_ms as f64 / 1000.0);
            marks.push(Mark {
                duration_ms: d.duration_ms,
                limit_ms: d.limit_ms,
                overrun_ms: d.overrun_ms,
                claimed_ms: d.claimed_ms,
                over: d.overrun_ms > 0,
                x,
                y: top,
                h: ((TOP + PLOT - top) * 10.0).round() / 10.0,
                limit_y: y.at(d.limit_ms as f64 / 1000.0),
                claimed_y: d.claimed_ms.map(|c| y.at(c as f64 / 1000.0)),
                words: decision_words(d),
            });
        }
        let overs = ds.iter().filter(|d| d.overrun_ms > 0).count();
        let desc = format!(
            "{player}'s {} in the order taken, each a bar as long as the decision beside a dashed mark at its own \
             limit: {} over {}.",
            crate::domain::words::count(ds.len() as i64, "decision"),
            overs,
            if overs == 1 { "its limit" } else { "their limits" }
        );
        let caption = (per > 1).then(|| {
            format!(
                "Each bar is the decision furthest over its limit among {per} in a row ({} in all); every decision \
                 is in the numbers.",
                ds.len()
            )
        });
        DecisionChart {
            title: title.to_string(),
            desc,
            axis: "decisions, in the order taken".into(),
            ticks: steps.iter().map(|s| Tick { at: y.at(*s), label: format!("{s} s") }).collect(),
            rounds: rounds.into_iter().map(|(x, r)| (x, format!("round {r}"))).collect(),
            claimed: marks.iter().any(|m| m.claimed_ms.is_some()),
            marks,
            bar,
            left: LEFT,
            right: RIGHT,
            plot_top: TOP,
            plot_bottom: TOP + PLOT,
            legend_y: TOP + PLOT + 34.0,
            height: TOP + PLOT + 56.0,
            caption,
        }
    }

    /// The chart as HTML (an SVG in a figure).
    pub fn render(&self) -> Result<String> {
        Template::render(self).map_err(|e| Error::refused(format!("cannot draw the decisions chart: {e}")))
    }
}

/// A player's line of the ranking, in words.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RankRow {
    /// Their place in the ranking (1 = most overruns).
    pub rank: usize,
    /// The player.
    pub player: String,
    /// Finished decisions.
    pub count: usize,
    /// Median length ("31.0 s", "-").
    pub median: String,
    /// Longest ("52.3 s", "-").
    pub longest: String,
    /// Overruns.
    pub overruns: usize,
    /// Overruns added up ("7.3 s").
    pub over_total: String,
    /// Stalls logged.
    pub stalls: i64,
}

/// One charted player: their line, their chart, and their decisions as numbers.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Charted {
    /// Their line.
    pub row: RankRow,
    /// The chart (HTML); empty without a decision.
    pub chart: String,
    /// Their decisions: (round, table, started, took, limit, over, claimed).
    pub numbers: Vec<[String; 7]>,
}

/// The slow-play page's body (the web page and `decisions --html FILE` both draw it).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SlowPlayView {
    /// The ranking's first lines (at most [`SlowPlayView::RANKED`]).
    pub ranked: Vec<RankRow>,
    /// Timed players beyond the ranking's lines.
    pub more: usize,
    /// The players charted: the ranking's, or the player found.
    pub charted: Vec<Charted>,
    /// The player asked for, found.
    pub found: Option<String>,
    /// Decisions still running (not counted).
    pub running: usize,
}

fn opt_secs(ms: Option<i64>) -> String {
    ms.map_or_else(|| "-".into(), seconds_text)
}

fn rank_row(rank: usize, l: &PlayerLine) -> RankRow {
    RankRow {
        rank,
        player: l.player.clone(),
        count: l.summary.count,
        median: opt_secs(l.summary.median_ms),
        longest: opt_secs(l.summary.longest_ms),
        overruns: l.summary.overruns,
        over_total: seconds_text(l.summary.overrun_total_ms),
        stalls: l.stalls,
    }
}

/// A player's decisions in numbers: (round, table, started, took, limit, over, claimed).
pub fn numbers(ds: &[&DecisionLine]) -> Vec<[String; 7]> {
    ds.iter()
        .map(|d| {
            [
                d.round.to_string(),
                d.table.map_or_else(|| "-".into(), |t| t.to_string()),
                when_text(&d.started_at),
                seconds_text(d.duration_ms),
                seconds_text(d.limit_ms),
                if d.overrun_ms > 0 { seconds_text(d.overrun_ms) } else { "-".into() },
                d.claimed_ms.map_or_else(|| "-".into(), seconds_text),
            ]
        })
        .collect()
}

/// The chart and numbers of `player`'s decisions among `all`, titled `title`.
pub fn charted(row: RankRow, title: &str, all: &[DecisionLine]) -> Result<Charted> {
    let ds: Vec<DecisionLine> = all.iter().filter(|d| d.player == row.player).cloned().collect();
    let chart = if ds.is_empty() { String::new() } else { DecisionChart::new(title, &row.player, &ds).render()? };
    Ok(Charted { numbers: numbers(&ds.iter().collect::<Vec<_>>()), chart, row })
}

/// One player's decisions at a table: their chart and numbers.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TableDecisions {
    /// The player.
    pub player: String,
    /// The chart (HTML).
    pub chart: String,
    /// Their decisions: (round, table, started, took, limit, over, claimed).
    pub numbers: Vec<[String; 7]>,
}

/// The decisions `ds` of a match drawn per player, in the order of `players` (those without one left out).
pub fn at_table(ds: &[DecisionLine], players: &[String]) -> Result<Vec<TableDecisions>> {
    let mut out = Vec::new();
    for p in players {
        let theirs: Vec<DecisionLine> = ds.iter().filter(|d| &d.player == p).cloned().collect();
        if theirs.is_empty() {
            continue;
        }
        let chart = DecisionChart::new(&format!("{p}'s decisions at this table"), p, &theirs).render()?;
        out.push(TableDecisions { player: p.clone(), chart, numbers: numbers(&theirs.iter().collect::<Vec<_>>()) });
    }
    Ok(out)
}

/// `player`'s own decisions over the event (`/me/decisions`): their chart and numbers, None before any was timed.
pub fn own(stats: &DecisionStats, player: &str) -> Result<Option<TableDecisions>> {
    let theirs: Vec<DecisionLine> =
        stats.decisions.as_deref().unwrap_or_default().iter().filter(|d| d.player == player).cloned().collect();
    if theirs.is_empty() {
        return Ok(None);
    }
    let chart = DecisionChart::new(&format!("{player}'s decisions against their limits"), player, &theirs).render()?;
    let numbers = numbers(&theirs.iter().collect::<Vec<_>>());
    Ok(Some(TableDecisions { player: player.to_string(), chart, numbers }))
}

impl SlowPlayView {
    /// The ranking's lines shown (and charted when no player is asked for).
    pub const RANKED: usize = 16;

    /// The view of `sp`.
    pub fn new(sp: &SlowPlay) -> Result<SlowPlayView> {
        let all = sp.stats.decisions.as_deref().unwrap_or_default();
        let rows: Vec<RankRow> = sp.ranking.iter().enumerate().map(|(i, l)| rank_row(i + 1, l)).collect();
        let title = |p: &str| format!("{p}'s decisions against their limits");
        let charted = match &sp.found {
            Some(name) => match rows.iter().find(|r| &r.player == name) {
                Some(r) => vec![charted(r.clone(), &title(name), all)?],
                None => Vec::new(),
            },
            None => rows
                .iter()
                .take(Self::RANKED)
                .filter(|r| r.count > 0)
                .map(|r| charted(r.clone(), &title(&r.player), all))
                .collect::<Result<_>>()?,
        };
        Ok(SlowPlayView {
            more: rows.len().saturating_sub(Self::RANKED),
            ranked: rows.into_iter().take(Self::RANKED).collect(),
            charted,
            found: sp.found.clone(),
            running: sp.stats.running,
        })
    }
}

/// `decisions --html FILE`: the slow-play page, printable.
#[derive(Template)]
#[template(path = "decisions.html")]
pub struct SlowPlayPage {
    head: String,
    event: String,
    /// The body.
    pub sp: SlowPlayView,
    /// Links go to the server's page (false: a file, whose names are not links).
    pub linked: bool,
}

impl SlowPlayPage {
    /// The page of `sp` for the event `event`, with its print head.
    pub fn new(sp: SlowPlayView, event: &str, head: String) -> SlowPlayPage {
        SlowPlayPage { head, event: event.to_string(), sp, linked: false }
    }

    /// The page as HTML.
    pub fn render(&self) -> Result<String> {
        Template::render(self).map_err(|e| Error::refused(format!("cannot render the slow-play page: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(round: u32, ms: i64, limit: i64, claimed: Option<i64>) -> DecisionLine {
        DecisionLine {
            round,
            table: Some(1),
            player: "Ana".into(),
            started_at: "2026-05-01T09:00:00.000Z".into(),
            duration_ms: ms,
            limit_ms: limit,
            overrun_ms: (ms - limit).max(0),
            claimed_ms: claimed,
        }
    }

    #[test]
    fn a_decisions_chart_draws_each_against_its_own_limit_and_keeps_at_most_64_bars() {
        let few = vec![d(1, 30_000, 45_000, None), d(1, 50_000, 45_000, None), d(2, 20_000, 15_000, Some(9_000))];
        let svg = DecisionChart::new("t", "Ana", &few).render().unwrap_or_default();
        assert_eq!(svg.matches("<g data-value").count(), 3, "{svg}");
        assert!(svg.contains("data-value=\"50000\" data-limit=\"45000\" data-overrun=\"5000\""), "{svg}");
        assert!(svg.contains("data-claimed=\"9000\"") && svg.contains("length claimed (recorded)"), "{svg}");
        assert!(svg.contains(">round 2<") && !svg.contains("style="), "{svg}");
        let many: Vec<DecisionLine> = (0..200).map(|i| d(1, 1000 * (i % 50), 45_000, None)).collect();
        let chart = DecisionChart::new("t", "Ana", &many);
        assert!(chart.marks.len() <= DecisionChart::MOST, "{}", chart.marks.len());
        assert!(chart.caption.as_deref().is_some_and(|c| c.contains("among 4 in a row")));
        assert!(chart.marks.iter().any(|m| m.overrun_ms > 0), "the overruns stay drawn");
        let svg = chart.render().unwrap_or_default();
        assert!(svg.len() < 30_000, "a chart of 64 bars is under 30 KB: {}", svg.len());
    }

    #[test]
    fn a_decisions_chart_at_fixed_data() {
        let mut ds = vec![d(1, 30_000, 45_000, None), d(1, 50_000, 45_000, None), d(2, 12_500, 45_000, None)];
        // The final window's limit, and a decision claimed shorter than the server saw it.
        ds.extend([d(2, 9_000, 15_000, None), d(2, 21_000, 15_000, Some(14_000))]);
        let svg = DecisionChart::new("Ana's decisions against their limits", "Ana", &ds).render().unwrap_or_default();
        // The moment's words depend on the machine's time zone: the same words for every decision here.
        let svg = svg.replace(&when_text("2026-05-01T09:00:00.000Z"), "HH:MM:SS");
        insta::assert_snapshot!("decisions_chart", svg);
    }
}
