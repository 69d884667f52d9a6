//! The layering rules of the source, checked by reading `src/` as text:
//!
//! 1. nothing outside `src/commands/` (but `main.rs` and `lib.rs`, which run the command line) uses
//!    `crate::commands`: what a view or a page needs from a command belongs in `ops`, `domain` or `render`;
//! 2. no command module uses another (`commands/x.rs` or `commands/x/..` naming `commands::y`, directly,
//!    through `super::y` or `crate::commands::y`): what two of them share moves down to `ops` or `domain`
//!    (`commands/mod.rs`, the dispatcher, and its items such as `Ctx` are for every command);
//! 3. SQL is written only in `src/store/` (a string literal starting with SELECT, INSERT, UPDATE, DELETE,
//!    CREATE or PRAGMA, or an `include_str!` of a `.sql` file, anywhere else).
//!
//! The code keeps all three; [`ALLOWED`] (once the list of places not yet moved down to `ops`) is empty and
//! stays so: the test fails on any violation.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Recorded exceptions, `(file under src/, module it uses)`: none remain (every command group now calls `ops`).
/// The list may never grow again: what two front-end modules share belongs in `ops`, `domain` or `render`.
const ALLOWED: &[(&str, &str)] = &[];

/// One broken rule: the file, the module it uses (or the SQL it holds), and which rule.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Violation {
    file: String,
    target: String,
    rule: Rule,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Rule {
    CommandsOutside,
    GroupUsesGroup,
    SqlOutsideStore,
}

impl Rule {
    fn explain(self) -> &'static str {
        match self {
            Rule::CommandsOutside => {
                "new use of `commands` outside src/commands/: only src/commands/ (and main.rs, lib.rs) may use `commands`: move what is shared into ops/, domain/ \
                 or render/ and import it from there"
            }
            Rule::GroupUsesGroup => {
                "new use of one command module by another: a command module may not use another: move what both need into ops/ (actions and \
                 views) or domain/ (pure rules), and have both import it from there"
            }
            Rule::SqlOutsideStore => {
                "SQL outside src/store/: SQL belongs in src/store/; add a store function with bound parameters and call it"
            }
        }
    }
}

#[test]
fn layering_rules_hold_except_for_the_recorded_ones() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found: BTreeSet<Violation> = rust_files(&src).iter().flat_map(|f| check_file(&src, f)).collect();
    let allowed: BTreeSet<(String, String)> = ALLOWED.iter().map(|(f, m)| (f.to_string(), m.to_string())).collect();

    let mut problems = Vec::new();
    for rule in [Rule::CommandsOutside, Rule::GroupUsesGroup, Rule::SqlOutsideStore] {
        let new: Vec<String> = found
            .iter()
            .filter(|v| v.rule == rule)
            .filter(|v| rule == Rule::SqlOutsideStore || !allowed.contains(&(v.file.clone(), v.target.clone())))
            .map(|v| format!("  {} uses {}", v.file, v.target))
            .collect();
        if !new.is_empty() {
            problems.push(format!("{}:\n{}", rule.explain(), new.join("\n")));
        }
    }
    let happening: BTreeSet<(String, String)> = found.iter().map(|v| (v.file.clone(), v.target.clone())).collect();
    let gone: Vec<String> = allowed
        .iter()
        .filter(|entry| !happening.contains(*entry))
        .map(|(file, module)| format!("  (\"{file}\", \"{module}\")"))
        .collect();
    if !gone.is_empty() {
        problems.push(format!(
            "fixed, well done: remove these entries from ALLOWED in tests/cli/layering.rs (the list only shrinks):\n{}",
            gone.join("\n")
        ));
    }
    assert!(
        problems.is_empty(),
        "layering rules broken (see the top of tests/cli/layering.rs):\n{}",
        problems.join("\n")
    );
}

/// Every `.rs` file under `dir`, sorted.
pub(crate) fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())).flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The module path of a file: `src/commands/clock/decide.rs` is `commands::clock::decide`, `.../mod.rs` its
/// folder, `lib.rs` and `main.rs` the crate root.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

/// The modules directly inside `src/commands/` (files and folders).
fn command_modules(src: &Path) -> BTreeSet<String> {
    std::fs::read_dir(src.join("commands"))
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().trim_end_matches(".rs").to_string())
                .filter(|n| n != "mod")
                .collect()
        })
        .unwrap_or_default()
}

/// The code of a file without its comment lines (`//`, `///`, `//!`).
pub(crate) fn code_of(text: &str) -> String {
    text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

fn check_file(src: &Path, file: &Path) -> Vec<Violation> {
    let rel = file.strip_prefix(src).unwrap_or(file);
    let name = format!("src/{}", rel.to_string_lossy().replace('\\', "/"));
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{name}: {e}"));
    let code = code_of(&text);
    let here = module_of(rel);
    let groups = command_modules(src);
    let mut out = Vec::new();

    let in_commands = here.first().is_some_and(|m| m == "commands");
    // The property tests drive every importer, whichever command module holds it today: test code, not a layer.
    let test_code = name == "src/commands/input_props.rs";
    let runs_cli = name == "src/lib.rs" || name == "src/main.rs" || test_code;
    let in_commands = in_commands && !test_code;
    for target in used_paths(&code, &here) {
        if target.first().is_none_or(|m| m != "commands") {
            continue;
        }
        let used_group = target.get(1).filter(|g| groups.contains(*g));
        if !in_commands && !runs_cli {
            let shown = match used_group {
                Some(g) => format!("commands::{g}"),
                None => "commands".to_string(),
            };
            out.push(Violation { file: name.clone(), target: shown, rule: Rule::CommandsOutside });
        } else if in_commands {
            let own_group = here.get(1);
            if let (Some(own), Some(used)) = (own_group, used_group)
                && own != used
            {
                out.push(Violation {
                    file: name.clone(),
                    target: format!("commands::{used}"),
                    rule: Rule::GroupUsesGroup,
                });
            }
        }
    }

    if here.first().is_none_or(|m| m != "store") {
        for sql in sql_literals(&code) {
            out.push(Violation { file: name.clone(), target: format!("SQL {sql:?}"), rule: Rule::SqlOutsideStore });
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Every module path the code names through `crate::`, `super::` or `self::`, made absolute from `here`;
/// a `{a, b::c, self}` group gives one path per item.
fn used_paths(code: &str, here: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let starts_word = i == 0 || !(is_ident(chars[i - 1]) || chars[i - 1] == ':');
        let rest: String = chars[i..chars.len().min(i + 7)].iter().collect();
        if starts_word && (rest.starts_with("crate::") || rest.starts_with("super::") || rest.starts_with("self::")) {
            let (paths, end) = parse_path(&chars, i, here);
            out.extend(paths);
            i = end.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// Parses a path starting at `start`: segments separated by `::`, maybe ending in a `{...}` group.
fn parse_path(chars: &[char], start: usize, here: &[String]) -> (Vec<Vec<String>>, usize) {
    let mut base: Vec<String> = Vec::new();
    let mut i = start;
    let mut first = true;
    loop {
        let s = i;
        while i < chars.len() && is_ident(chars[i]) {
            i += 1;
        }
        let seg: String = chars[s..i].iter().collect();
        match seg.as_str() {
            "crate" if first => base.clear(),
            "self" if first => base = here.to_vec(),
            "super" => {
                if first {
                    base = here.to_vec();
                }
                base.pop();
            }
            "" => break,
            _ => base.push(seg),
        }
        first = false;
        if chars.get(i) == Some(&':') && chars.get(i + 1) == Some(&':') {
            i += 2;
            if chars.get(i) == Some(&'{') {
                let (items, end) = group_items(chars, i);
                let paths = items
                    .into_iter()
                    .map(|item| {
                        let mut p = base.clone();
                        p.extend(
                            item.split("::").map(str::trim).filter(|s| *s != "self" && !s.is_empty()).map(String::from),
                        );
                        p
                    })
                    .collect();
                return (paths, end);
            }
        } else {
            break;
        }
    }
    (vec![base], i)
}

/// The top-level items of a `{...}` group starting at `open` (only their paths, without `as` renames or
/// nested groups' insides), and the index after the closing brace.
fn group_items(chars: &[char], open: usize) -> (Vec<String>, usize) {
    let mut depth = 0;
    let mut items = Vec::new();
    let mut current = String::new();
    let mut i = open;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '{' => {
                depth += 1;
                if depth > 1 {
                    current.push(c);
                }
            }
            '}' => {
                depth -= 1;
                if depth == 0 {
                    items.push(std::mem::take(&mut current));
                    i += 1;
                    break;
                }
                current.push(c);
            }
            ',' if depth == 1 => items.push(std::mem::take(&mut current)),
            _ => current.push(c),
        }
        i += 1;
    }
    let items = items
        .into_iter()
        .map(|item| {
            let path = item.split('{').next().unwrap_or("").split(" as ").next().unwrap_or("");
            path.trim().trim_end_matches("::").to_string()
        })
        .filter(|p| !p.is_empty())
        .collect();
    (items, i)
}

/// String literals that start like SQL, and `include_str!` of `.sql` files.
fn sql_literals(code: &str) -> Vec<String> {
    const KEYWORDS: [&str; 6] = ["SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "PRAGMA"];
    let mut out = Vec::new();
    for (i, _) in code.match_indices('"') {
        let after = code[i + 1..].trim_start();
        for k in KEYWORDS {
            if after.starts_with(k) && after[k.len()..].starts_with(|c: char| c.is_whitespace()) {
                out.push(after.chars().take_while(|c| *c != '"' && *c != '\n').take(40).collect());
            }
        }
    }
    for (i, _) in code.match_indices("include_str!(") {
        let arg = code[i..].split(')').next().unwrap_or("");
        if arg.contains(".sql") {
            out.push(arg.to_string());
        }
    }
    out
}

#[test]
fn the_checker_sees_each_kind_of_use() {
    let here: Vec<String> = ["commands", "clock", "decide"].iter().map(|s| s.to_string()).collect();
    let code = "use super::{Ctx, name_of};\nuse crate::commands::table::resolve_match;\n\
                let p = super::super::player::resolve(tx)?;\nuse crate::commands::{notes, pool_import::{self, X}};";
    let paths: Vec<String> = used_paths(code, &here).iter().map(|p| p.join("::")).collect();
    assert_eq!(
        paths,
        [
            "commands::clock::Ctx",
            "commands::clock::name_of",
            "commands::table::resolve_match",
            "commands::player::resolve",
            "commands::notes",
            "commands::pool_import",
        ]
    );
    assert_eq!(sql_literals("let q = \"SELECT id FROM player\";\nlet s = \"Selected\";").len(), 1);
    assert_eq!(sql_literals("const M: &str = include_str!(\"migrations/x.sql\");").len(), 1);
}

/// The second laptop's room (`src/replica/`): it uses no front end (`web`, `commands`, `cli`), no renderer and no
/// `ops` (which use it: `ops::standby`'s promotion probes the other laptop), and
/// it alone talks to another server: no file outside it opens a connection (`TcpStream::connect`) or uses hyper's
/// client (`ops` and `web` call [`replica::client`]).
#[test]
fn the_second_laptop_is_one_room_that_alone_talks_to_the_other_laptop() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut problems = Vec::new();
    for file in rust_files(&src) {
        let rel = file.strip_prefix(&src).unwrap_or(&file);
        let name = format!("src/{}", rel.to_string_lossy().replace('\\', "/"));
        let code = code_of(&std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{name}: {e}")));
        let here = module_of(rel);
        if here.first().is_some_and(|m| m == "replica") {
            for target in used_paths(&code, &here) {
                if target.first().is_some_and(|m| ["web", "commands", "cli", "render", "ops"].contains(&m.as_str())) {
                    problems
                        .push(format!("  {name} uses {}: the room uses no front end and no ops", target.join("::")));
                }
            }
        } else {
            for talks in ["TcpStream::connect", "hyper::client", "hyper_util::client"] {
                if code.contains(talks) {
                    problems.push(format!("  {name} uses {talks}: another server is reached through replica::client"));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "the second laptop's room is broken (see tests/cli/layering.rs):\n{}",
        problems.join("\n")
    );
}

/// The server's own rooms (`src/web/`): the kit (`web::kit`, its rooms listed in its `mod.rs`) is used by
/// every handler module and uses none; the handler modules (every other module directly in `src/web/` but the
/// frame: the router `routes`, its `layers`, the second laptop's `laptops`, the root `mod.rs` and `listen`) use
/// the kit,
/// `ops`, `render` and `domain`, never each other; and no file of `src/web/` reaches itself again through the
/// files it uses (`use super::...`, `crate::web::...` or a path written in the code).
#[test]
fn the_server_has_rooms_without_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let problems = web_problems(&src);
    assert!(problems.is_empty(), "the server's rooms are broken (see tests/cli/layering.rs):\n{}", problems.join("\n"));
}

/// The modules of `src/web/` that are not handler modules: the root, the router, its layers, the second laptop's
/// gate and watchers, the listener and the kit.
const WEB_FRAME: [&str; 6] = ["", "routes", "layers", "laptops", "listen", "kit"];

/// Every broken rule of the server's rooms, one line each.
fn web_problems(src: &Path) -> Vec<String> {
    let files = rust_files(&src.join("web"));
    let mut modules: Vec<(Vec<String>, String)> = files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(src).unwrap_or(f);
            (module_of(rel), format!("src/{}", rel.to_string_lossy().replace('\\', "/")))
        })
        .collect();
    modules.sort();
    let file_of = |path: &[String]| -> Option<usize> {
        (1..=path.len()).rev().find_map(|n| modules.iter().position(|(m, _)| m.as_slice() == &path[..n]))
    };
    // The rooms: what follows `web::` (the root's own items are the frame's "").
    let room = |i: usize| modules[i].0.get(1).cloned().unwrap_or_default();
    let mut edges: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); modules.len()];
    for (i, file) in files.iter().enumerate() {
        let rel = file.strip_prefix(src).unwrap_or(file);
        let here = module_of(rel);
        let i = modules.iter().position(|(m, _)| *m == here).unwrap_or(i);
        let code = code_of(&std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display())));
        for target in used_paths(&code, &here) {
            if target.first().is_none_or(|m| m != "web") {
                continue;
            }
            if let Some(j) = file_of(&target)
                && j != i
            {
                edges[i].insert(j);
            }
        }
    }
    let mut problems = Vec::new();
    for (i, used) in edges.iter().enumerate() {
        let from = room(i);
        if WEB_FRAME.contains(&from.as_str()) {
            if from == "kit" {
                for &j in used {
                    if room(j) != "kit" {
                        problems.push(format!(
                            "  {} uses {}: the kit uses no other part of the server (move what it needs into the kit)",
                            modules[i].1, modules[j].1
                        ));
                    }
                }
            }
            continue;
        }
        for &j in used {
            let to = room(j);
            if to != from && to != "kit" {
                problems.push(format!(
                    "  {} uses {}: a handler module uses only the kit, ops, render and domain (move what both need into src/web/kit/)",
                    modules[i].1, modules[j].1
                ));
            }
        }
    }
    for circle in circles(&edges) {
        let names: Vec<&str> = circle.iter().map(|&i| modules[i].1.as_str()).collect();
        problems.push(format!("  an import circle: {} (and back)", names.join(" -> ")));
    }
    problems
}

/// The strongly connected groups of more than one node (Tarjan's algorithm), each in index order.
fn circles(edges: &[BTreeSet<usize>]) -> Vec<Vec<usize>> {
    struct Walk<'a> {
        edges: &'a [BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on_stack: Vec<bool>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(w: &mut Walk, v: usize) {
        w.index[v] = Some(w.next);
        w.low[v] = w.next;
        w.next += 1;
        w.stack.push(v);
        w.on_stack[v] = true;
        for &u in w.edges[v].iter() {
            match w.index[u] {
                None => {
                    visit(w, u);
                    w.low[v] = w.low[v].min(w.low[u]);
                }
                Some(iu) if w.on_stack[u] => w.low[v] = w.low[v].min(iu),
                Some(_) => {}
            }
        }
        if Some(w.low[v]) == w.index[v] {
            let mut group = Vec::new();
            while let Some(u) = w.stack.pop() {
                w.on_stack[u] = false;
                group.push(u);
                if u == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                w.out.push(group);
            }
        }
    }
    let n = edges.len();
    let mut w = Walk {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        stack: Vec::new(),
        on_stack: vec![false; n],
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if w.index[v].is_none() {
            visit(&mut w, v);
        }
    }
    w.out
}

#[test]
fn the_circle_finder_sees_a_circle_and_only_that() {
    let edges: Vec<BTreeSet<usize>> = vec![[1].into(), [2].into(), [0].into(), [0, 4].into(), BTreeSet::new()];
    assert_eq!(circles(&edges), vec![vec![0, 1, 2]]);
}

/// What a command module may not hold: the command line only parses, calls `ops` and prints.
/// `(what is found, why it is refused)`, matched in the code (comments left out) before any `#[cfg(test)]`
/// module (a unit test may set up and inspect its event file directly).
const NOT_IN_COMMANDS: &[(&str, &str)] = &[
    (".conn()", "reads the event file itself: call an `ops` function with the store (see ops::views, ops::demo)"),
    ("askama::", "draws a page itself: pages belong in render/ (askama templates in templates/)"),
    ("#[template", "draws a page itself: pages belong in render/ (askama templates in templates/)"),
    ("std::thread", "runs threads: work spread over threads belongs in ops/ (as ops::site::write does)"),
    ("thread::spawn", "runs threads: work spread over threads belongs in ops/ (as ops::site::write does)"),
    ("thread::scope", "runs threads: work spread over threads belongs in ops/ (as ops::site::write does)"),
    (".scope(|", "runs threads: work spread over threads belongs in ops/ (as ops::site::write does)"),
];

/// Each line of `src/commands/` holding something of [`NOT_IN_COMMANDS`], as `file:line: what`.
fn front_end_violations(src: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for file in rust_files(&src.join("commands")) {
        let rel = file.strip_prefix(src).unwrap_or(&file).to_string_lossy().replace('\\', "/");
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{rel}: {e}"));
        for (n, line) in text.lines().enumerate().take_while(|(_, l)| l.trim() != "#[cfg(test)]") {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for (what, why) in NOT_IN_COMMANDS {
                if line.contains(what) {
                    out.push(format!("  src/{rel}:{}: `{what}` {why}", n + 1));
                }
            }
        }
    }
    out
}

#[test]
fn commands_only_parse_call_ops_and_print() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = front_end_violations(&src);
    assert!(
        found.is_empty(),
        "src/commands/ reads the event file, draws pages or runs threads (each belongs in ops/ or render/):\n{}",
        found.join("\n")
    );
}

/// Routes are named once: in the server's routes table (`src/web/routes.rs`), or in a constant the table takes
/// its path from (`pub const LOG: &str = "/api/standby/log"`: the wire between the laptops, a job's progress).
/// No other code of the server, the second laptop's room, `ops` or the store names a route, or a route's name
/// (`"POST /api/note"`), to decide anything: what is true of a route is read from its row. (Page addresses a
/// page links or sends a phone to, such as `/judge`, are links, not routes named; tests are not checked.)
#[test]
fn routes_are_named_once_in_the_routes_table() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let table = std::fs::read_to_string(src.join("web/routes.rs")).unwrap_or_default();
    let routes = mmjudge::web::routes::routes();
    assert!(routes.len() > 90, "the table is registered: {}", routes.len());
    let apis: Vec<&str> = routes.iter().map(|r| r.path).filter(|p| p.starts_with("/api/")).collect();
    let mut problems = Vec::new();
    for dir in ["web", "replica", "ops", "store"] {
        for file in rust_files(&src.join(dir)) {
            let rel = file.strip_prefix(&src).unwrap_or(&file).to_string_lossy().replace('\\', "/");
            if rel == "web/routes.rs" {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            for (n, line) in code.lines().enumerate().filter(|(_, l)| !l.trim_start().starts_with("//")) {
                let literals = line.split('"').skip(1).step_by(2);
                for lit in literals {
                    let named = lit.starts_with("GET /")
                        || lit.starts_with("POST /")
                        || apis.iter().any(|p| lit == *p || lit.strip_prefix(p).is_some_and(|q| q.starts_with('?')));
                    if !named {
                        continue;
                    }
                    let constant = line.trim_start().strip_prefix("pub const ").and_then(|c| c.split(':').next());
                    if constant.is_some_and(|c| table.contains(&format!("::{c}")) || table.contains(&format!("({c})")))
                    {
                        continue;
                    }
                    problems.push(format!("  src/{rel}:{}: names the route {lit:?}", n + 1));
                }
            }
        }
    }
    assert!(problems.is_empty(), "a route named outside the routes table:\n{}", problems.join("\n"));
}
