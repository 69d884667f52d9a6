//! What a standby's terminal says of its following: how far behind it is, when that changes (at most once a
//! second; while it is up to date, every ten seconds while changes flow), and how to promote its own file when
//! its primary is gone.

use super::follower::Progress;
use std::time::Duration;
use tokio::sync::watch;

/// Says on the terminal how far behind the standby is, when that changes (at most once a second; while it is up
/// to date, how far it is every [`UP_TO_DATE_EVERY`] while changes flow). `db`: its event file, for the command
/// that promotes it.
pub async fn report(mut rx: watch::Receiver<Progress>, db: std::path::PathBuf) {
    let mut said = Said::default();
    loop {
        if rx.changed().await.is_err() {
            return;
        }
        let p = rx.borrow_and_update().clone();
        if p.promoted {
            return;
        }
        if let Some(line) = said.next(&p, std::time::Instant::now(), &db) {
            tracing::info!(target: crate::replica::LOG, "{line}");
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// How often, at most, the terminal says again that the standby is up to date (when the change number moved).
const UP_TO_DATE_EVERY: Duration = Duration::from_secs(10);

/// What the standby's terminal said last, and when.
#[derive(Debug, Default)]
struct Said {
    line: String,
    at: Option<std::time::Instant>,
}

impl Said {
    /// The line to print for `p` at `now`, if any (and remembers it).
    fn next(&mut self, p: &Progress, now: std::time::Instant, db: &std::path::Path) -> Option<String> {
        let behind = (p.primary_seq - p.applied).max(0);
        let up_to_date = p.trouble.is_empty() && behind == 0;
        let line = if !p.trouble.is_empty() {
            let gone = ["cannot reach", "fell silent", "broke"].iter().any(|w| p.trouble.contains(w));
            let hint = if gone {
                format!("; if the first laptop is gone for good: {}", crate::error::promote_command(db))
            } else {
                String::new()
            };
            format!("standby: {} (last change applied: {}){hint}", p.trouble, p.applied)
        } else if up_to_date {
            format!("standby: up to date (change {})", p.applied)
        } else {
            let ms = p.heard.map_or(0, |h| h.elapsed().as_millis());
            format!("standby: {behind} changes behind (primary last heard {ms} ms ago)")
        };
        if line == self.line {
            return None;
        }
        let was_up_to_date = self.line.starts_with("standby: up to date");
        if up_to_date && was_up_to_date && self.at.is_some_and(|at| now.duration_since(at) < UP_TO_DATE_EVERY) {
            return None;
        }
        self.line = line.clone();
        self.at = Some(now);
        Some(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    use std::time::Duration;
    use std::time::Instant;

    fn at(applied: i64, primary_seq: i64, trouble: &str) -> Progress {
        Progress { applied, primary_seq, heard: None, promoted: false, trouble: trouble.into() }
    }

    #[test]
    fn the_standby_s_terminal_says_how_far_it_is_every_ten_seconds_while_changes_flow() {
        let db = Path::new("standby.db");
        let mut said = Said::default();
        let t0 = Instant::now();
        assert_eq!(said.next(&at(8, 8, ""), t0, db).as_deref(), Some("standby: up to date (change 8)"));
        assert_eq!(said.next(&at(8, 8, ""), t0 + Duration::from_secs(30), db), None, "nothing moved");
        assert_eq!(said.next(&at(12, 12, ""), t0 + Duration::from_secs(3), db), None, "not 10 s yet");
        let later = said.next(&at(31, 31, ""), t0 + Duration::from_secs(11), db);
        assert_eq!(later.as_deref(), Some("standby: up to date (change 31)"));
        let behind = said.next(&at(31, 33, ""), t0 + Duration::from_secs(12), db).unwrap_or_default();
        assert!(behind.starts_with("standby: 2 changes behind"), "{behind}");
        let back = said.next(&at(33, 33, ""), t0 + Duration::from_secs(13), db);
        assert_eq!(back.as_deref(), Some("standby: up to date (change 33)"), "said at once after being behind");
    }

    #[test]
    fn a_standby_that_cannot_reach_its_primary_says_how_to_promote_its_own_file() {
        let mut said = Said::default();
        let trouble = "cannot reach http://10.0.0.2:8080: connection refused";
        let line = said.next(&at(8, 8, trouble), Instant::now(), Path::new("b/standby.db")).unwrap_or_default();
        assert_eq!(
            line,
            "standby: cannot reach http://10.0.0.2:8080: connection refused (last change applied: 8); \
             if the first laptop is gone for good: mmjudge --db b/standby.db standby promote"
        );
        let other = said.next(&at(8, 8, "the primary refused: wrong standby key"), Instant::now(), Path::new("s.db"));
        assert!(!other.unwrap_or_default().contains("promote"), "a refusal is no absence");
    }
}
