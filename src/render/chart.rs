//! Charts as inline SVG, drawn by askama templates (`templates/chart/`): scales, axes and ticks here, the marks in
//! the templates. No script is needed to see them; they use presentation attributes, never `style`, and read in
//! black and white (filled and hollow marks, dashed reference lines, direct labels). Each chart has a title, a
//! description, each mark's value in `data-value`, and its numbers in a table beside it.

use askama::Template;

/// A linear map from a domain (`d0..d1`) to a range of coordinates (`r0..r1`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    d0: f64,
    d1: f64,
    r0: f64,
    r1: f64,
}

impl Scale {
    /// The scale from `d0..d1` onto `r0..r1`.
    pub fn new(d0: f64, d1: f64, r0: f64, r1: f64) -> Scale {
        Scale { d0, d1, r0, r1 }
    }

    /// Where `v` falls, clamped to the range, to a tenth of a unit (what the SVG writes).
    pub fn at(&self, v: f64) -> f64 {
        let span = if self.d1 == self.d0 { 1.0 } else { self.d1 - self.d0 };
        let t = ((v - self.d0) / span).clamp(0.0, 1.0);
        ((self.r0 + t * (self.r1 - self.r0)) * 10.0).round() / 10.0
    }
}

/// A tick of an axis: its place and its label.
#[derive(Debug, Clone, PartialEq)]
pub struct Tick {
    /// The coordinate.
    pub at: f64,
    /// The label ("25 %").
    pub label: String,
}

/// Ticks at round steps (1, 2 or 5 times a power of ten) from `lo` to `hi`, about `count` of them.
pub fn nice_ticks(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    if hi.partial_cmp(&lo) != Some(std::cmp::Ordering::Greater) || count == 0 {
        return vec![lo];
    }
    let raw = (hi - lo) / count as f64;
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * power).find(|s| *s >= raw).unwrap_or(10.0 * power);
    let first = (lo / step).ceil() * step;
    (0..=((hi - first) / step + 1e-9).floor() as usize).map(|i| first + i as f64 * step).collect()
}

/// A percentage for a label: "25 %", "12.5 %".
pub fn percent(v: f64) -> String {
    let p = (v * 1000.0).round() / 10.0;
    if p.fract() == 0.0 { format!("{p:.0} %") } else { format!("{p:.1} %") }
}

/// One row of an interval chart: a value with its interval, and whether the interval leaves out the reference.
#[derive(Debug, Clone, PartialEq)]
pub struct IntervalRow {
    /// What the row is ("3A").
    pub label: String,
    /// The value (0 to 1).
    pub value: f64,
    /// The interval's bounds (0 to 1).
    pub lo: f64,
    /// The interval's upper bound.
    pub hi: f64,
    /// How many it counts (games), for the description.
    pub count: u32,
}

/// Rows of a chart of values with their intervals against a reference line (a library's results against par).
#[derive(Debug, Clone, PartialEq, Template)]
#[template(path = "chart/intervals.html")]
pub struct IntervalChart {
    /// The chart's title.
    pub title: String,
    /// What it shows, in a sentence (the SVG's `desc`).
    pub desc: String,
    /// The axis's label, with its unit.
    pub axis: String,
    /// The reference's name ("par").
    pub reference_name: String,
    /// Drawn rows (at most [`IntervalChart::MOST`]).
    rows: Vec<DrawnRow>,
    /// Rows left out to keep the chart small (said under it).
    pub left_out: usize,
    ticks: Vec<Tick>,
    reference: f64,
    height: f64,
    plot_top: f64,
    plot_bottom: f64,
    legend_y: f64,
}

/// A row as drawn.
#[derive(Debug, Clone, PartialEq)]
struct DrawnRow {
    label: String,
    y: f64,
    x: f64,
    x_lo: f64,
    x_hi: f64,
    value: String,
    lo: String,
    hi: String,
    off: bool,
    /// The mark's own title ("3A: 62.5 % over 8 games, interval 24.5 % to 91.5 %").
    words: String,
}

/// The chart's width in SVG units; it scales to the page (a phone's 390 px as a printed page).
const WIDTH: f64 = 360.0;
const LEFT: f64 = 50.0;
const RIGHT: f64 = 344.0;
const ROW: f64 = 18.0;
const TOP: f64 = 22.0;

impl IntervalChart {
    /// The most rows drawn: past it, the rows whose interval leaves out the reference, then those furthest from
    /// it, are kept.
    pub const MOST: usize = 64;

    /// The chart of `rows` against `reference` (0 to 1).
    pub fn new(
        title: &str,
        desc: &str,
        axis: &str,
        reference_name: &str,
        reference: f64,
        rows: &[IntervalRow],
    ) -> Self {
        let scale = Scale::new(0.0, 1.0, LEFT, RIGHT);
        let off = |r: &IntervalRow| r.lo > reference || r.hi < reference;
        let mut kept: Vec<&IntervalRow> = rows.iter().collect();
        if kept.len() > Self::MOST {
            kept.sort_by(|a, b| {
                let key = |r: &IntervalRow| (!off(r), -((r.value - reference).abs() * 1e6) as i64);
                key(a).cmp(&key(b))
            });
            kept.truncate(Self::MOST);
            // Back in the order given.
            kept.sort_by_key(|r| rows.iter().position(|x| std::ptr::eq(x, *r)));
        }
        let drawn: Vec<DrawnRow> = kept
            .iter()
            .enumerate()
            .map(|(i, r)| DrawnRow {
                label: r.label.clone(),
                y: TOP + 8.0 + i as f64 * ROW,
                x: scale.at(r.value),
                x_lo: scale.at(r.lo),
                x_hi: scale.at(r.hi),
                value: format!("{:.4}", r.value),
                lo: format!("{:.4}", r.lo),
                hi: format!("{:.4}", r.hi),
                off: off(r),
                words: format!(
                    "{}: {} over {} {}, interval {} to {}{}",
                    r.label,
                    percent(r.value),
                    r.count,
                    if r.count == 1 { "game" } else { "games" },
                    percent(r.lo),
                    percent(r.hi),
                    if off(r) { format!(" (off {reference_name})") } else { String::new() }
                ),
            })
            .collect();
        let plot_bottom = TOP + drawn.len() as f64 * ROW;
        let ticks = nice_ticks(0.0, 1.0, 4).into_iter().map(|v| Tick { at: scale.at(v), label: percent(v) }).collect();
        IntervalChart {
            title: title.to_string(),
            desc: desc.to_string(),
            axis: axis.to_string(),
            reference_name: reference_name.to_string(),
            left_out: rows.len() - drawn.len(),
            rows: drawn,
            ticks,
            reference: scale.at(reference),
            plot_top: TOP,
            plot_bottom,
            legend_y: plot_bottom + 44.0,
            height: plot_bottom + 56.0,
        }
    }

    /// The chart as HTML (an SVG in a figure).
    pub fn render(&self) -> Result<String, askama::Error> {
        Template::render(self)
    }

    /// The width in SVG units.
    pub fn width(&self) -> f64 {
        WIDTH
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_clamp_and_ticks_are_round() {
        let s = Scale::new(0.0, 1.0, 50.0, 344.0);
        assert_eq!((s.at(0.0), s.at(0.5), s.at(2.0)), (50.0, 197.0, 344.0));
        assert_eq!(nice_ticks(0.0, 1.0, 4), vec![0.0, 0.25, 0.5, 0.75, 1.0]);
        assert_eq!(nice_ticks(0.0, 37.0, 4), vec![0.0, 10.0, 20.0, 30.0]);
        assert_eq!((percent(0.25), percent(0.125)), ("25 %".to_string(), "12.5 %".to_string()));
    }

    #[test]
    fn an_interval_chart_keeps_at_most_64_rows_those_off_par_first() {
        let rows: Vec<IntervalRow> = (0..100)
            .map(|i| IntervalRow { label: format!("{i}A"), value: 0.5, lo: 0.2, hi: 0.8, count: 4 })
            .chain([IntervalRow { label: "off".into(), value: 0.95, lo: 0.7, hi: 1.0, count: 40 }])
            .collect();
        let chart = IntervalChart::new("t", "d", "win rate", "par", 0.5, &rows);
        assert_eq!((chart.rows.len(), chart.left_out), (64, 37));
        assert!(chart.rows.iter().any(|r| r.label == "off" && r.off));
        let svg = chart.render().unwrap_or_default();
        assert!(svg.contains("<title") && svg.contains("<desc") && svg.contains("data-value=\"0.9500\""), "{svg}");
        assert!(!svg.contains("style="), "no style attributes: the pages allow none");
        assert!(svg.len() < 30_000, "{}", svg.len());
    }

    #[test]
    fn an_interval_chart_at_fixed_data() {
        let row = |label: &str, value: f64, lo: f64, hi: f64, count: u32| IntervalRow {
            label: label.into(),
            value,
            lo,
            hi,
            count,
        };
        let rows = [
            row("1A", 0.75, 0.1941, 0.9937, 4),
            row("1B", 0.25, 0.0063, 0.8059, 4),
            row("2A", 1.0, 0.5407, 1.0, 6),
            row("2B", 0.0, 0.0, 0.4593, 6),
        ];
        let chart =
            IntervalChart::new("Each library against par", "d", "games won with the library", "par", 0.5, &rows);
        insta::assert_snapshot!("interval_chart", chart.render().unwrap_or_default());
    }
}
