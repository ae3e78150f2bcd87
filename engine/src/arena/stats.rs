//! Match statistics as cutechess-cli and fastchess report them: Elo difference with a 95 % error
//! margin, likelihood of superiority (LOS), draw ratio, and a sequential probability ratio test.
//!
//! Elo uses the logistic model: a score fraction `s` is worth `-400 log10(1/s - 1)` Elo. The error
//! margin comes from the per-game score variance of the trinomial (win, draw, loss) results, as
//! cutechess-cli computes it. The SPRT compares the log-likelihood ratio of the trinomial results
//! under the two hypotheses (logistic Elo, the draw rate fixed at its observed value) with
//! `ln(beta/(1-alpha))` and `ln((1-beta)/alpha)`; it needs no variance, so one-sided matches
//! are decided as well.

use crate::protocol::shown;

/// Wins, losses and draws of the first player of a pairing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wld {
    /// Games won.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
}

/// The z value of a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The Elo difference a score fraction in (0, 1) is worth.
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score fraction of a side `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, by Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

impl Wld {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Points scored: a win is 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// The score fraction, 0.5 when no game was played.
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => self.points() / n as f64,
        }
    }

    /// The results seen from the other player.
    pub fn flipped(&self) -> Wld {
        Wld {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
        }
    }

    /// The fraction of games drawn.
    pub fn draw_ratio(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            n => self.draws as f64 / n as f64,
        }
    }

    /// The per-game variance of the score.
    fn variance(&self) -> f64 {
        let n = self.games() as f64;
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n
    }

    /// The Elo difference; infinite when every game was won or lost.
    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// Half the width of the 95 % interval of the Elo difference (NaN with no games or when the
    /// interval reaches a score of 0 or 1).
    pub fn elo_margin(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return f64::NAN;
        }
        let s = self.score();
        let dev = Z95 * (self.variance() / n).sqrt();
        let (lo, hi) = (s - dev, s + dev);
        if lo <= 0.0 || hi >= 1.0 {
            return f64::NAN;
        }
        (elo_from_score(hi) - elo_from_score(lo)) / 2.0
    }

    /// The likelihood of superiority in percent: the probability that the first player is the
    /// stronger, from wins and losses (draws carry no information).
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 50.0;
        }
        50.0 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }

    /// The `Score of A vs B: W - L - D [ratio] N` line of cutechess-cli (the names escaped
    /// with [`shown`]).
    pub fn score_line(&self, a: &str, b: &str) -> String {
        let (a, b) = (shown(a), shown(b));
        format!(
            "Score of {a} vs {b}: {} - {} - {} [{:.3}] {}",
            self.wins,
            self.losses,
            self.draws,
            self.score(),
            self.games()
        )
    }

    /// The `Elo difference: X +/- Y, LOS: Z %, DrawRatio: R %` line.
    pub fn elo_line(&self) -> String {
        format!(
            "Elo difference: {} +/- {}, LOS: {:.1} %, DrawRatio: {:.1} %",
            fmt_elo(self.elo()),
            fmt_elo(self.elo_margin()),
            self.los(),
            100.0 * self.draw_ratio()
        )
    }
}

fn fmt_elo(x: f64) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x.is_infinite() {
        if x > 0.0 { "inf".into() } else { "-inf".into() }
    } else {
        format!("{x:.1}")
    }
}

/// The hypotheses and error rates of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative hypothesis.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// The state of an SPRT after some games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtVerdict {
    /// Keep playing.
    Continue,
    /// H0 accepted: the first player is not `elo1` stronger.
    AcceptH0,
    /// H1 accepted: the first player is `elo1` (rather than `elo0`) stronger.
    AcceptH1,
}

impl Sprt {
    /// The log-likelihood ratio of H1 over H0 for the results, and the lower and upper bounds.
    pub fn llr(&self, r: &Wld) -> (f64, f64, f64) {
        let lower = (self.beta / (1.0 - self.alpha)).ln();
        let upper = ((1.0 - self.beta) / self.alpha).ln();
        let n = r.games() as f64;
        if n == 0.0 {
            return (0.0, lower, upper);
        }
        // The draw probability is a nuisance parameter, fixed at its estimate; each hypothesis
        // then gives win and loss probabilities from its expected score, and the draws cancel.
        let draw = r.draws as f64 / n;
        let probs = |elo: f64| {
            let s = score_from_elo(elo);
            let tiny = 1e-9;
            ((s - draw / 2.0).max(tiny), (1.0 - s - draw / 2.0).max(tiny))
        };
        let (w0, l0) = probs(self.elo0);
        let (w1, l1) = probs(self.elo1);
        let llr = r.wins as f64 * (w1 / w0).ln() + r.losses as f64 * (l1 / l0).ln();
        (llr, lower, upper)
    }

    /// Whether the test has decided.
    pub fn verdict(&self, r: &Wld) -> SprtVerdict {
        let (llr, lower, upper) = self.llr(r);
        if llr >= upper {
            SprtVerdict::AcceptH1
        } else if llr <= lower {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo_from_score(0.5), 0.0, 1e-9));
        // 75 % is worth 400 log10(3) = 190.85 Elo.
        assert!(close(elo_from_score(0.75), 190.848_501_887_865, 1e-6));
        assert!(close(score_from_elo(elo_from_score(0.3)), 0.3, 1e-12));
    }

    #[test]
    fn margin_and_los_of_a_known_match() {
        // 60 wins, 30 losses, 10 draws: score 0.65, Elo 107.54. Variance
        // (60*0.35^2 + 10*0.15^2 + 30*0.65^2)/100 = 0.2025; sd of the mean 0.045;
        // interval 0.65 -/+ 0.0882 -> margin 68.46 (computed independently with Python's math).
        let r = Wld {
            wins: 60,
            losses: 30,
            draws: 10,
        };
        assert!(close(r.elo(), 107.538, 0.001));
        assert!(close(r.elo_margin(), 68.458, 0.001), "{}", r.elo_margin());
        // LOS = 50 (1 + erf(30 / sqrt(180))) = 99.9217
        assert!(close(r.los(), 99.9217, 0.001), "{}", r.los());
        assert!(close(r.draw_ratio(), 0.1, 1e-12));
        assert_eq!(
            r.score_line("A", "B"),
            "Score of A vs B: 60 - 30 - 10 [0.650] 100"
        );
        assert_eq!(
            r.elo_line(),
            "Elo difference: 107.5 +/- 68.5, LOS: 99.9 %, DrawRatio: 10.0 %"
        );
    }

    #[test]
    fn erf_matches_tabulated_values() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(0.5), 0.520_499_877_8, 2e-7));
        assert!(close(erf(1.0), 0.842_700_792_9, 2e-7));
        assert!(close(erf(-2.0), -0.995_322_265_0, 2e-7));
    }

    #[test]
    fn even_match_has_zero_elo_and_half_los() {
        let r = Wld {
            wins: 10,
            losses: 10,
            draws: 5,
        };
        assert!(close(r.elo(), 0.0, 1e-9));
        assert!(close(r.los(), 50.0, 1e-5));
        assert_eq!(r.flipped(), r);
    }

    #[test]
    fn sprt_decides_clear_cases() {
        let t = Sprt {
            elo0: 0.0,
            elo1: 50.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (_, lo, hi) = t.llr(&Wld::default());
        assert!(close(lo, -2.944_438_979, 1e-6) && close(hi, 2.944_438_979, 1e-6));
        assert_eq!(
            t.verdict(&Wld {
                wins: 3,
                losses: 2,
                draws: 1
            }),
            SprtVerdict::Continue
        );
        assert_eq!(
            t.verdict(&Wld {
                wins: 300,
                losses: 100,
                draws: 50
            }),
            SprtVerdict::AcceptH1
        );
        assert_eq!(
            t.verdict(&Wld {
                wins: 100,
                losses: 300,
                draws: 50
            }),
            SprtVerdict::AcceptH0
        );
        // One-sided matches are decided too, but not after a handful of games: seven straight
        // wins are worth 7 ln(0.5715/0.5) = 0.94 < 2.94.
        let one_sided = |wins, losses| Wld {
            wins,
            losses,
            draws: 0,
        };
        assert_eq!(t.verdict(&one_sided(200, 0)), SprtVerdict::AcceptH1);
        assert_eq!(t.verdict(&one_sided(0, 200)), SprtVerdict::AcceptH0);
        assert_eq!(t.verdict(&one_sided(7, 0)), SprtVerdict::Continue);
        let (llr, _, _) = t.llr(&one_sided(7, 0));
        assert!(
            close(llr, 7.0 * (score_from_elo(50.0) / 0.5).ln(), 1e-9),
            "{llr}"
        );
    }
}
