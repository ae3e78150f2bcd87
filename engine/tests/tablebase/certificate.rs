//! Proof certificates through the binary: `engine solve --proof --certificate FILE` writes them,
//! `engine proof check FILE [--tablebase DIR]` verifies them. The values they state are held to
//! `engine solve` (the exact solver, no proof search) and to a brute-force minimax written here;
//! tampered certificates are refused with exit status 1 and the place named. (The checker's
//! every check has a unit test of its own in the core, `certificate/tests.rs`.)

use std::process::{Command, Output};

use boardgames_core::games::format::slash;
use boardgames_core::games::{Game, Hexapawn, Line, MoveList, Side};

use crate::common::Scratch;

fn engine(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(args)
        .output()
        .expect("the engine runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `engine solve GAME BOARD SIDE --proof --certificate FILE [more]`, which must succeed and
/// report the certificate's size; returns the value it printed.
fn certify(game: &str, board: &str, side: &str, file: &str, more: &[&str]) -> String {
    let mut args = vec!["solve", game, board, side, "--proof", "--certificate", file];
    args.extend(more);
    let out = engine(&args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    let err = stderr(&out);
    let size = err
        .lines()
        .find(|l| l.starts_with(&format!("certificate {file}: ")))
        .unwrap_or_else(|| panic!("no size reported: {err}"));
    assert!(size.ends_with(" bytes"), "{size}");
    let bytes: usize = size.split(' ').rev().nth(1).unwrap().parse().unwrap();
    assert_eq!(
        bytes as u64,
        std::fs::metadata(file).unwrap().len(),
        "{size}"
    );
    stdout(&out).trim().to_string()
}

/// `engine proof check FILE [more]`: its exit status, stdout and stderr.
fn check(file: &str, more: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec!["proof", "check", file];
    args.extend(more);
    let out = engine(&args);
    (out.status.code(), stdout(&out), stderr(&out))
}

/// What a certificate of `value` (`win K`, `loss K`, `draw`, for `side` to move) says.
fn stated(value: &str, side: &str) -> String {
    let (me, other) = if side == "w" {
        ("white", "black")
    } else {
        ("black", "white")
    };
    match value.split(' ').next().unwrap() {
        "win" => format!("win for {me}"),
        "loss" => format!("win for {other}"),
        _ => "draw".to_string(),
    }
}

#[test]
fn the_starts_certificates_pass_and_state_the_solvers_value() {
    let scratch = Scratch::new("cert", "starts");
    let cases = [
        ("hexapawn", "www/---/bbb", "w"),
        ("hexapawn", "www/---/bbb", "b"),
        ("hexapawn", "wwww/----/----/bbbb", "w"),
        ("hexapawn", "wwww/----/----/bbbb", "b"),
        ("hexapawn", "wwwww/-----/-----/-----/bbbbb", "w"),
        ("oska", "wwww/---/--/---/bbbb", "w"),
        ("oska", "wwww/---/--/---/bbbb", "b"),
    ];
    for (i, (game, board, side)) in cases.into_iter().enumerate() {
        let file = scratch.path(&format!("{i}.cert")).display().to_string();
        let proved = certify(game, board, side, &file, &[]);
        let solved = engine(&["solve", game, board, side]);
        assert!(solved.status.success());
        let solved = stdout(&solved).trim().to_string();
        assert_eq!(
            proved,
            solved.split(' ').next().unwrap(),
            "{game} {board} {side}"
        );
        let (code, out, err) = check(&file, &[]);
        assert_eq!(code, Some(0), "{game} {board} {side}: {err}");
        let want = format!("certificate {file}: valid: {} (", stated(&solved, side));
        assert!(out.starts_with(&want), "{out}\nexpected {want}");
        assert!(out.ends_with(" leaves)\n"), "{out}");
    }
}

/// Win or loss of `pos` for its side to move by brute-force minimax over the whole tree (no
/// memo, no table: Hexapawn has no draw).
fn minimax(pos: Hexapawn) -> bool {
    if let Some(o) = Line::new(pos).outcome() {
        return o.winner() == Some(pos.side_to_move());
    }
    let mut moves = MoveList::new();
    pos.generate(&mut moves);
    moves.as_slice().iter().any(|&m| !minimax(pos.play(m)))
}

#[test]
fn certificates_of_hexapawn_4_state_what_brute_force_minimax_says() {
    let scratch = Scratch::new("cert", "minimax");
    let start = Hexapawn::start(4).unwrap();
    let mut positions = vec![start];
    for pos in [start, start.with_side(Side::Black)] {
        let mut moves = MoveList::new();
        pos.generate(&mut moves);
        positions.extend(moves.as_slice().iter().map(|&m| pos.play(m)));
    }
    for (i, pos) in positions.into_iter().enumerate() {
        let (board, side) = (slash(&pos), pos.side_to_move().letter().to_string());
        let file = scratch.path(&format!("{i}.cert")).display().to_string();
        certify("hexapawn", &board, &side, &file, &[]);
        let winner = if minimax(pos) {
            pos.side_to_move()
        } else {
            pos.side_to_move().opposite()
        };
        let (code, out, err) = check(&file, &[]);
        assert_eq!(code, Some(0), "{board} {side}: {err}");
        assert!(
            out.contains(&format!(": valid: win for {winner} (")),
            "{board} {side}: {out}"
        );
    }
}

#[test]
fn table_leaves_need_the_tables() {
    let scratch = Scratch::new("cert", "tables");
    let dir = scratch.path("tb").display().to_string();
    let built = engine(&[
        "tablebase",
        "build",
        "hexapawn",
        "4",
        "--max-pieces",
        "2",
        "--dir",
        &dir,
    ]);
    assert!(built.status.success(), "{}", stderr(&built));
    // The start, with the tables of at most two pawns a side as leaves.
    let file = scratch.path("start.cert").display().to_string();
    let start = "wwww/----/----/bbbb";
    assert_eq!(
        certify("hexapawn", start, "w", &file, &["--tablebase", &dir]),
        "win"
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.lines()
            .any(|l| l.ends_with(" table win") || l.ends_with(" table loss")),
        "{text}"
    );
    let (code, out, err) = check(&file, &["--tablebase", &dir]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains(": valid: win for white ("), "{out}");
    assert!(out.contains("of them table leaves)"), "{out}");
    let (code, out, err) = check(&file, &[]);
    assert_eq!((code, out.as_str()), (Some(1), ""));
    assert!(
        err.starts_with(&format!("error: certificate {file} refused: claim 1 (")),
        "{err}"
    );
    assert!(
        err.contains("a table leaf") && err.contains("--tablebase DIR"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // A position the tables cover: one table leaf.
    let file = scratch.path("covered.cert").display().to_string();
    let covered = "-w-w/----/----/b--b";
    certify("hexapawn", covered, "w", &file, &["--tablebase", &dir]);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.ends_with("nodes 1\n0 table win\n")
            || text.ends_with("nodes 1\n0 table loss\n")
            || text.ends_with("nodes 1\n0 table draw\n"),
        "{text}"
    );
    let (code, _, err) = check(&file, &["--tablebase", &dir]);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn tampered_certificates_are_refused_naming_the_place() {
    let scratch = Scratch::new("cert", "tampered");
    let file = scratch.path("h3.cert").display().to_string();
    assert_eq!(certify("hexapawn", "www/---/bbb", "w", &file, &[]), "loss");
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // The root is the last node: White to move, every reply listed.
    let root = lines.last().unwrap().to_string();
    let id = root.split(' ').next().unwrap().to_string();
    let line = lines.len();
    let place = format!(
        "error: certificate {file} refused: claim 1 (black gets at least a win from node {id}), \
         node {id} (line {line}), at the root: "
    );
    let dropped: Vec<&str> = root.split(' ').collect();
    let missing = dropped[dropped.len() - 2];
    let dropped = dropped[..dropped.len() - 2].join(" ");
    let twice = format!(
        "{root} {}",
        root.split(' ')
            .skip(1)
            .take(2)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let first = root.split(' ').nth(1).unwrap();
    let cases = [
        (dropped, format!("white's reply {missing} is missing")),
        (twice, format!("white's reply {first} is listed twice")),
        (root.replacen(first, "a1a3", 1), "move a1a3: ".to_string()),
    ];
    for (i, (tampered, why)) in cases.into_iter().enumerate() {
        let bad = scratch.write(&format!("{i}.cert"), &text.replace(&root, &tampered));
        let (code, out, err) = check(&bad, &[]);
        assert_eq!((code, out.as_str()), (Some(1), ""), "{tampered}");
        let want = place.replace(&file, &bad);
        assert!(
            err.starts_with(&want),
            "{err}\nexpected to start with {want}"
        );
        assert!(err.contains(&why), "{err}\nexpected {why}");
    }
    // A leaf's value changed.
    let leaf = lines.iter().position(|l| l.ends_with(" end loss")).unwrap();
    let bad = scratch.write(
        "leaf.cert",
        &text.replacen(lines[leaf], &lines[leaf].replace("loss", "draw"), 1),
    );
    let (code, _, err) = check(&bad, &[]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains(&format!(" (line {}), after ", leaf + 1)),
        "{err}"
    );
    assert!(
        err.contains(": the file says draw for white to move, the rules ("),
        "{err}"
    );
    // A garbage header.
    let bad = scratch.write(
        "garbage.cert",
        &text.replacen("game hexapawn", "game chess", 1),
    );
    let (code, _, err) = check(&bad, &[]);
    assert_eq!(code, Some(1));
    assert_eq!(
        err,
        format!(
            "error: certificate {bad} refused: line 2: 'chess' is not a game: oska or hexapawn\n"
        )
    );
    let (code, _, err) = check(&scratch.path("none.cert").display().to_string(), &[]);
    assert_eq!(code, Some(1));
    assert!(err.starts_with("error: cannot read "), "{err}");
}

#[test]
fn capture_the_flag_has_no_certificate() {
    let scratch = Scratch::new("cert", "ctf");
    let file = scratch.path("c.cert").display().to_string();
    let board = "[\"-wWw--www-------bbb--bBb-\"]";
    let out = engine(&[
        "solve",
        "ctf",
        board,
        "w",
        "--proof",
        "--certificate",
        &file,
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with("error: --certificate is for Oska and Hexapawn"),
        "{}",
        stderr(&out)
    );
    assert!(!scratch.path("c.cert").exists());
    // --certificate is an option of --proof.
    let out = engine(&[
        "solve",
        "hexapawn",
        "www/---/bbb",
        "w",
        "--certificate",
        &file,
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--proof"), "{}", stderr(&out));
}
