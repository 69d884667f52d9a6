//! `standings`, `report` and `site` options: what players and judges read after the rounds.

use clap::Subcommand;
use std::path::PathBuf;

/// `standings` options.
#[derive(Debug, clap::Args)]
pub struct StandingsArgs {
    /// Standings after this round (default: the last round with every result in).
    #[arg(value_parser = crate::cli::bounds::round, long, value_name = "N")]
    pub round: Option<u32>,
}

/// The duplicate reports: how the fixed libraries did, and each player against par.
#[derive(Debug, Subcommand)]
pub enum ReportCmd {
    /// Each table's library A against library B, lopsided pairs flagged.
    ///
    /// Per table, library A's record against library B with a two-sided binomial p-value (pairs below 0.05
    /// flagged for the judges); per library, games, win rate and its exact interval. Counts every result recorded
    /// so far.
    Libraries {
        /// Also write a printable page: each library against par in a chart, with its numbers.
        #[arg(long, value_name = "FILE")]
        html: Option<std::path::PathBuf>,
        /// Replace FILE even though mmjudge did not write it as a library report.
        #[arg(long, requires = "html")]
        force: bool,
    },
    /// Each player's wins above par, game by game.
    ///
    /// Each player's wins and wins above par (their result minus the win rate of everyone else on the
    /// same library), with each game's library and par. `--csv` gives one row per game.
    Players {
        /// Only this player, one line per game (any unambiguous prefix).
        name: Option<String>,
    },
}

/// `site` options.
#[derive(Debug, clap::Args)]
pub struct SiteArgs {
    /// The folder to write the site into (created if missing).
    pub dir: PathBuf,
    /// Write into a non-empty folder that is not an earlier mmjudge site (its other files are kept).
    #[arg(long)]
    pub force: bool,
    /// Write the judges' site: also library contents, note sheets, deck sheets, the judges' records and card
    /// pages (without it, the public site: pairings, standings, result slips and the clock).
    #[arg(long)]
    pub judges: bool,
}
