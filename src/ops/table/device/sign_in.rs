//! A player signs in once on their table's own device: their code is checked once, and the device is given a
//! token for the match, which its writes name instead of the code. The token names the player, the match and a
//! random nonce, signed with the event's sign-in key and the player's code as it is now: nothing is kept for it
//! (a standby, which holds the same key, takes it too), the code cannot be read back from it, and a new code for
//! the player (a judge's renewal) ends every sign-in made with the old one, on every device. Signing out is the
//! device forgetting its token.

use super::seat_of_code;
use crate::domain::result::Seat;
use crate::error::{Error, Result};
use crate::ops::table::Seated;
use crate::store::{MatchId, PlayerId, player_codes, sign_ins};
use blake2::{Blake2s256, Digest};
use rusqlite::Connection;

/// A sign-in made: the token (given to the device), and whom it signs in.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SignedIn {
    /// The table.
    pub table: u32,
    /// The round.
    pub round: u32,
    /// The player signed in.
    pub player: String,
    /// Their seat (`A` or `B`).
    pub seat: &'static str,
    /// The token the device sends instead of the code.
    pub signin: String,
}

/// The signature of a sign-in's fields under the event's key and the player's code.
fn signature(key: &str, player: PlayerId, m: MatchId, nonce: &str, code: &str) -> String {
    let text = format!("mmjudge table sign-in\n{key}\n{}\n{}\n{nonce}\n{}", player.0, m.0, code.trim());
    Blake2s256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

fn seat_word(seat: Seat) -> &'static str {
    if seat == Seat::A { "A" } else { "B" }
}

/// Signs the holder of `code` in on the device of `table` (current round) for its match (the code checked as for
/// any write: 403 when it is neither player's).
pub fn sign_in(conn: &Connection, table: u32, code: &str) -> Result<SignedIn> {
    let (seated, seat) = seat_of_code(conn, table, code)?;
    let me = seated.player(seat);
    let nonce = crate::ops::judges::random_hex(16);
    let mac = signature(&sign_ins::key(conn)?, me.id, seated.m.id, &nonce, code);
    Ok(SignedIn {
        table,
        round: seated.m.round,
        player: me.name.clone(),
        seat: seat_word(seat),
        signin: format!("{}.{}.{nonce}.{mac}", me.id.0, seated.m.id.0),
    })
}

/// The words of a sign-in that no longer acts.
fn signed_out(table: u32) -> Error {
    Error::forbidden(format!(
        "you are signed out on the device of table {table} (a judge gave you a new code, or the match changed): \
         sign in again with your code"
    ))
}

/// The player a sign-in names at `table` in the current round, their seat and their code; 403 when it no longer
/// acts (a new code, another match at the table now, or not a sign-in at all).
pub fn seat_of_sign_in(conn: &Connection, table: u32, token: &str) -> Result<(Seated, Seat, String)> {
    let parts: Vec<&str> = token.trim().split('.').collect();
    let [player, m, nonce, mac] = parts.as_slice() else { return Err(signed_out(table)) };
    let (Ok(player), Ok(m)) = (player.parse::<i64>(), m.parse::<i64>()) else { return Err(signed_out(table)) };
    let (player, m) = (PlayerId(player), MatchId(m));
    let seated = Seated::at(conn, table, None).map_err(|_| signed_out(table))?;
    let seat = match (seated.m.id == m, seated.a.id == player, seated.b.id == player) {
        (true, true, _) => Seat::A,
        (true, _, true) => Seat::B,
        _ => return Err(signed_out(table)),
    };
    let code = player_codes::of(conn, player)?.ok_or_else(|| signed_out(table))?;
    let expected = signature(&sign_ins::key(conn)?, player, m, nonce, &code);
    if !crate::ops::judges::same_secret(&expected, mac) {
        return Err(signed_out(table));
    }
    Ok((seated, seat, code))
}

/// The code of the player a sign-in names at `table` (their writes then go as the code's, checked the same way).
pub fn code_of_sign_in(conn: &Connection, table: u32, token: &str) -> Result<String> {
    seat_of_sign_in(conn, table, token).map(|(_, _, code)| code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_depends_on_the_key_the_code_and_every_field() {
        let s = signature("k", PlayerId(1), MatchId(2), "n", "123456");
        assert_eq!(s.len(), 64);
        assert_ne!(s, signature("k2", PlayerId(1), MatchId(2), "n", "123456"));
        assert_ne!(s, signature("k", PlayerId(1), MatchId(2), "n", "654321"));
        assert_ne!(s, signature("k", PlayerId(3), MatchId(2), "n", "123456"));
        assert_ne!(s, signature("k", PlayerId(1), MatchId(4), "n", "123456"));
        assert_ne!(s, signature("k", PlayerId(1), MatchId(2), "m", "123456"));
    }
}
