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
        /// Cards in each main library (the tournament rules: 40).
        #[arg(value_parser = crate::cli::bounds::library_size, long, default_value_t = 40)]
        size: usize,
        /// Basic lands in each Utopia library (the tournament rules: 30).
        #[arg(value_parser = crate::cli::bounds::utopia_size, long, default_value_t = 30)]
        utopia: u32,
        /// Build cards of unusable costs in (by default they are left out, and the reply names them).
        #[arg(long)]
        keep_unusable: bool,
    },
    /// Build K more tables' libraries from what is left in the pool, balanced against the libraries in play,
    /// which stay exactly as they are (allowed after round 1: nobody has played the new tables).
    AddTables {
        /// Tables to add (two libraries each, seats A and B, numbered after the last table).
        #[arg(value_parser = crate::cli::bounds::tables, value_name = "K")]
        tables: u32,
        /// Random seed (default: the event's seed).
        #[arg(value_parser = crate::cli::bounds::seed, allow_hyphen_values = true, long)]
        seed: Option<u64>,
        /// Build cards of unusable costs in (by default they are left out, and the reply names them).
        #[arg(long)]
        keep_unusable: bool,
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
