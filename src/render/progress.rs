//! The round's progress drawn (the judges' dashboard): tables finished over the round's time as a step line,
//! against the round's end and each table's extended end, with the tables still playing named.

use crate::error::{Error, Result};
use crate::ops::round::progress::RoundProgress;
use crate::render::chart::{Scale, Tick, nice_ticks};
use askama::Template;

const LEFT: f64 = 44.0;
const RIGHT: f64 = 346.0;
const TOP: f64 = 48.0;
const PLOT: f64 = 130.0;

/// One point of the step line: tables finished by a moment.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Point {
    /// Minutes since the round's start (one decimal).
    pub minutes: String,
    /// Tables finished by then.
    pub finished: usize,
    x: f64,
    y: f64,
    words: String,
}

/// A moment marked on the time axis: the round's end, an extended end, its close, now.
#[derive(Debug, Clone, PartialEq)]
struct Marker {
    x: f64,
    label: String,
    /// Its label's line (0: top, 1: below it), so that near labels do not cover each other.
    row: u8,
    dash: &'static str,
    minutes: String,
    words: String,
}

/// The progress chart of a round.
#[derive(Debug, Clone, PartialEq, Template)]
#[template(path = "chart/progress.html")]
pub struct ProgressChart {
    title: String,
    desc: String,
    points: Vec<Point>,
    /// The step line's path.
    path: String,
    x_ticks: Vec<Tick>,
    y_ticks: Vec<Tick>,
    markers: Vec<Marker>,
    all_y: f64,
    total: usize,
    plot_top: f64,
    plot_bottom: f64,
    height: f64,
    /// The tables still playing, in words ("table 2 (Cy – Di)").
    pub playing: Vec<String>,
    /// Tables still playing beyond those named.
    pub more_playing: usize,
    /// The numbers of the tables named as playing, in the same order (a page takes a table off on its result).
    still: Vec<u32>,
    /// The round's start (RFC 3339) and the time axis's last minute: where a page puts a result's point itself.
    start: String,
    x_top: f64,
}

fn tenth(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

fn minutes_text(m: f64) -> String {
    format!("{:.1}", tenth(m))
}

impl ProgressChart {
    /// The most points of the step line: past it, the moments when each 64th of the results was in.
    pub const MOST: usize = 64;
    /// The tables still playing named under the chart.
    pub const NAMED: usize = 16;

    /// The chart of `p`.
    pub fn new(p: &RoundProgress) -> ProgressChart {
        let total = p.tables.len();
        let mut done: Vec<f64> = p
            .tables
            .iter()
            .filter_map(|t| t.result_at.as_deref().and_then(|a| p.minutes(a)))
            .map(|m| m.max(0.0))
            .collect();
        done.sort_by(f64::total_cmp);
        let base_end = p.minutes(&p.ends_at).unwrap_or(0.0);
        let table_ends: Vec<f64> =
            p.tables.iter().filter_map(|t| t.ends_at.as_deref().and_then(|e| p.minutes(e))).collect();
        let now = match &p.ended_at {
            Some(e) => p.minutes(e),
            None => p.minutes(&p.now),
        }
        .unwrap_or(0.0);
        let last_end = table_ends.iter().copied().fold(base_end, f64::max);
        let span = done.iter().copied().fold(last_end.max(now), f64::max).max(1.0);
        let x_steps = nice_ticks(0.0, span, 5);
        let x_step = if x_steps.len() > 1 { x_steps[1] - x_steps[0] } else { span };
        let x_top = (span / x_step).ceil() * x_step;
        let x = Scale::new(0.0, x_top, LEFT, RIGHT);
        let y_top = total.max(1) as f64;
        let y = Scale::new(0.0, y_top, TOP + PLOT, TOP);
        // The points: each result, or the moment each 64th of them was in.
        let n = done.len();
        let picks: Vec<usize> = if n <= Self::MOST {
            (1..=n).collect()
        } else {
            (1..=Self::MOST).map(|k| (k * n).div_ceil(Self::MOST)).collect()
        };
        let points: Vec<Point> = picks
            .iter()
            .map(|&count| {
                let m = done[count - 1];
                Point {
                    minutes: minutes_text(m),
                    finished: count,
                    x: x.at(m),
                    y: y.at(count as f64),
                    words: format!("{count} of {total} tables finished {:.0} minutes into the round", m.floor()),
                }
            })
            .collect();
        let mut path = format!("M{} {}", LEFT, TOP + PLOT);
        for pt in &points {
            path.push_str(&format!(" H{} V{}", pt.x, pt.y));
        }
        path.push_str(&format!(" H{}", x.at(now)));
        // The round's end, each extended end (one marker per moment, the tables named), the close or now.
        let mut markers = vec![Marker {
            x: x.at(base_end),
            label: "time".into(),
            row: 0,
            dash: "6 3",
            minutes: minutes_text(base_end),
            words: format!("time is called {:.0} minutes into the round", base_end),
        }];
        let mut extended: Vec<(i64, Vec<u32>)> = Vec::new();
        for t in p.tables.iter().filter(|t| t.extension_seconds > 0) {
            match extended.iter_mut().find(|(s, _)| *s == t.extension_seconds) {
                Some((_, tables)) => tables.push(t.table),
                None => extended.push((t.extension_seconds, vec![t.table])),
            }
        }
        extended.sort();
        for (secs, tables) in extended.iter().take(Self::MOST) {
            let m = base_end + *secs as f64 / 60.0;
            let list = tables.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
            let which = if tables.len() == 1 { format!("table {list}") } else { format!("tables {list}") };
            markers.push(Marker {
                x: x.at(m),
                label: format!("+{}", crate::ops::table::clocks::clock::clock_text(chrono::Duration::seconds(*secs))),
                row: 0,
                dash: "2 2",
                minutes: minutes_text(m),
                words: format!("{which} extended by {} s: time called there {:.1} minutes into the round", secs, m),
            });
        }
        let closing = if p.ended_at.is_some() { "closed" } else { "now" };
        markers.push(Marker {
            x: x.at(now),
            label: closing.into(),
            row: 0,
            dash: "none",
            minutes: minutes_text(now),
            words: format!("{} {:.0} minutes into the round", if p.ended_at.is_some() { "closed" } else { "now" }, now),
        });
        // A label goes on the first of two lines where no label before it lies within 30 units; with neither
        // free it is left out (the marker's line and its words stay).
        markers.sort_by(|a, b| a.x.total_cmp(&b.x));
        let mut placed: Vec<(f64, u8)> = Vec::new();
        for m in markers.iter_mut() {
            let free = |row: u8| !placed.iter().any(|(x, r)| *r == row && (m.x - x).abs() < 30.0);
            m.row = if free(0) {
                0
            } else if free(1) {
                1
            } else {
                2
            };
            if m.row < 2 {
                placed.push((m.x, m.row));
            }
        }
        let still: Vec<&crate::ops::round::progress::TableProgress> =
            p.tables.iter().filter(|t| t.result_at.is_none()).collect();
        let playing = still
            .iter()
            .take(Self::NAMED)
            .map(|t| format!("table {} ({} – {})", t.table, t.players[0], t.players[1]))
            .collect();
        let finished = n;
        let desc = format!(
            "Tables finished over round {}'s time: {finished} of {total} by {:.0} minutes in; time is called {:.0} \
             minutes in{}.",
            p.round,
            now,
            base_end,
            if extended.is_empty() { String::new() } else { ", later where tables were extended".into() }
        );
        ProgressChart {
            title: format!("Round {}: tables finished", p.round),
            desc,
            path,
            x_ticks: nice_ticks(0.0, x_top, 5)
                .into_iter()
                .map(|v| Tick { at: x.at(v), label: format!("{v}") })
                .collect(),
            y_ticks: nice_ticks(0.0, y_top, 4)
                .into_iter()
                .filter(|v| v.fract() == 0.0 && (y.at(*v) - y.at(y_top)).abs() > 10.0)
                .map(|v| Tick { at: y.at(v), label: format!("{v}") })
                .collect(),
            points,
            markers,
            all_y: y.at(y_top),
            total,
            plot_top: TOP,
            plot_bottom: TOP + PLOT,
            height: TOP + PLOT + 34.0,
            more_playing: still.len().saturating_sub(Self::NAMED),
            playing,
            still: still.iter().take(Self::NAMED).map(|t| t.table).collect(),
            start: p.started_at.clone(),
            x_top,
        }
    }

    /// The chart as HTML (an SVG in a figure).
    pub fn render(&self) -> Result<String> {
        Template::render(self).map_err(|e| Error::refused(format!("cannot draw the round's progress: {e}")))
    }

    /// The chart's numbers: (minutes since the round began, what happened then), in order of time.
    pub fn numbers(&self) -> Vec<(String, String)> {
        let mut rows: Vec<(f64, String, String)> = self
            .points
            .iter()
            .map(|p| (p.x, p.minutes.clone(), format!("{} of {} tables finished", p.finished, self.total)))
            .chain(self.markers.iter().map(|m| (m.x, m.minutes.clone(), m.words.clone())))
            .collect();
        rows.sort_by(|a, b| a.0.total_cmp(&b.0));
        rows.into_iter().map(|(_, m, w)| (m, w)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::round::progress::TableProgress;

    fn at(min: i64, sec: i64) -> String {
        format!("2026-05-01T10:{:02}:{:02}.000Z", min, sec)
    }

    fn table(n: u32, done: Option<String>, ext: i64) -> TableProgress {
        TableProgress {
            table: n,
            players: [format!("P{n}a"), format!("P{n}b")],
            result_at: done,
            ends_at: Some(at(40 + ext / 60, ext % 60)),
            extension_seconds: ext,
        }
    }

    fn progress(tables: Vec<TableProgress>, now: String) -> RoundProgress {
        RoundProgress { round: 2, started_at: at(0, 0), ends_at: at(40, 0), ended_at: None, now, tables }
    }

    #[test]
    fn a_progress_chart_at_fixed_data() {
        let p = progress(
            vec![
                table(1, Some(at(12, 30)), 0),
                table(2, None, 180),
                table(3, Some(at(31, 0)), 0),
                table(4, Some(at(38, 15)), 0),
                table(5, None, 0),
            ],
            at(41, 0),
        );
        let chart = ProgressChart::new(&p);
        assert_eq!(chart.playing, vec!["table 2 (P2a – P2b)".to_string(), "table 5 (P5a – P5b)".to_string()]);
        let svg = chart.render().unwrap_or_default();
        assert!(!svg.contains("style="));
        insta::assert_snapshot!("progress_chart", svg);
    }

    #[test]
    fn a_progress_chart_of_300_tables_keeps_64_points_and_30_kb() {
        let tables: Vec<TableProgress> = (1..=300)
            .map(|n| table(n, (n % 7 != 0).then(|| at(10 + (n as i64 % 30), n as i64 % 60)), (n as i64 % 5) * 60))
            .collect();
        let chart = ProgressChart::new(&progress(tables, at(45, 0)));
        assert_eq!(chart.points.len(), ProgressChart::MOST);
        assert_eq!(chart.points.last().map(|p| p.finished), Some(300 - 300 / 7));
        assert_eq!((chart.playing.len(), chart.more_playing), (ProgressChart::NAMED, 300 / 7 - ProgressChart::NAMED));
        let svg = chart.render().unwrap_or_default();
        assert!(svg.len() < 30_000, "{}", svg.len());
    }
}
