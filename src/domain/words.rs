//! Counted words for messages: "1 copy", "3 copies", "sat once", "sat twice", "sat 4 times".

/// `n` and the noun, singular for 1 and plural otherwise: `count(1, "point")` is "1 point",
/// `count(3, "copy")` is "3 copies". The plural follows English spelling for the nouns mmjudge counts.
pub fn count(n: impl TryInto<i64>, noun: &str) -> String {
    let n = n.try_into().unwrap_or(i64::MAX);
    format!("{n} {}", noun_for(n, noun))
}

/// The noun alone, singular for 1 and plural otherwise.
pub fn noun_for(n: impl TryInto<i64>, noun: &str) -> String {
    if n.try_into().is_ok_and(|n: i64| n == 1) { noun.to_string() } else { plural(noun) }
}

/// How many times: "once", "twice", "3 times".
pub fn times(n: impl TryInto<i64>) -> String {
    match n.try_into().unwrap_or(i64::MAX) {
        1 => "once".into(),
        2 => "twice".into(),
        n => format!("{n} times"),
    }
}

/// A wait as a person says it: "45 s" under a minute and a half, else in whole minutes rounded up ("about 10
/// minutes"), so a phone's answer reads as a wait and not a count.
pub fn wait(secs: u64) -> String {
    if secs < 90 {
        return format!("{secs} s");
    }
    format!("about {}", count(secs.div_ceil(60), "minute"))
}

/// The plural of an English noun as mmjudge uses them.
pub fn plural(noun: &str) -> String {
    let irregular = [("match", "matches"), ("bye", "byes"), ("library", "libraries"), ("copy", "copies")];
    if let Some((_, many)) = irregular.iter().find(|(one, _)| *one == noun) {
        return (*many).to_string();
    }
    let ends = |s: &str| noun.ends_with(s);
    if ends("s") || ends("x") || ends("ch") || ends("sh") {
        format!("{noun}es")
    } else if ends("y") && !["ay", "ey", "oy", "uy"].iter().any(|v| noun.ends_with(v)) {
        format!("{}ies", &noun[..noun.len() - 1])
    } else {
        format!("{noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_reads_in_seconds_then_minutes() {
        assert_eq!(wait(45), "45 s");
        assert_eq!(wait(89), "89 s");
        assert_eq!(wait(596), "about 10 minutes");
        assert_eq!(wait(61 * 60), "about 61 minutes");
    }

    #[test]
    fn counts_nouns() {
        assert_eq!(count(1, "copy"), "1 copy");
        assert_eq!(count(3, "copy"), "3 copies");
        assert_eq!(count(0, "point"), "0 points");
        assert_eq!(count(1, "point"), "1 point");
        assert_eq!(count(2, "match"), "2 matches");
        assert_eq!(count(2, "day"), "2 days");
        assert_eq!(count(2, "penalty"), "2 penalties");
        assert_eq!(count(2, "box"), "2 boxes");
        assert_eq!(count(-1, "minute"), "-1 minutes");
        assert_eq!((times(1), times(2), times(5)), ("once".into(), "twice".into(), "5 times".into()));
    }
}
