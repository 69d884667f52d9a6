//! `penalty`, `penalties` and `ruling`.

use clap::Args;

/// `penalty`: record a penalty, or `penalty void ID`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, arg_required_else_help = true, after_help = INFRACTIONS_HELP)]
pub struct PenaltyCmd {
    /// `void`: void a penalty given by mistake.
    #[command(subcommand)]
    pub void: Option<super::corrections::VoidResultSub>,
    /// The penalty to record.
    #[command(flatten)]
    pub record: Option<PenaltyArgs>,
}

/// `penalty`: record a penalty after the infraction procedure guide.
#[derive(Debug, Args)]
pub struct PenaltyArgs {
    /// The penalised player (any unambiguous prefix).
    pub player: String,
    /// The infraction (its name, dashes or spaces, or a unique prefix: "slow" is slow-play).
    pub infraction: String,
    /// The match: a table (in the current round unless --round). Default: the player's match in that round.
    #[arg(value_parser = crate::cli::bounds::table, long, value_name = "T")]
    pub table: Option<u32>,
    /// The round (default: the current round).
    #[arg(value_parser = crate::cli::bounds::round, long, value_name = "N")]
    pub round: Option<u32>,
    /// The head judge's choice of penalty instead of the guide's: none, warning, game-loss, match-loss, dq.
    #[arg(long, value_name = "P")]
    pub penalty: Option<String>,
    /// A remark (what happened).
    #[arg(long, value_name = "TEXT")]
    pub note: Option<String>,
    /// When (HH:MM today or RFC 3339; default now).
    #[arg(long, value_name = "TIME")]
    pub at: Option<String>,
}

/// The infractions with their default penalties and the upgrade rules, for `penalty --help`.
pub const INFRACTIONS_HELP: &str = "Infractions and default penalties:\n  \
none:             missed-trigger\n  \
warning:          looking-at-extra-cards, hidden-card-error, mulligan-procedure-error, game-rule-violation,\n                    \
failure-to-maintain-game-state, slow-play, deck-problem, limited-procedure-violation,\n                    \
communication-policy-violation, marked-cards, insufficient-shuffling, minor-unsporting-conduct\n  \
game-loss:        tardiness, decklist-problem\n  \
match-loss:       outside-assistance, major-unsporting-conduct, improperly-determining-a-winner,\n                    \
bribery-and-wagering\n  \
disqualification: aggressive-behaviour, theft-of-tournament-material, stalling, cheating\n\n\
Upgrades (the guide's own rules, counted per player and infraction over the event): a game play error's 3rd \
Warning (looking at extra cards, hidden card error, mulligan procedure error, game rule violation) and a \
tournament error's or minor unsporting conduct's 2nd Warning become a Game Loss; failure to maintain game state \
is never upgraded.\nA match is one game, so a Game Loss or Match Loss ends the player's match (the opponent wins, \
reason `penalty`); a disqualification also ends it and removes the player from the standings and pairings.";

/// `penalties` options.
#[derive(Debug, Args)]
pub struct PenaltiesArgs {
    /// Only this player's penalties.
    #[arg(long, value_name = "P")]
    pub player: Option<String>,
}

/// `ruling`: log a ruling, or `ruling void ID`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, arg_required_else_help = true)]
pub struct RulingCmd {
    /// `void`: void a ruling logged by mistake.
    #[command(subcommand)]
    pub void: Option<super::corrections::VoidSub>,
    /// The ruling to log.
    #[command(flatten)]
    pub record: Option<RulingArgs>,
}

/// `ruling` options.
#[derive(Debug, Args)]
pub struct RulingArgs {
    /// The table (in the current round unless --round).
    #[arg(value_parser = crate::cli::bounds::table)]
    pub table: u32,
    /// What the judge ruled.
    pub text: String,
    /// The round (default: the current round).
    #[arg(value_parser = crate::cli::bounds::round, long, value_name = "N")]
    pub round: Option<u32>,
    /// When (HH:MM today or RFC 3339; default now).
    #[arg(long, value_name = "TIME")]
    pub at: Option<String>,
}

#[cfg(test)]
mod tests {
    use crate::domain::penalty::Infraction;

    #[test]
    fn the_help_lists_every_infraction_under_its_default_penalty() {
        // Group lines start with two spaces and the penalty; continuation lines are indented further.
        let mut groups: Vec<String> = Vec::new();
        for line in super::INFRACTIONS_HELP.lines().take_while(|l| !l.is_empty()).skip(1) {
            match groups.last_mut() {
                Some(g) if line.starts_with("    ") => g.push_str(line),
                _ => groups.push(line.trim().to_string()),
            }
        }
        for i in Infraction::ALL {
            let group = groups.iter().find(|g| g.split([' ', ',', ':']).any(|w| w == i.slug()));
            let group = group.unwrap_or_else(|| panic!("{} missing from the help", i.slug()));
            assert!(group.starts_with(i.default_penalty().slug()), "{} listed under {group}", i.slug());
        }
    }
}
