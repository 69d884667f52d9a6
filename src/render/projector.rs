//! The room projector page: one self-contained HTML page (inline CSS and JS, no network) counting the round
//! down from its recorded start, switching the decision limit at the final window, and listing the tables
//! with extensions, each with its own end time.

use askama::Template;
use chrono::{DateTime, SecondsFormat, Utc};

use crate::domain::clock::ClockSettings;

/// Everything the projector page shows; the page's script computes the live figures from it.
#[derive(Debug, Clone, PartialEq, Template)]
#[template(path = "clock.html")]
pub struct ProjectorPage {
    /// Event name, shown as the title.
    pub event: String,
    /// Round number.
    pub round: u32,
    /// Recorded start of the round, RFC 3339 (UTC).
    pub start_rfc3339: String,
    /// Round length, in minutes.
    pub round_minutes: u32,
    /// Final window, in minutes.
    pub final_window_minutes: u32,
    /// Decision limit before the final window, in seconds.
    pub decision_secs: u32,
    /// Decision limit inside the final window, in seconds.
    pub final_decision_secs: u32,
    /// Tables with extensions: (table number, extension in seconds).
    pub tables: Vec<(u32, i64)>,
    /// Deck inspection before the round's clock starts, in minutes (0 without): the page counts it down first.
    pub inspection_minutes: u32,
}

impl ProjectorPage {
    /// A page for `round` of `event`, started at `start`, with the event's time settings and the tables'
    /// extensions (tables with 0 s are left off).
    pub fn new(event: &str, round: u32, start: DateTime<Utc>, settings: &ClockSettings, tables: &[(u32, i64)]) -> Self {
        let mut tables: Vec<(u32, i64)> = tables.iter().copied().filter(|&(_, ext)| ext != 0).collect();
        tables.sort_unstable();
        Self {
            event: event.to_string(),
            round,
            start_rfc3339: start.to_rfc3339_opts(SecondsFormat::Secs, true),
            round_minutes: settings.round_minutes,
            final_window_minutes: settings.final_window_minutes,
            decision_secs: settings.decision_secs,
            final_decision_secs: settings.final_decision_secs,
            tables,
            inspection_minutes: 0,
        }
    }

    /// The page with `minutes` of deck inspection before the round's clock (the event's `inspection-minutes`).
    pub fn with_inspection(mut self, minutes: u32) -> Self {
        self.inspection_minutes = minutes;
        self
    }

    /// The page as HTML.
    pub fn render(&self) -> Result<String, askama::Error> {
        Template::render(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn page(event: &str, tables: &[(u32, i64)]) -> ProjectorPage {
        let start = Utc.with_ymd_and_hms(2025, 6, 7, 10, 0, 0).single().unwrap_or_default();
        ProjectorPage::new(event, 3, start, &ClockSettings::default(), tables)
    }

    #[test]
    fn embeds_settings_and_tables() {
        let html = page("Spring Open", &[(12, 180), (4, 0), (2, 75)]).render().unwrap_or_default();
        for want in [
            r#"data-start="2025-06-07T10:00:00Z""#,
            r#"data-round-minutes="50""#,
            r#"data-window-minutes="15""#,
            r#"data-decision-secs="45""#,
            r#"data-final-decision-secs="15""#,
            r#"data-table="2" data-ext="75""#,
            r#"data-table="12" data-ext="180""#,
            "Spring Open",
            "Round 3",
        ] {
            assert!(html.contains(want), "missing {want}");
        }
        assert!(!html.contains(r#"data-table="4""#), "a table without extension is left off");
        assert!(html.find(r#"data-table="2""#) < html.find(r#"data-table="12""#), "sorted by table");
    }

    #[test]
    fn self_contained_and_escaped() {
        let html = page("<script>alert(1)</script> & Co", &[]).render().unwrap_or_default();
        assert!(html.contains("&#60;script&#62;alert(1)&#60;/script&#62; &#38; Co"), "{html}");
        for banned in ["http://", "https://", "<link", "src=", "@import"] {
            assert!(!html.contains(banned), "external reference {banned}");
        }
        assert!(html.contains("No table has an extension."));
    }

    #[test]
    fn carries_the_inspection_minutes_for_the_script() {
        let html = page("Spring Open", &[]).with_inspection(5).render().unwrap_or_default();
        assert!(html.contains(r#"data-inspection-minutes="5""#), "{html}");
        assert!(html.contains("Deck inspection"), "the script's words for the inspection phase");
    }
}
