//! Newtype ids, so a player id is never passed where a match id is expected.

use rusqlite::types::{FromSql, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

macro_rules! id_type {
    ($(#[$doc:meta] $name:ident),* $(,)?) => {$(
        #[$doc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                self.0.to_sql()
            }
        }

        impl FromSql for $name {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                i64::column_result(value).map($name)
            }
        }
    )*};
}

id_type!(
    /// A player's row id.
    PlayerId,
    /// A match's row id.
    MatchId,
    /// A library's row id.
    LibraryId,
    /// A card's row id in the reference.
    CardId,
    /// A pool card's row id.
    PoolId,
    /// A template note's row id.
    NoteId,
);
