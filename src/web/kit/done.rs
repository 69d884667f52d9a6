//! What a judge's form did, shown on the page it goes back to: the write runner keeps each write's answer in
//! the web's words under its audit entry's id, the form's 303 goes back with `?done=ID`, and the page shows that
//! outcome until the next action (the live refresh re-reads the same address, so it stays). After a restart the
//! page falls back to the audit entry itself.

use std::collections::VecDeque;

/// How many recent outcomes are kept.
const KEPT: usize = 256;

/// The recent outcomes in the web's words, by audit id.
#[derive(Debug, Default)]
pub struct Done {
    recent: VecDeque<(i64, String)>,
}

impl Done {
    /// Keeps `summary` as the outcome of entry `id` (the oldest is forgotten beyond [`KEPT`]).
    pub fn keep(&mut self, id: i64, summary: String) {
        if self.recent.len() >= KEPT {
            self.recent.pop_front();
        }
        self.recent.push_back((id, summary));
    }

    /// The outcome of entry `id`, if kept.
    pub fn of(&self, id: i64) -> Option<String> {
        self.recent.iter().rev().find(|(i, _)| *i == id).map(|(_, s)| s.clone())
    }
}

/// `done` of a page's address: the audit id of the write the page answers.
#[derive(Debug, Default, serde::Deserialize)]
pub struct DoneQuery {
    /// The audit id.
    pub done: Option<String>,
}

/// An audit line as the web may show it: cut before the first backquote (a command to type) and its lead-in.
pub fn web_words(summary: &str) -> String {
    match summary.find('`') {
        None => summary.to_string(),
        Some(i) => {
            let head = summary[..i].trim_end_matches([' ', '(', ':', ';', ',']);
            let head = head.strip_suffix(" use").or_else(|| head.strip_suffix(" with")).unwrap_or(head);
            head.trim_end_matches([' ', '(', ':', ';', ',']).to_string()
        }
    }
}

/// The address a form goes back to, naming the entry it wrote: `back` with `done=ID` (an earlier `done`
/// replaced, any other query kept).
pub fn back_to(back: &str, id: Option<i64>) -> String {
    let Some(id) = id else { return back.to_string() };
    let (path, query) = back.split_once('?').unwrap_or((back, ""));
    let mut parts: Vec<&str> = query.split('&').filter(|p| !p.is_empty() && !p.starts_with("done=")).collect();
    let done = format!("done={id}");
    parts.push(&done);
    format!("{path}?{}", parts.join("&"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn back_to_names_the_entry_once() {
        assert_eq!(back_to("/judge", Some(4)), "/judge?done=4");
        assert_eq!(back_to("/judge?done=3", Some(4)), "/judge?done=4");
        assert_eq!(back_to("/judge/table/2?x=1&done=3", Some(9)), "/judge/table/2?x=1&done=9");
        assert_eq!(back_to("/judge", None), "/judge");
    }

    #[test]
    fn an_audit_line_loses_its_command() {
        assert_eq!(web_words("penalty #3: Warning; use `mmjudge result fix 1` if needed"), "penalty #3: Warning");
        assert_eq!(web_words("round 1 closed"), "round 1 closed");
    }

    #[test]
    fn only_recent_outcomes_are_kept() {
        let mut d = Done::default();
        for i in 0..300 {
            d.keep(i, format!("#{i}"));
        }
        assert_eq!(d.of(299).as_deref(), Some("#299"));
        assert_eq!(d.of(0), None);
    }
}
