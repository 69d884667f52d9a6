//! `serve`: the event live on the venue's network.

use super::Ctx;
use crate::cli::judge::ServeArgs;
use crate::error::Result;
use crate::render::qr;
use std::io::Write;

/// Runs the server until Ctrl-C, after printing the addresses phones can use and a QR code of the first.
pub fn run(ctx: &Ctx, args: &ServeArgs) -> Result<()> {
    let format = ctx.format;
    let tls = match args.tls.as_deref() {
        Some([cert, key]) => Some(crate::web::listen::Tls { cert: cert.clone(), key: key.clone() }),
        _ => None,
    };
    let scheme = if tls.is_some() { "https" } else { "http" };
    let standby_of = match (&args.standby_of, &args.key) {
        (Some(url), Some(key)) => {
            Some((crate::ops::standby::client::Url::parse(url)?, key.clone(), args.advertise.clone()))
        }
        _ => None,
    };
    let options = crate::web::Options {
        tls,
        quiet: args.quiet,
        standby_of,
        standby_required: args.standby_required,
        streams_per_address: usize::from(args.streams_per_address),
    };
    crate::web::serve_with(&ctx.db, args.bind, &options, |addr| {
        let urls = qr::announced(addr, scheme);
        let mut out = std::io::stdout().lock();
        if format == crate::render::Format::Json {
            let _ = writeln!(out, "{}", serde_json::json!({ "listening": addr.to_string(), "urls": urls }));
        } else {
            let _ = writeln!(out, "mmjudge serves {} on:", ctx.db.display());
            for u in &urls {
                let _ = writeln!(out, "  {u}");
            }
            let _ = writeln!(
                out,
                "players: open the address on a phone (same Wi-Fi); judges: {}/login; projector: {}/projector",
                urls[0], urls[0]
            );
            if let Some((Some(files), phones)) = crate::web::phones_held() {
                let _ = writeln!(
                    out,
                    "live updates: up to {phones} phones at once (open files: {files}); more are told to try again later"
                );
            }
            if format == crate::render::Format::Human
                && let Some(code) = qr::terminal(&urls[0])
            {
                let _ = writeln!(out, "{code}");
            }
            let _ = writeln!(out, "Ctrl-C stops the server; the command line keeps working on the same file.");
        }
        let _ = out.flush();
    })
}
