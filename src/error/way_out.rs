//! A refusal that names its way out as data: what was refused (words for every front end), the rule that
//! refuses it where there is one, and the typed way out. The command line words the way out as the command to
//! type; the server words it for a phone (`web::refusal`): what to tap, or whom to ask.

use super::Kind;

mod record;
pub use record::Record;

/// The command that promotes the standby whose event file is `db` (the path as the user gave it, quoted when it
/// holds a space): `mmjudge --db standby.db standby promote`.
pub fn promote_command(db: impl AsRef<std::path::Path>) -> String {
    let db = db.as_ref().display().to_string();
    let db = if db.contains(char::is_whitespace) { format!("\"{db}\"") } else { db };
    format!("mmjudge --db {db} standby promote")
}

/// What gets past a refusal, with the data a front end needs to word it. The command line names the command;
/// the web names the page and button, or the person who can do it (a player reads whom to ask, a judge what to
/// tap: one wording serves both).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WayOut {
    /// Pair the next round (a head judge).
    PairRound,
    /// Pair the round though a guarantee breaks (players meet again).
    PairAnyway,
    /// Take the current round's pairings back (before anything is recorded in it).
    UnpairRound,
    /// No round is paired: pair one (a head judge).
    PairOne,
    /// The round's clock has not started: start it (a head judge).
    StartClock,
    /// Turn a setting on (`check-in`).
    TurnOn {
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
    /// A standby's file went its own way: start the standby again on a new file.
    NewStandbyFile,
    /// Give a folder for the event's site.
    SiteFolder,
    /// Start the round's clock.
    StartRound,
    /// Start the round's clock at once, without waiting for its set start.
    StartRoundNow,
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
    /// Record the result by another reason than time (a concession, life, ...); `later`: or by time once time
    /// is called.
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
    /// Take the table's result back (a head judge).
    ClearResult {
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
    /// Take back what the table holds first (void its records, cancel a running decision, close its call).
    TakeBack {
        /// The table.
        table: u32,
    },
    /// Look at the ids of the records of this kind (a note, a penalty...).
    ListRecords {
        /// What is listed.
        record: Record,
    },
    /// Check a player's name (a typo, or a player not added).
    CheckName,
    /// Add the players first.
    AddPlayers,
    /// Keep a dropped player in the event.
    UndropPlayer {
        /// The player.
        name: String,
    },
    /// Drop the player (who stays in the standings) instead.
    DropPlayer {
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
    /// Give the judge a new PIN.
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
    /// Change the setting anyway (force), as things stand.
    Force,
    /// Send it again with force, to do this anyway (`to`: "record this one anyway (the result stays)").
    ForceAnyway {
        /// What force does, after "to".
        to: String,
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
    /// Build the tables' libraries, or add tables.
    BuildLibraries,
    /// Look at the libraries built.
    ListLibraries,
    /// Register a player's sealed library.
    RegisterLibrary,
    /// Change the card pool (add, remove, include cards).
    EditPool,
    /// Look at the pool.
    ListPool,
    /// Import the card pool.
    ImportPool,
    /// Look at the pool's watch list.
    ListWatch,
    /// Look at a library's cards.
    ShowLibrary {
        /// The library (3A).
        label: String,
    },
    /// Swap cards out of the libraries.
    SwapLibraryCards,
    /// Find a card by name in the card reference.
    FindCard,
    /// Look at the banned cards.
    ListBans,
    /// Load a card reference.
    ImportCards,
    /// One way or the other.
    Either(Box<WayOut>, Box<WayOut>),
    /// Give the input as it should be (the command line shows an example; the web names the field).
    Example {
        /// What to give, in plain words.
        what: String,
    },
}

impl WayOut {
    /// Every way out, with sample data: the unit tests word each one for every front end.
    pub fn samples() -> Vec<WayOut> {
        let records =
            [Record::Note, Record::Challenge, Record::Penalty, Record::Ruling, Record::Extension, Record::Stall];
        let mut all = vec![
            WayOut::PairRound,
            WayOut::PairAnyway,
            WayOut::UnpairRound,
            WayOut::PairOne,
            WayOut::StartClock,
            WayOut::TurnOn { key: "check-in".into() },
            WayOut::RemoveCopies,
            WayOut::OtherFileOrReplace,
            WayOut::ServeAsItIs,
            WayOut::PromoteOnStandby,
            WayOut::NewStandbyFile,
            WayOut::SiteFolder,
            WayOut::StartRound,
            WayOut::StartRoundNow,
            WayOut::EndRound,
            WayOut::EndRoundForce,
            WayOut::SeeTime,
            WayOut::RecordResult { table: None },
            WayOut::RecordResult { table: Some(3) },
            WayOut::OtherReason { later: false },
            WayOut::OtherReason { later: true },
            WayOut::TurnAtTime,
            WayOut::FixResult { table: None },
            WayOut::FixResult { table: Some(3) },
            WayOut::ClearResult { table: 3 },
            WayOut::StopDecision { table: 3, player: "Ana".into() },
            WayOut::StartDecision { table: 3 },
            WayOut::ListDecisions { table: 3 },
            WayOut::ListCalls,
            WayOut::CloseCalls,
            WayOut::VoidRecord { record: Record::Note, id: 12 },
            WayOut::TakeBack { table: 3 },
            WayOut::CheckName,
            WayOut::AddPlayers,
            WayOut::UndropPlayer { name: "Ana".into() },
            WayOut::DropPlayer { name: "Ana".into() },
            WayOut::ImportPool,
            WayOut::ListWatch,
            WayOut::ShowLibrary { label: "3A".into() },
            WayOut::SwapLibraryCards,
            WayOut::FindCard,
            WayOut::ListBans,
            WayOut::CheckIn { name: None },
            WayOut::CheckIn { name: Some("Tomás Ó Súilleabháin".into()) },
            WayOut::PairPresent,
            WayOut::CheckJudge,
            WayOut::AddJudge,
            WayOut::AddHeadJudge,
            WayOut::CheckPin,
            WayOut::NewPin { name: "Kim".into() },
            WayOut::Force,
            WayOut::ForceAnyway { to: "record this one anyway (the result stays)".into() },
            WayOut::ChangeSetting { key: "rounds".into() },
            WayOut::ChangeMovement { to: "swiss".into() },
            WayOut::BuildLibraries,
            WayOut::RegisterLibrary,
            WayOut::ListLibraries,
            WayOut::EditPool,
            WayOut::ListPool,
            WayOut::ImportCards,
            WayOut::Example { what: "a number of minutes".into() },
            WayOut::Either(Box::new(WayOut::RecordResult { table: None }), Box::new(WayOut::EndRoundForce)),
            WayOut::PromoteStandby { db: "standby.db".into() },
            WayOut::EventMoved { to: "http://192.168.1.24:8080".into() },
        ];
        all.extend(records.into_iter().map(|record| WayOut::ListRecords { record }));
        all
    }

    /// The command line's words: the command to type, in a short clause.
    pub fn command_line(&self) -> String {
        let table = |t: &Option<u32>| t.map_or("TABLE".to_string(), |t| t.to_string());
        match self {
            WayOut::PairRound => "pair it with `mmjudge round pair`".into(),
            WayOut::PairAnyway => "pair it anyway with `mmjudge round pair --allow`".into(),
            WayOut::UnpairRound => "take the round back with `mmjudge round unpair`".into(),
            WayOut::PairOne => "pair one with `mmjudge round pair`".into(),
            WayOut::StartClock => "start its clock with `mmjudge round start`".into(),
            WayOut::TurnOn { key } => format!("turn it on with `mmjudge event set {key} on`"),
            WayOut::RemoveCopies => "remove copies with `mmjudge pool remove`".into(),
            WayOut::OtherFileOrReplace => {
                "use another --db file, or --force to replace it (the old event is kept beside it)".into()
            }
            WayOut::ServeAsItIs => "serve it without --new, or give a new file for a new event".into(),
            WayOut::PromoteOnStandby => "`mmjudge standby promote` runs on the standby's file".into(),
            WayOut::NewStandbyFile => "start again with a new --db file".into(),
            WayOut::SiteFolder => "give a folder for the site, e.g. `mmjudge site site`".into(),
            WayOut::StartRound => "start it with `mmjudge round start`".into(),
            WayOut::StartRoundNow => "start it at once with `mmjudge round start --now`".into(),
            WayOut::EndRound => "close it with `mmjudge round end`".into(),
            WayOut::EndRoundForce => "close it anyway with `mmjudge round end --force`".into(),
            WayOut::SeeTime => "see `mmjudge time`".into(),
            WayOut::RecordResult { table: t } => {
                format!("record it with `mmjudge result {} WINNER --by REASON`", table(t))
            }
            WayOut::OtherReason { .. } => {
                "record the result by another reason (`mmjudge result TABLE WINNER --by concession`, life, ...)".into()
            }
            WayOut::TurnAtTime => "give it with `--by time`, or leave it out".into(),
            WayOut::FixResult { table: t } => format!("correct it with `mmjudge result fix {} ...`", table(t)),
            WayOut::ClearResult { table } => format!("take it back with `mmjudge result clear {table}`"),
            WayOut::StopDecision { table, .. } => format!("stop it first with `mmjudge clock {table} --stop`"),
            WayOut::StartDecision { table } => format!("start one with `mmjudge clock {table} --start PLAYER`"),
            WayOut::ListDecisions { table } => format!("`mmjudge decisions --table {table}` lists them"),
            WayOut::ListCalls => "`mmjudge call list` shows the open ones".into(),
            WayOut::CloseCalls => "close each with `mmjudge call close TABLE`".into(),
            WayOut::ListRecords { record } => format!("see the ids with `{}`", record.listing()),
            WayOut::VoidRecord { record, id } => {
                format!("ask a judge to void it (`mmjudge {} void {id}`)", record.command())
            }
            WayOut::TakeBack { table } => {
                format!(
                    "take them back first (`mmjudge notes {table}` lists the notes, `mmjudge note void ID` voids one)"
                )
            }
            WayOut::CheckName => "see `mmjudge player list`".into(),
            WayOut::AddPlayers => "add them with `mmjudge player add NAME`".into(),
            WayOut::UndropPlayer { name } => format!("`mmjudge player undrop \"{name}\"` keeps them in"),
            WayOut::DropPlayer { name } => format!("drop them with `mmjudge player drop \"{name}\"`"),
            WayOut::ImportPool => "import it with `mmjudge pool import FILE.csv`".into(),
            WayOut::ListWatch => "see `mmjudge pool watch list`".into(),
            WayOut::ShowLibrary { label } => format!("see `mmjudge library show {label}`"),
            WayOut::SwapLibraryCards => "swap them out first (`mmjudge library swap`)".into(),
            WayOut::FindCard => "check the spelling with `mmjudge cards find`".into(),
            WayOut::ListBans => "see `mmjudge ban list`".into(),
            WayOut::CheckIn { name } => {
                let name = match name.as_deref() {
                    Some(n) if n.contains(' ') => format!("\"{n}\""),
                    Some(n) => n.to_string(),
                    None => "NAME".into(),
                };
                format!("check them in with `mmjudge player check-in {name}`")
            }
            WayOut::PairPresent => "pair those present with `mmjudge round pair --drop-absent`".into(),
            WayOut::CheckJudge => "see `mmjudge judge list`".into(),
            WayOut::AddJudge => "add one with `mmjudge judge add NAME --role floor`".into(),
            WayOut::AddHeadJudge => "add another head judge first with `mmjudge judge add NAME --role head`".into(),
            WayOut::CheckPin => "a PIN renewed with `mmjudge judge pin NAME` replaces the old one".into(),
            WayOut::NewPin { name } => format!("give a new PIN with `mmjudge judge pin \"{name}\"`"),
            WayOut::Force => "add `--force` to the command".into(),
            WayOut::ForceAnyway { to } => format!("add --force to {to}"),
            WayOut::PromoteStandby { db } => {
                format!("write on the primary laptop, or, if it is gone for good, run `{}` here", promote_command(db))
            }
            WayOut::EventMoved { to } => {
                format!("the event continues at {to}: write there (`mmjudge standby status` says more)")
            }
            WayOut::ChangeSetting { key } => format!("change it with `mmjudge event set {key} VALUE`"),
            WayOut::ChangeMovement { to } => format!("`mmjudge event set movement {to}`"),
            WayOut::BuildLibraries => "build them with `mmjudge library build --tables N`".into(),
            WayOut::RegisterLibrary => "register it with `mmjudge library register PLAYER FILE.csv`".into(),
            WayOut::ListLibraries => "see `mmjudge library list`".into(),
            WayOut::EditPool => "change the pool with `mmjudge pool add` or `mmjudge pool remove`".into(),
            WayOut::ListPool => "see `mmjudge pool list`".into(),
            WayOut::ImportCards => "import them with `mmjudge cards import FILE`".into(),
            WayOut::Example { what } => format!("give {what} (see `mmjudge help`)"),
            WayOut::Either(a, b) => format!("{}, or {}", a.command_line(), b.command_line()),
        }
    }

    /// The web's words: what to tap and where, or whom to ask; never a command line.
    pub fn web(&self) -> String {
        let table_page = |t: &Option<u32>| match t {
            Some(t) => format!("table {t}'s judge page"),
            None => "the table's judge page".to_string(),
        };
        match self {
            WayOut::PairRound => "a head judge pairs it with Pair the next round on the Judges page".into(),
            WayOut::PairAnyway => "pairing it anyway (players meet again) is the head judge's call: ask them".into(),
            WayOut::UnpairRound => "a head judge takes it back with Take the round back on the Judges page".into(),
            WayOut::PairOne => "a head judge pairs one with Pair the next round on the Judges page".into(),
            WayOut::StartClock => "a head judge starts its clock with Start the round on the Judges page".into(),
            WayOut::TurnOn { .. } => "a head judge turns it on with Change the setting on the Judges page".into(),
            WayOut::RemoveCopies => "ask the organiser: the card pool is changed at the event's computer".into(),
            WayOut::OtherFileOrReplace => {
                "ask the organiser: a new event goes in another event file at the event's computer".into()
            }
            WayOut::ServeAsItIs => "ask the organiser: the event's computer serves the event it holds".into(),
            WayOut::PromoteOnStandby => "ask the organiser: the second laptop is promoted at that laptop".into(),
            WayOut::NewStandbyFile => "ask the organiser to start the second laptop again on a new file".into(),
            WayOut::SiteFolder => "ask the organiser: the site is written into a folder at the event's computer".into(),
            WayOut::StartRound => "a head judge starts it with Start the round on the Judges page".into(),
            WayOut::StartRoundNow => "a head judge can start it at once with Start the round on the Judges page".into(),
            WayOut::EndRound => "a head judge closes it with End the round on the Judges page".into(),
            WayOut::EndRoundForce => {
                "a head judge can close it anyway: End the round on the Judges page, with force ticked".into()
            }
            WayOut::SeeTime => "the Clock page shows it".into(),
            WayOut::RecordResult { table } => format!("a judge records it with Record result on {}", table_page(table)),
            WayOut::OtherReason { later: false } => {
                "record the result by another reason (a concession, life, ...)".into()
            }
            WayOut::OtherReason { later: true } => {
                "record the result by another reason (a concession, life, ...), or by time once time is called".into()
            }
            WayOut::TurnAtTime => "choose time as why the game ended, or leave the turn empty".into(),
            WayOut::FixResult { table } => {
                format!("a head judge corrects it with Fix the result on {}", table_page(table))
            }
            WayOut::ClearResult { table } => {
                format!("a head judge takes it back with Clear the result on {}", table_page(&Some(*table)))
            }
            WayOut::StopDecision { player, .. } => format!("{player} taps Stop or Hand over first"),
            WayOut::StartDecision { .. } => "a decision starts when its player taps Start my decision".into(),
            WayOut::ListDecisions { table } => format!("{} shows its decision clock", table_page(&Some(*table))),
            WayOut::ListCalls => "the Judges page lists the open calls".into(),
            WayOut::CloseCalls => "a judge closes each with Close the call on the table's judge page".into(),
            WayOut::ListRecords { record } => format!("the {} ids are on the table's judge page", record.word()),
            WayOut::VoidRecord { record, id } => {
                format!("ask a judge to void it (a head judge voids {} #{id} on the table's judge page)", record.word())
            }
            WayOut::TakeBack { table } => {
                format!("a head judge takes them back first with Void on {}", table_page(&Some(*table)))
            }
            WayOut::CheckName => "check the spelling or ask a judge".into(),
            WayOut::AddPlayers => "a head judge adds them with Add on the Players page (from the Judges page)".into(),
            WayOut::UndropPlayer { name } => {
                format!(
                    "a head judge keeps them in with Undrop beside {name} on the Players page (from the Judges page)"
                )
            }
            WayOut::DropPlayer { name } => {
                format!(
                    "a head judge drops them instead with Drop beside {name} on the Players page (from the Judges page)"
                )
            }
            WayOut::ImportPool => "ask the organiser: the card pool is loaded at the event's computer".into(),
            WayOut::ListWatch => "ask the organiser: the pool's watch list is kept at the event's computer".into(),
            WayOut::ShowLibrary { label } => format!("check the card against library {label}'s list, or ask a judge"),
            WayOut::SwapLibraryCards => "ask the organiser: library cards are swapped at the event's computer".into(),
            WayOut::FindCard => "check the card's spelling, or ask a judge".into(),
            WayOut::ListBans => "the banned cards are listed on the event's site, or ask a judge".into(),
            WayOut::CheckIn { .. } => {
                "a judge checks them in with Check in beside their name on the Judges page".into()
            }
            WayOut::PairPresent => {
                "a head judge pairs those present with Pair those present on the Judges page (the absent are dropped \
                 as not arrived; Undrop on the Players page takes it back)"
                    .into()
            }
            WayOut::CheckJudge => "check the name, or ask the head judge".into(),
            WayOut::AddJudge => "ask the organiser: judges are added at the event's computer".into(),
            WayOut::AddHeadJudge => "add another head judge first (Add a judge on the Set-up page, role head)".into(),
            WayOut::CheckPin => "a new PIN replaces the old one: ask the head judge if yours was renewed".into(),
            WayOut::NewPin { .. } => "ask the head judge for a new PIN, or choose another name".into(),
            WayOut::Force => "a head judge can do it anyway, with force ticked".into(),
            WayOut::ForceAnyway { to } => format!("tick force and send it again to {to}"),
            WayOut::PromoteStandby { .. } => {
                "this is the second laptop, following the first: try again in a moment".into()
            }
            WayOut::EventMoved { to } => format!("the event continues at {to}: open it there"),
            WayOut::ChangeMovement { to } => {
                format!("a head judge can set the movement to {to} with Change the setting on the Judges page")
            }
            WayOut::ChangeSetting { .. } => {
                "a head judge changes the setting with Change the setting on the Judges page".into()
            }
            WayOut::BuildLibraries => "ask the organiser: libraries are built at the event's computer".into(),
            WayOut::RegisterLibrary => "ask the organiser: libraries are registered at the event's computer".into(),
            WayOut::ListLibraries => "a library is named by its table and seat, such as 3A".into(),
            WayOut::EditPool => "ask the organiser: the card pool is changed at the event's computer".into(),
            WayOut::ListPool => "ask the organiser: the card pool is kept at the event's computer".into(),
            WayOut::ImportCards => "ask the organiser: the card reference is loaded at the event's computer".into(),
            WayOut::Example { what } => format!("give {what}"),
            WayOut::Either(a, b) => format!("{}, or {}", a.web(), b.web()),
        }
    }
}

/// A refusal with its way out: what was refused, the rule where there is one, the way out, and the command
/// line's words for it. Build it with [`Refusal::new`] (or [`Refusal::refused`], [`Refusal::not_found`],
/// [`Refusal::bad_input`]) and [`Refusal::way_out`] or [`Refusal::worded`]; `?` and `.into()` make it an
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
    /// The way out (none until [`Refusal::way_out`] or [`Refusal::worded`] gives it).
    pub way_out: Option<WayOut>,
    /// What was refused in the command line's words where they name its flags (`--life`) and `what` names the
    /// form's fields ("the life totals") instead: see [`Refusal::flags`].
    flags: Option<String>,
    /// The command line's words after `what`, with their joining punctuation (`": see `mmjudge time``").
    cli: String,
}

impl Refusal {
    /// A refusal of this kind; give its way out next.
    pub fn new(kind: Kind, what: impl Into<String>) -> Self {
        Refusal { kind, what: what.into(), rule: None, way_out: None, flags: None, cli: String::new() }
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

    /// The way out, in the command line's own words for it ([`WayOut::command_line`]) after a colon.
    pub fn way_out(mut self, way_out: WayOut) -> Self {
        self.cli = format!(": {}", way_out.command_line());
        self.way_out = Some(way_out);
        self
    }

    /// The way out, in the command line's own words for it ([`WayOut::command_line`]) after `join` (`"; "`).
    pub fn way_out_after(mut self, join: &'static str, way_out: WayOut) -> Self {
        self.cli = format!("{join}{}", way_out.command_line());
        self.way_out = Some(way_out);
        self
    }

    /// The way out, with the command line's words for it as this refusal says them: `cli` follows `what` on the
    /// command line, joining punctuation included.
    pub fn worded(mut self, way_out: WayOut, cli: impl Into<String>) -> Self {
        self.cli = cli.into();
        self.way_out = Some(way_out);
        self
    }

    /// What was refused as the command line says it, naming its flags where `what` names the web form's fields
    /// (`--by time needs both life totals: --life A B` for "a result at time needs both life totals").
    pub fn flags(mut self, command_line: impl Into<String>) -> Self {
        self.flags = Some(command_line.into());
        self
    }

    /// The command line's one line: what was refused, then the command that gets past it.
    pub fn command_line(&self) -> String {
        format!("{}{}", self.flags.as_deref().unwrap_or(&self.what), self.cli)
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
mod tests;
