//! Tablebases that cannot mislead, seen through the real binary: every size of every game works
//! with a tables directory set (one-shot and over the protocol), every entry point refuses a
//! damaged table, a FIFO or a misnamed file with one error naming it and no value, and a missing
//! `--tablebase` directory is refused.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use boardgames_core::games::format::slash;
use boardgames_core::games::{Game, GameKind, Hexapawn, Oska, Side};
use boardgames_core::tablebase::Retro;

/// Runs the engine binary with `args`, killed if it has not ended after `limit`.
fn run_for(args: &[&str], limit: Duration) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(args)
        .env_remove("TABLEBASE_PATH")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine binary runs");
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(limit) {
        Ok(out) => out.expect("the output is read"),
        Err(_) => {
            // SAFETY: kill(2) on the pid of our own child, which has not been waited for.
            unsafe { libc::kill(pid as i32, libc::SIGKILL) };
            panic!("engine {args:?} did not end within {limit:?}");
        }
    }
}

fn run(args: &[&str]) -> Output {
    run_for(args, Duration::from_secs(120))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tb-trust-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `engine tablebase COMMAND GAME SIZE [OPTIONS...] --dir DIR`, which must succeed.
fn tablebase_succeeds(command: &str, game: &str, size: &str, options: &[&str], dir: &Path) {
    let mut args = vec!["tablebase", command, game, size];
    args.extend_from_slice(options);
    args.extend(["--dir", dir.to_str().unwrap()]);
    let out = run(&args);
    assert!(
        out.status.success(),
        "{command} {game} {size}: {}",
        text(&out.stderr)
    );
}

/// Builds the tables of `game` at `size` up to `k` pieces a side into `dir` with the binary.
fn build(dir: &Path, game: &str, size: usize, k: usize) {
    let k = k.to_string();
    tablebase_succeeds("build", game, &size.to_string(), &["--max-pieces", &k], dir);
}

/// Asserts a refusal: exit status 1 (not a panic's 101), one error line on stderr that contains
/// every part of `says`, and no value (`win`, `loss`, `draw`) on stdout.
fn refused(out: &Output, says: &[&str], what: &str) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{what}: status; stderr {err}");
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "{what}: one error line, got {err:?}");
    for part in says {
        assert!(
            lines[0].contains(part),
            "{what}: {part:?} missing from {err:?}"
        );
    }
    let stdout = text(&out.stdout);
    for word in ["win", "loss", "draw"] {
        assert!(
            !stdout.contains(word),
            "{what}: a value was printed: {stdout}"
        );
    }
}

/// The words of `engine tablebase probe` of the Hexapawn 3 start with the tables in `dir`.
fn probe_start(dir: &str) -> [&str; 7] {
    [
        "tablebase",
        "probe",
        "hexapawn",
        "www/---/bbb",
        "w",
        "--dir",
        dir,
    ]
}

/// The one-shot entry points that read tables, for the Hexapawn 3 start (`best` to `depth`).
fn entry_points(dir: &str, depth: &str) -> Vec<(&'static str, Vec<String>)> {
    let owned = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        ("probe", owned(&probe_start(dir))),
        (
            "solve",
            owned(&["solve", "hexapawn", "www/---/bbb", "w", "--tablebase", dir]),
        ),
        (
            "best",
            owned(&[
                "best",
                "hexapawn",
                "www/---/bbb",
                "w",
                depth,
                "--tablebase",
                dir,
            ]),
        ),
        (
            "verify",
            owned(&["tablebase", "verify", "hexapawn", "3", "--dir", dir]),
        ),
    ]
}

/// Every entry point refuses the set in `dir`, naming `file` and saying `why`; so does the
/// protocol, which searches on without the tables.
fn every_entry_refuses(dir: &Path, file: &str, why: &str) {
    let d = dir.to_str().unwrap();
    for (name, args) in entry_points(d, "3") {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let started = Instant::now();
        let out = run_for(&args, Duration::from_secs(30));
        refused(&out, &[file, why], &format!("{name} with {file} ({why})"));
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{name} answered late"
        );
    }
    let (mut child, mut stdin, lines) = common::spawn_engine(&[]);
    writeln!(
        stdin,
        "setoption name TablebasePath value {d}\nnewgame hexapawn 3\ngo depth 3"
    )
    .unwrap();
    let mut said = Vec::new();
    loop {
        let line = lines
            .recv_timeout(Duration::from_secs(30))
            .expect("the protocol search answers");
        if line.starts_with("bestmove") {
            break;
        }
        said.push(line);
    }
    let note = said
        .iter()
        .find(|l| l.starts_with("info string tablebase not used"))
        .unwrap_or_else(|| panic!("no note of the refused table in {said:?}"));
    assert!(note.contains(file) && note.contains(why), "{note}");
    writeln!(stdin, "isready").unwrap();
    assert_eq!(
        lines.recv_timeout(Duration::from_secs(30)).unwrap(),
        "readyok"
    );
    writeln!(stdin, "quit").unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "quit ends the engine: {status}");
}

/// A sound Hexapawn 3 set, its start value as the probe prints it, and the files.
fn sound_set(name: &str) -> (PathBuf, String) {
    let dir = scratch(name);
    build(&dir, "hexapawn", 3, 3);
    let out = run(&probe_start(dir.to_str().unwrap()));
    assert!(out.status.success());
    let value = text(&out.stdout).lines().last().unwrap().to_string();
    assert_eq!(value, "loss 6", "Hexapawn 3 is lost for White in 6 plies");
    (dir, value)
}

/// Flips bits at `offset` of a file.
fn damage(path: &Path, offset: usize, bits: u8) {
    let mut bytes = std::fs::read(path).unwrap();
    bytes[offset] ^= bits;
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn damaged_values_are_refused_everywhere() {
    let (dir, _) = sound_set("values");
    let file = dir.join("hexapawn-3-w3b3.tb");
    // Every byte of the start's table changed in turn would be slow; three places, each of which
    // changes a value the start's probe reads or not, are all caught by the checksum.
    for offset in [56, 56 + 700, 56 + 1679] {
        let original = std::fs::read(&file).unwrap();
        damage(&file, offset, 0x03);
        every_entry_refuses(&dir, "hexapawn-3-w3b3.tb", "checksum mismatch");
        std::fs::write(&file, original).unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damaged_headers_and_names_are_refused_everywhere() {
    let (dir, _) = sound_set("headers");
    let file = dir.join("hexapawn-3-w2b2.tb");
    let original = std::fs::read(&file).unwrap();
    // The size, the White and the Black piece counts, the number of values, the magic.
    for (offset, why) in [
        (24, "not hexapawn size 3"),
        (28, "values where material"),
        (32, "values where material"),
        (36, "bytes where the header promises"),
        (0, "no BGTB magic"),
    ] {
        damage(&file, offset, 0x01);
        every_entry_refuses(&dir, "hexapawn-3-w2b2.tb", why);
        std::fs::write(&file, &original).unwrap();
    }
    // A table of one material renamed as another of the same length.
    std::fs::rename(
        dir.join("hexapawn-3-w2b3.tb"),
        dir.join("hexapawn-3-w3b2.tb.keep"),
    )
    .unwrap();
    std::fs::rename(
        dir.join("hexapawn-3-w3b2.tb"),
        dir.join("hexapawn-3-w2b3.tb"),
    )
    .unwrap();
    every_entry_refuses(
        &dir,
        "hexapawn-3-w2b3.tb",
        "should be named hexapawn-3-w3b2.tb",
    );
    std::fs::remove_dir_all(&dir).unwrap();

    // A Hexapawn table renamed as an Oska one.
    let dir = scratch("renamed");
    build(&dir, "hexapawn", 3, 1);
    std::fs::rename(dir.join("hexapawn-3-w1b1.tb"), dir.join("oska-4-w1b1.tb")).unwrap();
    let out = run(&[
        "tablebase",
        "verify",
        "oska",
        "4",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    refused(
        &out,
        &["oska-4-w1b1.tb", "holds hexapawn size 3, not oska size 4"],
        "verify",
    );
    let out = run(&[
        "tablebase",
        "probe",
        "oska",
        "wwww/---/--/---/bbbb",
        "w",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    refused(&out, &["oska-4-w1b1.tb", "holds hexapawn"], "probe");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fifo_or_a_directory_named_like_a_table_is_refused_at_once() {
    let (dir, _) = sound_set("fifo");
    let file = dir.join("hexapawn-3-w1b1.tb");
    std::fs::remove_file(&file).unwrap();
    let c = std::ffi::CString::new(file.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) with a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
    every_entry_refuses(&dir, "hexapawn-3-w1b1.tb", "not a regular file");
    std::fs::remove_file(&file).unwrap();
    std::fs::create_dir(&file).unwrap();
    every_entry_refuses(&dir, "hexapawn-3-w1b1.tb", "not a regular file");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_or_plain_file_tablebase_is_refused() {
    let dir = scratch("missing");
    let missing = dir.join("no-such-dir");
    let plain = dir.join("plain-file");
    std::fs::write(&plain, "not a directory").unwrap();
    for (path, why) in [(&missing, "No such file"), (&plain, "not a directory")] {
        let p = path.to_str().unwrap();
        for (_, args) in entry_points(p, "2") {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            refused(&run(&args), &[p, why], &format!("{args:?}"));
        }
        // $TABLEBASE_PATH is held to the same rule.
        let out = Command::new(env!("CARGO_BIN_EXE_engine"))
            .args(["best", "hexapawn", "www/---/bbb", "w", "2"])
            .env("TABLEBASE_PATH", p)
            .output()
            .unwrap();
        refused(
            &out,
            &["$TABLEBASE_PATH", p, why],
            "best with $TABLEBASE_PATH",
        );
    }
    // A build that cannot write its directory says so in one line, before it starts.
    let inside = plain.join("tables");
    let out = run(&common::tablebase_build("hexapawn", "3", &inside));
    refused(&out, &["cannot make the tablebase directory"], "build");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A position of `G` at `size` with one piece a side: White's on its first square, Black's on the
/// last, White to move.
fn one_each<G: Retro>(size: usize) -> G {
    let squares = G::layout_of(size).squares();
    G::from_sets(size, 1, 1u128 << (squares - 1))
}

/// For every size of `G`: the tables of one piece a side built, probed and verified, their value
/// equal to the solver's (which gets an empty tables directory); `best` on the start with the
/// tables set; and the same over the protocol.
fn every_size<G: Retro>(game: &str) {
    let (lo, hi) = G::KIND.size_range();
    for size in lo..=hi {
        let dir = scratch(&format!("{game}-{size}"));
        let empty = dir.join("empty");
        std::fs::create_dir(&empty).unwrap();
        let d = dir.to_str().unwrap();
        build(&dir, game, size, 1);
        let pos = one_each::<G>(size);
        let board = slash(&pos);
        let out = run(&["tablebase", "probe", game, &board, "w", "--dir", d]);
        assert!(out.status.success(), "{game} {size}: {}", text(&out.stderr));
        let probed = text(&out.stdout).lines().last().unwrap().to_string();
        let out = run(&[
            "solve",
            game,
            &board,
            "w",
            "--tablebase",
            empty.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{game} {size}: {}", text(&out.stderr));
        let solved = text(&out.stdout).lines().last().unwrap().to_string();
        assert_eq!(
            probed, solved,
            "{game} {size}: table against solver on {board}"
        );
        let out = run(&["solve", game, &board, "w", "--tablebase", d]);
        assert_eq!(text(&out.stdout).lines().last(), Some(solved.as_str()));
        let out = run(&["tablebase", "verify", game, &size.to_string(), "--dir", d]);
        assert!(out.status.success(), "{game} {size}: {}", text(&out.stderr));
        let start = slash(&G::start(size).unwrap());
        let out = run(&["best", game, &start, "w", "1", "--tablebase", d]);
        assert!(out.status.success(), "{game} {size}: {}", text(&out.stderr));
        protocol_search(game, size, d);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Over the protocol, with `TablebasePath` set: a depth-2 search of the start answers.
fn protocol_search(game: &str, size: usize, dir: &str) {
    let (mut child, mut stdin, lines) = common::spawn_engine(&[]);
    writeln!(
        stdin,
        "setoption name TablebasePath value {dir}\nnewgame {game} {size}\ngo depth 2"
    )
    .unwrap();
    loop {
        let line = lines
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("{game} {size}: no bestmove over the protocol"));
        assert!(!line.starts_with("error"), "{game} {size}: {line}");
        if line.starts_with("bestmove") {
            break;
        }
    }
    writeln!(stdin, "quit").unwrap();
    assert!(child.wait().unwrap().success(), "{game} {size}: quit");
}

#[test]
fn every_oska_size_works_with_tables() {
    every_size::<Oska>("oska");
}

#[test]
fn every_hexapawn_size_works_with_tables() {
    every_size::<Hexapawn>("hexapawn");
}

#[test]
fn capture_the_flag_ignores_a_tables_directory() {
    let (dir, _) = sound_set("ctf");
    let d = dir.to_str().unwrap();
    let (lo, hi) = GameKind::Ctf.size_range();
    for size in lo..=hi {
        let start = slash(&boardgames_core::games::Ctf::start(size).unwrap());
        let out = run(&["best", "ctf", &start, "w", "1", "--tablebase", d]);
        assert!(out.status.success(), "ctf {size}: {}", text(&out.stderr));
        protocol_search("ctf", size, d);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `engine tablebase build ARGS`, its files limited to `limit` bytes (`RLIMIT_FSIZE`, as a full
/// disk would stop it); with `ignore`, a write past the limit fails with `EFBIG` (the build's
/// error path), else the kernel kills the build with `SIGXFSZ` mid-write (a crash).
fn build_limited(args: &[&str], limit: u64, ignore: bool) -> Output {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(env!("CARGO_BIN_EXE_engine"));
    command
        .args(args)
        .env_remove("TABLEBASE_PATH")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: setrlimit(2) and signal(2) are async-signal-safe, and touch only the child.
    unsafe {
        command.pre_exec(move || {
            let rlimit = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &rlimit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if ignore {
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            }
            Ok(())
        });
    }
    command.output().expect("the engine binary runs")
}

/// The names in `dir` that end in `.part`.
fn parts(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".part"))
        .collect()
}

/// `engine tablebase verify GAME SIZE --dir DIR` succeeds.
fn verifies(dir: &Path, game: &str, size: &str) {
    tablebase_succeeds("verify", game, size, &[], dir);
}

#[test]
fn a_failed_build_leaves_no_part_file_and_the_next_build_succeeds() {
    let dir = scratch("failed-build");
    let d = dir.to_str().unwrap();
    let args = ["tablebase", "build", "hexapawn", "4", "--dir", d];
    // Files of 64 KiB at most: the small tables are written, a larger one fails (EFBIG, as
    // ENOSPC would): the error names the temporary file, and nothing is left under that name.
    let out = build_limited(&args, 64 << 10, true);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "a failed write: {err}");
    assert!(
        err.contains(".tb.part") && err.contains("too large"),
        "the error names the file and the fault: {err}"
    );
    assert_eq!(
        parts(&dir),
        Vec::<String>::new(),
        "the failed write is removed"
    );
    let out = run(&args);
    assert!(
        out.status.success(),
        "the build after: {}",
        text(&out.stderr)
    );
    verifies(&dir, "hexapawn", "4");
    std::fs::remove_dir_all(&dir).unwrap();

    // A build killed mid-write leaves its `.part`; the next build replaces it and succeeds.
    let dir = scratch("killed-build");
    let d = dir.to_str().unwrap();
    let args = ["tablebase", "build", "hexapawn", "4", "--dir", d];
    let out = build_limited(&args, 64 << 10, false);
    assert!(!out.status.success(), "killed by SIGXFSZ");
    let left = parts(&dir);
    assert_eq!(left.len(), 1, "a killed build leaves its .part: {left:?}");
    // Left unwritable too, as a build of another user could leave it (root writes anyway).
    let part = dir.join(&left[0]);
    std::fs::set_permissions(&part, std::os::unix::fs::PermissionsExt::from_mode(0o444)).unwrap();
    let out = run(&args);
    assert!(
        out.status.success(),
        "the build after: {}",
        text(&out.stderr)
    );
    assert_eq!(parts(&dir), Vec::<String>::new());
    verifies(&dir, "hexapawn", "4");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_planted_part_link_is_not_followed() {
    let dir = scratch("part-link");
    let outside = scratch("part-link-target");
    let target = outside.join("precious");
    std::fs::write(&target, "not a table\n").unwrap();
    // A link to a file, and one to a file that does not exist yet (created through it, before).
    std::os::unix::fs::symlink(&target, dir.join("hexapawn-3-w3b3.tb.part")).unwrap();
    let absent = outside.join("absent");
    std::os::unix::fs::symlink(&absent, dir.join("hexapawn-3-w1b1.tb.part")).unwrap();
    build(&dir, "hexapawn", 3, 3);
    assert_eq!(
        std::fs::read(&target).unwrap(),
        b"not a table\n",
        "the link's target is unchanged"
    );
    assert!(
        !absent.exists(),
        "nothing is created through a dangling link"
    );
    assert_eq!(parts(&dir), Vec::<String>::new());
    for name in ["hexapawn-3-w3b3.tb", "hexapawn-3-w1b1.tb"] {
        let meta = std::fs::symlink_metadata(dir.join(name)).unwrap();
        assert!(meta.file_type().is_file(), "{name} is a regular file");
    }
    verifies(&dir, "hexapawn", "3");
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&outside).unwrap();
}

#[test]
fn a_fifo_part_does_not_block_the_build_and_a_directory_is_named() {
    let dir = scratch("part-fifo");
    let fifo = dir.join("hexapawn-3-w2b2.tb.part");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) with a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
    let d = dir.to_str().unwrap();
    let out = run_for(
        &["tablebase", "build", "hexapawn", "3", "--dir", d],
        Duration::from_secs(60),
    );
    assert!(out.status.success(), "build: {}", text(&out.stderr));
    assert_eq!(parts(&dir), Vec::<String>::new());
    verifies(&dir, "hexapawn", "3");
    // A directory in the way is not removed: the build stops, naming it.
    std::fs::create_dir(dir.join("hexapawn-3-w2b2.tb.part")).unwrap();
    let out = run(&["tablebase", "build", "hexapawn", "3", "--dir", d]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("hexapawn-3-w2b2.tb.part: a directory is in the way"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Overwrites the values of a table file in place (the same file, as a disk error or a careless
/// copy would change it under a running engine), every value with `value` (2: a win).
fn overwrite_values(path: &Path, value: u8) {
    use std::os::unix::fs::FileExt;
    let f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    let len = f.metadata().unwrap().len() - 56;
    f.write_all_at(&vec![value; len as usize], 56).unwrap();
    f.sync_all().unwrap();
}

/// Hexapawn 4 with two pawns a side, White to move: lost for White in 4 plies, by the tables.
const TWO_A_SIDE: &str = "w--w/----/----/b--b";

#[test]
fn a_table_damaged_while_open_is_refused_by_the_library() {
    use boardgames_core::tablebase::Tablebase;
    let dir = scratch("damaged-open-lib");
    build(&dir, "hexapawn", 4, 4);
    let position = |board: &str| {
        *boardgames_core::games::format::parse_board::<Hexapawn>(board, Side::White)
            .unwrap()
            .line
            .current()
    };
    let start = Hexapawn::start(4).unwrap();
    // Every table read from its file, as a table over the memory limit is.
    let tb = Tablebase::open::<Hexapawn>(&dir, 4, 0).unwrap();
    let value = tb.try_probe(&start).unwrap().expect("the start is covered");
    assert_eq!(value.to_string(), "win 11");
    // Damaged in place: every value of the start's table and of the two-a-side table a win.
    overwrite_values(&dir.join("hexapawn-4-w4b4.tb"), 2);
    overwrite_values(&dir.join("hexapawn-4-w2b2.tb"), 2);
    // A value read and checked before the damage is kept: the right one, not the file's now.
    assert_eq!(tb.try_probe(&start).unwrap(), Some(value));
    // A value read after it: the table is refused, naming its file.
    let two = position(TWO_A_SIDE);
    let err = tb.try_probe(&two).expect_err("a damaged table is refused");
    let err = err.to_string();
    assert!(
        err.contains("hexapawn-4-w2b2.tb") && err.contains("damaged while in use"),
        "{err}"
    );
    assert_eq!(tb.probe(&two), None, "no value from a damaged table");
    assert!(tb.probe_moves(&two).is_none());
    assert!(
        tb.fault()
            .expect("the damage is kept")
            .to_string()
            .contains("hexapawn-4-w2b2.tb")
    );
    // Opened again, the damage is found by the whole files' checksums.
    let err = Tablebase::open::<Hexapawn>(&dir, 4, 0)
        .unwrap_err()
        .to_string();
    assert!(err.contains("checksum mismatch"), "{err}");
    // Cut short under the probe: an error naming the file, not a value.
    let three = position("www-/----/----/bbb-");
    let tb = Tablebase::open_materials::<Hexapawn>(&dir, 4, &[(3, 3)], 0).unwrap();
    let file = dir.join("hexapawn-4-w3b3.tb");
    let f = std::fs::OpenOptions::new().write(true).open(&file).unwrap();
    f.set_len(100).unwrap();
    let err = tb.try_probe(&three).unwrap_err().to_string();
    assert!(err.contains("hexapawn-4-w3b3.tb"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_table_damaged_while_open_is_refused_over_the_protocol() {
    let dir = scratch("damaged-open-protocol");
    build(&dir, "hexapawn", 4, 4);
    let d = dir.to_str().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
        // Every table read from its file, as the ones over 1 GiB are.
        .env("TABLEBASE_MEMORY_LIMIT", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let search = |stdin: &mut std::process::ChildStdin, commands: &str| {
        writeln!(stdin, "{commands}").unwrap();
        let mut said = Vec::new();
        loop {
            let line = lines
                .recv_timeout(Duration::from_secs(60))
                .expect("the protocol search answers");
            assert!(!line.starts_with("error"), "{line}");
            if line.starts_with("bestmove") {
                return said;
            }
            said.push(line);
        }
    };
    // The tables are opened (checked whole) by the first search, at the start.
    let said = search(
        &mut stdin,
        &format!("setoption name TablebasePath value {d}\nnewgame hexapawn 4\ngo depth 1"),
    );
    assert!(said.iter().any(|l| l.contains("tbhits")), "{said:?}");
    // Then the two-a-side table is damaged in place, and a position of it is searched: a loss
    // that the damaged table would call a win.
    overwrite_values(&dir.join("hexapawn-4-w2b2.tb"), 2);
    let said = search(
        &mut stdin,
        &format!("position board {TWO_A_SIDE} w\ngo depth 2"),
    );
    // No exact value but the true one (the damaged table says loss 2: a win in 1 after any
    // move).
    for line in said.iter().filter(|l| l.starts_with("info depth")) {
        let score = line.split(" score ").nth(1).unwrap_or("");
        assert!(
            !(score.starts_with("win") || score.starts_with("loss"))
                || score.starts_with("loss 4 "),
            "a value from the damaged table: {line}"
        );
    }
    let note = said
        .iter()
        .find(|l| l.starts_with("info string tablebase damaged while in use"))
        .unwrap_or_else(|| panic!("no note of the damaged table in {said:?}"));
    assert!(note.contains("hexapawn-4-w2b2.tb"), "{note}");
    // The next search opens the tables again, and the whole file's checksum refuses them.
    let said = search(&mut stdin, "go depth 2");
    let note = said
        .iter()
        .find(|l| l.starts_with("info string tablebase not used"))
        .unwrap_or_else(|| panic!("no note of the refused tables in {said:?}"));
    assert!(
        note.contains("hexapawn-4-w2b2.tb") && note.contains("checksum mismatch"),
        "{note}"
    );
    writeln!(stdin, "quit").unwrap();
    assert!(child.wait().unwrap().success());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verify_names_every_missing_table_and_does_not_call_the_set_sound() {
    let (dir, _) = sound_set("incomplete");
    let d = dir.to_str().unwrap();
    let out = run(&["tablebase", "verify", "hexapawn", "3", "--dir", d]);
    assert_eq!(
        text(&out.stdout),
        format!("9 tables of hexapawn 3 in {d} are sound, every material up to 3 pieces a side\n")
    );
    // Two tables gone: both named, the set not called sound.
    for name in ["hexapawn-3-w1b2.tb", "hexapawn-3-w3b2.tb"] {
        std::fs::remove_file(dir.join(name)).unwrap();
    }
    let out = run(&["tablebase", "verify", "hexapawn", "3", "--dir", d]);
    refused(
        &out,
        &[
            "incomplete, not sound",
            "2 of the 9 tables up to 3 pieces a side missing",
            "hexapawn-3-w1b2.tb, hexapawn-3-w3b2.tb",
        ],
        "verify of an incomplete set",
    );
    assert!(
        !text(&out.stdout).contains("sound"),
        "{}",
        text(&out.stdout)
    );
    // Only the largest left: the eight below it named.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if !path.ends_with("hexapawn-3-w3b3.tb") {
            std::fs::remove_file(path).unwrap();
        }
    }
    let out = run(&["tablebase", "verify", "hexapawn", "3", "--dir", d]);
    refused(
        &out,
        &[
            "8 of the 9 tables",
            "hexapawn-3-w1b1.tb, hexapawn-3-w1b2.tb, hexapawn-3-w1b3.tb, hexapawn-3-w2b1.tb, hexapawn-3-w2b2.tb, hexapawn-3-w2b3.tb, hexapawn-3-w3b1.tb, hexapawn-3-w3b2.tb",
        ],
        "verify of the largest table alone",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
