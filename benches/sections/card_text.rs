//! Issue 14: card texts. Imports an AtomicCards-sized MTGJSON file (about 100 MB, generated: the full
//! reference's names, costs and types with texts taken from the shared MTGJSON set files, or synthetic
//! texts without them) under 15 s and 1 GB of memory, then times `cards show` (< 20 ms) and
//! `cards find --text` within a binding class (< 30 ms) and over the whole reference (< 60 ms).

use crate::{Figure, must, reference, time_command};
use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Builds the big file and the event, then times the commands.
pub fn run(dir: &Path, out: &mut Vec<Figure>) {
    let atomic = dir.join("atomic.json");
    let (cards, bytes) = write_atomic(&atomic);
    let db = dir.join("card-text.db");
    must(&db, &["event", "new", "Bench"]);
    let (took, peak_mb) = import_with_peak(&db, &atomic);
    let what = format!("cards import AtomicCards-like ({cards} cards, {} MB)", bytes / 1_000_000);
    out.push(Figure::time(what, took, Duration::from_secs(15)));
    out.push(Figure {
        what: "cards import: peak memory".into(),
        value: peak_mb,
        target: 1024.0,
        unit: "MB",
        at_least: false,
    });
    let ms = Duration::from_millis;
    for (what, args, target) in [
        ("cards show \"Demonic Tutor\"", &["cards", "show", "Demonic Tutor"][..], ms(20)),
        ("cards show \"demonic tutr\" (typo)", &["cards", "show", "demonic tutr"], ms(20)),
        ("cards show \"Insectile Aberration\" (back face)", &["cards", "show", "Insectile Aberration"], ms(20)),
        (
            "cards find --text \"draw a card\" --cost B1",
            &["cards", "find", "--text", "draw a card", "--cost", "B1"],
            ms(30),
        ),
        (
            "cards find --text \"destroy target creature\" --cost 2B",
            &["cards", "find", "--text", "destroy target creature", "--cost", "2B"],
            ms(30),
        ),
        ("cards find --text \"draw a card\" (all cards)", &["cards", "find", "--text", "draw a card"], ms(60)),
        (
            "cards find --text \"target creature gets\" --type creature",
            &["cards", "find", "--text", "target creature gets", "--type", "creature"],
            ms(60),
        ),
    ] {
        out.push(Figure::time(what, time_command(&db, args, 15), target));
    }
}

/// Runs the import, polling the process's peak resident memory (VmHWM) while it runs.
fn import_with_peak(db: &Path, file: &Path) -> (Duration, f64) {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_mmjudge"))
        .env("MMJUDGE_DB", db)
        .env("MMJUDGE_JUDGE", "bench")
        .args(["cards", "import", &file.to_string_lossy()])
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("run mmjudge");
    let status_file = PathBuf::from(format!("/proc/{}/status", child.id()));
    let mut peak_kb = 0u64;
    loop {
        if let Ok(text) = std::fs::read_to_string(&status_file) {
            let hwm = text.lines().find(|l| l.starts_with("VmHWM:"));
            let kb = hwm.and_then(|l| l.split_whitespace().nth(1)).and_then(|n| n.parse().ok()).unwrap_or(0);
            peak_kb = peak_kb.max(kb);
        }
        if let Ok(Some(status)) = child.try_wait() {
            assert!(status.success(), "cards import failed");
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    (start.elapsed(), peak_kb as f64 / 1024.0)
}

/// Real card texts from the shared MTGJSON set files, or a few synthetic ones.
fn texts() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dirs = ["../shared/data/mtgjson-sets", "../../shared/data/mtgjson-sets"].map(|p| root.join(p));
    let mut out = Vec::new();
    if let Some(dir) = dirs.iter().find(|d| d.is_dir()) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let Ok(bytes) = std::fs::read(entry.path()) else { continue };
            let Ok(doc) = serde_json::from_slice::<Value>(&bytes) else { continue };
            let cards = doc["data"]["cards"].as_array().cloned().unwrap_or_default();
            out.extend(cards.iter().filter_map(|c| c["text"].as_str().map(String::from)));
        }
    }
    if out.is_empty() {
        let verbs = [
            "Draw a card",
            "Destroy target creature",
            "Target creature gets +2/+2 until end of turn",
            "Counter target spell",
            "You gain 3 life",
            "Search your library for a card",
        ];
        let tails =
            ["", " and you lose 1 life", ". It can't be regenerated", " unless its controller pays {2}", ". Scry 1"];
        for v in verbs {
            for t in tails {
                out.push(format!("{v}{t}."));
            }
        }
    }
    out
}

/// Writes an AtomicCards-shaped file from the full reference, with texts, rulings and the foreign-language
/// blocks real files carry (which the import skips); returns the number of cards and bytes.
fn write_atomic(path: &Path) -> (usize, u64) {
    let texts = texts();
    let mut w = std::io::BufWriter::new(std::fs::File::create(path).expect("create atomic.json"));
    let mut reader = csv::Reader::from_path(reference()).expect("read reference");
    let header = reader.headers().expect("header").clone();
    let col = |name: &str| header.iter().position(|h| h == name);
    let (name_i, cost_i, type_i) = (col("name").unwrap_or(0), col("mana_cost").unwrap_or(1), col("type_line"));
    write!(w, "{{\"meta\":{{\"version\":\"5.2.2\"}},\"data\":{{").expect("write");
    let mut n = 0usize;
    let languages = [
        "German",
        "French",
        "Italian",
        "Spanish",
        "Portuguese (Brazil)",
        "Japanese",
        "Chinese Simplified",
        "Russian",
        "Korean",
        "Chinese Traditional",
    ];
    for (i, row) in reader.records().flatten().enumerate() {
        let name = row.get(name_i).unwrap_or("").to_string();
        if name.is_empty() || name.contains(" // ") || name == "Delver of Secrets" {
            continue;
        }
        let type_line = type_i.and_then(|t| row.get(t)).unwrap_or("Instant").to_string();
        let text = texts[i % texts.len()].clone();
        let mut card = json!({
            "name": name, "manaCost": row.get(cost_i).unwrap_or(""), "type": type_line, "layout": "normal",
            "text": text, "printings": ["LEA", "M10"], "legalities": {"vintage": "Legal", "legacy": "Legal", "commander": "Legal"},
            "identifiers": {"scryfallOracleId": format!("00000000-0000-0000-0000-{i:012}")},
            "rulings": (0..i % 4).map(|k| json!({"date": "2020-01-01", "text": texts[(i + k + 7) % texts.len()]})).collect::<Vec<_>>(),
            "foreignData": languages.iter().map(|l| json!({"language": l, "name": format!("{name} ({l})"), "text": text, "flavorText": text, "type": type_line})).collect::<Vec<_>>(),
        });
        if type_line.contains("Creature") {
            card["power"] = json!("2");
            card["toughness"] = json!("3");
        }
        if n > 0 {
            write!(w, ",").expect("write");
        }
        write!(w, "{}:[{}]", Value::String(name), card).expect("write");
        n += 1;
    }
    let back = json!([
        {"name": "Delver of Secrets // Insectile Aberration", "faceName": "Delver of Secrets", "side": "a", "layout": "transform", "manaCost": "{U}", "type": "Creature — Human Wizard", "text": "Look at the top card.", "power": "1", "toughness": "1"},
        {"name": "Delver of Secrets // Insectile Aberration", "faceName": "Insectile Aberration", "side": "b", "layout": "transform", "type": "Creature — Human Insect", "text": "Flying", "power": "3", "toughness": "2"}
    ]);
    write!(w, ",\"Delver of Secrets // Insectile Aberration\":{back}}}}}").expect("write");
    w.flush().expect("flush");
    (n + 1, std::fs::metadata(path).map_or(0, |m| m.len()))
}
