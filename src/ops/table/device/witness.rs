//! Whose device a confirmation came from. A self-reported result counts once the opponent confirms it; a
//! confirmation sent from the reporter's own device (or from a device that sent no device cookie) is no one
//! else's word, and is refused. On the table's device, where both players acted with their sign-ins, either player
//! may report and the other confirm: the result is recorded "confirmed on the table's device". A confirmation from
//! the reporter's network address is taken (a venue's NAT gives every phone one address). Both kinds are flagged
//! on the judges' dashboard and on the confirming player's `/me`: a code glimpsed and signed in on a cheater's own
//! phone makes that phone look like a table's device, so the other player's word stays open until the next
//! round is paired.

use super::Holder;
use crate::domain::topic::Topic;
use crate::error::{Error, Result};
use crate::ops::table::Seated;
use crate::store::self_reports::{self, Flag, Origin, Report};
use crate::store::{Actor, Change, MatchId, PlayerId, Store, matches, round};
use rusqlite::Connection;

/// The way out of a confirmation refused for its device.
pub const WAY_OUT: &str = "confirm on the table's device, or on your own phone";

/// How a confirmation stands beside the report it confirms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Witness {
    /// From another device and another address.
    Apart,
    /// From the device the report came from, both sent with the players' sign-ins on it (the table's device).
    TableDevice,
    /// From another device at the reporter's network address.
    SameAddress,
}

impl Witness {
    /// The flag kept for it (`table-device`, `same-address`), None when it needs none.
    pub fn flag(self) -> Option<&'static str> {
        match self {
            Witness::Apart => None,
            Witness::TableDevice => Some("table-device"),
            Witness::SameAddress => Some("same-address"),
        }
    }

    /// How the confirmation is described: `confirmed on the table's device by Bo`.
    pub fn confirmed_by(self, who: &str) -> String {
        match self {
            Witness::TableDevice => format!("confirmed on the table's device by {who}"),
            Witness::SameAddress => format!("confirmed by {who} from the reporter's network address"),
            Witness::Apart => format!("confirmed by {who}"),
        }
    }
}

/// How confirmation `confirm` stands beside `report`'s origin: refused (409) without a device cookie, and from
/// the report's own device unless both were sent with sign-ins on it (the table's device).
pub fn witness(report: &Origin, confirm: &Origin) -> Result<Witness> {
    let device = match &confirm.device {
        Some(device) if !confirm.fresh => device,
        _ => {
            return Err(Error::refused(format!(
                "this phone sent no device cookie (allow cookies for this site): {WAY_OUT}"
            )));
        }
    };
    if report.device.as_deref() == Some(device.as_str()) {
        if report.signed_in && confirm.signed_in {
            return Ok(Witness::TableDevice);
        }
        return Err(Error::refused(format!("the report was made on this phone: {WAY_OUT}")));
    }
    if report.address.is_some() && report.address == confirm.address {
        return Ok(Witness::SameAddress);
    }
    Ok(Witness::Apart)
}

/// [`witness`] for `confirmer`'s confirmation of `report`, read against the devices the file knows: a phone
/// at the reporter's address that signed in with the confirming player's own code before (their own phone behind
/// a venue's shared address) and never with the reporter's is the confirming player's word, not flagged.
pub fn witness_of(tx: &Connection, report: &Report, confirmer: PlayerId, confirm: &Origin) -> Result<Witness> {
    let w = witness(&report.origin, confirm)?;
    let Some(device) = confirm.device.as_deref() else { return Ok(w) };
    if w != Witness::SameAddress {
        return Ok(w);
    }
    let known = |p: PlayerId| crate::store::guesses::known(tx, &crate::store::guesses::player(p.0), device);
    if known(confirmer)? && !known(report.player)? {
        return Ok(Witness::Apart);
    }
    Ok(w)
}

/// Flags a result confirmed as `w` says (nothing for [`Witness::Apart`]), in the write's transaction.
pub fn keep(tx: &Connection, w: Witness, report: &Report, confirmer: PlayerId, at: &str) -> Result<()> {
    let Some(kind) = w.flag() else { return Ok(()) };
    let f = Flag {
        match_id: report.match_id,
        kind: kind.into(),
        reporter: report.player,
        confirmer,
        at: at.into(),
        disputed_at: None,
    };
    self_reports::flag(tx, &f)
}

/// A flagged result, as the dashboard and the confirming player's `/me` show it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FlagView {
    /// The match.
    #[serde(rename = "match")]
    pub match_id: MatchId,
    /// The table.
    pub table: u32,
    /// `table-device` or `same-address`.
    pub kind: String,
    /// Who reported.
    pub reporter: String,
    /// Whose confirmation it was (their word stays open).
    pub confirmer: String,
    /// Whether the confirming player said that is not what happened (a conflict for a judge).
    pub disputed: bool,
    /// In words: "table 3: Ana's report, confirmed on the table's device by Bo", and when disputed "; Bo says
    /// that's not what happened: in conflict, a judge decides".
    pub words: String,
}

/// The flagged results of the current round (none once the next round is paired: their word is no longer
/// open), by table.
pub fn flags_now(conn: &Connection) -> Result<Vec<FlagView>> {
    let n = round::current(conn)?;
    let mut out = Vec::new();
    for f in self_reports::flags_of_round(conn, n)? {
        let seated = Seated::load(conn, matches::get(conn, f.match_id)?)?;
        out.push(view(&seated, f));
    }
    Ok(out)
}

fn view(seated: &Seated, f: Flag) -> FlagView {
    let name = |id: PlayerId| if seated.a.id == id { seated.a.name.clone() } else { seated.b.name.clone() };
    let (reporter, confirmer) = (name(f.reporter), name(f.confirmer));
    let w = if f.kind == "table-device" { Witness::TableDevice } else { Witness::SameAddress };
    let disputed = f.disputed_at.is_some();
    let conflict = if disputed {
        format!("; {confirmer} says that's not what happened: in conflict, a judge decides")
    } else {
        String::new()
    };
    let words = format!("table {}: {reporter}'s report, {}{conflict}", seated.table(), w.confirmed_by(&confirmer));
    FlagView { match_id: f.match_id, table: seated.table(), kind: f.kind, reporter, confirmer, disputed, words }
}

/// The flag of `player`'s result at `seated` for their own `/me`, when they are its confirming player and the
/// next round is not paired yet (their word is open until then).
pub fn flag_for(conn: &Connection, seated: &Seated, player: PlayerId) -> Result<Option<FlagView>> {
    if round::current(conn)? != seated.m.round {
        return Ok(None);
    }
    let flag = self_reports::flag_of_match(conn, seated.m.id)?.filter(|f| f.confirmer == player);
    Ok(flag.map(|f| view(seated, f)))
}

/// A dispute of a flagged result.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Disputed {
    /// The flag, disputed now.
    #[serde(flatten)]
    pub flag: FlagView,
    /// The audit log's line.
    #[serde(skip)]
    pub summary: String,
}

/// The confirming player of a flagged result says that is not what happened (`POST /api/self-report/dispute`):
/// the result is in conflict for a judge to settle (`/judge` lists it). Refused (409) when the player's result
/// carries no flag naming them as its confirming player, or once the next round is paired.
pub fn dispute(store: &mut Store, actor: &Actor, holder: &Holder) -> Result<Disputed> {
    let at = crate::time::stamp(actor.at);
    store.write(actor, |tx| {
        let (seated, _) = holder.seated(tx)?;
        let Some(flag) = flag_for(tx, &seated, holder.player)? else {
            return Err(Error::refused(format!(
                "no result at table {} was confirmed in your name on one device or from the reporter's address: if \
                 the result is wrong, call a judge",
                seated.table()
            )));
        };
        if !flag.disputed {
            self_reports::dispute(tx, seated.m.id, &at)?;
        }
        let flag = flag_for(tx, &seated, holder.player)?.unwrap_or(flag);
        let summary = format!("{}, round {}", flag.words, seated.m.round);
        let topics = vec![seated.touched(Topic::SelfReport).player(holder.player)];
        let out = Disputed { flag, summary: summary.clone() };
        Ok((out, Change::about(summary, [seated.a.id, seated.b.id]).touching_all(topics)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(device: Option<&str>, address: &str, signed_in: bool) -> Origin {
        Origin { device: device.map(String::from), address: Some(address.into()), signed_in, fresh: false }
    }

    #[test]
    fn a_confirmation_from_the_reporters_device_or_without_one_is_refused_but_on_the_tables_device() {
        let report = from(Some("d1"), "10.0.0.1", false);
        assert!(witness(&report, &from(None, "10.0.0.2", false)).is_err(), "no device cookie");
        let fresh = Origin { fresh: true, ..from(Some("new"), "10.0.0.2", false) };
        assert!(witness(&report, &fresh).is_err(), "a device cookie made for this request");
        assert!(witness(&report, &from(Some("d1"), "10.0.0.1", false)).is_err(), "the reporter's device");
        assert!(witness(&report, &from(Some("d1"), "10.0.0.1", true)).is_err(), "the report was typed with a code");
        let table = from(Some("t"), "10.0.0.5", true);
        assert_eq!(witness(&table, &from(Some("t"), "10.0.0.5", true)).ok(), Some(Witness::TableDevice));
        assert_eq!(witness(&report, &from(Some("d2"), "10.0.0.1", false)).ok(), Some(Witness::SameAddress));
        assert_eq!(witness(&report, &from(Some("d2"), "10.0.0.2", false)).ok(), Some(Witness::Apart));
    }
}
