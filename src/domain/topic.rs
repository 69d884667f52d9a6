//! What a write changed, as phones hear of it: the live server's topics. Each write names its topics (with the
//! round, table and player they concern, see `store::Touched`); `GET /events` sends one server-sent event per
//! topic, named by [`Topic::as_str`], and each page refreshes on the topics it shows (its `data-watch`).

use std::fmt;

/// One kind of change a page may show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Topic {
    /// The event as a whole: its settings, players, rounds and pairings, libraries, a round's start or close
    /// (a page reloads everything it shows).
    Round,
    /// A match's result: recorded, fixed, cleared, or ended by a penalty or a challenge.
    Result,
    /// A table's clock: a decision timed or cancelled, a stall, an extension of the round's time.
    Clock,
    /// The records at a table: a template note, a challenge, a penalty, a ruling, or one voided.
    Note,
    /// A player's call for a judge, opened or closed.
    Call,
    /// A player's self-reported result, waiting, in conflict or confirmed.
    SelfReport,
}

impl Topic {
    /// Every topic, in the order pages list them.
    pub const ALL: [Topic; 6] =
        [Topic::Round, Topic::Result, Topic::Clock, Topic::Note, Topic::Call, Topic::SelfReport];

    /// Its name: the server-sent event's name, the word pages list in `data-watch`, and what the store keeps.
    pub const fn as_str(self) -> &'static str {
        match self {
            Topic::Round => "round",
            Topic::Result => "result",
            Topic::Clock => "clock",
            Topic::Note => "note",
            Topic::Call => "call",
            Topic::SelfReport => "self-report",
        }
    }

    /// The topic a name gives (None for a name this mmjudge does not know).
    pub fn from_name(name: &str) -> Option<Topic> {
        Topic::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

impl fmt::Display for Topic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Topic;

    #[test]
    fn each_topic_has_its_own_name_and_is_found_by_it() {
        let names: Vec<_> = Topic::ALL.iter().map(|t| t.as_str()).collect();
        assert_eq!(names, ["round", "result", "clock", "note", "call", "self-report"]);
        for t in Topic::ALL {
            assert_eq!(Topic::from_name(t.as_str()), Some(t));
            assert_eq!(t.to_string(), t.as_str());
        }
        assert_eq!(Topic::from_name("hello"), None);
    }
}
