//! Value parsers for the bounded numbers typed on the command line (bounds in [`crate::domain::bounds`]):
//! clap refuses a value out of range before anything is opened, naming the bound.

use crate::domain::bounds::{
    self, MAX_BASIC_COPIES, MAX_LIBRARY, MAX_LIFE, MAX_PLAYERS, MAX_ROUNDS, MAX_TABLES, MIN_LIFE,
};

/// A table number: 1 to 10,000.
pub fn table(text: &str) -> Result<u32, String> {
    bounds::whole(text, 1, i64::from(MAX_TABLES), "tables are numbered").map(|n| n as u32)
}

/// A number of tables: 1 to 10,000.
pub fn tables(text: &str) -> Result<u32, String> {
    bounds::whole(text, 1, i64::from(MAX_TABLES), "the number of tables is a whole number").map(|n| n as u32)
}

/// Cards in a main library: 1 to 200.
pub fn library_size(text: &str) -> Result<usize, String> {
    bounds::whole(text, 1, MAX_LIBRARY as i64, "a library size is a whole number of cards").map(|n| n as usize)
}

/// Basic lands in a Utopia library: 1 to 200.
pub fn utopia_size(text: &str) -> Result<u32, String> {
    bounds::whole(text, 1, MAX_LIBRARY as i64, "a Utopia library size is a whole number of basic lands")
        .map(|n| n as u32)
}

/// A round number: 1 to 30.
pub fn round(text: &str) -> Result<u32, String> {
    bounds::whole(text, 1, i64::from(MAX_ROUNDS), "rounds are numbered").map(|n| n as u32)
}

/// A number of rounds: 1 to 30.
pub fn rounds(text: &str) -> Result<u32, String> {
    bounds::whole(text, 1, i64::from(MAX_ROUNDS), "the number of rounds is a whole number").map(|n| n as u32)
}

/// A number of players: 1 to 100,000.
pub fn players(text: &str) -> Result<usize, String> {
    bounds::whole(text, 1, MAX_PLAYERS as i64, "the number of players is a whole number").map(|n| n as usize)
}

/// A number of players as `u32` (the demo's field): 1 to 100,000.
pub fn players_u32(text: &str) -> Result<u32, String> {
    players(text).map(|n| n as u32)
}

/// Copies of a card: 1 to 1,000,000 (a basic land's bound; a card other than a basic land is checked against
/// its own, 10,000, once the name is resolved).
pub fn copies(text: &str) -> Result<u32, String> {
    bounds::whole(text, 1, i64::from(MAX_BASIC_COPIES), "a copy count is a whole number").map(|n| n as u32)
}

/// A seed: any 64-bit number (see [`bounds::seed`]).
pub fn seed(text: &str) -> Result<u64, String> {
    bounds::seed(text)
}

/// A life total: 0 to 1,000,000. A total from -1,000 to -1 is read, for the result's rule to refuse in its
/// own words (a player at or below 0 is recorded at 0); beyond, the refusal names the bounds that hold.
pub fn life(text: &str) -> Result<i64, String> {
    let what = "a life total is a whole number";
    bounds::whole(text, MIN_LIFE, MAX_LIFE, what)
        .map_err(|_| bounds::whole(text, 0, MAX_LIFE, what).err().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_numbers_are_bounded() {
        assert_eq!(table("10000"), Ok(10_000));
        assert!(table("10001").unwrap_err().contains("1 to 10,000"));
        assert!(table("0").is_err());
        assert_eq!(round("30"), Ok(30));
        assert!(rounds("31").unwrap_err().contains("1 to 30"));
        assert!(copies("4294967295").unwrap_err().contains("1 to 1,000"));
        assert_eq!(life("-1000"), Ok(-1000));
        assert!(life("1000001").is_err());
        assert!(players("100001").unwrap_err().contains("100,000"));
    }
}
