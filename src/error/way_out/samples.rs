//! Every way out with sample data, so the unit tests word each one for every front end.

use super::{Again, CardFile, Cards, Example, Held, Record, Unpair, WayOut, Whose};

impl WayOut {
    /// Every way out, with sample data: the unit tests word each one for every front end.
    pub fn samples() -> Vec<WayOut> {
        let records =
            [Record::Note, Record::Challenge, Record::Penalty, Record::Ruling, Record::Extension, Record::Stall];
        let name = || "Tomás Ó Súilleabháin".to_string();
        let mut all = vec![
            WayOut::PairRound,
            WayOut::PairRoundOne,
            WayOut::PairAnyway,
            WayOut::PairAnywayOrSwiss,
            WayOut::PairOne,
            WayOut::StartClock,
            WayOut::TurnOn { key: "check-in".into() },
            WayOut::TurnOff { key: "check-in".into() },
            WayOut::RemoveCopies,
            WayOut::OtherFileOrReplace,
            WayOut::ServeAsItIs,
            WayOut::PromoteOnStandby,
            WayOut::StopPrimary,
            WayOut::NewStandbyFile,
            WayOut::SiteFolder,
            WayOut::StartRound { named: false },
            WayOut::StartRound { named: true },
            WayOut::StartInspection,
            WayOut::StartRoundNow,
            WayOut::StartNowThenClose,
            WayOut::EndRound,
            WayOut::EndRoundForce,
            WayOut::SeeTime,
            WayOut::RecordResult { table: None },
            WayOut::RecordResult { table: Some(3) },
            WayOut::RecordOpen { table: None },
            WayOut::RecordOpen { table: Some(3) },
            WayOut::RecordEachOpen,
            WayOut::RecordToPlay { table: None, round: None },
            WayOut::RecordToPlay { table: Some(3), round: Some(2) },
            WayOut::OtherReason { later: false },
            WayOut::OtherReason { later: true },
            WayOut::TurnAtTime,
            WayOut::FixResult { table: None },
            WayOut::FixResult { table: Some(3) },
            WayOut::ClearToSwap { table: 3 },
            WayOut::StopDecision { table: 3, player: "Ana".into() },
            WayOut::StartDecision { table: 3 },
            WayOut::ListDecisions { table: 3 },
            WayOut::ListCalls,
            WayOut::CloseCalls,
            WayOut::VoidRecord { record: Record::Note, id: 12 },
            WayOut::TakeBack { table: 3, several: false, held: vec![Held::Notes { table: 3 }] },
            WayOut::TakeBack { table: 3, several: true, held: Held::samples() },
            WayOut::ListNotes { table: 3 },
            WayOut::NotesThatCount { table: 3 },
            WayOut::NoteIdsAsListed,
            WayOut::ListChallenges,
            WayOut::CheckName,
            WayOut::AddPlayers,
            WayOut::AddMorePlayers,
            WayOut::UndropPlayer { name: name() },
            WayOut::TakeDropBack { name: name() },
            WayOut::DropPlayer { name: "Ana".into(), no_show: None },
            WayOut::DropPlayer { name: name(), no_show: Some(3) },
            WayOut::DropSeated { name: name(), table: Some(3), round: 2 },
            WayOut::DropSeated { name: "Ana".into(), table: None, round: 2 },
            WayOut::DropNotRemove { name: name() },
            WayOut::ImportPool,
            WayOut::ListWatch,
            WayOut::ImportAsCards { file: "examples/pool.csv".into(), is: CardFile::Pool },
            WayOut::ImportAsCards { file: "My Cards.csv".into(), is: CardFile::Reference },
            WayOut::ShowLibrary { label: "3A".into() },
            WayOut::SwapLibraryCards { free: 0 },
            WayOut::SwapLibraryCards { free: 2 },
            WayOut::FindCard,
            WayOut::ListBans,
            WayOut::CheckIn { name: None },
            WayOut::CheckIn { name: Some(name()) },
            WayOut::PairPresent,
            WayOut::CheckJudge,
            WayOut::AddJudge,
            WayOut::AddHeadJudge,
            WayOut::CheckPin,
            WayOut::NewPin { name: "Kim".into() },
            WayOut::ForceAnyway {
                to: "record this one anyway (the result stays)".into(),
                tick: super::Tick::ChallengeFinished,
            },
            WayOut::UseForce { to: "ban it anyway".into(), tick: super::Tick::BanUnknown },
            WayOut::ForceTo { to: "watch it anyway".into(), tick: super::Tick::WatchUnknown },
            WayOut::ForceSetting { round: 2, key: "round-minutes".into(), value: "60".into() },
            WayOut::ChangeSetting { key: "rounds".into() },
            WayOut::SetFirst { key: "libraries".into(), value: "sealed".into() },
            WayOut::RaiseRounds { to: 6 },
            WayOut::ChangeMovement { to: "swiss".into() },
            WayOut::BuildLibraries { tables: None },
            WayOut::BuildLibraries { tables: Some(8) },
            WayOut::BuildAll,
            WayOut::BuildOrSealed { tables: 8 },
            WayOut::AddTables { more: 1, rebuild: None },
            WayOut::AddTables { more: 2, rebuild: Some(9) },
            WayOut::ListLibraries,
            WayOut::AddCardsOrFewer { most: 0 },
            WayOut::AddCardsOrFewer { most: 3 },
            WayOut::AddCardsOrBuildFewer { most: 0 },
            WayOut::AddCardsOrBuildFewer { most: 1 },
            WayOut::IncludeCard { name: "Black Lotus".into() },
            WayOut::ListPool,
            WayOut::FreeCopies,
            WayOut::KeepPool,
            WayOut::KeepReference,
            WayOut::AllowUnknown,
            WayOut::Either(vec![WayOut::RecordEachOpen, WayOut::EndRoundForce]),
            WayOut::Either(vec![
                WayOut::CheckIn { name: None },
                WayOut::PairPresent,
                WayOut::TurnOff { key: "check-in".into() },
            ]),
            WayOut::Both(
                Box::new(WayOut::FindCard),
                Box::new(WayOut::UseForce { to: "ban it anyway".into(), tick: super::Tick::BanUnknown }),
            ),
            WayOut::PromoteStandby { db: "standby.db".into() },
            WayOut::EventMoved { to: "http://192.168.1.24:8080".into() },
        ];
        all.extend(records.into_iter().map(|record| WayOut::ListRecords { record }));
        all.extend(
            [
                Unpair::RemovePlayer,
                Unpair::Libraries,
                Unpair::FewerRounds { round: 2 },
                Unpair::Byes,
                Unpair::NoShow { several: false, then: Again::Fix },
                Unpair::NoShow { several: true, then: Again::Clear },
            ]
            .map(WayOut::Unpair),
        );
        all.extend(
            [Whose::NewPlayer, Whose::Again, Whose::Missing, Whose::Player, Whose::Each]
                .map(|whose| WayOut::RegisterLibrary { whose }),
        );
        all.extend(
            [Cards::Any, Cards::OrForce, Cards::BeforeRulings, Cards::WithTexts]
                .map(|need| WayOut::ImportCards { need }),
        );
        all.extend(Example::ALL.map(WayOut::Example));
        all
    }
}
