//! `result` and `results`.

use clap::{Args, Subcommand};

/// `result`: record a match's result, `result fix` to correct one, or `result clear` to take it back.
#[derive(Debug, Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = RESULT_HELP
)]
pub struct ResultArgs {
    /// `fix`: correct a recorded result; `clear`: take it back; `reports`: the players' self-reports waiting.
    #[command(subcommand)]
    pub fix: Option<ResultSub>,
    /// The result to record.
    #[command(flatten)]
    pub record: RecordArgs,
}

/// The reasons and examples, for `result --help` and `result fix --help`.
pub const RESULT_HELP: &str = "Reasons: life (reduced to 0), decking, poison, concession, time (end of round, once time \
is called at the table or the round is closed: the higher life total wins, equal is a draw), lock (a judge ruled a complete lock at time), challenges, no-show, \
penalty, intentional-draw. A draw is possible by life, decking, poison (both at once), time, penalty and \
intentional-draw.\n\nExamples:\n  mmjudge result 3 ana --by life --life 12 0\n  mmjudge result 5 --by time \
--life 7 9        (the totals decide)\n  mmjudge result 2 draw --by intentional-draw\n  mmjudge result fix 3 bo \
--by concession --round 2 --force";

/// Correcting a result.
#[derive(Debug, Subcommand)]
pub enum ResultSub {
    /// Correct a recorded result (audited; shows before and after).
    #[command(after_help = RESULT_HELP)]
    Fix {
        /// The corrected result.
        #[command(flatten)]
        record: RecordArgs,
        /// Fix it even though later rounds were already paired on the old result (they are not re-paired).
        #[arg(long)]
        force: bool,
    },
    /// Take a result back: the match is playing again (audited; says what it was).
    Clear {
        /// The table (in the current round unless --round).
        #[arg(value_parser = crate::cli::bounds::table)]
        table: u32,
        /// The round (default: the current round).
        #[arg(long, value_name = "N", value_parser = crate::cli::bounds::round)]
        round: Option<u32>,
        /// Clear it even though later rounds were already paired on it (they are not re-paired).
        #[arg(long)]
        force: bool,
    },
    /// The players' self-reported results still waiting for the opponent, or in conflict (they count nowhere
    /// until confirmed or recorded by a judge).
    Reports {
        /// The round (default: the current round).
        #[arg(long, value_name = "N", value_parser = crate::cli::bounds::round)]
        round: Option<u32>,
    },
}

/// A result as typed.
#[derive(Debug, Args)]
pub struct RecordArgs {
    /// The table (in the current round unless --round).
    #[arg(value_parser = crate::cli::bounds::table, required = true)]
    pub table: Option<u32>,
    /// The winner (any unambiguous prefix of a player at the table) or `draw`; may be left out with --by time.
    pub winner: Option<String>,
    /// Why the game ended (see the reasons below).
    #[arg(long = "by", value_name = "REASON", required = true)]
    pub reason: Option<String>,
    /// Life totals: seat A's, then seat B's (the order `results` lists the players). Required with --by time.
    #[arg(value_parser = crate::cli::bounds::life, long, num_args = 2, value_names = ["A", "B"], allow_negative_numbers = true)]
    pub life: Option<Vec<i64>>,
    /// With --by time: the turn the game was on when time was called (as on the result slip).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=999))]
    pub turn: Option<u32>,
    /// A judge's remark on the result (`result fix` keeps the old one unless given).
    #[arg(long)]
    pub note: Option<String>,
    /// When the game ended, for results logged late (HH:MM today or RFC 3339; default now).
    #[arg(long, value_name = "TIME")]
    pub at: Option<String>,
    /// The round (default: the current round).
    #[arg(value_parser = crate::cli::bounds::round, long, value_name = "N")]
    pub round: Option<u32>,
}

/// `results` options.
#[derive(Debug, Args)]
pub struct ResultsArgs {
    /// The round (default: the current round).
    #[arg(value_parser = crate::cli::bounds::round, long, value_name = "N")]
    pub round: Option<u32>,
}
