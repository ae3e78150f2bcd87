//! Time controls (`MOVES/TIME+INC`, as cutechess-cli's `tc=` writes them) and the clock kept for
//! each side of a game played on them.
//!
//! Both the match runner (`arena`'s `tc=`) and the GUI (its `--clock` and the set-up dialog)
//! play games on clocks, so the clock sits below both: above the protocol, whose `go wtime ...`
//! ([`Clock`]) it fills in, and beside [`crate::record`], which both also share. It is not part
//! of the protocol's messages, nor of the rules (a game's result does not depend on time).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::protocol::Clock;

/// A time control: TIME seconds for the game or, with MOVES, for every MOVES moves (the time is
/// added again after each MOVES moves), and INC seconds added after every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period (`None`: the whole game).
    pub moves: Option<u32>,
    /// The time of a period.
    pub time: Duration,
    /// Added after each move.
    pub increment: Duration,
}

/// Why a time control could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// `inf` or `infinite`: games without a clock are played on other limits.
    #[error(
        "an unlimited time control is not supported: use depth=, nodes= or movetime= for games \
         without a clock"
    )]
    Unlimited,
    /// The MOVES of `MOVES/TIME` is not a positive whole number.
    #[error("'{0}' is not a number of moves (1 or more)")]
    Moves(String),
    /// A TIME or INC that is not a number of seconds.
    #[error("'{0}' is not a number of seconds (such as 60, 0.5 or 1:30)")]
    Seconds(String),
    /// A time beyond what a clock can hold.
    #[error("'{0}' is too long a time")]
    TooLong(String),
    /// A TIME of 0.
    #[error("the time must be more than 0 seconds")]
    NoTime,
}

/// Reads seconds (`60`, `0.5`) or minutes and seconds (`1:30`) to the millisecond.
fn seconds(text: &str) -> Result<Duration, TimeControlError> {
    let (minutes, secs) = match text.split_once(':') {
        Some((m, s)) => (m, s),
        None => ("0", text),
    };
    let ok = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    if !ok(minutes) || !ok(secs) || minutes.contains('.') {
        return Err(TimeControlError::Seconds(text.into()));
    }
    let (m, s): (f64, f64) = match (minutes.parse(), secs.parse()) {
        (Ok(m), Ok(s)) => (m, s),
        _ => return Err(TimeControlError::Seconds(text.into())),
    };
    let ms = ((m * 60.0 + s) * 1000.0).round();
    if !(0.0..=1e12).contains(&ms) {
        return Err(TimeControlError::TooLong(text.into()));
    }
    Ok(Duration::from_millis(ms as u64))
}

/// Seconds as cutechess-cli writes them: `60`, `0.6`.
fn write_seconds(f: &mut fmt::Formatter<'_>, d: Duration) -> fmt::Result {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        write!(f, "{}", ms / 1000)
    } else {
        let frac = format!("{:03}", ms % 1000);
        write!(f, "{}.{}", ms / 1000, frac.trim_end_matches('0'))
    }
}

impl TimeControl {
    /// Reads `[MOVES/]TIME[+INC]` (TIME and INC in seconds, TIME may be `M:SS`), such as
    /// `40/60+0.6`, `10+0.1` or `300`.
    pub fn parse(text: &str) -> Result<TimeControl, TimeControlError> {
        if matches!(text, "inf" | "infinite") {
            return Err(TimeControlError::Unlimited);
        }
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let n: u32 = m
                    .parse()
                    .ok()
                    .filter(|&n| n > 0 && m.bytes().all(|b| b.is_ascii_digit()))
                    .ok_or_else(|| TimeControlError::Moves(m.into()))?;
                (Some(n), rest)
            }
            None => (None, text),
        };
        let (time, inc) = match rest.split_once('+') {
            Some((t, i)) => (seconds(t)?, seconds(i)?),
            None => (seconds(rest)?, Duration::ZERO),
        };
        if time.is_zero() {
            return Err(TimeControlError::NoTime);
        }
        Ok(TimeControl {
            moves,
            time,
            increment: inc,
        })
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        TimeControl::parse(text)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(n) = self.moves {
            write!(f, "{n}/")?;
        }
        write_seconds(f, self.time)?;
        if !self.increment.is_zero() {
            f.write_str("+")?;
            write_seconds(f, self.increment)?;
        }
        Ok(())
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideClock {
    /// The time control.
    pub tc: TimeControl,
    /// The time left.
    pub left: Duration,
    /// Moves played by this side so far.
    pub moves: u32,
}

/// A move that took longer than the clock (and the margin) allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overrun {
    /// The time the move took.
    pub used: Duration,
    /// The time that was left.
    pub left: Duration,
}

impl fmt::Display for Overrun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the move took {} ms with {} ms left",
            self.used.as_millis(),
            self.left.as_millis()
        )
    }
}

impl SideClock {
    /// A full clock at the start of a game.
    pub fn new(tc: TimeControl) -> SideClock {
        SideClock {
            tc,
            left: tc.time,
            moves: 0,
        }
    }

    /// Moves until the next period, when the control has periods.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.tc.moves.map(|n| n - self.moves % n)
    }

    /// Charges a move that took `used`: an [`Overrun`] when it took more than the time left plus
    /// `margin`; otherwise the time is taken (down to zero within the margin), the increment
    /// added, and a new period's time at the end of a period.
    pub fn charge(&mut self, used: Duration, margin: Duration) -> Result<(), Overrun> {
        if used > self.left + margin {
            return Err(Overrun {
                used,
                left: self.left,
            });
        }
        self.left = self.left.saturating_sub(used) + self.tc.increment;
        self.moves += 1;
        if let Some(n) = self.tc.moves
            && self.moves.is_multiple_of(n)
        {
            self.left += self.tc.time;
        }
        Ok(())
    }
}

/// The `go` clock for the side to move, `own`, with the other side's clock when it has one (an
/// opponent without a clock is shown the mover's own time).
pub fn go_clock(white_to_move: bool, own: &SideClock, other: Option<&SideClock>) -> Clock {
    let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
    let other = other.unwrap_or(own);
    let (w, b) = if white_to_move {
        (own, other)
    } else {
        (other, own)
    };
    Clock {
        wtime: ms(w.left),
        btime: ms(b.left),
        winc: ms(w.tc.increment),
        binc: ms(b.tc.increment),
        movestogo: own.moves_to_go(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cutechess_forms() {
        for (text, moves, time, inc) in [
            ("40/60+0.6", Some(40), 60_000, 600),
            ("10+0.1", None, 10_000, 100),
            ("1+0.01", None, 1000, 10),
            ("300", None, 300_000, 0),
            ("40/1:30", Some(40), 90_000, 0),
            ("0.5+0.05", None, 500, 50),
        ] {
            let tc = TimeControl::parse(text).unwrap();
            assert_eq!(tc.moves, moves, "{text}");
            assert_eq!(tc.time, Duration::from_millis(time), "{text}");
            assert_eq!(tc.increment, Duration::from_millis(inc), "{text}");
        }
        assert_eq!(
            TimeControl::parse("40/60+0.6").unwrap().to_string(),
            "40/60+0.6"
        );
        assert_eq!(TimeControl::parse("1:30").unwrap().to_string(), "90");
        for bad in [
            "", "inf", "0", "0+1", "x+1", "40/", "/60", "0/60", "-1", "60+", "1:2:3", "1e3",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_clock_runs_down_gains_increments_and_periods() {
        let tc = TimeControl::parse("2/1+0.1").unwrap();
        let mut c = SideClock::new(tc);
        let ms = Duration::from_millis;
        assert_eq!(c.moves_to_go(), Some(2));
        c.charge(ms(300), Duration::ZERO).unwrap();
        assert_eq!((c.left, c.moves_to_go()), (ms(800), Some(1)));
        // The second move ends the period: 800 - 500 + 100 + 1000.
        c.charge(ms(500), Duration::ZERO).unwrap();
        assert_eq!((c.left, c.moves_to_go()), (ms(1400), Some(2)));
        // Over the time but within the margin: the clock stops at zero, plus the increment.
        c.charge(ms(1450), ms(100)).unwrap();
        assert_eq!(c.left, ms(100));
        assert_eq!(
            c.charge(ms(201), ms(100)),
            Err(Overrun {
                used: ms(201),
                left: ms(100)
            })
        );
    }

    #[test]
    fn go_clock_puts_each_side_in_its_place() {
        let own = SideClock::new(TimeControl::parse("10+0.1").unwrap());
        let mut other = SideClock::new(TimeControl::parse("40/5").unwrap());
        other.left = Duration::from_millis(4321);
        let c = go_clock(false, &own, Some(&other));
        assert_eq!((c.wtime, c.btime, c.winc, c.binc), (4321, 10_000, 0, 100));
        assert_eq!(c.movestogo, None);
        let c = go_clock(true, &other, None);
        assert_eq!((c.wtime, c.btime, c.movestogo), (4321, 4321, Some(40)));
    }
}
