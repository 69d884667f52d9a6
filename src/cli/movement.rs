//! `movement` verbs: planning before an event.

use clap::Subcommand;

/// Plan the movement before an event.
#[derive(Debug, Subcommand)]
pub enum MovementCmd {
    /// Print a fixed movement's whole schedule (players P1..PN) and check its guarantees.
    Preview {
        /// Number of players.
        #[arg(value_parser = crate::cli::bounds::players, long)]
        players: usize,
        /// Tables with libraries (default: as many as the field needs).
        #[arg(value_parser = crate::cli::bounds::tables, long)]
        tables: Option<u32>,
        /// Number of rounds (default: 5, or fewer when the movement keeps opponents new for fewer).
        #[arg(value_parser = crate::cli::bounds::rounds, long)]
        rounds: Option<u32>,
        /// auto, mitchell, square or howell.
        #[arg(long, default_value = "auto")]
        movement: String,
        /// Show rounds past the movement's limit (players meet again).
        #[arg(long)]
        allow: bool,
    },
}
