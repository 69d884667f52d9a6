//! `call`: the players' calls for a judge (made from their phones on `mmjudge serve`).

/// `call` verbs.
#[derive(Debug, clap::Subcommand)]
pub enum CallCmd {
    /// The calls still open in the current round: table, players, who called, since when.
    List,
    /// Close the open call at a table of the current round (a judge went there).
    Close {
        /// The table.
        #[arg(value_parser = crate::cli::bounds::table)]
        table: u32,
    },
}
