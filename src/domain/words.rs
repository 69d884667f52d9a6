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
