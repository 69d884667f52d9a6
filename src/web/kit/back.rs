//! Where a form's write goes back to (its page, naming the entry it wrote) and the words of that entry a page
//! may show.

/// An audit line as the web may show it: cut before the first backquote (a command to type) and its lead-in.
pub fn web_words(summary: &str) -> String {
    match summary.find('`') {
        None => summary.to_string(),
        Some(i) => {
            let head = summary[..i].trim_end_matches([' ', '(', ':', ';', ',']);
            let head = head.strip_suffix(" use").or_else(|| head.strip_suffix(" with")).unwrap_or(head);
            head.trim_end_matches([' ', '(', ':', ';', ',']).to_string()
        }
    }
}

/// The address a form goes back to, naming the entry it wrote: `back` with `done=ID` (an earlier `done`
/// replaced, any other query kept), before its fragment (`/judge#check-in` goes back to `/judge?done=6#check-in`:
/// after the `#` the page would never see it).
pub fn back_to(back: &str, id: Option<i64>) -> String {
    let Some(id) = id else { return back.to_string() };
    let (back, fragment) = match back.split_once('#') {
        Some((b, f)) => (b, format!("#{f}")),
        None => (back, String::new()),
    };
    let (path, query) = back.split_once('?').unwrap_or((back, ""));
    let mut parts: Vec<&str> = query.split('&').filter(|p| !p.is_empty() && !p.starts_with("done=")).collect();
    let done = format!("done={id}");
    parts.push(&done);
    format!("{path}?{}{fragment}", parts.join("&"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn back_to_names_the_entry_once() {
        assert_eq!(back_to("/judge", Some(4)), "/judge?done=4");
        assert_eq!(back_to("/judge?done=3", Some(4)), "/judge?done=4");
        assert_eq!(back_to("/judge/table/2?x=1&done=3", Some(9)), "/judge/table/2?x=1&done=9");
        assert_eq!(back_to("/judge", None), "/judge");
        assert_eq!(back_to("/judge#check-in", Some(6)), "/judge?done=6#check-in");
        assert_eq!(back_to("/judge?done=2#check-in", Some(6)), "/judge?done=6#check-in");
    }

    #[test]
    fn an_audit_line_loses_its_command() {
        assert_eq!(web_words("penalty #3: Warning; use `mmjudge result fix 1` if needed"), "penalty #3: Warning");
        assert_eq!(web_words("round 1 closed"), "round 1 closed");
    }
}
