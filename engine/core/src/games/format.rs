//! Board formats of the seeds, detected from the text, and printing in the same format.
//!
//! | format | example |
//! | --- | --- |
//! | `/`-joined rows | `wwww/---/--/---/bbbb` |
//! | Python or Haskell list of rows | `['wwww','---','--','---','bbbb']`, `["www", "---", "bbb"]` |
//! | Lisp (seed 000) | `((w w w w)(nil nil nil)(nil nil)(nil nil nil)(b b b b))` |
//! | one flat string, row-major | `-wWw--www-------bbb--bBb-` |
//! | Capture the Flag history | `["-wWw--w-w-...", "-wWw--www-..."]`, most recent first |
//!
//! Python and Haskell lists have the same shape; the quote character and the separator of the
//! input are kept, so the output looks like the input.

use super::{Game, GameKind, Line, Piece, PositionError, Side};

/// How a board was written, so that a result can be written the same way.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Rows joined with `/`.
    Slash,
    /// A bracketed list of quoted rows (Python or Haskell), with its quote and separator.
    List {
        /// `'` or `"`.
        quote: char,
        /// What stood between two elements, such as `,` or `, `.
        sep: String,
    },
    /// Lisp lists of `w`, `b` and `nil`, optionally with a leading quote `'`.
    Lisp {
        /// Whether the input started with `'`.
        quoted: bool,
    },
    /// One string of all squares, row-major, optionally in quotes.
    Flat {
        /// The quote character around it, if any.
        quote: Option<char>,
    },
    /// A list of flat boards, most recent first (Capture the Flag's history). A single board is
    /// printed as a quoted flat string, as the seed's `capture` returns it.
    History {
        /// `'` or `"`.
        quote: char,
        /// What stood between two elements.
        sep: String,
    },
}

impl Format {
    /// Every format, with the usual spelling, for one game (tests and documentation).
    pub fn examples(kind: GameKind) -> Vec<Format> {
        let mut all = vec![
            Format::Slash,
            Format::List {
                quote: '\'',
                sep: ",".into(),
            },
            Format::List {
                quote: '"',
                sep: ", ".into(),
            },
            Format::Flat { quote: None },
            Format::Flat { quote: Some('"') },
        ];
        if kind == GameKind::Ctf {
            all.push(Format::History {
                quote: '"',
                sep: ", ".into(),
            });
        } else {
            all.push(Format::Lisp { quoted: false });
            all.push(Format::Lisp { quoted: true });
        }
        all
    }

    /// A short name for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Format::Slash => "slash",
            Format::List { .. } => "list",
            Format::Lisp { .. } => "lisp",
            Format::Flat { .. } => "flat",
            Format::History { .. } => "history",
        }
    }
}

/// A board read from text: the line (position plus history, for Capture the Flag) and its format.
#[derive(Clone, Debug)]
pub struct Parsed<G: Game> {
    /// The position, with the earlier boards of a history list.
    pub line: Line<G>,
    /// How the input was written.
    pub format: Format,
}

fn syntax(msg: impl Into<String>) -> PositionError {
    PositionError::Syntax(msg.into())
}

/// The raw shape of the text before the game is consulted.
enum Raw {
    Rows(Vec<Vec<String>>, Format),
    Flats(Vec<String>, Format),
}

/// Reads a bracketed list of quoted strings: the strings, the quote and the first separator.
fn read_list(text: &str) -> Result<(Vec<String>, char, String), PositionError> {
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| syntax("a list must start with '[' and end with ']'"))?;
    let mut items = Vec::new();
    let mut quote = None;
    let mut sep: Option<String> = None;
    let mut rest = inner.trim_start();
    let mut pending_sep = String::new();
    while !rest.is_empty() {
        let q = rest.chars().next().unwrap_or(' ');
        if q != '\'' && q != '"' {
            return Err(syntax(format!(
                "element {} of the list must be a quoted string like 'www' or \"www\", found '{}'",
                items.len() + 1,
                rest.chars().take(12).collect::<String>()
            )));
        }
        if *quote.get_or_insert(q) != q {
            return Err(syntax(
                "mixed quote characters in the list: use ' or \" throughout",
            ));
        }
        let body = &rest[1..];
        let end = body.find(q).ok_or_else(|| {
            syntax(format!(
                "element {} of the list has no closing {q}",
                items.len() + 1
            ))
        })?;
        items.push(body[..end].to_string());
        if items.len() == 2 && sep.is_none() {
            sep = Some(pending_sep.clone());
        }
        let after = &body[end + 1..];
        let trimmed = after.trim_start();
        if trimmed.is_empty() {
            break;
        }
        let Some(next) = trimmed.strip_prefix(',') else {
            return Err(syntax(format!(
                "expected ',' between the elements of the list after element {}",
                items.len()
            )));
        };
        let next_trim = next.trim_start();
        pending_sep = after[..after.len() - next_trim.len()].to_string();
        rest = next_trim;
        if rest.is_empty() {
            return Err(syntax("the list ends with ',' but no element follows"));
        }
    }
    if items.is_empty() {
        return Err(syntax("the list is empty"));
    }
    Ok((
        items,
        quote.unwrap_or('\''),
        sep.unwrap_or_else(|| ",".into()),
    ))
}

/// Reads Lisp rows: `((w w nil)(...))`.
fn read_lisp(text: &str) -> Result<Vec<Vec<String>>, PositionError> {
    let mut tokens = Vec::new();
    let mut word = String::new();
    for ch in text.chars() {
        if ch == '(' || ch == ')' || ch.is_whitespace() {
            if !word.is_empty() {
                tokens.push(std::mem::take(&mut word));
            }
            if !ch.is_whitespace() {
                tokens.push(ch.to_string());
            }
        } else {
            word.push(ch);
        }
    }
    if !word.is_empty() {
        tokens.push(word);
    }
    let mut it = tokens.into_iter().peekable();
    if it.next().as_deref() != Some("(") {
        return Err(syntax("a Lisp board starts with '(('"));
    }
    let mut rows = Vec::new();
    loop {
        match it.next().as_deref() {
            Some("(") => {
                let mut row = Vec::new();
                loop {
                    match it.next() {
                        Some(t) if t == ")" => break,
                        Some(t) if t == "(" => {
                            return Err(syntax(format!(
                                "row {} of the Lisp board holds a nested list",
                                rows.len() + 1
                            )));
                        }
                        Some(t) => row.push(t),
                        None => {
                            return Err(syntax(format!(
                                "row {} of the Lisp board is not closed with ')'",
                                rows.len() + 1
                            )));
                        }
                    }
                }
                rows.push(row);
            }
            Some(")") => break,
            Some(t) => {
                return Err(syntax(format!(
                    "expected a row '(...)' or the closing ')' of the Lisp board, found '{t}'"
                )));
            }
            None => return Err(syntax("the Lisp board is not closed with ')'")),
        }
    }
    if let Some(t) = it.next() {
        return Err(syntax(format!(
            "unexpected '{t}' after the end of the Lisp board"
        )));
    }
    Ok(rows)
}

fn chars_of(s: &str) -> Vec<String> {
    s.chars().map(|c| c.to_string()).collect()
}

fn read_raw(text: &str, kind: GameKind) -> Result<Raw, PositionError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(syntax("the board is empty"));
    }
    let (lisp_quoted, body) = match t.strip_prefix('\'') {
        Some(rest) if rest.trim_start().starts_with('(') => (true, rest.trim_start()),
        _ => (false, t),
    };
    if body.starts_with('(') {
        if kind == GameKind::Ctf {
            return Err(syntax(
                "the Lisp format is for Oska and Hexapawn: it cannot tell Capture the Flag's flags (W, B) from pawns (w, b)",
            ));
        }
        // Lisp symbols are case-insensitive; `nil` is an empty square.
        let rows = read_lisp(body)?
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|t| match t.to_ascii_lowercase().as_str() {
                        "nil" => "-".to_string(),
                        "w" | "b" => t.to_ascii_lowercase(),
                        _ => t,
                    })
                    .collect()
            })
            .collect();
        return Ok(Raw::Rows(
            rows,
            Format::Lisp {
                quoted: lisp_quoted,
            },
        ));
    }
    if t.starts_with('[') {
        let (items, quote, sep) = read_list(t)?;
        let rows_shape = items.iter().all(|s| s.chars().count() == items.len());
        // A history of N*N boards of size N has the shape of a list of rows too; but a board has
        // two flags, so a list of three or more elements that all hold a flag is a history.
        let flag_in_each = items.len() > 2 && items.iter().all(|s| s.contains(['W', 'B']));
        if kind == GameKind::Ctf && (!rows_shape || flag_in_each) {
            return Ok(Raw::Flats(items, Format::History { quote, sep }));
        }
        let rows = items.iter().map(|s| chars_of(s)).collect();
        return Ok(Raw::Rows(rows, Format::List { quote, sep }));
    }
    if t.contains('/') {
        let rows = t.split('/').map(chars_of).collect();
        return Ok(Raw::Rows(rows, Format::Slash));
    }
    let (quote, flat) = match t.chars().next() {
        Some(q @ ('\'' | '"')) => {
            let inner = t[1..]
                .strip_suffix(q)
                .ok_or_else(|| syntax(format!("the board string has no closing {q}")))?;
            (Some(q), inner)
        }
        _ => (None, t),
    };
    if flat.chars().any(char::is_whitespace) {
        return Err(syntax(
            "a board is one word: rows joined with '/' (wwww/---/--/---/bbbb), a list of rows, or one string of all squares",
        ));
    }
    Ok(Raw::Flats(vec![flat.to_string()], Format::Flat { quote }))
}

/// The size a number of rows means, or a clear error.
fn size_for_rows(kind: GameKind, rows: usize) -> Result<usize, PositionError> {
    let (lo, hi) = kind.size_range();
    let size = match kind {
        GameKind::Oska => (rows % 2 == 1 && rows >= 5).then(|| (rows + 3) / 2),
        _ => Some(rows),
    };
    match size {
        Some(n) if (lo..=hi).contains(&n) => Ok(n),
        // A board of a size this game has, just not a supported one: the size is refused, as
        // `newgame` refuses it.
        Some(n) if n > 0 => Err(PositionError::UnsupportedSize {
            game: kind,
            size: n,
        }),
        _ => {
            let expected = match kind {
                GameKind::Oska => format!(
                    "an Oska board of n pieces a side has 2n-3 rows, so {} to {} rows (an odd number) for n = {lo} to {hi}",
                    2 * lo - 3,
                    2 * hi - 3
                ),
                _ => format!("an n x n board has n rows, for n = {lo} to {hi}"),
            };
            Err(PositionError::RowCount {
                game: kind,
                rows,
                expected,
            })
        }
    }
}

/// The size a flat string of `len` characters means, or a clear error.
fn size_for_flat<G: Game>(len: usize) -> Result<usize, PositionError> {
    let kind = G::KIND;
    let (lo, hi) = kind.size_range();
    if let Some(n) = (lo..=hi).find(|&n| G::layout_of(n).squares() == len) {
        return Ok(n);
    }
    // A square string of a size outside the supported ones is a board of that size.
    if kind != GameKind::Oska
        && let Some(n) = (1..=len)
            .take_while(|n| n * n <= len)
            .find(|n| n * n == len)
    {
        return Err(PositionError::UnsupportedSize {
            game: kind,
            size: n,
        });
    }
    let hint = match kind {
        GameKind::Oska => {
            let sizes: Vec<String> = (lo..=hi)
                .map(|n| format!("{} for n = {n}", G::layout_of(n).squares()))
                .collect();
            format!("an Oska board string has {}", sizes.join(", "))
        }
        _ => {
            let root = (1..=len).take_while(|k| k * k <= len).last().unwrap_or(0);
            format!(
                "{len} is not a square number (the nearest are {} = {root} x {root} and {} = {} x {})",
                root * root,
                (root + 1) * (root + 1),
                root + 1,
                root + 1
            )
        }
    };
    Err(PositionError::NotSquare {
        game: kind,
        len,
        hint,
    })
}

/// Turns rows of symbols into cells, checking row lengths and symbols.
fn cells_from_rows<G: Game>(
    rows: &[Vec<String>],
) -> Result<(usize, Vec<Option<Piece>>), PositionError> {
    let size = size_for_rows(G::KIND, rows.len())?;
    let layout = G::layout_of(size);
    let mut cells = Vec::with_capacity(layout.squares());
    for (r, row) in rows.iter().enumerate() {
        if row.len() != layout.row_len(r) {
            return Err(PositionError::RowLength {
                row: r + 1,
                found: row.len(),
                expected: layout.row_len(r),
            });
        }
        for (c, sym) in row.iter().enumerate() {
            cells.push(cell::<G>(sym, r, c)?);
        }
    }
    Ok((size, cells))
}

/// One symbol: `w`, `b`, `-`, and `W`, `B` in Capture the Flag (Lisp symbols are normalised to
/// these before).
fn cell<G: Game>(sym: &str, r: usize, c: usize) -> Result<Option<Piece>, PositionError> {
    let ctf = G::KIND == GameKind::Ctf;
    match sym {
        "-" => Ok(None),
        "w" => Ok(Some(Piece::WhitePawn)),
        "b" => Ok(Some(Piece::BlackPawn)),
        "W" if ctf => Ok(Some(Piece::WhiteFlag)),
        "B" if ctf => Ok(Some(Piece::BlackFlag)),
        _ => Err(PositionError::BadCell {
            game: G::KIND,
            row: r + 1,
            col: c + 1,
            found: sym.to_string(),
            allowed: if ctf {
                "w, b, W, B or -"
            } else if sym == "W" || sym == "B" {
                "w, b or -; upper-case W and B are Capture the Flag's flags"
            } else {
                "w, b or - (nil in Lisp)"
            },
        }),
    }
}

/// Reads one flat string into a position.
fn position_from_flat<G: Game>(flat: &str, side: Side) -> Result<G, PositionError> {
    let len = flat.chars().count();
    let size = size_for_flat::<G>(len)?;
    let layout = G::layout_of(size);
    let mut cells = Vec::with_capacity(len);
    for (i, ch) in flat.chars().enumerate() {
        let (r, c) = layout.coords(i);
        cells.push(cell::<G>(&ch.to_string(), r, c)?);
    }
    G::from_cells(size, &cells, side)
}

/// Reads a board in any seed format, with `side` to move. A Capture the Flag history (most
/// recent first) is checked to be a game: each board one legal move after the one before it, the
/// sides alternating so that the most recent board has `side` to move.
pub fn parse_board<G: Game>(text: &str, side: Side) -> Result<Parsed<G>, PositionError> {
    match read_raw(text, G::KIND)? {
        Raw::Rows(rows, format) => {
            let (size, cells) = cells_from_rows::<G>(&rows)?;
            let pos = G::from_cells(size, &cells, side)?;
            Ok(Parsed {
                line: Line::new(pos),
                format,
            })
        }
        Raw::Flats(flats, format) => {
            let mut boards = Vec::with_capacity(flats.len());
            for (i, flat) in flats.iter().enumerate() {
                // Boards alternate sides going back in time.
                let s = if i % 2 == 0 { side } else { side.opposite() };
                let pos = position_from_flat::<G>(flat, s).map_err(|e| {
                    if flats.len() > 1 {
                        PositionError::History(format!("board {} of the list: {e}", i + 1))
                    } else {
                        e
                    }
                })?;
                if let Some(first) = boards.first() {
                    let first: &G = first;
                    if first.size() != pos.size() {
                        return Err(PositionError::History(format!(
                            "board {} of the list is {} x {} but board 1 is {} x {}",
                            i + 1,
                            pos.size(),
                            pos.size(),
                            first.size(),
                            first.size()
                        )));
                    }
                }
                boards.push(pos);
            }
            boards.reverse();
            Ok(Parsed {
                line: Line::from_history(&boards)?,
                format,
            })
        }
    }
}

/// The rows of a board as strings of `w`, `b`, `W`, `B`, `-`.
pub fn rows<G: Game>(pos: &G) -> Vec<String> {
    let layout = pos.layout();
    (0..layout.rows())
        .map(|r| {
            (0..layout.row_len(r))
                .map(|c| {
                    let sq = layout.square_at(r, c).unwrap_or(0);
                    pos.piece_at(sq).map_or('-', |p| p.to_char())
                })
                .collect()
        })
        .collect()
}

/// The board in the `/`-joined form the protocol uses (`wwww/---/--/---/bbbb`).
pub fn slash<G: Game>(pos: &G) -> String {
    rows(pos).join("/")
}

/// The board as one row-major string.
pub fn flat<G: Game>(pos: &G) -> String {
    rows(pos).concat()
}

/// Writes a board in a format.
pub fn print_board<G: Game>(pos: &G, format: &Format) -> String {
    let rows = rows(pos);
    match format {
        Format::Slash => rows.join("/"),
        Format::List { quote, sep } => {
            let items: Vec<String> = rows.iter().map(|r| format!("{quote}{r}{quote}")).collect();
            format!("[{}]", items.join(sep))
        }
        Format::Lisp { quoted } => {
            let inner: String = rows
                .iter()
                .map(|r| {
                    let syms: Vec<&str> = r
                        .chars()
                        .map(|c| match c {
                            'w' => "w",
                            'b' => "b",
                            // Capture the Flag's flags keep their letter (not read back: Lisp
                            // symbols are case-insensitive).
                            'W' => "W",
                            'B' => "B",
                            _ => "nil",
                        })
                        .collect();
                    format!("({})", syms.join(" "))
                })
                .collect();
            format!("{}({inner})", if *quoted { "'" } else { "" })
        }
        Format::Flat { quote } => match quote {
            Some(q) => format!("{q}{}{q}", rows.concat()),
            None => rows.concat(),
        },
        Format::History { quote, .. } => format!("{quote}{}{quote}", rows.concat()),
    }
}

/// Writes a whole line as a history list, most recent first (Capture the Flag's `capture` input).
pub fn print_history<G: Game>(line: &Line<G>, quote: char, sep: &str) -> String {
    let items: Vec<String> = std::iter::once(line.current())
        .chain(line.earlier().iter().rev())
        .map(|p| format!("{quote}{}{quote}", flat(p)))
        .collect();
    format!("[{}]", items.join(sep))
}
