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

use crate::common::{Rng, random_line};
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
