//! `pool` verbs: the judges' physical cards, the curation report and the watch list.

use clap::Subcommand;
use std::path::PathBuf;

/// The judges' physical card pool, from which the libraries are built.
#[derive(Debug, Subcommand)]
pub enum PoolCmd {
    /// Add cards from a CSV file with a header row: name, count (default 1), mana_cost and type_line (needed
    /// only for cards the reference does not know). All lines or none.
    Import {
        /// The CSV file.
        file: PathBuf,
        /// Keep names the reference does not know (their mana_cost and type_line must be given).
        #[arg(long)]
        allow_unknown: bool,
        /// Replace the whole pool instead of adding to it (refused once libraries are built).
        #[arg(long)]
        replace: bool,
    },
    /// List the pool: copies, copies in libraries, lands and excluded cards.
    List,
    /// Add copies of a card.
    Add {
        /// The card's name.
        name: String,
        /// Copies to add.
        #[arg(value_parser = crate::cli::bounds::copies, long, default_value_t = 1)]
        count: u32,
        /// Printed cost ({1}{B} or B1), for a card the reference does not know.
        #[arg(long)]
        cost: Option<String>,
        /// Type line, for a card the reference does not know.
        #[arg(long = "type", value_name = "TYPE_LINE")]
        type_line: Option<String>,
        /// Keep a name the reference does not know (with --cost and --type).
        #[arg(long)]
        allow_unknown: bool,
    },
    /// Remove copies of a card (all of them unless --count).
    Remove {
        /// The card (any unambiguous part of its name).
        name: String,
        /// Copies to remove.
        #[arg(value_parser = crate::cli::bounds::copies, long)]
        count: Option<u32>,
    },
    /// The curation report: every printed cost, its binding class and its flags.
    Check {
        /// Also list the costs with no flag.
        #[arg(long)]
        all: bool,
        /// Also write the report as a printable HTML page.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
        /// Replace FILE even if it exists and was not written by this command (never an SQLite file).
        #[arg(long, requires = "html")]
        force: bool,
    },
    /// Leave a card out of library building.
    Exclude {
        /// The card (any unambiguous part of its name).
        name: String,
    },
    /// Take an excluded card back into library building.
    Include {
        /// The card (any unambiguous part of its name).
        name: String,
    },
    /// The watch list: cards whose cost class makes a pool card abusive.
    #[command(subcommand)]
    Watch(WatchCmd),
}

/// The judges' watch list.
#[derive(Debug, Subcommand)]
pub enum WatchCmd {
    /// Watch a card: pool costs whose class holds it are flagged abusive.
    Add {
        /// The card's name (checked against the reference).
        name: String,
        /// Why it is watched.
        #[arg(long, default_value = "")]
        note: String,
        /// Watch a name the reference does not know.
        #[arg(long)]
        force: bool,
    },
    /// Show the watch list.
    List,
    /// Stop watching a card.
    Remove {
        /// The card's name.
        name: String,
    },
}
