//! The command line, as clap derive types. Each command group's verbs live in `cli/<group>.rs`.

pub mod bounds;
pub mod call;
pub mod cards;
pub mod challenge;
pub mod clock;
pub mod corrections;
pub mod event;
pub mod judge;
pub mod library;
pub mod movement;
pub mod note;
pub mod open;
pub mod penalty;
pub mod player;
pub mod pool;
pub mod result;
pub mod round;
pub mod standby;
pub mod standings;

use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// mmjudge keeps a Mental Magic event in one SQLite file: players, the card reference and template rules,
/// libraries, movements and pairings, results, notes, challenges, penalties, the decision clock,
/// standings and the event's web site.
#[derive(Debug, Parser)]
#[command(name = "mmjudge", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// The event file (default: $MMJUDGE_DB, else ./mmjudge.db).
    #[arg(long, global = true, env = "MMJUDGE_DB", value_name = "FILE")]
    pub db: Option<PathBuf>,

    /// The judge recorded in the audit log (default: $MMJUDGE_JUDGE, else the OS user).
    #[arg(long, global = true, env = "MMJUDGE_JUDGE", value_name = "NAME")]
    pub judge: Option<String>,

    /// Print a JSON document instead of tables (shapes in docs/json.md).
    #[arg(long, global = true, conflicts_with = "csv")]
    pub json: bool,

    /// Print CSV (tabular listings).
    #[arg(long, global = true)]
    pub csv: bool,

    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The command groups.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create the event, show and change its settings.
    #[command(subcommand)]
    Event(event::EventCmd),
    /// Add, import, list, drop and rename players; a player's history.
    #[command(subcommand)]
    Player(player::PlayerCmd),
    /// The card reference: import, find, binding classes, declaration checks.
    #[command(subcommand)]
    Cards(cards::CardsCmd),
    /// The event's ban list.
    #[command(subcommand)]
    Ban(cards::BanCmd),
    /// The rules mmjudge applies, with their ids (`rules MM.3h`, `rules hybrid`).
    Rules(cards::RulesArgs),
    /// The judges' card pool: import, edit, exclude cards, the curation report and the watch list.
    #[command(subcommand)]
    Pool(pool::PoolCmd),
    /// The libraries: build, list, show, swap, deck sheets, sealed registration.
    #[command(subcommand)]
    Library(library::LibraryCmd),
    /// Plan the movement: preview a whole schedule and its guarantees.
    #[command(subcommand)]
    Movement(movement::MovementCmd),
    /// Pair the next round, take it back, swap two players' seats, or run the round's clock.
    #[command(subcommand)]
    Round(round::RoundCmd),
    /// Show a round's pairings by table and by player, or write them as printable pages.
    Pairings(round::PairingsArgs),
    /// Round time left per table: extensions, final window, the decision limit in force, tables over time.
    Time(clock::TimeArgs),
    /// The decision clock at a table: a live screen, or --start/--stop for scripts; --html for the projector.
    Clock(clock::ClockArgs),
    /// Decision statistics per player: count, median, longest, overruns (possible slow play).
    Decisions(clock::DecisionsArgs),
    /// Record a template note at a table (`B1: Demonic Tutor`), checked with the template rules; `note undo`,
    /// `note void ID`.
    Note(note::NoteArgs),
    /// A table's note sheet: two columns, one per player; --html for a printable page.
    Notes(note::NotesArgs),
    /// Record a challenge a judge heard (upheld: the challenger was right; denied: the challenger lost it);
    /// `challenge void ID`; `challenge evidence ID NOTE...` cites notes in one already heard.
    Challenge(challenge::ChallengeCmd),
    /// List challenges, or the judges' watch report (--watch).
    Challenges(challenge::ChallengesArgs),
    /// Record a penalty (infraction procedure guide; upgrades, game and match losses, disqualification);
    /// `penalty void ID`.
    Penalty(penalty::PenaltyCmd),
    /// List penalties.
    Penalties(penalty::PenaltiesArgs),
    /// Log a judge's ruling at a table that is not a penalty; `ruling void ID`.
    Ruling(penalty::RulingCmd),
    /// List rulings, with their ids.
    Rulings(corrections::RulingsArgs),
    /// Void a stall logged by mistake on the live clock: `stall void ID`.
    #[command(subcommand)]
    Stall(corrections::StallCmd),
    /// List the stalls logged on the live clock, with their ids.
    Stalls(corrections::StallsArgs),
    /// Record a match's result at a table, `result fix` to correct one, `result clear` to take it back.
    Result(result::ResultArgs),
    /// The round's tables: results and the ones still playing.
    Results(result::ResultsArgs),
    /// The standings: rank, record, points and tiebreakers after a round.
    Standings(standings::StandingsArgs),
    /// The duplicate reports: libraries against each other, players against par.
    #[command(subcommand)]
    Report(standings::ReportCmd),
    /// Write the event's web site (standings, pairings, result slips, reports) into a folder.
    Site(standings::SiteArgs),
    /// Show the audit log: who changed what, when.
    Log(LogArgs),
    /// Write a consistent copy of the event file (safe while others use it).
    Backup(BackupArgs),
    /// Run a whole simulated tournament on the bundled examples and write its web site.
    Demo(DemoArgs),
    /// The judges who log in to the live server: add (prints a PIN), pin, list, remove.
    #[command(subcommand)]
    Judge(judge::JudgeCmd),
    /// Run the event live on the venue's network: pages for players' and judges' phones.
    Serve(judge::ServeArgs),
    /// Open an event in the browser: serve it and show its judges' page (by default your events in
    /// Documents/mmjudge, or a new one); the window says how to stop it and the address for phones.
    Open(open::OpenArgs),
    /// A second laptop following the event: key (on the primary), status, promote (on the standby).
    #[command(subcommand)]
    Standby(standby::StandbyCmd),
    /// The players' calls for a judge: list the open ones, close one.
    #[command(subcommand)]
    Call(call::CallCmd),
}

/// `log` options.
#[derive(Debug, clap::Args)]
pub struct LogArgs {
    /// Only entries about this player (any unambiguous prefix).
    #[arg(long)]
    pub player: Option<String>,
    /// Only entries at or after this moment (RFC 3339 or HH:MM today).
    #[arg(long)]
    pub since: Option<String>,
}

/// `backup` options.
#[derive(Debug, clap::Args)]
pub struct BackupArgs {
    /// Where to write the copy (must not exist, or be empty; never an existing SQLite file).
    pub file: PathBuf,
    /// Replace FILE if it exists and is not an SQLite file.
    #[arg(long)]
    pub force: bool,
}

/// `demo` options.
#[derive(Debug, clap::Args)]
pub struct DemoArgs {
    /// Number of simulated players.
    #[arg(value_parser = crate::cli::bounds::players_u32, long, default_value_t = 16)]
    pub players: u32,
    /// Number of rounds.
    #[arg(value_parser = crate::cli::bounds::rounds, long, default_value_t = 5)]
    pub rounds: u32,
    /// Random seed (same seed, same tournament).
    #[arg(value_parser = crate::cli::bounds::seed, allow_hyphen_values = true, long, default_value_t = 2026)]
    pub seed: u64,
    /// Folder for the demo's outputs (its site and reports).
    #[arg(long, default_value = "mmjudge-demo")]
    pub out: PathBuf,
    /// Then serve the finished event live, as `mmjudge serve` does (look at it on a phone; Ctrl-C stops it).
    #[arg(long)]
    pub serve: bool,
    /// Where --serve listens, as `serve --bind` (default 0.0.0.0:8080).
    #[arg(long, requires = "serve", value_name = "ADDRESS:PORT")]
    pub bind: Option<std::net::SocketAddr>,
    /// With --serve, as `serve --quiet`: no request log line for each request that went well.
    #[arg(long, requires = "serve")]
    pub quiet: bool,
}
