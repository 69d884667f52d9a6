//! `time`, `clock` and `decisions`: the round clock per table, the decision clock, and decision statistics.

use std::path::PathBuf;

/// `time` options.
#[derive(Debug, clap::Args)]
pub struct TimeArgs {}

/// `clock` options: the live screen for a table, its scripted start/stop, or the projector page.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("action").args(["start", "stop"])))]
#[command(after_help = "Keys on the live screen: space starts/stops a decision of the player to act, tab switches \
the player to act, p pauses for a judge call (over a minute extends the table), s logs a stall, q quits.")]
pub struct ClockArgs {
    /// The table (required unless --html).
    #[arg(value_parser = crate::cli::bounds::table, required_unless_present = "html")]
    pub table: Option<u32>,
    /// Start a decision of this player (any unambiguous prefix), without the screen.
    #[arg(long, value_name = "PLAYER", conflicts_with_all = ["stop", "html"])]
    pub start: Option<String>,
    /// Stop the decision in progress at the table, without the screen.
    #[arg(long, conflicts_with = "html")]
    pub stop: bool,
    /// Discard the decision in progress at the table, started by mistake (nothing is recorded).
    #[arg(long, conflicts_with_all = ["start", "stop", "html", "at"])]
    pub cancel: bool,
    /// When the decision started or stopped (RFC 3339, or HH:MM:SS today; default now).
    #[arg(long, value_name = "TIME", requires = "action")]
    pub at: Option<String>,
    /// Write the room projector page for the current round to FILE instead.
    #[arg(long, value_name = "FILE", conflicts_with = "table")]
    pub html: Option<PathBuf>,
    /// Replace FILE even if it exists and was not written by this command (never an SQLite file).
    #[arg(long, requires = "html")]
    pub force: bool,
}

/// `decisions` options.
#[derive(Debug, clap::Args)]
pub struct DecisionsArgs {
    /// Only the match at this table in the current round.
    #[arg(value_parser = crate::cli::bounds::table, long)]
    pub table: Option<u32>,
    /// Only this player (any unambiguous prefix); with --html, the player whose decisions are drawn.
    #[arg(long)]
    pub player: Option<String>,
    /// Also list every finished decision (round, table, player, length, limit, overrun).
    #[arg(long)]
    pub all: bool,
    /// Also write the slow-play page to FILE: the players ranked by overruns and median, each drawn with every
    /// decision against its own limit (the first 16, or the player given with --player).
    #[arg(long, value_name = "FILE", conflicts_with = "table")]
    pub html: Option<PathBuf>,
    /// Replace FILE even though mmjudge did not write it as a slow-play page.
    #[arg(long, requires = "html")]
    pub force: bool,
}
