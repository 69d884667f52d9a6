//! Cells and counts shared by listings: of the records judges keep (challenges, penalties, rulings, stalls)
//! and of cards.

use crate::store::voids::Voided;

/// "VOID (judge HH:MM: why)" in a listing's last column, or nothing for a record that counts.
pub fn void_cell(v: Option<&Voided>) -> String {
    match v {
        Some(v) => {
            let why = v.reason.as_deref().map(|r| format!(": {r}")).unwrap_or_default();
            format!("VOID ({} {}{why})", v.judge, crate::ops::table::hhmm(&v.at))
        }
        None => String::new(),
    }
}

/// "3 rulings (1 void)".
pub fn count_words(n: usize, void: usize, noun: &str) -> String {
    let mut s = format!("{n} {noun}{}", if n == 1 { "" } else { "s" });
    if void > 0 {
        s.push_str(&format!(" ({void} void)"));
    }
    s
}

/// A card's cost for people ("no cost" when it has none).
pub fn cost_text(card: &crate::store::cards::Card) -> String {
    card.mana_cost.clone().filter(|c| !c.is_empty()).unwrap_or_else(|| "no cost".into())
}
