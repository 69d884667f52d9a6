//! `challenge` and `challenges`.

use clap::Args;

/// `challenge`: record a challenge, or `challenge void ID`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, arg_required_else_help = true)]
pub struct ChallengeCmd {
    /// `void`: void a challenge recorded by mistake; `evidence`: cite notes in a challenge recorded.
    #[command(subcommand)]
    pub void: Option<ChallengeSub>,
    /// The challenge to record.
    #[command(flatten)]
    pub record: Option<ChallengeArgs>,
}

/// The verbs of `challenge` besides recording one.
#[derive(Debug, clap::Subcommand)]
pub enum ChallengeSub {
    /// Void a record entered by mistake: it counts for nothing, and a match it ended is playing again.
    #[command(after_help = super::corrections::VOID_HELP)]
    Void(super::corrections::VoidResultArgs),
    /// Cite template notes as evidence in a challenge already recorded.
    #[command(
        after_help = "The notes must be notes of the challenge's match that count (not voided). `mmjudge challenges --evidence` lists each challenge with its evidence: who declared what, when, and the card's text.

Example:
  mmjudge challenge evidence 3 31 35"
    )]
    Evidence(EvidenceArgs),
}

/// `challenge evidence ID NOTE...`.
#[derive(Debug, Args)]
pub struct EvidenceArgs {
    /// The challenge (its id, as `mmjudge challenges` lists it).
    pub challenge: i64,
    /// The notes (their ids, as `mmjudge notes TABLE` shows them).
    #[arg(required = true, value_name = "NOTE_ID")]
    pub notes: Vec<i64>,
}

/// `challenge`: record a challenge a judge heard.
#[derive(Debug, Args)]
#[command(
    after_help = "The ruling is seen from the challenger's side:\n  upheld  the challenger was right: the OTHER \
player lost the challenge\n  denied  the challenger was wrong: the CHALLENGER lost the challenge\nA player who \
loses as many challenges in one match as the event's challenge-limit (default 2) loses the match at once \
(result reason `challenges`).\nThe judge who heard it is the global --judge (default $MMJUDGE_JUDGE).\n\n\
Example:\n  mmjudge challenge 4 --by ana --about \"Ana says Bo already declared Shock\" --ruling denied \
--evidence 31 35"
)]
pub struct ChallengeArgs {
    /// The table (in the current round unless --round).
    #[arg(value_parser = crate::cli::bounds::table)]
    pub table: u32,
    /// The player who made the challenge (at that table).
    #[arg(long = "by", value_name = "PLAYER")]
    pub by: String,
    /// The point of contention.
    #[arg(long, value_name = "TEXT")]
    pub about: String,
    /// The judge's ruling: upheld (the challenger was right) or denied (the challenger was wrong).
    #[arg(long, value_parser = ["upheld", "denied"])]
    pub ruling: String,
    /// What the challenger stated.
    #[arg(long, value_name = "TEXT")]
    pub by_says: Option<String>,
    /// What the other player stated.
    #[arg(long, value_name = "TEXT")]
    pub other_says: Option<String>,
    /// Template notes the judge used as evidence (their ids, as `notes TABLE` shows them).
    #[arg(long, value_name = "NOTE_ID", num_args = 1..)]
    pub evidence: Vec<i64>,
    /// When it was heard (HH:MM today or RFC 3339; default now).
    #[arg(long, value_name = "TIME")]
    pub at: Option<String>,
    /// The round (default: the current round).
    #[arg(value_parser = crate::cli::bounds::round, long, value_name = "N")]
    pub round: Option<u32>,
    /// Record it even though the match already has a result (the result is not changed).
    #[arg(long)]
    pub force: bool,
}

/// `challenges` options.
#[derive(Debug, Args)]
#[command(after_help = "--watch is the judges' watch report: per player across the event, challenges made, \
denied, lost in total and the denied rate; a player is flagged (possible stalling) with at least 3 challenges \
made and more than half of them denied.")]
pub struct ChallengesArgs {
    /// Only the challenges at this table (in the current round unless --round).
    #[arg(value_parser = crate::cli::bounds::table, long, value_name = "T", conflicts_with = "watch")]
    pub table: Option<u32>,
    /// Only the challenges at this player's matches.
    #[arg(long, value_name = "P", conflicts_with = "watch")]
    pub player: Option<String>,
    /// Only this round (with --table: that table's round).
    #[arg(value_parser = crate::cli::bounds::round, long, value_name = "N", conflicts_with = "watch")]
    pub round: Option<u32>,
    /// The judges' watch report per player instead of the list.
    #[arg(long)]
    pub watch: bool,
    /// Each challenge's evidence in full: who declared what, when, and the card's text.
    #[arg(long, conflicts_with = "watch")]
    pub evidence: bool,
}
