//! The records a way out points to by id (notes, challenges, penalties, ...): their word, the command that
//! records and voids them, and the listing that shows their ids.

/// Which records a listing shows (for a record's id).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Record {
    /// Template notes (and their declarations).
    Note,
    /// Challenges.
    Challenge,
    /// Penalties.
    Penalty,
    /// Rulings.
    Ruling,
    /// Extensions of a table's time.
    Extension,
    /// Stalls on the live clock.
    Stall,
}

impl Record {
    /// The record's word.
    pub fn word(self) -> &'static str {
        match self {
            Record::Note => "note",
            Record::Challenge => "challenge",
            Record::Penalty => "penalty",
            Record::Ruling => "ruling",
            Record::Extension => "extension",
            Record::Stall => "stall",
        }
    }

    /// The command that records (and voids) it.
    pub fn command(self) -> &'static str {
        match self {
            Record::Extension => "round extend",
            other => other.word(),
        }
    }

    /// The command that lists these records with their ids.
    pub fn listing(self) -> &'static str {
        match self {
            Record::Note => "mmjudge notes TABLE",
            Record::Challenge => "mmjudge challenges",
            Record::Penalty => "mmjudge penalties",
            Record::Ruling => "mmjudge rulings",
            Record::Extension => "mmjudge time",
            Record::Stall => "mmjudge stalls",
        }
    }
}
