//! The `standby` commands' words: the key shown once, the status, a promotion.

use crate::error::Result;
use crate::ops::standby::{Promoted, Status};
use crate::render::Format;

/// Prints a new standby key once, with how to use it.
pub fn key(key: &str) {
    println!("standby key: {key}");
    println!(
        "(shown this once: on the second laptop run `mmjudge serve --db STANDBY.db --standby-of http://THIS-LAPTOP:PORT --key {key}`;"
    );
    println!(" `mmjudge standby key` again makes a new one and ends this one, `mmjudge standby key --revoke` ends it)");
}

/// Prints the replication status of the event file `db` (the path as the user gave it).
pub fn status(format: Format, s: &Status, db: &std::path::Path) -> Result<()> {
    match format {
        Format::Json => println!("{}", serde_json::to_string(s).unwrap_or_default()),
        Format::Quiet => {}
        Format::Human | Format::Csv => {
            for line in lines(s, db) {
                println!("{line}");
            }
        }
    }
    Ok(())
}

/// The status of the event file `db` in lines, for people.
pub fn lines(s: &Status, db: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    let heard = heard_words(s);
    if s.role == crate::store::replication::Role::Standby {
        let of = s.primary.as_deref().unwrap_or("?");
        out.push(format!("this file is the standby of {of} (event {}, generation {})", s.event, s.generation));
        out.push(format!("applied: change {}; behind: {}", s.seq, behind(s)));
        if s.silent {
            out.push(format!(
                "the primary is NOT HEARD FROM for {} (last heard {heard}): if the first laptop is gone for good: {}",
                secs(s),
                crate::error::promote_command(db)
            ));
        } else {
            out.push(format!("primary last heard: {heard}"));
        }
        return out;
    }
    if let Some(to) = &s.moved_to {
        out.push(format!("THE EVENT MOVED to {to}: a standby there was promoted and the event goes on there"));
        out.push(format!(
            "this file is an old copy of the event (event {}, generation {}, change {}): it takes no more writes",
            s.event, s.generation, s.seq
        ));
        return out;
    }
    let was = s.was_standby_of.as_deref().map_or(String::new(), |w| format!("; promoted, it followed {w} before"));
    out.push(format!("this file is the primary (event {}, generation {}{was})", s.event, s.generation));
    if let Some(at) = &s.detached_at {
        out.push(format!(
            "THE SECOND LAPTOP IS DETACHED (since {at}): every write is recorded on this laptop alone; `mmjudge standby key` makes a key for a new one"
        ));
    } else if !s.standby_key {
        out.push("no standby key: make one with `mmjudge standby key`".into());
    } else if s.last_heard.is_none() {
        out.push("standby: none has connected yet (a standby key is ready for one)".into());
    } else {
        out.push(format!(
            "standby: acknowledged change {} of {}; behind: {}",
            s.acknowledged.unwrap_or_default(),
            s.seq,
            behind(s)
        ));
        if s.silent {
            out.push(format!(
                "the standby is NOT HEARD FROM for {} (last heard {heard}): check the second laptop, its network and its screen",
                secs(s)
            ));
        } else {
            out.push(format!("standby last heard: {heard}"));
        }
    }
    if s.old_key_format {
        out.push(
            "old key format: the standby key is kept in a slow form from an older mmjudge: make a new key with \
             `mmjudge standby key` (and give it to the standby)"
                .into(),
        );
    }
    out
}

/// `2026-03-14T10:00:00Z (2 s ago)`, or `never`.
fn heard_words(s: &Status) -> String {
    match (&s.last_heard, s.heard_ms) {
        (Some(at), Some(_)) => format!("{at} ({} ago)", secs(s)),
        (Some(at), None) => at.clone(),
        _ => "never".into(),
    }
}

/// How long ago the other laptop was heard, in whole seconds: `7 s`.
fn secs(s: &Status) -> String {
    format!("{} s", s.heard_ms.unwrap_or_default() / 1000)
}

fn behind(s: &Status) -> String {
    match s.behind_changes {
        0 => "nothing".into(),
        n => format!("{} ({} ms)", crate::domain::words::count(n, "change"), s.behind_ms),
    }
}

/// The sentence of a promotion.
pub fn promoted(p: &Promoted) -> String {
    let forced = if p.primary_answered {
        " although the old primary still answered: stop it now, or two laptops take writes and what it records is lost"
    } else {
        ""
    };
    format!(
        "this laptop is the primary now (generation {}){forced}; a running `mmjudge serve --standby-of` takes writes, judges log in again",
        p.generation
    )
}

/// The sentence of a detachment.
pub fn detached(d: &crate::ops::standby::sync::Detached) -> String {
    let key = if d.had_key { "its key ended; " } else { "" };
    format!(
        "THE SECOND LAPTOP IS DETACHED: {key}every write is recorded on this laptop alone from now on (`mmjudge standby key` makes a key for a new one)"
    )
}

/// What a command line's write found of the second laptop, in one line.
pub fn waited(w: &crate::ops::standby::sync::Waited, db: &std::path::Path) -> String {
    use crate::ops::standby::sync::Waited;
    let status = format!("mmjudge --db {} standby status", db.display());
    match w {
        Waited::Applied { seq } => format!("the second laptop applied this change (change {seq})"),
        Waited::NotApplied { seq } => format!(
            "THE SECOND LAPTOP HAS NOT APPLIED change {seq} within 5 s: it is recorded on this laptop only until the second laptop catches up (`{status}`)"
        ),
        Waited::NotHeard { seq, last_heard } => format!(
            "warning: the second laptop is not heard from (last heard {}): change {seq} is recorded on this laptop only (`{status}`)",
            last_heard.as_deref().unwrap_or("never")
        ),
    }
}

/// The second laptop as the judges' dashboard tells it: one line, and whether it is an alarm. `following`: the
/// primary this server follows (a standby); `waits`: a primary that answers writes once the standby holds them;
/// `marked_behind`: such a primary's standby did not answer in time. None when there is no second laptop.
pub fn dashboard_line(s: &Status, following: Option<&str>, waits: bool, marked_behind: bool) -> Option<(bool, String)> {
    let heard = s.last_heard.as_deref().map_or("never".to_string(), |h| format!("at {}", hhmmss(h)));
    if let Some(primary) = following {
        if s.silent {
            return Some((
                true,
                format!(
                    "This is the second laptop, following {primary}: the first laptop is NOT HEARD FROM for {} \
                     (last heard {heard}, when this laptop {}). It takes no writes until a head judge promotes it at \
                     its keyboard.",
                    secs(s),
                    past_words(s)
                ),
            ));
        }
        return Some((
            s.behind_changes > 0 && s.behind_ms > 5_000,
            format!(
                "This is the second laptop, following {primary}: it {}; the first laptop last heard {heard}. \
                 It takes no writes until a head judge promotes it at its keyboard.",
                behind_words(s)
            ),
        ));
    }
    if let Some(to) = &s.moved_to {
        return Some((
            true,
            format!("The event moved to {to}: this laptop takes no more writes. Open the event there."),
        ));
    }
    if let Some(at) = &s.detached_at {
        return Some((
            true,
            format!(
                "The second laptop is DETACHED (since {}): every write is recorded on this laptop alone, with no \
                 copy anywhere. A head judge makes a key for a new second laptop at this laptop's keyboard.",
                hhmmss(at)
            ),
        ));
    }
    if !s.standby_key {
        return None;
    }
    let at = s.standby_url.as_deref().map_or(String::new(), |u| format!(" at {u}"));
    if !marked_behind && s.last_heard.is_none() {
        return Some((false, "No second laptop has connected yet (a standby key is ready for one).".to_string()));
    }
    if s.silent {
        return Some((
            true,
            format!(
                "The second laptop{at} is NOT HEARD FROM for {} (last heard {heard}, when it {}). \
                 Check its network and its screen.",
                secs(s),
                past_words(s)
            ),
        ));
    }
    if marked_behind {
        return Some((
            true,
            format!(
                "The second laptop{at} is BEHIND: it {}, last heard {heard}. {} Check its network and its screen.",
                behind_words(s),
                if waits {
                    "Writes it has not applied within 5 s are answered \"not saved yet\" and phones send them again."
                } else {
                    "Writes go on without it."
                }
            ),
        ));
    }
    let wait = if waits { " Every write waits until it holds it." } else { "" };
    Some((s.behind_ms > 5_000, format!("The second laptop{at} {}, last heard {heard}.{wait}", behind_words(s))))
}

/// [`behind_words`] as it was when last heard: `held every change` or `was 3 changes (1.2 s) behind`.
fn past_words(s: &Status) -> String {
    match s.behind_changes {
        0 => "held every change".into(),
        _ => behind_words(s).replacen("is ", "was ", 1),
    }
}

/// `holds every change` or `is 3 changes (1.2 s) behind`.
fn behind_words(s: &Status) -> String {
    match s.behind_changes {
        0 => "holds every change".into(),
        n => format!("is {} ({:.1} s) behind", crate::domain::words::count(n, "change"), s.behind_ms as f64 / 1000.0),
    }
}

/// `HH:MM:SS` of a stored moment (the moment itself when it is not one).
fn hhmmss(at: &str) -> String {
    at.get(11..19).unwrap_or(at).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn primary() -> Status {
        Status {
            role: crate::store::replication::Role::Primary,
            event: "EV".into(),
            generation: 1,
            seq: 8,
            primary: None,
            standby_key: true,
            old_key_format: false,
            acknowledged: Some(8),
            behind_changes: 0,
            behind_ms: 0,
            last_heard: None,
            heard_ms: None,
            silent: false,
            moved_to: None,
            standby_url: None,
            was_standby_of: None,
            detached_at: None,
        }
    }

    fn heard(mut s: Status, ms: i64) -> Status {
        s.last_heard = Some("2026-05-01T10:41:00.000Z".into());
        s.heard_ms = Some(ms);
        s.silent = ms > crate::ops::standby::SILENT_AFTER_MS;
        s
    }

    fn standby() -> Status {
        Status {
            role: crate::store::replication::Role::Standby,
            primary: Some("http://old".into()),
            acknowledged: None,
            standby_key: false,
            ..primary()
        }
    }

    #[test]
    fn a_primary_no_standby_connected_to_says_so_and_nothing_acknowledged() {
        let lines = lines(&primary(), Path::new("e.db"));
        assert_eq!(
            lines,
            [
                "this file is the primary (event EV, generation 1)",
                "standby: none has connected yet (a standby key is ready for one)"
            ]
        );
        assert_eq!(
            dashboard_line(&primary(), None, false, false),
            Some((false, "No second laptop has connected yet (a standby key is ready for one).".into()))
        );
    }

    #[test]
    fn a_standby_heard_lately_is_well_and_one_not_heard_from_for_five_seconds_is_an_alarm() {
        let well = heard(primary(), 1_200);
        assert_eq!(lines(&well, Path::new("e.db"))[2], "standby last heard: 2026-05-01T10:41:00.000Z (1 s ago)");
        let (alarm, line) = dashboard_line(&well, None, false, false).unwrap_or_default();
        assert!(!alarm && line.contains("holds every change, last heard at 10:41:00"), "{line}");
        let gone = heard(primary(), 7_400);
        assert_eq!(
            lines(&gone, Path::new("e.db"))[2],
            "the standby is NOT HEARD FROM for 7 s (last heard 2026-05-01T10:41:00.000Z (7 s ago)): check the second \
             laptop, its network and its screen"
        );
        let (alarm, line) = dashboard_line(&gone, None, true, false).unwrap_or_default();
        assert!(alarm, "{line}");
        assert_eq!(
            line,
            "The second laptop is NOT HEARD FROM for 7 s (last heard at 10:41:00, when it held every change). Check \
             its network and its screen."
        );
    }

    #[test]
    fn a_standby_says_when_it_last_heard_its_primary_and_how_to_promote_its_file_once_it_is_silent() {
        let well = heard(standby(), 900);
        let shown = lines(&well, Path::new("b.db"));
        assert_eq!(shown[0], "this file is the standby of http://old (event EV, generation 1)");
        assert_eq!(shown[2], "primary last heard: 2026-05-01T10:41:00.000Z (0 s ago)");
        let (alarm, _) = dashboard_line(&well, Some("http://old"), false, false).unwrap_or_default();
        assert!(!alarm);
        let gone = heard(standby(), 12_000);
        assert_eq!(
            lines(&gone, Path::new("b.db"))[2],
            "the primary is NOT HEARD FROM for 12 s (last heard 2026-05-01T10:41:00.000Z (12 s ago)): if the first \
             laptop is gone for good: mmjudge --db b.db standby promote"
        );
        let (alarm, line) = dashboard_line(&gone, Some("http://old"), false, false).unwrap_or_default();
        assert!(alarm, "{line}");
        assert!(line.contains("the first laptop is NOT HEARD FROM for 12 s (last heard at 10:41:00"), "{line}");
    }

    #[test]
    fn an_old_primary_whose_event_moved_says_so_first_and_nothing_of_its_standby() {
        let mut moved = heard(primary(), 60_000);
        moved.moved_to = Some("http://new".into());
        moved.silent = false;
        moved.behind_changes = 1;
        let shown = lines(&moved, Path::new("e.db"));
        assert_eq!(
            shown,
            [
                "THE EVENT MOVED to http://new: a standby there was promoted and the event goes on there",
                "this file is an old copy of the event (event EV, generation 1, change 8): it takes no more writes"
            ]
        );
    }

    #[test]
    fn a_standby_key_in_the_old_slow_form_is_said_with_the_way_to_a_new_one() {
        let mut p = primary();
        p.old_key_format = true;
        let shown = lines(&p, Path::new("e.db"));
        assert_eq!(
            shown.last().map(String::as_str),
            Some(
                "old key format: the standby key is kept in a slow form from an older mmjudge: make a new key with \
                 `mmjudge standby key` (and give it to the standby)"
            )
        );
    }

    #[test]
    fn a_promoted_primary_says_whom_it_followed() {
        let mut p = primary();
        p.generation = 2;
        p.standby_key = false;
        p.was_standby_of = Some("http://old".into());
        assert_eq!(
            lines(&p, Path::new("b.db"))[0],
            "this file is the primary (event EV, generation 2; promoted, it followed http://old before)"
        );
    }
}
