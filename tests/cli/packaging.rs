//! What the release ships beside the program: the MSI's WiX source (`wix/main.wxs`, dist's template kept by
//! `allow-dirty = ["msi"]` in `dist-workspace.toml`) gives a Start-menu entry that runs `mmjudge open`.

use std::path::Path;

fn read(file: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// An element of the WiX source: its name, its attributes and the elements inside it.
#[derive(Debug)]
struct Element {
    name: String,
    attributes: Vec<(String, String)>,
    children: Vec<Element>,
}

impl Element {
    fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Every element inside this one (at any depth) named `name`, with the chain of its ancestors' names.
    fn find<'a>(&'a self, name: &str, path: &mut Vec<&'a Element>, out: &mut Vec<(Vec<&'a Element>, &'a Element)>) {
        for child in &self.children {
            if child.name == name {
                out.push((path.clone(), child));
            }
            path.push(child);
            child.find(name, path, out);
            path.pop();
        }
    }

    fn all(&self, name: &str) -> Vec<(Vec<&Element>, &Element)> {
        let mut out = Vec::new();
        self.find(name, &mut vec![self], &mut out);
        out
    }
}

/// A small reader of the XML the WiX file is written in (elements, attributes in single or double quotes,
/// comments, processing instructions): panics where the file is not well-formed (an end tag that closes
/// another element, an unclosed element or comment, text outside the root).
fn parse(xml: &str) -> Element {
    let mut stack = vec![Element { name: String::new(), attributes: Vec::new(), children: Vec::new() }];
    let mut rest = xml;
    while let Some(open) = rest.find('<') {
        assert!(stack.len() > 1 || rest[..open].trim().is_empty(), "text outside the root: {:?}", &rest[..open]);
        rest = &rest[open..];
        if let Some(after) = rest.strip_prefix("<!--") {
            let end = after.find("-->").expect("a comment is closed");
            rest = &after[end + 3..];
        } else if let Some(after) = rest.strip_prefix("<?") {
            let end = after.find("?>").expect("a processing instruction is closed");
            rest = &after[end + 2..];
        } else if let Some(after) = rest.strip_prefix("</") {
            let end = after.find('>').expect("an end tag is closed");
            let name = after[..end].trim();
            let done = stack.pop().expect("an element to close");
            assert_eq!(done.name, name, "</{name}> closes <{}>", done.name);
            stack.last_mut().expect("a parent").children.push(done);
            rest = &after[end + 1..];
        } else {
            let end = rest.find('>').expect("a start tag is closed");
            let tag = &rest[1..end];
            let (tag, empty) = match tag.strip_suffix('/') {
                Some(t) => (t, true),
                None => (tag, false),
            };
            let name_end = tag.find(char::is_whitespace).unwrap_or(tag.len());
            let mut element =
                Element { name: tag[..name_end].to_string(), attributes: Vec::new(), children: Vec::new() };
            let mut attrs = tag[name_end..].trim_start();
            while !attrs.is_empty() {
                let eq = attrs.find('=').unwrap_or_else(|| panic!("an attribute has a value in <{tag}>"));
                let quote = attrs[eq + 1..].chars().next().expect("a quoted value");
                assert!(quote == '\'' || quote == '"', "a quoted value in <{tag}>");
                let value = &attrs[eq + 2..];
                let close = value.find(quote).unwrap_or_else(|| panic!("a closed value in <{tag}>"));
                element.attributes.push((attrs[..eq].trim().to_string(), value[..close].to_string()));
                attrs = value[close + 1..].trim_start();
            }
            if empty {
                stack.last_mut().expect("a parent").children.push(element);
            } else {
                stack.push(element);
            }
            rest = &rest[end + 1..];
        }
    }
    assert!(rest.trim().is_empty(), "text after the root: {rest:?}");
    assert_eq!(stack.len(), 1, "unclosed: {:?}", stack.iter().skip(1).map(|e| &e.name).collect::<Vec<_>>());
    let mut document = stack.pop().expect("the document");
    assert_eq!(document.children.len(), 1, "one root element");
    document.children.pop().expect("the root")
}

/// The MSI puts "mmjudge" in the Start menu: a shortcut to the installed `mmjudge.exe` with the argument `open`
/// (the event served and opened in the browser), in a component of the installed feature whose key path is a
/// per-user registry value and that removes the entry on uninstall, as WiX 3 requires of a Start-menu shortcut.
#[test]
fn the_msi_puts_a_start_menu_entry_that_runs_open() {
    let wix = parse(&read("wix/main.wxs"));
    assert_eq!(wix.name, "Wix");
    let exe = wix.all("File").into_iter().map(|(_, f)| f).find(|f| f.attribute("Name") == Some("mmjudge.exe"));
    let exe_id = exe.and_then(|f| f.attribute("Id")).expect("the MSI installs mmjudge.exe");

    let shortcuts = wix.all("Shortcut");
    assert_eq!(shortcuts.len(), 1, "one shortcut");
    let (ancestors, shortcut) = &shortcuts[0];
    assert_eq!(shortcut.attribute("Name"), Some("mmjudge"));
    assert_eq!(shortcut.attribute("Target"), Some(format!("[#{exe_id}]").as_str()), "the installed program");
    assert_eq!(shortcut.attribute("Arguments"), Some("open"), "double-clicked, it runs `mmjudge open`");
    assert!(
        ancestors.iter().any(|e| e.name == "Directory" && e.attribute("Id") == Some("ProgramMenuFolder")),
        "in the Start menu's folder"
    );
    let component = ancestors.last().expect("a parent");
    assert_eq!(component.name, "Component");
    assert!(component.attribute("Guid").is_some_and(|g| g.len() == 36), "a component GUID of its own");
    let registry = component.children.iter().find(|c| c.name == "RegistryValue").expect("a registry value");
    assert_eq!(registry.attribute("KeyPath"), Some("yes"));
    assert_eq!(registry.attribute("Root"), Some("HKCU"));
    let remove = component.children.iter().find(|c| c.name == "RemoveFolder").expect("a RemoveFolder");
    assert_eq!(remove.attribute("On"), Some("uninstall"));

    let id = component.attribute("Id").expect("the component's id");
    let refs = wix.all("ComponentRef");
    let (features, _) = refs.iter().find(|(_, r)| r.attribute("Id") == Some(id)).expect("installed by a feature");
    let feature = features.last().expect("the feature");
    assert_eq!(feature.name, "Feature");
    assert_eq!(feature.attribute("Id"), Some("Binaries"), "the feature that cannot be left out");
}

/// dist keeps the edited WiX file (`dist generate --check` passes with it, .ci/run) only with `allow-dirty`
/// naming the MSI; without it dist would ask to regenerate the file without the shortcut.
#[test]
fn dist_keeps_the_edited_wix_file() {
    let config = read("dist-workspace.toml");
    assert!(config.lines().any(|l| l.trim() == r#"allow-dirty = ["msi"]"#), "{config}");
}
