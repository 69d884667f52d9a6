//! The wire between the two laptops, in one place (see docs/http.md, "The second laptop"):
//! `GET` [`LOG`] `?after=SEQ` streams lines of JSON, a [`Head`] then one [`Line`] per change (its
//! changeset in hex) and a heartbeat (`{"seq"}`: the primary's last change) once a second while nothing changes.
//! The primary writes lines with [`head_line`], [`change_line`] and [`beat_line`]; the standby cuts the stream
//! into lines with [`Lines`] and reads each with [`Head::read`] and [`Line::read`].

use crate::error::{Error, Result};

/// The log stream of changes (`?after=SEQ&follower=ID[&advertise=URL]`, with the standby key).
pub const LOG: &str = "/api/standby/log";
/// A full copy of the event file (with the standby key).
pub const COPY: &str = "/api/standby/copy";
/// A standby's acknowledgement (`{"seq"}`, with the stream's token).
pub const ACK: &str = "/api/standby/ack";
/// Who a server is: `{"event", "role", "generation", ...}` (an old primary asks the promoted standby).
pub const WHOAMI: &str = "/api/standby/whoami";
/// The time, which a server answers even when busy (the probe before a promotion).
pub const TIME: &str = "/api/time";

/// The head of a log stream.
#[derive(Debug, Clone, serde::Deserialize, serde::Serialize)]
pub struct Head {
    /// The event's id.
    pub event: String,
    /// The primary's schema version.
    pub schema: i64,
    /// The primary's generation.
    pub generation: i64,
    /// The primary's last change.
    pub seq: i64,
    /// Whether the log holds every change after the one asked for.
    pub reaches: bool,
    /// The token acknowledgements of this stream carry.
    pub stream: String,
}

/// What a server says of itself at [`WHOAMI`]: its event, generation and role, and whom it follows (a standby).
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub struct Whoami {
    /// The event's id.
    pub event: String,
    /// Its generation.
    pub generation: i64,
    /// Primary or standby.
    pub role: crate::store::replication::Role,
    /// The primary it follows, while it is a standby.
    pub standby_of: Option<String>,
}

/// One line of a log stream after its head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A change: its number, the generation it was written in, when, and its changeset.
    Change {
        /// Its number.
        seq: i64,
        /// The generation it was written in.
        generation: i64,
        /// When it was written.
        at: String,
        /// The changeset.
        changeset: Vec<u8>,
    },
    /// A heartbeat: the primary's last change.
    Beat {
        /// The primary's last change.
        seq: i64,
    },
}

/// A line as it travels: a change has every field, a heartbeat its `seq` alone.
#[derive(Debug, serde::Deserialize, serde::Serialize)]
struct Raw {
    seq: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    generation: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    changeset: Option<String>,
}

fn unreadable(e: impl std::fmt::Display) -> Error {
    Error::refused(format!("the primary's stream is not one a standby reads: {e}"))
}

impl Head {
    /// The head read from its line.
    pub fn read(text: &str) -> Result<Head> {
        serde_json::from_str(text).map_err(unreadable)
    }
}

impl Line {
    /// A line after the head, read from its text.
    pub fn read(text: &str) -> Result<Line> {
        let raw: Raw = serde_json::from_str(text).map_err(unreadable)?;
        match (raw.changeset, raw.generation) {
            (None, _) => Ok(Line::Beat { seq: raw.seq }),
            (Some(hex), Some(generation)) => {
                Ok(Line::Change { seq: raw.seq, generation, at: raw.at.unwrap_or_default(), changeset: unhex(&hex)? })
            }
            (Some(_), None) => Err(unreadable("a change without its generation")),
        }
    }
}

/// The head's line.
pub fn head_line(head: &Head) -> Vec<u8> {
    json_line(head)
}

/// A change's line.
pub fn change_line(seq: i64, generation: i64, at: &str, changeset: &[u8]) -> Vec<u8> {
    json_line(&Raw { seq, generation: Some(generation), at: Some(at.to_string()), changeset: Some(hex(changeset)) })
}

/// A heartbeat's line: the primary's last change.
pub fn beat_line(seq: i64) -> Vec<u8> {
    json_line(&Raw { seq, generation: None, at: None, changeset: None })
}

fn json_line<T: serde::Serialize>(value: &T) -> Vec<u8> {
    // A struct of numbers and strings always serialises.
    let mut bytes = serde_json::to_vec(value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// Cuts a stream's bytes, as they arrive, into its lines (blank lines skipped).
#[derive(Debug, Default)]
pub struct Lines {
    buf: Vec<u8>,
}

impl Lines {
    /// Takes bytes that arrived.
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next whole line, if one arrived.
    pub fn next_line(&mut self) -> Option<String> {
        while let Some(end) = self.buf.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.buf.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line).trim().to_string();
            if !text.is_empty() {
                return Some(text);
            }
        }
        None
    }
}

fn unhex(hex: &str) -> Result<Vec<u8>> {
    let bad = || Error::refused("the primary sent a change that is not hex");
    if !hex.len().is_multiple_of(2) {
        return Err(bad());
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2).ok_or_else(bad)?, 16).map_err(|_| bad()))
        .collect()
}

/// `bytes` in lowercase hex.
fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changesets_travel_as_hex() -> Result<()> {
        let bytes = vec![0u8, 1, 0x7f, 0x80, 0xff];
        assert_eq!(hex(&bytes), "00017f80ff");
        assert_eq!(unhex(&hex(&bytes))?, bytes);
        assert!(unhex("abc").is_err() && unhex("zz").is_err());
        Ok(())
    }

    #[test]
    fn lines_are_written_and_read_back_whatever_pieces_they_arrive_in() -> Result<()> {
        let head = Head { event: "e".into(), schema: 3, generation: 1, seq: 7, reaches: true, stream: "t".into() };
        let mut stream = head_line(&head);
        stream.extend(change_line(8, 1, "2025-05-01T10:00:00Z", &[1, 2]));
        stream.extend(b"\n");
        stream.extend(beat_line(8));
        assert_eq!(
            String::from_utf8_lossy(&stream),
            "{\"event\":\"e\",\"schema\":3,\"generation\":1,\"seq\":7,\"reaches\":true,\"stream\":\"t\"}\n\
             {\"seq\":8,\"generation\":1,\"at\":\"2025-05-01T10:00:00Z\",\"changeset\":\"0102\"}\n\n{\"seq\":8}\n"
        );
        let mut lines = Lines::default();
        let mut read = Vec::new();
        for piece in stream.chunks(5) {
            lines.push(piece);
            while let Some(line) = lines.next_line() {
                read.push(line);
            }
        }
        assert_eq!(read.len(), 3, "{read:?}");
        assert_eq!(Head::read(&read[0])?.seq, 7);
        let change = Line::Change { seq: 8, generation: 1, at: "2025-05-01T10:00:00Z".into(), changeset: vec![1, 2] };
        assert_eq!(Line::read(&read[1])?, change);
        assert_eq!(Line::read(&read[2])?, Line::Beat { seq: 8 });
        assert!(Line::read("{\"seq\":9,\"changeset\":\"00\"}").is_err(), "a change names its generation");
        Ok(())
    }
}
