//! The model alone: no window, no engine.

use boardgames_core::games::{GameKind, Move, Side};
use boardgames_core::protocol::{Info, Reply, SearchInfo};
use boardgames_core::score::Score;

use super::{ANALYSIS, Model, SearchState};
use crate::error::{FileError, GameError};

const HUMANS: [bool; 2] = [false, false];
const BLACK_ENGINE: [bool; 2] = [false, true];

/// An `info depth` line as an engine would send it.
fn info(line: &str) -> SearchInfo {
    match Reply::parse(line) {
        Ok(Reply::Info(Info::Search(i))) => i,
        other => panic!("not a search info line: {other:?}"),
    }
}

fn hexapawn() -> Model {
    Model::new(GameKind::Hexapawn, 3)
}

/// The command line `gui WORDS...` as the model gets it (`hexapawn 3 b1b2 a3a2`).
fn args(words: &str) -> Vec<String> {
    words.split_whitespace().map(String::from).collect()
}

/// A Hexapawn 3 model started from the command line `gui WORDS...` (see [`args`]).
fn started(words: &str) -> Model {
    let mut m = hexapawn();
    m.start_from_args(&args(words));
    m
}

/// The square numbered by its name.
fn sq(m: &Model, name: &str) -> usize {
    (0..m.game().layout().squares())
        .find(|&s| m.game().square_name(s) == name)
        .expect("a square of the board")
}

#[test]
fn clicks_pick_a_piece_and_play_its_move_and_takeback_returns_to_the_human() {
    let mut m = hexapawn();
    let (b1, b2) = (sq(&m, "b1"), sq(&m, "b2"));
    m.click(b2, HUMANS);
    assert_eq!(m.selected(), None, "an empty square is not picked");
    m.click(b1, HUMANS);
    assert_eq!(m.selected(), Some(b1));
    assert!(m.targets().contains(&b2));
    m.click(b2, HUMANS);
    assert_eq!(m.game().move_names(), ["b1b2"]);
    assert_eq!((m.view(), m.selected()), (1, None));
    let r = m.revision();
    m.drag(sq(&m, "a3"), sq(&m, "a2"), HUMANS);
    assert_eq!(m.game().move_names(), ["b1b2", "a3a2"]);
    assert!(m.revision() > r);
    // Against Black's engine, take back removes the engine's reply and the human's move.
    m.takeback(BLACK_ENGINE);
    assert_eq!((m.game().len(), m.view()), (0, 0));
    // Black's engine is to move here: a human may not move for it.
    m.play(Move::PASS).expect_err("no pass in Hexapawn");
    m.click(b1, BLACK_ENGINE);
    m.click(b2, BLACK_ENGINE);
    assert!(!m.human_may_move(BLACK_ENGINE));
    m.click(sq(&m, "a3"), BLACK_ENGINE);
    assert_eq!(m.selected(), None);
}

#[test]
fn going_back_and_playing_branches_off_and_the_evals_follow() {
    let mut m = started("hexapawn 3 b1b2 a3a2");
    assert_eq!(m.game().len(), 2);
    m.start_search(ANALYSIS, "Analysis".into(), 2);
    m.search_info(
        ANALYSIS,
        info("info depth 3 score cp 50 nodes 1 nps 1 time 1 pv b2c3"),
    );
    // White to move there: +0.50 for White.
    assert_eq!(m.graph_points(), [(2, Score::Cp(50))]);
    m.go_to(1);
    assert_eq!(m.view(), 1);
    m.drag(sq(&m, "c3"), sq(&m, "c2"), HUMANS);
    assert_eq!(m.game().move_names(), ["b1b2", "c3c2"]);
    assert!(m.graph_points().is_empty(), "the old line's score is gone");
}

#[test]
fn a_bad_command_line_move_keeps_the_moves_before_it_and_says_why() {
    let mut m = started("oska 4 a1a2 zz");
    assert_eq!(m.game().kind(), GameKind::Oska);
    assert_eq!(m.game().move_names(), ["a1a2"]);
    let (text, err) = m.message().expect("a message");
    assert!(err && text.contains("move 'zz'"), "{text}");
    let e = m.epoch();
    m.start_from_args(&args("chess 8"));
    assert_eq!(m.epoch(), e, "nothing replaced");
    assert!(m.message().is_some_and(|(t, _)| t.contains("command line")));
}

#[test]
fn an_engine_move_is_played_and_a_stale_or_illegal_one_is_not() {
    let mut m = hexapawn();
    let r = m.revision();
    m.start_search(0, "White's engine".into(), 0);
    m.engine_move(Side::White, r, Some("b1b2"), None);
    assert_eq!(m.game().move_names(), ["b1b2"]);
    assert_eq!(
        m.engine_views()[0].as_ref().map(|v| v.state),
        Some(SearchState::Done)
    );
    // An answer about an earlier revision is ignored and its search shown as stopped.
    m.start_search(1, "Black's engine".into(), 1);
    m.engine_move(Side::Black, r, Some("a3a2"), None);
    assert_eq!(m.game().len(), 1);
    assert_eq!(
        m.engine_views()[1].as_ref().map(|v| v.state),
        Some(SearchState::Stopped)
    );
    m.start_search(1, "Black's engine".into(), 1);
    m.engine_move(Side::Black, m.revision(), Some("a3a1"), None);
    assert_eq!(m.game().len(), 1);
    let why = m.halted().expect("halted");
    assert!(
        why.contains("Black's engine played an illegal move 'a3a1'"),
        "{why}"
    );
    assert_eq!(
        m.engine_views()[1].as_ref().map(|v| v.state),
        Some(SearchState::Failed)
    );
    assert!(m.human_may_move(BLACK_ENGINE));
}

#[test]
fn no_move_says_the_engines_own_reason() {
    let mut m = hexapawn();
    m.engine_move(
        Side::White,
        m.revision(),
        None,
        Some("board-call: the program failed (exit status: 2) on 'www/---/bbb w 3'"),
    );
    let why = m.halted().expect("halted");
    assert!(why.contains("White's engine gave no move"), "{why}");
    assert!(why.contains("the program failed (exit status: 2)"), "{why}");
}

#[test]
fn resuming_clears_the_failure_and_its_red_message() {
    let mut m = hexapawn();
    m.halt(None, "White's engine failed: it crashed".into());
    assert!(m.message().is_some_and(|(_, err)| err));
    m.set_paused(true);
    assert!(m.halted().is_some(), "pausing keeps the failure");
    m.set_paused(false);
    assert_eq!(m.halted(), None);
    assert_eq!(m.message(), None);
    // A note is not an error: it stays.
    m.note("saved to x".into());
    m.set_paused(false);
    assert_eq!(m.message(), Some(("saved to x", false)));
}

#[test]
fn a_failed_engines_arrow_is_not_shown() {
    let mut m = hexapawn();
    m.start_search(0, "White's engine".into(), 0);
    m.search_info(
        0,
        info("info depth 2 score cp 10 nodes 1 nps 1 time 1 pv b1b2 a3a2"),
    );
    let best = m.best_shown().expect("the arrow");
    assert_eq!(m.game().square_name(usize::from(best.to)), "b2");
    m.finish_search(0, SearchState::Failed);
    assert_eq!(m.best_shown(), None);
    // A finished search keeps its state.
    m.finish_search(0, SearchState::Stopped);
    assert_eq!(
        m.engine_views()[0].as_ref().map(|v| v.state),
        Some(SearchState::Failed)
    );
}

#[test]
fn save_and_open_round_trip_and_an_opened_game_is_paused() {
    let m = started("hexapawn 4 a1a2 d4d3");
    let path = std::env::temp_dir().join(format!("gui-model-{}.txt", std::process::id()));
    m.save(&path).expect("saved");
    let mut other = Model::new(GameKind::Oska, 4);
    assert_eq!(other.open(&path).expect("opened"), 1);
    assert_eq!(other.game().kind(), GameKind::Hexapawn);
    assert_eq!(other.game().move_names(), ["a1a2", "d4d3"]);
    assert!(other.paused());
    assert_eq!(other.records().len(), 1);
    std::fs::write(&path, "[Game \"chess\"]\n").expect("write");
    let err = other.open(&path).expect_err("not a record");
    assert!(matches!(err, FileError::Records { .. }), "{err:?}");
    assert!(err.to_string().contains("line 1"), "{err}");
    assert_eq!(other.game().kind(), GameKind::Hexapawn, "the game stays");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn flip_and_set_position() {
    let mut m = Model::new(GameKind::Oska, 4);
    m.flip();
    assert!(m.flipped());
    let err = m
        .set_position(GameKind::Ctf, "-wWw--www-----bbb--bBb-", Side::White)
        .expect_err("23 characters");
    assert!(matches!(err, GameError::Position(_)), "{err:?}");
    assert!(err.to_string().contains("not a square"), "{err}");
    m.set_position(
        GameKind::Oska,
        "['----','---','--','w--','bb--']",
        Side::White,
    )
    .expect("a board where White must pass");
    assert!(m.pass_only());
    m.play(Move::PASS).expect("pass");
    assert_eq!(m.game().move_names(), ["pass"]);
}

/// Hexapawn 3 after b1b2 a3a2, then c1c2 played from move 1: the main line and one variation.
fn branched() -> Model {
    let mut m = started("hexapawn 3 b1b2 a3a2");
    m.go_to(1);
    m.drag(sq(&m, "c3"), sq(&m, "c2"), HUMANS);
    m
}

#[test]
fn playing_from_an_earlier_move_branches_and_keeps_the_main_line() {
    let mut m = branched();
    let t = m.tree();
    let first = t.children(super::ROOT)[0];
    assert_eq!(t.children(first).len(), 2, "a3a2 and the variation c3c2");
    assert_eq!(t.names(*t.main_line().last().unwrap()), ["b1b2", "a3a2"]);
    assert_eq!(
        m.game().move_names(),
        ["b1b2", "c3c2"],
        "the game is the new line"
    );
    assert_eq!(m.view(), 2);
    // Playing a move that was played before goes to it instead of adding one.
    let r = m.revision();
    m.go_to(1);
    m.drag(sq(&m, "c3"), sq(&m, "c2"), HUMANS);
    assert_eq!(
        (m.view(), m.revision()),
        (2, r),
        "the same line, one move on"
    );
    m.go_to(1);
    m.drag(sq(&m, "a3"), sq(&m, "a2"), HUMANS);
    assert_eq!(m.game().move_names(), ["b1b2", "a3a2"]);
    assert!(m.revision() > r, "the game changed line");
    assert_eq!(m.tree().children(first).len(), 2, "no duplicate node");
}

#[test]
fn going_to_a_node_shows_its_line_and_engines_play_at_its_end() {
    let mut m = branched();
    let main_end = *m.tree().main_line().last().unwrap();
    m.go_to_node(main_end);
    assert_eq!(m.game().move_names(), ["b1b2", "a3a2"]);
    assert_eq!((m.view(), m.shown_node()), (2, main_end));
    // Going to a node on the game's line only moves the view.
    let first = m.line()[1];
    let r = m.revision();
    m.go_to_node(first);
    assert_eq!((m.view(), m.revision(), m.game().len()), (1, r, 2));
    // An engine's move is played at the end of the line shown, as a node of the tree.
    let r = m.revision();
    m.engine_move(Side::White, r, Some("c1c2"), None);
    assert_eq!(m.game().move_names(), ["b1b2", "a3a2", "c1c2"]);
    assert_eq!(m.tree().names(m.line()[3]), ["b1b2", "a3a2", "c1c2"]);
    assert_eq!(m.tree().variations(), [vec!["b1b2", "c3c2"]]);
}

#[test]
fn promote_and_delete_variations() {
    let mut m = branched();
    let variation = m.shown_node();
    assert!(!m.tree().is_main(variation));
    m.promote(variation);
    assert!(m.tree().is_main(variation));
    assert_eq!(m.tree().variations(), [vec!["b1b2", "a3a2"]]);
    assert_eq!(
        m.game().move_names(),
        ["b1b2", "c3c2"],
        "promoting keeps the game"
    );
    // Deleting the shown move shows the move before it and the line that remains.
    m.delete(variation);
    assert_eq!(m.game().move_names(), ["b1b2", "a3a2"]);
    assert_eq!(m.view(), 1);
    assert!(m.tree().variations().is_empty());
    // Deleting a move off the game's line keeps the game and the view.
    m.go_to(1);
    m.drag(sq(&m, "c3"), sq(&m, "c2"), HUMANS);
    let other = m.line()[2];
    m.go_to_node(m.tree().main_line()[2]);
    m.delete(other);
    assert_eq!(
        (m.game().move_names(), m.view()),
        (vec!["b1b2".into(), "a3a2".into()], 2)
    );
    m.delete(super::ROOT);
    assert_eq!(m.game().len(), 2, "the start cannot be deleted");
}

#[test]
fn takeback_removes_the_moves_and_the_variation_left_becomes_the_game() {
    let mut m = branched();
    // The game is b1b2 c3c2: taking back c3c2 leaves a3a2, the main continuation.
    m.takeback(HUMANS);
    assert_eq!(m.game().move_names(), ["b1b2", "a3a2"]);
    assert_eq!(m.view(), 1);
    assert!(m.tree().variations().is_empty());
}

#[test]
fn variations_are_saved_as_tags_and_opened_again() {
    let mut m = branched();
    // A variation inside the variation.
    m.drag(sq(&m, "b2"), sq(&m, "a3"), HUMANS);
    m.go_to(2);
    m.drag(sq(&m, "a1"), sq(&m, "a2"), HUMANS);
    let record = m.record().expect("a record");
    assert_eq!(
        record.moves,
        ["b1b2", "a3a2"],
        "the main line is the game's moves"
    );
    assert_eq!(
        record.tags,
        [
            ("Variation".to_string(), "b1b2 c3c2 b2a3".to_string()),
            ("Variation".to_string(), "b1b2 c3c2 a1a2".to_string()),
        ]
    );
    let path = std::env::temp_dir().join(format!("gui-variations-{}.games", std::process::id()));
    m.save(&path).expect("saved");
    let mut o = hexapawn();
    assert_eq!(o.open(&path).expect("opened"), 1);
    std::fs::remove_file(&path).ok();
    assert_eq!(o.game().move_names(), ["b1b2", "a3a2"]);
    assert_eq!(o.tree().variations(), m.tree().variations());
    assert_eq!(o.record(), Ok(record));
}

#[test]
fn a_bad_variation_is_named_and_changes_nothing() {
    let mut m = branched();
    let mut record = m.record().expect("a record");
    record.tags.push(("Variation".into(), "b1b2 zz".into()));
    let e = m.load_record(&record).expect_err("zz is no move");
    assert!(matches!(e, GameError::Variation { number: 2, .. }), "{e:?}");
    let e = e.to_string();
    assert!(e.starts_with("variation 2: "), "{e}");
    assert!(e.contains("zz"), "{e}");
    assert_eq!(
        m.game().move_names(),
        ["b1b2", "c3c2"],
        "the game on the table stays"
    );
    assert_eq!(m.tree().variations(), [vec!["b1b2", "c3c2"]]);
}

/// A Hexapawn 3 game on a clock of `tc`, both sides human.
fn timed(tc: &str) -> Model {
    let mut m = hexapawn();
    let tc = boardgames_core::clock::TimeControl::parse(tc).unwrap();
    m.set_time_control(Some(tc));
    m.new_game(GameKind::Hexapawn, 3).unwrap();
    m
}

fn ms(n: u64) -> std::time::Duration {
    std::time::Duration::from_millis(n)
}

#[test]
fn clocks_charge_each_move_to_its_mover_and_run_for_the_side_to_move() {
    let t0 = std::time::Instant::now();
    let mut m = timed("10+1");
    assert!(hexapawn().clocks().is_none(), "no time control, no clocks");
    m.tick_clocks(t0);
    assert_eq!(m.clocks().unwrap().running(), Some(Side::White));
    let (b1, b2) = (sq(&m, "b1"), sq(&m, "b2"));
    m.click(b1, HUMANS);
    m.click(b2, HUMANS);
    m.tick_clocks(t0 + ms(3000));
    let c = m.clocks().unwrap();
    assert_eq!(
        c.left(Side::White, t0 + ms(5000)),
        ms(8000),
        "10 s - 3 s + 1 s"
    );
    assert_eq!(c.running(), Some(Side::Black));
    assert_eq!(
        m.clock_go(t0 + ms(4500)),
        Some(boardgames_core::protocol::Go::Clock(
            boardgames_core::protocol::Clock {
                wtime: 8000,
                btime: 8500,
                winc: 1000,
                binc: 1000,
                movestogo: None,
            }
        ))
    );
    // Pausing stops Black's clock (charged, no increment); resuming restarts it.
    m.set_paused(true);
    m.tick_clocks(t0 + ms(5000));
    assert_eq!(m.clocks().unwrap().running(), None);
    assert_eq!(
        m.clocks().unwrap().left(Side::Black, t0 + ms(60_000)),
        ms(8000)
    );
    m.set_paused(false);
    m.tick_clocks(t0 + ms(6000));
    assert_eq!(m.clocks().unwrap().running(), Some(Side::Black));
    // A takeback gives no time back and adds no increment: White's clock runs again.
    m.takeback(HUMANS);
    m.tick_clocks(t0 + ms(7000));
    let c = m.clocks().unwrap();
    assert_eq!(c.left(Side::Black, t0 + ms(7000)), ms(7000));
    assert_eq!(c.left(Side::White, t0 + ms(7000)), ms(8000));
    assert_eq!(c.running(), Some(Side::White));
    // Browsing does not stop the clock of the game's end.
    m.go_to(0);
    m.tick_clocks(t0 + ms(7500));
    assert_eq!(m.clocks().unwrap().running(), Some(Side::White));
}

#[test]
fn a_side_out_of_time_loses_and_the_record_says_so() {
    let t0 = std::time::Instant::now();
    let mut m = timed("2");
    m.tick_clocks(t0);
    m.play(m.game().legal_moves(0)[0]).unwrap();
    m.tick_clocks(t0 + ms(500));
    assert!(!m.over());
    m.tick_clocks(t0 + ms(2499));
    assert_eq!(m.lost_on_time(), None);
    m.tick_clocks(t0 + ms(2500));
    assert_eq!(m.lost_on_time(), Some(Side::Black));
    assert!(m.over());
    assert!(!m.human_may_move(HUMANS), "no move after the flag fell");
    let record = m.record().unwrap();
    assert_eq!(record.result, boardgames_core::record::RecordResult::White);
    assert_eq!(record.tag("TimeControl"), Some("2"));
    assert!(record.tag("Reason").unwrap().contains("time forfeit"));
    // Nothing restarts the clocks, and a new game has full ones.
    m.set_paused(false);
    m.tick_clocks(t0 + ms(9000));
    assert_eq!(m.clocks().unwrap().running(), None);
    m.new_game(GameKind::Hexapawn, 3).unwrap();
    assert_eq!(m.lost_on_time(), None);
    assert_eq!(m.clocks().unwrap().left(Side::Black, t0), ms(2000));
    // A game over by the rules stops the clocks.
    let mut m = timed("60");
    m.tick_clocks(t0);
    for mv in ["b1b2", "a3b2", "c1c2", "b2b1"] {
        let ply = m.game().len();
        let mv = m.game().parse_move(ply, mv).unwrap();
        m.play(mv).unwrap();
    }
    assert!(m.game().outcome(4).is_some());
    m.tick_clocks(t0 + ms(1000));
    assert_eq!(m.clocks().unwrap().running(), None);
    let record = m.record().unwrap();
    assert_eq!(record.result, boardgames_core::record::RecordResult::Black);
}

#[test]
fn a_game_is_unsaved_from_its_first_move_until_saved_and_a_new_one_is_not() {
    let mut m = hexapawn();
    assert!(!m.unsaved(), "a new game has nothing to lose");
    m.drag(sq(&m, "b1"), sq(&m, "b2"), HUMANS);
    assert!(m.unsaved());
    m.drag(sq(&m, "a3"), sq(&m, "a2"), HUMANS);
    let path = std::env::temp_dir().join(format!("gui-unsaved-{}.games", std::process::id()));
    m.save(&path).expect("saved");
    m.mark_saved(&path);
    assert!(!m.unsaved());
    assert_eq!(m.file(), Some(path.as_path()));
    m.go_to(0);
    assert!(!m.unsaved(), "looking at the moves changes nothing");
    m.promote(m.line()[1]);
    assert!(m.unsaved(), "a promotion changes what would be saved");
    m.mark_saved(&path);
    m.takeback(HUMANS);
    assert!(m.unsaved(), "a takeback too");
    m.save(&path).expect("saved");
    let mut other = Model::new(GameKind::Oska, 4);
    other.open(&path).expect("opened");
    assert!(!other.unsaved());
    assert_eq!(other.file(), Some(path.as_path()));
    let _ = std::fs::remove_file(&path);
    other.new_game(GameKind::Oska, 4).expect("new game");
    assert_eq!(other.file(), None);
}

#[test]
fn a_replaced_unsaved_game_is_brought_back_move_for_move_once() {
    let mut m = branched();
    assert!(m.unsaved());
    let tree = m.tree().variations();
    let line = m.game().move_names().to_vec();
    assert_eq!(m.can_bring_back(), None);
    m.new_game(GameKind::Oska, 4).expect("new game");
    assert_eq!(m.game().len(), 0);
    assert_eq!(m.can_bring_back(), Some(2));
    assert!(m.bring_back());
    assert_eq!(m.game().kind(), GameKind::Hexapawn);
    assert_eq!(m.game().move_names(), line);
    assert_eq!(m.tree().variations(), tree);
    assert_eq!(m.view(), 2);
    assert!(m.unsaved(), "still not saved");
    assert!(!m.bring_back(), "once");
    assert_eq!(m.can_bring_back(), None);
    // A brought-back game replaced by another unsaved one swaps places with it.
    m.new_game(GameKind::Hexapawn, 3).expect("new game");
    m.drag(sq(&m, "a1"), sq(&m, "a2"), HUMANS);
    assert!(m.bring_back());
    assert_eq!(m.game().move_names(), line);
    assert!(m.bring_back());
    assert_eq!(m.game().move_names(), ["a1a2"]);
}

#[test]
fn a_bad_move_in_an_opened_file_is_reported_with_the_files_name() {
    let mut m = started("hexapawn 3 b1b2 a3a2");
    let path = std::env::temp_dir().join(format!("gui-bad-move-{}.games", std::process::id()));
    m.save(&path).expect("saved");
    let text = std::fs::read_to_string(&path).expect("read back");
    assert!(text.contains("b1b2 a3a2"), "{text}");
    std::fs::write(&path, text.replace("b1b2 a3a2", "b1b2 b1b3")).expect("write");
    let err = m.open(&path).expect_err("an illegal move");
    let _ = std::fs::remove_file(&path);
    assert!(matches!(err, FileError::Game { .. }), "{err:?}");
    let err = err.to_string();
    assert!(err.starts_with(&path.display().to_string()), "{err}");
    assert_eq!(m.game().move_names(), ["b1b2", "a3a2"], "the game stays");
}

#[test]
fn marks_and_values_do_not_change_the_game_and_are_saved_as_comments() {
    let mut m = started("hexapawn 3 b1b2 a3a2");
    let (revision, epoch) = (m.revision(), m.epoch());
    let line = m.line().to_vec();
    m.set_mark(line[1], "?");
    m.set_mark(line[2], "!");
    m.set_mark(crate::model::ROOT, "??");
    m.set_eval(line[1], boardgames_core::score::Score::Cp(-40));
    assert_eq!(
        (m.revision(), m.epoch()),
        (revision, epoch),
        "an engine goes on"
    );
    assert_eq!(m.tree().mark(crate::model::ROOT), "");
    let text = m.record_text().expect("a record");
    assert!(
        text.ends_with("# review 1 b1b2 ?\n# review 2 a3a2 !\n"),
        "{text}"
    );
    assert_eq!(
        crate::model::read_review_comments(&text),
        [
            (1, "b1b2".into(), "?".into()),
            (2, "a3a2".into(), "!".into())
        ]
    );
}
