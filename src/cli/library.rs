//! `library` verbs: building, showing and editing the libraries, deck sheets, sealed registration.

use clap::Subcommand;
use std::path::PathBuf;

/// The tournament libraries: 40-card main libraries and 30-card Utopia libraries at fixed table seats.
#[derive(Debug, Subcommand)]
pub enum LibraryCmd {
    /// Build two balanced main libraries per table from the pool (replacing any built before).
    Build {
        /// Number of tables (two libraries each, seats A and B).
        #[arg(value_parser = crate::cli::bounds::tables, long)]
        tables: u32,
        /// Random seed (default: the event's seed).
        #[arg(value_parser = crate::cli::bounds::seed, allow_hyphen_values = true, long)]
        seed: Option<u64>,
        /// Rebuild although round 1 is paired (audited).
        #[arg(long)]
        force: bool,
    },
    /// Every library with its curve and colours.
    List,
    /// One library's cards, sorted by cost.
    Show {
        /// The library: table and seat (3A, 3a), or a player's name for sealed libraries.
        library: String,
    },
    /// Replace one card of a library by a free copy from the pool.
    Swap {
        /// The library: table and seat (3A).
        library: String,
        /// The card to take out.
        out: String,
        /// The pool card to put in.
        #[arg(name = "IN")]
        card_in: String,
        /// Edit although round 1 is paired (audited).
        #[arg(long)]
        force: bool,
    },
    /// Write one printable HTML deck sheet per library and one CSV of all libraries into DIR.
    Sheets {
        /// The folder (created if needed).
        dir: PathBuf,
        /// Replace files of the same names in DIR that an earlier `library sheets` did not write.
        #[arg(long)]
        force: bool,
    },
    /// Register a player's sealed product (sealed events): basic lands become the Utopia library, the rest the
    /// main library.
    Register {
        /// The player (any unambiguous prefix).
        player: String,
        /// CSV of the opened product: name, count (default 1), mana_cost and type_line (unknown cards only).
        file: PathBuf,
        /// Exactly three cards set aside from the main library, comma-separated.
        #[arg(long, value_name = "A,B,C")]
        sideboard: Option<String>,
        /// Keep names the reference does not know (their mana_cost and type_line must be given).
        #[arg(long)]
        allow_unknown: bool,
        /// Register again although round 1 is paired (audited).
        #[arg(long)]
        force: bool,
    },
}
