//! `note` and `notes`.

use clap::{Args, Subcommand};
use std::path::PathBuf;

/// The rules `note` checks, for `note --help`.
pub const NOTE_HELP: &str = "A declaration is checked with the template rules: the cost parses ({1}{B} or B1), the \
card exists (else the closest names), its cost matches the printed cost under the event's binding rule (alphabet \
rules also need the printed card's first letter: --letter), it is not banned or of an excluded kind, and it was not \
declared before in this game by either player (rule MM.3e). \"Utopia\" is never a card name (MM.4e).\n\
--unnamed records a card of that cost left unnamed (discarded and not templated: the Discard Rule).\n\
No card is declared before the round's clock runs (`round start`, after any deck inspection); a note logged \
late with --at is dated after the start. A match that already has a result still takes notes (judges log them \
late); mmjudge says so.\n\n\
Examples:\n  mmjudge note 4 ali B1 \"Demonic Tutor\"\n  mmjudge note 4 bo '{U}' --unnamed --at 14:05\n  \
mmjudge note undo 4\n  mmjudge note void 17 --reason \"entered at the wrong table\"";

/// `note`: record a template note at a table, or `note undo` to remove the table's last one.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true, after_help = NOTE_HELP)]
pub struct NoteArgs {
    /// `undo`: remove the table's last note.
    #[command(subcommand)]
    pub undo: Option<NoteSub>,
    /// The note to record.
    #[command(flatten)]
    pub record: RecordNote,
}

/// Removing a note.
#[derive(Debug, Subcommand)]
pub enum NoteSub {
    /// Remove the note entered last at a table (audited; says which).
    Undo {
        /// The table (in the current round unless --round).
        #[arg(value_parser = crate::cli::bounds::table)]
        table: u32,
        /// The round (default: the current round).
        #[arg(value_parser = crate::cli::bounds::round, long, value_name = "N")]
        round: Option<u32>,
        /// Remove it even though a challenge cites it as evidence (the citation goes with it).
        #[arg(long)]
        force: bool,
    },
    /// Void any note entered by mistake: it stays on the sheet, struck through, and the card counts as not
    /// declared in that game (rule MM.3e).
    #[command(after_help = super::corrections::VOID_HELP)]
    Void(super::corrections::VoidArgs),
}

/// A note as typed.
#[derive(Debug, Args)]
pub struct RecordNote {
    /// The table (in the current round unless --round).
    #[arg(value_parser = crate::cli::bounds::table, required = true)]
    pub table: Option<u32>,
    /// The declaring player (any unambiguous prefix of a player at the table).
    #[arg(required = true)]
    pub player: Option<String>,
    /// The printed cost: {1}{B} or the note form B1.
    #[arg(required = true)]
    pub cost: Option<String>,
    /// The declared card's name (leave it out with --unnamed).
    pub card: Option<String>,
    /// Record an unnamed card of that cost (discarded and left unnamed).
    #[arg(long, conflicts_with_all = ["card", "letter"])]
    pub unnamed: bool,
    /// The printed card's first letter (alphabet binding rules).
    #[arg(long)]
    pub letter: Option<char>,
    /// When it was declared, for notes logged late (HH:MM today or RFC 3339; default now).
    #[arg(long, value_name = "TIME")]
    pub at: Option<String>,
    /// The round (default: the current round).
    #[arg(value_parser = crate::cli::bounds::round, long, value_name = "N")]
    pub round: Option<u32>,
}

/// `notes`: a table's note sheet.
#[derive(Debug, Args)]
#[command(after_help = "Two columns, one per player (seat A left), each line `B1: Demonic Tutor` with its time \
and its note id (for `challenge --evidence`), in the order declared.\n\nExamples:\n  mmjudge notes 4\n  mmjudge \
notes 4 --round 2 --html table4.html")]
pub struct NotesArgs {
    /// The table (in the current round unless --round).
    #[arg(value_parser = crate::cli::bounds::table)]
    pub table: u32,
    /// The round (default: the current round).
    #[arg(value_parser = crate::cli::bounds::round, long, value_name = "N")]
    pub round: Option<u32>,
    /// Write the sheet as a printable HTML page to FILE instead.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Replace FILE even if it exists and was not written by this command (never an SQLite file).
    #[arg(long, requires = "html")]
    pub force: bool,
}
