//! `player` verbs.

use clap::Subcommand;
use std::path::PathBuf;

/// Add, import, list, drop and rename players; a player's history.
#[derive(Debug, Subcommand)]
pub enum PlayerCmd {
    /// Add one or more players by name.
    Add {
        /// Names (quote names with spaces).
        #[arg(required = true)]
        names: Vec<String>,
    },
    /// Add players from a CSV file with a header row: name (required), id, email.
    Import {
        /// The CSV file.
        file: PathBuf,
    },
    /// List the players.
    List,
    /// Check a player in (event setting `check-in`: round 1 is paired once everyone in the event has checked in).
    CheckIn {
        /// The player (any unambiguous prefix).
        name: String,
    },
    /// Drop a player from the event (takes effect from the next round).
    Drop {
        /// The player (any unambiguous prefix).
        name: String,
    },
    /// Delete a player entered by mistake who has played nothing (a player who has played is dropped).
    Remove {
        /// The player (any unambiguous prefix).
        name: String,
    },
    /// Take back a drop.
    Undrop {
        /// The player (any unambiguous prefix).
        name: String,
    },
    /// Keep a player at one table every round (a player who cannot move): the libraries of each of their games
    /// are carried to that table, and the pairings say which; `--clear` lets them move with the others again.
    Seat {
        /// The player (any unambiguous prefix).
        name: String,
        /// The table they stay at (one whose libraries are built).
        #[arg(long, value_name = "N", required_unless_present = "clear", conflicts_with = "clear")]
        table: Option<u32>,
        /// End the stay: the player moves with the others from the next pairing.
        #[arg(long)]
        clear: bool,
    },
    /// Everything recorded about a player, newest first: results, note counts, challenges, rulings,
    /// penalties and decision overruns.
    History {
        /// The player (any unambiguous prefix).
        name: String,
    },
    /// Correct a player's name.
    Rename {
        /// The player as now named (any unambiguous prefix).
        old: String,
        /// The new name.
        new: String,
    },
    /// Every player's code, for printing on slips: a player types it at the table's device (`mmjudge serve`,
    /// /table/N) to declare cards and run the decision clock at their own table.
    Codes {
        /// Replace this player's lost code (the old one stops working); the same as `player code NAME --new`.
        #[arg(long, value_name = "NAME", conflicts_with = "html")]
        reissue: Option<String>,
        /// Also write printable slips, one per player (event, name, code, the server's address and a QR code).
        #[arg(long, value_name = "FILE")]
        html: Option<std::path::PathBuf>,
        /// The server's address printed on the slips (default: this machine's address, port 8080).
        #[arg(long, value_name = "URL", requires = "html")]
        url: Option<String>,
        /// Replace FILE even though mmjudge did not write it as player slips.
        #[arg(long, requires = "html")]
        force: bool,
        /// Write only part N of the slips, 500 players a part in their order (as the server prints a large
        /// event's codes); without it, every slip.
        #[arg(long, value_name = "N", requires = "html", value_parser = clap::value_parser!(u32).range(1..))]
        part: Option<u32>,
    },
    /// One player's code; `--new` replaces a lost one (the old one stops working).
    Code {
        /// The player (any unambiguous prefix).
        name: String,
        /// Make a new code.
        #[arg(long)]
        new: bool,
    },
}
