//! The `info` lines of a search.

use std::fmt;

use super::*;

/// The `info depth ...` line of a completed search iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Plies searched.
    pub depth: u32,
    /// Which line this is when the engine reports several (`multipv K`, from 1 = the best;
    /// the `MultiPV` option); `None` when it reports one, which is then printed without it.
    pub multipv: Option<u32>,
    /// The score.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since `go`.
    pub time_ms: u64,
    /// Positions answered by a tablebase (printed as `tbhits N` only when not 0).
    pub tbhits: u64,
    /// The principal variation.
    pub pv: Vec<String>,
}

/// An `info` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// A completed iteration.
    Search(SearchInfo),
    /// `info trace TEXT`: one searched node (when the `Trace` option is on).
    Trace(String),
    /// `info string TEXT`: free text for humans.
    String(String),
    /// `info nodes ...`: how far a long search (the exact solver) has got.
    Progress(ProgressInfo),
    /// Any other `info` line (its text after `info`), which a GUI ignores: engines may add their
    /// own kinds. The text starts with a word other than `depth`, `trace` and `string`, and is
    /// not an `info nodes` line of [`ProgressInfo`]'s form.
    Other(String),
}

/// The `info nodes N nps N time MS [stage WORD] [root DONE/TOTAL] [bound SCORE]` line: a search
/// that prints no `info depth` line for a long time (the exact solver of `go solve`) reports
/// about once a second how far it has got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgressInfo {
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since `go`.
    pub time_ms: u64,
    /// The search's stage, one word (the exact solver's `wdl`, then `distance`).
    pub stage: Option<String>,
    /// Root moves finished in this stage, and the root's legal moves.
    pub root: Option<(u32, u32)>,
    /// What the finished stages proved: `win K` (the side to move wins) or `loss K` (it loses),
    /// the game ending in K plies or fewer with best play.
    pub bound: Option<Score>,
}

impl ProgressInfo {
    /// Reads the words after `info` (`nodes ...`); `None` when they are not of this form.
    pub(super) fn parse(text: &str) -> Option<ProgressInfo> {
        let mut words = text.split([' ', '\t']).filter(|w| !w.is_empty()).peekable();
        let mut field = |key: &str| {
            (words.next() == Some(key))
                .then(|| words.next()?.parse::<u64>().ok())
                .flatten()
        };
        let (nodes, nps, time_ms) = (field("nodes")?, field("nps")?, field("time")?);
        let mut info = ProgressInfo {
            nodes,
            nps,
            time_ms,
            stage: None,
            root: None,
            bound: None,
        };
        if words.next_if_eq(&"stage").is_some() {
            info.stage = Some(words.next()?.to_string());
        }
        if words.next_if_eq(&"root").is_some() {
            let (done, total) = words.next()?.split_once('/')?;
            info.root = Some((done.parse().ok()?, total.parse().ok()?));
        }
        if words.next_if_eq(&"bound").is_some() {
            info.bound = Some(match words.next()? {
                "draw" => Score::Draw,
                "win" => Score::Win(words.next()?.parse().ok()?),
                "loss" => Score::Loss(words.next()?.parse().ok()?),
                "cp" => Score::Cp(words.next()?.parse().ok()?),
                _ => return None,
            });
        }
        words.next().is_none().then_some(info)
    }
}

impl fmt::Display for ProgressInfo {
    /// The words after `info`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "nodes {} nps {} time {}",
            self.nodes, self.nps, self.time_ms
        )?;
        if let Some(stage) = &self.stage {
            write!(f, " stage {stage}")?;
        }
        if let Some((done, total)) = self.root {
            write!(f, " root {done}/{total}")?;
        }
        if let Some(bound) = self.bound {
            write!(f, " bound {bound}")?;
        }
        Ok(())
    }
}
