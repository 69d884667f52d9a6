//! Reading a cost written in brace form (`{2}{B}{B}`) or in the shorthand of players' notes (`BB2`).

use thiserror::Error;

use super::color::Color;
use super::symbol::Symbol;

/// Most symbols one cost may hold (real cards have at most 16).
pub(crate) const MAX_SYMBOLS: usize = 64;
/// Largest number one generic symbol may hold (Gleemax costs {1000000}).
const MAX_NUMBER: u32 = 1_000_000;

/// A cost that could not be read: the text given and what went wrong where.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("cannot read cost \"{input}\": {problem}; write costs like {{1}}{{B}} or B1")]
pub struct CostError {
    /// The text as given.
    pub input: String,
    /// What went wrong, with the 1-based character position where it applies.
    pub problem: CostProblem,
}

/// What went wrong while reading a cost. Positions count characters from 1.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CostProblem {
    /// Nothing but spaces was given.
    #[error("the cost is empty (write 0 for a cost of zero)")]
    Empty,
    /// A symbol that is not a mana symbol.
    #[error("unknown symbol \"{symbol}\" at character {at}")]
    UnknownSymbol {
        /// The symbol's text.
        symbol: String,
        /// Where it starts.
        at: usize,
    },
    /// A character that cannot appear in a cost.
    #[error("unexpected \"{found}\" at character {at}")]
    Unexpected {
        /// The character.
        found: char,
        /// Where it is.
        at: usize,
    },
    /// An opening brace or parenthesis without its closing one.
    #[error("\"{open}\" at character {at} is never closed")]
    Unclosed {
        /// `{` or `(`.
        open: char,
        /// Where it is.
        at: usize,
    },
    /// A number above one million.
    #[error("number at character {at} is too large")]
    NumberTooLarge {
        /// Where the number starts.
        at: usize,
    },
    /// More symbols than any cost holds.
    #[error("more than {max} symbols")]
    TooLong {
        /// The limit.
        max: usize,
    },
    /// So many different hybrid symbols that matching would try too many combinations.
    #[error("more than {max} hybrid combinations")]
    TooManyCombinations {
        /// The limit.
        max: usize,
    },
    /// A matching key must be a plain cost (no hybrid, phyrexian or half symbols).
    #[error("a matching key holds only plain symbols, found {symbol}")]
    NotPlain {
        /// The first symbol that is not plain.
        symbol: String,
    },
}

/// Reads `input` into its symbols, in the order written.
pub(crate) fn read_symbols(input: &str) -> Result<Vec<Symbol>, CostProblem> {
    let chars: Vec<(usize, char)> =
        input.chars().enumerate().filter(|(_, c)| !c.is_whitespace()).map(|(i, c)| (i + 1, c)).collect();
    if chars.is_empty() {
        return Err(CostProblem::Empty);
    }
    let mut reader = Reader { chars, next: 0 };
    let mut symbols = Vec::new();
    while let Some((at, c)) = reader.peek() {
        let symbol = match c {
            '{' => reader.enclosed('{', '}', at)?,
            '(' => reader.enclosed('(', ')', at)?,
            _ => reader.bare()?,
        };
        symbols.push(symbol);
        if symbols.len() > MAX_SYMBOLS {
            return Err(CostProblem::TooLong { max: MAX_SYMBOLS });
        }
    }
    Ok(symbols)
}

/// One part of a symbol (between slashes), with where it starts.
struct Part {
    text: String,
    at: usize,
}

/// A cursor over the non-space characters of the input, each with its 1-based position.
struct Reader {
    chars: Vec<(usize, char)>,
    next: usize,
}

impl Reader {
    fn peek(&self) -> Option<(usize, char)> {
        self.chars.get(self.next).copied()
    }

    /// Reads `{...}` or `(...)`: the parts between slashes, up to the closing character.
    fn enclosed(&mut self, open: char, close: char, at: usize) -> Result<Symbol, CostProblem> {
        self.next += 1;
        let mut parts = vec![Part { text: String::new(), at: at + 1 }];
        loop {
            let Some((pos, c)) = self.peek() else {
                return Err(CostProblem::Unclosed { open, at });
            };
            self.next += 1;
            if c == close {
                break;
            }
            if c == '/' {
                parts.push(Part { text: String::new(), at: pos + 1 });
            } else if c == '{' || c == '(' || c == '}' || c == ')' {
                return Err(CostProblem::Unexpected { found: c, at: pos });
            } else if let Some(part) = parts.last_mut() {
                part.text.push(c.to_ascii_uppercase());
            }
        }
        symbol_from_parts(&parts, at)
    }

    /// Reads a symbol written without braces: a number or a letter, then `/part` while slashes follow.
    fn bare(&mut self) -> Result<Symbol, CostProblem> {
        let start = self.peek().map_or(0, |(at, _)| at);
        let mut parts = vec![self.bare_part()?];
        while let Some((slash, '/')) = self.peek() {
            self.next += 1;
            if self.peek().is_none() {
                return Err(CostProblem::Unexpected { found: '/', at: slash });
            }
            parts.push(self.bare_part()?);
        }
        symbol_from_parts(&parts, start)
    }

    /// One unbraced part: a run of digits, or one letter.
    fn bare_part(&mut self) -> Result<Part, CostProblem> {
        let Some((at, c)) = self.peek() else {
            return Err(CostProblem::Empty);
        };
        let mut text = String::new();
        if c.is_ascii_digit() {
            while let Some((_, d)) = self.peek().filter(|(_, d)| d.is_ascii_digit()) {
                text.push(d);
                self.next += 1;
            }
        } else if c.is_alphabetic() {
            text.push(c.to_ascii_uppercase());
            self.next += 1;
        } else {
            return Err(CostProblem::Unexpected { found: c, at });
        }
        Ok(Part { text, at })
    }
}

/// Turns the slash-separated parts of one symbol into that symbol. `at` is where the symbol starts.
fn symbol_from_parts(parts: &[Part], at: usize) -> Result<Symbol, CostProblem> {
    let texts: Vec<&str> = parts.iter().map(|p| p.text.as_str()).collect();
    let first_at = parts.first().map_or(at, |p| p.at);
    let unknown = |at: usize| CostProblem::UnknownSymbol { symbol: texts.join("/"), at };
    if let Some(empty) = parts.iter().find(|p| p.text.is_empty()) {
        return Err(unknown(if parts.len() == 1 { at } else { empty.at }));
    }
    let color = |s: &str| single_char(s).and_then(Color::from_char);
    let symbol = match texts.as_slice() {
        [one] => single(one, first_at)?,
        [a, "P"] => color(a).map(Symbol::Phyrexian),
        ["2", c] | [c, "2"] => color(c).map(Symbol::TwoHybrid),
        ["C", c] | [c, "C"] => color(c).map(Symbol::ColorlessHybrid),
        [a, b] => pair(color(a), color(b), false),
        [a, b, "P"] => pair(color(a), color(b), true),
        _ => None,
    };
    symbol.ok_or_else(|| unknown(first_at))
}

/// A hybrid of two distinct colours, or `None`.
fn pair(a: Option<Color>, b: Option<Color>, phyrexian: bool) -> Option<Symbol> {
    match (a, b) {
        (Some(a), Some(b)) if a != b => Some(Symbol::hybrid(a, b, phyrexian)),
        _ => None,
    }
}

/// A symbol written with one part: a number, a colour, `C`, `S`, `X`, `Y`, `Z` or `H` + colour.
fn single(text: &str, at: usize) -> Result<Option<Symbol>, CostProblem> {
    if text.chars().all(|c| c.is_ascii_digit()) {
        let n: u32 = text.parse().ok().filter(|&n| n <= MAX_NUMBER).ok_or(CostProblem::NumberTooLarge { at })?;
        return Ok(Some(Symbol::Generic(n)));
    }
    if let Some(rest) = text.strip_prefix('H') {
        return Ok(single_char(rest).and_then(Color::from_char).map(Symbol::Half));
    }
    let Some(c) = single_char(text) else {
        return Ok(None);
    };
    Ok(match c {
        'X' => Some(Symbol::X),
        'Y' => Some(Symbol::Y),
        'Z' => Some(Symbol::Z),
        'C' => Some(Symbol::Colorless),
        'S' => Some(Symbol::Snow),
        _ => Color::from_char(c).map(Symbol::Colored),
    })
}

/// The only character of `s`, if it has exactly one.
fn single_char(s: &str) -> Option<char> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}
