//! Judges of the live server: adding them with a PIN shown once, renewing the PIN, removing them, and the
//! logins (sessions) they make from their phones. A PIN and a session token are kept only as hashes.

use crate::domain::{names, words};
use crate::error::{Error, Kind, Refusal, Result, WayOut};
use crate::store::{Actor, Change, Store, judges};
use crate::time::{stamp, unstamp};
use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use blake2::{Blake2s256, Digest};
use chrono::{DateTime, Duration, Utc};
use rand::RngExt;

pub mod link;

/// How long a login lasts.
pub const SESSION_HOURS: i64 = 12;

/// What a judge may do on the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Records at the table: results, notes, challenges, penalties, rulings, the decision clock.
    Floor,
    /// Also pairs, starts and ends rounds, fixes results, voids records and changes settings.
    Head,
}

impl Role {
    /// The word stored and shown.
    pub fn word(self) -> &'static str {
        match self {
            Role::Floor => "floor",
            Role::Head => "head",
        }
    }

    pub(crate) fn from_word(word: &str) -> Role {
        if word == "head" { Role::Head } else { Role::Floor }
    }
}

/// A judge's new PIN, to show once.
#[derive(Debug, Clone, serde::Serialize)]
pub struct JudgePin {
    /// The judge's name.
    pub name: String,
    /// The judge's role.
    pub role: Role,
    /// The PIN (six digits), never stored in clear.
    pub pin: String,
}

/// One judge in `judge list`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct JudgeRow {
    /// The name.
    pub name: String,
    /// The role.
    pub role: Role,
    /// When added (RFC 3339).
    pub created: String,
    /// Logins still open.
    pub sessions: i64,
}

/// A removed judge.
#[derive(Debug, Clone, serde::Serialize)]
pub struct JudgeRemoved {
    /// The name the judge had.
    pub name: String,
    /// Logins that ended with it.
    pub sessions_ended: usize,
}

/// A login: the token travels (cookie or bearer), the PIN does not.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Login {
    /// The session token (shown only to the one who logged in; stored as a hash).
    pub token: String,
    /// The token every form of this session carries.
    pub csrf: String,
    /// The judge.
    pub name: String,
    /// The judge's role.
    pub role: Role,
    /// When the session ends (RFC 3339).
    pub expires: String,
}

/// The judge behind a valid session.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SessionJudge {
    /// The judge.
    pub name: String,
    /// The role.
    pub role: Role,
    /// The session's form token.
    pub csrf: String,
    /// When the session ends (RFC 3339).
    pub expires: String,
}

impl SessionJudge {
    /// Refuses (403) an action for head judges when this judge is a floor judge.
    pub fn require_head(&self, what: &str) -> Result<()> {
        if self.role == Role::Head {
            return Ok(());
        }
        Err(Error::forbidden(format!("{what} is for head judges; {} is a floor judge: ask a head judge", self.name)))
    }
}

/// `judge add NAME --role floor|head`: adds a judge with a new PIN.
pub fn add_judge(store: &mut Store, actor: &Actor, name: &str, role: Role) -> Result<JudgePin> {
    let name = names::clean_name(name).map_err(|p| {
        Error::bad_input(format!("the judge's name \"{}\" {p}", crate::domain::text::escape(name, false)))
    })?;
    let key = names::key(&name);
    let pin = new_pin();
    let hash = hash_pin(&pin)?;
    store.write(actor, |tx| {
        if let Some(j) = judges::by_key(tx, &key)? {
            let what = format!("a judge named {} is already added", j.name);
            return Err(Refusal::refused(what).way_out(WayOut::NewPin { name: j.name }).into());
        }
        judges::insert(tx, &name, &key, role.word(), &hash, &stamp(actor.at))?;
        let out = JudgePin { name: name.clone(), role, pin: pin.clone() };
        Ok((out, Change::new(format!("judge {name} added ({} judge)", role.word()))))
    })
}

/// The event's first head judge, set up from the browser: added with a new PIN and logged in at once, in one
/// transaction (the set-up page answers with the session, so the PIN is not typed again).
pub fn add_first_head(store: &mut Store, actor: &Actor, name: &str) -> Result<(JudgePin, Login)> {
    let name = names::clean_name(name).map_err(|p| {
        Error::bad_input(format!("the judge's name \"{}\" {p}", crate::domain::text::escape(name, false)))
    })?;
    let key = names::key(&name);
    let pin = new_pin();
    let hash = hash_pin(&pin)?;
    store.write(actor, |tx| {
        let id = judges::insert(tx, &name, &key, Role::Head.word(), &hash, &stamp(actor.at))?;
        let j = judges::Judge {
            id,
            name: name.clone(),
            role: "head".into(),
            pin_hash: hash.clone(),
            created: stamp(actor.at),
        };
        let (login, csrf, token, expires) = new_login(&j, actor);
        judges::start_session(tx, &token_hash(&token), id, &csrf, &stamp(actor.at), &expires)?;
        let out = JudgePin { name: name.clone(), role: Role::Head, pin: pin.clone() };
        Ok(((out, login), Change::new(format!("judge {name} added (head judge) and logged in"))))
    })
}

/// `judge pin NAME`: a new PIN; the old one stops working and the judge's logins end.
pub fn renew_pin(store: &mut Store, actor: &Actor, name: &str) -> Result<JudgePin> {
    let pin = new_pin();
    let hash = hash_pin(&pin)?;
    store.write(actor, |tx| {
        let j = find(tx, name)?;
        judges::set_pin(tx, j.id, &hash)?;
        let ended = judges::end_sessions(tx, j.id)?;
        let out = JudgePin { name: j.name.clone(), role: Role::from_word(&j.role), pin: pin.clone() };
        let ended = words::count(ended, "login");
        Ok((out, Change::new(format!("judge {}: new PIN ({ended} ended)", j.name))))
    })
}

/// `judge remove NAME`: removes a judge and ends the judge's logins.
pub fn remove_judge(store: &mut Store, actor: &Actor, name: &str) -> Result<JudgeRemoved> {
    store.write(actor, |tx| {
        let j = find(tx, name)?;
        if j.role == Role::Head.word() && judges::count_role(tx, Role::Head.word())? <= 1 {
            let what = format!("{} is the event's last head judge: nobody could pair rounds or fix results", j.name);
            return Err(Refusal::refused(what).way_out(WayOut::AddHeadJudge).into());
        }
        let ended = judges::end_sessions(tx, j.id)?;
        judges::delete(tx, j.id)?;
        let out = JudgeRemoved { name: j.name.clone(), sessions_ended: ended };
        let ended = words::count(ended, "login");
        Ok((out, Change::new(format!("judge {} removed ({ended} ended)", j.name))))
    })
}

/// `judge list`: every judge with the logins still open at `now`.
pub fn list_judges(store: &Store, now: DateTime<Utc>) -> Result<Vec<JudgeRow>> {
    store.read(|conn| {
        let now = stamp(now);
        judges::all(conn)?
            .into_iter()
            .map(|j| {
                let sessions = judges::live_sessions(conn, j.id, &now)?;
                Ok(JudgeRow { name: j.name, role: Role::from_word(&j.role), created: j.created, sessions })
            })
            .collect()
    })
}

/// The one refusal of a failed login, whichever of the two was wrong (so names cannot be guessed).
/// How long checking one PIN takes on this machine (measured once, by checking no one's PIN): a login for a
/// name that is no judge's waits this long on a timer and is answered as a wrong PIN, so names cannot be told
/// apart by time, and such logins take no turn at hashing from the judges'.
pub fn unknown_name_wait() -> std::time::Duration {
    static MEASURED: std::sync::OnceLock<std::time::Duration> = std::sync::OnceLock::new();
    *MEASURED.get_or_init(|| {
        let t = std::time::Instant::now();
        let _ = verify_pin("no one's PIN", DUMMY_HASH);
        t.elapsed()
    })
}

/// The answer to a wrong judge name or PIN (one answer for both).
pub fn wrong_login() -> Error {
    Refusal::new(Kind::Unauthorized, "wrong judge name or PIN: check both")
        .way_out_after(crate::error::Join::Aside, WayOut::CheckPin)
        .into()
}

/// Logs a judge in with name and PIN (the actor stamps the time and the address): a new session of
/// [`SESSION_HOURS`]. The PIN is checked before the write, so a wrong one changes nothing.
pub fn login(store: &mut Store, actor: &Actor, name: &str, pin: &str) -> Result<Login> {
    let key = names::key(name);
    let judge = checked(store, &key, pin)?;
    let (login, csrf, token, expires) = new_login(&judge, actor);
    let actor = Actor { judge: judge.name.clone(), ..actor.clone() };
    store.write(&actor, |tx| {
        // The PIN may have changed between the check and this write: check the hash is still the one.
        match judges::by_key(tx, &key)? {
            Some(j) if j.pin_hash == judge.pin_hash => {}
            _ => return Err(wrong_login()),
        }
        judges::start_session(tx, &token_hash(&token), judge.id, &csrf, &stamp(actor.at), &expires)?;
        Ok(((), Change::new(format!("judge {} logged in", judge.name))))
    })?;
    Ok(login)
}

/// The judge named `key` if `pin` is theirs (the same work when the name is unknown, so names cannot be guessed).
fn checked(store: &Store, key: &str, pin: &str) -> Result<judges::Judge> {
    let judge = store.read(|conn| judges::by_key(conn, key))?;
    let Some(judge) = judge else {
        // The same work as a real check, so a wrong name takes as long as a wrong PIN.
        let _ = verify_pin(pin, DUMMY_HASH);
        return Err(wrong_login());
    };
    if !verify_pin(pin, &judge.pin_hash) {
        return Err(wrong_login());
    }
    Ok(judge)
}

/// A new session for `judge` at the actor's time: the login, its form token, its token and its end.
fn new_login(judge: &judges::Judge, actor: &Actor) -> (Login, String, String, String) {
    let token = random_hex(32);
    let csrf = random_hex(16);
    let expires = stamp(actor.at + Duration::hours(SESSION_HOURS));
    let login = Login {
        token: token.clone(),
        csrf: csrf.clone(),
        name: judge.name.clone(),
        role: Role::from_word(&judge.role),
        expires: expires.clone(),
    };
    (login, csrf, token, expires)
}

/// Logs a judge in on a standby laptop, which writes nothing: the name and PIN are checked against the hashes
/// replicated from the primary, and the session lives in the server's memory (the key [`session_key`] of the
/// token, and the judge it opens); it ends with the server, or when the standby is promoted.
pub fn login_in_memory(store: &Store, actor: &Actor, name: &str, pin: &str) -> Result<(Login, String, SessionJudge)> {
    let judge = checked(store, &names::key(name), pin)?;
    let (login, csrf, token, expires) = new_login(&judge, actor);
    let held = SessionJudge { name: judge.name.clone(), role: Role::from_word(&judge.role), csrf, expires };
    Ok((login, session_key(&token), held))
}

/// The key a session token is kept under (its hash).
pub fn session_key(token: &str) -> String {
    token_hash(token)
}

/// A session kept in memory, at `now`: the judge, or 401 when it ended.
pub fn held_session(held: &SessionJudge, now: DateTime<Utc>) -> Result<SessionJudge> {
    let ended = unstamp(&held.expires).map(|t| t <= now).unwrap_or(true);
    if ended {
        return Err(Error::unauthorized(format!(
            "your login ended after {SESSION_HOURS} hours: log in again with your name and PIN"
        )));
    }
    Ok(held.clone())
}

/// The judge behind a session token at `now`; 401 when there is none or it has ended.
pub fn session(store: &Store, token: &str, now: DateTime<Utc>) -> Result<SessionJudge> {
    let found = store.read(|conn| judges::session(conn, &token_hash(token)))?;
    let Some(s) = found else {
        return Err(Error::unauthorized("not logged in (or the login ended): log in again with your name and PIN"));
    };
    let ended = unstamp(&s.expires).map(|t| t <= now).unwrap_or(true);
    if ended {
        return Err(Error::unauthorized(format!(
            "your login ended after {SESSION_HOURS} hours: log in again with your name and PIN"
        )));
    }
    Ok(SessionJudge { name: s.judge.name, role: Role::from_word(&s.judge.role), csrf: s.csrf, expires: s.expires })
}

/// Ends a session (logout).
pub fn logout(store: &mut Store, actor: &Actor, token: &str) -> Result<()> {
    store.write(actor, |tx| {
        if !judges::end_session(tx, &token_hash(token))? {
            return Err(Error::unauthorized("not logged in: there is no login to end"));
        }
        Ok(((), Change::new(format!("judge {} logged out", actor.judge))))
    })
}

fn find(conn: &rusqlite::Connection, name: &str) -> Result<judges::Judge> {
    if let Some(j) = judges::by_key(conn, &names::key(name))? {
        return Ok(j);
    }
    let all = judges::all(conn)?;
    let known: Vec<&str> = all.iter().map(|j| j.name.as_str()).collect();
    let refusal = if known.is_empty() {
        Refusal::not_found(format!("no judge named \"{name}\": no judge is added yet")).way_out(WayOut::AddJudge)
    } else {
        Refusal::not_found(format!("no judge named \"{name}\": the judges are {}", known.join(", ")))
            .way_out(WayOut::CheckJudge)
    };
    Err(refusal.into())
}

fn new_pin() -> String {
    format!("{:06}", rand::rng().random_range(0..1_000_000u32))
}

/// Whether a secret given equals the one held, compared over every byte whatever differs first (a wrong guess
/// takes as long as a near one).
pub(crate) fn same_secret(held: &str, given: &str) -> bool {
    held.len() == given.len() && held.bytes().zip(given.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

pub(crate) fn random_hex(bytes: usize) -> String {
    let mut rng = rand::rng();
    (0..bytes).map(|_| format!("{:02x}", rng.random::<u8>())).collect()
}

/// The stored form of a session token (tokens are random, so a fast hash is enough).
fn token_hash(token: &str) -> String {
    Blake2s256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

pub(crate) fn hash_pin(pin: &str) -> Result<String> {
    Argon2::default()
        .hash_password(pin.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| Error::refused(format!("could not hash the PIN ({e}): try again")))
}

pub(crate) fn verify_pin(pin: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| Argon2::default().verify_password(pin.as_bytes(), &h).is_ok())
}

/// A hash of no one's PIN, checked when the name is unknown.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$P2Yy7Ni1u1n5Zr0h2B3eq6c0Gk3HnFb6zQm3F2m6rJQ";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pin_verifies_against_its_hash_only() -> Result<()> {
        let h = hash_pin("123456")?;
        assert!(verify_pin("123456", &h));
        assert!(!verify_pin("123457", &h));
        assert!(!verify_pin("123456", "not a hash"));
        Ok(())
    }

    #[test]
    fn pins_are_six_digits_and_tokens_differ() {
        let p = new_pin();
        assert_eq!(p.len(), 6);
        assert!(p.chars().all(|c| c.is_ascii_digit()));
        assert_ne!(random_hex(32), random_hex(32));
        assert_eq!(token_hash("a").len(), 64);
    }
}
