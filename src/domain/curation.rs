//! Pool curation: the `pool check` report a judge reads before building libraries.
//!
//! The rules ("The Decks") ask judges to choose cards for playability: no unusable cards
//! (`{R}{R}{R}{R}{3}`), limited use of very restrictive cards, and a close watch on very
//! abusive ones (`{X}{B}`). Each printed cost in the pool is one [`CostGroup`]; the caller
//! computes its class (the real cards a copy may be declared as) from the card reference.
//! Abusive means the class holds a watched card (Mind Twist by default, or one the judges add);
//! a banned card in a class is information only, since nobody may declare it.

use serde::Serialize;

/// One printed mana cost in the pool, with the facts the caller found in the card reference.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CostGroup {
    /// Canonical cost, e.g. `{1}{B}`.
    pub cost: String,
    /// Shorthand cost, e.g. `1B`.
    pub shorthand: String,
    /// Pool copies with this printed cost.
    pub copies: u32,
    /// Names of the pool cards with this printed cost.
    pub names: Vec<String>,
    /// Real cards a copy of this cost may be declared as (its class).
    pub class_size: u32,
    /// Most coloured symbols of one colour in the cost (`{B}{B}{1}` gives 2).
    pub max_same_color: u32,
    /// Whether the cost contains `{X}` (informational: the class already accounts for it).
    pub has_x: bool,
    /// Watch-listed cards in the class that a copy may be declared as (banned cards never count: no player
    /// may declare them).
    pub dangerous: Vec<String>,
}

/// What a judge should know about a cost group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Flag {
    /// The class is so small that copies are nearly useless (`{R}{R}{R}{R}{3}`).
    Unusable,
    /// A small class or a heavy colour requirement: allowed, in limited numbers.
    Restrictive,
    /// The class holds a watch-listed card a player may declare (`{X}{B}` holds Mind Twist).
    Abusive,
}

/// One flag raised on a cost group, with its reason in a judge's words.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// The flag raised.
    pub flag: Flag,
    /// One line a judge reads, naming the cost and the consequence.
    pub reason: String,
}

/// Thresholds for the flags; [`Default`] gives the recommended ones.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CurationLimits {
    /// A class of at most this many real cards is unusable (default 2).
    pub unusable_max_class: u32,
    /// A class of fewer than this many real cards is restrictive (default 12).
    pub small_class: u32,
    /// This many coloured symbols of one colour (or more) is restrictive (default 3).
    pub heavy_color: u32,
}

impl Default for CurationLimits {
    fn default() -> Self {
        Self { unusable_max_class: 2, small_class: 12, heavy_color: 3 }
    }
}

/// Flags raised on one cost group, in the order unusable, restrictive, abusive.
///
/// An unusable group is not also flagged restrictive for its small class (the stronger flag
/// says it), but a heavy colour requirement is still reported.
pub fn curation_flags(g: &CostGroup, limits: &CurationLimits) -> Vec<Finding> {
    let mut found = Vec::new();
    let unusable = g.class_size <= limits.unusable_max_class;
    if unusable {
        found.push(finding(Flag::Unusable, unusable_reason(g)));
    } else if g.class_size < limits.small_class {
        found.push(finding(Flag::Restrictive, small_class_reason(g, limits)));
    }
    if g.max_same_color >= limits.heavy_color {
        found.push(finding(Flag::Restrictive, heavy_color_reason(g, limits)));
    }
    if !g.dangerous.is_empty() {
        found.push(finding(Flag::Abusive, abusive_reason(g)));
    }
    found
}

fn finding(flag: Flag, reason: String) -> Finding {
    Finding { flag, reason }
}

fn unusable_reason(g: &CostGroup) -> String {
    match g.class_size {
        0 => format!(
            "no real card costs {}: its {} pool {} can never be declared",
            g.cost,
            g.copies,
            plural(g.copies, "copy", "copies")
        ),
        n => format!(
            "only {n} real {} {} {}: players cannot declare it {}",
            plural(n, "card", "cards"),
            plural(n, "costs", "cost"),
            g.cost,
            declared_again(n)
        ),
    }
}

/// How a judge says "once the class is used up".
fn declared_again(n: u32) -> String {
    match n {
        1 => "twice".to_string(),
        2 => "a third time".to_string(),
        _ => format!("more than {n} times"),
    }
}

fn small_class_reason(g: &CostGroup, limits: &CurationLimits) -> String {
    format!(
        "only {} real cards cost {}: few templates to choose from (fewer than {})",
        g.class_size, g.cost, limits.small_class
    )
}

fn heavy_color_reason(g: &CostGroup, limits: &CurationLimits) -> String {
    let need = match heaviest_color(&g.cost, g.max_same_color) {
        Some(colour) => format!("{} {colour} mana", g.max_same_color),
        None => format!("{} mana of one colour", g.max_same_color),
    };
    format!("{} needs {need}: hard to cast ({} or more of one colour)", g.cost, limits.heavy_color)
}

/// The colour name whose `{C}` symbol occurs exactly `count` times in a canonical cost.
fn heaviest_color(cost: &str, count: u32) -> Option<&'static str> {
    const COLOURS: [(&str, &str); 5] =
        [("{W}", "white"), ("{U}", "blue"), ("{B}", "black"), ("{R}", "red"), ("{G}", "green")];
    COLOURS.iter().find(|(symbol, _)| cost.matches(symbol).count() == count as usize).map(|(_, name)| *name)
}

fn abusive_reason(g: &CostGroup) -> String {
    format!("{} can be declared as {}: watch these copies or leave them out", g.cost, join_names(&g.dangerous))
}

/// `a`, `a and b`, `a, b and c`.
pub fn join_names(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn plural<'a>(n: u32, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// Groups and copies carrying one flag.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct FlagCount {
    /// Cost groups carrying the flag.
    pub groups: u32,
    /// Pool copies in those groups.
    pub copies: u32,
}

/// Totals over the whole pool check.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct CurationSummary {
    /// Cost groups checked.
    pub groups: u32,
    /// Pool copies checked.
    pub copies: u32,
    /// Groups flagged unusable.
    pub unusable: FlagCount,
    /// Groups flagged restrictive (once per group, whatever the number of reasons).
    pub restrictive: FlagCount,
    /// Groups flagged abusive.
    pub abusive: FlagCount,
    /// Groups with no flag at all.
    pub clean: FlagCount,
    /// Copies not in an unusable group: what a builder may use.
    pub usable_copies: u32,
}

/// Counts per flag over all groups, and the copies still usable.
pub fn summarize(groups: &[CostGroup], limits: &CurationLimits) -> CurationSummary {
    let mut s = CurationSummary::default();
    for g in groups {
        let flags = curation_flags(g, limits);
        let has = |f: Flag| flags.iter().any(|x| x.flag == f);
        s.groups = s.groups.saturating_add(1);
        s.copies = s.copies.saturating_add(g.copies);
        for (flag, count) in [
            (Flag::Unusable, &mut s.unusable),
            (Flag::Restrictive, &mut s.restrictive),
            (Flag::Abusive, &mut s.abusive),
        ] {
            if has(flag) {
                add(count, g.copies);
            }
        }
        if flags.is_empty() {
            add(&mut s.clean, g.copies);
        }
        if !has(Flag::Unusable) {
            s.usable_copies = s.usable_copies.saturating_add(g.copies);
        }
    }
    s
}

fn add(count: &mut FlagCount, copies: u32) {
    count.groups = count.groups.saturating_add(1);
    count.copies = count.copies.saturating_add(copies);
}

/// The word for a flag.
pub fn flag_word(flag: Flag) -> &'static str {
    match flag {
        Flag::Unusable => "unusable",
        Flag::Restrictive => "restrictive",
        Flag::Abusive => "abusive",
    }
}

/// `a, b, c and 4 more`.
pub fn short_list(names: &[String], n: usize) -> String {
    let mut text = names.iter().take(n).cloned().collect::<Vec<_>>().join(", ");
    if names.len() > n {
        text.push_str(&format!(" and {} more", names.len() - n));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(cost: &str, copies: u32, class: u32, same: u32, dangerous: &[&str]) -> CostGroup {
        CostGroup {
            cost: cost.to_string(),
            shorthand: cost.replace(['{', '}'], ""),
            copies,
            names: vec!["Some Card".to_string()],
            class_size: class,
            max_same_color: same,
            has_x: cost.contains("{X}"),
            dangerous: dangerous.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn flags(g: &CostGroup) -> Vec<Flag> {
        curation_flags(g, &CurationLimits::default()).into_iter().map(|f| f.flag).collect()
    }

    #[test]
    fn flags_follow_class_size_colour_and_danger() {
        use Flag::*;
        let cases: Vec<(CostGroup, Vec<Flag>)> = vec![
            (group("{1}{B}", 4, 300, 1, &[]), vec![]),
            (group("{R}{R}{R}{R}{3}", 1, 2, 4, &[]), vec![Unusable, Restrictive]),
            (group("{7}{U}", 1, 0, 1, &[]), vec![Unusable]),
            (group("{1}{U}{B}", 2, 1, 1, &[]), vec![Unusable]),
            (group("{2}{W}{U}", 2, 3, 1, &[]), vec![Restrictive]),
            (group("{2}{G}", 2, 11, 1, &[]), vec![Restrictive]),
            (group("{2}{G}", 2, 12, 1, &[]), vec![]),
            (group("{B}{B}{B}", 2, 40, 3, &[]), vec![Restrictive]),
            (group("{B}{B}", 2, 40, 2, &[]), vec![]),
            (group("{U}", 3, 90, 1, &["Ancestral Recall"]), vec![Abusive]),
            (group("{X}{B}", 1, 5, 1, &["Mind Twist"]), vec![Restrictive, Abusive]),
        ];
        for (g, want) in cases {
            assert_eq!(flags(&g), want, "{}", g.cost);
        }
    }

    #[test]
    fn limits_change_the_thresholds() {
        let limits = CurationLimits { unusable_max_class: 0, small_class: 3, heavy_color: 5 };
        let g = group("{R}{R}{R}{R}{3}", 1, 2, 4, &[]);
        let got: Vec<Flag> = curation_flags(&g, &limits).iter().map(|f| f.flag).collect();
        assert_eq!(got, vec![Flag::Restrictive]);
    }

    #[test]
    fn reasons_read_as_one_line_for_a_judge() {
        let limits = CurationLimits::default();
        let reason =
            |g: CostGroup| -> Vec<String> { curation_flags(&g, &limits).into_iter().map(|f| f.reason).collect() };
        assert_eq!(
            reason(group("{R}{R}{R}{R}{3}", 1, 2, 4, &[])),
            vec![
                "only 2 real cards cost {R}{R}{R}{R}{3}: players cannot declare it a third time",
                "{R}{R}{R}{R}{3} needs 4 red mana: hard to cast (3 or more of one colour)",
            ]
        );
        assert_eq!(
            reason(group("{1}{U}{B}", 1, 1, 1, &[])),
            vec!["only 1 real card costs {1}{U}{B}: players cannot declare it twice"]
        );
        assert_eq!(
            reason(group("{8}{U}", 3, 0, 1, &[])),
            vec!["no real card costs {8}{U}: its 3 pool copies can never be declared"]
        );
        assert_eq!(
            reason(group("{2}{G}", 2, 7, 1, &[])),
            vec!["only 7 real cards cost {2}{G}: few templates to choose from (fewer than 12)"]
        );
        assert_eq!(
            reason(group("{0}", 5, 60, 0, &["Black Lotus", "Mox Pearl", "Mox Ruby"])),
            vec!["{0} can be declared as Black Lotus, Mox Pearl and Mox Ruby: watch these copies or leave them out"]
        );
        assert_eq!(
            reason(group("{W/U}{W/U}{W/U}", 1, 20, 3, &[])),
            vec!["{W/U}{W/U}{W/U} needs 3 mana of one colour: hard to cast (3 or more of one colour)"]
        );
    }

    #[test]
    fn summary_counts_groups_and_copies_per_flag() {
        let groups = vec![
            group("{1}{B}", 10, 300, 1, &[]),
            group("{R}{R}{R}{R}{3}", 1, 2, 4, &[]),
            group("{2}{G}", 2, 7, 1, &[]),
            group("{U}", 3, 90, 1, &["Ancestral Recall"]),
        ];
        let s = summarize(&groups, &CurationLimits::default());
        assert_eq!(s.groups, 4);
        assert_eq!(s.copies, 16);
        assert_eq!(s.unusable, FlagCount { groups: 1, copies: 1 });
        assert_eq!(s.restrictive, FlagCount { groups: 2, copies: 3 });
        assert_eq!(s.abusive, FlagCount { groups: 1, copies: 3 });
        assert_eq!(s.clean, FlagCount { groups: 1, copies: 10 });
        assert_eq!(s.usable_copies, 15);
    }
}
