//! The pages' words for each event setting: its plain name, a number's unit, one line on what it does, and a
//! choice's options in words (the settings section on the Judges page, the set-up page's check-in switch, and the
//! web's words for a way out that names a setting).

/// The words of one setting: plain name, unit, one line, and a choice's options in words.
pub struct Words {
    /// The plain name ("Round length").
    pub name: &'static str,
    /// A number's unit, singular ("minute").
    pub unit: &'static str,
    /// One line on what it does.
    pub line: &'static str,
    /// A choice's options: (value, words).
    pub options: &'static [(&'static str, &'static str)],
}

const fn words(name: &'static str, unit: &'static str, line: &'static str) -> Words {
    Words { name, unit, line, options: &[] }
}

/// The pages' words for each setting, by key (`None` for a key without words: the test below finds it).
pub fn words_of(key: &str) -> Option<Words> {
    Some(match key {
        "name" => words("Event name", "", "The name on every page and print."),
        "date" => words("Day of the event", "", "Printed at the top of every print."),
        "rounds" => words(
            "Rounds",
            "round",
            "How many rounds are played; the event ends with its final standings after the last.",
        ),
        "round-minutes" => words("Round length", "minute", "Time for each round, counted from its start."),
        "decision-seconds" => words("Decision limit", "second", "Time a player has for one decision."),
        "final-window-minutes" => words(
            "Final window",
            "minute",
            "The last minutes of a round, when the shorter decision limit applies (0: none).",
        ),
        "final-decision-seconds" => {
            words("Decision limit in the final window", "second", "Time for one decision once the final window opens.")
        }
        "challenge-limit" => words(
            "Lost challenges that lose the match",
            "lost challenge",
            "A player who loses this many challenges in one match loses the match.",
        ),
        "binding" => Words {
            name: "Which real cards a declaration may name",
            unit: "",
            line: "How closely a declared card must match the cost written on the library card.",
            options: &[
                ("standard", "standard"),
                ("alphabet", "alphabet"),
                ("alphabet-generic", "alphabet, generic"),
                ("alphabet-exact", "alphabet, exact"),
            ],
        },
        "split-combined" => words(
            "Split cards match their combined cost",
            "",
            "A split card may also be declared by both halves' cost.",
        ),
        "movement" => Words {
            name: "Movement",
            unit: "",
            line: "How players move between tables from round to round.",
            options: &[
                ("auto", "chosen for the number of players"),
                ("mitchell", "Mitchell"),
                ("square", "square"),
                ("howell", "Howell"),
                ("swiss", "Swiss (pairs by score)"),
            ],
        },
        "libraries" => Words {
            name: "Libraries",
            unit: "",
            line: "Fixed at the tables and built by the judges, or sealed and carried by each player (locked once \
                   round 1 is paired).",
            options: &[("fixed", "fixed at the tables"), ("sealed", "sealed, carried by each player")],
        },
        "seed" => words("Random seed", "", "Any whole number: the same seed builds the same libraries and pairings."),
        "late-entry" => Words {
            name: "Late entrants",
            unit: "",
            line: "Whether a player who enters late loses each round already played.",
            options: &[("loss", "lose each round missed"), ("none", "no loss for rounds missed")],
        },
        "inspection-minutes" => {
            words("Deck inspection", "minute", "Minutes to inspect the libraries before each round's clock (0: none).")
        }
        "tiebreak-par" => {
            words("Wins above par break ties first", "", "Before the usual tiebreakers, for duplicate libraries.")
        }
        "check-in" => words(
            "Check-in",
            "",
            "Players check in (on their phone with their code, or with a judge) before round 1 is paired.",
        ),
        "allow-joke" => words("Joke cards may be declared", "", "Un-set and acorn cards count as real cards."),
        "allow-digital" => words("Digital-only cards may be declared", "", "Cards printed only for online play."),
        "allow-ante" => words("Ante cards may be declared", "", "Cards that play for ante."),
        "allow-portal" => words("Portal cards may be declared", "", "Cards printed only in the Portal sets."),
        _ => return None,
    })
}

/// The plain name of setting `key` (the key itself for one without words).
pub fn plain_name(key: &str) -> &'static str {
    words_of(key).map_or("this setting", |w| w.name)
}
