//! The data some ways out carry to be worded: which example to give, why a round is taken back, whose library
//! to register, what the card reference is needed for, what a table holds that a swap waits for. Each is worded
//! here for both front ends (the command line's words name commands; the web's never do).

/// An example of the input a refusal asks for: the command line shows a command that gives it; the web names
/// what to give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Example {
    /// The players' names (`player add`).
    PlayerNames,
    /// A card's name to ban (`ban add`).
    BanCard,
    /// A round's number (`--round`).
    Round,
    /// Part of a card's name (`cards find`).
    CardNamePart,
    /// Words of a card's text (`cards find --text`).
    CardText,
    /// A card's name (`cards show`).
    CardName,
    /// The event's name (`event new`).
    EventName,
    /// The minutes of an extension (`round extend`).
    ExtensionMinutes,
}

impl Example {
    /// Every example.
    pub const ALL: [Example; 8] = [
        Example::PlayerNames,
        Example::BanCard,
        Example::Round,
        Example::CardNamePart,
        Example::CardText,
        Example::CardName,
        Example::EventName,
        Example::ExtensionMinutes,
    ];

    /// What to give, in plain words (the web's words after "give").
    pub fn what(self) -> &'static str {
        match self {
            Example::PlayerNames => "the players' names",
            Example::BanCard => "the card's name",
            Example::Round => "round 1",
            Example::CardNamePart => "part of a card name",
            Example::CardText => "words of the card's text",
            Example::CardName => "a card name",
            Example::EventName => "the event's name",
            Example::ExtensionMinutes => "the extra minutes as a number, such as 5",
        }
    }

    /// The command line's example.
    pub fn command_line(self) -> &'static str {
        match self {
            Example::PlayerNames => "mmjudge player add NAME...",
            Example::BanCard => "mmjudge ban add \"Black Lotus\" --group too-powerful",
            Example::Round => "--round 1",
            Example::CardNamePart => "mmjudge cards find \"demonic tutor\"",
            Example::CardText => "mmjudge cards find --text \"draw a card\"",
            Example::CardName => "mmjudge cards show \"Demonic Tutor\"",
            Example::EventName => "mmjudge event new \"Spring Mental Magic Open\"",
            Example::ExtensionMinutes => "e.g. `mmjudge round extend 3 5 --reason \"deck check\"`",
        }
    }
}

/// What taking a round back (`round unpair`) is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unpair {
    /// Take the round back, remove the player, pair it again.
    RemovePlayer,
    /// Take the rounds back before the libraries change.
    Libraries,
    /// Or take this round back first (fewer rounds), while it has no results.
    FewerRounds {
        /// The round taken back.
        round: u32,
    },
    /// Take the round back and pair it again, to change its byes.
    Byes,
    /// Take back the rounds that left out a player a no-show dropped, then correct the result again.
    NoShow {
        /// More than one round to take back.
        several: bool,
        /// What is done again after.
        then: Again,
    },
}

/// What a head judge does again once the rounds are taken back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Again {
    /// Fix the result.
    Fix,
    /// Clear the result.
    Clear,
}

impl Again {
    /// The verb.
    fn verb(self) -> &'static str {
        match self {
            Again::Fix => "fix",
            Again::Clear => "clear",
        }
    }
}

impl Unpair {
    /// The command line's words.
    pub fn command_line(self) -> String {
        match self {
            Unpair::RemovePlayer => {
                "take the round back with `mmjudge round unpair`, remove the player, then pair it again".into()
            }
            Unpair::Libraries => "take the rounds back with `mmjudge round unpair` first".into(),
            Unpair::FewerRounds { round } => {
                format!("or first take round {round} back with `mmjudge round unpair` (while it has no results)")
            }
            Unpair::Byes => "to change the round's byes, take it back with `mmjudge round unpair` and pair it again \
                             with `mmjudge round pair`"
                .into(),
            Unpair::NoShow { several, then } => format!(
                "take {} back first (`mmjudge round unpair`), then {} the result again",
                if several { "them" } else { "it" },
                then.verb()
            ),
        }
    }

    /// The web's words.
    pub fn web(self) -> String {
        let tap = "with Take the round back on the Judges page";
        match self {
            Unpair::RemovePlayer => {
                format!("a head judge takes the round back {tap}, removes the player, then pairs it again")
            }
            Unpair::Libraries => format!("a head judge takes the rounds back first {tap}"),
            Unpair::FewerRounds { round } => {
                format!("or a head judge first takes round {round} back {tap} (while it has no results)")
            }
            Unpair::Byes => format!("to change the round's byes, a head judge takes it back {tap} and pairs it again"),
            Unpair::NoShow { several, then } => format!(
                "a head judge takes {} back first {tap}, then {}s the result again",
                if several { "them" } else { "it" },
                then.verb()
            ),
        }
    }
}

/// Whose sealed library to register, as the refusal sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whose {
    /// A new player's (the event adds a player, not a table).
    NewPlayer,
    /// The same player's again (a sealed library changes only so).
    Again,
    /// The players' who have none.
    Missing,
    /// This player's.
    Player,
    /// Each player's.
    Each,
}

impl Whose {
    /// The command line's words.
    pub fn command_line(self) -> &'static str {
        match self {
            Whose::NewPlayer => "register a new player's with `mmjudge library register PLAYER FILE.csv`",
            Whose::Again => "register them again with `mmjudge library register`",
            Whose::Missing => "`mmjudge library register NAME FILE`",
            Whose::Player => "`mmjudge library register PLAYER FILE.csv`",
            Whose::Each => "register each player's with `mmjudge library register PLAYER FILE.csv`",
        }
    }

    /// The web's words.
    pub fn web(self) -> &'static str {
        match self {
            Whose::NewPlayer => {
                "a head judge registers the new player's library on the set-up page (Judges, then Set up the event, \
                 or /judge/setup)"
            }
            Whose::Again => {
                "a head judge registers the sealed library again on the set-up page (Judges, then Set up the event, \
                 or /judge/setup)"
            }
            Whose::Missing | Whose::Player | Whose::Each => {
                "a head judge registers the libraries on the set-up page (Judges, then Set up the event, or \
                 /judge/setup)"
            }
        }
    }
}

/// What the card reference is needed for, where none is loaded (or it lacks texts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cards {
    /// Load one (an example file is named).
    Any,
    /// Load one, or force (the card is taken as typed).
    OrForce,
    /// Load the cards before their rulings.
    BeforeRulings,
    /// Load a reference that holds the cards' texts.
    WithTexts,
}

impl Cards {
    /// The command line's words.
    pub fn command_line(self) -> &'static str {
        match self {
            Cards::Any => "import one with `mmjudge cards import FILE` (e.g. examples/cards.csv)",
            Cards::OrForce => "import one with `mmjudge cards import FILE`, or add --force",
            Cards::BeforeRulings => "import cards first with `mmjudge cards import FILE`, then their rulings",
            Cards::WithTexts => {
                "import an MTGJSON or Scryfall card file (or a CSV with a text column) with \
                                 `mmjudge cards import FILE`"
            }
        }
    }

    /// The web's words.
    pub fn web(self) -> &'static str {
        match self {
            Cards::Any => {
                "a head judge loads the card reference first, on the set-up page (Judges, then Set up the event, or \
                 /judge/setup)"
            }
            Cards::OrForce => {
                "a head judge loads the card reference on the set-up page (Judges, then Set up the event, or \
                 /judge/setup); or tick “The reference does not know it” beside the name to take it as typed"
            }
            Cards::BeforeRulings => {
                "a head judge loads the cards first, then their rulings, on the set-up page (Judges, then Set up the \
                 event, or /judge/setup)"
            }
            Cards::WithTexts => {
                "a head judge loads a card file with the cards' texts (MTGJSON, Scryfall, or a CSV with a text \
                 column) on the set-up page (Judges, then Set up the event, or /judge/setup)"
            }
        }
    }
}

/// What a file given as the players holds instead: cards, imported where cards go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardFile {
    /// A card pool (a CSV with a `count` column): `pool import`, the set-up page's Pool step.
    Pool,
    /// A card reference (a CSV of cards, MTGJSON's or Scryfall's JSON): `cards import`, the Card reference step.
    Reference,
}

impl CardFile {
    /// The command that imports it (`pool import`).
    pub fn command(self) -> &'static str {
        match self {
            CardFile::Pool => "pool import",
            CardFile::Reference => "cards import",
        }
    }

    /// Where the set-up page takes it: the step and its button.
    pub fn step(self) -> &'static str {
        match self {
            CardFile::Pool => "the Pool step (Upload the pool)",
            CardFile::Reference => "the Card reference step (Upload the cards)",
        }
    }
}

/// Something a table holds that a head judge takes back (before players change seats). Two equal values are
/// taken back by the same command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Held {
    /// Template notes at a table, voided by their ids (listed for the table).
    Notes {
        /// The table.
        table: u32,
    },
    /// Another record, voided by its id.
    Record {
        /// Which record.
        record: super::Record,
    },
    /// A decision running at the table: cancel it.
    Running {
        /// The table.
        table: u32,
    },
    /// A judge call open at the table: close it.
    Call {
        /// The table.
        table: u32,
    },
}

impl Held {
    /// One of each kind, for the tests.
    pub fn samples() -> Vec<Held> {
        use super::Record;
        let records = [Record::Challenge, Record::Penalty, Record::Ruling, Record::Extension, Record::Stall];
        let mut all = vec![Held::Notes { table: 3 }];
        all.extend(records.into_iter().map(|record| Held::Record { record }));
        all.extend([Held::Running { table: 3 }, Held::Call { table: 4 }]);
        all
    }

    /// The command that takes it back.
    pub fn command_line(self) -> String {
        match self {
            Held::Notes { table } => format!("`mmjudge note void ID` (ids in `mmjudge notes {table}`)"),
            Held::Record { record } => format!("`mmjudge {} void ID`", record.command()),
            Held::Running { table } => format!("`mmjudge clock {table} --cancel`"),
            Held::Call { table } => format!("`mmjudge call close {table}`"),
        }
    }

    /// What to tap to take it back (on the table's judge page).
    pub fn web(self) -> String {
        match self {
            Held::Notes { table } => format!("Void beside each note on table {table}'s judge page"),
            Held::Record { record } => format!("Void beside the {} on its table's judge page", record.word()),
            Held::Running { table } => format!("Stop on table {table}'s device for the decision running"),
            Held::Call { table } => format!("Close the call on table {table}'s judge page"),
        }
    }
}
