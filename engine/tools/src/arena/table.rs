//! Running results of a tournament: wins, losses and draws per engine and per pairing, the
//! engines' faults by kind (crashes, stalls, time forfeits, ...), and the final table (rank,
//! name, Elo, +/-, games, score, draws).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::fault::FaultKind;
use super::stats::Wld;
use boardgames_core::protocol::shown;

/// The results so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standings {
    /// Engine names, in the order given.
    pub names: Vec<String>,
    /// `pairs[i][j]`: results of engine i against engine j (from i's point of view).
    pub pairs: Vec<Vec<Wld>>,
    /// Games lost by a fault, by engine and kind.
    pub faults: BTreeMap<(usize, FaultKind), u64>,
}

impl Standings {
    /// No game played yet.
    pub fn new(names: Vec<String>) -> Standings {
        let n = names.len();
        Standings {
            names,
            pairs: vec![vec![Wld::default(); n]; n],
            faults: BTreeMap::new(),
        }
    }

    /// Counts a game engine `i` lost by a fault of `kind`.
    pub fn add_fault(&mut self, i: usize, kind: FaultKind) {
        *self.faults.entry((i, kind)).or_default() += 1;
    }

    /// Games lost by faults, per engine, for the end of the output: `Faults: slow 2 time forfeit,
    /// 1 crash; deaf 1 stall` (names escaped with [`shown`]); `None` when there was none.
    pub fn faults_line(&self) -> Option<String> {
        if self.faults.is_empty() {
            return None;
        }
        let mut per_engine: Vec<String> = Vec::new();
        for (i, name) in self.names.iter().enumerate() {
            let kinds: Vec<String> = self
                .faults
                .iter()
                .filter(|((e, _), _)| *e == i)
                .map(|((_, kind), n)| format!("{n} {kind}"))
                .collect();
            if !kinds.is_empty() {
                per_engine.push(format!("{} {}", shown(name), kinds.join(", ")));
            }
        }
        Some(format!("Faults: {}", per_engine.join("; ")))
    }

    /// Adds a game between `a` and `b`: `Some(true)` when a won, `Some(false)` when a lost,
    /// `None` for a draw.
    pub fn add(&mut self, a: usize, b: usize, a_won: Option<bool>) {
        match a_won {
            Some(true) => {
                self.pairs[a][b].wins += 1;
                self.pairs[b][a].losses += 1;
            }
            Some(false) => {
                self.pairs[a][b].losses += 1;
                self.pairs[b][a].wins += 1;
            }
            None => {
                self.pairs[a][b].draws += 1;
                self.pairs[b][a].draws += 1;
            }
        }
    }

    /// Engine `i`'s results against the whole field.
    pub fn total(&self, i: usize) -> Wld {
        self.pairs[i].iter().fold(Wld::default(), |acc, w| Wld {
            wins: acc.wins + w.wins,
            losses: acc.losses + w.losses,
            draws: acc.draws + w.draws,
        })
    }

    /// Games played in all.
    pub fn games(&self) -> u64 {
        (0..self.names.len())
            .map(|i| self.total(i).games())
            .sum::<u64>()
            / 2
    }

    /// The players' indices best first: by points, then by name order (the rows of
    /// [`Standings::table`] and [`Standings::crosstable`]).
    fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| {
            self.total(b)
                .points()
                .total_cmp(&self.total(a).points())
                .then(a.cmp(&b))
        });
        order
    }

    /// The table, best first (by points, then by name order): rank, name, Elo, +/-, games,
    /// score (percent), draws (percent). Elo is each engine's performance against its opponents.
    /// Names are escaped with [`shown`].
    pub fn table(&self) -> String {
        let names: Vec<_> = self.names.iter().map(|n| shown(n)).collect();
        let order = self.ranking();
        let width = names.iter().map(|n| n.len()).max().unwrap_or(4).max(4);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:>4} {:<width$} {:>8} {:>8} {:>6} {:>7} {:>7}",
            "Rank", "Name", "Elo", "+/-", "Games", "Score", "Draws"
        );
        for (rank, &i) in order.iter().enumerate() {
            let w = self.total(i);
            let (elo, margin) = w.elo_cells();
            let _ = writeln!(
                out,
                "{:>4} {:<width$} {:>8} {:>8} {:>6} {:>6.1}% {:>6.1}%",
                rank + 1,
                names[i],
                elo,
                margin,
                w.games(),
                100.0 * w.score(),
                100.0 * w.draw_ratio()
            );
        }
        out.truncate(out.trim_end().len());
        out
    }

    /// The crosstable, best first as in [`Standings::table`]: a row per player with its points
    /// against each other player (`1.5/2`: points of games; `-` where they did not meet), the
    /// columns numbered by rank. Names are escaped with [`shown`].
    pub fn crosstable(&self) -> String {
        let names: Vec<_> = self.names.iter().map(|n| shown(n)).collect();
        let order = self.ranking();
        let width = names.iter().map(|n| n.len()).max().unwrap_or(4).max(10);
        let cells: Vec<Vec<String>> = order
            .iter()
            .map(|&a| {
                order
                    .iter()
                    .map(|&b| {
                        let w = self.pairs[a][b];
                        if a == b {
                            "x".to_string()
                        } else if w.games() == 0 {
                            "-".to_string()
                        } else {
                            format!("{}/{}", w.points(), w.games())
                        }
                    })
                    .collect()
            })
            .collect();
        let cw = cells
            .iter()
            .flatten()
            .map(String::len)
            .max()
            .unwrap_or(1)
            .max(order.len().to_string().len());
        let mut out = String::new();
        let _ = write!(out, "{:>4} {:<width$}", "", "Crosstable");
        for k in 1..=order.len() {
            let _ = write!(out, " {k:>cw$}");
        }
        out.push('\n');
        for (rank, (&a, row)) in order.iter().zip(&cells).enumerate() {
            let _ = write!(out, "{:>4} {:<width$}", rank + 1, names[a]);
            for c in row {
                let _ = write!(out, " {c:>cw$}");
            }
            out.push('\n');
        }
        out.truncate(out.trim_end().len());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_of_a_known_round_robin() {
        let mut s = Standings::new(vec!["a".into(), "bb".into(), "c".into()]);
        // a beats b twice, draws c twice; b and c draw one and c wins one.
        s.add(0, 1, Some(true));
        s.add(1, 0, Some(false));
        s.add(0, 2, None);
        s.add(2, 0, None);
        s.add(1, 2, None);
        s.add(2, 1, Some(true));
        assert_eq!(s.games(), 6);
        assert_eq!(
            s.total(0),
            Wld {
                wins: 2,
                losses: 0,
                draws: 2
            }
        );
        assert_eq!(
            s.total(1),
            Wld {
                wins: 0,
                losses: 3,
                draws: 1
            }
        );
        assert_eq!(
            s.pairs[2][1],
            Wld {
                wins: 1,
                losses: 0,
                draws: 1
            }
        );
        let t = s.table();
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(
            lines[0],
            "Rank Name      Elo      +/-  Games   Score   Draws"
        );
        // a: 3/4 = 75 % -> 190.8 Elo; c: 2.5/4 = 62.5 % -> 88.7 Elo; b: 0.5/4 -> -338.0 Elo.
        assert!(lines[1].starts_with("   1 a       190.8"), "{t}");
        assert!(lines[1].ends_with("4   75.0%   50.0%"), "{t}");
        assert!(lines[2].starts_with("   2 c        88.7"), "{t}");
        assert!(lines[3].starts_with("   3 bb     -338.0"), "{t}");
        assert!(lines[3].ends_with("4   12.5%   25.0%"), "{t}");
        assert_eq!(s.faults_line(), None);
        s.add_fault(2, FaultKind::TimeForfeit);
        s.add_fault(1, FaultKind::Crash);
        s.add_fault(2, FaultKind::TimeForfeit);
        s.add_fault(2, FaultKind::Stall);
        assert_eq!(
            s.faults_line().as_deref(),
            Some("Faults: bb 1 crash; c 1 stall, 2 time forfeit")
        );
        assert_eq!(
            s.crosstable(),
            [
                "     Crosstable     1     2     3",
                "   1 a              x   1/2   2/2",
                "   2 c            1/2     x 1.5/2",
                "   3 bb           0/2 0.5/2     x",
            ]
            .join("\n")
        );
    }
}
