//! `open`: the event served and shown in the browser, for a judge who does not live in a terminal.

use std::net::SocketAddr;
use std::path::PathBuf;

/// `open` options.
#[derive(Debug, clap::Args)]
pub struct OpenArgs {
    /// The event file (default: --db / MMJUDGE_DB when given, else a choice among the events in the mmjudge
    /// folder of your documents folder, or a new one).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Do not open a browser (the address is printed).
    #[arg(long)]
    pub no_browser: bool,
    /// Where to listen, as `serve --bind` (default 0.0.0.0:8080, else the next free port up to 8089).
    #[arg(long, value_name = "ADDRESS:PORT")]
    pub bind: Option<SocketAddr>,
}
