//! `library list` and `library show`: every library's shape, one library's cards sorted by cost.

use super::Ctx;
use super::library::{find, label};
use super::library_balance::{Sources, balance_lines, balance_listing, cost_order, load_all};
use super::player::names_by_id;
use crate::domain::library::BUCKETS;
use crate::error::Result;
use crate::render::{Listing, emit};
use crate::store::library::{self as store_library, Library};
use crate::store::pool as store_pool;
use crate::store::{PoolId, cards, round};
use rusqlite::Connection;
use std::collections::HashMap;

pub fn list(ctx: &Ctx) -> Result<()> {
    let store = ctx.open()?;
    let conn = store.conn();
    let libs = load_all(conn)?;
    let (lines, worst) = balance_lines(&libs, &Sources::load(conn, &libs)?);
    let mut listing = balance_listing(&lines);
    listing.title = Some(crate::domain::words::count(lines.len(), "library"));
    if let Some((t, d)) = worst {
        listing.footer.push(format!("worst pair: table {t} ({d:.0} cards apart)"));
    }
    if libs.is_empty() {
        listing.footer =
            vec!["no libraries yet: `mmjudge library build --tables N` (or `library register` when sealed)".into()];
    }
    let doc = serde_json::json!({
        "libraries": lines,
        "worst_pair": worst.map(|(table, distance)| serde_json::json!({ "table": table, "distance": distance })),
        "locked": round::current(conn)? > 0,
    });
    emit(ctx.format, &listing, &doc)
}

/// One card of a library as shown.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ShownCard {
    /// Position in the stored library.
    pub position: u32,
    /// Card name.
    pub name: String,
    /// Printed cost.
    pub mana_cost: Option<String>,
    /// Mana value.
    pub mana_value: u32,
    /// Type line (from the pool or the reference).
    pub type_line: String,
    /// In the sealed sideboard.
    pub sideboard: bool,
}

/// A library's cards sorted by cost, with type lines from the pool or the reference.
pub fn shown_cards(conn: &Connection, lib: &Library) -> Result<Vec<ShownCard>> {
    shown_with(conn, lib, &pool_types(conn)?)
}

/// Every pool card's type line by id (load once for many libraries).
pub fn pool_types(conn: &Connection) -> Result<HashMap<PoolId, String>> {
    Ok(store_pool::all(conn)?.into_iter().map(|c| (c.id, c.type_line)).collect())
}

/// [`shown_cards`] with the pool's type lines already loaded.
pub fn shown_with(conn: &Connection, lib: &Library, pool: &HashMap<PoolId, String>) -> Result<Vec<ShownCard>> {
    let mut out = Vec::new();
    for c in store_library::cards(conn, lib.id)? {
        let type_line = match c.pool_id.and_then(|p| pool.get(&p)) {
            Some(t) => t.clone(),
            None => cards::by_name(conn, &c.name)?.map(|r| r.type_line).unwrap_or_default(),
        };
        let (mana_value, _, _) = cost_order(c.mana_cost.as_deref(), &c.name);
        out.push(ShownCard {
            position: c.position,
            name: c.name,
            mana_cost: c.mana_cost,
            mana_value,
            type_line,
            sideboard: c.sideboard,
        });
    }
    out.sort_by_key(|c| (c.sideboard, cost_order(c.mana_cost.as_deref(), &c.name)));
    Ok(out)
}

pub fn show(ctx: &Ctx, text: &str) -> Result<()> {
    let store = ctx.open()?;
    let conn = store.conn();
    let lib = find(conn, text)?;
    let players = names_by_id(conn)?;
    let name = label(&lib, &players);
    let shown = shown_cards(conn, &lib)?;
    let main: Vec<&ShownCard> = shown.iter().filter(|c| !c.sideboard).collect();
    let whereabouts = match (lib.table, &lib.seat) {
        (Some(t), Some(s)) => format!("table {t}, seat {s}"),
        _ => "sealed, travels with its player".into(),
    };
    let mut listing = Listing::new(&["#", "cost", "card", "type"]).titled(format!(
        "Library {name} ({whereabouts}): {} cards, Utopia {} basic lands",
        main.len(),
        lib.utopia
    ));
    for (i, c) in shown.iter().enumerate() {
        let n = if c.sideboard { "sb".to_string() } else { (i + 1).to_string() };
        listing.row(vec![n, c.mana_cost.clone().unwrap_or_default(), c.name.clone(), c.type_line.clone()]);
    }
    let libs = load_all(conn)?;
    let (lines, _) = balance_lines(&libs, &Sources::load(conn, &libs)?);
    let line = lines.into_iter().find(|l| l.library == name);
    if let Some(l) = &line {
        let slash = |v: &[u32; BUCKETS]| v.iter().map(u32::to_string).collect::<Vec<_>>().join("/");
        listing.footer.push(format!(
            "curve 0/1/2/3/4/5/6+: {}; colours W/U/B/R/G/multi/none: {}; off profile {:.1}{}",
            slash(&l.curve),
            slash(&l.colors),
            l.distance_from_mean,
            l.pair_distance.map(|d| format!("; {d:.0} cards apart from its partner")).unwrap_or_default()
        ));
    }
    let doc = serde_json::json!({
        "library": name, "table": lib.table, "seat": lib.seat, "player": lib.player.and_then(|p| players.get(&p)),
        "utopia": lib.utopia, "cards": shown, "balance": line,
    });
    emit(ctx.format, &listing, &doc)
}
