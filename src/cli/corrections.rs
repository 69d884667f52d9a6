//! The `void` verbs of the record groups (`penalty void ID`, `challenge void ID`, `ruling void ID`,
//! `note void ID`, `round extend void ID`, `stall void ID`) and the `rulings` and `stalls` listings.

use clap::{Args, Subcommand};

/// What `void` does, for its help.
pub const VOID_HELP: &str = "A voided record stays in the event and in its listings, marked void (who, when, \
why), but counts for nothing from then on: not for upgrades, the challenge limit, rule MM.3e, round time or \
stalls. What it caused is worked out again: a later penalty's upgrade, a match it ended (back to playing), a \
disqualification. The ids are the ones the listings, `--json` and `mmjudge log` show.";

/// Voiding a record of a kind whose void cannot change a result.
#[derive(Debug, Subcommand)]
pub enum VoidSub {
    /// Void a record entered by mistake: it stays listed, marked void, and counts for nothing.
    #[command(after_help = VOID_HELP)]
    Void(VoidArgs),
}

/// Voiding a record that may have decided a match (a penalty, a challenge).
#[derive(Debug, Subcommand)]
pub enum VoidResultSub {
    /// Void a record entered by mistake: it counts for nothing, and a match it ended is playing again.
    #[command(after_help = VOID_HELP)]
    Void(VoidResultArgs),
}

/// `... void ID [--reason TEXT]`.
#[derive(Debug, Args)]
pub struct VoidArgs {
    /// The record's id (as its listing shows it).
    pub id: i64,
    /// Why it is voided, for the record.
    #[arg(long, value_name = "TEXT")]
    pub reason: Option<String>,
    /// Void it although it is a record of an earlier round than the one being played.
    #[arg(long)]
    pub force: bool,
}

/// `... void ID [--reason TEXT] [--force]`.
#[derive(Debug, Args)]
pub struct VoidResultArgs {
    /// The record's id (as its listing shows it).
    pub id: i64,
    /// Why it is voided, for the record.
    #[arg(long, value_name = "TEXT")]
    pub reason: Option<String>,
    /// Void it although it is a record of an earlier round than the one being played, and take a match's result
    /// back even though later rounds were already paired on it (they are not redone).
    #[arg(long)]
    pub force: bool,
}

/// `stall void ID`.
#[derive(Debug, Subcommand)]
pub enum StallCmd {
    /// Void a stall logged by mistake on the live clock (`s`): it no longer counts in `decisions`.
    #[command(after_help = VOID_HELP)]
    Void(VoidArgs),
}

/// `rulings` options.
#[derive(Debug, Args)]
pub struct RulingsArgs {
    /// Only the rulings at this table (in the current round unless --round).
    #[arg(long, value_name = "T", value_parser = crate::cli::bounds::table)]
    pub table: Option<u32>,
    /// Only this round (with --table: that table's round).
    #[arg(long, value_name = "N", value_parser = crate::cli::bounds::round)]
    pub round: Option<u32>,
    /// Only the rulings at this player's matches.
    #[arg(long, value_name = "P")]
    pub player: Option<String>,
}

/// `stalls` options.
#[derive(Debug, Args)]
pub struct StallsArgs {
    /// Only the stalls at this table (in the current round unless --round).
    #[arg(long, value_name = "T", value_parser = crate::cli::bounds::table)]
    pub table: Option<u32>,
    /// Only this round (with --table: that table's round).
    #[arg(long, value_name = "N", value_parser = crate::cli::bounds::round)]
    pub round: Option<u32>,
    /// Only this player's stalls.
    #[arg(long, value_name = "P")]
    pub player: Option<String>,
}
