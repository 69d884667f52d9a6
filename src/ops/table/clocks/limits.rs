//! The round's decision limits in words, as the table's device shows them in large type: the usual limit and the
//! final window's ("decisions: 30 s", "final 15 minutes: 15 s decisions").

use crate::domain::words;
use crate::error::Result;
use crate::store::event;
use rusqlite::Connection;

/// The limits in words.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LimitWords {
    /// "decisions: 30 s".
    pub usual: String,
    /// "final 15 minutes: 15 s decisions" (empty without a final window).
    pub final_window: String,
}

/// The event's decision limits in words.
pub fn limit_words(conn: &Connection) -> Result<LimitWords> {
    let s = super::clock::clock_settings(&event::values(conn)?);
    let final_window = if s.final_window_minutes == 0 {
        String::new()
    } else {
        format!(
            "final {}: {} s decisions",
            words::count(i64::from(s.final_window_minutes), "minute").trim_start_matches("1 "),
            s.final_decision_secs
        )
    };
    Ok(LimitWords { usual: format!("decisions: {} s", s.decision_secs), final_window })
}
