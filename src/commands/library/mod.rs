//! `library`: build the balanced main libraries, list and show them, swap a card, print the deck sheets and
//! register sealed libraries. The rules and store calls are in [`crate::ops::library`]; these files parse,
//! call them and print.

mod register;
mod sheets;
mod show;
mod swap;

use super::Ctx;
use crate::cli::library::LibraryCmd;
use crate::domain::library::BUCKETS;
use crate::error::Result;
use crate::ops::library::balance::LibraryLine;
use crate::ops::library::supply::LeftOut;
use crate::ops::library::{AddTablesInput, AddedTables, Basics, BuildInput, Built, WorstPair, left_out_names};
use crate::render::{Format, Listing, emit, human_text};

/// Runs a `library` verb.
pub fn run(ctx: &Ctx, cmd: LibraryCmd) -> Result<()> {
    match cmd {
        LibraryCmd::Build { tables, seed, force, size, utopia, keep_unusable } => {
            build(ctx, BuildInput { tables, seed, force, size, utopia, keep_unusable })
        }
        LibraryCmd::AddTables { tables, seed, keep_unusable } => {
            add_tables(ctx, AddTablesInput { tables, seed, keep_unusable })
        }
        LibraryCmd::List => show::list(ctx),
        LibraryCmd::Show { library } => show::show(ctx, &library),
        LibraryCmd::Swap { library, out, card_in, force } => swap::swap(ctx, &library, &out, &card_in, force),
        LibraryCmd::Sheets { dir, force } => sheets::write(ctx, &dir, force),
        LibraryCmd::Register { player, file, sideboard, allow_unknown, force } => {
            register::register(ctx, &player, &file, sideboard.as_deref(), allow_unknown, force)
        }
    }
}

fn build(ctx: &Ctx, input: BuildInput) -> Result<()> {
    input.check()?;
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let built = crate::ops::library::build(&mut store, &actor, input)?;
    print_built(ctx.format, &built)
}

fn add_tables(ctx: &Ctx, input: AddTablesInput) -> Result<()> {
    input.check()?;
    let mut store = ctx.open()?;
    let actor = ctx.actor()?;
    let added = crate::ops::library::add_tables(&mut store, &actor, input)?;
    print_added(ctx.format, &added)
}

fn basics_line(b: &Basics, libraries: u32, utopia: u32) -> String {
    format!(
        "Utopia: {libraries} libraries x {utopia} basic lands = {} basic lands to set out (the pool holds {}: find {} more)",
        b.needed, b.in_pool, b.to_find
    )
}

/// The footer lines on unusable costs: what was left out, or (with `--keep-unusable`) what is in.
fn unusable_lines(footer: &mut Vec<String>, left_out: &[LeftOut], kept: &[String]) {
    if !left_out.is_empty() {
        footer.push(format!(
            "left out for unusable costs (see `mmjudge pool check`): {}; --keep-unusable builds them in",
            left_out_names(left_out)
        ));
    }
    if !kept.is_empty() {
        footer.push(format!(
            "kept in with --keep-unusable, though their costs are unusable: {} (swap them out with `mmjudge library swap`)",
            kept.join(", ")
        ));
    }
}

fn print_added(format: Format, added: &AddedTables) -> Result<()> {
    let mut listing = balance_listing(&added.libraries);
    let words = crate::ops::library::tables::added_tables_words(added);
    listing.title = Some(format!("A{}", words.strip_prefix('a').unwrap_or(&words)));
    listing.footer.push(balance_line(added.mean_distance, added.worst_pair));
    listing.footer.push(basics_line(&added.basics, added.libraries.len() as u32, added.utopia));
    listing.footer.push(format!(
        "{} spell copies stay in the pool; next: `mmjudge library sheets DIR` prints the new deck sheets",
        added.spells_left
    ));
    unusable_lines(&mut listing.footer, &added.left_out, &added.unusable_in_libraries);
    if format == Format::Human {
        print!("{}", human_text(&listing));
        return Ok(());
    }
    emit(format, &listing, added)
}

/// "mean off profile 3.2; worst pair: table 4 (9 cards apart)".
fn balance_line(mean: f64, worst: Option<WorstPair>) -> String {
    let worst =
        worst.map(|w| format!("; worst pair: table {} ({:.0} cards apart)", w.table, w.distance)).unwrap_or_default();
    format!("mean off profile {mean:.1}{worst}")
}

fn print_built(format: Format, built: &Built) -> Result<()> {
    let mut listing = balance_listing(&built.libraries);
    listing.title = Some(format!(
        "Built {} of {} for {} (seed {})",
        crate::domain::words::count(built.libraries.len(), "main library"),
        crate::domain::words::count(built.size, "card"),
        crate::domain::words::count(built.tables, "table"),
        built.seed
    ));
    listing.footer.push(balance_line(built.mean_distance, built.worst_pair));
    listing.footer.push(basics_line(&built.basics, built.libraries.len() as u32, built.utopia));
    listing.footer.push(format!(
        "{} spell copies stay in the pool; next: `mmjudge library sheets DIR` for the deck sheets",
        built.spells_left
    ));
    for ended in &built.stays_ended {
        listing
            .footer
            .push(format!("{} no longer stays at table {} (it has no libraries now)", ended.name, ended.table));
    }
    if !built.removed.is_empty() {
        listing.footer.push(format!("removed libraries {}", built.removed.join(", ")));
    }
    unusable_lines(&mut listing.footer, &built.left_out, &built.unusable_in_libraries);
    if format == Format::Human {
        print!("{}", human_text(&listing));
        return Ok(());
    }
    emit(format, &listing, built)
}

/// The listing of library lines, shared by `library build` and `library list`.
pub(super) fn balance_listing(lines: &[LibraryLine]) -> Listing {
    let mut listing = Listing::new(&[
        "library",
        "cards",
        "utopia",
        "curve 0/1/2/3/4/5/6+",
        "colours W/U/B/R/G/multi/none",
        "off profile",
        "vs partner",
        "dupes",
    ]);
    let slash = |v: &[u32; BUCKETS]| v.iter().map(u32::to_string).collect::<Vec<_>>().join("/");
    for l in lines {
        listing.row(vec![
            l.library.clone(),
            l.cards.to_string(),
            l.utopia.to_string(),
            slash(&l.curve),
            slash(&l.colors),
            format!("{:.1}", l.distance_from_mean),
            l.pair_distance.map(|d| format!("{d:.0}")).unwrap_or_default(),
            l.duplicates.to_string(),
        ]);
    }
    listing.footer.push(
        "off profile: cards out of place against the pool's curve and colours scaled to the library (0 = same shape); \
         vs partner: the same count between the two libraries at a table"
            .into(),
    );
    listing
}
