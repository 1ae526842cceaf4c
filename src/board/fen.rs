//! Position text forms (docs/rules.md §9.2, §9.3), read with nom: the Hub
//! 51-character string and the PDN FEN (`W:W31-50:B1-20`, `K` prefix,
//! ranges, tolerant of case, spaces, a trailing `.` and extra fields).

use super::bitboard::{Bitboard, squares};
use super::position::{Color, Position};
use super::square::Square;
use nom::branch::alt;
use nom::character::complete::{char, multispace0, one_of, u32 as number};
use nom::combinator::{all_consuming, opt};
use nom::multi::separated_list0;
use nom::sequence::{delimited, preceded};
use nom::{IResult, Parser};
use std::fmt;

/// Why a position string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A Hub position must have exactly 51 characters.
    Length(usize),
    /// The side-to-move character is not `W` or `B`.
    Side(char),
    /// A square character is not one of `w b W B e`.
    Character { square: u32, ch: char },
    /// A square number outside 1..50.
    SquareNumber(u32),
    /// A square listed twice.
    Duplicate(u32),
    /// A man on its own side's promotion row (docs/rules.md D12).
    ManOnPromotionRow { square: u32, color: Color },
    /// The FEN does not follow the grammar; says what was expected where.
    Syntax(String),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Length(n) => {
                write!(f, "bad position: {n} characters, a Hub position has 51")
            }
            PositionError::Side(c) => {
                write!(f, "bad position: side to move '{c}', expected W or B")
            }
            PositionError::Character { square, ch } => write!(
                f,
                "bad position: character '{ch}' on square {square}, expected w, b, W, B or e"
            ),
            PositionError::SquareNumber(n) => {
                write!(f, "bad position: square {n} is not in 1..50")
            }
            PositionError::Duplicate(n) => write!(f, "bad position: square {n} given twice"),
            PositionError::ManOnPromotionRow { square, color } => write!(
                f,
                "bad position: {} man on square {square}, its own promotion row",
                if *color == Color::White {
                    "white"
                } else {
                    "black"
                }
            ),
            PositionError::Syntax(s) => write!(f, "bad position: {s}"),
        }
    }
}

impl std::error::Error for PositionError {}

/// Checks the piece sets and builds the position.
fn build(
    white: Bitboard,
    black: Bitboard,
    kings: Bitboard,
    side: Color,
) -> Result<Position, PositionError> {
    for (men, color) in [
        (white & !kings, Color::White),
        (black & !kings, Color::Black),
    ] {
        if let Some(s) = squares(men & color.promotion_row()).next() {
            return Err(PositionError::ManOnPromotionRow {
                square: s.number(),
                color,
            });
        }
    }
    Ok(Position::new(white, black, kings, side))
}

fn side_char(c: char) -> Result<Color, PositionError> {
    match c {
        'W' | 'w' => Ok(Color::White),
        'B' | 'b' => Ok(Color::Black),
        c => Err(PositionError::Side(c)),
    }
}

/// One Hub square character: (colour, king) or empty.
fn hub_square(input: &str) -> IResult<&str, Option<(Color, bool)>> {
    let (rest, c) = one_of("wbWBe.").parse(input)?;
    let piece = match c {
        'w' => Some((Color::White, false)),
        'b' => Some((Color::Black, false)),
        'W' => Some((Color::White, true)),
        'B' => Some((Color::Black, true)),
        _ => None,
    };
    Ok((rest, piece))
}

/// Reads a Hub position: side (`W`/`B`) then squares 1..50 (`w b W B e`).
pub fn parse_hub(s: &str) -> Result<Position, PositionError> {
    let s = s.trim();
    let n = s.chars().count();
    if n != 51 {
        return Err(PositionError::Length(n));
    }
    let mut chars = s.chars();
    let side = side_char(chars.next().unwrap_or(' '))?;
    let (mut white, mut black, mut kings) = (0, 0, 0);
    let mut rest = chars.as_str();
    for number in 1..=50 {
        let sq = Square::from_number(number).ok_or(PositionError::SquareNumber(number))?;
        match hub_square(rest) {
            Ok((r, piece)) => {
                rest = r;
                match piece {
                    Some((Color::White, k)) => {
                        white |= sq.mask();
                        kings |= if k { sq.mask() } else { 0 };
                    }
                    Some((Color::Black, k)) => {
                        black |= sq.mask();
                        kings |= if k { sq.mask() } else { 0 };
                    }
                    None => {}
                }
            }
            Err(_) => {
                let ch = rest.chars().next().unwrap_or(' ');
                return Err(PositionError::Character { square: number, ch });
            }
        }
    }
    build(white, black, kings, side)
}

/// Writes the Hub position string.
pub fn to_hub(pos: &Position) -> String {
    let mut s = String::with_capacity(51);
    s.push(if pos.side() == Color::White { 'W' } else { 'B' });
    for sq in Square::all() {
        s.push(match pos.piece_at(sq) {
            None => 'e',
            Some((Color::White, false)) => 'w',
            Some((Color::Black, false)) => 'b',
            Some((Color::White, true)) => 'W',
            Some((Color::Black, true)) => 'B',
        });
    }
    s
}

/// A FEN list item: king flag and a square range (a single square is a..a).
type Item = (bool, u32, u32);

fn ws<'a, O, P>(p: P) -> impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>
where
    P: Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>,
{
    delimited(multispace0, p, multispace0)
}

fn item(input: &str) -> IResult<&str, Item> {
    let (rest, king) = opt(ws(one_of("Kk"))).parse(input)?;
    let (rest, a) = ws(number).parse(rest)?;
    let (rest, b) = opt(preceded(ws(char('-')), ws(number))).parse(rest)?;
    Ok((rest, (king.is_some(), a, b.unwrap_or(a))))
}

/// A section: colour letter and its list, or any other field (ignored).
enum Section {
    Pieces(Color, Vec<Item>),
    Other,
}

fn section(input: &str) -> IResult<&str, Section> {
    alt((
        (ws(one_of("WwBb")), separated_list0(ws(char(',')), item)).map(|(c, items)| {
            let color = if c.eq_ignore_ascii_case(&'w') {
                Color::White
            } else {
                Color::Black
            };
            Section::Pieces(color, items)
        }),
        nom::bytes::complete::take_while(|c| c != ':').map(|_| Section::Other),
    ))
    .parse(input)
}

fn fen(input: &str) -> IResult<&str, (char, Vec<Section>)> {
    all_consuming((
        ws(one_of("WwBb")),
        nom::multi::many0(preceded(char(':'), section)),
        opt(ws(char('.'))),
    ))
    .map(|(side, sections, _)| (side, sections))
    .parse(input)
}

/// Reads a PDN FEN such as `W:W31-50:B1-20` or `B:W28,K5:BK1`.
pub fn parse_fen(s: &str) -> Result<Position, PositionError> {
    let s = s.trim().trim_matches('"');
    let (_, (side, sections)) = fen(s).map_err(|e| {
        let at = match &e {
            nom::Err::Error(e) | nom::Err::Failure(e) => s.len() - e.input.len(),
            nom::Err::Incomplete(_) => s.len(),
        };
        PositionError::Syntax(format!(
            "FEN not understood at character {} (expected W:W<squares>:B<squares>)",
            at + 1
        ))
    })?;
    let side = side_char(side)?;
    let (mut white, mut black, mut kings) = (0u64, 0u64, 0u64);
    for sec in sections {
        let Section::Pieces(color, items) = sec else {
            continue;
        };
        for (king, a, b) in items {
            if a > b {
                return Err(PositionError::Syntax(format!("empty square range {a}-{b}")));
            }
            for n in a..=b {
                let sq = Square::from_number(n).ok_or(PositionError::SquareNumber(n))?;
                if (white | black) & sq.mask() != 0 {
                    return Err(PositionError::Duplicate(n));
                }
                match color {
                    Color::White => white |= sq.mask(),
                    Color::Black => black |= sq.mask(),
                }
                if king {
                    kings |= sq.mask();
                }
            }
        }
    }
    build(white, black, kings, side)
}

/// Writes a FEN: both sections, squares ascending, kings with `K`, no ranges.
pub fn to_fen(pos: &Position) -> String {
    let list = |c: Color| {
        squares(pos.pieces(c))
            .map(|s| {
                if pos.kings() & s.mask() != 0 {
                    format!("K{s}")
                } else {
                    s.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "{}:W{}:B{}",
        if pos.side() == Color::White { 'W' } else { 'B' },
        list(Color::White),
        list(Color::Black)
    )
}

/// Reads either form: a 51-character Hub string or a FEN (has a `:`).
pub fn parse_any(s: &str) -> Result<Position, PositionError> {
    if s.contains(':') {
        parse_fen(s)
    } else {
        parse_hub(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START_HUB: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

    #[test]
    fn start_position_in_both_forms() {
        let p = Position::start();
        assert_eq!(to_hub(&p), START_HUB);
        assert_eq!(parse_hub(START_HUB).unwrap(), p);
        assert_eq!(parse_fen("W:W31-50:B1-20").unwrap(), p);
        assert_eq!(parse_fen(" w : w31-50 : b1-20 . ").unwrap(), p);
        assert_eq!(parse_fen(&to_fen(&p)).unwrap(), p);
    }

    #[test]
    fn kings_empty_lists_and_extra_fields() {
        let p = parse_fen("B:W28,K5:BK1,K2-4").unwrap();
        assert_eq!(p.side(), Color::Black);
        assert_eq!(to_fen(&p), "B:WK5,28:BK1,K2,K3,K4");
        assert_eq!(to_fen(&parse_fen("B:W:B13").unwrap()), "B:W:B13");
        assert_eq!(to_fen(&parse_fen("W:W28:B").unwrap()), "W:W28:B");
        assert_eq!(to_fen(&parse_fen("W:W28:B19:H0:F1").unwrap()), "W:W28:B19");
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(parse_hub("Wbbb"), Err(PositionError::Length(4)));
        let mut bad = START_HUB.to_string();
        bad.replace_range(10..11, "x");
        assert_eq!(
            parse_hub(&bad),
            Err(PositionError::Character {
                square: 10,
                ch: 'x'
            })
        );
        let side = format!("X{}", &START_HUB[1..]);
        assert_eq!(parse_hub(&side), Err(PositionError::Side('X')));
        assert_eq!(parse_fen("W:W51:B1"), Err(PositionError::SquareNumber(51)));
        assert_eq!(parse_fen("W:W0:B1"), Err(PositionError::SquareNumber(0)));
        assert_eq!(parse_fen("W:W28:B28"), Err(PositionError::Duplicate(28)));
        assert_eq!(
            parse_fen("W:W3:B40"),
            Err(PositionError::ManOnPromotionRow {
                square: 3,
                color: Color::White
            })
        );
        assert_eq!(
            parse_fen("W:W30:B47"),
            Err(PositionError::ManOnPromotionRow {
                square: 47,
                color: Color::Black
            })
        );
        assert!(matches!(
            parse_fen("W:W3x:B4"),
            Err(PositionError::Syntax(_))
        ));
        assert!(matches!(
            parse_fen("Q:W3:B4"),
            Err(PositionError::Syntax(_))
        ));
        assert!(matches!(
            parse_fen("W:W30-20:B4"),
            Err(PositionError::Syntax(_))
        ));
        assert!(matches!(parse_fen(""), Err(PositionError::Syntax(_))));
        assert!(parse_fen("W:W99999999999999999999:B1").is_err());
    }
}
