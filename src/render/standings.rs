//! Standings and duplicate figures in words and numbers for people (tables, CSV, the site's pages).

use crate::ops::standings::{DidNotPlay, Line, NeedsResult, Progress, Standings};
use crate::store::PlayerId;
use serde::{Serialize, Serializer};

/// The `--json` document of `standings`, its keys in sorted order as a `serde_json::Value` prints them, so
/// that it can be written as it serializes (see [`super::emit_sorted`]); the same bytes as the document.
#[derive(Serialize)]
pub struct SortedStandings<'a> {
    #[serde(serialize_with = "sorted_absent")]
    did_not_play: &'a [DidNotPlay],
    #[serde(rename = "final")]
    is_final: bool,
    #[serde(serialize_with = "sorted_needs_result")]
    needs_result: &'a [NeedsResult],
    round: u32,
    rounds_paired: u32,
    #[serde(serialize_with = "sorted_lines")]
    standings: &'a [Line],
    tiebreak_par: bool,
    winner: Option<&'a [String]>,
}

impl<'a> SortedStandings<'a> {
    /// The document of `view`.
    pub fn of(view: &'a Standings) -> Self {
        SortedStandings {
            did_not_play: &view.did_not_play,
            is_final: view.is_final,
            needs_result: &view.needs_result,
            round: view.round,
            rounds_paired: view.rounds_paired,
            standings: &view.standings,
            tiebreak_par: view.tiebreak_par,
            winner: view.winner.as_deref(),
        }
    }
}

/// A [`Line`], its keys in sorted order.
#[derive(Serialize)]
struct SortedLine<'a> {
    above_par: Option<f64>,
    byes: u32,
    draws: u32,
    dropped: bool,
    gwp: f64,
    late_losses: u32,
    losses: u32,
    mwp: f64,
    name: &'a str,
    ogwp: f64,
    omwp: f64,
    player_id: PlayerId,
    points: u32,
    rank: u32,
    wins: u32,
}

fn sorted_lines<S: Serializer>(lines: &&[Line], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(lines.iter().map(|l| SortedLine {
        above_par: l.above_par,
        byes: l.byes,
        draws: l.draws,
        dropped: l.dropped,
        gwp: l.gwp,
        late_losses: l.late_losses,
        losses: l.losses,
        mwp: l.mwp,
        name: &l.name,
        ogwp: l.ogwp,
        omwp: l.omwp,
        player_id: l.player_id,
        points: l.points,
        rank: l.rank,
        wins: l.wins,
    }))
}

/// A [`DidNotPlay`], its keys in sorted order.
#[derive(Serialize)]
struct SortedAbsent<'a> {
    dropped: bool,
    name: &'a str,
    player_id: PlayerId,
}

fn sorted_absent<S: Serializer>(list: &&[DidNotPlay], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(list.iter().map(|p| SortedAbsent { dropped: p.dropped, name: &p.name, player_id: p.player_id }))
}

/// A [`NeedsResult`], its keys in sorted order.
#[derive(Serialize)]
struct SortedNeedsResult<'a> {
    players: &'a [String],
    round: u32,
    table: Option<u32>,
}

fn sorted_needs_result<S: Serializer>(list: &&[NeedsResult], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(list.iter().map(|m| SortedNeedsResult { players: &m.players, round: m.round, table: m.table }))
}

/// The players not ranked, as a line under the standings: "did not play (not ranked): Larry Late (dropped), Ana".
pub fn did_not_play_note(list: &[DidNotPlay]) -> Option<String> {
    let names: Vec<String> =
        list.iter().map(|p| if p.dropped { format!("{} (dropped)", p.name) } else { p.name.clone() }).collect();
    (!names.is_empty()).then(|| format!("did not play (not ranked): {}", names.join(", ")))
}

/// A match without a result, as a line under the standings: "round 1, table 2 (Ana v Cy) needs a result: not
/// counted until one is recorded".
pub fn needs_result_note(m: &NeedsResult) -> String {
    format!("{} needs a result: not counted until one is recorded", m.words())
}

/// The lines under a table of the standings: the players not ranked, the matches that need a result, then how
/// far the event has got.
pub fn standings_notes(view: &Standings) -> Vec<String> {
    let mut notes: Vec<String> = did_not_play_note(&view.did_not_play).into_iter().collect();
    notes.extend(view.needs_result.iter().map(needs_result_note));
    notes.extend(progress_note(&view.progress, view.round));
    notes
}

/// A percentage as printed: three decimals.
pub fn pct(x: f64) -> String {
    let mut out = String::with_capacity(8);
    push_fixed(&mut out, x, 3);
    out
}

/// A percentage for people reading standings: a fraction as a percent with two decimals (`66.67 %`).
pub fn percent(x: f64) -> String {
    let mut out = String::with_capacity(10);
    push_fixed(&mut out, x * 100.0, 2);
    out.push_str(" %");
    out
}

/// Appends `x` with `decimals` (at most 3) decimals, byte for byte as `format!("{x:.decimals$}")` writes it
/// (the exact binary value rounded, a tie to even), without the formatting machinery for the numbers
/// standings print: non-negative, below 2^31, not tiny. Others go through `format!`.
fn push_fixed(out: &mut String, x: f64, decimals: u32) {
    let scale = 10u64.pow(decimals.min(3));
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i64 - 1075;
    let mantissa = u128::from((bits & ((1u64 << 52) - 1)) | (1u64 << 52));
    let shift = -exponent;
    if decimals > 3 || bits == 0 || x.is_sign_negative() || !(21..=100).contains(&shift) {
        out.push_str(&format!("{x:.*}", decimals as usize));
        return;
    }
    // x = mantissa / 2^shift exactly; x x scale < 2^63.
    let scaled = mantissa * u128::from(scale);
    let (whole, rest, half) = (scaled >> shift, scaled & ((1u128 << shift) - 1), 1u128 << (shift - 1));
    let rounded = whole + u128::from(rest > half || (rest == half && whole & 1 == 1));
    let rounded = rounded as u64;
    push_digits(out, rounded / scale, 1);
    out.push('.');
    push_digits(out, rounded % scale, decimals as usize);
}

/// Appends `n` in decimal, with leading zeros up to `width` digits.
pub fn push_digits(out: &mut String, mut n: u64, width: usize) {
    let mut digits = [b'0'; 20];
    let mut at = digits.len();
    while n > 0 || digits.len() - at < width.clamp(1, 20) {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    out.extend(digits[at..].iter().map(|&d| char::from(d)));
}

/// Wins above par as printed: signed, three decimals.
pub fn par(x: f64) -> String {
    let x = if x.abs() < 5e-4 { 0.0 } else { x };
    format!("{x:+.3}")
}

/// Lines saying how far the event has got, for under a table of the standings after `round`.
pub fn progress_note(progress: &Progress, round: u32) -> Vec<String> {
    let mut notes = Vec::new();
    if progress.paired == 0 {
        notes.push("no round has been paired yet".into());
    } else if let Some((r, done, tables)) = progress.playing {
        notes.push(format!("round {r} is being played: {done} of {tables} results in"));
    }
    if round < progress.played {
        notes.push(format!("the latest standings are after round {}", progress.played));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn line(rank: u32, name: &str, above_par: Option<f64>) -> Line {
        Line {
            rank,
            player_id: PlayerId(7),
            name: name.into(),
            wins: 3,
            losses: 1,
            draws: 2,
            byes: 1,
            late_losses: 1,
            points: 11,
            mwp: 11.0 / 18.0,
            omwp: 0.5,
            gwp: 1.0 / 3.0,
            ogwp: 0.0,
            above_par,
            dropped: true,
        }
    }

    #[test]
    fn the_sorted_document_is_the_documents_value_byte_for_byte() -> serde_json::Result<()> {
        for lines in [
            vec![],
            vec![line(1, "Ana \"quoted\"\u{1b}é", None), line(1, "Bo", Some(-0.25)), line(3, "", Some(f64::NAN))],
        ] {
            let view = Standings {
                event: "Cup".into(),
                round: 4,
                rounds_paired: 5,
                tiebreak_par: true,
                standings: lines,
                did_not_play: vec![
                    DidNotPlay { player_id: PlayerId(3), name: "Larry \"Late\"".into(), dropped: true },
                    DidNotPlay { player_id: PlayerId(4), name: "Mo".into(), dropped: false },
                ],
                needs_result: vec![NeedsResult { round: 1, table: Some(2), players: vec!["Ana".into(), "Cy".into()] }],
                entered_later: vec![],
                is_final: true,
                winner: Some(vec!["Ana \"quoted\"".into(), "Bo".into()]),
                progress: Progress::default(),
            };
            let through_value = serde_json::to_string_pretty(&serde_json::to_value(&view)?)?;
            assert_eq!(serde_json::to_string_pretty(&SortedStandings::of(&view))?, through_value);
        }
        Ok(())
    }

    #[test]
    fn ties_go_to_even_as_format_does() {
        for x in [0.125, 0.375, 0.625, 0.0625, 1.125, 2.5, 0.0005, 0.0015, 66.665, 99.995, 100.0, 0.0, -0.0, 1e-9, 1e12]
        {
            assert_eq!(pct(x), format!("{x:.3}"), "{x}");
            let mut two = String::new();
            push_fixed(&mut two, x, 2);
            assert_eq!(two, format!("{x:.2}"), "{x}");
            assert_eq!(percent(x), format!("{:.2} %", x * 100.0), "{x}");
        }
    }

    proptest! {
        /// Every fraction a standings line can hold prints as `format!` prints it.
        #[test]
        fn fractions_print_as_format_prints_them(num in 0u64..1_000_000, den in 1u64..1_000_000) {
            let x = num as f64 / den as f64;
            prop_assert_eq!(pct(x), format!("{x:.3}"));
            prop_assert_eq!(percent(x), format!("{:.2} %", x * 100.0));
        }

        #[test]
        fn any_number_prints_as_format_prints_it(x in any::<f64>()) {
            prop_assert_eq!(pct(x), format!("{x:.3}"));
            prop_assert_eq!(percent(x), format!("{:.2} %", x * 100.0));
        }
    }
}
