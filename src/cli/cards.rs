//! `cards` and `ban` verbs.

use clap::Subcommand;
use std::path::PathBuf;

/// The card reference: every real card a player may declare.
#[derive(Debug, Subcommand)]
pub enum CardsCmd {
    /// Load a card reference (CSV, MTGJSON or Scryfall JSON, detected from the content), replacing the old one.
    Import {
        /// The file.
        file: PathBuf,
    },
    /// Find cards by name, forgiving typos, accents and punctuation.
    Find {
        /// Part of a card name.
        text: String,
        /// Most results to show.
        #[arg(long, default_value_t = 10)]
        limit: usize,
    },
    /// Every real card a card of this printed cost may be declared as (its binding class).
    Cost {
        /// The printed card.
        #[command(flatten)]
        printed: PrintedArgs,
    },
    /// Is NAME a legal declaration for a card of printed cost COST? Exit 0 if legal, 1 with the reason if not.
    Check {
        /// The printed card.
        #[command(flatten)]
        printed: PrintedArgs,
        /// The declared card's name.
        name: String,
    },
}

/// The printed card a `cards cost` / `cards check` asks about, and the game whose templates are already used.
#[derive(Debug, clap::Args)]
pub struct PrintedArgs {
    /// The printed cost: {1}{B} or the note form B1 (or `land` for a printed land card).
    pub cost: String,
    /// The printed card's first letter (alphabet binding rules).
    #[arg(long)]
    pub letter: Option<char>,
    /// Also refuse / leave out the templates already declared in the game at this table.
    #[arg(value_parser = crate::cli::bounds::table, long, value_name = "T")]
    pub table: Option<u32>,
    /// The round of --table (default: the current round).
    #[arg(value_parser = crate::cli::bounds::round, long, value_name = "N", requires = "table")]
    pub round: Option<u32>,
}

impl PrintedArgs {
    /// The game named by `--table T [--round N]`, if any.
    pub fn game(&self) -> Option<(u32, Option<u32>)> {
        self.table.map(|t| (t, self.round))
    }
}

/// The event's ban list.
#[derive(Debug, Subcommand)]
pub enum BanCmd {
    /// Show the ban list by group.
    List,
    /// Ban a card.
    Add {
        /// The card's name (checked against the reference).
        name: String,
        /// Ban group: ante-dexterity, deck-stacking, mass-reanimation or too-powerful.
        #[arg(long)]
        group: String,
        /// Why (default: the group's reason).
        #[arg(long)]
        reason: Option<String>,
        /// Ban a name the reference does not know.
        #[arg(long)]
        force: bool,
    },
    /// Lift a ban.
    Remove {
        /// The card's name.
        name: String,
    },
}
