//! Fuzzy card-name search that forgives typos, missing punctuation and accents.
//!
//! Names and queries are folded with [`super::names::fold`] ("Nevinyrral's Disk" becomes
//! "nevinyrrals disk"). Matches rank: exact folded name, a face of a split card, prefix, every
//! query word starting a word of the name, substring, then typo distance. Typo candidates are
//! first narrowed with a bigram index, so a query over 33,000 names takes well under a
//! millisecond to a few milliseconds.

use std::collections::HashMap;

use super::names::fold;

/// How many names, sharing the most bigrams with the query, are scored for typos.
const TYPO_CANDIDATES: usize = 250;
/// Typo similarity below which a name is not offered.
const TYPO_FLOOR: f64 = 0.6;

/// A search index over a list of card names, built once.
#[derive(Debug, Clone)]
pub struct NameIndex {
    folded: Vec<String>,
    faces: HashMap<String, usize>,
}

impl NameIndex {
    /// Builds the index; results refer to positions in `names`.
    pub fn new(names: &[String]) -> Self {
        Self::from_folded(names, names.iter().map(|n| fold(n)).collect())
    }

    /// Builds the index from names whose folded forms are already known (as the store keeps them);
    /// `folded[i]` must be `fold(&names[i])`.
    pub fn from_folded(names: &[String], folded: Vec<String>) -> Self {
        let mut faces = HashMap::new();
        for (i, name) in names.iter().enumerate() {
            if name.contains(" // ") {
                for face in name.split(" // ") {
                    faces.entry(fold(face)).or_insert(i);
                }
            }
        }
        Self { folded, faces }
    }

    /// Number of names indexed.
    pub fn len(&self) -> usize {
        self.folded.len()
    }

    /// Whether the index holds no name.
    pub fn is_empty(&self) -> bool {
        self.folded.is_empty()
    }

    /// The name whose folded form equals the folded query ("fire ice" finds "Fire // Ice").
    pub fn exact(&self, query: &str) -> Option<usize> {
        let q = fold(query);
        self.folded.iter().position(|f| *f == q)
    }

    /// The split card one of whose halves is named by the query ("Fire" finds "Fire // Ice").
    pub fn face_match(&self, query: &str) -> Option<usize> {
        self.faces.get(&fold(query)).copied()
    }

    /// Up to `limit` names matching `query`, best first, with a score from 0 to 1.
    pub fn search(&self, query: &str, limit: usize) -> Vec<(usize, f64)> {
        let q = fold(query);
        if q.is_empty() || limit == 0 {
            return Vec::new();
        }
        let mut hits: HashMap<usize, f64> = HashMap::new();
        let mut put = |i: usize, s: f64| {
            let best = hits.entry(i).or_insert(s);
            *best = best.max(s);
        };
        if let Some(i) = self.faces.get(&q) {
            put(*i, 0.97);
        }
        let words: Vec<&str> = q.split(' ').collect();
        for (i, name) in self.folded.iter().enumerate() {
            if let Some(s) = text_score(&q, &words, name) {
                put(i, s);
            }
        }
        for (i, s) in self.typo_matches(&q) {
            put(i, s);
        }
        let mut ranked: Vec<(usize, f64)> = hits.into_iter().collect();
        ranked.sort_by(|a, b| {
            b.1.total_cmp(&a.1)
                .then_with(|| self.folded[a.0].len().cmp(&self.folded[b.0].len()))
                .then_with(|| a.0.cmp(&b.0))
        });
        ranked.truncate(limit);
        ranked
    }

    /// Names sharing many bigrams with the query, scored by edit similarity (below 0.7). The bigram
    /// count is a linear scan against a bitset of the query's bigrams, so no index has to be built.
    fn typo_matches(&self, q: &str) -> Vec<(usize, f64)> {
        let wanted = BigramSet::of(q);
        if wanted.count == 0 {
            return Vec::new();
        }
        let floor = (wanted.count / 3).max(1);
        let mut candidates: Vec<(u16, usize)> = self
            .folded
            .iter()
            .enumerate()
            .filter_map(|(i, name)| {
                let n = wanted.shared_with(name);
                (n >= floor).then_some((n, i))
            })
            .collect();
        if candidates.len() > TYPO_CANDIDATES {
            candidates.select_nth_unstable_by(TYPO_CANDIDATES, |a, b| b.0.cmp(&a.0));
            candidates.truncate(TYPO_CANDIDATES);
        }
        candidates
            .into_iter()
            .filter_map(|(_, i)| {
                let sim = typo_similarity(q, &self.folded[i]);
                (sim >= TYPO_FLOOR).then_some((i, 0.69 * sim))
            })
            .collect()
    }
}

/// A cheap test that keeps every name [`NameIndex::search`] could return for a query, so a caller can
/// narrow a large list (for instance inside SQLite) before building an index of the few names left.
pub struct Prefilter {
    first_word: String,
    bigrams: BigramSet,
    floor: u16,
}

impl Prefilter {
    /// The prefilter for a query.
    pub fn new(query: &str) -> Prefilter {
        let q = fold(query);
        let first_word = q.split(' ').next().unwrap_or("").to_string();
        let bigrams = BigramSet::of(&q);
        let floor = (bigrams.count / 3).max(1);
        Prefilter { first_word, bigrams, floor }
    }

    /// Whether a folded name may match: it holds the query's first word, or shares enough bigrams.
    pub fn keep(&self, folded: &str) -> bool {
        !self.first_word.is_empty()
            && (folded.contains(&self.first_word) || self.bigrams.shared_with(folded) >= self.floor)
    }
}

/// The bigrams of a query as a 4,096-bit set (hashed), with how many distinct ones there are.
struct BigramSet {
    bits: [u64; 64],
    count: u16,
}

impl BigramSet {
    fn slot(a: char, b: char) -> usize {
        ((a as usize).wrapping_mul(31).wrapping_add(b as usize)) & 4095
    }

    fn of(s: &str) -> BigramSet {
        let mut set = BigramSet { bits: [0; 64], count: 0 };
        let chars: Vec<char> = s.chars().collect();
        for w in chars.windows(2) {
            let slot = Self::slot(w[0], w[1]);
            let (word, bit) = (slot / 64, 1u64 << (slot % 64));
            if set.bits[word] & bit == 0 {
                set.bits[word] |= bit;
                set.count += 1;
            }
        }
        set
    }

    /// How many bigrams of `name` are in the set (a name's repeated bigrams count each time).
    fn shared_with(&self, name: &str) -> u16 {
        let mut n = 0u16;
        let mut prev: Option<char> = None;
        for c in name.chars() {
            if let Some(p) = prev {
                let slot = Self::slot(p, c);
                if self.bits[slot / 64] & (1u64 << (slot % 64)) != 0 {
                    n = n.saturating_add(1);
                }
            }
            prev = Some(c);
        }
        n
    }
}

/// Score of the plain-text matches: exact 1, prefix 0.9+, word prefixes 0.8+, substring 0.7+;
/// a longer share of the name and a match ending on a word boundary score higher.
fn text_score(q: &str, words: &[&str], name: &str) -> Option<f64> {
    if !name.contains(words.first().copied().unwrap_or(q)) {
        return None;
    }
    let cover = q.len() as f64 / name.len().max(1) as f64;
    let whole_word = |at: usize| matches!(name.as_bytes().get(at + q.len()), None | Some(b' '));
    let bonus = |at: usize| 0.04 * cover + if whole_word(at) { 0.02 } else { 0.0 };
    if name == q {
        Some(1.0)
    } else if name.starts_with(q) {
        Some(0.9 + bonus(0))
    } else if words_prefix(words, name) {
        Some(0.8 + 0.04 * cover)
    } else {
        name.find(q).map(|at| 0.7 + bonus(at))
    }
}

/// Every query word starts a word of the name, in order.
fn words_prefix(words: &[&str], name: &str) -> bool {
    let mut name_words = name.split(' ');
    words.iter().all(|w| name_words.by_ref().any(|n| n.starts_with(w)))
}

/// Edit similarity of the query with the whole name, or with the name's beginning.
fn typo_similarity(q: &str, name: &str) -> f64 {
    let whole = strsim::normalized_levenshtein(q, name).max(strsim::jaro_winkler(q, name) - 0.1);
    let q_chars = q.chars().count();
    let head_end = name.char_indices().nth(q_chars).map_or(name.len(), |(at, _)| at);
    let partial = if head_end < name.len() && q_chars >= 4 {
        0.95 * strsim::normalized_levenshtein(q, &name[..head_end])
    } else {
        0.0
    };
    whole.max(partial)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> (Vec<String>, NameIndex) {
        let names: Vec<String> = [
            "Nevinyrral's Disk",
            "Dandân",
            "Demonic Tutor",
            "Demonic Consultation",
            "Vampiric Tutor",
            "Fire // Ice",
            "Fireball",
            "Firebolt",
            "Lightning Bolt",
            "Bolt of Keranos",
            "Shock",
            "Shockwave",
            "Æther Vial",
            "Ice Cauldron",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let index = NameIndex::new(&names);
        (names, index)
    }

    fn top(query: &str) -> Option<String> {
        let (names, index) = index();
        index.search(query, 5).first().map(|(i, _)| names[*i].clone())
    }

    #[test]
    fn forgives_typos_punctuation_and_accents() {
        let cases = [
            ("nevinyrals disk", "Nevinyrral's Disk"),
            ("dandan", "Dandân"),
            ("demonic tutr", "Demonic Tutor"),
            ("fire ice", "Fire // Ice"),
            ("Fire // Ice", "Fire // Ice"),
            ("aether vial", "Æther Vial"),
            ("shock", "Shock"),
            ("lightnig bolt", "Lightning Bolt"),
            ("dem tut", "Demonic Tutor"),
            ("nevinyr", "Nevinyrral's Disk"),
            ("fire", "Fire // Ice"),
            ("keranos", "Bolt of Keranos"),
        ];
        for (query, want) in cases {
            assert_eq!(top(query).as_deref(), Some(want), "{query}");
        }
    }

    #[test]
    fn ranks_exact_then_prefix_then_substring() {
        let (names, index) = index();
        let got: Vec<&str> = index.search("bolt", 5).iter().map(|(i, _)| names[*i].as_str()).collect();
        assert_eq!(got[0], "Bolt of Keranos");
        assert!(got.contains(&"Lightning Bolt") && got.contains(&"Firebolt"));
        let scores: Vec<f64> = index.search("shock", 5).iter().map(|(_, s)| *s).collect();
        assert_eq!(scores.first(), Some(&1.0));
        assert!(scores.windows(2).all(|w| w[0] >= w[1]));
        assert!(scores.iter().all(|s| (0.0..=1.0).contains(s)));
    }

    #[test]
    fn nothing_for_empty_or_far_queries() {
        let (_, index) = index();
        assert!(index.search("", 5).is_empty());
        assert!(index.search("  '' ", 5).is_empty());
        assert!(index.search("qqqqzzzz", 5).is_empty());
        assert_eq!(index.search("tutor", 1).len(), 1);
    }

    #[test]
    fn exact_and_face_match() {
        let (names, index) = index();
        let name = |i: Option<usize>| i.map(|i| names[i].as_str());
        assert_eq!(name(index.exact("DANDAN")), Some("Dandân"));
        assert_eq!(name(index.exact("fire ice")), Some("Fire // Ice"));
        assert_eq!(index.exact("fire"), None);
        assert_eq!(name(index.face_match("Ice")), Some("Fire // Ice"));
        assert_eq!(index.face_match("Shock"), None);
    }
}
