//! The report of a class as one self-contained web page (`arena class --html FILE`, `arena
//! report --html FILE`): the standings, the crosstable, each student's notes and faults with the
//! first failing board drawn, the points as the games went, and the grading when there is one.
//!
//! The page asks for nothing: its style is inline, its pictures are inline SVG, it has no script,
//! and its Content-Security-Policy (`default-src 'none'`) forbids any request. Every text that
//! comes from a student (names, notes, messages, moves) is escaped ([`escape`]).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::class::ClassReport;
use super::grade::{Grading, share};
use boardgames_core::protocol::{readable, shown};
use boardgames_core::record::{GameRecord, RecordResult};

/// `text` with `&`, `<`, `>`, `"` and `'` escaped for HTML text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// What a page shows.
pub struct Page<'a> {
    /// The heading (escaped here).
    pub title: &'a str,
    /// The games, for the points as they went.
    pub records: &'a [GameRecord],
    /// The standings and per-student results of those games.
    pub report: &'a ClassReport,
    /// The notes on students, `NAME: TEXT` as records hold them.
    pub notes: &'a [String],
    /// The grading, when asked for.
    pub grading: Option<&'a Grading>,
}

/// Colours of the players' lines in the chart (repeated beyond ten players).
const COLOURS: [&str; 10] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1180px;\
color:#222;background:#fff}h1{font-size:1.6em}h2{font-size:1.25em;margin-top:1.6em;\
border-bottom:1px solid #ccc}table{border-collapse:collapse;margin:.5em 0}th,td{padding:.25em \
.6em;border:1px solid #ddd;text-align:right}th{background:#f3f3f3}td.n,th.n{text-align:left}\
td.self{background:#eee}td{white-space:nowrap}.note{background:#fff8dc;padding:.4em .6em;margin:.3em 0;\
border-left:4px solid #e0c060}.fault{display:flex;gap:1.2em;align-items:flex-start;\
margin:.8em 0}.msg{font-family:monospace;font-size:.85em;white-space:pre-wrap;\
word-break:break-word;background:#f7f7f7;padding:.5em;max-width:860px}.small{color:#666;\
font-size:.9em}.legend span{display:inline-block;margin-right:1em}.sw{display:inline-block;\
width:1em;height:.6em;margin-right:.3em}";

/// The whole page.
pub fn page(p: &Page) -> String {
    let report = p.report;
    let names = &report.standings.names;
    let order = standing_order(report);
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
    out.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'\">\n",
    );
    let _ = writeln!(out, "<title>{}</title>", escape(p.title));
    let _ = writeln!(out, "<style>{STYLE}</style></head><body>");
    let _ = writeln!(out, "<h1>{}</h1>", escape(p.title));
    let _ = writeln!(
        out,
        "<p class=\"small\">{} games, {} players.</p>",
        report.games,
        names.len()
    );
    standings(&mut out, report, &order);
    crosstable(&mut out, report, &order);
    chart(&mut out, p.records, names, &order);
    notes_and_faults(&mut out, p, &order);
    if let Some(g) = p.grading {
        grading(&mut out, g);
    }
    out.push_str("</body></html>\n");
    out
}

/// The players' indices, best first (by points, then name), as the text tables order them.
fn standing_order(report: &ClassReport) -> Vec<usize> {
    let mut order: Vec<usize> = (0..report.standings.names.len()).collect();
    order.sort_by(|&a, &b| {
        report
            .standings
            .total(b)
            .points()
            .total_cmp(&report.standings.total(a).points())
            .then(a.cmp(&b))
    });
    order
}

fn standings(out: &mut String, report: &ClassReport, order: &[usize]) {
    out.push_str(
        "<h2>Standings</h2>\n<table><tr><th>Rank</th><th class=\"n\">Student</th><th>Elo</th>\
         <th>+/-</th><th>Games</th><th>Score</th><th>Draws</th><th>Illegal</th><th>Crashes</th>\
         <th>Timeouts</th><th>Limits</th><th>ms/move</th></tr>\n",
    );
    for (rank, &i) in order.iter().enumerate() {
        let w = report.standings.total(i);
        let (elo, margin) = w.elo_cells();
        let e = &report.entries[i];
        let per_move = if e.timed_moves == 0 {
            "-".to_string()
        } else {
            format!("{:.1}", e.think_ms as f64 / e.timed_moves as f64)
        };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{:.1}%</td><td>{:.1}%</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td></tr>",
            rank + 1,
            escape(&report.standings.names[i]),
            escape(&elo),
            escape(&margin),
            w.games(),
            100.0 * w.score(),
            100.0 * w.draw_ratio(),
            e.count(&["illegal", "no board", "illegal move", "protocol violation"]),
            e.count(&["exception", "crash", "load", "failed start"]),
            e.count(&["timeout", "stall"]),
            e.count(&["memory", "cpu", "processes", "output"]),
            per_move
        );
    }
    out.push_str("</table>\n");
}

fn crosstable(out: &mut String, report: &ClassReport, order: &[usize]) {
    let names = &report.standings.names;
    out.push_str(
        "<h2>Crosstable</h2>\n<p class=\"small\">Points of the row's student against the \
         column's, out of the games they played.</p>\n<table><tr><th class=\"n\">Student</th>",
    );
    for (rank, _) in order.iter().enumerate() {
        let _ = write!(out, "<th>{}</th>", rank + 1);
    }
    out.push_str("<th>Points</th></tr>\n");
    for (rank, &a) in order.iter().enumerate() {
        let _ = write!(
            out,
            "<tr><td class=\"n\">{} {}</td>",
            rank + 1,
            escape(&names[a])
        );
        for &b in order {
            if a == b {
                out.push_str("<td class=\"self\"></td>");
                continue;
            }
            let w = report.standings.pairs[a][b];
            if w.games() == 0 {
                out.push_str("<td>-</td>");
            } else {
                let _ = write!(out, "<td>{}/{}</td>", w.points(), w.games());
            }
        }
        let t = report.standings.total(a);
        let _ = writeln!(out, "<td>{}/{}</td></tr>", t.points(), t.games());
    }
    out.push_str("</table>\n");
}

/// Each player's points after each game (in the order of the games' numbers), as lines.
fn chart(out: &mut String, records: &[GameRecord], names: &[String], order: &[usize]) {
    let mut games: Vec<&GameRecord> = records
        .iter()
        .filter(|r| r.result != RecordResult::Unfinished)
        .collect();
    let number = |r: &GameRecord| r.tag("GameNumber").and_then(|n| n.parse::<usize>().ok());
    games.sort_by_key(|r| number(r).unwrap_or(usize::MAX));
    if games.is_empty() {
        return;
    }
    let index: BTreeMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    // points[i]: (game index, points so far) after each of player i's games.
    let mut points: Vec<Vec<(usize, f64)>> = vec![vec![(0, 0.0)]; names.len()];
    let mut round_starts: Vec<(usize, String)> = Vec::new();
    let mut last_round = None;
    for (g, r) in games.iter().enumerate() {
        let round = r.tag("Round").map(str::to_string);
        if round != last_round {
            if let Some(rd) = &round {
                round_starts.push((g, rd.clone()));
            }
            last_round = round;
        }
        let (wp, bp) = match r.result {
            RecordResult::White => (1.0, 0.0),
            RecordResult::Black => (0.0, 1.0),
            _ => (0.5, 0.5),
        };
        for (name, pts) in [(&r.white, wp), (&r.black, bp)] {
            if let Some(&i) = index.get(name.as_str()) {
                let so_far = points[i].last().map_or(0.0, |p| p.1);
                points[i].push((g + 1, so_far + pts));
            }
        }
    }
    let n = games.len() as f64;
    let top = points
        .iter()
        .flat_map(|p| p.iter().map(|q| q.1))
        .fold(1.0_f64, f64::max)
        .ceil();
    let (w, h, left, right, up, down) = (1000.0, 360.0, 50.0, 20.0, 15.0, 40.0);
    let x = |g: usize| left + (w - left - right) * g as f64 / n;
    let y = |v: f64| h - down - (h - up - down) * v / top;
    out.push_str(
        "<h2>Points as the games went</h2>\n<p class=\"small\">Each student's points after each \
         of their games, by game number.</p>\n",
    );
    let _ = writeln!(
        out,
        "<svg width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"points after each game\">"
    );
    let _ = writeln!(
        out,
        "<rect x=\"{left}\" y=\"{up}\" width=\"{}\" height=\"{}\" fill=\"#fafafa\" \
         stroke=\"#999\"/>",
        w - left - right,
        h - up - down
    );
    // Gridlines at 1, 2 or 5 times a power of ten, about five of them.
    let rough = (top / 5.0).max(1.0);
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&s| s >= rough)
        .unwrap_or(rough);
    let mut v = 0.0;
    while v <= top {
        let _ = writeln!(
            out,
            "<line x1=\"{left}\" x2=\"{}\" y1=\"{yv:.1}\" y2=\"{yv:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">{v}</text>",
            w - right,
            left - 5.0,
            y(v) + 4.0,
            yv = y(v)
        );
        v += step;
    }
    if round_starts.len() > 1 {
        for (g, rd) in &round_starts {
            let xg = x(*g);
            let _ = writeln!(
                out,
                "<line x1=\"{xg:.1}\" x2=\"{xg:.1}\" y1=\"{up}\" y2=\"{}\" stroke=\"#ccc\" \
                 stroke-dasharray=\"4 3\"/><text x=\"{:.1}\" y=\"{}\" font-size=\"11\">round \
                 {}</text>",
                h - down,
                xg + 3.0,
                up + 12.0,
                escape(rd),
            );
        }
    }
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">game (1 to {})</text>",
        (left + w - right) / 2.0,
        h - 12.0,
        games.len()
    );
    for (k, &i) in order.iter().enumerate() {
        let pts: Vec<String> = points[i]
            .iter()
            .map(|&(g, v)| format!("{:.1},{:.1}", x(g), y(v)))
            .collect();
        let _ = writeln!(
            out,
            "<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>",
            COLOURS[k % COLOURS.len()],
            pts.join(" ")
        );
    }
    out.push_str("</svg>\n<p class=\"legend\">");
    for (k, &i) in order.iter().enumerate() {
        let _ = write!(
            out,
            "<span><i class=\"sw\" style=\"background:{}\"></i>{}</span>",
            COLOURS[k % COLOURS.len()],
            escape(&names[i])
        );
    }
    out.push_str("</p>\n");
}

/// A board of `/`-joined rows as an SVG picture, rows numbered on the left: rows centred, a white piece a light disc, a
/// black piece a dark one, a flag (Capture the Flag's `W`, `B`) a disc with a red ring.
pub fn board_svg(board: &str) -> String {
    let rows: Vec<Vec<char>> = board.split('/').map(|r| r.chars().collect()).collect();
    let widest = rows.iter().map(Vec::len).max().unwrap_or(0);
    let cell = 34.0;
    // A margin on the left for the rows' numbers (row 1 first, as moves name the rows).
    let left = 20.0;
    let (w, h) = (
        left + cell * widest as f64 + 8.0,
        cell * rows.len() as f64 + 8.0,
    );
    let mut out = format!(
        "<svg width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"board {}\">",
        escape(board)
    );
    let _ = write!(
        out,
        "<rect width=\"{w}\" height=\"{h}\" rx=\"6\" fill=\"#e9d9b6\"/>"
    );
    for (r, row) in rows.iter().enumerate() {
        let offset = left + (widest - row.len()) as f64 * cell / 2.0;
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"#5a4a2a\">{}</text>",
            4.0,
            8.0 + cell * (r as f64 + 0.5),
            r + 1
        );
        for (c, &sq) in row.iter().enumerate() {
            let cx = 4.0 + offset + cell * (c as f64 + 0.5);
            let cy = 4.0 + cell * (r as f64 + 0.5);
            let _ = write!(
                out,
                "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"15\" fill=\"#d2bd8e\" stroke=\"#a08a5c\"/>"
            );
            let (fill, stroke) = match sq.to_ascii_lowercase() {
                'w' => ("#fdfdfd", "#555"),
                'b' => ("#262626", "#000"),
                _ => continue,
            };
            let _ = write!(
                out,
                "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"12\" fill=\"{fill}\" stroke=\"{stroke}\" \
                 stroke-width=\"1.5\"/>"
            );
            if sq.is_ascii_uppercase() {
                let _ = write!(
                    out,
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"6\" fill=\"none\" stroke=\"#c0392b\" \
                     stroke-width=\"3\"/>"
                );
            }
        }
    }
    out.push_str("</svg>");
    out
}

/// A board text as records' reports write it, `ROWS SIDE`: the picture and the side to move.
fn board_with_side(text: &str) -> String {
    let (board, side) = text.split_once(' ').unwrap_or((text, ""));
    let side = match side {
        "w" => "White to move",
        "b" => "Black to move",
        _ => "",
    };
    format!(
        "<div>{}<div class=\"small\">{side}</div></div>",
        board_svg(board)
    )
}

/// Per student (in standings order) its notes and its faults with the first failing board
/// drawn; then the notes on students who did not play.
fn notes_and_faults(out: &mut String, p: &Page, order: &[usize]) {
    let report = p.report;
    let names = &report.standings.names;
    out.push_str("<h2>Notes and faults</h2>\n");
    // Notes, each once (shards repeat them), as records hold them: `NAME: TEXT`, the name
    // escaped with `shown`.
    let mut notes: Vec<&String> = p.notes.iter().collect();
    notes.sort();
    notes.dedup();
    if notes.is_empty() && report.entries.iter().all(|e| e.first_failure.is_none()) {
        out.push_str("<p>No notes and no faults.</p>\n");
        return;
    }
    let mut placed = vec![false; notes.len()];
    for &i in order {
        let prefix = format!("{}: ", shown(&names[i]));
        let own: Vec<&str> = notes
            .iter()
            .zip(placed.iter_mut())
            .filter_map(|(n, placed)| {
                let text = n.strip_prefix(&prefix)?;
                *placed = true;
                Some(text)
            })
            .collect();
        let e = &report.entries[i];
        if own.is_empty() && e.first_failure.is_none() {
            continue;
        }
        let _ = writeln!(out, "<h3>{}</h3>", escape(&names[i]));
        for text in own {
            let _ = writeln!(out, "<div class=\"note\">{}</div>", escape(&readable(text)));
        }
        let Some(f) = &e.first_failure else { continue };
        let counts: Vec<String> = e.faults.iter().map(|(k, v)| format!("{k} {v}")).collect();
        let _ = writeln!(
            out,
            "<p>Lost {} game(s) by faults ({}).</p>",
            e.faults.values().sum::<u64>(),
            escape(&counts.join(", "))
        );
        out.push_str("<div class=\"fault\">");
        if let Some(b) = &f.board {
            out.push_str(&board_with_side(b));
        }
        let _ = writeln!(
            out,
            "<div><div>First: game {}, [{}]</div><div class=\"msg\">{}</div></div></div>",
            f.game,
            escape(&f.fault),
            escape(&readable(&f.message))
        );
    }
    let rest: Vec<&&String> = notes
        .iter()
        .zip(&placed)
        .filter(|(_, placed)| !**placed)
        .map(|(n, _)| n)
        .collect();
    if !rest.is_empty() {
        out.push_str("<h3>Students who do not play</h3>\n");
        for n in rest {
            let _ = writeln!(out, "<div class=\"note\">{}</div>", escape(&readable(n)));
        }
    }
}

fn grading(out: &mut String, g: &Grading) {
    let _ = writeln!(
        out,
        "<h2>Grading</h2>\n<p class=\"small\">{} {}: every position a student moved in (once per \
         student) solved by {}. A won position thrown away is one where the move played lets a \
         win go (to a draw or a loss); a drawn position lost, one where it loses a draw. The \
         reference is our engine at depth {}, moving in the same positions. Graded in {:.1} \
         s.</p>",
        g.game,
        g.size,
        escape(&g.source()),
        g.depth,
        g.seconds
    );
    out.push_str(
        "<table><tr><th class=\"n\">Student</th><th>Moved</th><th>Solved</th>\
         <th>Won thrown away</th><th>Drawn lost</th><th>Blunders (critical)</th>\
         <th>Reference: won thrown away</th><th>drawn lost</th><th>blunders</th></tr>\n",
    );
    let total = g.total();
    for s in g.students.iter().chain(std::iter::once(&total)) {
        let _ = writeln!(
            out,
            "<tr><td class=\"n\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&s.name),
            s.moved,
            s.solved,
            share(s.own.won_thrown, s.own.won),
            share(s.own.drawn_lost, s.own.drawn),
            share(s.own.blunders(), s.own.critical),
            share(s.reference.won_thrown, s.reference.won),
            share(s.reference.drawn_lost, s.reference.drawn),
            share(s.reference.blunders(), s.reference.critical),
        );
    }
    out.push_str("</table>\n<h3>Each student's worst move</h3>\n");
    for s in &g.students {
        let Some(w) = &s.worst else {
            if s.solved > 0 {
                let _ = writeln!(
                    out,
                    "<p>{}: kept the value in all {} solved positions.</p>",
                    escape(&s.name),
                    s.solved
                );
            }
            continue;
        };
        let _ = writeln!(
            out,
            "<div class=\"fault\">{}<div><b>{}</b>: {}</div></div>",
            board_svg(&w.board),
            escape(&s.name),
            escape(&w.words())
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_covers_markup_and_quotes() {
        assert_eq!(
            escape("<b a=\"x\">'&'</b>"),
            "&lt;b a=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/b&gt;"
        );
    }

    #[test]
    fn a_board_has_a_disc_per_square_and_per_piece() {
        let svg = board_svg("wwww/---/--/---/bbbb");
        assert_eq!(svg.matches("<circle").count(), 16 + 8);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    }
}
