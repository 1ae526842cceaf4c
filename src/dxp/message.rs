//! DXP layer-2 messages (protocol/dxp.md): the seven message types as
//! values, read with nom from the text of one message and written back in
//! their fixed-width form (zero-padded numbers, names padded with blanks to
//! 32 characters). Reading is strict: every field must have its width and
//! range, and nothing may follow the last field.

use super::notation::{DxpMove, color_char, format_position, parse_position};
use crate::board::{Color, Position};
use nom::bytes::complete::{take, take_while_m_n};
use nom::character::complete::one_of;
use nom::combinator::{all_consuming, map_res, rest};
use nom::{IResult, Parser};
use std::fmt;

/// The protocol version molkwar speaks (GAMEREQ's version field).
pub const VERSION: u8 = 1;
/// Width of the name fields of GAMEREQ and GAMEACC.
pub const NAME_WIDTH: usize = 32;
/// Longest message the protocol allows, in characters.
pub const MAX_LEN: usize = 127;
/// Longest CHAT text.
pub const MAX_CHAT: usize = MAX_LEN - 1;

/// A game request (`R`), sent by the initiator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReq {
    /// Protocol version (always 1 when molkwar sends it).
    pub version: u8,
    /// The initiator's name, trailing blanks removed.
    pub name: String,
    /// The colour the follower is to play.
    pub follower: Color,
    /// Thinking time of each player for the whole game, minutes.
    pub minutes: u16,
    /// Moves each player makes in the game (0: no limit).
    pub moves: u16,
    /// The starting position (`None`: the normal start, White to move).
    pub start: Option<Position>,
}

/// GAMEACC's acceptance code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acceptance {
    /// `0`: the game starts.
    Accept = 0,
    /// `1`: the protocol version is not supported.
    WrongVersion = 1,
    /// `2`: not this game (time, position…), another one is welcome.
    DeclineGame = 2,
    /// `3`: no game at all.
    DeclineAll = 3,
}

/// GAMEEND's reason code (informational only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// `0`: no reason given (also every acknowledgement).
    Unknown = 0,
    /// `1`: the sender gives up.
    Resign = 1,
    /// `2`: the sender holds the game drawn.
    Draw = 2,
    /// `3`: the sender holds the game won.
    Win = 3,
}

/// BACKACC's acceptance code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackAcceptance {
    /// `0`: the moves are taken back.
    Accept = 0,
    /// `1`: taking back is not supported.
    NotSupported = 1,
    /// `2`: declined this time.
    Decline = 2,
}

/// One layer-2 message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `R`: start a game.
    GameReq(GameReq),
    /// `A`: the follower's answer to `R`.
    GameAcc { name: String, code: Acceptance },
    /// `M`: a move.
    Move(DxpMove),
    /// `E`: end the game (request or acknowledgement); `stop`: no more games.
    GameEnd { reason: EndReason, stop: bool },
    /// `C`: free text.
    Chat(String),
    /// `B`: take back to `move_number` with `side` to move.
    BackReq { move_number: u16, side: Color },
    /// `K`: the answer to `B`.
    BackAcc(BackAcceptance),
}

/// Why a message could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// No characters at all.
    Empty,
    /// A byte outside 1..=127.
    NotAscii,
    /// Longer than [`MAX_LEN`].
    TooLong(usize),
    /// The first character is not a known message type.
    UnknownType(char),
    /// The message type is known but its fields are not (the type letter
    /// and what is wrong).
    BadFields(char, String),
}

impl ParseError {
    /// The message type letter, when the type was recognised.
    pub fn header(&self) -> Option<char> {
        match self {
            ParseError::BadFields(c, _) => Some(*c),
            _ => None,
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => f.write_str("empty message"),
            ParseError::NotAscii => f.write_str("a character outside ASCII 1..127"),
            ParseError::TooLong(n) => write!(f, "{n} characters, at most {MAX_LEN} allowed"),
            ParseError::UnknownType(c) => write!(f, "unknown message type '{c}'"),
            ParseError::BadFields(c, why) => write!(f, "bad '{c}' message: {why}"),
        }
    }
}

impl std::error::Error for ParseError {}

type Res<'a, T> = IResult<&'a str, T>;

/// A fixed-width decimal field.
fn digits(n: usize) -> impl Fn(&str) -> Res<'_, u16> {
    move |i| {
        map_res(
            take_while_m_n(n, n, |c: char| c.is_ascii_digit()),
            str::parse::<u16>,
        )
        .parse(i)
    }
}

/// A square field (`01`..`50`).
fn square(i: &str) -> Res<'_, u8> {
    let (r, n) = digits(2)(i)?;
    if (1..=50).contains(&n) {
        Ok((r, n as u8))
    } else {
        Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Verify,
        )))
    }
}

/// `W` (white) or `Z` (black, "zwart").
fn color(i: &str) -> Res<'_, Color> {
    one_of("WZ")
        .map(|c| if c == 'W' { Color::White } else { Color::Black })
        .parse(i)
}

fn code(i: &str) -> Res<'_, u8> {
    one_of("0123456789").map(|c| c as u8 - b'0').parse(i)
}

fn game_req(i: &str) -> Res<'_, Result<GameReq, String>> {
    let (i, version) = digits(2)(i)?;
    let (i, name) = take(NAME_WIDTH).parse(i)?;
    let (i, follower) = color(i)?;
    let (i, minutes) = digits(3)(i)?;
    let (i, moves) = digits(3)(i)?;
    let (i, setup) = one_of("AB").parse(i)?;
    let (i, start) = if setup == 'A' {
        (i, Ok(None))
    } else {
        let (i, pos) = take(51usize).parse(i)?;
        (i, parse_position(pos).map(Some))
    };
    let req = start.map(|start| GameReq {
        version: version as u8,
        name: name.trim_end().to_string(),
        follower,
        minutes,
        moves,
        start,
    });
    Ok((i, req))
}

fn game_acc(i: &str) -> Res<'_, Message> {
    let (i, name) = take(NAME_WIDTH).parse(i)?;
    let (i, c) = one_of("0123").parse(i)?;
    let code = match c {
        '0' => Acceptance::Accept,
        '1' => Acceptance::WrongVersion,
        '2' => Acceptance::DeclineGame,
        _ => Acceptance::DeclineAll,
    };
    Ok((
        i,
        Message::GameAcc {
            name: name.trim_end().to_string(),
            code,
        },
    ))
}

fn mv(i: &str) -> Res<'_, Message> {
    let (i, seconds) = digits(4)(i)?;
    let (i, from) = square(i)?;
    let (count, to) = square(i)?;
    let (mut i, n) = digits(2)(count)?;
    if n > 20 {
        return Err(nom::Err::Error(nom::error::Error::new(
            count,
            nom::error::ErrorKind::Verify,
        )));
    }
    let mut captured = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let (r, s) = square(i)?;
        captured.push(s);
        i = r;
    }
    Ok((
        i,
        Message::Move(DxpMove {
            seconds,
            from,
            to,
            captured,
        }),
    ))
}

fn game_end(i: &str) -> Res<'_, Message> {
    let (i, r) = one_of("0123").parse(i)?;
    let (i, s) = one_of("01").parse(i)?;
    let reason = match r {
        '0' => EndReason::Unknown,
        '1' => EndReason::Resign,
        '2' => EndReason::Draw,
        _ => EndReason::Win,
    };
    Ok((
        i,
        Message::GameEnd {
            reason,
            stop: s == '1',
        },
    ))
}

fn back_req(i: &str) -> Res<'_, Message> {
    let (i, move_number) = digits(3)(i)?;
    let (i, side) = color(i)?;
    Ok((i, Message::BackReq { move_number, side }))
}

fn back_acc(i: &str) -> Res<'_, Message> {
    let (i, c) = code(i)?;
    let code = match c {
        0 => BackAcceptance::Accept,
        1 => BackAcceptance::NotSupported,
        2 => BackAcceptance::Decline,
        _ => {
            return Err(nom::Err::Error(nom::error::Error::new(
                i,
                nom::error::ErrorKind::Verify,
            )));
        }
    };
    Ok((i, Message::BackAcc(code)))
}

/// Names the first field a nom error stopped at, by its offset in the body.
fn where_failed(body: &str, e: nom::Err<nom::error::Error<&str>>) -> String {
    match e {
        nom::Err::Error(e) | nom::Err::Failure(e) => {
            // 1-based, counting the type letter.
            let at = body.len() - e.input.len() + 2;
            if e.input.is_empty() {
                format!("too short ({} characters)", body.len() + 1)
            } else if e.input.len() > 8 {
                format!("unexpected '{}...' at character {at}", &e.input[..8])
            } else {
                format!("unexpected '{}' at character {at}", e.input)
            }
        }
        nom::Err::Incomplete(_) => "too short".into(),
    }
}

impl Message {
    /// Reads one message (the text between two NUL bytes).
    pub fn parse(bytes: &[u8]) -> Result<Message, ParseError> {
        if bytes.is_empty() {
            return Err(ParseError::Empty);
        }
        if bytes.iter().any(|&b| b == 0 || b > 127) {
            return Err(ParseError::NotAscii);
        }
        if bytes.len() > MAX_LEN {
            return Err(ParseError::TooLong(bytes.len()));
        }
        // Pure ASCII: always valid UTF-8.
        let text = std::str::from_utf8(bytes).map_err(|_| ParseError::NotAscii)?;
        let header = text.chars().next().unwrap_or(' ');
        let body = &text[1..];
        let bad = |why: String| ParseError::BadFields(header, why);
        let fields = |r: Result<(&str, Message), nom::Err<nom::error::Error<&str>>>| {
            r.map(|(_, m)| m).map_err(|e| bad(where_failed(body, e)))
        };
        match header {
            'R' => {
                let (_, req) = all_consuming(game_req)
                    .parse(body)
                    .map_err(|e| bad(where_failed(body, e)))?;
                req.map(Message::GameReq)
                    .map_err(|e| bad(format!("position: {e}")))
            }
            'A' => fields(all_consuming(game_acc).parse(body)),
            'M' => fields(all_consuming(mv).parse(body)),
            'E' => fields(all_consuming(game_end).parse(body)),
            'C' => {
                let (_, t) = rest::<&str, nom::error::Error<&str>>
                    .parse(body)
                    .map_err(|e| bad(where_failed(body, e)))?;
                if t.is_empty() {
                    return Err(bad("no text".into()));
                }
                Ok(Message::Chat(t.to_string()))
            }
            'B' => fields(all_consuming(back_req).parse(body)),
            'K' => fields(all_consuming(back_acc).parse(body)),
            c => Err(ParseError::UnknownType(c)),
        }
    }

    /// The message text (without the NUL that ends it on the wire).
    /// Names are cut or padded to 32 characters, non-ASCII and control
    /// characters in names and chat become `?`, numbers are clamped to
    /// their field width, and chat text is cut to 126 characters.
    pub fn format(&self) -> String {
        match self {
            Message::GameReq(r) => {
                let mut s = format!(
                    "R{:02}{}{}{:03}{:03}",
                    r.version.min(99),
                    name_field(&r.name),
                    color_char(r.follower),
                    r.minutes.min(999),
                    r.moves.min(999)
                );
                match &r.start {
                    None => s.push('A'),
                    Some(p) => {
                        s.push('B');
                        s.push_str(&format_position(p));
                    }
                }
                s
            }
            Message::GameAcc { name, code } => format!("A{}{}", name_field(name), *code as u8),
            Message::Move(m) => {
                let mut s = format!(
                    "M{:04}{:02}{:02}{:02}",
                    m.seconds.min(9999),
                    m.from,
                    m.to,
                    m.captured.len().min(20)
                );
                for c in m.captured.iter().take(20) {
                    s.push_str(&format!("{c:02}"));
                }
                s
            }
            Message::GameEnd { reason, stop } => format!("E{}{}", *reason as u8, *stop as u8),
            Message::Chat(t) => {
                let t: String = t.chars().take(MAX_CHAT).map(printable).collect();
                if t.is_empty() {
                    "C ".to_string()
                } else {
                    format!("C{t}")
                }
            }
            Message::BackReq { move_number, side } => {
                format!("B{:03}{}", move_number.min(&999), color_char(*side))
            }
            Message::BackAcc(c) => format!("K{}", *c as u8),
        }
    }
}

fn printable(c: char) -> char {
    if (' '..='~').contains(&c) { c } else { '?' }
}

/// A name as its 32-character field: printable ASCII, a leading blank
/// dropped (the field must not start with one), cut or padded with blanks.
fn name_field(name: &str) -> String {
    let clean: String = name
        .trim_start()
        .chars()
        .map(printable)
        .take(NAME_WIDTH)
        .collect();
    format!("{clean:<NAME_WIDTH$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) -> Message {
        let m = Message::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(m.format(), text);
        m
    }

    #[test]
    fn every_type_round_trips() {
        let name = format!("{:<32}", "Tornado voor Windows 4.0");
        round_trip(&format!("R01{name}Z012050A"));
        let start = format_position(&Position::start());
        assert_eq!(start, "Wzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
        let m = round_trip(&format!("R01{name}W001000B{start}"));
        let Message::GameReq(r) = m else { panic!() };
        assert_eq!(r.name, "Tornado voor Windows 4.0");
        assert_eq!(r.follower, Color::White);
        assert_eq!((r.minutes, r.moves), (1, 0));
        assert_eq!(r.start, Some(Position::start()));
        round_trip(&format!("A{name}0"));
        round_trip("M0012061100");
        let m = round_trip("M001205250422122320");
        assert_eq!(
            m,
            Message::Move(DxpMove {
                seconds: 12,
                from: 5,
                to: 25,
                captured: vec![22, 12, 23, 20]
            })
        );
        round_trip("E00");
        round_trip("E21");
        round_trip("CWhat do you think about move 35?");
        round_trip("B012Z");
        round_trip("K1");
    }

    #[test]
    fn fields_are_padded() {
        let r = Message::GameReq(GameReq {
            version: 1,
            name: " molkwar".into(),
            follower: Color::Black,
            minutes: 5,
            moves: 75,
            start: None,
        });
        assert_eq!(r.format(), "R01molkwar                         Z005075A");
        let long = "x".repeat(40);
        let a = Message::GameAcc {
            name: long,
            code: Acceptance::DeclineGame,
        };
        assert_eq!(a.format(), format!("A{}2", "x".repeat(32)));
        let m = Message::Move(DxpMove {
            seconds: 12345,
            from: 1,
            to: 7,
            captured: vec![2],
        });
        assert_eq!(m.format(), "M999901070102");
        assert_eq!(Message::Chat("é\n".into()).format(), "C??");
        assert_eq!(Message::Chat(String::new()).format(), "C ");
    }

    #[test]
    fn malformed_messages_are_errors() {
        let name = format!("{:<32}", "x");
        for (bad, header) in [
            ("M001206110", Some('M')),
            ("M00120611000", Some('M')),
            ("M0012061101", Some('M')),
            ("M0012000000", Some('M')),
            ("M0012065100", Some('M')),
            (
                "M001206112101020304050607080910111213141516171819202122",
                Some('M'),
            ),
            ("E4", Some('E')),
            ("E02", Some('E')),
            ("E000", Some('E')),
            ("C", Some('C')),
            ("K3", Some('K')),
            ("B12W", Some('B')),
            ("BxyzW", Some('B')),
            ("A12", Some('A')),
            ("R01", Some('R')),
            (&format!("R01{name}X001000A")[..], Some('R')),
            (&format!("R01{name}W0010-0A")[..], Some('R')),
            (&format!("R01{name}W001000C")[..], Some('R')),
            (&format!("R01{name}W001000Bwzz")[..], Some('R')),
            (
                &format!("R01{name}W001000B{}", "e".repeat(51))[..],
                Some('R'),
            ),
            ("X", None),
            ("m0012061100", None),
            ("", None),
        ] {
            let e = Message::parse(bad.as_bytes()).expect_err(bad);
            assert_eq!(e.header(), header, "{bad}: {e}");
            assert!(!e.to_string().is_empty());
        }
        assert_eq!(Message::parse(&[b'C', 0xe9]), Err(ParseError::NotAscii));
        assert_eq!(
            Message::parse("C".repeat(128).as_bytes()),
            Err(ParseError::TooLong(128))
        );
    }
}
