//! The bounds on every number a user types or imports, so no command can be made to allocate without limit
//! or overflow: each check names the bound in its message.

/// Copies of one card other than a basic land, in the pool or in a card list: enough for the bundled demo's
/// pool (about 400 spells) to stock the [`MAX_TABLES`] tables the table bound allows.
pub const MAX_COPIES: u32 = 10_000;
/// Copies in the whole pool, its basic lands aside: enough for [`MAX_TABLES`] tables of two 40-card libraries
/// (800,000), with room to spare.
pub const MAX_POOL: u64 = 1_000_000;
/// Basic lands in the pool, bounded apart from the other copies: enough for the two 30-card Utopia libraries of
/// [`MAX_TABLES`] tables (600,000), with room to spare.
pub const MAX_BASICS: u64 = 1_000_000;
/// Copies of one basic land: as many as all the basic lands of the pool (one basic land may stock every
/// Utopia library).
pub const MAX_BASIC_COPIES: u32 = MAX_BASICS as u32;
/// Tables (and so fixed library pairs).
pub const MAX_TABLES: u32 = 10_000;
/// Players in an event.
pub const MAX_PLAYERS: usize = 100_000;
/// Cards in one library (a sealed main library, its Utopia library).
pub const MAX_LIBRARY: usize = 200;
/// Rounds of an event.
pub const MAX_ROUNDS: u32 = 30;
/// The lowest life total a result may record.
pub const MIN_LIFE: i64 = -1_000;
/// The highest life total a result may record.
pub const MAX_LIFE: i64 = 1_000_000;
/// Minutes of a round, an extension or a window: one day.
pub const MAX_MINUTES: u32 = 1_440;

/// The longest text each kind of field takes, in characters (one table, the same on the command line, on the
/// pages and on the JSON routes; refused past it with the field's label, see [`text_length`]). A player's or a
/// judge's name.
pub const MAX_NAME_CHARS: usize = 80;
/// The event's name.
pub const MAX_EVENT_NAME_CHARS: usize = 120;
/// A judge's free text: a ruling, a note on a result or a penalty, what each player said in a challenge, a void's
/// reason.
pub const MAX_TEXT_CHARS: usize = 2_000;
/// A short reason: a ban's, a watched card's note, an extension's.
pub const MAX_REASON_CHARS: usize = 500;

/// Refuses text longer than `max` characters, naming the field (`what`) and the bound: "the ban's reason is 612
/// characters long: at most 500; shorten it".
pub fn text_length(what: &str, text: &str, max: usize) -> Result<(), String> {
    // Counted only when the bytes could be too many: a character is at most 4 bytes.
    if text.len() <= max {
        return Ok(());
    }
    let n = text.chars().count();
    if n <= max {
        return Ok(());
    }
    Err(format!("{what} is {} characters long: at most {}; shorten it", grouped(n as i64), grouped(max as i64)))
}

/// A number with thousands separators: 100000 as `100,000`.
pub fn grouped(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 { format!("-{out}") } else { out }
}

/// Reads a whole number from `min` to `max`; `what` starts the message ("tables are numbered": "tables are
/// numbered from 1 to 10,000, not 0").
pub fn whole(text: &str, min: i64, max: i64, what: &str) -> Result<i64, String> {
    let t = text.trim();
    let range = format!("{what} from {} to {}", grouped(min), grouped(max));
    match t.parse::<i128>() {
        Ok(n) if n >= i128::from(min) && n <= i128::from(max) => Ok(n as i64),
        Ok(_) => Err(format!("{range}, not {t}")),
        Err(_) => Err(format!("{range}, not \"{t}\"")),
    }
}

/// Reads a seed: any 64-bit number, from 0 to 18446744073709551615, or a negative one down to
/// -9223372036854775808 (taken as the same 64 bits, so `-1` is 18446744073709551615).
pub fn seed(text: &str) -> Result<u64, String> {
    let t = text.trim();
    t.parse::<u64>()
        .or_else(|_| t.parse::<i64>().map(|n| n as u64))
        .map_err(|_| format!("a seed is a whole 64-bit number, from {} to {}, not \"{t}\"", i64::MIN, u64::MAX))
}

/// Checks copies of one card (after adding them up): at most [`MAX_COPIES`], or [`MAX_BASIC_COPIES`] for a
/// basic land.
pub fn copies(card: &str, total: u64, basic: bool) -> Result<(), String> {
    let (most, what) = if basic { (MAX_BASIC_COPIES, "a basic land") } else { (MAX_COPIES, "a card") };
    if total > u64::from(most) {
        return Err(format!(
            "\"{card}\" would have {} copies: {what} has at most {} copies in the pool",
            grouped(total.min(i64::MAX as u64) as i64),
            grouped(i64::from(most))
        ));
    }
    Ok(())
}

/// Checks the basic lands of the pool: at most [`MAX_BASICS`].
pub fn basics(total: u64) -> Result<(), String> {
    if total > MAX_BASICS {
        return Err(format!(
            "the pool would hold {} basic lands: a pool holds at most {} (enough for the Utopia libraries of 10,000 tables)",
            grouped(total.min(i64::MAX as u64) as i64),
            grouped(MAX_BASICS as i64)
        ));
    }
    Ok(())
}

/// Checks the copies of the whole pool, its basic lands aside: at most [`MAX_POOL`].
pub fn pool(total: u64) -> Result<(), String> {
    if total > MAX_POOL {
        return Err(format!(
            "the pool would hold {} copies: a pool holds at most {} (enough for 10,000 tables)",
            grouped(total.min(i64::MAX as u64) as i64),
            grouped(MAX_POOL as i64)
        ));
    }
    Ok(())
}

/// Checks the number of players an event would have: at most [`MAX_PLAYERS`].
pub fn players(total: usize) -> Result<(), String> {
    if total > MAX_PLAYERS {
        return Err(format!(
            "the event would have {} players: an event has at most {}",
            grouped(total as i64),
            grouped(MAX_PLAYERS as i64)
        ));
    }
    Ok(())
}

/// Checks the size of one library: at most [`MAX_LIBRARY`] cards.
pub fn library(what: &str, cards: u64) -> Result<(), String> {
    if cards > MAX_LIBRARY as u64 {
        return Err(format!(
            "{what} would hold {} cards: a library holds at most {MAX_LIBRARY}",
            grouped(cards.min(i64::MAX as u64) as i64)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_within_their_bounds() {
        assert_eq!(whole(" 7 ", 1, 30, "a round"), Ok(7));
        let msg = whole("31", 1, 30, "rounds are numbered").unwrap_err();
        assert_eq!(msg, "rounds are numbered from 1 to 30, not 31");
        assert!(whole("99999999999999999999999", 1, 30, "a round").unwrap_err().contains("from 1 to 30"));
        assert!(whole("two", 1, 30, "a round").unwrap_err().contains("not \"two\""));
        assert_eq!(whole("-1000", MIN_LIFE, MAX_LIFE, "a life total"), Ok(-1000));
        assert!(whole("-1001", MIN_LIFE, MAX_LIFE, "a life total").unwrap_err().contains("-1,000 to 1,000,000"));
    }

    #[test]
    fn totals_name_their_bound() {
        assert!(copies("Shock", 10_000, false).is_ok());
        assert!(copies("Shock", 10_001, false).unwrap_err().contains("a card has at most 10,000 copies"));
        assert!(copies("Shock", 4_294_967_295, false).unwrap_err().contains("at most 10,000 copies"));
        assert!(copies("Island", 1_000_000, true).is_ok());
        assert!(copies("Island", 1_000_001, true).unwrap_err().contains("a basic land has at most 1,000,000 copies"));
        assert!(players(100_000).is_ok());
        assert!(pool(1_000_000).is_ok());
        assert!(pool(1_000_001).unwrap_err().contains("at most 1,000,000"));
        assert!(players(100_001).unwrap_err().contains("at most 100,000"));
        assert!(library("Ana's main library", 201).unwrap_err().contains("at most 200"));
        assert_eq!(grouped(1_000_000), "1,000,000");
        assert_eq!(seed("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(seed("-1"), Ok(u64::MAX));
        assert_eq!(seed("-9223372036854775808"), Ok(1 << 63));
        assert!(seed("18446744073709551616").unwrap_err().contains("18446744073709551615"));
        assert_eq!(grouped(-1000), "-1,000");
        assert_eq!(grouped(12), "12");
    }
}
