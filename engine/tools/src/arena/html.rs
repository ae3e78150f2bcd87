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
use super::grade::{Grading, Tally, finished_by_number};
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

/// The most characters of a name the page shows; a longer one is cut (the whole name on hover).
pub const NAME_CHARS: usize = 28;

/// A student's name for the page, escaped: a course site's export suffix
/// (`Erin O'Neil_4711_assignsubmission_file_`) is left out, and a name still longer than
/// [`NAME_CHARS`] is cut to that many characters, the last one `…`. A name shown shortened
/// carries the whole name as its `title`, which a browser shows on hover.
pub fn name_html(name: &str) -> String {
    let short = match name.find("_assignsubmission_") {
        Some(at)
            if name[at + "_assignsubmission_".len()..]
                .strip_suffix('_')
                .is_some_and(|kind| kind.chars().all(|c| c.is_ascii_alphanumeric())) =>
        {
            &name[..at]
        }
        _ => name,
    };
    let shown: String = if short.chars().count() > NAME_CHARS {
        let mut cut: String = short.chars().take(NAME_CHARS - 1).collect();
        cut.push('…');
        cut
    } else {
        short.to_string()
    };
    if shown == name {
        escape(name)
    } else {
        format!("<span title=\"{}\">{}</span>", escape(name), escape(&shown))
    }
}

/// A function's failure as the board-call adapter tells it in a record's reason:
/// `board-call: [FAULT] FUNCTION: WHY (called with 'BOARD' SIDE DEPTH; it ran MS ms)`.
struct Told<'a> {
    fault: &'a str,
    function: &'a str,
    why: &'a str,
    /// The board as the function was given it, the side and the depth.
    call: Option<(&'a str, &'a str, &'a str)>,
    /// How long the call ran, in milliseconds.
    ran: Option<&'a str>,
}

/// The adapter's account in `reason`, when there is one.
fn told(reason: &str) -> Option<Told<'_>> {
    let rest = &reason[reason.find("board-call: [")? + "board-call: [".len()..];
    let (fault, rest) = rest.split_once("] ")?;
    let (function, rest) = rest.split_once(": ")?;
    let Some(at) = rest.rfind(" (called with '") else {
        // A program's failure: `WHAT on 'BOARD SIDE DEPTH'`, ending the engine's words.
        let why = rest.strip_suffix(')').unwrap_or(rest);
        return Some(Told {
            fault,
            function,
            why,
            call: None,
            ran: None,
        });
    };
    let why = &rest[..at];
    let call = &rest[at + " (called with '".len()..];
    let quote = call.rfind("' ")?;
    let board = &call[..quote];
    let tail = call[quote + 2..].trim_end_matches(')');
    let (args, ran) = match tail.split_once("; it ran ") {
        Some((args, ran)) => (args, ran.strip_suffix(" ms")),
        None => (tail, None),
    };
    let (side, depth) = args.split_once(' ')?;
    Some(Told {
        fault,
        function,
        why,
        call: Some((board, side, depth)),
        ran,
    })
}

/// A first failure in a student's words, as HTML: what the function did (what it returned and
/// why that is not a move, what it raised, or which limit it broke), what it was given, and how
/// long it ran; the end of its standard error apart, a line each (the adapter joins them with
/// ` | `). A failure the adapter did not tell (an
/// engine program's) is the referee's reason as it stands.
pub fn fault_html(reason: &str) -> String {
    let Some(t) = told(reason) else {
        return format!("<div class=\"msg\">{}</div>", escape(&readable(reason)));
    };
    let f = escape(&readable(t.function));
    let (why, stderr) = match t.why.split_once("; its standard error ends: ") {
        Some((why, tail)) => (why, Some(tail)),
        None => (t.why, None),
    };
    let why_text = escape(&readable(why));
    let between = |text: &str, start: &str, end: &str| -> Option<String> {
        let from = text.find(start)? + start.len();
        let to = text.rfind(end)?;
        (to >= from).then(|| escape(&readable(&text[from..to])))
    };
    let said = match t.fault {
        "exception" => {
            format!("<b>{f}</b> raised an error instead of returning a board: {why_text}.")
        }
        "timeout" => format!(
            "<b>{f}</b> had not returned when its time was up ({why_text}): a move may take no longer."
        ),
        "no board" => match between(why, "it returned '", "', not a ") {
            Some(value) => format!(
                "<b>{f}</b> returned <code>{value}</code>, which is not a board of the game ({}), so it is \
                 not a move.",
                escape(&readable(
                    &why[why.rfind("', not a ").map_or(0, |i| i + 9)..]
                ))
            ),
            None => format!("<b>{f}</b> did not return a board: {why_text}."),
        },
        "illegal" => match between(why, "its board '", "' is not the result") {
            Some(board) => format!(
                "<b>{f}</b> returned the board <code>{board}</code>, but no legal move leads \
                 there from the board it was given, so it is not a move."
            ),
            None => format!("<b>{f}</b> returned a board no legal move leads to: {why_text}."),
        },
        "memory" => format!("<b>{f}</b> ran out of memory: {why_text}."),
        "cpu" => format!("<b>{f}</b> used up its CPU time: {why_text}."),
        "processes" => format!("<b>{f}</b> started too many processes: {why_text}."),
        "output" => format!("<b>{f}</b> printed too much: {why_text}."),
        "crash" => format!("The interpreter running <b>{f}</b> died: {why_text}."),
        "load" => format!("<b>{f}</b> could not be loaded: {why_text}."),
        _ => format!("<b>{f}</b>: {why_text}."),
    };
    let mut out = format!("<p>{said}</p>");
    if let Some((board, side, depth)) = t.call {
        let side = match side {
            "w" => "White",
            "b" => "Black",
            s => s,
        };
        let _ = write!(
            out,
            "<p>It was given the board drawn here as <code>{}</code>, to move for {}, at depth {}.</p>",
            escape(&readable(board)),
            escape(side),
            escape(depth)
        );
    }
    if let Some(ms) = t.ran {
        let _ = write!(out, "<p>The call ran {} ms.</p>", escape(ms));
    }
    if let Some(tail) = stderr {
        let tail = tail.strip_prefix('\'').unwrap_or(tail);
        let tail = tail.strip_suffix('\'').unwrap_or(tail);
        let _ = write!(
            out,
            "<p class=\"small\">What it printed last (standard error):</p><div class=\"msg\">{}</div>",
            tail.split(" | ")
                .map(|l| escape(&readable(l)))
                .collect::<Vec<_>>()
                .join("\n")
        );
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
td.self{background:#eee}td{white-space:nowrap}td.n{white-space:normal;\
overflow-wrap:anywhere;max-width:16em}.board{flex:none}.note{background:#fff8dc;padding:.4em .6em;margin:.3em 0;\
border-left:4px solid #e0c060}.fault{display:flex;gap:1.2em;align-items:flex-start;\
margin:.8em 0}.msg{font-family:monospace;font-size:.85em;white-space:pre-wrap;\
word-break:break-word;background:#f7f7f7;padding:.5em;max-width:860px}.small{color:#666;\
font-size:.9em}.legend>span{display:inline-block;margin-right:1em}.sw{display:inline-block;\
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
        let per_move = e.ms_per_move();
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{:.1}%</td><td>{:.1}%</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td></tr>",
            rank + 1,
            name_html(&report.standings.names[i]),
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
            name_html(&names[a])
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
    let games = finished_by_number(records);
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
            name_html(&names[i])
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
        "<div class=\"board\">{}<div class=\"small\">{side}</div></div>",
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
        let _ = writeln!(out, "<h3>{}</h3>", name_html(&names[i]));
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
            "<div><div>First: game {}, {}</div>{}</div></div>",
            f.game,
            escape(&f.fault),
            fault_html(&f.message)
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
    let cells = |t: &Tally| t.shares().map(|c| format!("<td>{c}</td>")).concat();
    for s in g.students.iter().chain(std::iter::once(&total)) {
        let _ = writeln!(
            out,
            "<tr><td class=\"n\">{}</td><td>{}</td><td>{}</td>{}{}</tr>",
            name_html(&s.name),
            s.moved,
            s.solved,
            cells(&s.own),
            cells(&s.reference),
        );
    }
    out.push_str("</table>\n<h3>Each student's worst move</h3>\n");
    for s in &g.students {
        let Some(w) = &s.worst else {
            if s.solved > 0 {
                let _ = writeln!(
                    out,
                    "<p>{}: kept the value in all {} solved positions.</p>",
                    name_html(&s.name),
                    s.solved
                );
            }
            continue;
        };
        let _ = writeln!(
            out,
            "<div class=\"fault\"><div class=\"board\">{}</div><div><b>{}</b>: {}</div></div>",
            board_svg(&w.board),
            name_html(&s.name),
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

    use boardgames_core::games::GameKind;
    use boardgames_core::protocol::Setup;

    /// A finished Oska 4 game of no moves between `white` and `black`, numbered `number`,
    /// with `tags` (such as a `Reason`).
    fn record(number: usize, white: &str, black: &str, tags: &[(&str, &str)]) -> GameRecord {
        let mut all = vec![("GameNumber".to_string(), number.to_string())];
        all.extend(tags.iter().map(|(t, v)| (t.to_string(), v.to_string())));
        GameRecord {
            game: GameKind::Oska,
            size: 4,
            white: white.into(),
            black: black.into(),
            start: Setup::StartPos,
            moves: Vec::new(),
            result: RecordResult::Black,
            tags: all,
        }
    }

    /// The page of `records`, without grading.
    fn page_of(records: &[GameRecord]) -> String {
        let report = ClassReport::from_records(records).unwrap();
        page(&Page {
            title: "t",
            records,
            report: &report,
            notes: &[],
            grading: None,
        })
    }

    const MOODLE: &str = "Erin O'Neil-Fairweather_4711_assignsubmission_file_";

    #[test]
    fn a_course_site_name_is_shown_short_with_the_whole_name_on_hover() {
        assert_eq!(
            name_html(MOODLE),
            "<span title=\"Erin O&#39;Neil-Fairweather_4711_assignsubmission_file_\">Erin \
             O&#39;Neil-Fairweather_4711</span>"
        );
        let long = "a".repeat(40);
        let shown = name_html(&long);
        assert!(shown.contains(&format!("title=\"{long}\"")), "{shown}");
        assert!(
            shown.contains(&format!(">{}…<", "a".repeat(NAME_CHARS - 1))),
            "{shown}"
        );
        assert_eq!(name_html("bob"), "bob");
        assert_eq!(
            name_html("x_assignsubmission_no suffix"),
            "x_assignsubmission_no suffix"
        );
        let exact = "b".repeat(NAME_CHARS);
        assert_eq!(name_html(&exact), exact);
    }

    #[test]
    fn every_name_of_the_page_is_short_and_name_cells_wrap() {
        let page = page_of(&[record(1, MOODLE, "bob", &[]), record(2, "bob", MOODLE, &[])]);
        // Wherever the name appears as text, it is the short one; the whole one is a title.
        let whole = escape(MOODLE);
        assert_eq!(
            page.matches(&format!(">{whole}<")).count(),
            0,
            "the whole name shown somewhere"
        );
        let titled = page.matches(&format!("title=\"{whole}\"")).count();
        // Standings, crosstable, the chart's legend.
        assert_eq!(titled, 3, "{page}");
        assert!(STYLE.contains("td.n{white-space:normal;overflow-wrap:anywhere;max-width:16em}"));
    }

    #[test]
    fn names_are_in_case_insensitive_order() {
        // Equal points: the standings order by name, upper case not first.
        let page = page_of(&[
            record(1, "Bob", "alice", &[]),
            record(2, "alice", "Bob", &[]),
            record(3, "carol", "Dave", &[]),
            record(4, "Dave", "carol", &[]),
        ]);
        let standings =
            &page[page.find("<h2>Standings").unwrap()..page.find("<h2>Crosstable").unwrap()];
        let at = |n: &str| standings.find(&format!(">{n}<")).unwrap();
        assert!(at("alice") < at("Bob") && at("Bob") < at("carol") && at("carol") < at("Dave"));
    }

    #[test]
    fn every_board_is_drawn_one_size() {
        // A board beside a long text: the flex row must not shrink it.
        assert!(STYLE.contains(".board{flex:none}"));
        let reason = "illegal move by x (white): bestmove none in a position with legal moves (the \
                      engine said: board-call: [exception] f: ValueError: boom (x.py, line 3, in \
                      f) (called with '['www-', '---', '--', '---', 'bbbb']' w 2; it ran 5 ms))";
        let page = page_of(&[record(
            1,
            "x",
            "y",
            &[("Reason", reason), ("Fault", "illegal move")],
        )]);
        let boards = page.matches("<svg width=\"").count() - 1; // less the chart
        assert!(boards >= 1);
        assert_eq!(
            page.matches("<div class=\"board\"><svg").count(),
            boards,
            "a board outside a .board box: {page}"
        );
        let sizes: std::collections::BTreeSet<&str> = page
            .match_indices("<div class=\"board\"><svg width=\"")
            .map(|(i, m)| {
                let rest = &page[i + m.len()..];
                &rest[..rest.find('"').unwrap()]
            })
            .collect();
        assert_eq!(sizes.len(), 1, "{sizes:?}");
    }

    /// A function's failure as the adapter and the referee write it.
    fn said(fault: &str, why: &str) -> String {
        format!(
            "illegal move by dave (black): bestmove none in a position with legal moves (the \
             engine said: board-call: note: memory limit off; board-call: [{fault}] oskaplayer: {why} \
             (called with '['www-', '---', '--', '---', 'bbbb']' b 3; it ran 812 ms))"
        )
    }

    /// Words of protocol and of the referee that a student's page must not hold.
    const PROTOCOL_WORDS: [&str; 6] = [
        "bestmove",
        "board-call",
        "the engine said",
        "[exception]",
        "info string",
        "illegal move by",
    ];

    #[test]
    fn faults_are_in_a_students_words() {
        let cases = [
            (
                "exception",
                "ZeroDivisionError: division by zero (p.py, line 9, in oskaplayer); its standard \
                 error ends: 'Traceback (most recent call last): |   File \"p.py\", line 9 | ZeroDivisionError: division by zero'",
                vec![
                    "raised an error instead of returning a board: ZeroDivisionError: division by zero (p.py, line 9, in oskaplayer)",
                    "What it printed last",
                    "  File &quot;p.py&quot;, line 9\nZeroDivisionError",
                ],
            ),
            (
                "timeout",
                "no answer within 5000 ms",
                vec!["had not returned when its time was up (no answer within 5000 ms)"],
            ),
            (
                "no board",
                "it returned 'None', not a oska board of size 4",
                vec![
                    "returned <code>None</code>, which is not a board of the game (oska board of size 4), so it is not a move",
                ],
            ),
            (
                "illegal",
                "its board '['www-', '---', '--', '---', 'bbbb']' is not the result of any legal move",
                vec![
                    "returned the board <code>[&#39;www-&#39;, &#39;---&#39;, &#39;--&#39;, &#39;---&#39;, &#39;bbbb&#39;]</code>, but no legal move leads there from the board it was given, so it is not a move",
                ],
            ),
            (
                "memory",
                "MemoryError: (hog.py, line 7, in oskaplayer)",
                vec!["ran out of memory: MemoryError"],
            ),
            ("cpu", "killed by SIGXCPU", vec!["used up its CPU time"]),
            (
                "processes",
                "9 processes, more than the limit of 8",
                vec!["started too many processes: 9 processes"],
            ),
            (
                "output",
                "printed more than 1 MiB during one move",
                vec!["printed too much"],
            ),
            (
                "crash",
                "exit status 139",
                vec!["The interpreter running <b>oskaplayer</b> died: exit status 139"],
            ),
        ];
        for (fault, why, expected) in cases {
            let html = fault_html(&said(fault, why));
            for e in expected {
                assert!(html.contains(e), "{fault}: no '{e}' in {html}");
            }
            assert!(
                html.contains("to move for Black, at depth 3"),
                "{fault}: {html}"
            );
            assert!(html.contains("The call ran 812 ms."), "{fault}: {html}");
            for word in PROTOCOL_WORDS {
                assert!(!html.contains(word), "{fault}: '{word}' in {html}");
            }
        }
    }

    #[test]
    fn the_page_tells_the_first_fault_in_words() {
        let reason = said("no board", "it returned '42', not a oska board of size 4");
        let page = page_of(&[record(
            1,
            "a",
            "dave",
            &[("Reason", &reason), ("Fault", "illegal move")],
        )]);
        let notes = &page[page.find("<h2>Notes and faults").unwrap()..];
        assert!(notes.contains("returned <code>42</code>"), "{notes}");
        for word in PROTOCOL_WORDS {
            assert!(!notes.contains(word), "'{word}' in {notes}");
        }
    }

    #[test]
    fn a_program_s_own_failure_keeps_the_referee_s_reason() {
        let reason = "crash by prog (white): it exited with status 3";
        assert_eq!(
            fault_html(reason),
            "<div class=\"msg\">crash by prog (white): it exited with status 3</div>"
        );
    }

    #[test]
    fn a_board_has_a_disc_per_square_and_per_piece() {
        let svg = board_svg("wwww/---/--/---/bbbb");
        assert_eq!(svg.matches("<circle").count(), 16 + 8);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    }
}
