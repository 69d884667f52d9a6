//! Moments: parsing `--at` values and the injectable "now".

use crate::error::{Error, Result};
use chrono::{DateTime, Local, NaiveTime, SecondsFormat, TimeZone, Utc};

/// The current instant, unless the environment variable `MMJUDGE_NOW` (RFC 3339) fixes it, which tests
/// and rehearsals use to make every recorded moment exact.
pub fn now() -> Result<DateTime<Utc>> {
    match std::env::var("MMJUDGE_NOW") {
        Ok(v) if !v.trim().is_empty() => parse_at(&v, Utc::now()),
        _ => Ok(Utc::now()),
    }
}

/// Parses a moment given with `--at`: RFC 3339 (`2026-05-01T14:05:00+02:00`), `HH:MM` / `HH:MM:SS` for today
/// in the laptop's time zone (today taken from `today_from`), or a date alone (`2026-05-01`, its midnight).
pub fn parse_at(text: &str, today_from: DateTime<Utc>) -> Result<DateTime<Utc>> {
    let t = text.trim();
    if let Ok(dt) = DateTime::parse_from_rfc3339(t) {
        return Ok(dt.with_timezone(&Utc));
    }
    if let Ok(day) = chrono::NaiveDate::parse_from_str(t, "%Y-%m-%d") {
        let local = Local
            .from_local_datetime(&day.and_time(NaiveTime::MIN))
            .earliest()
            .ok_or_else(|| Error::refused(format!("{t} has no midnight in this time zone")))?;
        return Ok(local.with_timezone(&Utc));
    }
    let time =
        NaiveTime::parse_from_str(t, "%H:%M").or_else(|_| NaiveTime::parse_from_str(t, "%H:%M:%S")).map_err(|_| {
            Error::refused(format!(
                "cannot read the time \"{t}\": use HH:MM for today, a date like 2026-05-01, or RFC 3339 like 2026-05-01T14:05:00Z"
            ))
        })?;
    let day = today_from.with_timezone(&Local).date_naive();
    let local = Local
        .from_local_datetime(&day.and_time(time))
        .earliest()
        .ok_or_else(|| Error::refused(format!("{t} does not exist today in this time zone")))?;
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
    fn stamp_round_trips() {
        let Some(t) = Utc.with_ymd_and_hms(2026, 5, 1, 9, 30, 15).single() else { panic!() };
        assert_eq!(unstamp(&stamp(t)).ok(), Some(t));
    }
}
