//! DXP notation (protocol/dxp.md): a move as from, to and captured squares,
//! matched against the legal moves, and the 51-character position form of
//! GAMEREQ (side to move, then squares 1..50).

use crate::board::{Color, Move, MoveList, Position, Square, fen, squares};

/// A move as DXP writes it: from, to, and the captured squares in any order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DxpMove {
    /// Seconds the sender spent on the move (informational, 0..9999).
    pub seconds: u16,
    pub from: u8,
    pub to: u8,
    pub captured: Vec<u8>,
}

/// Reads the DXP position form: side (`W`/`Z`) then squares 1..50 as
/// `e` (empty), `w`, `z` (men), `W`, `Z` (kings).
pub fn parse_position(s: &str) -> Result<Position, String> {
    let mut chars = s.chars();
    let hub_side = match chars.next() {
        Some('W') => 'W',
        Some('Z') => 'B',
        Some(c) => return Err(format!("side to move '{c}', expected W or Z")),
        None => return Err("empty position".into()),
    };
    let mut hub = String::with_capacity(51);
    hub.push(hub_side);
    for (i, c) in chars.enumerate() {
        hub.push(match c {
            'e' => 'e',
            'w' => 'w',
            'W' => 'W',
            'z' => 'b',
            'Z' => 'B',
            c => return Err(format!("character '{c}' on square {}", i + 1)),
        });
    }
    if hub.len() != 51 {
        return Err(format!("{} squares, expected 50", hub.len() - 1));
    }
    fen::parse_hub(&hub).map_err(|e| e.to_string())
}

/// Writes a position in the DXP form (see [`parse_position`]): the Hub
/// string with black's letters, `Z` and `z`, for Hub's `B` and `b`.
pub fn format_position(pos: &Position) -> String {
    fen::to_hub(pos)
        .chars()
        .map(|c| match c {
            'B' => 'Z',
            'b' => 'z',
            c => c,
        })
        .collect()
}

/// `W` or `Z`, the colour letter of positions and BACKREQ.
pub(super) fn color_char(c: Color) -> char {
    match c {
        Color::White => 'W',
        Color::Black => 'Z',
    }
}

impl DxpMove {
    /// The DXP form of a legal move, captured squares ascending.
    pub fn from_move(mv: &Move, seconds: u16) -> DxpMove {
        DxpMove {
            seconds,
            from: mv.from().number() as u8,
            to: mv.to().number() as u8,
            captured: squares(mv.captured()).map(|s| s.number() as u8).collect(),
        }
    }

    /// The legal move this message stands for: from and to must match, and
    /// the captured squares (any order) must be exactly the move's. A
    /// capture sent without its captured squares (count `00`, as some
    /// programs do) is accepted when only one legal capture goes from
    /// `from` to `to`.
    pub fn resolve(&self, legal: &MoveList) -> Result<Move, String> {
        let mut given = 0u64;
        for &c in &self.captured {
            let sq = Square::from_number(c as u32).ok_or_else(|| format!("square {c}"))?;
            if given & sq.mask() != 0 {
                return Err(format!("captured square {c} given twice"));
            }
            given |= sq.mask();
        }
        let ends =
            |m: &&Move| m.from().number() == self.from as u32 && m.to().number() == self.to as u32;
        if let Some(m) = legal.iter().filter(ends).find(|m| m.captured() == given) {
            return Ok(*m);
        }
        if self.captured.is_empty() {
            let mut caps = legal.iter().filter(ends).filter(|m| m.is_capture());
            if let (Some(m), None) = (caps.next(), caps.next()) {
                return Ok(*m);
            }
        }
        Err(format!("{} is not a legal move", self.text()))
    }

    /// Hub-like text for logs: `32-28`, `28x19x23`.
    pub fn text(&self) -> String {
        let mut s = if self.captured.is_empty() {
            format!("{}-{}", self.from, self.to)
        } else {
            format!("{}x{}", self.from, self.to)
        };
        for c in &self.captured {
            s.push_str(&format!("x{c}"));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxp::message::Message;

    #[test]
    fn positions_are_checked() {
        // A white man on square 3 (its promotion row) is no International position.
        let mut p: Vec<char> = format_position(&Position::start()).chars().collect();
        p[3] = 'w';
        let s: String = p.into_iter().collect();
        assert!(parse_position(&s).is_err());
        assert!(parse_position("Xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee").is_err());
        assert!(parse_position("Wbeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee").is_err());
        let p = parse_position("ZeeeeeeeeeeeeeeeeeeeeeZzeeeeeeeeeeeeeeeeeeeeeeeeeeW").unwrap();
        assert_eq!(p.side(), Color::Black);
        assert_eq!(
            format_position(&p),
            "ZeeeeeeeeeeeeeeeeeeeeeZzeeeeeeeeeeeeeeeeeeeeeeeeeeW"
        );
    }

    #[test]
    fn moves_resolve_against_the_legal_moves() {
        use crate::game::Game;
        use crate::variant::VariantKind;
        let game = Game::new(VariantKind::International, Position::start());
        let legal = game.legal_moves();
        let quiet = DxpMove {
            seconds: 0,
            from: 32,
            to: 28,
            captured: vec![],
        };
        assert_eq!(quiet.resolve(&legal).unwrap().to_string(), "32-28");
        let wrong = DxpMove {
            from: 32,
            to: 23,
            ..quiet.clone()
        };
        assert!(wrong.resolve(&legal).is_err());
        // The only legal move: 38 to 27 capturing 22, 23 and 33.
        let pos = fen::parse_hub("Weeeeeeeeeeeeeeeeeeeeebbeeeeeeeeebeeeeweeeeeeeeeeee").unwrap();
        let legal = Game::new(VariantKind::International, pos).legal_moves();
        let mv = legal.as_slice()[0];
        let d = DxpMove::from_move(&mv, 3);
        assert_eq!(Message::Move(d.clone()).format(), "M0003382703222333");
        let shuffled = DxpMove {
            captured: vec![33, 23, 22],
            ..d.clone()
        };
        assert_eq!(shuffled.resolve(&legal), Ok(mv));
        let bare = DxpMove {
            captured: vec![],
            ..d.clone()
        };
        assert_eq!(bare.resolve(&legal), Ok(mv));
        let short = DxpMove {
            captured: vec![22],
            ..d.clone()
        };
        assert!(short.resolve(&legal).is_err());
        let twice = DxpMove {
            captured: vec![22, 22],
            ..d
        };
        assert!(twice.resolve(&legal).is_err());
    }
}
