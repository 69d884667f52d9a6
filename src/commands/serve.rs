//! `serve`: the event live on the venue's network.

use super::Ctx;
use crate::cli::judge::ServeArgs;
use crate::error::Result;
use crate::render::qr;
use std::io::Write;

/// Runs the server until Ctrl-C, after printing the addresses phones can use and a QR code of the first; with
/// `--new`, the one-time set-up link first, with its own QR code.
pub fn run(ctx: &Ctx, args: &ServeArgs) -> Result<()> {
    let format = ctx.format;
    let tls = match args.tls.as_deref() {
        Some([cert, key]) => Some(crate::web::listen::Tls { cert: cert.clone(), key: key.clone() }),
        _ => None,
    };
    let scheme = if tls.is_some() { "https" } else { "http" };
    let standby_of = match (&args.standby_of, &args.key) {
        (Some(url), Some(key)) => Some((crate::replica::client::Url::parse(url)?, key.clone(), args.advertise.clone())),
        _ => None,
    };
    let options = crate::web::Options {
        tls,
        quiet: args.quiet,
        standby_of,
        standby_required: args.standby_required,
        streams_per_address: usize::from(args.streams_per_address),
    };
    if args.new {
        return crate::web::serve_new(&ctx.db, args.bind, &options, |addr, link| {
            let urls = qr::announced(addr, scheme);
            let setup = qr::setup_link(addr, scheme, link);
            announce(ctx, format, &urls, Some(&setup));
        });
    }
    crate::web::serve_with(&ctx.db, args.bind, &options, |addr| {
        let urls = qr::announced(addr, scheme);
        announce(ctx, format, &urls, None);
    })
}

/// What the terminal says once the server listens: the set-up link and its QR code labelled "set up" (with
/// `--new`), the addresses, the players' QR code, and how to stop.
fn announce(ctx: &Ctx, format: crate::render::Format, urls: &[String], setup: Option<&str>) {
    let mut out = std::io::stdout().lock();
    if format == crate::render::Format::Json {
        let _ = writeln!(out, "{}", serde_json::json!({ "listening": urls.first(), "urls": urls, "setup": setup }));
        let _ = out.flush();
        return;
    }
    if let Some(link) = setup {
        let _ = writeln!(out, "{}", qr::setup_block(link, format == crate::render::Format::Human));
    }
    let _ = writeln!(out, "mmjudge serves {} on:", ctx.db.display());
    for u in urls {
        let _ = writeln!(out, "  {u}");
    }
    let first = urls.first().map(String::as_str).unwrap_or_default();
    let _ = writeln!(
        out,
        "players: open the address on a phone (same Wi-Fi); judges: {first}/login; projector: {first}/projector"
    );
    if let Some((Some(files), phones)) = crate::web::phones_held() {
        let _ = writeln!(
            out,
            "live updates: up to {phones} phones at once (open files: {files}); more are told to try again later"
        );
    }
    if format == crate::render::Format::Human
        && let Some(code) = qr::terminal(first)
    {
        let _ = writeln!(out, "players:\n{code}");
    }
    let _ = writeln!(out, "Ctrl-C stops the server; the command line keeps working on the same file.");
    let _ = out.flush();
}
