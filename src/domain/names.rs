//! Name folding and closest-name suggestions, shared by player names and card names.

use unicode_normalization::UnicodeNormalization;

/// Folds a name for comparison: lower case, accents stripped, ligatures spelled out,
/// punctuation dropped and runs of white space collapsed to one space.
///
/// `fold("  Nevinyrral's  Disk ")` is `"nevinyrrals disk"`, `fold("Dandân")` is `"dandan"`.
pub fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut pending_space = false;
    for c in s.nfd() {
        if unicode_normalization::char::is_combining_mark(c) {
            continue;
        }
        if c.is_whitespace() || c == '-' || c == '/' || c == '_' {
            pending_space = !out.is_empty();
            continue;
        }
        if !c.is_alphanumeric() {
            continue;
        }
        if pending_space {
            out.push(' ');
            pending_space = false;
        }
        match c {
            'æ' | 'Æ' => out.push_str("ae"),
            'œ' | 'Œ' => out.push_str("oe"),
            'ß' => out.push_str("ss"),
            'ø' | 'Ø' => out.push('o'),
            'ł' | 'Ł' => out.push('l'),
            'đ' | 'Đ' => out.push('d'),
            _ => out.extend(c.to_lowercase()),
        }
    }
    out
}

/// Trims a name and folds only its case, for uniqueness checks that keep punctuation
/// ("O'Brien" and "OBrien" are different people, "ana" and " ANA " are the same).
pub fn key(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// Similarity of two already folded names, from 0 (nothing alike) to 1 (equal).
pub fn similarity(a: &str, b: &str) -> f64 {
    if a == b {
        return 1.0;
    }
    let jw = strsim::jaro_winkler(a, b);
    let lev = strsim::normalized_levenshtein(a, b);
    let prefix = if !a.is_empty() && b.starts_with(a) { 0.15 } else { 0.0 };
    (jw.max(lev) + prefix).min(0.999)
}

/// The `n` candidates closest to `query`, best first (at most `n`, only reasonably close ones
/// unless nothing is close, in which case the best few are still offered).
pub fn closest<'a>(query: &str, candidates: impl IntoIterator<Item = &'a str>, n: usize) -> Vec<String> {
    let q = fold(query);
    let mut scored: Vec<(f64, &str)> = candidates.into_iter().map(|c| (similarity(&q, &fold(c)), c)).collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    let good: Vec<String> = scored.iter().filter(|(s, _)| *s >= 0.6).take(n).map(|(_, c)| c.to_string()).collect();
    if good.is_empty() { scored.iter().take(n.min(3)).map(|(_, c)| c.to_string()).collect() } else { good }
}

/// Outcome of resolving a typed name or prefix against a list of names.
#[derive(Debug, Clone, PartialEq)]
pub enum Resolved<T> {
    /// Exactly one match.
    One(T),
    /// Several names start with the prefix.
    Ambiguous(Vec<String>),
    /// Nothing matched; the closest names.
    Unknown(Vec<String>),
}

/// Resolves `query` against `(name, value)` pairs: an exact (trimmed, case- and accent-
/// insensitive) match wins, else a unique prefix, else the closest names are suggested.
pub fn resolve<T: Clone>(query: &str, items: &[(String, T)]) -> Resolved<T> {
    let q = fold(query);
    let qk = key(query);
    if let Some((_, v)) = items.iter().find(|(n, _)| key(n) == qk) {
        return Resolved::One(v.clone());
    }
    let exact: Vec<&(String, T)> = items.iter().filter(|(n, _)| fold(n) == q).collect();
    if exact.len() == 1 {
        return Resolved::One(exact[0].1.clone());
    }
    let by_prefix: Vec<&(String, T)> =
        items.iter().filter(|(n, _)| !q.is_empty() && (fold(n).starts_with(&q) || key(n).starts_with(&qk))).collect();
    match by_prefix.len() {
        1 => Resolved::One(by_prefix[0].1.clone()),
        0 => resolve_by_word(query, &q, items),
        _ => Resolved::Ambiguous(by_prefix.iter().take(6).map(|(n, _)| n.clone()).collect()),
    }
}

/// Second chance: the query begins a later word of exactly one name ("larry" finds "Late Larry").
fn resolve_by_word<T: Clone>(query: &str, q: &str, items: &[(String, T)]) -> Resolved<T> {
    let by_word: Vec<&(String, T)> =
        items.iter().filter(|(n, _)| !q.is_empty() && fold(n).split(' ').skip(1).any(|w| w.starts_with(q))).collect();
    match by_word.len() {
        1 => Resolved::One(by_word[0].1.clone()),
        0 => Resolved::Unknown(closest(query, items.iter().map(|(n, _)| n.as_str()), 3)),
        _ => Resolved::Ambiguous(by_word.iter().take(6).map(|(n, _)| n.clone()).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_accents_punctuation_and_space() {
        assert_eq!(fold("  Nevinyrral's  Disk "), "nevinyrrals disk");
        assert_eq!(fold("Dandân"), "dandan");
        assert_eq!(fold("Æther Vial"), "aether vial");
        assert_eq!(fold("Fire // Ice"), "fire ice");
        assert_eq!(fold("Łucja Nowak"), "lucja nowak");
        assert_eq!(fold("Zoë"), "zoe");
    }

    #[test]
    fn key_is_trimmed_and_caseless() {
        assert_eq!(key("  Ana   María "), key("ana maría"));
        assert_ne!(key("O'Brien"), key("OBrien"));
    }

    fn people() -> Vec<(String, u32)> {
        ["Ana", "Anders", "Björn", "Seán O'Brien", "Zoë Martin", "Bob"]
            .iter()
            .enumerate()
            .map(|(i, n)| (n.to_string(), i as u32))
            .collect()
    }

    #[test]
    fn resolves_exact_before_prefix() {
        assert_eq!(resolve("ana", &people()), Resolved::One(0));
        assert_eq!(resolve(" ANA ", &people()), Resolved::One(0));
    }

    #[test]
    fn resolves_unique_prefix_and_accents() {
        assert_eq!(resolve("bj", &people()), Resolved::One(2));
        assert_eq!(resolve("bjorn", &people()), Resolved::One(2));
        assert_eq!(resolve("sean", &people()), Resolved::One(3));
        assert_eq!(resolve("zoe", &people()), Resolved::One(4));
    }

    #[test]
    fn ambiguous_prefix_lists_candidates() {
        match resolve("an", &people()) {
            Resolved::Ambiguous(names) => assert_eq!(names, vec!["Ana", "Anders"]),
            other => panic!("expected ambiguous, got {other:?}"),
        }
        match resolve("b", &people()) {
            Resolved::Ambiguous(names) => assert_eq!(names.len(), 2),
            other => panic!("expected ambiguous, got {other:?}"),
        }
    }

    #[test]
    fn unknown_suggests_closest() {
        match resolve("Bjarn", &people()) {
            Resolved::Unknown(names) => assert_eq!(names.first().map(String::as_str), Some("Björn")),
            other => panic!("expected unknown, got {other:?}"),
        }
    }

    #[test]
    fn a_later_word_of_one_name_is_enough() {
        assert_eq!(resolve("obri", &people()), Resolved::One(3));
        assert_eq!(resolve("martin", &people()), Resolved::One(4));
        assert!(matches!(resolve("zzz", &people()), Resolved::Unknown(_)));
    }

    #[test]
    fn empty_query_is_not_a_prefix_of_everything() {
        assert!(matches!(resolve("", &people()), Resolved::Unknown(_)));
    }
}
