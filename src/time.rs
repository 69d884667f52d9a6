//! Moments: parsing `--at` values and the injectable "now".

use crate::error::{Error, Result};
use chrono::{DateTime, Datelike, Duration, Local, NaiveTime, SecondsFormat, TimeZone, Utc};

/// The current instant, unless the environment variable `MMJUDGE_NOW` (RFC 3339) fixes it, which tests
/// and rehearsals use to make every recorded moment exact.
pub fn now() -> Result<DateTime<Utc>> {
    if let Some(at) = SIMULATED_NOW.with(std::cell::Cell::get) {
        return Ok(at);
    }
    match std::env::var("MMJUDGE_NOW") {
        Ok(v) if !v.trim().is_empty() => parse_at(&v, Utc::now()),
        _ => Ok(Utc::now()),
    }
}

thread_local! {
    /// The demo's simulated now while it runs a command (see [`simulated`]).
    static SIMULATED_NOW: std::cell::Cell<Option<DateTime<Utc>>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with [`now`] fixed at `at` on this thread (the demo's simulated clock), so the checks and words
/// that depend on today see the simulated day.
pub fn simulated<T>(at: DateTime<Utc>, f: impl FnOnce() -> T) -> T {
    let before = SIMULATED_NOW.with(|c| c.replace(Some(at)));
    let out = f();
    SIMULATED_NOW.with(|c| c.set(before));
    out
}

/// Parses a moment given with `--at`: RFC 3339 (`2026-05-01T14:05:00+02:00`), `HH:MM` / `HH:MM:SS` for today
/// in the laptop's time zone (today taken from `today_from`), or a date alone (`2026-05-01`, its midnight).
///
/// Every moment must fall in the years 2000 to 2100 (UTC): one outside is a slip, and it could not be read
/// back from the event file.
pub fn parse_at(text: &str, today_from: DateTime<Utc>) -> Result<DateTime<Utc>> {
    let at = parse_any(text, today_from)?;
    if !(FIRST_YEAR..=LAST_YEAR).contains(&at.year()) {
        return Err(Error::bad_input(format!(
            "the moment \"{}\" is outside the years {FIRST_YEAR}-{LAST_YEAR}: give a moment of the event, e.g. 14:05 \
             or 2026-05-01T14:05:00Z",
            text.trim()
        )));
    }
    Ok(at)
}

/// The first and last years a moment may fall in.
const FIRST_YEAR: i32 = 2000;
const LAST_YEAR: i32 = 2100;

/// How far ahead of now a record of something that happened may be dated (laptops' clocks drift).
pub const RECORD_AHEAD: Duration = Duration::minutes(2);

/// How far ahead `round start --at` may schedule a start.
pub const START_AHEAD: Duration = Duration::hours(12);

/// Checks the moment a record (a result, note, decision, challenge, penalty, ruling) is dated with `--at`:
/// at most [`RECORD_AHEAD`] in the future, not before the event was created, not before its round started.
/// `round` is the round's number and start, when it has started.
pub fn check_record_moment(
    at: DateTime<Utc>,
    now: DateTime<Utc>,
    created: Option<DateTime<Utc>>,
    round: Option<(u32, DateTime<Utc>)>,
) -> Result<()> {
    not_ahead(
        at,
        now,
        RECORD_AHEAD,
        "a record says what already happened: give the moment it happened, or leave --at out for now",
    )?;
    if let Some(created) = created.filter(|c| at < *c) {
        let (at, created) = (moment_text(at, now), moment_text(created, now));
        return Err(crate::error::Refusal::refused(format!(
            "the moment {at} is before the event was created ({created})"
        ))
        .flags(format!("--at {at} is before the event was created ({created}): give a moment during the event"))
        .into());
    }
    if let Some((number, started)) = round.filter(|(_, s)| at < *s) {
        let (at, started) = (moment_text(at, now), moment_text(started, now));
        return Err(crate::error::Refusal::refused(format!(
            "the moment {at} is before round {number} started ({started})"
        ))
        .flags(format!("--at {at} is before round {number} started ({started}): give a later --at"))
        .into());
    }
    Ok(())
}

/// Refuses `at` more than `ahead` after `now`, saying `fix`.
pub fn not_ahead(at: DateTime<Utc>, now: DateTime<Utc>, ahead: Duration, fix: &str) -> Result<()> {
    if at > now + ahead {
        let (when, ahead, now) = (moment_text(at, now), span_text(at - now), moment_text(now, now));
        return Err(crate::error::Refusal::refused(format!(
            "the moment {when} is {ahead} in the future (now {now}): check this device's clock"
        ))
        .flags(format!("--at {when} is {ahead} in the future (now {now}): {fix}"))
        .into());
    }
    Ok(())
}

/// A span for people: "3 minutes", "5 hours", "2 days".
fn span_text(d: Duration) -> String {
    let (n, unit) = if d >= Duration::days(2) {
        (d.num_days(), "day")
    } else if d >= Duration::hours(2) {
        (d.num_hours(), "hour")
    } else {
        (d.num_minutes().max(1), "minute")
    };
    crate::domain::words::count(n, unit)
}

/// An instant for people: local `HH:MM:SS`, with the date when it is not on the same day as `today`.
pub fn moment_text(at: DateTime<Utc>, today: DateTime<Utc>) -> String {
    let local = at.with_timezone(&Local);
    if local.date_naive() == today.with_timezone(&Local).date_naive() {
        local.format("%H:%M:%S").to_string()
    } else {
        local.format("%Y-%m-%d %H:%M:%S").to_string()
    }
}

fn parse_any(text: &str, today_from: DateTime<Utc>) -> Result<DateTime<Utc>> {
    let t = text.trim();
    if let Ok(dt) = DateTime::parse_from_rfc3339(t) {
        return Ok(dt.with_timezone(&Utc));
    }
    if let Ok(day) = chrono::NaiveDate::parse_from_str(t, "%Y-%m-%d") {
        let local = Local
            .from_local_datetime(&day.and_time(NaiveTime::MIN))
            .earliest()
            .ok_or_else(|| Error::bad_input(format!("{t} has no midnight in this time zone")))?;
        return Ok(local.with_timezone(&Utc));
    }
    let time =
        NaiveTime::parse_from_str(t, "%H:%M").or_else(|_| NaiveTime::parse_from_str(t, "%H:%M:%S")).map_err(|_| {
            Error::bad_input(format!(
                "cannot read the time \"{t}\": use HH:MM for today, a date like 2026-05-01, or RFC 3339 like 2026-05-01T14:05:00Z"
            ))
        })?;
    let day = today_from.with_timezone(&Local).date_naive();
    let local = Local
        .from_local_datetime(&day.and_time(time))
        .earliest()
        .ok_or_else(|| Error::bad_input(format!("{t} does not exist today in this time zone")))?;
    Ok(local.with_timezone(&Utc))
}

/// Formats an instant the way the store keeps it (RFC 3339, UTC, milliseconds).
pub fn stamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Reads an instant written by [`stamp`].
pub fn unstamp(text: &str) -> Result<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .map(|d| d.with_timezone(&Utc))
        .map_err(|_| Error::refused(format!("stored time \"{text}\" is not RFC 3339")))
}

/// Local wall-clock `HH:MM` of an instant, for people.
pub fn clock_time(at: DateTime<Utc>) -> String {
    at.with_timezone(&Local).format("%H:%M").to_string()
}

/// [`clock_time`] for confirmations: on another day than today (by [`now`]) the date comes first
/// (`2026-05-01 14:05`), so a judge sees at once a moment typed for the wrong day.
pub fn confirm_time(at: DateTime<Utc>) -> String {
    let local = at.with_timezone(&Local);
    let today = now().unwrap_or(at).with_timezone(&Local).date_naive();
    if local.date_naive() == today {
        local.format("%H:%M").to_string()
    } else {
        local.format("%Y-%m-%d %H:%M").to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rfc3339_and_clock_times() {
        let base = Utc.with_ymd_and_hms(2026, 5, 1, 12, 0, 0).single();
        let Some(base) = base else { panic!() };
        let at = parse_at("2026-05-01T14:05:00+02:00", base).map(stamp).ok();
        assert_eq!(at.as_deref(), Some("2026-05-01T12:05:00.000Z"));
        assert!(parse_at("14:05", base).is_ok());
        assert!(parse_at("25:99", base).is_err());
        assert!(parse_at("yesterday", base).is_err());
        assert!(parse_at("2026-05-01", base).is_ok());
        assert!(parse_at("2026-13-01", base).is_err());
    }

    #[test]
    fn moments_stay_in_the_years_2000_to_2100() {
        let Some(base) = Utc.with_ymd_and_hms(2026, 5, 1, 12, 0, 0).single() else { panic!() };
        for bad in ["0000-01-01T00:00:00+14:00", "1999-12-31T23:59:59Z", "2101-01-01T00:00:00Z", "9999-01-01"] {
            let e = parse_at(bad, base).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(e.contains("outside the years 2000-2100"), "{bad}: {e}");
        }
        assert!(parse_at("2000-01-01T00:00:00Z", base).is_ok());
    }

    #[test]
    fn record_moments_are_checked_against_now_the_event_and_the_round() {
        let Some(now) = Utc.with_ymd_and_hms(2026, 5, 1, 12, 0, 0).single() else { panic!() };
        let m = Duration::minutes;
        let created = Some(now - Duration::days(1));
        let round = Some((2, now - m(30)));
        assert!(check_record_moment(now + m(2), now, created, round).is_ok());
        let ahead = check_record_moment(now + m(3), now, created, round).err().map(|e| e.to_string());
        assert!(ahead.unwrap_or_default().contains("3 minutes in the future"));
        let early = check_record_moment(now - Duration::days(2), now, created, round).err().map(|e| e.to_string());
        assert!(early.unwrap_or_default().contains("before the event was created"));
        let before = check_record_moment(now - m(31), now, created, round).err().map(|e| e.to_string());
        assert!(before.unwrap_or_default().contains("before round 2 started"));
    }

    #[test]
    fn stamp_round_trips() {
        let Some(t) = Utc.with_ymd_and_hms(2026, 5, 1, 9, 30, 15).single() else { panic!() };
        assert_eq!(unstamp(&stamp(t)).ok(), Some(t));
    }
}
