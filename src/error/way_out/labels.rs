//! The web's words name a box or a button by the label its page shows (in “quotes”), and every box on a served
//! page reads as a sentence a judge would say: both checked against the templates themselves.

use super::WayOut;

/// The templates of the served pages, each with its `{{ ... }}` values as `#` and its whitespace as single spaces.
fn served_pages() -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/web");
    let mut pages = Vec::new();
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let Ok(text) = std::fs::read_to_string(entry.path()) else { continue };
        let mut plain = String::new();
        let mut rest = text.as_str();
        while let Some(at) = rest.find("{{") {
            plain.push_str(&rest[..at]);
            plain.push('#');
            rest = rest[at..].find("}}").map_or("", |end| &rest[at + end + 2..]);
        }
        plain.push_str(rest);
        pages.push((
            entry.file_name().to_string_lossy().into_owned(),
            plain.split_whitespace().collect::<Vec<_>>().join(" "),
        ));
    }
    pages
}

/// A label as a template writes it: its numbers are the template's values.
fn as_in_a_template(label: &str) -> String {
    let mut out = String::new();
    for c in label.chars() {
        if c.is_ascii_digit() {
            if !out.ends_with('#') {
                out.push('#');
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn every_box_and_button_the_web_names_is_on_a_page_by_its_label() {
    let pages = served_pages();
    assert!(pages.len() > 10, "the templates are found");
    let on_a_page = |label: &str| {
        let wanted = as_in_a_template(label);
        pages.iter().any(|(_, p)| p.contains(&wanted) || p.contains(label))
    };
    let mut named = Vec::new();
    for w in WayOut::samples() {
        let words = w.web();
        let mut rest = words.as_str();
        while let Some(open) = rest.find('“') {
            let after = &rest[open + '“'.len_utf8()..];
            let Some(close) = after.find('”') else { break };
            named.push((after[..close].to_string(), words.clone()));
            rest = &after[close..];
        }
    }
    for t in super::Tick::ALL {
        if let Some(label) = t.label() {
            named.push((label.to_string(), format!("{t:?}")));
        }
    }
    assert!(named.len() >= 10, "the web's words name boxes: {named:?}");
    let missing: Vec<_> = named.iter().filter(|(label, _)| !on_a_page(label)).collect();
    assert!(missing.is_empty(), "labels no template shows: {missing:#?}");
}

#[test]
fn every_checkbox_on_a_page_reads_as_a_sentence() {
    for (file, page) in served_pages() {
        let mut rest = page.as_str();
        while let Some(at) = rest.find("type=\"checkbox\"") {
            rest = &rest[at + 15..];
            let Some(end) = rest.find('>') else { break };
            let text = &rest[end + 1..];
            let label = text.split('<').next().unwrap_or_default().trim();
            if label.is_empty() {
                continue; // a box labelled by aria-label (a note chosen as evidence)
            }
            let first = label.chars().next().unwrap_or(' ');
            assert!(
                first.is_uppercase() && !label.starts_with("force") && !label.starts_with("allow"),
                "{file}: the box “{label}” does not read as a sentence a judge would say"
            );
        }
    }
}
