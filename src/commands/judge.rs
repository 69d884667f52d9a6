//! `judge`: the judges who log in to the live server (`mmjudge serve`) from their phones.

use super::Ctx;
use crate::cli::judge::{JudgeCmd, RoleArg};
use crate::error::Result;
use crate::ops::judges::{self, JudgePin, Role};
use crate::render::{Format, Listing, done, emit, qr};

/// Runs a `judge` verb.
pub fn run(ctx: &Ctx, cmd: JudgeCmd) -> Result<()> {
    match cmd {
        JudgeCmd::Add { name, role, url } => {
            let role = match role {
                RoleArg::Floor => Role::Floor,
                RoleArg::Head => Role::Head,
            };
            let mut store = ctx.open()?;
            let out = judges::add_judge(&mut store, &ctx.actor()?, &name, role)?;
            show_pin(ctx, &out, url, "added")
        }
        JudgeCmd::Pin { name, url } => {
            let mut store = ctx.open()?;
            let out = judges::renew_pin(&mut store, &ctx.actor()?, &name)?;
            show_pin(ctx, &out, url, "has a new PIN (the old one no longer works; open logins ended)")
        }
        JudgeCmd::Link { name, url, minutes } => {
            let mut store = ctx.open()?;
            let out = judges::link::make_link(&mut store, &ctx.actor()?, &name, minutes)?;
            show_link(ctx, &out, url)
        }
        JudgeCmd::List => {
            let store = ctx.open()?;
            let all = judges::list_judges(&store, ctx.now()?)?;
            let mut listing = Listing::new(&["judge", "role", "added", "open logins"]).titled("Judges");
            for j in &all {
                let added = crate::time::unstamp(&j.created).map(|t| t.format("%Y-%m-%d %H:%M").to_string());
                listing.row(vec![
                    j.name.clone(),
                    j.role.word().into(),
                    added.unwrap_or_else(|_| j.created.clone()),
                    j.sessions.to_string(),
                ]);
            }
            emit(ctx.format, &listing, &serde_json::json!({ "judges": all }))
        }
        JudgeCmd::Remove { name } => {
            let mut store = ctx.open()?;
            let out = judges::remove_judge(&mut store, &ctx.actor()?, &name)?;
            let ended = crate::domain::words::count(out.sessions_ended, "open login");
            let summary = format!("judge {} removed ({ended} ended)", out.name);
            done(ctx.format, &summary, serde_json::json!({ "name": out.name, "sessions_ended": out.sessions_ended }))
        }
    }
}

/// Prints a new PIN once: the sentence, the login address and its QR code; in JSON `{"name","role","pin"}`.
fn show_pin(ctx: &Ctx, out: &JudgePin, url: Option<String>, what: &str) -> Result<()> {
    if ctx.format == Format::Json {
        println!("{}", serde_json::json!({ "name": out.name, "role": out.role, "pin": out.pin }));
        return Ok(());
    }
    let guessed = url.is_none();
    let base = url.unwrap_or_else(qr::default_url);
    let login = format!(
        "{}/login?name={}#pin={}",
        base.trim_end_matches('/'),
        crate::domain::text::url_query(&out.name),
        out.pin
    );
    println!("judge {} ({} judge) {what}", out.name, out.role.word());
    println!("PIN: {}  (shown this once: `mmjudge judge pin` makes a new one)", out.pin);
    println!("log in at {login}");
    if guessed {
        println!(
            "(the address `mmjudge serve` announces with its default --bind {}; --url ADDRESS overrides it)",
            qr::DEFAULT_BIND
        );
    }
    if ctx.format == Format::Human
        && let Some(code) = qr::terminal(&login)
    {
        println!("{code}");
    }
    Ok(())
}

/// Prints a one-time login link once: the sentence, the link and its QR code; in JSON
/// `{"name","role","link","expires","minutes"}`.
fn show_link(ctx: &Ctx, out: &judges::link::LoginLink, url: Option<String>) -> Result<()> {
    let guessed = url.is_none();
    let base = url.unwrap_or_else(qr::default_url);
    let link = format!(
        "{}/login?name={}#link={}",
        base.trim_end_matches('/'),
        crate::domain::text::url_query(&out.name),
        out.token
    );
    if ctx.format == Format::Json {
        let doc = serde_json::json!({
            "name": out.name, "role": out.role, "link": link, "expires": out.expires, "minutes": out.minutes,
        });
        println!("{doc}");
        return Ok(());
    }
    let until = crate::time::unstamp(&out.expires).map(crate::time::clock_time).unwrap_or_else(|_| out.expires.clone());
    let minutes = crate::domain::words::count(out.minutes as usize, "minute");
    println!(
        "a one-time login link for {} ({} judge): it works once, until {until} ({minutes})",
        out.name,
        out.role.word()
    );
    println!("{link}");
    if guessed {
        println!(
            "(the address `mmjudge serve` announces with its default --bind {}; --url ADDRESS overrides it)",
            qr::DEFAULT_BIND
        );
    }
    println!("open it on the new phone (scan the code): it logs in without the PIN, which stays as it is");
    if ctx.format == Format::Human
        && let Some(code) = qr::terminal(&link)
    {
        println!("{code}");
    }
    Ok(())
}
