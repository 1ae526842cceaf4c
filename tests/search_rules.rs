//! The search applies the rules: wins with their distance, the draw rules
//! of docs/rules.md §8 (repetition, 16-/5-move, Frisian 2 kings v 1 king) as
//! the game's counters and history say.

use molkwar::board::{fen, movegen};
use molkwar::game::Game;
use molkwar::search::{Engine, Limits, MATE, Mode, Score};
use molkwar::variant::{DrawRule, VariantKind};
use molkwar::with_variant;

fn game(variant: VariantKind, f: &str, moves: &str) -> Game {
    let mut g = Game::new(variant, fen::parse_fen(f).unwrap());
    g.play_all(moves).unwrap();
    g
}

fn search(g: &Game, d: u32) -> (molkwar::Move, Score) {
    let o = Engine::new().search_blocking(
        g,
        Limits {
            depth: Some(d),
            ..Limits::default()
        },
        Mode::Analyze,
    );
    (o.best.unwrap(), o.last().unwrap().score)
}

/// Plays `plies` quiet moves without captures becoming possible and without
/// repeating a position (the first such move in generation order).
fn shuffle(g: &mut Game, plies: usize) {
    for _ in 0..plies {
        let legal = g.legal_moves();
        let mv = legal
            .iter()
            .find(|m| {
                let mut c = g.clone();
                c.play(m);
                let p = *c.position();
                let quiet_next = with_variant!(c.variant(), V => !movegen::has_capture::<V>(&p)
                && !movegen::has_capture::<V>(&molkwar::Position::new(
                    p.pieces(molkwar::Color::White),
                    p.pieces(molkwar::Color::Black),
                    p.kings(),
                    p.side().other(),
                )));
                !m.is_capture() && quiet_next && c.repetitions() == 1
            })
            .copied()
            .expect("a quiet shuffle move");
        g.play(&mv);
    }
}

#[test]
fn blocking_the_last_man_wins_in_one() {
    // Black's man on 36 is blocked by 41 and 47 (41 cannot be jumped:
    // 47 is behind it); any move of 50 keeps it so and wins.
    let g = game(VariantKind::International, "W:W41,47,50:B36", "");
    let (best, score) = search(&g, 6);
    assert!(["50-44", "50-45"].contains(&best.to_string().as_str()));
    assert_eq!(score, MATE - 1);
}

#[test]
fn frisian_two_kings_win_by_force_with_distance() {
    let g = game(VariantKind::Frisian, "W:WK28,K33:BK3", "");
    let (_, score) = search(&g, 8);
    assert_eq!(score, MATE - 3);
    // The same from the loser's side: a loss in 2 plies after the first move.
    let g2 = game(VariantKind::Frisian, "W:WK28,K33:BK3", "28-41");
    let (_, score2) = search(&g2, 8);
    assert_eq!(score2, -(MATE - 2));
}

#[test]
fn repetition_of_a_game_position_is_a_draw() {
    // White is a man behind; the game already went 45-40 6-1 40-45 1-6,
    // so 45-40 now repeats a position: the search takes the draw. Without
    // that history White is clearly worse (how much is the evaluation's
    // business), so the draw is a real choice.
    let f = "W:WK45,36:BK6,3,4";
    let fresh = game(VariantKind::International, f, "");
    let (_, s_fresh) = search(&fresh, 8);
    assert!(s_fresh < -20, "{s_fresh}");
    let g = game(VariantKind::International, f, "45-40 6-1 40-45 1-6");
    let (best, s) = search(&g, 8);
    assert_eq!(s, 0);
    assert_eq!(best.to_string(), "45-40");
}

#[test]
fn sixteen_move_rule_counter_is_seen() {
    // Three kings against one (International §8.1.3): 32 plies.
    let f = "B:WK46,K50,K5:BK24";
    let fresh = game(VariantKind::International, f, "");
    assert_eq!(fresh.draw_state().material, Some(DrawRule::SixteenMove));
    let (_, s_fresh) = search(&fresh, 6);
    let mut late = fresh.clone();
    shuffle(&mut late, 31);
    assert_eq!(late.draw_state().material_plies, 31);
    let (_, s_late) = search(&late, 6);
    // The side with three kings is ahead with the whole count left (its
    // size is the evaluation's, scaled down for a counted ending)...
    assert!(s_fresh < 0, "{s_fresh}");
    // ...and nothing is left to win with one move before the count ends.
    assert_eq!(s_late, 0);
}

#[test]
fn frisian_seven_move_rule_counter_is_seen() {
    let f = "B:WK46,K50:BK24";
    let fresh = game(VariantKind::Frisian, f, "");
    assert_eq!(fresh.draw_state().material, Some(DrawRule::TwoKingsVsKing));
    let mut late = fresh.clone();
    shuffle(&mut late, 13);
    assert_eq!(late.draw_state().material_plies, 13);
    let (_, s_late) = search(&late, 6);
    assert_eq!(s_late, 0);
    let mut early = fresh.clone();
    shuffle(&mut early, 1);
    let (_, s_early) = search(&early, 6);
    assert!(s_early > 5, "{s_early}");
}

#[test]
fn five_move_rule_counter_is_seen() {
    // King and man against a king (§8.1.4): 10 plies.
    let f = "B:WK47,33:BK4";
    let fresh = game(VariantKind::International, f, "");
    assert_eq!(fresh.draw_state().material, Some(DrawRule::FiveMove));
    let mut late = fresh.clone();
    shuffle(&mut late, 9);
    let (_, s_late) = search(&late, 6);
    assert_eq!(s_late, 0);
}
