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

/// Prints the replication status.
pub fn status(format: Format, s: &Status) -> Result<()> {
    match format {
        Format::Json => println!("{}", serde_json::to_string(s).unwrap_or_default()),
        Format::Quiet => {}
        Format::Human | Format::Csv => {
            for line in lines(s) {
                println!("{line}");
            }
        }
    }
    Ok(())
}

/// The status in lines, for people.
pub fn lines(s: &Status) -> Vec<String> {
    let mut out = Vec::new();
    let heard = s.last_heard.as_deref().unwrap_or("never");
    if s.role == "standby" {
        let of = s.primary.as_deref().unwrap_or("?");
        out.push(format!("this file is the standby of {of} (event {}, generation {})", s.event, s.generation));
        out.push(format!("applied: change {}; behind: {}", s.seq, behind(s)));
        out.push(format!("primary last heard: {heard}"));
    } else {
        out.push(format!("this file is the primary (event {}, generation {})", s.event, s.generation));
        if let Some(to) = &s.moved_to {
            out.push(format!("THE EVENT MOVED to {to}: a standby was promoted; this file takes no more writes"));
        }
        if s.standby_key {
            out.push(format!(
                "standby: acknowledged change {} of {}; behind: {}",
                s.acknowledged.unwrap_or_default(),
                s.seq,
                behind(s)
            ));
            out.push(format!("standby last heard: {heard}"));
        } else {
            out.push("no standby key: make one with `mmjudge standby key`".into());
        }
    }
    out
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

/// The second laptop as the judges' dashboard tells it: one line, and whether it is an alarm. `following`: the
/// primary this server follows (a standby); `waits`: a primary that answers writes once the standby holds them;
/// `marked_behind`: such a primary's standby did not answer in time. None when there is no second laptop.
pub fn dashboard_line(s: &Status, following: Option<&str>, waits: bool, marked_behind: bool) -> Option<(bool, String)> {
    let heard = s.last_heard.as_deref().map_or("never".to_string(), |h| format!("at {}", hhmmss(h)));
    if let Some(primary) = following {
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
    if !s.standby_key {
        return None;
    }
    let at = s.standby_url.as_deref().map_or(String::new(), |u| format!(" at {u}"));
    if !marked_behind && s.last_heard.is_none() {
        return Some((false, "No second laptop has connected yet (a standby key is ready for one).".to_string()));
    }
    if marked_behind {
        return Some((
            true,
            format!(
                "The second laptop{at} is BEHIND: it {}, last heard {heard}. Writes no longer wait for it: \
                 check its network and its screen.",
                behind_words(s)
            ),
        ));
    }
    let wait = if waits { " Every write waits until it holds it." } else { "" };
    Some((s.behind_ms > 5_000, format!("The second laptop{at} {}, last heard {heard}.{wait}", behind_words(s))))
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
