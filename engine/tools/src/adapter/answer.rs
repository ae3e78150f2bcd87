//! Finding a board-call program's answer in what it printed.
//!
//! Student programs print traces before their answer, a trailer after it, Python tuples as well
//! as lists, and sometimes the board one row per line. The answer is the board that ends last in
//! the output: either one line that reads as a board of the game and size being played, or a
//! block of consecutive lines that read as its rows (see [`find_answer`]).

use boardgames_core::games::format::{Format, parse_board, print_board};
use boardgames_core::games::{Game, Line, Move, MoveList};

/// The program's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The answer as messages show it: the line, or the rows of a block joined with `/`.
    pub text: String,
    /// The legal move whose resulting board is the answer, if there is one.
    pub best: Option<Move>,
}

/// Blanks and quote characters removed (a Lisp board's `'` as well).
fn normalise(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '\'' | '"'))
        .collect()
}

/// A Python literal made of strings, lists and tuples.
enum Literal {
    Str(String),
    Seq(Vec<Literal>),
}

/// Reads `text` as one Python literal of quoted strings in lists or tuples (a trailing comma
/// allowed, as in `('ww--',)`); `None` when it is anything else.
fn python_literal(text: &str) -> Option<Literal> {
    fn value(s: &mut std::iter::Peekable<std::str::Chars>) -> Option<Literal> {
        while s.next_if(|c| c.is_whitespace()).is_some() {}
        match s.next()? {
            q @ ('\'' | '"') => {
                let mut body = String::new();
                loop {
                    match s.next()? {
                        c if c == q => return Some(Literal::Str(body)),
                        '\\' => return None,
                        c => body.push(c),
                    }
                }
            }
            open @ ('[' | '(') => {
                let close = if open == '[' { ']' } else { ')' };
                let mut items = Vec::new();
                loop {
                    while s.next_if(|c| c.is_whitespace()).is_some() {}
                    if s.next_if_eq(&close).is_some() {
                        return Some(Literal::Seq(items));
                    }
                    items.push(value(s)?);
                    while s.next_if(|c| c.is_whitespace()).is_some() {}
                    if s.next_if_eq(&',').is_none() && s.peek() != Some(&close) {
                        return None;
                    }
                }
            }
            _ => None,
        }
    }
    let mut chars = text.chars().peekable();
    let lit = value(&mut chars)?;
    chars.all(char::is_whitespace).then_some(lit)
}

/// A sequence of strings as a Python list of rows (or of flat boards) that `parse_board` reads.
fn as_list<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let quoted: Vec<String> = items.map(|s| format!("'{s}'")).collect();
    format!("[{}]", quoted.join(", "))
}

/// The texts to try as a board, best first: tuples and nested lists (`[['w', '-'], ...]`)
/// rewritten as a list of row strings, then for a list of several strings its first one alone
/// (a Capture the Flag history whose older boards do not follow the rules).
fn spellings(text: &str) -> Vec<String> {
    let Some(Literal::Seq(items)) = python_literal(text) else {
        return vec![text.to_string()];
    };
    let strings: Option<Vec<&str>> = items
        .iter()
        .map(|i| match i {
            Literal::Str(s) => Some(s.as_str()),
            Literal::Seq(_) => None,
        })
        .collect();
    if let Some(strings) = strings {
        let mut out = vec![as_list(strings.iter().copied())];
        if strings.len() > 1 {
            out.push(as_list(strings.iter().take(1).copied()));
        }
        return out;
    }
    let rows: Option<Vec<String>> = items
        .iter()
        .map(|row| match row {
            Literal::Seq(cells) => cells
                .iter()
                .map(|c| match c {
                    Literal::Str(s) => Some(s.as_str()),
                    Literal::Seq(_) => None,
                })
                .collect::<Option<String>>(),
            Literal::Str(_) => None,
        })
        .collect();
    rows.map_or_else(Vec::new, |rows| {
        vec![as_list(rows.iter().map(String::as_str))]
    })
}

/// The position `text` spells, if it is a board of the same game and size as `like`, with
/// `side` to move.
fn read_board<G: Game>(text: &str, side: boardgames_core::games::Side, like: &G) -> Option<G> {
    spellings(text.trim()).iter().find_map(|t| {
        let parsed = parse_board::<G>(t, side).ok()?;
        let pos = *parsed.line.current();
        (pos.size() == like.size()).then_some(pos)
    })
}

/// One printed row reduced to its squares: blanks, quotes, brackets and commas dropped, a Lisp
/// `nil` read as `-` (so `- w W w -`, `['w', '-']` and `(w nil)` are rows too).
fn row_squares(line: &str) -> String {
    line.replace("nil", "-")
        .replace("NIL", "-")
        .chars()
        .filter(|c| !c.is_whitespace() && !"'\"[](),".contains(*c))
        .collect()
}

/// Finds the program's answer to a move from `line` in its standard output `output`: the last
/// place, counted by where it ends, that holds the board after a move, which is either
///
/// - one line that is the board after a legal move printed in the format sent (`sent`), compared
///   without blanks and quotes, or a board in any seed format, a Python tuple, or a list of lists
///   of squares, of the game and size played; or
/// - a block of consecutive non-blank lines, one row of such a board each.
///
/// Lines after it (a trailer) and before it (traces) are ignored. `None` when no line or block
/// reads as a board.
pub fn find_answer<G: Game>(
    output: &str,
    line: &Line<G>,
    moves: &MoveList,
    sent: &Format,
) -> Option<Answer> {
    let pos = line.current();
    let after = pos.side_to_move().opposite();
    let boards: Vec<(Move, G, String)> = moves
        .as_slice()
        .iter()
        .map(|&m| {
            let next = pos.play(m);
            (m, next, normalise(&print_board(&next, sent)))
        })
        .collect();
    let found = |board: &G| boards.iter().find(|b| b.1 == *board).map(|b| b.0);
    let lines: Vec<&str> = output.lines().map(str::trim).collect();
    let rows = pos.layout().rows();
    for end in (0..lines.len()).rev() {
        let text = lines[end];
        if text.is_empty() {
            continue;
        }
        let wanted = normalise(text);
        if let Some(b) = boards.iter().find(|b| b.2 == wanted) {
            return Some(Answer {
                text: text.to_string(),
                best: Some(b.0),
            });
        }
        if let Some(board) = read_board(text, after, pos) {
            return Some(Answer {
                text: text.to_string(),
                best: found(&board),
            });
        }
        let Some(start) = (end + 1).checked_sub(rows) else {
            continue;
        };
        let block = &lines[start..=end];
        if block.iter().any(|l| l.is_empty()) {
            continue;
        }
        let slash = block
            .iter()
            .map(|l| row_squares(l))
            .collect::<Vec<_>>()
            .join("/");
        if let Some(board) = read_board(&slash, after, pos) {
            return Some(Answer {
                text: slash,
                best: found(&board),
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardgames_core::games::notation::move_name;
    use boardgames_core::games::{Ctf, Hexapawn, Oska, Side};

    /// The move (or `-` for a board that no legal move gives) `output` is read as, from `board`
    /// with White to move, the board having been sent in `sent`; `None` when no board is found.
    fn answer<G: Game>(board: &str, output: &str, sent: &Format) -> Option<String> {
        let line = parse_board::<G>(board, Side::White).unwrap().line;
        let mut moves = MoveList::new();
        line.legal_moves(&mut moves);
        find_answer(output, &line, &moves, sent)
            .map(|a| a.best.map_or("-".into(), |m| move_name(line.current(), m)))
    }

    fn python() -> Format {
        Format::List {
            quote: '\'',
            sep: ", ".into(),
        }
    }

    /// Every form, for one game: `(start, answer as rows)`, the move the answer is.
    fn every_form<G: Game>(start: &str, rows: &[&str], want: &str) {
        let quoted: Vec<String> = rows.iter().map(|r| format!("'{r}'")).collect();
        let list = format!("[{}]", quoted.join(", "));
        let tuple = format!("({})", quoted.join(", "));
        let dquoted: Vec<String> = rows.iter().map(|r| format!("\"{r}\"")).collect();
        let haskell = format!("[{}]", dquoted.join(","));
        let nested: Vec<String> = rows
            .iter()
            .map(|r| {
                let cells: Vec<String> = r.chars().map(|c| format!("'{c}'")).collect();
                format!("[{}]", cells.join(", "))
            })
            .collect();
        let nested = format!("[{}]", nested.join(", "));
        let one_per_line = rows.join("\n");
        let spaced: Vec<String> = rows
            .iter()
            .map(|r| r.chars().map(String::from).collect::<Vec<_>>().join(" "))
            .collect();
        let spaced = spaced.join("\n");
        let lists_per_line = rows
            .iter()
            .map(|r| format!("{:?}", r.chars().map(String::from).collect::<Vec<_>>()))
            .collect::<Vec<_>>()
            .join("\n");
        let slash = rows.join("/");
        let forms = [
            list,
            tuple,
            haskell,
            nested,
            slash,
            one_per_line,
            spaced,
            lists_per_line,
        ];
        for form in &forms {
            for (before, after) in [
                ("", ""),
                ("searching depth 3\nbest value 12\n", ""),
                ("", "\n\ntook 0.3 s\n"),
                ("trace: 1 2 3\n", "nodes: 812\n"),
                (&format!("{start}\n"), "\n"),
            ] {
                let output = format!("{before}{form}\n{after}");
                for sent in [python(), Format::Slash] {
                    assert_eq!(
                        answer::<G>(start, &output, &sent).as_deref(),
                        Some(want),
                        "{} from {start}, output:\n{output}",
                        G::KIND
                    );
                }
            }
        }
    }

    #[test]
    fn oska_answers_in_every_form() {
        every_form::<Oska>(
            "wwww/---/--/---/bbbb",
            &["www-", "--w", "--", "---", "bbbb"],
            "d1c2",
        );
        // A larger board: its rows need a block of 7 lines.
        every_form::<Oska>(
            "wwwww/----/---/--/---/----/bbbbb",
            &["-wwww", "w---", "---", "--", "---", "----", "bbbbb"],
            "a1a2",
        );
    }

    #[test]
    fn hexapawn_answers_in_every_form() {
        every_form::<Hexapawn>("www/---/bbb", &["-ww", "w--", "bbb"], "a1a2");
        every_form::<Hexapawn>(
            "wwww/----/----/bbbb",
            &["www-", "---w", "----", "bbbb"],
            "d1d2",
        );
    }

    #[test]
    fn ctf_answers_in_every_form() {
        every_form::<Ctf>(
            "-wWw-/-www-/-----/-bbb-/-bBb-",
            &["-wWw-", "-w-w-", "--w--", "-bbb-", "-bBb-"],
            "c2c3",
        );
        // The seed's own forms: one flat string, quoted or not, a one-element tuple, and the
        // new history list (most recent first).
        let start = "-wWw-/-www-/-----/-bbb-/-bBb-";
        let after = "-wWw--w-w---w---bbb--bBb-";
        let history = format!("['{after}', '-wWw--www-------bbb--bBb-']");
        for out in [
            after.to_string(),
            format!("\"{after}\""),
            format!("('{after}',)"),
            format!("['{after}']"),
            history,
        ] {
            let sent = Format::History {
                quote: '\'',
                sep: ", ".into(),
            };
            assert_eq!(
                answer::<Ctf>(start, &format!("thinking...\n{out}\ndone\n"), &sent).as_deref(),
                Some("c2c3"),
                "{out}"
            );
        }
    }

    #[test]
    fn the_last_board_is_the_answer() {
        let start = "www/---/bbb";
        // A trace of boards, then the answer: the answer is read, legal or not.
        let out = "['-ww', 'w--', 'bbb']\n['w-w', '-w-', 'bbb']\n";
        assert_eq!(
            answer::<Hexapawn>(start, out, &python()).as_deref(),
            Some("b1b2")
        );
        let out = "['-ww', 'w--', 'bbb']\n['www', '---', 'bbb']\n";
        assert_eq!(
            answer::<Hexapawn>(start, out, &python()).as_deref(),
            Some("-")
        );
        // A row block after a one-line board wins, and the other way round.
        let out = "['-ww', 'w--', 'bbb']\nw-w\n-w-\nbbb\n";
        assert_eq!(
            answer::<Hexapawn>(start, out, &python()).as_deref(),
            Some("b1b2")
        );
        let out = "w-w\n-w-\nbbb\n['-ww', 'w--', 'bbb']\n";
        assert_eq!(
            answer::<Hexapawn>(start, out, &python()).as_deref(),
            Some("a1a2")
        );
        // Rows split by a blank line are no block; a board of another size is no answer.
        assert_eq!(
            answer::<Hexapawn>(start, "w-w\n\n-w-\nbbb\n", &python()),
            None
        );
        let other = "['www-', '---w', '----', 'bbbb']";
        assert_eq!(answer::<Hexapawn>(start, other, &python()), None);
        assert_eq!(answer::<Hexapawn>(start, "", &python()), None);
        assert_eq!(answer::<Hexapawn>(start, "nonsense\n", &python()), None);
    }

    #[test]
    fn a_lisp_answer_is_matched_as_sent() {
        // Capture the Flag in Lisp cannot be read back as a board (case folds), but it matches
        // the board printed in the format sent.
        let sent = Format::Lisp { quoted: false };
        let out =
            "((nil w W w nil)(nil w nil w nil)(nil nil w nil nil)(nil b b b nil)(nil b B b nil))";
        assert_eq!(
            answer::<Ctf>("-wWw-/-www-/-----/-bbb-/-bBb-", out, &sent).as_deref(),
            Some("c2c3")
        );
        let out = "'((w w w nil)(nil nil w)(nil nil)(nil nil nil)(b b b b))";
        assert_eq!(
            answer::<Oska>("wwww/---/--/---/bbbb", out, &sent).as_deref(),
            Some("d1c2")
        );
    }
}
