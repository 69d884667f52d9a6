//! The one error type for everything a user can cause, and the exit codes.

use std::path::PathBuf;

mod way_out;
pub use way_out::{
    Again, CardFile, Cards, Example, Held, Join, Record, Refusal, Tick, Unpair, WayOut, Whose, promote_command,
};

/// Everything that can stop a command. `run()` prints it on one line and exits with `exit_code()`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A rule of the game or of the event refuses the action as things stand (a match that already has a
    /// result, a template already declared, later rounds paired). The message names the thing and the fix.
    #[error("{0}")]
    Refused(String),
    /// The input itself is wrong whatever the event holds: a malformed cost, a time that is not a time, a
    /// number out of its bounds, a name with control characters.
    #[error("{0}")]
    BadInput(String),
    /// The input names something the event or the card reference does not hold: an unknown player, table,
    /// card, judge or record id.
    #[error("{0}")]
    NotFound(String),
    /// The one asking may not do this (a floor judge voiding a record, a player acting for another).
    #[error("{0}")]
    Forbidden(String),
    /// No valid login: a wrong judge name or PIN, a session that ended or never was (HTTP 401).
    #[error("{0}")]
    Unauthorized(String),
    /// A refusal that names its way out as data (see [`Refusal`]): the command line prints the command that
    /// gets past it, the web what to tap or whom to ask.
    #[error("{0}")]
    WayOut(Box<Refusal>),
    /// The database file cannot be used as an mmjudge event.
    #[error("{path}: {why}")]
    NotAnEvent {
        /// The file.
        path: PathBuf,
        /// Why not, and what to do.
        why: String,
    },
    /// A file could not be read or written.
    #[error("{path}: {}", io_advice(source))]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// SQLite failed in a way the checks above did not foresee.
    #[error("database error: {}", sqlite_advice(.0))]
    Sqlite(#[from] rusqlite::Error),
}

impl From<Refusal> for Error {
    fn from(r: Refusal) -> Self {
        Error::WayOut(Box::new(r))
    }
}

/// Shorthand for results in mmjudge.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What kind of failure an [`Error`] is, so every front end can word or map it without reading the message:
/// the command line exits 1 for all of them; the server answers 400, 404, 409, 403 and 500.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// The input is malformed (HTTP 400).
    BadInput,
    /// The input names nothing the event holds (HTTP 404).
    NotFound,
    /// A rule refuses the action as things stand (HTTP 409).
    Refused,
    /// Not allowed for this role (HTTP 403).
    Forbidden,
    /// No valid login (HTTP 401).
    Unauthorized,
    /// The event file or the system failed (HTTP 500).
    Failed,
}

impl Kind {
    /// The HTTP status a server answers with for this kind of failure.
    pub fn http_status(self) -> u16 {
        match self {
            Kind::BadInput => 400,
            Kind::NotFound => 404,
            Kind::Refused => 409,
            Kind::Forbidden => 403,
            Kind::Unauthorized => 401,
            Kind::Failed => 500,
        }
    }
}

impl Error {
    /// A refused command with this message (a rule forbids it as things stand).
    pub fn refused(msg: impl Into<String>) -> Self {
        Error::Refused(msg.into())
    }

    /// Malformed input, with this message naming the thing and the fix.
    pub fn bad_input(msg: impl Into<String>) -> Self {
        Error::BadInput(msg.into())
    }

    /// Input naming nothing the event holds, with this message.
    pub fn not_found(msg: impl Into<String>) -> Self {
        Error::NotFound(msg.into())
    }

    /// Not allowed for the one asking, with this message.
    pub fn forbidden(msg: impl Into<String>) -> Self {
        Error::Forbidden(msg.into())
    }

    /// No valid login, with this message.
    pub fn unauthorized(msg: impl Into<String>) -> Self {
        Error::Unauthorized(msg.into())
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> Kind {
        match self {
            Error::Refused(_) => Kind::Refused,
            Error::BadInput(_) => Kind::BadInput,
            Error::NotFound(_) => Kind::NotFound,
            Error::Forbidden(_) => Kind::Forbidden,
            Error::Unauthorized(_) => Kind::Unauthorized,
            Error::WayOut(r) => r.kind,
            Error::NotAnEvent { .. } | Error::Io { .. } | Error::Sqlite(_) => Kind::Failed,
        }
    }

    /// The refusal with its way out, if this is one.
    pub fn refusal(&self) -> Option<&Refusal> {
        match self {
            Error::WayOut(r) => Some(r),
            _ => None,
        }
    }

    /// The one line the web shows (the one place the server takes its words from): a refusal's way out in the
    /// web's words (what to tap, whom to ask), else the message as it is. A message that names a command, a flag
    /// or a backquote is a [`Refusal`] with its [`WayOut`]: nothing here rewords a command line for a phone.
    pub fn web_message(&self) -> String {
        match self {
            Error::WayOut(r) => r.web(),
            // What to do about the file is the organiser's, at the server's terminal (where the cause is logged).
            Error::NotAnEvent { .. } => {
                "the server cannot use the event file just now: tell the organiser (the server's terminal says why)"
                    .into()
            }
            other => other.to_string(),
        }
    }

    /// This error as malformed input, its words after `before` (`"pool.csv: nothing imported: "`): a refusal
    /// keeps its way out, so each front end still words it its own way.
    pub fn bad_input_after(self, before: &str) -> Self {
        match self {
            Error::WayOut(r) => {
                let mut r = r.after(before);
                r.kind = Kind::BadInput;
                Error::WayOut(Box::new(r))
            }
            other => Error::bad_input(format!("{before}{other}")),
        }
    }

    /// An I/O error on a path.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { path: path.into(), source }
    }

    /// The process exit code: 1 for every refused or failed command (2 is clap's, for bad usage).
    pub fn exit_code(&self) -> i32 {
        1
    }
}

/// What the system said about a file, in words that name the fix for the usual cases.
fn io_advice(source: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match source.kind() {
        ErrorKind::NotFound => "no such file: check the path".to_string(),
        ErrorKind::PermissionDenied => "permission denied: check the file's permissions".to_string(),
        ErrorKind::IsADirectory => "is a folder: give a file".to_string(),
        ErrorKind::StorageFull => "the disk is full: free some space and run the command again".to_string(),
        ErrorKind::ReadOnlyFilesystem => "is on a read-only disk: choose a place you can write to".to_string(),
        _ if source.raw_os_error() == Some(28) => {
            "the disk is full: free some space and run the command again".to_string()
        }
        _ => source.to_string(),
    }
}

/// What SQLite said, on one line (without the SQL text it may quote).
fn sqlite_advice(e: &rusqlite::Error) -> String {
    let text = match e {
        rusqlite::Error::SqlInputError { msg, .. } => msg.clone(),
        other => other.to_string(),
    };
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    // mmjudge's own queries name only its own tables and columns: a miss means the file was changed.
    if ["no such table", "no such column", "has no column named"].iter().any(|w| text.contains(w)) {
        return format!(
            "{text}: the event's tables are not as mmjudge made them (damaged, or changed by another program): restore a backup (mmjudge backup makes one)"
        );
    }
    text
}

/// Returns early with a refused command (a rule forbids it as things stand): `refuse!("table 3 already has a result")`.
#[macro_export]
macro_rules! refuse {
    ($($arg:tt)*) => {
        return Err($crate::error::Error::Refused(format!($($arg)*)))
    };
}

/// Returns early with malformed input: `bad_input!("\"{cost}\" is not a mana cost: write it like 2UU")`.
#[macro_export]
macro_rules! bad_input {
    ($($arg:tt)*) => {
        return Err($crate::error::Error::BadInput(format!($($arg)*)))
    };
}

/// Returns early with input naming nothing the event holds: `not_found!("no player \"{name}\"")`.
#[macro_export]
macro_rules! not_found {
    ($($arg:tt)*) => {
        return Err($crate::error::Error::NotFound(format!($($arg)*)))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_has_its_own_http_status() {
        let cases = [
            (Error::bad_input("x"), 400),
            (Error::not_found("x"), 404),
            (Error::refused("x"), 409),
            (Error::forbidden("x"), 403),
            (Error::unauthorized("x"), 401),
            (Error::io("f", std::io::Error::other("x")), 500),
        ];
        for (e, status) in cases {
            assert_eq!(e.kind().http_status(), status, "{e:?}");
            assert_eq!(e.exit_code(), 1);
        }
    }

    #[test]
    fn a_refusal_with_a_way_out_prints_the_command_and_gives_the_web_its_own_words() {
        let e: Error =
            Refusal::not_found("unknown player \"Zed\"").way_out_after(Join::Semicolon, WayOut::CheckName).into();
        assert_eq!(e.to_string(), "unknown player \"Zed\"; see `mmjudge player list`");
        assert_eq!(e.web_message(), "unknown player \"Zed\"; check the spelling or ask a judge");
        assert_eq!(e.kind().http_status(), 404);
        assert_eq!(e.refusal().and_then(|r| r.way_out.as_ref()), Some(&WayOut::CheckName));
        assert_eq!(Error::refused("x").web_message(), "x");
    }

    #[test]
    fn a_refusal_said_after_the_file_s_name_keeps_its_way_out_for_each_front_end() {
        let e: Error =
            Refusal::refused("no card reference loaded").way_out(WayOut::ImportCards { need: Cards::Any }).into();
        let e = e.bad_input_after("pool.csv: nothing imported: ");
        assert_eq!(
            e.to_string(),
            "pool.csv: nothing imported: no card reference loaded: import one with `mmjudge cards import FILE` (e.g. \
             examples/cards.csv)"
        );
        assert_eq!(
            e.web_message(),
            "pool.csv: nothing imported: no card reference loaded; a head judge loads the card reference first, on the \
             set-up page (Judges, then Set up the event, or /judge/setup)"
        );
        assert_eq!(e.kind(), Kind::BadInput);
        let plain = Error::refused("2 problems").bad_input_after("pool.csv: ");
        assert_eq!((plain.to_string(), plain.kind()), ("pool.csv: 2 problems".to_string(), Kind::BadInput));
    }

    #[test]
    fn every_kind_prints_only_its_message() {
        assert_eq!(Error::bad_input("bad cost").to_string(), "bad cost");
        assert_eq!(Error::not_found("no player").to_string(), "no player");
        assert_eq!(Error::forbidden("head judges only").to_string(), "head judges only");
    }
}
