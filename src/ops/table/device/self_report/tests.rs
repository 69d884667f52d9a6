//! The players' self-reports: waiting, confirmed, in conflict, refused.

use super::*;
use crate::error::Kind;
use crate::store::{PlayerId, player_codes};

fn actor() -> Result<Actor> {
    crate::store::test_actor("2025-05-01T09:30:00.000Z")
}

/// The player's holding of their code at table 1.
fn code(store: &Store, p: PlayerId) -> Result<Holder> {
    let code = player_codes::of(store.conn(), p)?.unwrap_or_default();
    crate::ops::table::device::holder(store.conn(), 1, &code)
}

/// Each player's own phone.
fn phone(holder: &Holder) -> Origin {
    let device = Some(format!("phone of {}", holder.name));
    Origin { device, address: Some(holder.name.clone()), signed_in: false, fresh: false }
}

fn input(holder: Holder, winner: &str, reason: Reason) -> SelfReportInput {
    let origin = phone(&holder);
    SelfReportInput { holder, winner: Some(winner.into()), reason, life: None, origin }
}

#[test]
fn a_report_waits_then_the_same_report_records_the_result() -> Result<()> {
    let (mut store, m, [ana, bo]) = crate::store::memory_with_one_match()?;
    let (ana, bo) = (code(&store, ana)?, code(&store, bo)?);
    let first = self_report(&mut store, &actor()?, input(ana.clone(), "ana", Reason::Concession))?;
    assert_eq!((first.state, first.replaced), ("waiting", false));
    assert_eq!(matches::get(store.conn(), m)?.outcome, None, "a waiting report counts nowhere");
    // The same report again (a second tap) writes nothing: it is the waiting one.
    let again = self_report(&mut store, &actor()?, input(ana.clone(), "ana", Reason::Concession))?;
    assert_eq!((again.state, again.replaced), ("waiting", false));
    let done = self_report(&mut store, &actor()?, input(bo.clone(), "Ana", Reason::Concession))?;
    assert_eq!(done.state, "confirmed");
    assert!(done.summary.ends_with("reported by Ana, confirmed by Bo"), "{}", done.summary);
    assert_eq!(matches::get(store.conn(), m)?.outcome, Some(Outcome::A));
    assert!(self_reports::of_match(store.conn(), m)?.is_empty(), "settled");
    let late = self_report(&mut store, &actor()?, input(bo.clone(), "bo", Reason::Life)).err();
    assert_eq!(late.map(|e| e.kind()), Some(Kind::Refused));
    Ok(())
}

#[test]
fn different_reports_conflict_until_a_judge_records_the_result() -> Result<()> {
    let (mut store, m, [ana, bo]) = crate::store::memory_with_one_match()?;
    let (ana, bo) = (code(&store, ana)?, code(&store, bo)?);
    self_report(&mut store, &actor()?, input(ana.clone(), "ana", Reason::Concession))?;
    let other = self_report(&mut store, &actor()?, input(bo.clone(), "bo", Reason::Concession))?;
    assert_eq!(other.state, "conflict");
    let by_life = ResultInput {
        table: 1,
        round: None,
        winner: Some("bo".into()),
        reason: Reason::Life,
        life: Some((0, 3)),
        note: None,
        at: None,
        turn: None,
    };
    let early = crate::ops::table::records::result::record_result(&mut store, &actor()?, by_life.clone()).err();
    assert_eq!(early.map(|e| e.kind()), Some(Kind::Refused), "no game was played before the clock started");
    round::set_started(store.conn(), 1, Some("2025-05-01T09:00:00.000Z"))?;
    let seated = Seated::at(store.conn(), 1, None)?;
    let waiting = waiting_at(store.conn(), &seated)?.map(|w| (w.state, w.waiting_for, w.reports.len()));
    assert_eq!(waiting, Some(("conflict", None, 2)));
    // The judge records the same result once the clock runs.
    crate::ops::table::records::result::record_result(&mut store, &actor()?, by_life)?;
    assert!(self_reports::of_match(store.conn(), m)?.is_empty());
    assert_eq!(round_reports(store.conn(), None)?.tables, Vec::new());
    Ok(())
}

#[test]
fn a_confirmation_records_exactly_the_report_it_names() -> Result<()> {
    let (mut store, m, [ana, bo]) = crate::store::memory_with_one_match()?;
    round::set_started(store.conn(), 1, Some("2025-05-01T09:00:00.000Z"))?;
    let (ana, bo) = (code(&store, ana)?, code(&store, bo)?);
    let first = self_report(&mut store, &actor()?, input(ana.clone(), "ana", Reason::Concession))?;
    let life = SelfReportInput { life: Some((7, 0)), ..input(ana.clone(), "ana", Reason::Life) };
    let second = self_report(&mut store, &actor()?, life)?;
    assert!(second.report.id > first.report.id, "a replaced report gets a new number");
    let confirm = |holder: &Holder, report| ConfirmInput { holder: holder.clone(), report, origin: phone(holder) };
    let stale = confirm_report(&mut store, &actor()?, &confirm(&bo, first.report.id)).err();
    assert_eq!(stale.map(|e| e.kind()), Some(Kind::Refused), "the replaced report is not waiting");
    let own = confirm_report(&mut store, &actor()?, &confirm(&ana, second.report.id)).err();
    assert_eq!(own.map(|e| e.kind()), Some(Kind::Refused), "a reporter does not confirm their own report");
    assert_eq!(matches::get(store.conn(), m)?.outcome, None);
    let done = confirm_report(&mut store, &actor()?, &confirm(&bo, second.report.id))?;
    assert_eq!(done.state, "confirmed");
    assert!(done.summary.ends_with("reported by Ana, confirmed by Bo"), "{}", done.summary);
    let recorded = matches::get(store.conn(), m)?;
    assert_eq!(
        (recorded.outcome, recorded.reason.as_deref(), recorded.life),
        (Some(Outcome::A), Some("life"), Some((7, 0)))
    );
    let again = confirm_report(&mut store, &actor()?, &confirm(&bo, second.report.id)).err();
    assert_eq!(again.map(|e| e.kind()), Some(Kind::Refused));
    Ok(())
}

#[test]
fn a_report_disputed_from_ones_own_phone_is_not_confirmed_on_the_tables_device() -> Result<()> {
    let (mut store, m, [ana, bo]) = crate::store::memory_with_one_match()?;
    round::set_started(store.conn(), 1, Some("2025-05-01T09:00:00.000Z"))?;
    let (ana, bo) = (code(&store, ana)?, code(&store, bo)?);
    let venue = |device: &str, signed_in| Origin {
        device: Some(device.into()),
        address: Some("10.0.0.1".into()),
        signed_in,
        fresh: false,
    };
    // Ana reports on the table's device; Bo says otherwise from his own phone (the device still offers Ana's).
    let on_table = SelfReportInput { origin: venue("table", true), ..input(ana.clone(), "ana", Reason::Concession) };
    let first = self_report(&mut store, &actor()?, on_table)?;
    let own = SelfReportInput { origin: venue("bo's phone", false), ..input(bo.clone(), "bo", Reason::Concession) };
    assert_eq!(self_report(&mut store, &actor()?, own)?.state, "conflict");
    let tapped = ConfirmInput { holder: bo.clone(), report: first.report.id, origin: venue("table", true) };
    let refused = confirm_report(&mut store, &actor()?, &tapped).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(
        refused.contains("Bo reported a different result from another device (Bo beat Ana by concession)")
            && refused.contains("a judge decides; call a judge to table 1"),
        "{refused}"
    );
    assert_eq!(matches::get(store.conn(), m)?.outcome, None, "still for a judge");
    // Nor does a report as Bo from the table's device matching Ana's (his sign-in stays there) settle it.
    let same = SelfReportInput { origin: venue("table", true), ..input(bo.clone(), "ana", Reason::Concession) };
    let refused = self_report(&mut store, &actor()?, same).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(refused.contains("Bo reported a different result from another device"), "{refused}");
    assert_eq!(matches::get(store.conn(), m)?.outcome, None, "still for a judge");
    // From his own phone, where his report came from, Bo may still take Ana's word.
    let mind = ConfirmInput { holder: bo.clone(), report: first.report.id, origin: venue("bo's phone", false) };
    assert_eq!(confirm_report(&mut store, &actor()?, &mind)?.state, "confirmed");
    Ok(())
}

#[test]
fn a_confirmation_from_the_confirming_players_own_phone_behind_the_venues_address_is_not_flagged() -> Result<()> {
    let (mut store, _, [ana, bo]) = crate::store::memory_with_one_match()?;
    round::set_started(store.conn(), 1, Some("2025-05-01T09:00:00.000Z"))?;
    let (ana_id, bo_id) = (ana, bo);
    let (ana, bo) = (code(&store, ana)?, code(&store, bo)?);
    let venue = |device: &str| Origin {
        device: Some(device.into()),
        address: Some("10.0.0.1".into()),
        signed_in: false,
        fresh: false,
    };
    let report = |who: &Holder, device| SelfReportInput {
        origin: venue(device),
        ..input(who.clone(), "ana", Reason::Concession)
    };
    let first = self_report(&mut store, &actor()?, report(&ana, "ana's phone"))?;
    // A phone Bo never signed in on, at Ana's address: flagged (his word stays open).
    let unknown = ConfirmInput { holder: bo.clone(), report: first.report.id, origin: venue("a phone") };
    let flagged = confirm_report(&mut store, &actor()?, &unknown)?;
    assert_eq!(flagged.confirmed, Some("same-address"));
    // The next match: Bo's own phone, known for him (he signed in on it before), is his word.
    let (mut store, _, _) = crate::store::memory_with_one_match()?;
    round::set_started(store.conn(), 1, Some("2025-05-01T09:00:00.000Z"))?;
    crate::store::guesses::know(store.conn(), &crate::store::guesses::player(bo_id.0), "bo's phone")?;
    let first = self_report(&mut store, &actor()?, report(&ana, "ana's phone"))?;
    let own = ConfirmInput { holder: bo.clone(), report: first.report.id, origin: venue("bo's phone") };
    assert_eq!(confirm_report(&mut store, &actor()?, &own)?.confirmed, None);
    // A phone known for the reporter too is flagged still.
    let (mut store, _, _) = crate::store::memory_with_one_match()?;
    round::set_started(store.conn(), 1, Some("2025-05-01T09:00:00.000Z"))?;
    for p in [ana_id, bo_id] {
        crate::store::guesses::know(store.conn(), &crate::store::guesses::player(p.0), "shared phone")?;
    }
    let first = self_report(&mut store, &actor()?, report(&ana, "ana's phone"))?;
    let shared = ConfirmInput { holder: bo, report: first.report.id, origin: venue("shared phone") };
    assert_eq!(confirm_report(&mut store, &actor()?, &shared)?.confirmed, Some("same-address"));
    Ok(())
}

#[test]
fn a_wrong_code_or_a_judges_reason_is_refused() -> Result<()> {
    let (mut store, m, [ana, _]) = crate::store::memory_with_one_match()?;
    let ana = code(&store, ana)?;
    let wrong = crate::ops::table::device::holder(store.conn(), 1, "x").err();
    assert_eq!(wrong.map(|e| e.kind()), Some(Kind::Forbidden));
    // A holder read before the seats changed (another player at that seat now) is refused as a wrong code,
    // without its code being looked up again.
    let moved = Holder { seat: ana.seat.other(), ..ana.clone() };
    let refused = self_report(&mut store, &actor()?, input(moved, "ana", Reason::Concession)).err();
    assert_eq!(refused.map(|e| e.kind()), Some(Kind::Forbidden));
    let no_show = self_report(&mut store, &actor()?, input(ana.clone(), "ana", Reason::NoShow)).err();
    assert_eq!(no_show.map(|e| e.kind()), Some(Kind::Refused));
    assert!(self_reports::of_match(store.conn(), m)?.is_empty());
    Ok(())
}
