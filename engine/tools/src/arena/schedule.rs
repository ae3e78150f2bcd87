//! Who plays whom: the tournament's pairings, a run's settings and its games in order.

use super::ArenaError;
use super::spec::EngineSpec;
use super::stats::Sprt;
use boardgames_core::games::GameKind;
use boardgames_core::protocol::Setup;

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tournament {
    /// Exactly two engines.
    Match,
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

impl Tournament {
    /// Reads `match`, `round-robin` or `gauntlet`.
    pub fn parse(text: &str) -> Result<Tournament, ArenaError> {
        match text {
            "match" => Ok(Tournament::Match),
            "round-robin" | "roundrobin" => Ok(Tournament::RoundRobin),
            "gauntlet" => Ok(Tournament::Gauntlet),
            _ => Err(ArenaError::Config(format!(
                "--tournament '{text}': use match, round-robin or gauntlet"
            ))),
        }
    }

    /// The pairings of `n` engines, the first of each pair as listed.
    pub fn pairings(self, n: usize) -> Result<Vec<(usize, usize)>, ArenaError> {
        if n < 2 {
            return Err(ArenaError::Config(format!(
                "a match needs at least two engines (--engine ...), got {n}"
            )));
        }
        Ok(match self {
            Tournament::Match if n != 2 => {
                return Err(ArenaError::Config(format!(
                    "a match is between two engines, got {n}: use --tournament round-robin or gauntlet"
                )));
            }
            Tournament::Match => vec![(0, 1)],
            Tournament::RoundRobin => (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect(),
            Tournament::Gauntlet => (1..n).map(|b| (0, b)).collect(),
        })
    }
}

/// Everything a run needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game.
    pub game: GameKind,
    /// Its size.
    pub size: usize,
    /// The engines, at least two.
    pub engines: Vec<EngineSpec>,
    /// Who plays whom.
    pub tournament: Tournament,
    /// Games of each pairing; openings are played in pairs with colours swapped.
    pub games_per_pairing: usize,
    /// The openings (at least one), used in turn, one per pair of games.
    pub openings: Vec<Setup>,
    /// Games played at once.
    pub concurrency: usize,
    /// Plies after which a game is adjudicated a draw.
    pub max_plies: usize,
    /// Stop a two-engine match once this test decides.
    pub sprt: Option<Sprt>,
}

/// One game to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameJob {
    /// Its number in the run, from 1.
    pub number: usize,
    /// The round (the opening pair) within its pairing, from 1.
    pub round: usize,
    /// The pairing, as listed by [`Tournament::pairings`].
    pub pair: (usize, usize),
    /// White's engine.
    pub white: usize,
    /// Black's engine.
    pub black: usize,
    /// Which opening (index into [`MatchConfig::openings`]).
    pub opening: usize,
}

/// The games of a run in the order they are handed out: round by round, each pairing's game
/// with the first engine as White followed by the one with colours swapped.
pub fn schedule(config: &MatchConfig) -> Result<Vec<GameJob>, ArenaError> {
    let pairs = config.tournament.pairings(config.engines.len())?;
    if config.openings.is_empty() {
        return Err(ArenaError::Config("there is no opening to play".into()));
    }
    let rounds = config.games_per_pairing.div_ceil(2);
    let mut jobs = Vec::new();
    for r in 0..rounds {
        for &(a, b) in &pairs {
            for k in 0..2 {
                if 2 * r + k >= config.games_per_pairing {
                    break;
                }
                let (white, black) = if k == 0 { (a, b) } else { (b, a) };
                jobs.push(GameJob {
                    number: jobs.len() + 1,
                    round: r + 1,
                    pair: (a, b),
                    white,
                    black,
                    opening: r % config.openings.len(),
                });
            }
        }
    }
    Ok(jobs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    use boardgames_core::games::GameKind;
    use boardgames_core::protocol::Setup;

    fn config(engines: usize, tournament: Tournament, games: usize) -> MatchConfig {
        let spec = |i: usize| {
            EngineSpec::parse(&[format!("cmd=e{i}")], Path::new("engine")).expect("a spec")
        };
        MatchConfig {
            game: GameKind::Oska,
            size: 4,
            engines: (0..engines).map(spec).collect(),
            tournament,
            games_per_pairing: games,
            openings: vec![Setup::StartPos, Setup::StartPos],
            concurrency: 1,
            max_plies: 100,
            sprt: None,
        }
    }

    #[test]
    fn colours_are_swapped_per_opening() {
        let jobs = schedule(&config(2, Tournament::Match, 5)).unwrap();
        let seen: Vec<(usize, usize, usize, usize)> = jobs
            .iter()
            .map(|j| (j.round, j.white, j.black, j.opening))
            .collect();
        assert_eq!(
            seen,
            [
                (1, 0, 1, 0),
                (1, 1, 0, 0),
                (2, 0, 1, 1),
                (2, 1, 0, 1),
                (3, 0, 1, 0)
            ]
        );
        assert_eq!(
            jobs.iter().map(|j| j.number).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5]
        );
    }

    #[test]
    fn pairings_of_each_tournament() {
        assert_eq!(
            Tournament::RoundRobin.pairings(3).unwrap(),
            [(0, 1), (0, 2), (1, 2)]
        );
        assert_eq!(Tournament::Gauntlet.pairings(3).unwrap(), [(0, 1), (0, 2)]);
        assert!(Tournament::Match.pairings(3).is_err());
        assert!(Tournament::RoundRobin.pairings(1).is_err());
        let jobs = schedule(&config(3, Tournament::RoundRobin, 2)).unwrap();
        assert_eq!(jobs.len(), 6);
        for e in 0..3 {
            assert_eq!(jobs.iter().filter(|j| j.white == e).count(), 2);
        }
    }
}
