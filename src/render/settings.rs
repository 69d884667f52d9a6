//! The event's settings as a head judge sees them on a page: each with its plain name, its value, the control
//! of its kind (a switch, a number with its unit and bounds, a choice, a day, text) and one line on what it does.
//! The kinds and bounds are the settings' own ([`crate::domain::settings`]); the words are the pages'.

use crate::domain::setting_words::{Words, plain_name, words_of};
use crate::domain::settings::{Kind, SETTINGS, Setting, Values};

/// One setting as the settings section shows it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SettingControl {
    /// The key the form sends (`round-minutes`).
    pub key: &'static str,
    /// Its plain name ("Round length").
    pub name: &'static str,
    /// One line on what it does.
    pub line: &'static str,
    /// The control: `switch`, `number`, `choice`, `date` or `text`.
    pub control: &'static str,
    /// The value now, as stored (`on`, `50`, `swiss`).
    pub value: String,
    /// A number's bounds and unit, singular ("minute").
    pub min: i64,
    /// See `min`.
    pub max: i64,
    /// See `min`.
    pub unit: &'static str,
    /// A choice's options: (value, words).
    pub options: Vec<(&'static str, &'static str)>,
    /// Changing it while a round is being played changes how that round's tables are judged or timed: the form
    /// then asks to confirm it (its box "Change it although round N is being played").
    pub in_play: bool,
}

impl SettingControl {
    /// The value as the page says it ("on", "50 minutes", "swiss (pairs by score)").
    pub fn value_words(&self) -> String {
        match self.control {
            "number" if !self.unit.is_empty() => match self.value.parse::<i64>() {
                Ok(n) => crate::domain::words::count(n, self.unit),
                Err(_) => format!("{} {}", self.value, self.units()),
            },
            "choice" => self.options.iter().find(|(v, _)| *v == self.value).map_or(self.value.clone(), |o| o.1.into()),
            "switch" if self.value == "on" => "on".into(),
            "switch" => "off".into(),
            _ => self.value.clone(),
        }
    }

    /// The unit after a number's field ("minutes").
    pub fn units(&self) -> String {
        if self.unit.is_empty() { String::new() } else { crate::domain::words::plural(self.unit) }
    }

    /// Whether `option` is the value now.
    pub fn is(&self, option: &str) -> bool {
        self.value == option
    }
}

/// Every setting as a control, in the order `event show` lists them.
pub fn controls(values: &Values) -> Vec<SettingControl> {
    SETTINGS.iter().map(|s| control(s, values)).collect()
}

/// Every setting of `event show`'s view as a control.
pub fn controls_of(view: &crate::ops::event::EventView) -> Vec<SettingControl> {
    let values = Values(view.settings.iter().map(|s| (s.key.to_string(), s.value.clone())).collect());
    controls(&values)
}

/// A changed setting in the page's words: "Round length: 50 minutes → 45 minutes", and what the change does to
/// the round being played ("; round 2 is being played (3 tables without a result): there time is called at ...").
pub fn changed_words(c: &crate::ops::event::SettingChanged) -> String {
    let Some(setting) = SETTINGS.iter().find(|s| s.key == c.key) else { return c.key.to_string() };
    let mut values = Values::default();
    let mut said = |v: &str| {
        values.0.insert(c.key.to_string(), v.to_string());
        control(setting, &values).value_words()
    };
    let (old, new) = (said(&c.old), said(&c.value));
    let mut words = if old == new {
        format!("{}: {new} (unchanged)", plain_name(c.key))
    } else {
        format!("{}: {old} → {new}", plain_name(c.key))
    };
    if let Some(change) = &c.in_play {
        words.push_str(&format!("; {change}"));
    }
    words
}

/// One setting as a control.
pub fn control(setting: &Setting, values: &Values) -> SettingControl {
    let w = words_of(setting.key).unwrap_or(Words { name: setting.key, unit: "", line: setting.help, options: &[] });
    let value = if setting.key == "date" { values.date() } else { values.text(setting.key) }.to_string();
    let (control, min, max, options) = match setting.kind {
        Kind::Number { min, max } => ("number", min, max, Vec::new()),
        Kind::Switch => ("switch", 0, 0, Vec::new()),
        Kind::Choice(all) => {
            let named = all.iter().map(|v| (*v, w.options.iter().find(|o| o.0 == *v).map_or(*v, |o| o.1))).collect();
            ("choice", 0, 0, named)
        }
        Kind::Date => ("date", 0, 0, Vec::new()),
        Kind::Text | Kind::Seed => ("text", 0, 0, Vec::new()),
    };
    SettingControl {
        key: setting.key,
        name: w.name,
        line: w.line,
        control,
        value,
        min,
        max,
        unit: w.unit,
        options,
        in_play: crate::ops::settings::IN_PLAY.contains(&setting.key),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_has_a_plain_name_and_a_line_and_every_option_its_words() {
        for s in SETTINGS {
            let Some(w) = words_of(s.key) else { panic!("setting {} has no words for the settings section", s.key) };
            assert!(!w.name.is_empty() && w.line.ends_with('.'), "{}", s.key);
            if let Kind::Choice(all) = s.kind {
                for v in all {
                    assert!(w.options.iter().any(|o| o.0 == *v), "{} has no words for {v}", s.key);
                }
            }
        }
    }

    #[test]
    fn a_number_says_its_unit_and_a_choice_its_words() {
        let values = Values::default();
        let all = controls(&values);
        let round = all.iter().find(|c| c.key == "round-minutes").map(SettingControl::value_words);
        assert_eq!(round.as_deref(), Some("50 minutes"));
        let movement = all.iter().find(|c| c.key == "movement").map(SettingControl::value_words);
        assert_eq!(movement.as_deref(), Some("chosen for the number of players"));
        let check_in = all.iter().find(|c| c.key == "check-in").map(|c| (c.control, c.value_words()));
        assert_eq!(check_in, Some(("switch", "off".to_string())));
    }

    #[test]
    fn a_change_says_before_and_after_and_a_value_set_again_is_unchanged() {
        let changed = |old: &str, value: &str| crate::ops::event::SettingChanged {
            key: "round-minutes",
            old: old.into(),
            value: value.into(),
            in_play: None,
        };
        assert_eq!(changed_words(&changed("50", "40")), "Round length: 50 minutes → 40 minutes");
        assert_eq!(changed_words(&changed("40", "40")), "Round length: 40 minutes (unchanged)");
    }
}
