//! The players' clocks of a game with a time control: the time each side has left, which clock
//! runs, and the side whose time ran out. Every method takes the present instant, so that the
//! clocks are tested without waiting.

use std::time::{Duration, Instant};

use boardgames_core::clock::{SideClock, TimeControl, go_clock};
use boardgames_core::games::Side;
use boardgames_core::protocol::Clock;

/// Both sides' clocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    sides: [SideClock; 2],
    /// The side whose clock runs and since when.
    running: Option<(Side, Instant)>,
    /// The side whose time ran out.
    flagged: Option<Side>,
}

impl Clocks {
    /// Full clocks, both stopped.
    pub fn new(tc: TimeControl) -> Clocks {
        Clocks {
            sides: [SideClock::new(tc); 2],
            running: None,
            flagged: None,
        }
    }

    /// The time control.
    pub fn time_control(&self) -> TimeControl {
        self.sides[0].tc
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Side> {
        self.running.map(|(s, _)| s)
    }

    /// The side that lost on time.
    pub fn flagged(&self) -> Option<Side> {
        self.flagged
    }

    /// The time `side` has left at `now`.
    pub fn left(&self, side: Side, now: Instant) -> Duration {
        let left = self.sides[side.index()].left;
        match self.running {
            Some((s, since)) if s == side => {
                left.saturating_sub(now.saturating_duration_since(since))
            }
            _ => left,
        }
    }

    /// Starts `side`'s clock (nothing when a clock runs or a side lost on time).
    pub fn start(&mut self, side: Side, now: Instant) {
        if self.running.is_none() && self.flagged.is_none() {
            self.running = Some((side, now));
        }
    }

    /// Stops the running clock, charging the time it ran (no move was made: no increment).
    pub fn stop(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            self.sides[side.index()].left = self.left(side, now);
            self.running = None;
        }
    }

    /// `side` moved at `now`: its clock stops and is charged the time it ran, then gets the
    /// increment (and a new period's time at the end of a period). A move made after the time
    /// ran out loses on time instead.
    pub fn moved(&mut self, side: Side, now: Instant) {
        if self.flag(now).is_some() {
            return;
        }
        let used = match self.running {
            Some((s, since)) if s == side => now.saturating_duration_since(since),
            _ => Duration::ZERO,
        };
        if self.running.is_some_and(|(s, _)| s == side) {
            self.running = None;
        }
        if self.sides[side.index()]
            .charge(used, Duration::ZERO)
            .is_err()
        {
            self.sides[side.index()].left = Duration::ZERO;
            self.flagged = Some(side);
        }
    }

    /// Ends the game for the running side when its time has run out by `now`; returns the side
    /// that lost on time.
    pub fn flag(&mut self, now: Instant) -> Option<Side> {
        if let Some((side, _)) = self.running
            && self.left(side, now).is_zero()
        {
            self.sides[side.index()].left = Duration::ZERO;
            self.running = None;
            self.flagged = Some(side);
        }
        self.flagged
    }

    /// The `go wtime … btime …` for `side` to move at `now`.
    pub fn go(&self, side: Side, now: Instant) -> Clock {
        let mut own = self.sides[side.index()];
        own.left = self.left(side, now);
        let other = side.opposite();
        let mut theirs = self.sides[other.index()];
        theirs.left = self.left(other, now);
        go_clock(side == Side::White, &own, Some(&theirs))
    }

    /// How long until the shown time of the running clock changes (its tenths under ten
    /// seconds, else its seconds), for the next repaint; `None` when no clock runs.
    pub fn next_change(&self, now: Instant) -> Option<Duration> {
        let (side, _) = self.running?;
        let left = self.left(side, now);
        let step = if left < Duration::from_secs(10) {
            Duration::from_millis(100)
        } else {
            Duration::from_secs(1)
        };
        let into = Duration::from_nanos((left.as_nanos() % step.as_nanos()) as u64);
        Some(if into.is_zero() { step } else { into })
    }
}

/// A time left as a clock shows it: `M:SS`, `H:MM:SS` from an hour, and tenths under ten
/// seconds (`0:09.3`). Shown times are rounded down, so that `0:00.0` means the time is out.
pub fn clock_text(left: Duration) -> String {
    let secs = left.as_secs();
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else if secs < 10 {
        format!("{m}:{s:02}.{}", left.subsec_millis() / 100)
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(text: &str) -> TimeControl {
        TimeControl::parse(text).unwrap()
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_move_charges_its_time_and_adds_the_increment() {
        let t0 = Instant::now();
        let mut c = Clocks::new(tc("60+2"));
        c.start(Side::White, t0);
        assert_eq!(c.left(Side::White, t0 + ms(1500)), ms(58_500));
        assert_eq!(c.left(Side::Black, t0 + ms(1500)), ms(60_000));
        c.moved(Side::White, t0 + ms(3000));
        assert_eq!(c.left(Side::White, t0 + ms(9000)), ms(59_000));
        assert_eq!(c.running(), None);
        c.start(Side::Black, t0 + ms(3000));
        let go = c.go(Side::Black, t0 + ms(4000));
        assert_eq!(
            (go.wtime, go.btime, go.winc, go.binc),
            (59_000, 59_000, 2000, 2000)
        );
        assert_eq!(go.movestogo, None);
    }

    #[test]
    fn stopping_charges_without_increment_and_a_second_start_does_not_restart() {
        let t0 = Instant::now();
        let mut c = Clocks::new(tc("10+1"));
        c.start(Side::Black, t0);
        c.start(Side::Black, t0 + ms(500));
        c.stop(t0 + ms(2000));
        assert_eq!(c.left(Side::Black, t0 + ms(9000)), ms(8000));
        c.stop(t0 + ms(9000));
        assert_eq!(c.left(Side::Black, t0 + ms(9000)), ms(8000));
    }

    #[test]
    fn the_running_side_loses_when_its_time_is_out() {
        let t0 = Instant::now();
        let mut c = Clocks::new(tc("5"));
        c.start(Side::White, t0);
        assert_eq!(c.flag(t0 + ms(4999)), None);
        assert_eq!(c.flag(t0 + ms(5000)), Some(Side::White));
        assert_eq!(c.running(), None);
        assert_eq!(c.left(Side::White, t0 + ms(9000)), Duration::ZERO);
        // After a flag fall nothing restarts.
        c.start(Side::Black, t0 + ms(6000));
        assert_eq!(c.running(), None);
        // A move made too late loses too.
        let mut c = Clocks::new(tc("5"));
        c.start(Side::Black, t0);
        c.moved(Side::Black, t0 + ms(5001));
        assert_eq!(c.flagged(), Some(Side::Black));
    }

    #[test]
    fn periods_add_their_time_and_movestogo_counts_down() {
        let t0 = Instant::now();
        let mut c = Clocks::new(tc("2/10"));
        assert_eq!(c.go(Side::White, t0).movestogo, Some(2));
        c.start(Side::White, t0);
        c.moved(Side::White, t0 + ms(4000));
        assert_eq!(c.go(Side::White, t0).movestogo, Some(1));
        c.moved(Side::White, t0);
        assert_eq!(c.left(Side::White, t0), ms(16_000));
        assert_eq!(c.go(Side::White, t0).movestogo, Some(2));
    }

    #[test]
    fn the_next_repaint_is_when_the_shown_time_changes() {
        let t0 = Instant::now();
        let mut c = Clocks::new(tc("60"));
        assert_eq!(c.next_change(t0), None);
        c.start(Side::White, t0);
        assert_eq!(c.next_change(t0), Some(Duration::from_secs(1)));
        assert_eq!(c.next_change(t0 + ms(300)), Some(ms(700)));
        assert_eq!(c.next_change(t0 + ms(55_050)), Some(ms(50)));
    }

    #[test]
    fn times_are_shown_as_a_clock_shows_them() {
        assert_eq!(clock_text(ms(300_000)), "5:00");
        assert_eq!(clock_text(ms(59_999)), "0:59");
        assert_eq!(clock_text(ms(9_390)), "0:09.3");
        assert_eq!(clock_text(ms(40)), "0:00.0");
        assert_eq!(clock_text(ms(3_723_000)), "1:02:03");
    }
}
