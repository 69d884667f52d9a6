//! `cards` and `ban` verbs.

use clap::Subcommand;
use std::path::PathBuf;

/// The card reference: every real card a player may declare.
#[derive(Debug, Subcommand)]
pub enum CardsCmd {
    /// Load cards (CSV, MTGJSON or Scryfall JSON, detected from the content): adds new cards, updates known ones, keeps the rest.
    Import {
        /// The file.
        file: PathBuf,
        /// Start from an empty reference instead of adding to it.
        #[arg(long)]
        replace: bool,
        /// With --replace: replace even while a round is being played.
        #[arg(long, requires = "replace")]
        force: bool,
    },
    /// Find cards by name (forgiving typos, accents and punctuation), or by what they say with --text.
    Find {
        /// Part of a card name.
        #[arg(required_unless_present = "words")]
        name: Option<String>,
        /// Words of the card's rules text ("draw a card"), best matches first.
        #[arg(long = "text", value_name = "WORDS", conflicts_with = "name")]
        words: Option<String>,
        /// With --text: only cards a card of this printed cost may be declared as (its binding class).
        #[arg(long, requires = "words")]
        cost: Option<String>,
        /// With --cost under an alphabet binding rule: the printed card's first letter.
        #[arg(long, requires = "cost")]
        letter: Option<char>,
        /// With --text: only cards with this word in their type line (creature, instant, ...).
        #[arg(long = "type", value_name = "TYPE", requires = "words")]
        type_word: Option<String>,
        /// Most results to show.
        #[arg(long, default_value_t = 10)]
        limit: usize,
    },
    /// Everything about one card: cost, type, text, rulings, Mental Magic status and rulings.
    Show {
        /// The card's name (typos forgiven; a back face or split half names its card).
        name: String,
        /// Also say whether it was already declared in the game at this table.
        #[arg(long, value_name = "T")]
        table: Option<u32>,
        /// The round of --table (default: the current round).
        #[arg(long, value_name = "N", requires = "table")]
        round: Option<u32>,
    },
    /// Add Scryfall's rulings bulk file to the reference's cards (matched by Oracle id).
    ImportRulings {
        /// The rulings file (JSON).
        file: PathBuf,
    },
    /// Every real card a card of this printed cost may be declared as (its binding class).
    Cost {
        /// The printed card.
        #[command(flatten)]
        printed: PrintedArgs,
    },
    /// Is NAME a legal declaration for a card of printed cost COST? Exit 0 if legal, 1 with the reason if not.
    Check {
        /// The printed card.
        #[command(flatten)]
        printed: PrintedArgs,
        /// The declared card's name.
        name: String,
    },
}

/// The printed card a `cards cost` / `cards check` asks about, and the game whose templates are already used.
#[derive(Debug, clap::Args)]
pub struct PrintedArgs {
    /// The printed cost: {1}{B} or the note form B1 (or `land` for a printed land card).
    pub cost: String,
    /// The printed card's first letter (alphabet binding rules).
    #[arg(long)]
    pub letter: Option<char>,
    /// Also refuse / leave out the templates already declared in the game at this table.
    #[arg(value_parser = crate::cli::bounds::table, long, value_name = "T")]
    pub table: Option<u32>,
    /// The round of --table (default: the current round).
    #[arg(value_parser = crate::cli::bounds::round, long, value_name = "N", requires = "table")]
    pub round: Option<u32>,
}

impl PrintedArgs {
    /// The game named by `--table T [--round N]`, if any.
    pub fn game(&self) -> Option<(u32, Option<u32>)> {
        self.table.map(|t| (t, self.round))
    }
}

/// The event's ban list.
#[derive(Debug, Subcommand)]
pub enum BanCmd {
    /// Show the ban list by group.
    List,
    /// Ban a card.
    Add {
        /// The card's name (checked against the reference).
        name: String,
        /// Ban group: ante-dexterity, deck-stacking, mass-reanimation or too-powerful.
        #[arg(long)]
        group: String,
        /// Why (default: the group's reason).
        #[arg(long)]
        reason: Option<String>,
        /// Ban a name the reference does not know.
        #[arg(long)]
        force: bool,
    },
    /// Lift a ban.
    Remove {
        /// The card's name.
        name: String,
    },
}

/// `rules` options.
#[derive(Debug, clap::Args)]
pub struct RulesArgs {
    /// A rule id (MM.3h) or words to search for (hybrid); none lists every rule.
    pub query: Vec<String>,
}
