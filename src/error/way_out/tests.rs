//! Every way out is worded for both front ends, and the samples hold every variant.

use super::*;

#[test]
fn every_way_out_names_its_command_on_the_command_line_and_none_on_the_web() {
    for w in WayOut::samples() {
        let cli = w.command_line();
        assert!(cli.contains("`mmjudge ") || cli.contains("`--") || cli.contains(" --"), "{w:?}: {cli}");
        let web = w.web();
        assert!(!web.contains("mmjudge") && !web.contains('`') && !web.contains("--"), "{w:?}: {web}");
        assert!(!web.is_empty() && web.lines().count() == 1, "{w:?}: {web}");
    }
}

/// Which variant a way out is: a new variant fails to compile here until it is added, and then the test below
/// fails until [`WayOut::samples`] holds it.
fn variant(w: &WayOut) -> usize {
    match w {
        WayOut::PairRound => 0,
        WayOut::PairAnyway => 1,
        WayOut::UnpairRound => 2,
        WayOut::StartRound => 3,
        WayOut::StartRoundNow => 4,
        WayOut::EndRound => 5,
        WayOut::EndRoundForce => 6,
        WayOut::SeeTime => 7,
        WayOut::RecordResult { .. } => 8,
        WayOut::OtherReason { .. } => 9,
        WayOut::FixResult { .. } => 10,
        WayOut::ClearResult { .. } => 11,
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
        WayOut::Force => 28,
        WayOut::ChangeMovement { .. } => 29,
        WayOut::ChangeSetting { .. } => 30,
        WayOut::BuildLibraries => 31,
        WayOut::ListLibraries => 32,
        WayOut::RegisterLibrary => 33,
        WayOut::EditPool => 34,
        WayOut::ListPool => 35,
        WayOut::ImportPool => 36,
        WayOut::ListWatch => 37,
        WayOut::ShowLibrary { .. } => 38,
        WayOut::SwapLibraryCards => 39,
        WayOut::FindCard => 40,
        WayOut::ListBans => 41,
        WayOut::ImportCards => 42,
        WayOut::Either(..) => 43,
        WayOut::Example { .. } => 44,
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
    assert_eq!(seen, (0..61).collect::<Vec<_>>());
}

#[test]
fn a_refusal_prints_its_command_line_words_and_gives_the_web_its_own() {
    let r = Refusal::refused("round 3 has not started")
        .rule("MM.3")
        .worded(WayOut::StartRound, ": start its clock with `mmjudge round start`");
    assert_eq!(r.to_string(), "round 3 has not started: start its clock with `mmjudge round start`");
    assert_eq!(r.web(), "round 3 has not started; a head judge starts it with Start the round on the Judges page");
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
        .way_out(WayOut::ForceAnyway { to: "remove it and its citation".into() });
    assert_eq!(r.to_string(), "note #3 is evidence in challenge #1: add --force to remove it and its citation");
    assert_eq!(
        r.web(),
        "note #3 is evidence in challenge #1; tick force and send it again to remove it and its citation"
    );
    let r = Refusal::refused("round 1 cannot be paired").way_out_after("; ", WayOut::SeeTime);
    assert_eq!(r.to_string(), "round 1 cannot be paired; see `mmjudge time`");
}
