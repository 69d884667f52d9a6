//! What each live page refreshes on: the topics its `data-watch` attribute lists (`templates/web/`), written
//! from [`Topic`] so that no page or script types an event's name. The page's script listens to the server-sent
//! events these name (see `templates/web/app.js`, `table.js`, `projector.js`).

use crate::domain::topic::Topic;
use std::fmt;

/// A page's topics, shown as their names separated by spaces (`round result clock`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Watch(pub &'static [Topic]);

impl fmt::Display for Watch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, topic) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            f.write_str(topic.as_str())?;
        }
        Ok(())
    }
}

/// A page that does not change by itself (a form, an error).
pub const NONE: Watch = Watch(&[]);

/// The round and its clock, with the tables' results (home, clock, projector).
pub const CLOCK: Watch = Watch(&[Topic::Round, Topic::Result, Topic::Clock]);

/// Rounds and results only (standings, pairings).
pub const STANDINGS: Watch = Watch(&[Topic::Round, Topic::Result]);

/// A player's own page: their seat, result and clock, their table's self-reports and calls.
pub const PLAYER: Watch = Watch(&[Topic::Round, Topic::Result, Topic::Clock, Topic::SelfReport, Topic::Call]);

/// The table's own device: its notes, clock and result, and its judge call (shown while open); the players'
/// reports too (one made on a phone shows there at once, and so do two that differ).
pub const DEVICE: Watch =
    Watch(&[Topic::Round, Topic::Result, Topic::Clock, Topic::Note, Topic::Call, Topic::SelfReport]);

/// The judges' pages: everything.
pub const JUDGE: Watch = Watch(&Topic::ALL);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watch_lists_its_topics_by_name() {
        assert_eq!(CLOCK.to_string(), "round result clock");
        assert_eq!(JUDGE.to_string(), "round result clock note call self-report");
        assert_eq!(NONE.to_string(), "");
        assert_eq!(DEVICE.to_string(), "round result clock note call self-report");
    }
}
