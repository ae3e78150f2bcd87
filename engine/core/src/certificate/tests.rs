//! The certificate's format, builder and checker: certificates of the proof search pass and
//! state the value a naive negamax gives; each kind of tampering is refused by its own check,
//! with the place named.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use super::*;
use crate::eval::Evaluate;
use crate::exact::ExactSolver;
use crate::games::format::parse_board;
use crate::games::notation::parse_move;
use crate::games::{Hexapawn, Line, MoveList, Oska};

/// The certificate of `pos` by the proof search (with no tables, a small table).
fn certify<G: Game + Evaluate>(pos: G) -> Certificate {
    let mut solver = ExactSolver::<G>::new(1, None);
    let (_, cert) = solver
        .value_certified(&Line::new(pos), None, &AtomicBool::new(false), &mut |_| {})
        .unwrap();
    cert
}

/// The value of `pos` for its side to move by plain negamax over the whole tree (memoised by
/// position): the independent evidence.
fn naive<G: Game>(pos: G, memo: &mut HashMap<G, Value>) -> Value {
    if let Some(&v) = memo.get(&pos) {
        return v;
    }
    let v = if let Some(o) = Line::new(pos).outcome() {
        Value::for_side(o.winner(), pos.side_to_move())
    } else {
        let mut moves = MoveList::new();
        pos.generate(&mut moves);
        moves
            .as_slice()
            .iter()
            .map(|&m| naive(pos.play(m), memo).flip())
            .max()
            .unwrap()
    };
    memo.insert(pos, v);
    v
}

/// Every position of the first `plies` plies from the start of `G` at `size`, each once.
fn positions<G: Game>(size: usize, plies: usize) -> Vec<G> {
    let mut seen = vec![G::start(size).unwrap()];
    let mut frontier = seen.clone();
    for _ in 0..plies {
        let mut next = Vec::new();
        for pos in &frontier {
            if Line::new(*pos).outcome().is_some() {
                continue;
            }
            let mut moves = MoveList::new();
            pos.generate(&mut moves);
            for &m in moves.as_slice() {
                let p = pos.play(m);
                if !seen.contains(&p) && !next.contains(&p) {
                    next.push(p);
                }
            }
        }
        seen.extend(next.iter().copied());
        frontier = next;
    }
    seen
}

/// Certifies every position, checks each certificate (also read back from its text) and
/// compares what it claims with the naive negamax. Returns how many of each value were seen.
fn certified_as_negamax_says<G: Game + Evaluate>(all: Vec<G>) -> HashMap<Value, usize> {
    let mut memo = HashMap::new();
    let mut seen = HashMap::new();
    for pos in all {
        let cert = certify(pos);
        let (text, size) = cert.write();
        assert_eq!(size.bytes, text.len());
        let back = Certificate::parse(&text).unwrap();
        assert_eq!(back, cert);
        let checked = check(&back, None).unwrap_or_else(|e| panic!("{pos:?}: {e}\n{text}"));
        assert_eq!((checked.nodes, checked.leaves), (size.nodes, size.leaves));
        let want = naive(pos, &mut memo);
        assert_eq!(
            checked.claimed.value_for(pos.side_to_move()),
            Some(want),
            "{pos:?}"
        );
        *seen.entry(want).or_insert(0) += 1;
    }
    seen
}

#[test]
fn certificates_pass_and_claim_what_negamax_says() {
    let seen = certified_as_negamax_says(positions::<Hexapawn>(3, 9));
    assert!(seen.len() == 2, "wins and losses: {seen:?}");
    let seen = certified_as_negamax_says(positions::<Hexapawn>(4, 3));
    assert!(seen.len() == 2, "wins and losses: {seen:?}");
}

/// `count` positions reached by random games from the start of `G` at `size`, 4 to 23 plies
/// in (or fewer, where the game ended), each once.
fn random_positions<G: Game>(size: usize, count: usize) -> Vec<G> {
    let mut rng = crate::splitmix::SplitMix64::new(size as u64);
    let mut out = Vec::new();
    for _ in 0..count {
        let mut pos = G::start(size).unwrap();
        for _ in 0..4 + rng.next_u64() % 20 {
            if Line::new(pos).outcome().is_some() {
                break;
            }
            let mut moves = MoveList::new();
            pos.generate(&mut moves);
            pos = pos.play(moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]);
        }
        if !out.contains(&pos) {
            out.push(pos);
        }
    }
    out
}

#[test]
fn certificates_of_random_positions_pass_and_claim_what_negamax_says() {
    // Oska has draws (neither side can move): certificates of two claims.
    let seen = certified_as_negamax_says(random_positions::<Oska>(4, 300));
    assert_eq!(seen.len(), 3, "wins, draws and losses: {seen:?}");
    let seen = certified_as_negamax_says(random_positions::<Hexapawn>(4, 100));
    assert!(seen.len() == 2, "wins and losses: {seen:?}");
}

#[test]
fn a_finished_game_is_one_end_leaf_and_a_win_also_proves_a_draw() {
    // White has reached Black's home row; Black to move has lost.
    let pos = *parse_board::<Hexapawn>("---/-b-/w--", Side::Black)
        .unwrap()
        .line
        .current();
    assert_eq!(
        Line::new(pos).outcome().and_then(|o| o.winner()),
        Some(Side::White)
    );
    let cert = certify(pos);
    assert_eq!(cert.nodes, [Node::Leaf(Leaf::End(Value::Loss))]);
    assert_eq!(
        check(&cert, None).unwrap().claimed,
        Claimed::Win(Side::White)
    );
    let text = cert.write().0;
    let draw = text.replace("claim white win 0", "claim white draw 0");
    let checked = check(&Certificate::parse(&draw).unwrap(), None).unwrap();
    assert_eq!(checked.claimed, Claimed::AtLeastDraw(Side::White));
}

#[test]
fn a_leaf_short_of_the_claim_is_refused() {
    let pos = *parse_board::<Hexapawn>("---/-b-/w--", Side::Black)
        .unwrap()
        .line
        .current();
    let text = certify(pos).write().0;
    for level in ["win", "draw"] {
        let bad = text.replace("claim white win 0", &format!("claim black {level} 0"));
        let err = check(&Certificate::parse(&bad).unwrap(), None).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "claim 1 (black gets at least a {level} from node 0), node 0 (line 8), at the \
                 root: a loss for black here, short of the claim's {level}"
            )
        );
    }
}

/// A certificate's text cut into its header and node lines, with each node's position (by the
/// rules, replayed here from the root) and the references to each node.
struct Cut {
    header: Vec<String>,
    nodes: Vec<Vec<String>>,
    pos: Vec<Hexapawn>,
    refs: Vec<usize>,
}

impl Cut {
    fn of(cert: &Certificate) -> Cut {
        let text = cert.write().0;
        let lines: Vec<&str> = text.lines().collect();
        let first = lines.iter().position(|l| l.starts_with("nodes ")).unwrap() + 1;
        let nodes: Vec<Vec<String>> = lines[first..]
            .iter()
            .map(|l| l.split(' ').map(String::from).collect())
            .collect();
        let root = *parse_board::<Hexapawn>(&cert.board, cert.side)
            .unwrap()
            .line
            .current();
        let mut pos = vec![None; nodes.len()];
        let mut refs = vec![0; nodes.len()];
        let mut todo = vec![(cert.claims[0].root as usize, root)];
        while let Some((id, p)) = todo.pop() {
            if pos[id].is_some() {
                continue;
            }
            pos[id] = Some(p);
            for pair in nodes[id][1..].chunks(2) {
                if pair[0] == "end" || pair[0] == "table" {
                    break;
                }
                let mv = parse_move(&Line::new(p), &pair[0]).unwrap();
                let child: usize = pair[1].parse().unwrap();
                refs[child] += 1;
                todo.push((child, p.play(mv)));
            }
        }
        Cut {
            header: lines[..first].iter().map(|l| l.to_string()).collect(),
            nodes,
            pos: pos.into_iter().map(Option::unwrap).collect(),
            refs,
        }
    }

    fn text(&self) -> String {
        let mut out = self.header.join("\n") + "\n";
        for n in &self.nodes {
            out += &(n.join(" ") + "\n");
        }
        out
    }

    /// The line of node `id` in the file.
    fn line(&self, id: usize) -> usize {
        self.header.len() + id + 1
    }

    /// The first inner node where `side` is to move, with its id.
    fn inner_at(&self, side: Side, edges: usize) -> usize {
        (0..self.nodes.len())
            .find(|&i| {
                let n = &self.nodes[i];
                n[1] != "end"
                    && n[1] != "table"
                    && self.pos[i].side_to_move() == side
                    && n.len() > 2 * edges
            })
            .unwrap()
    }

    /// What checking the text gives.
    fn check(&self) -> Result<Checked, CertificateError> {
        check(&Certificate::parse(&self.text()).unwrap(), None)
    }
}

/// The certificate of Hexapawn 4's start (a win for White), cut.
fn start4() -> Cut {
    let cert = certify(Hexapawn::start(4).unwrap());
    assert_eq!(
        check(&cert, None).unwrap().claimed,
        Claimed::Win(Side::White)
    );
    Cut::of(&cert)
}

/// The message of the refusal of `cut`, which must name `node`, its line and the claim.
fn refusal(cut: &Cut, node: usize) -> String {
    let err = cut.check().unwrap_err().to_string();
    let place = format!(
        "claim 1 (white gets at least a win from node {}), node {node} (line {}), ",
        cut.nodes.len() - 1,
        cut.line(node)
    );
    assert!(
        err.starts_with(&place),
        "{err}\nexpected to start with {place}"
    );
    err
}

#[test]
fn an_illegal_move_is_refused() {
    let mut cut = start4();
    let root = cut.nodes.len() - 1;
    // A pawn two squares forward.
    cut.nodes[root][1] = "a1a3".into();
    let err = refusal(&cut, root);
    assert!(err.contains("at the root: move a1a3: "), "{err}");
}

#[test]
fn another_legal_move_that_does_not_end_the_game_is_refused() {
    let mut cut = start4();
    // A node at White's turn whose one move ends the game (an end leaf reached from here only),
    // given another legal move, which does not.
    let (node, other) = (0..cut.nodes.len())
        .find_map(|i| {
            let n = &cut.nodes[i];
            let p = cut.pos[i];
            if p.side_to_move() != Side::White || n[1] == "end" {
                return None;
            }
            let child: usize = n[2].parse().unwrap();
            if cut.nodes[child][1] != "end" || cut.refs[child] != 1 {
                return None;
            }
            let mut moves = MoveList::new();
            p.generate(&mut moves);
            let other = moves
                .as_slice()
                .iter()
                .find(|&&m| Line::new(p.play(m)).outcome().is_none())?;
            Some((i, crate::games::notation::move_name(&p, *other)))
        })
        .unwrap();
    cut.nodes[node][1] = other.clone();
    let child: usize = cut.nodes[node][2].parse().unwrap();
    let err = refusal(&cut, child);
    assert!(
        err.contains(&format!(" {other}: an end leaf, but the game is not over")),
        "{err}"
    );
}

#[test]
fn a_node_reached_as_two_positions_is_refused() {
    let mut cut = start4();
    // An edge to an end leaf shared by two paths, pointed at another end leaf of the same
    // value: each position alone would pass as that leaf.
    let (node, leaf) = (0..cut.nodes.len())
        .find_map(|i| {
            let n = &cut.nodes[i];
            if n[1] == "end" || cut.pos[i].side_to_move() != Side::White {
                return None;
            }
            let child: usize = n[2].parse().unwrap();
            (cut.nodes[child][1..] == ["end", "loss"] && cut.refs[child] >= 2).then_some((i, child))
        })
        .unwrap();
    let other = (0..cut.nodes.len())
        .find(|&j| j != leaf && cut.nodes[j][1..] == ["end", "loss"] && cut.pos[j] != cut.pos[leaf])
        .unwrap();
    cut.nodes[node][2] = other.to_string();
    let err = cut.check().unwrap_err().to_string();
    assert!(
        err.contains(&format!(
            "node {other} (line {}) was reached before as another position",
            cut.line(other)
        )),
        "{err}"
    );
}

#[test]
fn a_dropped_reply_is_refused() {
    let mut cut = start4();
    let node = cut.inner_at(Side::Black, 2);
    let dropped = cut.nodes[node].len() - 2;
    let mv = cut.nodes[node][dropped].clone();
    cut.nodes[node].truncate(dropped);
    let err = refusal(&cut, node);
    assert!(
        err.contains(&format!("black's reply {mv} is missing")),
        "{err}"
    );
}

#[test]
fn a_reply_listed_twice_is_refused() {
    let mut cut = start4();
    let node = cut.inner_at(Side::Black, 1);
    let pair = cut.nodes[node][1..3].to_vec();
    cut.nodes[node].extend(pair.clone());
    let err = refusal(&cut, node);
    assert!(
        err.contains(&format!("black's reply {} is listed twice", pair[0])),
        "{err}"
    );
}

#[test]
fn two_moves_at_the_claims_turn_are_refused() {
    let mut cut = start4();
    let node = cut.inner_at(Side::White, 1);
    let pair = cut.nodes[node][1..3].to_vec();
    cut.nodes[node].extend(pair);
    let err = refusal(&cut, node);
    assert!(
        err.contains("white's turn, the claim's side: exactly one move is due, not 2"),
        "{err}"
    );
}

#[test]
fn a_leaf_value_changed_is_refused() {
    let mut cut = start4();
    let leaf = (0..cut.nodes.len())
        .find(|&i| cut.nodes[i][1..] == ["end", "loss"])
        .unwrap();
    cut.nodes[leaf][2] = "win".into();
    let err = refusal(&cut, leaf);
    assert!(
        err.contains(": the file says win for black to move, the rules (white wins: "),
        "{err}"
    );
}

#[test]
fn an_edge_to_a_missing_node_is_refused() {
    let mut cut = start4();
    let node = cut.inner_at(Side::Black, 1);
    let missing = cut.nodes.len() + 5;
    cut.nodes[node][2] = missing.to_string();
    let err = refusal(&cut, node);
    assert!(
        err.contains(&format!(
            "leads to node {missing}, which the certificate does not hold"
        )),
        "{err}"
    );
}

#[test]
fn a_cycle_of_ids_is_refused() {
    let mut cut = start4();
    let root = cut.nodes.len() - 1;
    let below: usize = cut.nodes[root][2].parse().unwrap();
    cut.nodes[below][2] = root.to_string();
    let err = refusal(&cut, below);
    assert!(
        err.contains(&format!(
            "leads to node {root} (line {}), which is on the path",
            cut.line(root)
        )),
        "{err}"
    );
    assert!(err.contains("the ids make a cycle"), "{err}");
}

#[test]
fn a_node_no_claim_reaches_is_refused() {
    let mut cut = start4();
    let extra = cut.nodes.len();
    cut.nodes
        .push(vec![extra.to_string(), "end".into(), "loss".into()]);
    let count = cut.header.len() - 1;
    cut.header[count] = format!("nodes {}", extra + 1);
    let err = cut.check().unwrap_err().to_string();
    assert_eq!(
        err,
        format!(
            "node {extra} (line {}) is not reached from any claim",
            cut.line(extra)
        )
    );
}

#[test]
fn a_garbage_header_is_refused_with_its_line() {
    let cut = start4();
    let text = cut.text();
    let bad = text.replacen("boardgames-certificate 1", "boardgames-certificat 1", 1);
    assert_eq!(
        Certificate::parse(&bad).unwrap_err().to_string(),
        "line 1: not a certificate: the first line must be 'boardgames-certificate 1', not \
         'boardgames-certificat 1'"
    );
    let bad = text.replacen("size 4", "size four", 1);
    assert_eq!(
        Certificate::parse(&bad).unwrap_err().to_string(),
        "line 3: 'four' is not a size"
    );
    // Cut short: the last node line missing.
    let short = &text[..text.trim_end().rfind('\n').unwrap() + 1];
    let err = Certificate::parse(short).unwrap_err().to_string();
    assert!(err.contains("the text ends where node"), "{err}");
    assert!(Certificate::parse(&format!("{text}0 end loss\n")).is_err());
}

#[test]
fn certificates_grafted_under_a_top_tree_pass() {
    // The merger's way: a certificate for a child of the root, imported under a top node.
    let start = Hexapawn::start(4).unwrap();
    let mut memo = HashMap::new();
    let mut moves = MoveList::new();
    start.generate(&mut moves);
    let &win = moves
        .as_slice()
        .iter()
        .find(|&&m| naive(start.play(m), &mut memo) == Value::Loss)
        .unwrap();
    let below = certify(start.play(win));
    let mut builder = Builder::for_position(&start);
    let filler = builder.leaf(Leaf::End(Value::Loss));
    let roots = builder.import(&below).unwrap();
    let top = builder
        .inner(vec![(MoveText::of(&start, win), roots[0])])
        .unwrap();
    assert!(
        builder
            .inner(vec![(MoveText::of(&start, win), top + 1)])
            .is_err()
    );
    // The filler leaf is reached from no claim: `finish` drops it (the checker refuses a node
    // no claim reaches, `a_node_no_claim_reaches_is_refused`), and the graft passes.
    let _ = filler;
    let cert = builder
        .finish(Claim::of_value(Value::Win, Side::White, top))
        .unwrap();
    assert_eq!(cert.nodes.len(), below.nodes.len() + 1);
    check(&cert, None).unwrap();
    let mut builder = Builder::for_position(&start);
    let roots = builder.import(&below).unwrap();
    let top = builder
        .inner(vec![(MoveText::of(&start, win), roots[0])])
        .unwrap();
    let cert = builder
        .finish(Claim::of_value(Value::Win, Side::White, top))
        .unwrap();
    let checked = check(&Certificate::parse(&cert.write().0).unwrap(), None).unwrap();
    assert_eq!(checked.claimed, Claimed::Win(Side::White));
    assert_eq!(checked.nodes, below.nodes.len() + 1);
}
