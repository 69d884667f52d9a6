//! `standby`: a second laptop following the event (see `mmjudge serve --standby-of`).

/// `standby` verbs.
#[derive(Debug, clap::Subcommand)]
pub enum StandbyCmd {
    /// On the primary's file: print a key for one standby (shown this once; a new key ends the old one).
    Key {
        /// End the standby key instead: the standby stops following.
        #[arg(long)]
        revoke: bool,
    },
    /// How far behind the standby is (changes and time) and when it was last heard; on either laptop's file.
    Status,
    /// On the primary's file: the second laptop is gone for good; writes go on alone (its key ends).
    Detach,
    /// On the standby's file: make it the primary (refused while the primary still answers).
    Promote {
        /// Promote even though the primary still answers (two laptops would take writes).
        #[arg(long)]
        force: bool,
    },
}
