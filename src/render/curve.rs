//! The libraries' curve drawn (the curation report): at each mana value 0 to 6+, the target a library is measured
//! against and built toward (the pool's spells' curve scaled to a library) as a hollow bar, and the fixed
//! libraries' counts as a line from the fewest to the most with a square at the median.

use crate::domain::library::BUCKETS;
use crate::error::{Error, Result};
use crate::ops::library::curve::Curves;
use crate::render::chart::{Scale, Tick, nice_ticks};
use askama::Template;

const LEFT: f64 = 44.0;
const RIGHT: f64 = 352.0;
const TOP: f64 = 30.0;
const PLOT: f64 = 130.0;

/// The curve chart: 7 columns, one bar and one range each (at most 7 marks a series, at any event size).
#[derive(Debug, Clone, PartialEq, Template)]
#[template(path = "chart/curve.html")]
pub struct CurveChart {
    title: String,
    desc: String,
    size: usize,
    columns: Vec<Column>,
    ticks: Vec<Tick>,
    /// Fixed libraries drawn (0: only the target).
    libraries: usize,
    plot_top: f64,
    plot_bottom: f64,
    legend_y: f64,
    height: f64,
}

/// One mana value as drawn.
#[derive(Debug, Clone, PartialEq)]
struct Column {
    label: String,
    /// The bar's left edge, its width and centre.
    x: f64,
    w: f64,
    mid: f64,
    /// The target, its top.
    target: String,
    target_y: f64,
    /// The pool's spell copies at this mana value.
    pool: u32,
    /// The libraries' fewest, median and most, and where they are drawn.
    range: Option<(String, String, String, f64, f64, f64)>,
    words: String,
}

fn tenth(v: f64) -> String {
    format!("{:.1}", (v * 10.0).round() / 10.0)
}

/// The median of sorted counts (the mean of the two middle ones for an even count).
fn median(sorted: &[u32]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 { f64::from(sorted[n / 2]) } else { (f64::from(sorted[n / 2 - 1]) + f64::from(sorted[n / 2])) / 2.0 }
}

/// The label of mana value bucket `b`: "0" to "5", "6+".
fn bucket_label(b: usize) -> String {
    if b + 1 == BUCKETS { format!("{b}+") } else { b.to_string() }
}

impl CurveChart {
    /// The chart of `c`, or None when there is nothing to draw (no spells in the pool and no library).
    pub fn new(c: &Curves) -> Option<CurveChart> {
        let target = c.target?;
        let mut spread: Vec<Vec<u32>> = (0..BUCKETS).map(|_| Vec::with_capacity(c.libraries.len())).collect();
        for (_, counts) in &c.libraries {
            counts.iter().enumerate().for_each(|(b, n)| spread[b].push(*n));
        }
        spread.iter_mut().for_each(|v| v.sort_unstable());
        let top_count = spread.iter().filter_map(|v| v.last()).copied().max().unwrap_or(0);
        let top = target.iter().copied().fold(f64::from(top_count), f64::max).max(1.0);
        let steps = nice_ticks(0.0, top, 4);
        let step = if steps.len() > 1 { steps[1] - steps[0] } else { top };
        let y_top = (top / step).ceil() * step;
        let y = Scale::new(0.0, y_top, TOP + PLOT, TOP);
        let col = (RIGHT - LEFT) / BUCKETS as f64;
        let columns = (0..BUCKETS)
            .map(|b| {
                let x = LEFT + b as f64 * col;
                let mid = ((x + col / 2.0) * 10.0).round() / 10.0;
                let label = bucket_label(b);
                let cost = if b + 1 == BUCKETS { format!("mana value {b} or more") } else { format!("mana value {b}") };
                let range = spread[b].first().map(|lo| {
                    let (hi, med) = (*spread[b].last().unwrap_or(lo), median(&spread[b]));
                    (lo.to_string(), tenth(med), hi.to_string(), y.at(f64::from(*lo)), y.at(med), y.at(f64::from(hi)))
                });
                let libs = match &range {
                    Some((lo, med, hi, ..)) => format!("; the libraries hold {lo} to {hi}, median {med}"),
                    None => String::new(),
                };
                Column {
                    words: format!(
                        "{cost}: target {} cards{libs}; the pool has {} copies",
                        tenth(target[b]),
                        c.pool[b]
                    ),
                    label,
                    x: ((x + 8.0) * 10.0).round() / 10.0,
                    w: ((col - 16.0) * 10.0).round() / 10.0,
                    mid,
                    target: tenth(target[b]),
                    target_y: y.at(target[b]),
                    pool: c.pool[b],
                    range,
                }
            })
            .collect();
        let libraries = c.libraries.len();
        let desc = format!(
            "Cards at each mana value, 0 to 6 or more: the target for a {}-card library (the pool's spells' curve \
             scaled to it){}.",
            c.size,
            if libraries == 0 {
                String::new()
            } else {
                format!(", and the {libraries} fixed libraries' counts from the fewest to the most with their median")
            }
        );
        let ticks =
            nice_ticks(0.0, y_top, 4).into_iter().map(|v| Tick { at: y.at(v), label: format!("{v}") }).collect();
        Some(CurveChart {
            title: "Mana values against the target curve".into(),
            desc,
            size: c.size,
            columns,
            ticks,
            libraries,
            plot_top: TOP,
            plot_bottom: TOP + PLOT,
            legend_y: TOP + PLOT + 44.0,
            height: TOP + PLOT + 56.0 + if libraries > 0 { 14.0 } else { 0.0 },
        })
    }

    /// The chart as HTML (an SVG in a figure).
    pub fn render(&self) -> Result<String> {
        Template::render(self).map_err(|e| Error::refused(format!("cannot draw the mana values: {e}")))
    }

    /// The chart's numbers: (mana value, target, the pool's copies, the libraries' fewest to most and median).
    pub fn numbers(&self) -> Vec<(String, String, u32, String)> {
        self.columns
            .iter()
            .map(|c| {
                let libs =
                    c.range.as_ref().map_or("–".to_string(), |(lo, med, hi, ..)| format!("{lo} to {hi} ({med})"));
                (c.label.clone(), c.target.clone(), c.pool, libs)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_curve_chart_at_fixed_data() {
        let curves = Curves {
            size: 40,
            target: Some([1.5, 7.0, 10.0, 9.5, 6.0, 3.5, 2.5]),
            pool: [6, 28, 40, 38, 24, 14, 10],
            libraries: vec![
                ("1A".into(), [1, 7, 10, 10, 6, 4, 2]),
                ("1B".into(), [2, 7, 9, 9, 6, 4, 3]),
                ("2A".into(), [1, 8, 11, 9, 5, 3, 3]),
                ("2B".into(), [2, 6, 10, 10, 7, 3, 2]),
            ],
        };
        let chart = CurveChart::new(&curves).expect("a chart");
        assert_eq!(chart.numbers()[0], ("0".to_string(), "1.5".to_string(), 6, "1 to 2 (1.5)".to_string()));
        let svg = chart.render().unwrap_or_default();
        assert!(!svg.contains("style="), "no style attributes: the pages allow none");
        insta::assert_snapshot!("curve_chart", svg);
    }

    #[test]
    fn a_curve_chart_of_2048_libraries_stays_7_columns_and_small() {
        let libraries = (0..2048u32).map(|i| (format!("{}A", i + 1), [i % 3, 7, 10, 9 + i % 4, 6, 4, 4])).collect();
        let curves = Curves { size: 40, target: Some([1.0, 7.0, 10.0, 10.0, 6.0, 3.0, 3.0]), pool: [0; 7], libraries };
        let svg = CurveChart::new(&curves).expect("a chart").render().unwrap_or_default();
        assert_eq!(svg.matches("<g data-value").count(), 14, "a bar and a range for each mana value");
        assert!(svg.len() < 30_000, "{}", svg.len());
        assert!(CurveChart::new(&Curves { target: None, ..curves }).is_none());
    }
}
