//! The live pages' styles and scripts, embedded in the binary under names that carry a hash of their content
//! (`/assets/common.3f9a0c1b2d.js`): a phone keeps each for good, and a new mmjudge's changed file has a new name,
//! so no phone ever runs an old script against a new page.

use blake2::{Blake2s256, Digest};
use std::sync::OnceLock;

/// One embedded file: its plain name (`app.js`), its content type and its bytes.
#[derive(Debug)]
pub struct Asset {
    /// The plain name, as the templates ask for it.
    pub name: &'static str,
    /// The `Content-Type` it is served with.
    pub content_type: &'static str,
    /// Its content.
    pub body: &'static str,
}

const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

const FILES: [Asset; 13] = [
    Asset { name: "common.js", content_type: JS, body: include_str!("../../templates/web/common.js") },
    Asset { name: "app.js", content_type: JS, body: include_str!("../../templates/web/app.js") },
    Asset { name: "app.css", content_type: CSS, body: include_str!("../../templates/web/app.css") },
    Asset { name: "projector.js", content_type: JS, body: include_str!("../../templates/web/projector.js") },
    Asset { name: "projector.css", content_type: CSS, body: include_str!("../../templates/web/projector.css") },
    Asset { name: "table.js", content_type: JS, body: include_str!("../../templates/web/table.js") },
    Asset { name: "table.css", content_type: CSS, body: include_str!("../../templates/web/table.css") },
    Asset { name: "queue.js", content_type: JS, body: include_str!("../../templates/web/queue.js") },
    Asset { name: "failover.js", content_type: JS, body: include_str!("../../templates/web/failover.js") },
    Asset { name: "setup.js", content_type: JS, body: include_str!("../../templates/web/setup.js") },
    Asset { name: "setup_steps.js", content_type: JS, body: include_str!("../../templates/web/setup_steps.js") },
    Asset { name: "print.js", content_type: JS, body: include_str!("../../templates/web/print.js") },
    Asset { name: "print.css", content_type: CSS, body: include_str!("../../templates/web/print.css") },
];

/// Each file's address, `/assets/STEM.HASH.EXT`, in the order of `FILES`.
fn addresses() -> &'static [String] {
    static ADDRESSES: OnceLock<Vec<String>> = OnceLock::new();
    ADDRESSES.get_or_init(|| FILES.iter().map(address_of).collect())
}

fn address_of(a: &Asset) -> String {
    let digest = Blake2s256::digest(a.body.as_bytes());
    let hash: String = digest.iter().take(5).map(|b| format!("{b:02x}")).collect();
    let (stem, ext) = a.name.rsplit_once('.').unwrap_or((a.name, ""));
    format!("/assets/{stem}.{hash}.{ext}")
}

/// The address a page links to for the embedded file `name` (`app.js`); empty for a name that is not embedded
/// (a template mistake the tests catch).
pub fn url(name: &str) -> &'static str {
    FILES.iter().zip(addresses()).find(|(a, _)| a.name == name).map(|(_, u)| u.as_str()).unwrap_or("")
}

/// The embedded file served at `path` (`/assets/app.3f9a0c1b2d.js`), if any.
pub fn at(path: &str) -> Option<&'static Asset> {
    FILES.iter().zip(addresses()).find(|(_, u)| u.as_str() == path).map(|(a, _)| a)
}

/// Every embedded file with its address.
pub fn all() -> impl Iterator<Item = (&'static Asset, &'static str)> {
    FILES.iter().zip(addresses().iter().map(String::as_str))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_file_has_a_name_that_carries_its_content_hash() {
        let common = url("common.js");
        assert!(common.starts_with("/assets/common.") && common.ends_with(".js"), "{common}");
        assert_eq!(common.len(), "/assets/common.".len() + 10 + ".js".len());
        let served = at(common).map(|a| a.name);
        assert_eq!(served, Some("common.js"));
        assert_eq!(at("/assets/common.js").map(|a| a.name), None, "the plain name is not served");
        assert_eq!(url("nothing.js"), "");
        assert_eq!(at(url("app.css")).map(|a| a.content_type), Some("text/css; charset=utf-8"));
        assert_eq!(at(url("table.js")).map(|a| a.content_type), Some("text/javascript; charset=utf-8"));
        let names: std::collections::HashSet<_> = all().map(|(_, u)| u).collect();
        assert_eq!(names.len(), FILES.len());
    }
}
