//! The web's words for a way out: what to tap and where, or whom to ask; never a command line. The server shows
//! them after what was refused and a semicolon, whatever the command line's joining punctuation.

use super::WayOut;
use super::cli::or_list;

/// Where a head judge changes a setting.
const SETTINGS: &str = "in Settings on the Judges page";

/// The plain name of setting `key`, for a sentence ("Check-in", "Rounds").
fn setting(key: &str) -> &'static str {
    crate::domain::setting_words::plain_name(key)
}

/// The players' page, as a judge reaches it.
const PLAYERS_PAGE: &str = "on the Players page (from the Judges page)";

/// Where a head judge does what is done before round 1 (and a few steps after it).
pub(super) const SETUP_PAGE: &str = "on the set-up page (Judges, then Set up the event, or /judge/setup)";

impl WayOut {
    /// The web's words: what to tap and where, or whom to ask; never a command line.
    pub fn web(&self) -> String {
        let table_page = |t: &Option<u32>| match t {
            Some(t) => format!("table {t}'s judge page"),
            None => "the table's judge page".to_string(),
        };
        let record = |t: &Option<u32>| format!("a judge records it with Record result on {}", table_page(t));
        match self {
            WayOut::PairRound => "a head judge pairs it with Pair the next round on the Judges page".into(),
            WayOut::PairRoundOne => "a head judge pairs round 1 first with Pair round 1 on the Judges page".into(),
            WayOut::PairAnyway => "pairing it anyway (players meet again) is the head judge's call: ask them".into(),
            WayOut::PairAnywayOrSwiss => "pairing it anyway (players meet again) is the head judge's call, or a head \
                                          judge sets Movement to Swiss (pairs by score) in Settings on the Judges page"
                .into(),
            WayOut::Unpair(why) => why.web(),
            WayOut::PairOne => "a head judge pairs one with Pair the next round on the Judges page".into(),
            WayOut::StartClock => "a head judge starts its clock with Start the round on the Judges page".into(),
            WayOut::TurnOn { key } => format!("a head judge turns {} on {SETTINGS}", setting(key)),
            WayOut::TurnOff { key } => format!("a head judge turns {} off {SETTINGS}", setting(key)),
            WayOut::RemoveCopies => "ask the organiser: the card pool is changed at the event's computer".into(),
            WayOut::OtherFileOrReplace => {
                "ask the organiser: a new event goes in another event file at the event's computer".into()
            }
            WayOut::ServeAsItIs => "ask the organiser: the event's computer serves the event it holds".into(),
            WayOut::PromoteOnStandby => "ask the organiser: the second laptop is promoted at that laptop".into(),
            WayOut::StopPrimary => {
                "ask the organiser: the first laptop is stopped before the second is promoted".into()
            }
            WayOut::NewStandbyFile => "ask the organiser to start the second laptop again on a new file".into(),
            WayOut::SiteFolder => "ask the organiser: the site is written into a folder at the event's computer".into(),
            WayOut::StartRound { named } => format!(
                "a head judge starts {} with Start the round on the Judges page",
                if *named { "the round" } else { "it" }
            ),
            WayOut::StartInspection => {
                "a head judge starts it (and its deck inspection) with Start the round on the Judges page".into()
            }
            WayOut::StartRoundNow => "a head judge can start it at once with Start the round on the Judges page".into(),
            WayOut::StartNowThenClose => {
                "a head judge starts its clock now with Start the round on the Judges page, then closes it".into()
            }
            WayOut::EndRound => "a head judge closes it with End the round on the Judges page".into(),
            WayOut::EndRoundForce => {
                "a head judge can close it anyway on the Judges page: “End the round…”, then “Yes, end the round \
                 anyway”"
                    .into()
            }
            WayOut::SeeTime => "the Clock page shows it".into(),
            WayOut::RecordResult { table } | WayOut::RecordOpen { table } => record(table),
            WayOut::RecordEachOpen => record(&None),
            WayOut::RecordToPlay { table, round } => {
                format!("{}{}", record(table), round.map(|r| format!(" (round {r})")).unwrap_or_default())
            }
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
            WayOut::ClearToSwap { table } => format!(
                "a head judge takes it back with Clear the result on {}, swaps the seats, then records the result again",
                table_page(&Some(*table))
            ),
            WayOut::StopDecision { player, .. } => format!("{player} taps Stop or Hand over first"),
            WayOut::StartDecision { .. } => "a decision starts when its player taps Start my decision".into(),
            WayOut::ListDecisions { table } => format!("{} shows its decision clock", table_page(&Some(*table))),
            WayOut::ListCalls => "the Judges page lists the open calls".into(),
            WayOut::CloseCalls => "a judge closes each with Close the call on the table's judge page".into(),
            WayOut::ListRecords { record } => format!("the {} ids are on the table's judge page", record.word()),
            WayOut::ListNotes { table } => format!("the note ids are on {}", table_page(&Some(*table))),
            WayOut::NotesThatCount { table } => {
                format!("{} shows the notes that count", table_page(&Some(*table)))
            }
            WayOut::NoteIdsAsListed => "the note ids are on the table's judge page".into(),
            WayOut::ListChallenges => "the challenge ids are on the table's judge page".into(),
            WayOut::VoidRecord { record, id } => {
                format!("ask a judge to void it (a head judge voids {} #{id} on the table's judge page)", record.word())
            }
            WayOut::TakeBack { table, held, .. } => format!(
                "a head judge takes them back first with Void on {} ({}), then swaps",
                table_page(&Some(*table)),
                held.iter().map(|h| h.web()).collect::<Vec<_>>().join(", ")
            ),
            WayOut::CheckName => "check the spelling or ask a judge".into(),
            WayOut::AddPlayers => "a head judge adds them with Add on the Players page (from the Judges page)".into(),
            WayOut::AddMorePlayers => format!("a head judge adds players with Add {PLAYERS_PAGE}"),
            WayOut::UndropPlayer { name } => {
                format!("a head judge keeps them in with Undrop beside {name} {PLAYERS_PAGE}")
            }
            WayOut::TakeDropBack { name } => {
                format!("a head judge takes it back with Undrop beside {name} {PLAYERS_PAGE}")
            }
            WayOut::DropPlayer { name, no_show } => format!(
                "a head judge drops them instead with Drop beside {name} {PLAYERS_PAGE}{}",
                no_show
                    .map(|t| format!(", then records table {t} as a no-show win for the opponent"))
                    .unwrap_or_default()
            ),
            WayOut::DropSeated { name, table, round } => format!(
                "a head judge drops them instead with Drop beside {name} {PLAYERS_PAGE} ({})",
                match table {
                    Some(t) => format!("then records table {t} as a no-show win for the opponent"),
                    None => format!("the bye stays in round {round}, and they are not paired again"),
                }
            ),
            WayOut::DropNotRemove { name } => format!("a head judge drops them with Drop beside {name} {PLAYERS_PAGE}"),
            WayOut::ImportPool => format!("a head judge loads the card pool {SETUP_PAGE}"),
            WayOut::ImportAsCards { is, .. } => format!(
                "upload it in {} on the set-up page instead; the players' file has a name column, one player a \
                 line, and id and email if you have them",
                is.step()
            ),
            WayOut::ListWatch => "the pool's watch list is in the curation report (Judges, then Prints)".into(),
            WayOut::ShowLibrary { label } => format!("check the card against library {label}'s list, or ask a judge"),
            WayOut::SwapLibraryCards { free } => format!(
                "{}a head judge swaps library cards {SETUP_PAGE}",
                if *free > 0 { format!("remove at most {free}, or ") } else { String::new() }
            ),
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
            WayOut::AddJudge => format!("a head judge adds judges {SETUP_PAGE}"),
            WayOut::AddHeadJudge => {
                format!("add another head judge first: Add the judge, as head judge, in the Judges step {SETUP_PAGE}")
            }
            WayOut::CheckPin => "a new PIN replaces the old one: ask the head judge if yours was renewed".into(),
            WayOut::NewPin { name } => format!(
                "choose another name, or give {name} a new PIN with New PIN for a judge in the Judges step {SETUP_PAGE}"
            ),
            WayOut::ForceAnyway { to, tick } | WayOut::UseForce { to, tick } | WayOut::ForceTo { to, tick } => {
                match tick.label() {
                    Some(label) => format!("tick “{label}” and send it again"),
                    None => format!("ask a head judge: they can {to} at the event's computer"),
                }
            }
            WayOut::ForceSetting { round, key, .. } => format!(
                "a head judge can change it anyway: tick “Change it although round {round} is being played” beside \
                 {} {SETTINGS}",
                setting(key)
            ),
            WayOut::PromoteStandby { .. } => {
                "this is the second laptop, following the first: try again in a moment".into()
            }
            WayOut::EventMoved { to } => format!("the event continues at {to}: open it there"),
            WayOut::ChangeMovement { to } => {
                format!("a head judge can set Movement to {to} {SETTINGS}")
            }
            WayOut::ChangeSetting { key } => {
                format!("a head judge changes {} {SETTINGS}", setting(key))
            }
            WayOut::SetFirst { key, value } => {
                format!("a head judge sets {} to {value} first {SETTINGS}", setting(key))
            }
            WayOut::RaiseRounds { to } => {
                format!("to play another, a head judge sets Rounds to {to} {SETTINGS}")
            }
            WayOut::BuildLibraries { .. } | WayOut::BuildAll => {
                format!("a head judge builds the libraries {SETUP_PAGE}")
            }
            WayOut::BuildOrSealed { tables } => format!(
                "a head judge builds libraries for {} {SETUP_PAGE} (or sets the event to sealed libraries)",
                crate::domain::words::count(*tables, "table")
            ),
            WayOut::AddTables { more, rebuild } => {
                let missing = match more {
                    1 => "the missing table's libraries".to_string(),
                    n => format!("the {n} missing tables' libraries"),
                };
                let again = match rebuild {
                    Some(n) => format!(
                        " (or builds every library again for {} there)",
                        crate::domain::words::count(*n, "table")
                    ),
                    None => String::new(),
                };
                format!(
                    "a head judge builds {missing} from what is left in the pool, without touching the libraries in \
                     play, with More tables for late entries in the Libraries step {SETUP_PAGE}{again}"
                )
            }
            WayOut::RegisterLibrary { whose } => whose.web().into(),
            WayOut::ListLibraries => "a library is named by its table and seat, such as 3A".into(),
            WayOut::AddCardsOrFewer { .. } | WayOut::AddCardsOrBuildFewer { .. } => {
                format!(
                    "a head judge loads more cards into the pool, or builds fewer tables, {SETUP_PAGE}; the curation \
                     report (Judges, then Prints) lists what to find, by mana value"
                )
            }
            WayOut::IncludeCard { name } => {
                format!("a head judge takes {name} back into the pool first {SETUP_PAGE}")
            }
            WayOut::ListPool => "the card pool is in the curation report (Judges, then Prints)".into(),
            WayOut::KeepPool => {
                "send the file without replace (its cards are added to the pool), or rebuild the libraries after \
                 editing the pool"
                    .into()
            }
            WayOut::KeepReference => {
                "send the file from the set-up page (its cards are added and updated); replacing the whole reference \
                 is done at the event's computer: ask the organiser"
                    .into()
            }
            WayOut::AllowUnknown => {
                "correct the names, or tick “Keep cards the reference does not know” (they keep the cost and type \
                 given)"
                    .into()
            }
            WayOut::FreeCopies => {
                "put in a card the libraries hold fewer copies of than the pool (the deck sheets among the prints list \
                 each library's cards, the curation report the pool's copies)"
                    .into()
            }
            WayOut::ImportCards { need } => need.web().into(),
            WayOut::Example(example) => format!("give {}", example.what()),
            WayOut::Either(ways) => or_list(ways.iter().map(WayOut::web).collect()),
            WayOut::Both(a, b) => format!("{}; {}", a.web(), b.web()),
        }
    }
}
