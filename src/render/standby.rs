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
