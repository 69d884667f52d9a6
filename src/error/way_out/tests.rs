//! Every way out is worded for both front ends, and the samples hold every variant.

use super::*;

#[test]
fn every_way_out_names_its_command_on_the_command_line_and_none_on_the_web() {
    for w in WayOut::samples() {
        let cli = w.command_line();
        assert!(cli.contains("mmjudge ") || cli.contains('`') || cli.contains("--"), "{w:?}: {cli}");
        let web = w.web();
        assert!(!web.contains("mmjudge") && !web.contains('`') && !web.contains("--"), "{w:?}: {web}");
        assert!(!web.is_empty() && web.lines().count() == 1, "{w:?}: {web}");
        assert!(!cli.is_empty() && cli.lines().count() == 1, "{w:?}: {cli}");
    }
}

/// Which variant a way out is: a new variant fails to compile here until it is added, and then the test below
/// fails until [`WayOut::samples`] holds it.
fn variant(w: &WayOut) -> usize {
    match w {
        WayOut::PairRound => 0,
        WayOut::PairAnyway => 1,
        WayOut::Unpair(_) => 2,
        WayOut::StartRound { .. } => 3,
        WayOut::StartRoundNow => 4,
        WayOut::EndRound => 5,
        WayOut::EndRoundForce => 6,
        WayOut::SeeTime => 7,
        WayOut::RecordResult { .. } => 8,
        WayOut::OtherReason { .. } => 9,
        WayOut::FixResult { .. } => 10,
        WayOut::ClearToSwap { .. } => 11,
        WayOut::StopDecision { .. } => 12,
        WayOut::StartDecision { .. } => 13,
        WayOut::ListDecisions { .. } => 14,
        WayOut::ListCalls => 15,
        WayOut::CloseCalls => 16,
        WayOut::VoidRecord { .. } => 17,
        WayOut::TakeBack { .. } => 18,
        WayOut::ListRecords { .. } => 19,
        WayOut::CheckName => 20,
        WayOut::AddPlayers => 21,
        WayOut::UndropPlayer { .. } => 22,
        WayOut::DropPlayer { .. } => 23,
        WayOut::CheckJudge => 24,
        WayOut::AddJudge => 25,
        WayOut::CheckPin => 26,
        WayOut::NewPin { .. } => 27,
        WayOut::ForceTo { .. } => 28,
        WayOut::ChangeMovement { .. } => 29,
        WayOut::ChangeSetting { .. } => 30,
        WayOut::BuildLibraries { .. } => 31,
        WayOut::ListLibraries => 32,
        WayOut::RegisterLibrary { .. } => 33,
        WayOut::UseForce { .. } => 34,
        WayOut::ListPool => 35,
        WayOut::ImportPool => 36,
        WayOut::ListWatch => 37,
        WayOut::ShowLibrary { .. } => 38,
        WayOut::SwapLibraryCards { .. } => 39,
        WayOut::FindCard => 40,
        WayOut::ListBans => 41,
        WayOut::ImportCards { .. } => 42,
        WayOut::Either(..) => 43,
        WayOut::Example(_) => 44,
        WayOut::PromoteStandby { .. } => 45,
        WayOut::EventMoved { .. } => 46,
        WayOut::TurnAtTime => 47,
        WayOut::ForceAnyway { .. } => 48,
        WayOut::CheckIn { .. } => 49,
        WayOut::PairPresent => 50,
        WayOut::AddHeadJudge => 51,
        WayOut::PairOne => 52,
        WayOut::StartClock => 53,
        WayOut::TurnOn { .. } => 54,
        WayOut::RemoveCopies => 55,
        WayOut::OtherFileOrReplace => 56,
        WayOut::ServeAsItIs => 57,
        WayOut::PromoteOnStandby => 58,
        WayOut::NewStandbyFile => 59,
        WayOut::SiteFolder => 60,
        WayOut::PairRoundOne => 61,
        WayOut::PairAnywayOrSwiss => 62,
        WayOut::TurnOff { .. } => 63,
        WayOut::StopPrimary => 64,
        WayOut::StartInspection => 65,
        WayOut::StartNowThenClose => 66,
        WayOut::RecordOpen { .. } => 67,
        WayOut::RecordEachOpen => 68,
        WayOut::RecordToPlay { .. } => 69,
        WayOut::ListNotes { .. } => 70,
        WayOut::NotesThatCount { .. } => 71,
        WayOut::NoteIdsAsListed => 72,
        WayOut::ListChallenges => 73,
        WayOut::AddMorePlayers => 74,
        WayOut::TakeDropBack { .. } => 75,
        WayOut::DropSeated { .. } => 76,
        WayOut::DropNotRemove { .. } => 77,
        WayOut::ForceSetting { .. } => 78,
        WayOut::SetFirst { .. } => 79,
        WayOut::RaiseRounds { .. } => 80,
        WayOut::BuildAll => 81,
        WayOut::BuildOrSealed { .. } => 82,
        WayOut::AddTables { .. } => 83,
        WayOut::AddCardsOrFewer { .. } => 84,
        WayOut::AddCardsOrBuildFewer { .. } => 85,
        WayOut::IncludeCard { .. } => 86,
        WayOut::FreeCopies => 87,
        WayOut::Both(..) => 88,
        WayOut::KeepPool => 89,
        WayOut::KeepReference => 90,
        WayOut::AllowUnknown => 91,
        WayOut::ImportAsCards { .. } => 92,
    }
}

#[test]
fn the_standby_s_refusal_names_its_own_file_in_the_promotion() {
    let w = WayOut::PromoteStandby { db: "b/standby.db".into() };
    assert_eq!(
        w.command_line(),
        "write on the primary laptop, or, if it is gone for good, run `mmjudge --db b/standby.db standby promote` here"
    );
    assert!(!w.web().contains("mmjudge") && !w.web().contains("standby.db"), "{}", w.web());
    assert_eq!(promote_command("my event.db"), "mmjudge --db \"my event.db\" standby promote");
}

#[test]
fn the_samples_hold_every_way_out() {
    let mut seen: Vec<usize> = WayOut::samples().iter().map(variant).collect();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen, (0..93).collect::<Vec<_>>());
}

#[test]
fn a_refusal_prints_its_command_line_words_and_gives_the_web_its_own() {
    let r = Refusal::refused("round 3 has not started").rule("MM.3").way_out(WayOut::StartClock);
    assert_eq!(r.to_string(), "round 3 has not started: start its clock with `mmjudge round start`");
    assert_eq!(
        r.web(),
        "round 3 has not started; a head judge starts its clock with Start the round on the Judges page"
    );
    let r = Refusal::not_found("there is no penalty #4").way_out(WayOut::ListRecords { record: Record::Penalty });
    assert_eq!(r.to_string(), "there is no penalty #4: see the ids with `mmjudge penalties`");
    assert_eq!(r.web(), "there is no penalty #4; the penalty ids are on the table's judge page");
}

#[test]
fn a_refusal_that_names_a_flag_names_the_form_s_field_on_the_web() {
    let r = Refusal::refused("table 2: a result at time needs both life totals")
        .flags("table 2: --by time needs both life totals: --life A B");
    assert_eq!(r.to_string(), "table 2: --by time needs both life totals: --life A B");
    assert_eq!(r.web(), "table 2: a result at time needs both life totals");
    let r = Refusal::refused("note #3 is evidence in challenge #1")
        .way_out(WayOut::ForceAnyway { to: "remove it and its citation".into(), tick: super::Tick::RemoveCited });
    assert_eq!(r.to_string(), "note #3 is evidence in challenge #1: add --force to remove it and its citation");
    assert_eq!(
        r.web(),
        "note #3 is evidence in challenge #1; ask a head judge: they can remove it and its citation at the event's computer"
    );
    let r = Refusal::refused("round 1 cannot be paired").way_out_after(Join::Semicolon, WayOut::SeeTime);
    assert_eq!(r.to_string(), "round 1 cannot be paired; see `mmjudge time`");
}

/// The words the command line printed when each call site wrote them by hand, now built from the way out alone:
/// (join, way out, the bytes after what was refused).
fn as_the_command_line_printed_them() -> Vec<(Join, WayOut, &'static str)> {
    let name = || "Tomás Ó".to_string();
    let unpair = WayOut::Unpair;
    vec![
        (Join::Semicolon, WayOut::TakeDropBack { name: name() }, "; `player undrop` takes it back"),
        (
            Join::Colon,
            WayOut::DropPlayer { name: name(), no_show: Some(3) },
            ": drop them with `mmjudge player drop \"Tomás Ó\"`, then record table 3 as a no-show win for the opponent",
        ),
        (
            Join::Colon,
            WayOut::DropPlayer { name: "Ana".into(), no_show: None },
            ": drop them with `mmjudge player drop Ana`",
        ),
        (
            Join::Colon,
            WayOut::DropSeated { name: "Ana".into(), table: Some(3), round: 2 },
            ": drop the player with `mmjudge player drop Ana` instead (record table 3 as a no-show win for the opponent)",
        ),
        (
            Join::Colon,
            WayOut::DropSeated { name: name(), table: None, round: 2 },
            ": drop the player with `mmjudge player drop \"Tomás Ó\"` instead (the bye stays in round 2, and they are \
             not paired again)",
        ),
        (Join::Colon, WayOut::DropNotRemove { name: name() }, ": `mmjudge player drop \"Tomás Ó\"`"),
        (
            Join::Colon,
            unpair(Unpair::RemovePlayer),
            ": take the round back with `mmjudge round unpair`, remove the player, then pair it again",
        ),
        (Join::Semicolon, unpair(Unpair::Libraries), "; take the rounds back with `mmjudge round unpair` first"),
        (
            Join::Comma,
            unpair(Unpair::FewerRounds { round: 2 }),
            ", or first take round 2 back with `mmjudge round unpair` (while it has no results)",
        ),
        (
            Join::Semicolon,
            unpair(Unpair::Byes),
            "; to change the round's byes, take it back with `mmjudge round unpair` and pair it again with `mmjudge \
             round pair`",
        ),
        (
            Join::Colon,
            unpair(Unpair::NoShow { several: false, then: Again::Fix }),
            ": take it back first (`mmjudge round unpair`), then fix the result again",
        ),
        (
            Join::Colon,
            unpair(Unpair::NoShow { several: true, then: Again::Clear }),
            ": take them back first (`mmjudge round unpair`), then clear the result again",
        ),
        (Join::Aside, WayOut::EndRound, " (`mmjudge round end` closes it)"),
        (Join::Colon, WayOut::Example(Example::PlayerNames), ": mmjudge player add NAME..."),
        (Join::Colon, WayOut::Example(Example::BanCard), ": mmjudge ban add \"Black Lotus\" --group too-powerful"),
        (Join::Colon, WayOut::Example(Example::Round), ": --round 1"),
        (Join::Colon, WayOut::Example(Example::CardNamePart), ": mmjudge cards find \"demonic tutor\""),
        (Join::Colon, WayOut::Example(Example::CardText), ": mmjudge cards find --text \"draw a card\""),
        (Join::Colon, WayOut::Example(Example::CardName), ": mmjudge cards show \"Demonic Tutor\""),
        (Join::Colon, WayOut::Example(Example::EventName), ": mmjudge event new \"Spring Mental Magic Open\""),
        (
            Join::Colon,
            WayOut::Example(Example::ExtensionMinutes),
            ": e.g. `mmjudge round extend 3 5 --reason \"deck check\"`",
        ),
        (
            Join::Colon,
            WayOut::UndropPlayer { name: name() },
            ": `mmjudge player undrop \"Tomás Ó\"` takes a drop back first",
        ),
        (
            Join::Colon,
            WayOut::SetFirst { key: "libraries".into(), value: "sealed".into() },
            ": `mmjudge event set libraries sealed` first",
        ),
        (
            Join::Colon,
            WayOut::RegisterLibrary { whose: Whose::NewPlayer },
            ": register a new player's with `mmjudge library register PLAYER FILE.csv`",
        ),
        (
            Join::Colon,
            WayOut::RegisterLibrary { whose: Whose::Again },
            ": register them again with `mmjudge library register`",
        ),
        (Join::Colon, WayOut::RegisterLibrary { whose: Whose::Missing }, ": `mmjudge library register NAME FILE`"),
        (Join::Colon, WayOut::RegisterLibrary { whose: Whose::Player }, ": `mmjudge library register PLAYER FILE.csv`"),
        (
            Join::Colon,
            WayOut::RegisterLibrary { whose: Whose::Each },
            ": register each player's with `mmjudge library register PLAYER FILE.csv`",
        ),
        (Join::Colon, WayOut::BuildAll, ": build them all at once with `mmjudge library build --tables N`"),
        (
            Join::Colon,
            WayOut::AddTables { more: 1, rebuild: None },
            ": `mmjudge library add-tables 1` builds the missing one from what is left in the pool, without touching \
             the libraries in play",
        ),
        (
            Join::Colon,
            WayOut::AddTables { more: 2, rebuild: Some(9) },
            ": `mmjudge library add-tables 2` builds the 2 missing from what is left in the pool, without touching the \
             libraries in play (before round 1, `mmjudge library build --tables 9` rebuilds them all instead)",
        ),
        (
            Join::Colon,
            WayOut::BuildOrSealed { tables: 8 },
            ": build them with `mmjudge library build --tables 8` (or `mmjudge event set libraries sealed`)",
        ),
        (Join::Colon, WayOut::BuildLibraries { tables: Some(8) }, ": `mmjudge library build --tables 8`"),
        (Join::Colon, WayOut::BuildLibraries { tables: None }, ": `mmjudge library build --tables N`"),
        (Join::Semicolon, WayOut::AddCardsOrFewer { most: 0 }, "; add cards with `mmjudge pool add`"),
        (
            Join::Semicolon,
            WayOut::AddCardsOrFewer { most: 2 },
            "; add cards with `mmjudge pool add`, or add at most 2 tables",
        ),
        (
            Join::Semicolon,
            WayOut::AddCardsOrBuildFewer { most: 0 },
            "; add cards with `mmjudge pool add` or add cards to the pool",
        ),
        (
            Join::Semicolon,
            WayOut::AddCardsOrBuildFewer { most: 1 },
            "; add cards with `mmjudge pool add` or build at most 1 table",
        ),
        (
            Join::Colon,
            WayOut::IncludeCard { name: "Black Lotus".into() },
            ": `mmjudge pool include \"Black Lotus\"` first",
        ),
        (
            Join::Semicolon,
            WayOut::FreeCopies,
            "; `mmjudge pool list` shows each card's copies and how many are in libraries (a card with fewer in \
             libraries has a free copy)",
        ),
        (
            Join::Colon,
            WayOut::ImportCards { need: Cards::OrForce },
            ": import one with `mmjudge cards import FILE`, or add --force",
        ),
        (
            Join::Colon,
            WayOut::ImportCards { need: Cards::BeforeRulings },
            ": import cards first with `mmjudge cards import FILE`, then their rulings",
        ),
        (
            Join::Colon,
            WayOut::ImportCards { need: Cards::WithTexts },
            ": import an MTGJSON or Scryfall card file (or a CSV with a text column) with `mmjudge cards import FILE`",
        ),
        (
            Join::Colon,
            WayOut::ImportCards { need: Cards::Any },
            ": import one with `mmjudge cards import FILE` (e.g. examples/cards.csv)",
        ),
        (
            Join::Semicolon,
            WayOut::Both(
                Box::new(WayOut::FindCard),
                Box::new(WayOut::UseForce { to: "ban it anyway".into(), tick: super::Tick::BanUnknown }),
            ),
            "; check the spelling with `mmjudge cards find`; use --force to ban it anyway",
        ),
        (
            Join::Semicolon,
            WayOut::UseForce { to: "ban it anyway".into(), tick: super::Tick::BanUnknown },
            "; use --force to ban it anyway",
        ),
        (
            Join::Or,
            WayOut::ForceTo { to: "watch it anyway".into(), tick: super::Tick::WatchUnknown },
            ", or --force to watch it anyway",
        ),
        (
            Join::Semicolon,
            WayOut::RecordToPlay { table: Some(3), round: None },
            "; record it with `mmjudge result 3 WINNER --by REASON`",
        ),
        (
            Join::Semicolon,
            WayOut::RecordToPlay { table: None, round: Some(2) },
            "; record each with `mmjudge result TABLE WINNER --by REASON --round 2`",
        ),
        (
            Join::Semicolon,
            WayOut::RecordOpen { table: Some(3) },
            "; record it with `mmjudge result TABLE WINNER --by REASON`",
        ),
        (
            Join::Semicolon,
            WayOut::RecordOpen { table: None },
            "; record them with `mmjudge result TABLE WINNER --by REASON`",
        ),
        (
            Join::Semicolon,
            WayOut::ForceSetting { round: 2, key: "round-minutes".into(), value: "60".into() },
            "; to change round-minutes now anyway: `mmjudge event set round-minutes 60 --force`",
        ),
        (
            Join::Colon,
            WayOut::StopPrimary,
            ": stop the primary first (or, if judges can no longer reach it, add `--force`)",
        ),
        (Join::Colon, WayOut::StartInspection, ": `mmjudge round start` starts it (and its deck inspection)"),
        (
            Join::Colon,
            WayOut::StartNowThenClose,
            ": start its clock now with `mmjudge round start --now`, then close it",
        ),
        (
            Join::Colon,
            WayOut::Either(vec![WayOut::RecordEachOpen, WayOut::EndRoundForce]),
            ": record each with `mmjudge result TABLE ...`, or close the round anyway with `mmjudge round end --force`",
        ),
        (Join::Colon, WayOut::AddMorePlayers, ": add players with `mmjudge player add NAME`"),
        (
            Join::Colon,
            WayOut::Either(vec![
                WayOut::CheckIn { name: Some(name()) },
                WayOut::PairPresent,
                WayOut::TurnOff { key: "check-in".into() },
            ]),
            ": check them in with `mmjudge player check-in \"Tomás Ó\"`, pair those present with `mmjudge round pair \
             --drop-absent` (the absent are dropped as not arrived; `mmjudge player undrop NAME` takes it back), or \
             turn check-in off with `mmjudge event set check-in off`",
        ),
        (
            Join::Semicolon,
            WayOut::RaiseRounds { to: 6 },
            "; to play another, raise the count with `mmjudge event set rounds 6`",
        ),
        (
            Join::Colon,
            WayOut::PairAnywayOrSwiss,
            ": `mmjudge round pair --allow` pairs it anyway, `mmjudge event set movement swiss` pairs by score",
        ),
        (Join::Aside, WayOut::ChangeMovement { to: "mitchell".into() }, " (`mmjudge event set movement mitchell`)"),
        (Join::Semicolon, WayOut::FixResult { table: None }, "; correct a result with `mmjudge result fix TABLE ...`"),
        (Join::Semicolon, WayOut::FixResult { table: Some(3) }, "; correct it with `mmjudge result fix 3 ...`"),
        (
            Join::Colon,
            WayOut::ClearToSwap { table: 3 },
            ": take it back with `mmjudge result clear 3`, swap the seats, then record the result again",
        ),
        (
            Join::Semicolon,
            WayOut::TakeBack { table: 1, several: false, held: vec![Held::Running { table: 1 }] },
            "; take it back first with `mmjudge clock 1 --cancel`, then swap",
        ),
        (
            Join::Semicolon,
            WayOut::TakeBack {
                table: 1,
                several: true,
                held: vec![Held::Notes { table: 1 }, Held::Record { record: Record::Penalty }, Held::Call { table: 2 }],
            },
            "; take them back first with `mmjudge note void ID` (ids in `mmjudge notes 1`), `mmjudge penalty void ID`, \
             `mmjudge call close 2`, then swap",
        ),
        (Join::Semicolon, WayOut::NotesThatCount { table: 3 }, "; see the notes that count with `mmjudge notes 3`"),
        (Join::Colon, WayOut::ListNotes { table: 3 }, ": see the note ids with `mmjudge notes 3`"),
        (Join::Comma, WayOut::NoteIdsAsListed, ", as `mmjudge notes TABLE` shows them"),
        (Join::Colon, WayOut::ListChallenges, ": see the challenges' ids with `mmjudge challenges`"),
        (Join::Semicolon, WayOut::StartRound { named: false }, "; start it with `mmjudge round start`"),
        (Join::Semicolon, WayOut::StartRound { named: true }, "; start the round with `mmjudge round start`"),
        (Join::Or, WayOut::StartRoundNow, ", or start it at once with `mmjudge round start --now`"),
        (Join::Colon, WayOut::TurnAtTime, ": give it with --by time, or leave it out"),
        (
            Join::Colon,
            WayOut::RecordResult { table: Some(3) },
            ": record it with `mmjudge result 3 WINNER --by REASON`",
        ),
        (
            Join::Space,
            WayOut::OtherReason { later: false },
            " (`mmjudge round start`); before it, a result is by concession, intentional-draw, no-show or penalty",
        ),
        (
            Join::Colon,
            WayOut::OtherReason { later: true },
            ": record the result by another reason (--by concession, life, ...), or by time once time is called or \
             the round is closed (`mmjudge round end`)",
        ),
        (Join::Colon, WayOut::PairRoundOne, ": pair round 1 with `mmjudge round pair` first"),
        (
            Join::Colon,
            WayOut::StopDecision { table: 3, player: "Ana".into() },
            ": stop it first with `mmjudge clock 3 --stop`",
        ),
        (Join::Colon, WayOut::StartDecision { table: 3 }, ": start one with `mmjudge clock 3 --start PLAYER`"),
        (Join::Aside, WayOut::ListDecisions { table: 3 }, " (`mmjudge decisions --table 3` lists the recorded ones)"),
        (
            Join::Semicolon,
            WayOut::VoidRecord { record: Record::Note, id: 12 },
            "; ask a judge to void it (`mmjudge note void 12`)",
        ),
        (
            Join::Colon,
            WayOut::NewPin { name: "Kim Lee".into() },
            ": give a new PIN with `mmjudge judge pin \"Kim Lee\"`, or choose another name",
        ),
        (Join::Aside, WayOut::CheckPin, " (a PIN renewed with `mmjudge judge pin NAME` replaces the old one)"),
        (
            Join::Colon,
            WayOut::SwapLibraryCards { free: 2 },
            ": remove at most 2 (--count 2), or swap them out first (`mmjudge library swap`)",
        ),
        (Join::Colon, WayOut::SwapLibraryCards { free: 0 }, ": swap them out first (`mmjudge library swap`)"),
        (Join::Colon, WayOut::KeepPool, ": import without --replace, or rebuild the libraries after editing the pool"),
        (
            Join::Colon,
            WayOut::KeepReference,
            ": import without --replace to add and update cards, or add --force to replace it anyway",
        ),
        (
            Join::Semicolon,
            WayOut::AllowUnknown,
            "; correct the names, or add --allow-unknown to keep unknown cards with the cost and type given",
        ),
    ]
}

#[test]
fn the_command_line_words_each_way_out_as_it_always_printed_it_and_the_web_names_no_command() {
    for (join, way_out, cli) in as_the_command_line_printed_them() {
        let r = Refusal::refused("x").way_out_after(join, way_out.clone());
        assert_eq!(r.to_string(), format!("x{cli}"), "{way_out:?}");
        let web = r.web();
        assert!(web.starts_with("x; ") && web.len() > 3, "{way_out:?}: {web}");
        assert!(!web.contains("mmjudge") && !web.contains('`') && !web.contains("--"), "{way_out:?}: {web}");
    }
}

#[test]
fn the_web_names_what_to_tap_for_the_new_ways_out() {
    let web = |w: WayOut| w.web();
    assert_eq!(
        web(WayOut::TakeDropBack { name: "Ana".into() }),
        "a head judge takes it back with Undrop beside Ana on the Players page (from the Judges page)"
    );
    assert_eq!(
        web(WayOut::Either(vec![
            WayOut::CheckIn { name: None },
            WayOut::PairPresent,
            WayOut::TurnOff { key: "check-in".into() }
        ]))
        .rsplit_once(", or ")
        .map(|(_, last)| last.to_string()),
        Some("a head judge turns Check-in off in Settings on the Judges page".to_string())
    );
    assert_eq!(
        web(WayOut::TakeBack { table: 1, several: false, held: vec![Held::Call { table: 1 }] }),
        "a head judge takes them back first with Void on table 1's judge page (Close the call on table 1's judge \
         page), then swaps"
    );
    assert_eq!(web(WayOut::Example(Example::Round)), "give round 1");
    assert_eq!(
        web(WayOut::ForceSetting { round: 2, key: "rounds".into(), value: "3".into() }),
        "a head judge can change it anyway: tick “Change it although round 2 is being played” beside Rounds in \
         Settings on the Judges page"
    );
    // A name taken, said to the head judge adding a judge: what they do themselves, with the set-up page's form.
    assert_eq!(
        web(WayOut::NewPin { name: "Kim".into() }),
        "choose another name, or give Kim a new PIN with New PIN for a judge in the Judges step on the set-up page \
         (Judges, then Set up the event, or /judge/setup)"
    );
    // A file of cards given as the players: the step that takes it, and what a players' file holds.
    let pool = WayOut::ImportAsCards { file: "my pool.csv".into(), is: CardFile::Pool };
    assert_eq!(
        pool.web(),
        "upload it in the Pool step (Upload the pool) on the set-up page instead; the players' file has a name \
         column, one player a line, and id and email if you have them"
    );
    assert_eq!(
        pool.command_line(),
        "import it with `mmjudge pool import \"my pool.csv\"`; a players file has a `name` column, one player a line \
         (and `id` and `email` if you have them)"
    );
    let cards = WayOut::ImportAsCards { file: "AtomicCards.json".into(), is: CardFile::Reference };
    assert!(cards.command_line().starts_with("import it with `mmjudge cards import AtomicCards.json`;"));
    assert!(cards.web().starts_with("upload it in the Card reference step (Upload the cards)"));
}
