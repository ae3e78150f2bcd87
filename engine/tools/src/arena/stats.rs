//! Match statistics as cutechess-cli and fastchess report them: Elo difference with a 95 % error
//! margin, likelihood of superiority (LOS), draw ratio, and a sequential probability ratio test.
//!
//! Elo uses the logistic model: a score fraction `s` is worth `-400 log10(1/s - 1)` Elo. The error
//! margin comes from the per-game score variance of the trinomial (win, draw, loss) results, as
//! cutechess-cli computes it. The SPRT compares the log-likelihood ratio of the trinomial results
//! under the two hypotheses (logistic Elo, the draw rate fixed at its observed value) with
//! `ln(beta/(1-alpha))` and `ln((1-beta)/alpha)`; it needs no variance, so one-sided matches
//! are decided as well.

use boardgames_core::protocol::shown;

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

    /// The 95 % Wilson score interval of the score fraction: the scores `p` whose normal
    /// test against the observed score does not reject them, with the binomial variance
    /// `p (1 - p)` (draws counted as half a win, so it is wider than the trinomial one). It
    /// lies strictly between 0 and 1, even for a score of 0 or 1. `None` with no games.
    pub fn wilson(&self) -> Option<(f64, f64)> {
        let n = self.games() as f64;
        if n == 0.0 {
            return None;
        }
        let s = self.score();
        let z2 = Z95 * Z95;
        let centre = (s + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (s * (1.0 - s) / n + z2 / (4.0 * n * n)).sqrt();
        Some((centre - half, centre + half))
    }

    /// Half the width of the 95 % interval of the Elo difference: from the trinomial variance
    /// as cutechess-cli computes it; where that interval reaches a score of 0 or 1 (a lopsided
    /// score, such as 18-2-0), from the Wilson score interval ([`Wld::wilson`]) mapped to Elo.
    /// NaN with no games, or when every game was won or every game lost (the Elo difference
    /// is then unbounded on one side: [`Wld::elo_cells`] shows the Wilson bound instead).
    pub fn elo_margin(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return f64::NAN;
        }
        let s = self.score();
        if s <= 0.0 || s >= 1.0 {
            return f64::NAN;
        }
        let dev = Z95 * (self.variance() / n).sqrt();
        let (mut lo, mut hi) = (s - dev, s + dev);
        if lo <= 0.0 || hi >= 1.0 {
            (lo, hi) = self.wilson().expect("games were played");
        }
        (elo_from_score(hi) - elo_from_score(lo)) / 2.0
    }

    /// The Elo difference and its margin as printed, never `nan` or `inf`: `381.7` and `234.7`
    /// ([`Wld::elo_margin`]); for a score of 1 the lower end of the 95 % Wilson interval in
    /// Elo, as `>245.3`, and for a score of 0 the upper end, as `<-245.3`, each with the
    /// margin `-`; `-` and `-` with no games.
    pub fn elo_cells(&self) -> (String, String) {
        let Some((lo, hi)) = self.wilson() else {
            return ("-".into(), "-".into());
        };
        let s = self.score();
        if s >= 1.0 {
            (format!(">{:.1}", elo_from_score(lo)), "-".into())
        } else if s <= 0.0 {
            (format!("<{:.1}", elo_from_score(hi)), "-".into())
        } else {
            // No `-0.0` for an even score.
            let elo = self.elo();
            let elo = if elo.abs() < 0.05 { 0.0 } else { elo };
            (format!("{elo:.1}"), format!("{:.1}", self.elo_margin()))
        }
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

    /// The `Elo difference: X +/- Y, LOS: Z %, DrawRatio: R %` line; for a score of 0 or 1,
    /// `Elo difference: >X (95 %), ...` with the bound of [`Wld::elo_cells`].
    pub fn elo_line(&self) -> String {
        let (elo, margin) = self.elo_cells();
        let interval = if margin == "-" {
            format!("{elo} (95 %)")
        } else {
            format!("{elo} +/- {margin}")
        };
        format!(
            "Elo difference: {interval}, LOS: {:.1} %, DrawRatio: {:.1} %",
            self.los(),
            100.0 * self.draw_ratio()
        )
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
    fn lopsided_and_perfect_scores_have_finite_intervals() {
        // 18-2-0: the trinomial interval 0.9 -/+ 0.131 passes 1; the Wilson interval is
        // (0.6990, 0.9721) (z = 1.96, computed independently with Python's math), which is
        // 146.3 to 617.1 Elo: margin 235.4.
        let r = Wld {
            wins: 18,
            losses: 2,
            draws: 0,
        };
        let (lo, hi) = r.wilson().unwrap();
        assert!(
            close(lo, 0.69897, 1e-4) && close(hi, 0.97213, 1e-4),
            "{lo} {hi}"
        );
        assert!(close(r.elo_margin(), 235.36, 0.01), "{}", r.elo_margin());
        assert_eq!(
            r.elo_line(),
            format!(
                "Elo difference: 381.7 +/- {:.1}, LOS: 100.0 %, DrawRatio: 0.0 %",
                r.elo_margin()
            )
        );
        // 4-0: the lower end of the Wilson interval, 4 / (4 + 1.96^2) = 0.5101: 7.0 Elo.
        let r = Wld {
            wins: 4,
            losses: 0,
            draws: 0,
        };
        assert_eq!(r.elo_cells(), (">7.0".to_string(), "-".to_string()));
        assert!(
            r.elo_line()
                .starts_with("Elo difference: >7.0 (95 %), LOS: ")
        );
        assert_eq!(
            r.flipped().elo_cells(),
            ("<-7.0".to_string(), "-".to_string())
        );
        assert_eq!(Wld::default().elo_cells(), ("-".into(), "-".into()));
        for w in 0..12 {
            for l in 0..12 {
                for d in 0..3 {
                    let r = Wld {
                        wins: w,
                        losses: l,
                        draws: d,
                    };
                    let (elo, margin) = r.elo_cells();
                    for cell in [&elo, &margin] {
                        assert!(!cell.contains("nan") && !cell.contains("inf"), "{r:?}");
                    }
                }
            }
        }
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
