//! Event settings: the keys a judge may set, their defaults, and validation.

use std::fmt;

/// What kind of value a setting holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A whole number within `min..=max`.
    Number { min: i64, max: i64 },
    /// On or off (`on`/`off`, also `yes`/`no`, `true`/`false`).
    Switch,
    /// One word out of a list.
    Choice(&'static [&'static str]),
    /// Free text (not empty, on one line, no control character).
    Text,
    /// A random seed: any 64-bit number (see [`super::bounds::seed`]).
    Seed,
    /// A calendar day, `YYYY-MM-DD`.
    Date,
}

/// One event setting a judge can show and change.
#[derive(Debug, Clone, Copy)]
pub struct Setting {
    /// The key typed after `event set`.
    pub key: &'static str,
    /// The value a new event starts with (`seed` is chosen at creation instead).
    pub default: &'static str,
    /// What values are allowed.
    pub kind: Kind,
    /// One line for `event show`.
    pub help: &'static str,
}

/// Binding rules (see the card-reference rules).
pub const BINDINGS: &[&str] = &["standard", "alphabet", "alphabet-generic", "alphabet-exact"];
/// Movements (see the movement design).
pub const MOVEMENTS: &[&str] = &["auto", "mitchell", "square", "howell", "swiss"];

/// Every setting, in the order `event show` lists them.
pub const SETTINGS: &[Setting] = &[
    Setting { key: "name", default: "", kind: Kind::Text, help: "the event's name" },
    Setting {
        key: "date",
        default: "",
        kind: Kind::Date,
        help: "the day of the event (YYYY-MM-DD), printed on every page",
    },
    Setting {
        key: "rounds",
        default: "5",
        kind: Kind::Number { min: 1, max: super::bounds::MAX_ROUNDS as i64 },
        help: "number of rounds",
    },
    Setting {
        key: "round-minutes",
        default: "50",
        kind: Kind::Number { min: 1, max: 600 },
        help: "round length in minutes",
    },
    Setting {
        key: "decision-seconds",
        default: "45",
        kind: Kind::Number { min: 1, max: 3600 },
        help: "time for one decision",
    },
    Setting {
        key: "final-window-minutes",
        default: "15",
        kind: Kind::Number { min: 0, max: 600 },
        help: "the final window at the end of a round",
    },
    Setting {
        key: "final-decision-seconds",
        default: "15",
        kind: Kind::Number { min: 1, max: 3600 },
        help: "time for one decision in the final window",
    },
    Setting {
        key: "challenge-limit",
        default: "2",
        kind: Kind::Number { min: 1, max: 99 },
        help: "lost challenges that lose a match",
    },
    Setting {
        key: "binding",
        default: "standard",
        kind: Kind::Choice(BINDINGS),
        help: "which real cards a card may be declared as",
    },
    Setting {
        key: "split-combined",
        default: "off",
        kind: Kind::Switch,
        help: "split cards also match their combined cost",
    },
    Setting {
        key: "movement",
        default: "auto",
        kind: Kind::Choice(MOVEMENTS),
        help: "how players move between tables",
    },
    Setting {
        key: "libraries",
        default: "fixed",
        kind: Kind::Choice(&["fixed", "sealed"]),
        help: "judge-built libraries at tables, or sealed libraries that travel with players",
    },
    Setting {
        key: "seed",
        default: "0",
        kind: Kind::Seed,
        help: "random seed for library building and pairings (any 64-bit number)",
    },
    Setting {
        key: "late-entry",
        default: "loss",
        kind: Kind::Choice(&["loss", "none"]),
        help: "a late entrant loses each round missed (loss) or not (none)",
    },
    Setting {
        key: "inspection-minutes",
        default: "0",
        kind: Kind::Number { min: 0, max: 60 },
        help: "minutes to inspect libraries before each round starts",
    },
    Setting { key: "tiebreak-par", default: "off", kind: Kind::Switch, help: "wins above par as the first tiebreaker" },
    Setting {
        key: "check-in",
        default: "off",
        kind: Kind::Switch,
        help: "players check in before round 1 is paired (player check-in NAME)",
    },
    Setting {
        key: "allow-joke",
        default: "off",
        kind: Kind::Switch,
        help: "joke (un-set and acorn) cards may be declared",
    },
    Setting { key: "allow-digital", default: "off", kind: Kind::Switch, help: "digital-only cards may be declared" },
    Setting { key: "allow-ante", default: "off", kind: Kind::Switch, help: "ante cards may be declared" },
    Setting { key: "allow-portal", default: "off", kind: Kind::Switch, help: "Portal-only cards may be declared" },
];

/// Why a setting cannot be changed to a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingError(pub String);

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Finds a setting by key (exact, or with `_` for `-`).
pub fn find(key: &str) -> Result<&'static Setting, SettingError> {
    let k = key.trim().to_lowercase().replace('_', "-");
    SETTINGS.iter().find(|s| s.key == k).ok_or_else(|| {
        let keys: Vec<&str> = SETTINGS.iter().map(|s| s.key).collect();
        let folded = super::names::fold(key);
        let near = super::names::closest(key, keys.iter().copied(), 1);
        let hint = near
            .first()
            .filter(|n| super::names::similarity(&folded, &super::names::fold(n)) >= 0.75)
            .map(|n| format!("did you mean \"{n}\"? "))
            .unwrap_or_default();
        SettingError(format!("unknown setting \"{key}\": {hint}settings are {}", keys.join(", ")))
    })
}

/// Checks `value` for `setting` and returns it in its stored form (`on`/`off`, lower-case words,
/// plain numbers).
pub fn normalize(setting: &Setting, value: &str) -> Result<String, SettingError> {
    let v = value.trim();
    let key = setting.key;
    match setting.kind {
        Kind::Number { min, max } => {
            let n: i64 = v
                .parse()
                .map_err(|_| SettingError(format!("{key} takes a whole number from {min} to {max}, not \"{v}\"")))?;
            if n < min || n > max {
                return Err(SettingError(format!("{key} takes a whole number from {min} to {max}, not {n}")));
            }
            Ok(n.to_string())
        }
        Kind::Switch => match v.to_lowercase().as_str() {
            "on" | "yes" | "true" | "1" => Ok("on".into()),
            "off" | "no" | "false" | "0" => Ok("off".into()),
            _ => Err(SettingError(format!("{key} is on or off, not \"{v}\""))),
        },
        Kind::Choice(words) => {
            let w = v.to_lowercase();
            if words.contains(&w.as_str()) {
                Ok(w)
            } else {
                Err(SettingError(format!("{key} is one of {}, not \"{v}\"", words.join(", "))))
            }
        }
        Kind::Text => {
            if v.is_empty() {
                Err(SettingError(format!("{key} cannot be empty")))
            } else {
                super::text::check(&format!("the {key}"), v, false).map_err(SettingError)?;
                super::bounds::text_length(&format!("the {key}"), v, super::bounds::MAX_EVENT_NAME_CHARS)
                    .map_err(SettingError)?;
                Ok(v.to_string())
            }
        }
        Kind::Seed => super::bounds::seed(v).map(|n| n.to_string()).map_err(SettingError),
        Kind::Date => chrono::NaiveDate::parse_from_str(v, "%Y-%m-%d")
            .ok()
            .filter(|d| (1900..=9999).contains(&chrono::Datelike::year(d)))
            .map(|d| d.format("%Y-%m-%d").to_string())
            .ok_or_else(|| SettingError(format!("{key} is a day written YYYY-MM-DD (e.g. 2026-05-01), not \"{v}\""))),
    }
}

/// Checks rules that tie settings together, given every setting's value.
pub fn check_together(get: impl Fn(&str) -> i64) -> Result<(), SettingError> {
    let (round, window) = (get("round-minutes"), get("final-window-minutes"));
    if window > round {
        return Err(SettingError(format!(
            "final-window-minutes ({window}) cannot be longer than round-minutes ({round})"
        )));
    }
    Ok(())
}

/// An event's settings as stored, with defaults for anything not stored.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Values(pub std::collections::BTreeMap<String, String>);

impl Values {
    /// The value of a key as text (the default when not stored).
    pub fn text(&self, key: &str) -> &str {
        match self.0.get(key) {
            Some(v) => v,
            None => SETTINGS.iter().find(|s| s.key == key).map(|s| s.default).unwrap_or(""),
        }
    }

    /// The value of a numeric key (0 when unreadable, which validation prevents).
    pub fn number(&self, key: &str) -> i64 {
        self.text(key).parse().unwrap_or(0)
    }

    /// The value of an on/off key.
    pub fn switch(&self, key: &str) -> bool {
        self.text(key) == "on"
    }

    /// The event's name.
    pub fn name(&self) -> &str {
        self.text("name")
    }

    /// The day of the event (`YYYY-MM-DD`): as set, else the day it was created (events from before the
    /// date setting).
    pub fn date(&self) -> &str {
        match self.0.get("date").map(String::as_str) {
            Some(d) if !d.is_empty() => d,
            _ => self.0.get("created").map(|c| c.get(..10).unwrap_or(c)).unwrap_or(""),
        }
    }

    /// The event's random seed.
    pub fn seed(&self) -> u64 {
        self.text("seed").parse().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_keys_and_suggests() {
        assert_eq!(find("rounds").map(|s| s.key), Ok("rounds"));
        assert_eq!(find("round_minutes").map(|s| s.key), Ok("round-minutes"));
        let err = find("roundz").err().map(|e| e.0).unwrap_or_default();
        assert!(err.contains("did you mean \"rounds\""), "{err}");
    }

    #[test]
    fn a_date_is_a_real_day_and_an_old_event_falls_back_to_its_creation() {
        let date = SETTINGS.iter().find(|s| s.key == "date").map(|s| normalize(s, " 2026-05-01 "));
        assert_eq!(date, Some(Ok("2026-05-01".into())));
        for bad in ["2026-02-30", "01-05-2026", "soon", ""] {
            let r = SETTINGS.iter().find(|s| s.key == "date").map(|s| normalize(s, bad).is_err());
            assert_eq!(r, Some(true), "{bad}");
        }
        let mut v = Values::default();
        v.0.insert("created".into(), "2025-01-01T00:00:00.000Z".into());
        assert_eq!(v.date(), "2025-01-01");
        v.0.insert("date".into(), "2026-05-01".into());
        assert_eq!(v.date(), "2026-05-01");
    }

    #[test]
    fn validates_values() {
        let rounds = find("rounds").ok().copied();
        let rounds = rounds.as_ref().map(|s| s as &Setting);
        let Some(rounds) = rounds else { panic!("rounds missing") };
        assert_eq!(normalize(rounds, " 7 "), Ok("7".into()));
        assert!(normalize(rounds, "-1").is_err());
        assert!(normalize(rounds, "five").is_err());
        let Ok(dec) = find("decision-seconds") else { panic!() };
        assert!(normalize(dec, "0").is_err());
        let Ok(b) = find("binding") else { panic!() };
        assert_eq!(normalize(b, "Alphabet"), Ok("alphabet".into()));
        assert!(normalize(b, "greek").is_err());
        let Ok(s) = find("tiebreak-par") else { panic!() };
        assert_eq!(normalize(s, "YES"), Ok("on".into()));
    }

    #[test]
    fn window_not_longer_than_round() {
        let get = |k: &str| if k == "round-minutes" { 10 } else { 15 };
        assert!(check_together(get).is_err());
    }
}
