//! The proof-number search (`engine solve --proof`) against independent evidence: the naive
//! memoised negamax on random reachable positions of every small size, with a table so small
//! that entries are replaced all the time; the tables as leaves; the node limit; the binary.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use boardgames_core::games::{Game, Hexapawn, Oska};
use boardgames_core::score::Score;
use boardgames_core::search::{Proof, ProofSearch};
use boardgames_core::tablebase::{Retro, Tablebase};

use crate::common::{self, Rng, random_line};
use crate::tablebase::{naive, tables};

/// Win, draw or loss of an exact score.
fn wdl(score: Score) -> Proof {
    match score {
        Score::Win(_) => Proof::Win,
        Score::Loss(_) => Proof::Loss,
        Score::Draw => Proof::Draw,
        Score::Cp(_) => Proof::Unknown,
    }
}

/// `count` random reachable positions of `G` at `size`, proved with a table of 1 MiB (and
/// `probe`'s tables at the leaves, if any), each against the naive negamax. Returns how many
/// of each result were seen.
fn against_naive<G: Game>(
    size: usize,
    count: usize,
    probe: Option<boardgames_core::search::Probe<G>>,
) -> HashMap<Proof, usize> {
    let mut rng = Rng::new(size as u64 * 7 + G::KIND as u64);
    let mut memo = HashMap::new();
    let mut seen = HashMap::new();
    let mut search = ProofSearch::<G>::new(1, probe);
    for _ in 0..count {
        let line = random_line::<G>(&mut rng, size, 4 * size);
        let pos = *line.current();
        let proof = search.run(&pos, None, &AtomicBool::new(false), &mut |_| {});
        assert_eq!(proof, wdl(naive(pos, &mut memo)), "{pos:?}");
        *seen.entry(proof).or_insert(0) += 1;
    }
    seen
}

#[test]
fn proofs_equal_the_naive_negamax_in_every_small_game() {
    for size in 3..=4 {
        let seen = against_naive::<Hexapawn>(size, 300, None);
        assert!(seen.contains_key(&Proof::Win) && seen.contains_key(&Proof::Loss));
    }
    // Oska has draws (neither side can move): the second stage, with the other attacker.
    let seen = against_naive::<Oska>(4, 300, None);
    assert_eq!(seen.len(), 3, "wins, draws and losses: {seen:?}");
}

/// The tables of at most `k` pieces a side of `G` at `size`, as a probe.
fn probe_of<G: Retro>(size: usize, k: usize) -> boardgames_core::search::Probe<G> {
    let (all, _) = tables::<G>(size);
    let some = all
        .into_iter()
        .filter(|(h, _)| h.white <= k && h.black <= k);
    let tb = Tablebase::from_tables::<G>(size, some).expect("the tables are sound");
    Arc::new(move |p: &G| tb.probe(p))
}

#[test]
fn proofs_with_the_tables_as_leaves_equal_the_naive_negamax() {
    against_naive::<Oska>(4, 200, Some(probe_of::<Oska>(4, 2)));
    against_naive::<Hexapawn>(4, 200, Some(probe_of::<Hexapawn>(4, 2)));
}

#[test]
fn the_starts_are_proved_as_the_solver_values_them() {
    // Hexapawn 5: `win 19` and Oska 4: `win 21` by the exact solver (docs/cli.md); Hexapawn 3
    // is lost for White (the game of the seeds' assignment).
    let cases: [(&str, Proof); 2] = [("5", Proof::Win), ("3", Proof::Loss)];
    for (size, want) in cases {
        let pos = Hexapawn::start(size.parse().unwrap()).unwrap();
        let mut search = ProofSearch::new(16, None);
        assert_eq!(
            search.run(&pos, None, &AtomicBool::new(false), &mut |_| {}),
            want
        );
    }
    let pos = Oska::start(4).unwrap();
    let mut search = ProofSearch::<Oska>::new(16, None);
    assert_eq!(
        search.run(&pos, None, &AtomicBool::new(false), &mut |_| {}),
        Proof::Win
    );
}

#[test]
fn a_node_limit_or_the_stop_flag_gives_unknown() {
    let pos = Hexapawn::start(5).unwrap();
    let mut search = ProofSearch::<Hexapawn>::new(1, None);
    assert_eq!(
        search.run(&pos, Some(100), &AtomicBool::new(false), &mut |_| {}),
        Proof::Unknown
    );
    assert!(search.nodes() <= 100);
    // The stop flag is looked at with each report (every 2^20 nodes): Hexapawn 6 takes more.
    let pos = Hexapawn::start(6).unwrap();
    let mut reports = Vec::new();
    let stopped = search.run(&pos, None, &AtomicBool::new(true), &mut |p| {
        reports.push(p.clone())
    });
    assert_eq!(stopped, Proof::Unknown);
    assert_eq!(reports[0].nodes, 1 << 20);
    assert_eq!(search.nodes(), 1 << 20, "no node after the stop");
}

/// Runs `engine solve ARGS`; returns the exit status, stdout and stderr.
fn solve(args: &[&str]) -> (i32, String, String) {
    engine(&[&["solve"], args].concat())
}

const HEXAPAWN_5: &str = "wwwww/-----/-----/-----/bbbbb";

#[test]
fn a_proof_stopped_at_its_budget_and_resumed_gives_the_solver_answer() {
    let dir = crate::common::Scratch::new("proof-resume", "h5");
    let file = dir.path("h5.ckpt").display().to_string();
    // The exact solver's value, the independent evidence.
    let (code, exact, _) = solve(&["hexapawn", HEXAPAWN_5, "w"]);
    assert_eq!((code, exact.as_str()), (0, "win 19\n"));
    let mut args = vec!["hexapawn", HEXAPAWN_5, "w", "--proof", "--nodes", "15000"];
    args.extend(["--checkpoint", &file]);
    let (code, out, err) = solve(&args);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("stopped after 15000 nodes (--nodes)")
            && err.contains(&format!("go on with --resume {file}")),
        "{err}"
    );
    // Resumed in steps of 15 000 nodes, each run writing back to the file, until it proves.
    let mut budget = 15_000;
    let answer = loop {
        budget += 15_000;
        let nodes = budget.to_string();
        let args = [
            "hexapawn", HEXAPAWN_5, "w", "--proof", "--resume", &file, "--nodes", &nodes,
        ];
        let (code, out, err) = solve(&args);
        if code == 0 {
            break out;
        }
        assert!(
            err.contains(&format!("stopped after {budget} nodes")),
            "{err}"
        );
        assert!(budget < 2_000_000, "never proved: {err}");
    };
    assert_eq!(answer, "win\n");
    assert!(
        budget >= 45_000,
        "it should take several runs, took {budget} nodes"
    );
    // The checkpoint is of that position only.
    let args = [
        "hexapawn",
        "wwwww/-----/-----/-----/bbbbb",
        "b",
        "--proof",
        "--resume",
        &file,
    ];
    let (code, _, err) = solve(&args);
    assert_eq!(code, 1);
    assert!(
        err.contains("is of hexapawn 5") && err.contains("not of hexapawn 5"),
        "{err}"
    );
    // A damaged one is refused saying so, and left as it is.
    let mut bytes = std::fs::read(&file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    let (code, _, err) = solve(&["hexapawn", HEXAPAWN_5, "w", "--proof", "--resume", &file]);
    assert_eq!(code, 1);
    assert!(
        err.contains("is damaged") && err.contains("checksum"),
        "{err}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
}

#[test]
fn sigterm_stops_a_proof_cleanly_and_it_goes_on_from_its_checkpoint() {
    use std::io::{BufRead, BufReader};
    let dir = crate::common::Scratch::new("proof-signal", "h6");
    let file = dir.path("h6.ckpt").display().to_string();
    let h6 = "wwwwww/------/------/------/------/bbbbbb";
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_engine"))
        .args([
            "solve",
            "hexapawn",
            h6,
            "w",
            "--proof",
            "--checkpoint",
            &file,
        ])
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The first report (after 2^20 nodes) says the search is under way, the handlers set.
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    assert!(line.starts_with("proof attacker white"), "{line}");
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    assert_eq!(status.code(), Some(1), "{rest}");
    assert!(rest.contains("SIGTERM: stopping"), "{rest}");
    let nodes = common::number_after(&rest, "stopped after ").unwrap_or_else(|| panic!("{rest}"));
    assert!(
        rest.contains("(a signal)") && rest.contains("--resume"),
        "{rest}"
    );
    // It goes on from there: a budget of one more report's nodes is spent past the first run's.
    let more = (nodes + (1 << 20)).to_string();
    let (code, _, err) = solve(&[
        "hexapawn", h6, "w", "--proof", "--resume", &file, "--nodes", &more,
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!("stopped after {more} nodes (--nodes)")),
        "{err}"
    );
    // Its report counts on from the checkpoint's nodes, not from 0.
    assert!(err.contains(&format!("nodes {more} ")), "{err}");
}

/// Runs `engine ARGS`; returns the exit status, stdout and stderr.
fn engine(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Rounds of `run` (which runs the scheduler's file) and `engine proof merge` until decided;
/// returns the merge's output and the rounds.
fn run_plan(dir: &str, run: &dyn Fn() -> std::process::ExitStatus) -> (String, u32) {
    for round in 1..=12 {
        assert!(run().success());
        let (code, out, err) = engine(&["proof", "merge", dir]);
        match code {
            0 => return (out, round),
            2 => assert!(
                err.contains("not decided") && err.contains("planned in"),
                "{err}"
            ),
            _ => panic!("merge failed: {err}"),
        }
    }
    panic!("not decided in 12 rounds");
}

#[test]
fn a_plan_of_hexapawn_5_run_by_make_and_merged_equals_the_one_process_answer() {
    let scratch = crate::common::Scratch::new("proof-plan", "make");
    let dir = scratch.path("h5").display().to_string();
    let (code, out, err) = engine(&[
        "proof", "plan", "hexapawn", HEXAPAWN_5, "w", "--depth", "2", "--dir", &dir, "--nodes",
        "2000", "--hash", "1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("25 jobs at depth 2"), "{out}");
    // A second plan in the same directory is refused rather than mixed with the first.
    let (code, _, err) = engine(&[
        "proof", "plan", "hexapawn", HEXAPAWN_5, "w", "--depth", "1", "--dir", &dir,
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("already holds a plan"), "{err}");
    // Merged before any job ran: nothing decided, and the budget stays for the jobs not run.
    let (code, _, err) = engine(&["proof", "merge", &dir]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not decided: 0 of 25 jobs proved"), "{err}");
    assert!(
        err.contains("with 2000 nodes a job (") && err.contains("not run yet)"),
        "{err}"
    );
    let makefile = format!("{dir}/Makefile");
    let make = || {
        std::process::Command::new("make")
            .args(["-s", "-f", &makefile, "-j2"])
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap()
    };
    // Round 1 run whole: the budget grows to 8000. Then one job alone of round 2: it stays.
    assert!(make().success());
    let (code, _, err) = engine(&["proof", "merge", &dir]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("round 2 planned") && err.contains("with 8000 nodes a job:"),
        "{err}"
    );
    let first_open = err
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("job ")
                .and_then(|r| r.split(':').next())
        })
        .unwrap()
        .to_string();
    let (code, _, _) = engine(&["proof", "job", &dir, &first_open]);
    assert_eq!(code, 0);
    let (_, _, err) = engine(&["proof", "merge", &dir]);
    assert!(
        err.contains("round 2 planned") && err.contains("not run yet)"),
        "{err}"
    );
    // Then whole rounds until decided.
    let (merged, _) = run_plan(&dir, &make);
    // The one-process proof says win; the merged answer too, with a certificate that checks.
    let (_, whole, _) = solve(&["hexapawn", HEXAPAWN_5, "w", "--proof"]);
    assert_eq!(whole, "win\n");
    assert!(
        merged.starts_with("decided: win for white to move"),
        "{merged}"
    );
    let (code, out, err) = engine(&["proof", "check", &format!("{dir}/root.cert")]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("valid: win for white"), "{out}");
    // Not every job needed proving: a win at White's turn needs one good move.
    let results = std::fs::read_dir(format!("{dir}/jobs"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "result")
        })
        .count();
    assert!(results >= 1);
}

#[test]
fn the_list_and_slurm_formats_run_the_same_jobs() {
    let scratch = crate::common::Scratch::new("proof-plan", "list");
    let dir = scratch.path("h4").display().to_string();
    let h4 = "wwww/----/----/bbbb";
    let (code, _, err) = engine(&[
        "proof", "plan", "hexapawn", h4, "b", "--depth", "3", "--dir", &dir, "--format", "list",
        "--nodes", "50",
    ]);
    assert_eq!(code, 0, "{err}");
    let list = format!("{dir}/jobs.list");
    let (merged, _) = run_plan(&dir, &|| {
        std::process::Command::new("bash")
            .arg(&list)
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap()
    });
    let (_, exact, _) = solve(&["hexapawn", h4, "b"]);
    let word = exact.split_whitespace().next().unwrap().to_string();
    assert!(
        merged.starts_with(&format!("decided: {word} for black")),
        "{merged} vs {exact}"
    );
    let (code, _, err) = engine(&["proof", "check", &format!("{dir}/root.cert")]);
    assert_eq!(code, 0, "{err}");
    // The Slurm script is valid bash and submits one array of the jobs.
    let dir = scratch.path("slurm").display().to_string();
    let (code, _, err) = engine(&[
        "proof", "plan", "hexapawn", h4, "w", "--depth", "2", "--dir", &dir, "--format", "slurm",
    ]);
    assert_eq!(code, 0, "{err}");
    let script = std::fs::read_to_string(format!("{dir}/submit.sh")).unwrap();
    assert!(script.contains("--array=0-$((${#ids[@]} - 1))") && script.contains("afterany"));
    let syntax = std::process::Command::new("bash")
        .args(["-n", &format!("{dir}/submit.sh")])
        .status()
        .unwrap();
    assert!(syntax.success());
    // Capture the Flag has no proofs.
    let dir = scratch.path("ctf").display().to_string();
    let (code, _, err) = engine(&[
        "proof",
        "plan",
        "ctf",
        "wF--/----/----/--Fb",
        "w",
        "--depth",
        "1",
        "--dir",
        &dir,
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("proofs are of Oska and Hexapawn"), "{err}");
}

#[test]
fn two_threads_prove_the_starts_with_a_certificate_that_checks() {
    let scratch = crate::common::Scratch::new("proof-threads", "t2");
    for (game, board, side, want) in [
        ("hexapawn", HEXAPAWN_5, "w", "win"),
        ("oska", "wwww/---/--/---/bbbb", "w", "win"),
        ("hexapawn", "wwww/----/----/bbbb", "b", ""),
    ] {
        let file = scratch
            .path(&format!("{game}-{side}.cert"))
            .display()
            .to_string();
        let (_, one, _) = solve(&[game, board, side, "--proof"]);
        if !want.is_empty() {
            assert_eq!(one.trim(), want);
        }
        let (code, two, err) = solve(&[
            game,
            board,
            side,
            "--proof",
            "--threads",
            "2",
            "--certificate",
            &file,
        ]);
        assert_eq!((code, &two), (0, &one), "{err}");
        let (code, out, err) = engine(&["proof", "check", &file]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("valid:"), "{out}");
    }
    // The checkpoint is of the one search.
    let (code, _, err) = solve(&[
        "hexapawn",
        HEXAPAWN_5,
        "w",
        "--proof",
        "--threads",
        "2",
        "--checkpoint",
        &scratch.path("c").display().to_string(),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("engine proof plan"), "{err}");
}
