//! The round's next steps, as a head judge's dashboard offers them: pair when no round is being played, start
//! when paired and not started, end when started (with the tables still without a result, which ending now
//! leaves so), and the round's state in words.

use crate::ops::live::{Home, TableView};

/// What the head judge may do with the round now.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RoundSteps {
    /// The round's state in words ("Round 2 is being played: 3 of 7 tables have a result.").
    pub words: String,
    /// Pairing the next round is offered.
    pub pair: bool,
    /// Starting the paired round's clock is offered.
    pub start: bool,
    /// Deck inspection runs or is to come: starting the clock now is offered.
    pub start_now: bool,
    /// Ending the round is offered.
    pub end: bool,
    /// The tables still without a result (ending the round now leaves them so).
    pub open: Vec<u32>,
}

/// The steps the round allows now.
pub fn steps(home: &Home, tables: &[TableView]) -> RoundSteps {
    let open: Vec<u32> = tables.iter().filter(|t| t.result.is_none()).map(|t| t.table).collect();
    let none = RoundSteps { words: String::new(), pair: false, start: false, start_now: false, end: false, open };
    let Some(r) = &home.round else {
        return RoundSteps { words: "No round is paired yet: pair round 1 to begin.".into(), pair: true, ..none };
    };
    let n = r.number;
    if let Some(end) = &home.finished {
        let words = format!(
            "The event is over: round {n} was the last of {} planned and every result is in. {}. To play another \
             round, raise Rounds in the settings below: the event opens again.",
            home.rounds,
            sentence(&end.winner_words())
        );
        return RoundSteps { words, ..none };
    }
    match r.state {
        "paired" if r.tables > 0 && r.finished == r.tables => RoundSteps {
            words: format!("Round {n} has every result, though its clock never ran: pair round {} next.", n + 1),
            pair: true,
            ..none
        },
        "paired" => {
            RoundSteps { words: format!("Round {n} is paired; its clock has not started."), start: true, ..none }
        }
        "ended" if i64::from(n) >= home.rounds => RoundSteps {
            words: format!(
                "Round {n} is over; it was the last of {} planned, and the event ends with its final standings once \
                 every result is in (to play another round, raise Rounds in the settings below).",
                home.rounds
            ),
            pair: false,
            ..none
        },
        "ended" => RoundSteps { words: format!("Round {n} is over: pair round {} next.", n + 1), pair: true, ..none },
        _ => {
            let inspecting = r.inspection_until.as_deref().is_some_and(|until| until > home.now.as_str());
            let words = if inspecting {
                format!("Round {n}: deck inspection runs; the round's clock starts after it.")
            } else {
                format!("Round {n} is being played: {} of {} tables have a result.", r.finished, r.tables)
            };
            RoundSteps { words, end: !inspecting, start_now: inspecting, ..none }
        }
    }
}

/// `words` with a capital first letter.
fn sentence(words: &str) -> String {
    let mut chars = words.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}
