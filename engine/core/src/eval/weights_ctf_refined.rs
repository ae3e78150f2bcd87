//! The ctf evaluator's weights refined for one board size by `engine refine-weights`,
//! starting from those of `engine tune`; other sizes use those. Rerun rather than
//! editing by hand.

/// The fitting that produced these weights.
pub const FITTED_BY: &str = "engine tune ctf ctf-4.txt ctf-5-train.txt ctf-5-results.txt ctf-7-results.txt --seed 2, then engine refine-weights ctf 5 --openings 300 --plies 4 --seed 1000 --depth 4 --opponents classic-race,material,classic-advance --max-ply 200 --teacher-depth 8 --exact ctf-5-train.txt --exact-weight 25 --depths 3,4 --epochs 30 --rate 1 --temperature 100";

/// The board size these weights serve.
pub const SIZE: usize = 5;

/// The feature names the weights belong to (checked against the evaluator by a test).
#[rustfmt::skip]
pub const NAMES: [&str; 21] = ["tempo", "pawns", "advance", "flag_to_go", "flag_race", "take_flag", "flag_threats", "stoppers", "guards", "attack", "takes", "mobility", "flag_room", "home_guard", "open_race", "rear", "flag_out", "flag_lines", "safe_take", "hanging", "double_threat"];

/// One weight a feature.
#[rustfmt::skip]
pub const WEIGHTS: [i32; 21] = [-5, 98, -15, -19, 28, 538, -23, -22, 17, 9, 22, 5, 43, 10, 106, 32, 20, 19, 88, 3, 5];

/// The piece-square term's weights (see `eval::ctf::piece_square_len`).
#[rustfmt::skip]
pub const SQUARES: [i32; 60] = [-4, -11, -10, 0, -7, 5, 6, 4, 11, 1, -3, 7, -10, -18, 11, -12, -9, -7, 13, 2, -1, 19, 5, 1, -1, 16, 24, -9, 7, 28, 13, 21, -4, -3, 1, -1, -8, -6, -17, -4, 4, -8, 1, 10, 8, 21, 13, 17, 2, -9, 0, 0, 18, -7, -3, 8, 10, -3, -10, -14];
