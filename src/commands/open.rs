//! `open`: the event served on the venue's network and shown in the judge's browser, for a judge who does not
//! live in a terminal (a double-click on Windows, a shortcut on macOS and Linux run this).
//!
//! Which event: the FILE typed (or `--db`), else one chosen in the window among the events of the documents
//! folder's `mmjudge` folder ([`folder`]), or a new one there (the first run, or the last choice of the list).
//! An existing event is served through [`crate::web::serve_with`], as `serve` does; a new one goes through
//! [`new_event`], the one place that makes an event from nothing.

mod browser;
mod folder;

use super::Ctx;
use crate::cli::open::OpenArgs;
use crate::error::Result;
use crate::render::{Format, qr};
use crate::store::Store;
use std::io::{IsTerminal, Write};
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::{Path, PathBuf};

/// The event to open.
enum Place {
    /// An existing event file (refused, with the command line's words, when it is not one).
    Event(PathBuf),
    /// A new event to make at this file (its folder exists; the file does not).
    New(PathBuf),
}

/// Finds the event (or makes the place for a new one), then serves it until the window is closed.
pub fn run(ctx: &Ctx, db_given: Option<PathBuf>, args: &OpenArgs) -> Result<()> {
    let place = match args.file.clone().or(db_given) {
        Some(file) => Place::Event(file),
        None => pick(ctx)?,
    };
    let bind = args.bind.unwrap_or_else(free_bind);
    match place {
        Place::Event(file) => serve_event(ctx, &file, bind, args),
        Place::New(file) => new_event(ctx, &file, bind, args),
    }
}

/// The event among those of the documents folder, or a new one there.
fn pick(ctx: &Ctx) -> Result<Place> {
    let folder = folder::events_folder()?;
    let found = folder::events_in(&folder)?;
    let day = ctx.now()?.with_timezone(&chrono::Local).date_naive();
    if found.is_empty() {
        return Ok(Place::New(folder::new_file(&folder, day)));
    }
    let typed = std::io::stdin().is_terminal();
    let choice = folder::choose(&folder, &found, &mut std::io::stdin().lock(), &mut std::io::stdout().lock(), !typed)?;
    Ok(match choice {
        folder::Choice::Event(i) => Place::Event(found[i].file.clone()),
        folder::Choice::New => Place::New(folder::new_file(&folder, day)),
    })
}

/// Serves the event at `file` on `bind`, says so in the window and opens the browser on its judges' page.
fn serve_event(ctx: &Ctx, file: &Path, bind: SocketAddr, args: &OpenArgs) -> Result<()> {
    // Read first: a missing or foreign file is refused in the command line's words before anything listens.
    let name = {
        let store = Store::open(file)?;
        let snapshot = store.snapshot()?;
        crate::ops::event::show(&snapshot)?.name
    };
    let options = crate::web::Options { quiet: true, ..Default::default() };
    let (format, browse) = (ctx.format, !args.no_browser);
    crate::web::serve_with(file, bind, &options, |addr| {
        let here = format!("{}/judge", local_url(addr));
        let opened = browse && browser::open(&here);
        announce(format, &format!("the event {name} ({})", file.display()), addr, &here, browse.then_some(opened));
    })
}

/// A new event at `file` (its folder made, the file not yet): served as `serve --new` does, with the browser
/// opened on the one-time set-up link, whose page creates the event and its head judge.
fn new_event(ctx: &Ctx, file: &Path, bind: SocketAddr, args: &OpenArgs) -> Result<()> {
    let options = crate::web::Options { quiet: true, ..Default::default() };
    let (format, browse) = (ctx.format, !args.no_browser);
    crate::web::serve_new(file, bind, &options, |addr, link| {
        let here = format!("{}{link}", local_url(addr));
        let opened = browse && browser::open(&here);
        if format != Format::Json {
            // The link at the address phones reach, with its QR code labelled "set up" (the head judge may set the
            // event up from a phone); "On this computer" below is the same link on this computer.
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{}", qr::setup_block(&qr::setup_link(addr, "http", link), format == Format::Human));
        }
        announce(format, &format!("a new event ({})", file.display()), addr, &here, browse.then_some(opened));
    })
}

/// The window's words once the server listens: what is served, the address on this computer (and whether the
/// browser was opened on it: None when not asked), the address for phones with its QR code, and how to stop.
fn announce(format: Format, what: &str, addr: SocketAddr, here: &str, opened: Option<bool>) {
    let phones = qr::announced(addr, "http");
    let phone = phones.first().cloned().unwrap_or_else(|| local_url(addr));
    let mut out = std::io::stdout().lock();
    if format == Format::Json {
        let doc = serde_json::json!({ "listening": addr.to_string(), "here": here, "urls": phones });
        let _ = writeln!(out, "{doc}");
        let _ = out.flush();
        return;
    }
    let what = crate::domain::text::escape(what, false);
    let _ = writeln!(out, "mmjudge is running {what}.");
    let _ = match opened {
        Some(true) => writeln!(out, "On this computer: {here} (opened in your browser)"),
        Some(false) => writeln!(out, "On this computer: {here} (no browser could be opened: type it in yours)"),
        None => writeln!(out, "On this computer: {here}"),
    };
    let _ = writeln!(out, "Phones on the same Wi-Fi: {phone} (or scan this code)");
    if format == Format::Human
        && let Some(code) = qr::terminal(&phone)
    {
        let _ = writeln!(out, "{code}");
    }
    let _ = writeln!(
        out,
        "To stop mmjudge, close this window (or press Ctrl-C in it). Everything is saved as it happens: \
         open mmjudge again to carry on."
    );
    let _ = out.flush();
}

/// The address of the server on this computer: 127.0.0.1 (or ::1) when it listens on every network.
fn local_url(addr: SocketAddr) -> String {
    let ip = match addr {
        SocketAddr::V4(a) if a.ip().is_unspecified() => Ipv4Addr::LOCALHOST.into(),
        SocketAddr::V6(a) if a.ip().is_unspecified() => Ipv6Addr::LOCALHOST.into(),
        a => a.ip(),
    };
    format!("http://{}", SocketAddr::new(ip, addr.port()))
}

/// `serve`'s address for phones (0.0.0.0:8080) when that port is free, else the next free one up to 8089, else
/// any free port.
fn free_bind() -> SocketAddr {
    let free = (8080..=8089).find(|p| std::net::TcpListener::bind((Ipv4Addr::UNSPECIFIED, *p)).is_ok());
    SocketAddr::from((Ipv4Addr::UNSPECIFIED, free.unwrap_or(0)))
}
