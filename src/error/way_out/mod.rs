//! A refusal that names its way out as data: what was refused (words for every front end), the rule that
//! refuses it where there is one, and the typed way out. The command line words the way out as the command to
//! type; the server words it for a phone (`web::refusal`): what to tap, or whom to ask.

use super::Kind;

mod cli;
mod parts;
mod record;
mod samples;
mod web;
pub use parts::{Again, CardFile, Cards, Example, Held, Unpair, Whose};
pub use record::Record;

/// The command that promotes the standby whose event file is `db` (the path as the user gave it, quoted when it
/// holds a space): `mmjudge --db standby.db standby promote`.
pub fn promote_command(db: impl AsRef<std::path::Path>) -> String {
    let db = db.as_ref().display().to_string();
    let db = if db.contains(char::is_whitespace) { format!("\"{db}\"") } else { db };
    format!("mmjudge --db {db} standby promote")
}

/// What gets past a refusal, with the data a front end needs to word it. The command line names the command
/// (`cli.rs`); the web names the page and button, or the person who can do it (`web.rs`: a player reads whom to
/// ask, a judge what to tap: one wording serves both). The data is all the command line's words need: no call
/// site writes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WayOut {
    /// Pair the next round (a head judge).
    PairRound,
    /// Round 1 is not paired yet: pair it first.
    PairRoundOne,
    /// Pair the round though a guarantee breaks (players meet again).
    PairAnyway,
    /// Pair it anyway, or change the movement to swiss (which pairs by score).
    PairAnywayOrSwiss,
    /// Take the current round's pairings back (before anything is recorded in it), for this.
    Unpair(Unpair),
    /// No round is paired: pair one (a head judge).
    PairOne,
    /// The round's clock has not started: start it (a head judge).
    StartClock,
    /// Turn a setting on (`check-in`).
    TurnOn {
        /// The setting's key.
        key: String,
    },
    /// Turn a setting off (`check-in`).
    TurnOff {
        /// The setting's key.
        key: String,
    },
    /// The pool holds more copies than a build takes: remove copies.
    RemoveCopies,
    /// The event file holds an event already: another file, or replace it (the old one kept beside it).
    OtherFileOrReplace,
    /// The event file holds an event already: serve it as it is, or give a new file.
    ServeAsItIs,
    /// Promoting runs on the standby's file, not the primary's.
    PromoteOnStandby,
    /// The primary still answers: stop it first (or force, if judges cannot reach it).
    StopPrimary,
    /// A standby's file went its own way: start the standby again on a new file.
    NewStandbyFile,
    /// Give a folder for the event's site.
    SiteFolder,
    /// Start the round's clock (`named`: the words name the round rather than "it").
    StartRound {
        /// Whether the words say "the round".
        named: bool,
    },
    /// Start the round, and so its deck inspection.
    StartInspection,
    /// Start the round's clock at once, without waiting for its set start.
    StartRoundNow,
    /// Start the round's clock now, then close the round.
    StartNowThenClose,
    /// Close the round.
    EndRound,
    /// Close the round though some tables have no result.
    EndRoundForce,
    /// Look at the round's clock.
    SeeTime,
    /// Record a match's result (at this table, or at each table without one).
    RecordResult {
        /// The table, if one.
        table: Option<u32>,
    },
    /// Record the results the round still lacks (`table`: the one table without one).
    RecordOpen {
        /// The one table without a result, if only one.
        table: Option<u32>,
    },
    /// Record each result the round still lacks (while the round is closed anyway as the other way).
    RecordEachOpen,
    /// Record the results an earlier round lacks, before standings after a later one.
    RecordToPlay {
        /// The one table without a result, if only one.
        table: Option<u32>,
        /// The round, when it is not the last paired.
        round: Option<u32>,
    },
    /// Record the result by another reason than time (a concession, life, ...); `later`: or by time once time
    /// is called; else the round's clock has not started, so only the reasons before play.
    OtherReason {
        /// Whether recording it by time later also works.
        later: bool,
    },
    /// A turn at time goes with a result at time: choose time as the reason, or leave the turn out.
    TurnAtTime,
    /// Correct the result a table has (a head judge).
    FixResult {
        /// The table, if one.
        table: Option<u32>,
    },
    /// Take the table's result back, swap the seats, record it again (a head judge).
    ClearToSwap {
        /// The table.
        table: u32,
    },
    /// The player deciding stops or hands over their decision first.
    StopDecision {
        /// The table.
        table: u32,
        /// Who is deciding.
        player: String,
    },
    /// Start a decision first.
    StartDecision {
        /// The table.
        table: u32,
    },
    /// Look at the table's decisions.
    ListDecisions {
        /// The table.
        table: u32,
    },
    /// Look at the open judge calls.
    ListCalls,
    /// Close the open judge calls first.
    CloseCalls,
    /// A judge voids the record.
    VoidRecord {
        /// What it is.
        record: Record,
        /// Its id.
        id: i64,
    },
    /// Take back what the tables hold first (void their records, cancel a running decision, close a call).
    TakeBack {
        /// The first table.
        table: u32,
        /// More than one thing to take back.
        several: bool,
        /// What is taken back, each once.
        held: Vec<Held>,
    },
    /// Look at the ids of the records of this kind (a note, a penalty...).
    ListRecords {
        /// What is listed.
        record: Record,
    },
    /// Look at the ids of the table's notes.
    ListNotes {
        /// The table.
        table: u32,
    },
    /// Look at the table's notes that count (not voided).
    NotesThatCount {
        /// The table.
        table: u32,
    },
    /// Give the notes' ids as the table's listing shows them.
    NoteIdsAsListed,
    /// Look at the challenges' ids.
    ListChallenges,
    /// Check a player's name (a typo, or a player not added).
    CheckName,
    /// Add the players first.
    AddPlayers,
    /// Add more players (too few to pair).
    AddMorePlayers,
    /// Take a drop back first (then check the player in).
    UndropPlayer {
        /// The player.
        name: String,
    },
    /// The player's drop is taken back (it was made already).
    TakeDropBack {
        /// The player.
        name: String,
    },
    /// Drop the player (who stays in the standings) instead of removing them.
    DropPlayer {
        /// The player.
        name: String,
        /// Their table, recorded after as a no-show win for the opponent (if seated).
        no_show: Option<u32>,
    },
    /// Drop the player seated in a round that has results instead: their table is recorded as a no-show win
    /// (or their bye stays).
    DropSeated {
        /// The player.
        name: String,
        /// Their table (none: a bye).
        table: Option<u32>,
        /// The round.
        round: u32,
    },
    /// A player who has played is dropped, not removed.
    DropNotRemove {
        /// The player.
        name: String,
    },
    /// Check the players in who have come (while check-in is on).
    CheckIn {
        /// The one player waited for, if one.
        name: Option<String>,
    },
    /// Pair round 1 with those present: the players not checked in are dropped as not arrived.
    PairPresent,
    /// Check a judge's name (or a judge not added).
    CheckJudge,
    /// Add a judge first.
    AddJudge,
    /// Add another head judge first (the last one cannot go).
    AddHeadJudge,
    /// A PIN given anew replaces the old one: the head judge gives new PINs.
    CheckPin,
    /// Give the judge a new PIN, or choose another name.
    NewPin {
        /// The judge.
        name: String,
    },
    /// A standby takes writes once a head judge promotes it (when the first laptop is gone for good).
    PromoteStandby {
        /// The standby's event file, as the user gave it (the command line names it in the command).
        db: String,
    },
    /// The event moved to another laptop (a standby was promoted): write there.
    EventMoved {
        /// Its address.
        to: String,
    },
    /// Send it again with force, to do this anyway (`to`: "record this one anyway (the result stays)").
    ForceAnyway {
        /// What force does, after "to".
        to: String,
        /// The box a page offers for it.
        tick: Tick,
    },
    /// Use force, to do this anyway.
    UseForce {
        /// What force does, after "to".
        to: String,
        /// The box a page offers for it.
        tick: Tick,
    },
    /// Force does this (after "or").
    ForceTo {
        /// What force does, after "to".
        to: String,
        /// The box a page offers for it.
        tick: Tick,
    },
    /// Change a setting now anyway, though it changes the round in play (`round`, being played).
    ForceSetting {
        /// The round being played.
        round: u32,
        /// The setting's key.
        key: String,
        /// The value.
        value: String,
    },
    /// Change the event's movement (how players are paired).
    ChangeMovement {
        /// The movement to change to.
        to: String,
    },
    /// Change one of the event's settings.
    ChangeSetting {
        /// The setting's key.
        key: String,
    },
    /// Set a setting to this value first.
    SetFirst {
        /// The setting's key.
        key: String,
        /// Its value.
        value: String,
    },
    /// Raise the number of rounds (to play another).
    RaiseRounds {
        /// The new count.
        to: u32,
    },
    /// Build the tables' libraries (`tables`: how many, if known).
    BuildLibraries {
        /// The number of tables, if known.
        tables: Option<usize>,
    },
    /// Build every table's libraries at once (none are built to add to).
    BuildAll,
    /// Build the libraries for this many tables, or change the event to sealed libraries.
    BuildOrSealed {
        /// The number of tables.
        tables: usize,
    },
    /// Add the tables that are missing, from what is left in the pool (before round 1, rebuilding all is the
    /// other way).
    AddTables {
        /// How many are missing.
        more: u32,
        /// Before round 1: the tables a rebuild builds.
        rebuild: Option<u32>,
    },
    /// Look at the libraries built.
    ListLibraries,
    /// Register a player's sealed library.
    RegisterLibrary {
        /// Whose.
        whose: Whose,
    },
    /// Add cards to the pool, or add fewer tables (at most `most`; 0: none fit).
    AddCardsOrFewer {
        /// The most tables that fit.
        most: usize,
    },
    /// Add cards to the pool, or build fewer tables (at most `most`; 0: none fit).
    AddCardsOrBuildFewer {
        /// The most tables that fit.
        most: usize,
    },
    /// Include the card in building first.
    IncludeCard {
        /// The card.
        name: String,
    },
    /// Look at the pool.
    ListPool,
    /// Import the pool without replacing it (libraries are built from it), or rebuild the libraries after.
    KeepPool,
    /// Import the card reference without replacing it (a round's notes are checked against it), or force.
    KeepReference,
    /// Correct the cards' names, or keep the cards the reference does not know (with their cost and type).
    AllowUnknown,
    /// Look at the pool for a card with a free copy.
    FreeCopies,
    /// Import the card pool.
    ImportPool,
    /// A file of cards was given as the players: import it as what it is; a players file has a name column.
    ImportAsCards {
        /// The file, as the user gave it (the command line names it in the command).
        file: String,
        /// What it holds.
        is: CardFile,
    },
    /// Look at the pool's watch list.
    ListWatch,
    /// Look at a library's cards.
    ShowLibrary {
        /// The library (3A).
        label: String,
    },
    /// Swap cards out of the libraries (or remove fewer copies: `free`, when some are free).
    SwapLibraryCards {
        /// The copies not in libraries.
        free: i64,
    },
    /// Find a card by name in the card reference.
    FindCard,
    /// Look at the banned cards.
    ListBans,
    /// Load a card reference, for this.
    ImportCards {
        /// What it is needed for.
        need: Cards,
    },
    /// One way or another (two or more).
    Either(Vec<WayOut>),
    /// One way, and then another.
    Both(Box<WayOut>, Box<WayOut>),
    /// Give the input as it should be (the command line shows an example; the web names what to give).
    Example(Example),
}

/// The punctuation before the command line's words for a way out, after what was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Join {
    /// `what: way out`.
    Colon,
    /// `what; way out`.
    Semicolon,
    /// `what, way out`.
    Comma,
    /// `what, or way out`.
    Or,
    /// `what (way out)`.
    Aside,
    /// `what way out` (the way out's words open with their own punctuation).
    Space,
}

impl Join {
    /// The command line's words `cli` joined after what was refused.
    fn join(self, cli: &str) -> String {
        match self {
            Join::Colon => format!(": {cli}"),
            Join::Semicolon => format!("; {cli}"),
            Join::Comma => format!(", {cli}"),
            Join::Or => format!(", or {cli}"),
            Join::Aside => format!(" ({cli})"),
            Join::Space => format!(" {cli}"),
        }
    }
}

/// A refusal with its way out: what was refused, the rule where there is one, the way out, and the command
/// line's words for it. Build it with [`Refusal::new`] (or [`Refusal::refused`], [`Refusal::not_found`],
/// [`Refusal::bad_input`]) and [`Refusal::way_out`] or [`Refusal::way_out_after`]; `?` and `.into()` make it an
/// [`Error`](super::Error).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// Its kind (the HTTP status).
    pub kind: Kind,
    /// What was refused and why, in words for every front end: no command, no backquote.
    pub what: String,
    /// The rule that refuses it, where there is one: a section of the tournament rules ("MM.3") or an
    /// mmjudge rule's name.
    pub rule: Option<&'static str>,
    /// The way out (none until [`Refusal::way_out`] or [`Refusal::way_out_after`] gives it).
    pub way_out: Option<WayOut>,
    /// What was refused in the command line's words where they name its flags (`--life`) and `what` names the
    /// form's fields ("the life totals") instead: see [`Refusal::flags`].
    flags: Option<String>,
    /// How the command line joins the way out's words after `what`.
    join: Join,
}

impl Refusal {
    /// A refusal of this kind; give its way out next.
    pub fn new(kind: Kind, what: impl Into<String>) -> Self {
        Refusal { kind, what: what.into(), rule: None, way_out: None, flags: None, join: Join::Colon }
    }

    /// A rule refuses it as things stand (HTTP 409).
    pub fn refused(what: impl Into<String>) -> Self {
        Refusal::new(Kind::Refused, what)
    }

    /// It names nothing the event holds (HTTP 404).
    pub fn not_found(what: impl Into<String>) -> Self {
        Refusal::new(Kind::NotFound, what)
    }

    /// The input is malformed (HTTP 400).
    pub fn bad_input(what: impl Into<String>) -> Self {
        Refusal::new(Kind::BadInput, what)
    }

    /// The rule that refuses it.
    pub fn rule(mut self, rule: &'static str) -> Self {
        self.rule = Some(rule);
        self
    }

    /// The way out; the command line words it ([`WayOut::command_line`]) after a colon.
    pub fn way_out(self, way_out: WayOut) -> Self {
        self.way_out_after(Join::Colon, way_out)
    }

    /// The way out; the command line words it ([`WayOut::command_line`]) after `join`.
    pub fn way_out_after(mut self, join: Join, way_out: WayOut) -> Self {
        self.join = join;
        self.way_out = Some(way_out);
        self
    }

    /// This refusal with `before` ahead of what was refused (`"pool.csv: nothing imported: "`), in both front
    /// ends' words.
    pub fn after(mut self, before: &str) -> Self {
        self.what = format!("{before}{}", self.what);
        self.flags = self.flags.map(|f| format!("{before}{f}"));
        self
    }

    /// What was refused as the command line says it, naming its flags where `what` names the web form's fields
    /// (`--by time needs both life totals: --life A B` for "a result at time needs both life totals"). Only
    /// the command line reads it: [`Refusal::web`] words `what`.
    pub fn flags(mut self, command_line: impl Into<String>) -> Self {
        self.flags = Some(command_line.into());
        self
    }

    /// The command line's one line: what was refused, then the command that gets past it.
    pub fn command_line(&self) -> String {
        let what = self.flags.as_deref().unwrap_or(&self.what);
        match &self.way_out {
            Some(way_out) => format!("{what}{}", self.join.join(&way_out.command_line())),
            None => what.to_string(),
        }
    }

    /// The web's one line: what was refused, then what to tap or whom to ask.
    pub fn web(&self) -> String {
        match &self.way_out {
            Some(way_out) => format!("{}; {}", self.what, way_out.web()),
            None => self.what.clone(),
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.command_line())
    }
}

#[cfg(test)]
mod labels;
#[cfg(test)]
mod tests;

/// A box a page offers to do something anyway, as the page labels it: the web's words name the box by its label
/// (a test finds each label in a template).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tick {
    /// Build the libraries again once round 1 is paired (the set-up page's Libraries step).
    BuildAgain,
    /// Swap a library's card once round 1 is paired (the set-up page's Libraries step).
    SwapAgain,
    /// Register a player's sealed libraries again once round 1 is paired (no page offers it).
    RegisterAgain,
    /// Ban a card the reference does not know (the set-up page).
    BanUnknown,
    /// Watch a card the reference does not know (the set-up page).
    WatchUnknown,
    /// Record a challenge at a table whose match has a result (the table's judge page).
    ChallengeFinished,
    /// Fix a result once a later round is paired (the table's judge page).
    FixLater,
    /// Clear a result once a later round is paired (the table's judge page).
    ClearLater,
    /// Void a record of an earlier round (the table's judge page).
    VoidEarlier,
    /// Take back a declaration cited as evidence (no page offers it).
    RemoveCited,
}

impl Tick {
    /// Every box.
    pub const ALL: [Tick; 10] = [
        Tick::BuildAgain,
        Tick::SwapAgain,
        Tick::RegisterAgain,
        Tick::BanUnknown,
        Tick::WatchUnknown,
        Tick::ChallengeFinished,
        Tick::FixLater,
        Tick::ClearLater,
        Tick::VoidEarlier,
        Tick::RemoveCited,
    ];

    /// The box's label on its page, as a judge would say it; None when no page offers it.
    pub fn label(self) -> Option<&'static str> {
        Some(match self {
            Tick::BuildAgain => "Build again although round 1 is paired",
            Tick::SwapAgain => "Swap although round 1 is paired",
            Tick::BanUnknown => "The reference does not know it: ban it anyway",
            Tick::WatchUnknown => "The reference does not know it: watch it anyway",
            Tick::ChallengeFinished => "Record it although the match has a result (the result stays)",
            Tick::FixLater => "Fix it although a later round is paired",
            Tick::ClearLater => "Clear it although a later round is paired",
            Tick::VoidEarlier => "Void it although its round is over",
            Tick::RegisterAgain | Tick::RemoveCited => return None,
        })
    }
}
