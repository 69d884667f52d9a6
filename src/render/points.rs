//! The standings over rounds drawn: the match points of the top 16 (and of a player found by name) after each
//! round, each player a line labelled with their rank at its end; the leader, or the final standings' winner,
//! and the player found drawn heavier. The `/standings/rounds` page, the site's standings pages and their print.

use crate::error::{Error, Result};
use crate::ops::standings::by_round::PointsByRound;
use crate::render::chart::{Scale, Tick, nice_ticks};
use askama::Template;

const LEFT: f64 = 40.0;
const RIGHT: f64 = 290.0;
const TOP: f64 = 38.0;
const PLOT: f64 = 170.0;

/// One player's line as drawn.
#[derive(Debug, Clone, PartialEq)]
struct Series {
    name: String,
    rank: u32,
    /// `M x y L x y ...`.
    path: String,
    /// (x, y, points) after each round the player was in.
    marks: Vec<(f64, f64, u32)>,
    /// Drawn heavier: the leader (or winner), or the player found.
    strong: bool,
    /// Dashed: the player found.
    dashed: bool,
    words: String,
}

/// A label at the lines' right end: the ranks ending at those points.
#[derive(Debug, Clone, PartialEq)]
struct EndLabel {
    y: f64,
    text: String,
}

/// The chart of points by round.
#[derive(Debug, Clone, PartialEq, Template)]
#[template(path = "chart/points.html")]
pub struct PointsChart {
    title: String,
    /// The title as drawn: (y, line).
    title_lines: Vec<(f64, String)>,
    desc: String,
    series: Vec<Series>,
    labels: Vec<EndLabel>,
    x_ticks: Vec<Tick>,
    y_ticks: Vec<Tick>,
    plot_top: f64,
    plot_bottom: f64,
    legend_y: f64,
    height: f64,
    found: Option<String>,
    leader: String,
}

/// Ranks as a short list: "1", "2, 3", "4–9".
fn ranks_text(mut ranks: Vec<u32>) -> String {
    ranks.sort_unstable();
    ranks.dedup();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ranks.len() {
        let mut j = i;
        while j + 1 < ranks.len() && ranks[j + 1] == ranks[j] + 1 {
            j += 1;
        }
        parts.push(match j - i {
            0 => ranks[i].to_string(),
            _ => format!("{}–{}", ranks[i], ranks[j]),
        });
        i = j + 1;
    }
    let text = parts.join(",");
    // Too long for the right margin: the first rank and how many more.
    match (text.chars().count() > 9, ranks.first()) {
        (true, Some(first)) => format!("{first} +{}", ranks.len() - 1),
        _ => text,
    }
}

/// `text` in lines of at most `width` characters, broken between words.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

impl PointsChart {
    /// The chart of `p`.
    pub fn new(p: &PointsByRound) -> PointsChart {
        let leaders: Vec<&str> = p.lines.iter().filter(|l| l.rank == 1).map(|l| l.name.as_str()).collect();
        let leader = match (&p.winner, leaders.as_slice()) {
            (Some(w), _) => crate::ops::standings::winner_words(w),
            (None, [one]) => format!("{one} leads"),
            (None, many) => format!("{} share the lead", many.join(", ")),
        };
        let title = if p.is_final {
            format!("Final standings: {leader}")
        } else {
            format!("Points by round after round {}", p.round)
        };
        // The title on as many lines as it needs (44 characters each), the plot below them.
        let title_lines = wrap(&title, 44);
        let top = TOP + 15.0 * (title_lines.len() as f64 - 1.0);
        let rounds = p.round.max(1);
        let x = Scale::new(0.0, f64::from(rounds), LEFT, RIGHT);
        let top_points = p.lines.iter().flat_map(|l| l.points.iter().flatten()).copied().max().unwrap_or(0).max(3);
        let y_steps = nice_ticks(0.0, f64::from(top_points), 4);
        let y_step = if y_steps.len() > 1 { y_steps[1] - y_steps[0] } else { 1.0 };
        let y_top = (f64::from(top_points) / y_step).ceil() * y_step;
        let y = Scale::new(0.0, y_top, top + PLOT, top);
        let mut series: Vec<Series> = p
            .lines
            .iter()
            .map(|l| {
                let mut marks = Vec::new();
                let mut path = String::new();
                // From 0 points before round 1 (or before the round they entered).
                let first = l.points.iter().position(Option::is_some).unwrap_or(0);
                let start = (x.at(first as f64), y.at(0.0));
                path.push_str(&format!("M{} {}", start.0, start.1));
                for (r, pts) in l.points.iter().enumerate() {
                    if let Some(pts) = pts {
                        let at = (x.at(r as f64 + 1.0), y.at(f64::from(*pts)));
                        path.push_str(&format!(" L{} {}", at.0, at.1));
                        marks.push((at.0, at.1, *pts));
                    }
                }
                let list: Vec<String> = marks.iter().map(|m| m.2.to_string()).collect();
                Series {
                    words: format!(
                        "{} (rank {}): {} points after rounds {} to {}",
                        l.name,
                        l.rank,
                        list.join(", "),
                        first + 1,
                        p.round
                    ),
                    name: l.name.clone(),
                    rank: l.rank,
                    path,
                    marks,
                    strong: l.rank == 1 || l.found,
                    dashed: l.found && l.rank != 1,
                }
            })
            .collect();
        // The heavier lines last, over the others.
        series.sort_by_key(|s| (s.strong, std::cmp::Reverse(s.rank)));
        // Ranks ending at the same points share one label; labels too close move apart.
        let mut ends: Vec<(u32, Vec<u32>)> = Vec::new();
        for l in &p.lines {
            if let Some(Some(last)) = l.points.last() {
                match ends.iter_mut().find(|(pts, _)| pts == last) {
                    Some((_, ranks)) => ranks.push(l.rank),
                    None => ends.push((*last, vec![l.rank])),
                }
            }
        }
        ends.sort_by_key(|e| std::cmp::Reverse(e.0));
        let mut labels: Vec<EndLabel> = Vec::new();
        for (pts, ranks) in ends {
            let mut at = y.at(f64::from(pts)) + 4.0;
            if let Some(prev) = labels.last()
                && at < prev.y + 12.0
            {
                at = prev.y + 12.0;
            }
            labels.push(EndLabel { y: (at * 10.0).round() / 10.0, text: ranks_text(ranks) });
        }
        let bottom_label = labels.last().map_or(top + PLOT, |l| l.y).max(top + PLOT);
        let plot_bottom = top + PLOT;
        let desc = format!(
            "Match points after each round of the top {} of {} players ranked{}; each line ends at its rank. {}.",
            p.ranked.min(crate::ops::standings::by_round::TOP),
            p.ranked,
            p.found.as_ref().map_or(String::new(), |f| format!(", and {f}")),
            leader
        );
        let x_every = if rounds > 12 { 2 } else { 1 };
        PointsChart {
            title,
            desc,
            series,
            labels,
            x_ticks: (0..=rounds)
                .filter(|r| r % x_every == 0)
                .map(|r| Tick { at: x.at(f64::from(r)), label: r.to_string() })
                .collect(),
            y_ticks: nice_ticks(0.0, y_top, 4)
                .into_iter()
                .map(|v| Tick { at: y.at(v), label: format!("{v}") })
                .collect(),
            plot_top: top,
            title_lines: title_lines.into_iter().enumerate().map(|(i, t)| (13.0 + 15.0 * i as f64, t)).collect(),
            plot_bottom,
            legend_y: bottom_label.max(plot_bottom) + 46.0,
            height: bottom_label.max(plot_bottom) + 56.0,
            found: p.found.clone(),
            leader,
        }
    }

    /// The chart as HTML (an SVG in a figure).
    pub fn render(&self) -> Result<String> {
        Template::render(self).map_err(|e| Error::refused(format!("cannot draw the standings over rounds: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::standings::by_round::PointsLine;

    fn line(rank: u32, name: &str, points: &[Option<u32>], found: bool) -> PointsLine {
        PointsLine { rank, name: name.into(), points: points.to_vec(), found }
    }

    #[test]
    fn ranks_read_short() {
        assert_eq!(ranks_text(vec![1]), "1");
        assert_eq!(ranks_text(vec![3, 2]), "2–3");
        assert_eq!(ranks_text(vec![4, 5, 6, 7, 9, 11]), "4–7,9,11");
        assert_eq!(ranks_text(vec![2, 4, 6, 8, 10]), "2 +4");
        let names = "Final standings: Björn Lindqvist, Seán O'Brien, Aiko Tanaka and Mateus Conceição share first";
        assert!(wrap(names, 44).iter().all(|l| l.chars().count() <= 44) && wrap(names, 44).len() == 3);
    }

    #[test]
    fn a_points_chart_at_fixed_data() {
        let p = PointsByRound {
            round: 3,
            is_final: true,
            winner: Some(vec!["Ana".into()]),
            lines: vec![
                line(1, "Ana", &[Some(3), Some(6), Some(9)], false),
                line(2, "Bo", &[Some(3), Some(6), Some(6)], false),
                line(2, "Cy", &[Some(3), Some(3), Some(6)], false),
                line(4, "Di", &[None, Some(0), Some(3)], false),
                line(9, "Zed", &[Some(0), Some(1), Some(1)], true),
            ],
            ranked: 9,
            found: Some("Zed".into()),
        };
        let svg = PointsChart::new(&p).render().unwrap_or_default();
        assert!(svg.contains("Final standings: Ana wins the event") && !svg.contains("style="), "{svg}");
        insta::assert_snapshot!("points_chart", svg);
    }

    #[test]
    fn a_points_chart_of_17_players_over_15_rounds_stays_under_30_kb() {
        let lines: Vec<PointsLine> = (1..=17)
            .map(|r| {
                line(
                    r,
                    &format!("Player with a long name {r}"),
                    &(1..=15).map(|x| Some(x * 2)).collect::<Vec<_>>(),
                    r == 17,
                )
            })
            .collect();
        let p = PointsByRound { round: 15, is_final: false, winner: None, lines, ranked: 4096, found: None };
        let svg = PointsChart::new(&p).render().unwrap_or_default();
        assert!(svg.len() < 30_000, "{}", svg.len());
    }
}
