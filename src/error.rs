//! The one error type for everything a user can cause, and the exit codes.

use std::path::PathBuf;

/// Everything that can stop a command. `run()` prints it on one line and exits with `exit_code()`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A command refused: bad input, unknown name, a rule that forbids it. The message names the thing
    /// and how to fix it.
    #[error("{0}")]
    Refused(String),
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

/// Shorthand for results in mmjudge.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// A refused command with this message.
    pub fn refused(msg: impl Into<String>) -> Self {
        Error::Refused(msg.into())
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

/// Returns early with a refused command: `refuse!("unknown player \"{name}\"")`.
#[macro_export]
macro_rules! refuse {
    ($($arg:tt)*) => {
        return Err($crate::error::Error::Refused(format!($($arg)*)))
    };
}
