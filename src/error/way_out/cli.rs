//! The command line's words for a way out: the command to type, in a short clause (its joining punctuation is
//! the refusal's [`Join`](super::Join)).

use super::{WayOut, promote_command};

/// A name as a judge types it on a command line: quoted when it holds a space.
fn typed(name: &str) -> String {
    if name.contains(' ') { format!("\"{name}\"") } else { name.to_string() }
}

/// What a players file holds, in the command line's words.
const PLAYERS_FILE: &str =
    "a players file has a `name` column, one player a line (and `id` and `email` if you have them)";

/// "1 table", "3 tables".
fn tables(n: usize) -> String {
    crate::domain::words::count(n, "table")
}

impl WayOut {
    /// The command line's words: the command to type, in a short clause.
    pub fn command_line(&self) -> String {
        let table = |t: &Option<u32>| t.map_or("TABLE".to_string(), |t| t.to_string());
        match self {
            WayOut::PairRound => "pair it with `mmjudge round pair`".into(),
            WayOut::PairRoundOne => "pair round 1 with `mmjudge round pair` first".into(),
            WayOut::PairAnyway => "pair it anyway with `mmjudge round pair --allow`".into(),
            WayOut::PairAnywayOrSwiss => {
                "`mmjudge round pair --allow` pairs it anyway, `mmjudge event set movement swiss` pairs by score".into()
            }
            WayOut::Unpair(why) => why.command_line(),
            WayOut::PairOne => "pair one with `mmjudge round pair`".into(),
            WayOut::StartClock => "start its clock with `mmjudge round start`".into(),
            WayOut::TurnOn { key } => format!("turn it on with `mmjudge event set {key} on`"),
            WayOut::TurnOff { key } => format!("turn {key} off with `mmjudge event set {key} off`"),
            WayOut::RemoveCopies => "remove copies with `mmjudge pool remove`".into(),
            WayOut::OtherFileOrReplace => {
                "use another --db file, or --force to replace it (the old event is kept beside it)".into()
            }
            WayOut::ServeAsItIs => "serve it without --new, or give a new file for a new event".into(),
            WayOut::PromoteOnStandby => "`mmjudge standby promote` runs on the standby's file".into(),
            WayOut::StopPrimary => {
                "stop the primary first (or, if judges can no longer reach it, add `--force`)".into()
            }
            WayOut::NewStandbyFile => "start again with a new --db file".into(),
            WayOut::SiteFolder => "give a folder for the site, e.g. `mmjudge site site`".into(),
            WayOut::StartRound { named: false } => "start it with `mmjudge round start`".into(),
            WayOut::StartRound { named: true } => "start the round with `mmjudge round start`".into(),
            WayOut::StartInspection => "`mmjudge round start` starts it (and its deck inspection)".into(),
            WayOut::StartRoundNow => "start it at once with `mmjudge round start --now`".into(),
            WayOut::StartNowThenClose => "start its clock now with `mmjudge round start --now`, then close it".into(),
            WayOut::EndRound => "`mmjudge round end` closes it".into(),
            WayOut::EndRoundForce => "close the round anyway with `mmjudge round end --force`".into(),
            WayOut::SeeTime => "see `mmjudge time`".into(),
            WayOut::RecordResult { table: t } => {
                format!("record it with `mmjudge result {} WINNER --by REASON`", table(t))
            }
            WayOut::RecordOpen { table } => format!(
                "record {} with `mmjudge result TABLE WINNER --by REASON`",
                if table.is_some() { "it" } else { "them" }
            ),
            WayOut::RecordEachOpen => "record each with `mmjudge result TABLE ...`".into(),
            WayOut::RecordToPlay { table: t, round } => format!(
                "record {} with `mmjudge result {} WINNER --by REASON{}`",
                if t.is_some() { "it" } else { "each" },
                table(t),
                round.map(|r| format!(" --round {r}")).unwrap_or_default()
            ),
            WayOut::OtherReason { later: false } => {
                "(`mmjudge round start`); before it, a result is by concession, intentional-draw, no-show or penalty"
                    .into()
            }
            WayOut::OtherReason { later: true } => {
                "record the result by another reason (--by concession, life, ...), or by time once time is called or \
                 the round is closed (`mmjudge round end`)"
                    .into()
            }
            WayOut::TurnAtTime => "give it with --by time, or leave it out".into(),
            WayOut::FixResult { table: None } => "correct a result with `mmjudge result fix TABLE ...`".into(),
            WayOut::FixResult { table: Some(t) } => format!("correct it with `mmjudge result fix {t} ...`"),
            WayOut::ClearToSwap { table } => {
                format!(
                    "take it back with `mmjudge result clear {table}`, swap the seats, then record the result again"
                )
            }
            WayOut::StopDecision { table, .. } => format!("stop it first with `mmjudge clock {table} --stop`"),
            WayOut::StartDecision { table } => format!("start one with `mmjudge clock {table} --start PLAYER`"),
            WayOut::ListDecisions { table } => format!("`mmjudge decisions --table {table}` lists the recorded ones"),
            WayOut::ListCalls => "`mmjudge call list` shows the open ones".into(),
            WayOut::CloseCalls => "close each with `mmjudge call close TABLE`".into(),
            WayOut::ListRecords { record } => format!("see the ids with `{}`", record.listing()),
            WayOut::ListNotes { table } => format!("see the note ids with `mmjudge notes {table}`"),
            WayOut::NotesThatCount { table } => format!("see the notes that count with `mmjudge notes {table}`"),
            WayOut::NoteIdsAsListed => "as `mmjudge notes TABLE` shows them".into(),
            WayOut::ListChallenges => "see the challenges' ids with `mmjudge challenges`".into(),
            WayOut::VoidRecord { record, id } => {
                format!("ask a judge to void it (`mmjudge {} void {id}`)", record.command())
            }
            WayOut::TakeBack { several, held, .. } => format!(
                "take {} back first with {}, then swap",
                if *several { "them" } else { "it" },
                held.iter().map(|h| h.command_line()).collect::<Vec<_>>().join(", ")
            ),
            WayOut::CheckName => "see `mmjudge player list`".into(),
            WayOut::AddPlayers => "add them with `mmjudge player add NAME`".into(),
            WayOut::AddMorePlayers => "add players with `mmjudge player add NAME`".into(),
            WayOut::UndropPlayer { name } => {
                format!("`mmjudge player undrop {}` takes a drop back first", typed(name))
            }
            WayOut::TakeDropBack { .. } => "`player undrop` takes it back".into(),
            WayOut::DropPlayer { name, no_show } => format!(
                "drop them with `mmjudge player drop {}`{}",
                typed(name),
                no_show
                    .map(|t| format!(", then record table {t} as a no-show win for the opponent"))
                    .unwrap_or_default()
            ),
            WayOut::DropSeated { name, table, round } => format!(
                "drop the player with `mmjudge player drop {}` instead ({})",
                typed(name),
                match table {
                    Some(t) => format!("record table {t} as a no-show win for the opponent"),
                    None => format!("the bye stays in round {round}, and they are not paired again"),
                }
            ),
            WayOut::DropNotRemove { name } => format!("`mmjudge player drop {}`", typed(name)),
            WayOut::ImportPool => "import it with `mmjudge pool import FILE.csv`".into(),
            WayOut::ImportAsCards { file, is } => {
                format!("import it with `mmjudge {} {}`; {PLAYERS_FILE}", is.command(), typed(file))
            }
            WayOut::ListWatch => "see `mmjudge pool watch list`".into(),
            WayOut::ShowLibrary { label } => format!("see `mmjudge library show {label}`"),
            WayOut::SwapLibraryCards { free } => format!(
                "{}swap them out first (`mmjudge library swap`)",
                if *free > 0 { format!("remove at most {free} (--count {free}), or ") } else { String::new() }
            ),
            WayOut::FindCard => "check the spelling with `mmjudge cards find`".into(),
            WayOut::ListBans => "see `mmjudge ban list`".into(),
            WayOut::CheckIn { name } => {
                let name = name.as_deref().map_or("NAME".to_string(), typed);
                format!("check them in with `mmjudge player check-in {name}`")
            }
            WayOut::PairPresent => "pair those present with `mmjudge round pair --drop-absent` (the absent are \
                                    dropped as not arrived; `mmjudge player undrop NAME` takes it back)"
                .into(),
            WayOut::CheckJudge => "see `mmjudge judge list`".into(),
            WayOut::AddJudge => "add one with `mmjudge judge add NAME --role floor`".into(),
            WayOut::AddHeadJudge => "add another head judge first with `mmjudge judge add NAME --role head`".into(),
            WayOut::CheckPin => "a PIN renewed with `mmjudge judge pin NAME` replaces the old one".into(),
            WayOut::NewPin { name } => {
                format!("give a new PIN with `mmjudge judge pin \"{name}\"`, or choose another name")
            }
            WayOut::ForceAnyway { to, .. } => format!("add --force to {to}"),
            WayOut::UseForce { to, .. } => format!("use --force to {to}"),
            WayOut::ForceTo { to, .. } => format!("--force to {to}"),
            WayOut::ForceSetting { key, value, .. } => {
                format!("to change {key} now anyway: `mmjudge event set {key} {value} --force`")
            }
            WayOut::PromoteStandby { db } => {
                format!("write on the primary laptop, or, if it is gone for good, run `{}` here", promote_command(db))
            }
            WayOut::EventMoved { to } => {
                format!("the event continues at {to}: write there (`mmjudge standby status` says more)")
            }
            WayOut::ChangeSetting { key } => format!("change it with `mmjudge event set {key} VALUE`"),
            WayOut::SetFirst { key, value } => format!("`mmjudge event set {key} {value}` first"),
            WayOut::RaiseRounds { to } => {
                format!("to play another, raise the count with `mmjudge event set rounds {to}`")
            }
            WayOut::ChangeMovement { to } => format!("`mmjudge event set movement {to}`"),
            WayOut::BuildLibraries { tables: n } => {
                format!("`mmjudge library build --tables {}`", n.map_or("N".to_string(), |n| n.to_string()))
            }
            WayOut::BuildAll => "build them all at once with `mmjudge library build --tables N`".into(),
            WayOut::BuildOrSealed { tables } => format!(
                "build them with `mmjudge library build --tables {tables}` (or `mmjudge event set libraries sealed`)"
            ),
            WayOut::AddTables { more, rebuild } => format!(
                "`mmjudge library add-tables {more}` builds {} from what is left in the pool, without touching the \
                 libraries in play{}",
                if *more == 1 { "the missing one".to_string() } else { format!("the {more} missing") },
                rebuild
                    .map(|n| format!(
                        " (before round 1, `mmjudge library build --tables {n}` rebuilds them all instead)"
                    ))
                    .unwrap_or_default()
            ),
            WayOut::RegisterLibrary { whose } => whose.command_line().into(),
            WayOut::ListLibraries => "see `mmjudge library list`".into(),
            WayOut::AddCardsOrFewer { most } => format!(
                "add cards with `mmjudge pool add`{}",
                if *most == 0 { String::new() } else { format!(", or add at most {}", tables(*most)) }
            ),
            WayOut::AddCardsOrBuildFewer { most } => format!(
                "add cards with `mmjudge pool add` or {}",
                if *most == 0 {
                    "add cards to the pool".to_string()
                } else {
                    format!("build at most {}", tables(*most))
                }
            ),
            WayOut::IncludeCard { name } => format!("`mmjudge pool include \"{name}\"` first"),
            WayOut::ListPool => "see `mmjudge pool list`".into(),
            WayOut::KeepPool => "import without --replace, or rebuild the libraries after editing the pool".into(),
            WayOut::KeepReference => {
                "import without --replace to add and update cards, or add --force to replace it anyway".into()
            }
            WayOut::AllowUnknown => {
                "correct the names, or add --allow-unknown to keep unknown cards with the cost and type given".into()
            }
            WayOut::FreeCopies => "`mmjudge pool list` shows each card's copies and how many are in libraries (a card \
                                   with fewer in libraries has a free copy)"
                .into(),
            WayOut::ImportCards { need } => need.command_line().into(),
            WayOut::Example(example) => example.command_line().into(),
            WayOut::Either(ways) => or_list(ways.iter().map(WayOut::command_line).collect()),
            WayOut::Both(a, b) => format!("{}; {}", a.command_line(), b.command_line()),
        }
    }
}

/// "a, or b"; "a, b, or c".
pub(super) fn or_list(mut words: Vec<String>) -> String {
    match words.pop() {
        Some(last) if !words.is_empty() => format!("{}, or {last}", words.join(", ")),
        Some(last) => last,
        None => String::new(),
    }
}
