//! Tablebases: the exact value of every position of Oska and Hexapawn (or every position with at
//! most K pieces a side), computed by retrograde analysis and probed by the solver, the search
//! and the one-shot commands.
//!
//! - [`index`]: positions of a material numbered by combinatorial ranking.
//! - [`value`]: one byte a position (win or loss with its distance in plies, or draw).
//! - [`build`]: the builder, in order of progress (pieces only move forward).
//! - [`file`]: the file format (header, values, checksum).
//! - [`jobs`]: a build as a graph of jobs (one material each) for cluster schedulers.
//!
//! Tables hold White-to-move positions only; a Black-to-move position is probed as its colour
//! mirror (board turned upside down, colours swapped), which has the same value.

pub mod build;
pub mod file;
mod game;
pub mod index;
pub mod jobs;
pub mod value;

pub use game::TableGame;

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use std::any::Any;
use std::sync::{Arc, Mutex, OnceLock};

use crate::games::{Game, GameKind, Hexapawn, Move, MoveList, Oska, Outcome, Side};
use crate::score::Score;
use crate::search::Probe;
use index::Geometry;

/// The default for [`Tablebase::open`]'s `memory_limit` when a search probes the tables at its
/// nodes: tables up to this many bytes are read into memory.
pub const MEMORY_LIMIT: u64 = 1 << 30;

/// A game whose positions a tablebase covers: two sides of plain pieces, moving forward only.
pub trait Retro: Game {
    /// The position with White on the squares of `white`, Black on `black`, White to move
    /// (unchecked: disjoint sets inside the layout, at most `size` pieces each).
    fn from_sets(size: usize, white: u128, black: u128) -> Self;

    /// The White and the Black squares.
    fn sets(&self) -> (u128, u128);

    /// Whether [`Game::board_outcome`] is the same whichever side is to move (the builder then
    /// asks once a board).
    const OUTCOME_IGNORES_SIDE: bool;

    /// Whether the rules are the same on the board turned left to right (every square to the
    /// other end of its row): the builder then computes one of each such pair of Black sets and
    /// copies the other (it checks the move templates agree).
    const REFLECTS: bool;

    /// Whether a material with as many pieces a side is computed once, by rows and columns
    /// (see `build::Setup::self_mirror`), rather than in both of its orders. Once is less
    /// computing but turns the columns' half of the table between orders at the end: measured
    /// on the whole 5-piece builds (2 threads, the machine alone), Oska 5 went from 93.5 s to
    /// 86.3 s and 80.1 s (two runs); Hexapawn 5 was slower (33.7 s to 39.7 s) until the columns
    /// read their captures from rows and the last transposition looked only at the columns'
    /// sums, and is now faster (24.1 s in both orders, 20.0 s and 21.8 s once).
    const SELF_MIRROR_ONCE: bool;

    /// [`Game::board_outcome`] of the board with White on `white` and Black on `black`, `side`
    /// to move, without making the position (as [`Retro::from_sets`] does).
    fn outcome_of_sets(size: usize, white: u128, black: u128, side: Side) -> Option<Outcome>;

    /// The part of [`Retro::outcome_of_sets`] decided by where the pieces stand, leaving out a
    /// rule that needs both sides' moves counted (Oska's draw when neither side can move): the
    /// builder counts the moves anyway and asks [`Retro::outcome_when_stuck`] when there are
    /// none.
    fn outcome_by_placement(size: usize, white: u128, black: u128, side: Side) -> Option<Outcome>;

    /// The outcome of a board where neither side has a piece move and
    /// [`Retro::outcome_by_placement`] finds none (`None`: the game's rule for a side without a
    /// move applies, as [`Game::generate`] gives it).
    fn outcome_when_stuck(size: usize, white: u128, black: u128) -> Option<Outcome>;
}

impl Retro for Oska {
    const OUTCOME_IGNORES_SIDE: bool = true;
    const REFLECTS: bool = true;
    const SELF_MIRROR_ONCE: bool = true;

    fn from_sets(size: usize, white: u128, black: u128) -> Self {
        Oska::from_bits(size, white, black, Side::White)
    }

    fn sets(&self) -> (u128, u128) {
        (self.bits(Side::White), self.bits(Side::Black))
    }

    fn outcome_of_sets(size: usize, white: u128, black: u128, _side: Side) -> Option<Outcome> {
        Oska::outcome_of_bits(size, white, black)
    }

    #[inline]
    fn outcome_by_placement(size: usize, white: u128, black: u128, _side: Side) -> Option<Outcome> {
        Oska::outcome_by_placement(size, white, black)
    }

    fn outcome_when_stuck(_size: usize, _white: u128, _black: u128) -> Option<Outcome> {
        Some(Oska::STUCK)
    }
}

impl Retro for Hexapawn {
    // The side that has just moved is judged first.
    const OUTCOME_IGNORES_SIDE: bool = false;
    const REFLECTS: bool = true;
    const SELF_MIRROR_ONCE: bool = true;

    fn from_sets(size: usize, white: u128, black: u128) -> Self {
        Hexapawn::from_bits(size, white, black, Side::White)
    }

    fn sets(&self) -> (u128, u128) {
        (self.bits(Side::White), self.bits(Side::Black))
    }

    fn outcome_of_sets(size: usize, white: u128, black: u128, side: Side) -> Option<Outcome> {
        Hexapawn::outcome_of_bits(size, white, black, side)
    }

    #[inline]
    fn outcome_by_placement(size: usize, white: u128, black: u128, side: Side) -> Option<Outcome> {
        Hexapawn::outcome_of_bits(size, white, black, side)
    }

    // A side without a move has lost, as `generate` says.
    fn outcome_when_stuck(_size: usize, _white: u128, _black: u128) -> Option<Outcome> {
        None
    }
}

/// The search's probe of the tables of `G` at `size` in `dir` (see [`Tablebase::open`] for
/// `memory_limit`): `None` when the game has no tables or `dir` holds none of that size.
pub fn probe_for<G: Game>(
    dir: &Path,
    size: usize,
    memory_limit: u64,
) -> Result<Option<Probe<G>>, TablebaseError> {
    Ok(open_probe::<G>(dir, size, memory_limit)?.map(|(probe, _)| probe))
}

/// A probe of the tables of `G` and the tables behind it (see [`open_probe`]).
pub type OpenProbe<G> = (Probe<G>, Arc<Tablebase>);

/// [`probe_for`], with the tables behind the probe, to ask after a search whether a table was
/// found damaged while it was probed ([`Tablebase::fault`]; the probe answers nothing from a
/// damaged table).
pub fn open_probe<G: Game>(
    dir: &Path,
    size: usize,
    memory_limit: u64,
) -> Result<Option<OpenProbe<G>>, TablebaseError> {
    /// Opens the tables of `T` and wraps them as a probe of `G`, which is `T`.
    fn wrap<G: Game, T: Retro>(
        dir: &Path,
        size: usize,
        memory_limit: u64,
    ) -> Result<Option<OpenProbe<G>>, TablebaseError> {
        let tb = Arc::new(Tablebase::open::<T>(dir, size, memory_limit)?);
        if tb.materials().is_empty() {
            return Ok(None);
        }
        let tables = Arc::clone(&tb);
        let probe: Probe<G> = Arc::new(move |pos: &G| {
            (pos as &dyn Any)
                .downcast_ref::<T>()
                .and_then(|p| tables.probe(p))
        });
        Ok(Some((probe, tb)))
    }
    match TableGame::of(G::KIND) {
        Ok(game) => crate::with_table_game!(game, T => wrap::<G, T>(dir, size, memory_limit)),
        Err(_) => Ok(None),
    }
}

/// The environment variable that sets the most bytes a table may have to be read into memory
/// (see [`memory_limit`]).
pub const MEMORY_LIMIT_VARIABLE: &str = "TABLEBASE_MEMORY_LIMIT";

/// The `memory_limit` of [`Tablebase::open`] for the searches: `$TABLEBASE_MEMORY_LIMIT` (a
/// number of bytes) when it is set and not empty, else [`MEMORY_LIMIT`]. A value that is not a
/// number is an error naming the variable.
pub fn memory_limit() -> Result<u64, TablebaseError> {
    match std::env::var_os(MEMORY_LIMIT_VARIABLE) {
        Some(v) if !v.is_empty() => {
            let text = v.to_string_lossy();
            text.trim().parse::<u64>().map_err(|_| {
                TablebaseError::Setting(format!(
                    "${MEMORY_LIMIT_VARIABLE} '{text}' is not a number of bytes (the largest table to read into memory; unset it for {MEMORY_LIMIT})"
                ))
            })
        }
        _ => Ok(MEMORY_LIMIT),
    }
}

/// The table files of `game` at `size` in `dir` (named as [`file::file_name`] says).
fn table_files(dir: &Path, game: GameKind, size: usize) -> Result<Vec<PathBuf>, TablebaseError> {
    let entries = std::fs::read_dir(dir).map_err(|e| TablebaseError::Io {
        path: dir.to_path_buf(),
        error: e.to_string(),
    })?;
    let prefix = format!("{game}-{size}-w");
    Ok(entries
        .flatten()
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with(&prefix) && name.ends_with(".tb")
        })
        .map(|e| e.path())
        .collect())
}

/// What can go wrong building, writing or reading tables.
#[derive(Clone, Debug, thiserror::Error)]
pub enum TablebaseError {
    /// A file or directory could not be read or written.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's message.
        error: String,
    },
    /// A file that is not a sound table.
    #[error("{}: {why}", path.display())]
    BadFile {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// A game the tables do not cover.
    #[error("{0}")]
    Unsupported(String),
    /// A win or loss longer than a table byte holds.
    #[error("a win or loss longer than {max} plies does not fit the table format")]
    TooLong {
        /// The longest distance the format holds.
        max: u32,
    },
    /// A defect of the builder.
    #[error("internal error: {0}")]
    Internal(String),
    /// A setting (an environment variable) that cannot be used.
    #[error("{0}")]
    Setting(String),
}

/// What [`Tablebase::verify`] found in a directory: the tables present (every one sound) and
/// the materials missing from the set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// The materials present, as (White, Black) piece counts, each table sound.
    pub present: Vec<(usize, usize)>,
    /// The materials up to [`Verified::max_pieces`] a side that have no table.
    pub missing: Vec<(usize, usize)>,
    /// The most pieces a side of a table present (0: none).
    pub max_pieces: usize,
}

/// Where one material's values are.
#[derive(Debug)]
enum Table {
    Memory(Vec<u8>),
    Disk(DiskTable),
}

/// How many blocks of a table read from its file are kept in memory at most (16 MiB of values),
/// each checked when it was read.
const CACHE_BLOCKS: u64 = 4096;

/// A slot of [`DiskTable`]'s cache: a block's number and its checked values, or nothing yet.
type Slot = Mutex<Option<(u64, Box<[u8]>)>>;

/// A table probed from its file: its values are read a block of [`file::BLOCK_LEN`] at a time,
/// and each block read is checked against the checksum that block had when the table was opened
/// (and the whole file passed its checksum), so a file damaged or changed in place while it is
/// open is refused, never answered from. Checked blocks are kept, direct-mapped, in a few slots.
struct DiskTable {
    file: File,
    path: PathBuf,
    count: u64,
    /// The checksum of every block, taken when the table was opened.
    sums: Vec<u64>,
    /// The block `b` in slot `b % slots`.
    cache: Vec<Slot>,
    /// The first damage found: from then on the table answers nothing.
    fault: OnceLock<TablebaseError>,
}

impl std::fmt::Debug for DiskTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DiskTable")
            .field("path", &self.path)
            .field("count", &self.count)
            .field("fault", &self.fault.get())
            .finish_non_exhaustive()
    }
}

impl DiskTable {
    /// A table whose file `file` at `path` passed every check, with the checksums of its
    /// blocks.
    fn new(file: File, path: &Path, count: u64, sums: Vec<u64>) -> DiskTable {
        let slots = (sums.len() as u64).clamp(1, CACHE_BLOCKS);
        DiskTable {
            file,
            path: path.to_path_buf(),
            count,
            sums,
            cache: (0..slots).map(|_| Mutex::new(None)).collect(),
            fault: OnceLock::new(),
        }
    }

    /// The value at `index`, from a checked block.
    fn value(&self, index: u64) -> Result<u8, TablebaseError> {
        if let Some(e) = self.fault.get() {
            return Err(e.clone());
        }
        let block_len = file::BLOCK_LEN as u64;
        let block = index / block_len;
        let Some(&sum) = self.sums.get(block as usize) else {
            return Err(TablebaseError::Internal(format!(
                "index {index} past the {} values of {}",
                self.count,
                self.path.display()
            )));
        };
        let slot = &self.cache[(block % self.cache.len() as u64) as usize];
        // A slot whose holder panicked still holds a checked block or nothing.
        let mut slot = slot.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((b, values)) = slot.as_ref()
            && *b == block
        {
            return Ok(values[(index % block_len) as usize]);
        }
        let start = block * block_len;
        let mut values = vec![0u8; (self.count - start).min(block_len) as usize];
        let checked = self
            .file
            .read_exact_at(&mut values, file::HEADER_LEN as u64 + start)
            .map_err(|e| TablebaseError::Io {
                path: self.path.clone(),
                error: format!(
                    "reading values {start} to {}: {e} (the file changed while in use? rebuild the table, then open the tables again)",
                    start + values.len() as u64 - 1
                ),
            })
            .and_then(|()| {
                if file::checksum(&values) == sum {
                    Ok(())
                } else {
                    Err(TablebaseError::BadFile {
                        path: self.path.clone(),
                        why: format!(
                            "damaged while in use: values {start} to {} no longer match the checksum they had when the table was opened (rebuild the table, then open the tables again)",
                            start + values.len() as u64 - 1
                        ),
                    })
                }
            });
        if let Err(e) = checked {
            return Err(self.fault.get_or_init(|| e).clone());
        }
        let v = values[(index - start) as usize];
        *slot = Some((block, values.into_boxed_slice()));
        Ok(v)
    }
}

/// The tables of one game and size, opened for probing.
#[derive(Debug)]
pub struct Tablebase {
    game: GameKind,
    size: usize,
    shape: Geometry,
    /// `tables[w][b]`.
    tables: Vec<Vec<Option<Table>>>,
    /// The first table found damaged while probed.
    fault: OnceLock<TablebaseError>,
}

impl Tablebase {
    /// An empty set of tables for a game and size.
    fn empty<G: Retro>(size: usize) -> Tablebase {
        Tablebase {
            game: G::KIND,
            size,
            shape: Geometry::new(G::layout_of(size)),
            tables: (0..=size)
                .map(|_| (0..=size).map(|_| None).collect())
                .collect(),
            fault: OnceLock::new(),
        }
    }

    /// Whether a game has tables at all.
    pub fn supports(game: GameKind) -> bool {
        TableGame::of(game).is_ok()
    }

    /// Opens the tables of `G` at `size` found in `dir` (files named as [`file::file_name`]
    /// says). Every file passes the same checks, once, before any value of it is used (see
    /// [`Tablebase::load`]); the first that fails is refused with an error naming it. Tables up to
    /// `memory_limit` bytes are kept in memory; larger ones are read a value at a time from disk
    /// when probed (their checksum is checked now, reading them in pieces).
    pub fn open<G: Retro>(
        dir: &Path,
        size: usize,
        memory_limit: u64,
    ) -> Result<Tablebase, TablebaseError> {
        let mut tb = Tablebase::empty::<G>(size);
        for path in table_files(dir, G::KIND, size)? {
            let (header, table) = tb.load(&path, memory_limit)?;
            tb.tables[header.white][header.black] = Some(table);
        }
        Ok(tb)
    }

    /// [`Tablebase::open`] for the tables of the materials of `materials` only (those missing
    /// are left out), with the same checks.
    pub fn open_materials<G: Retro>(
        dir: &Path,
        size: usize,
        materials: &[(usize, usize)],
        memory_limit: u64,
    ) -> Result<Tablebase, TablebaseError> {
        let mut tb = Tablebase::empty::<G>(size);
        for &(white, black) in materials {
            let path = dir.join(file::file_name(G::KIND, size, white, black));
            if std::fs::symlink_metadata(&path).is_err() {
                continue;
            }
            let (header, table) = tb.load(&path, memory_limit)?;
            tb.tables[header.white][header.black] = Some(table);
        }
        Ok(tb)
    }

    /// The one way into a table file: a regular file (never a FIFO or a device), its header
    /// (magic, version, game, size, material in range, number of values), its name (the one its
    /// header's material gives), its length and its checksum.
    fn load(
        &self,
        path: &Path,
        memory_limit: u64,
    ) -> Result<(file::Header, Table), TablebaseError> {
        let (header, f) = file::read_header(path)?;
        self.check_header(&header, path)?;
        let expected = file::file_name(header.game, header.size, header.white, header.black);
        if path.file_name() != Some(std::ffi::OsStr::new(&expected)) {
            return Err(TablebaseError::BadFile {
                path: path.to_path_buf(),
                why: format!(
                    "holds material w{}b{}, so it should be named {expected}",
                    header.white, header.black
                ),
            });
        }
        let table = if header.count <= memory_limit {
            Table::Memory(file::read_values(&f, &header, path)?)
        } else {
            let sums = file::check_values(&f, &header, path)?;
            Table::Disk(DiskTable::new(f, path, header.count, sums))
        };
        Ok((header, table))
    }

    /// Checks a header against this game, size and the material's number of positions.
    fn check_header(&self, h: &file::Header, path: &Path) -> Result<(), TablebaseError> {
        let bad = |why: String| TablebaseError::BadFile {
            path: path.to_path_buf(),
            why,
        };
        if h.game != self.game || h.size != self.size {
            return Err(bad(format!(
                "holds {} size {}, not {} size {}",
                h.game, h.size, self.game, self.size
            )));
        }
        if !(1..=self.size).contains(&h.white) || !(1..=self.size).contains(&h.black) {
            return Err(bad(format!(
                "material w{}b{} is out of range",
                h.white, h.black
            )));
        }
        if h.count != self.shape.len(h.white, h.black) {
            return Err(bad(format!(
                "{} values where material w{}b{} has {} positions",
                h.count,
                h.white,
                h.black,
                self.shape.len(h.white, h.black)
            )));
        }
        Ok(())
    }

    /// Reads the table of material `(white, black)` of `G` at `size` from `dir`, for a build
    /// that needs it ([`build::build_material`]), with the checks of [`Tablebase::open`]: a
    /// missing file, or one whose header, name, length or checksum is wrong, is refused with an
    /// error naming it and what is wrong.
    pub fn read_input<G: Retro>(
        dir: &Path,
        size: usize,
        (white, black): (usize, usize),
    ) -> Result<Vec<u8>, TablebaseError> {
        let path = Tablebase::check_input::<G>(dir, size, (white, black))?;
        let tb = Tablebase::empty::<G>(size);
        let (header, table) = tb.load(&path, u64::MAX)?;
        if (header.white, header.black) != (white, black) {
            return Err(TablebaseError::BadFile {
                path,
                why: format!(
                    "holds material w{}b{}, not w{white}b{black}",
                    header.white, header.black
                ),
            });
        }
        match table {
            Table::Memory(values) => Ok(values),
            Table::Disk(_) => Err(TablebaseError::Internal(
                "a table read whole was left on disk".into(),
            )),
        }
    }

    /// Checks that the table of material `(white, black)` of `G` at `size` is in `dir` with a
    /// sound header (the checks of [`Tablebase::read_input`] but the checksum, which needs every
    /// value read); returns its path.
    pub fn check_input<G: Retro>(
        dir: &Path,
        size: usize,
        (white, black): (usize, usize),
    ) -> Result<PathBuf, TablebaseError> {
        let path = dir.join(file::file_name(G::KIND, size, white, black));
        if std::fs::symlink_metadata(&path).is_err() {
            return Err(TablebaseError::BadFile {
                path,
                why: format!("missing: the table of w{white}b{black} is not built yet"),
            });
        }
        let (header, _) = file::read_header(&path)?;
        Tablebase::empty::<G>(size).check_header(&header, &path)?;
        if (header.white, header.black) != (white, black) {
            return Err(TablebaseError::BadFile {
                path,
                why: format!(
                    "holds material w{}b{}, so it should be named {}",
                    header.white,
                    header.black,
                    file::file_name(G::KIND, size, header.white, header.black)
                ),
            });
        }
        Ok(path)
    }

    /// Tables built in memory (see [`build::build`]), for probing without files.
    pub fn from_tables<G: Retro>(
        size: usize,
        tables: impl IntoIterator<Item = (file::Header, Vec<u8>)>,
    ) -> Result<Tablebase, TablebaseError> {
        let mut tb = Tablebase::empty::<G>(size);
        for (header, values) in tables {
            tb.check_header(&header, Path::new("(memory)"))?;
            tb.tables[header.white][header.black] = Some(Table::Memory(values));
        }
        Ok(tb)
    }

    /// The materials present, as (White, Black) piece counts of the White-to-move tables.
    pub fn materials(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (w, row) in self.tables.iter().enumerate() {
            for (b, t) in row.iter().enumerate() {
                if t.is_some() {
                    out.push((w, b));
                }
            }
        }
        out
    }

    /// Checks every table of `game` at `size` in `dir` as [`Tablebase::open`] does (the same
    /// checks, so a set that passes is one that probing accepts), and which materials are
    /// missing from the set: every material up to the most pieces a side of a table present
    /// belongs to it (a build up to K pieces a side writes them all, and each reads the ones
    /// below it).
    pub fn verify(dir: &Path, game: TableGame, size: usize) -> Result<Verified, TablebaseError> {
        let tb = crate::with_table_game!(game, G => Tablebase::open::<G>(dir, size, 0)?);
        let present = tb.materials();
        let max_pieces = present.iter().map(|&(w, b)| w.max(b)).max().unwrap_or(0);
        let missing = (1..=max_pieces)
            .flat_map(|w| (1..=max_pieces).map(move |b| (w, b)))
            .filter(|m| !present.contains(m))
            .collect();
        Ok(Verified {
            present,
            missing,
            max_pieces,
        })
    }

    /// The exact value of `pos` for its side to move, if a table covers it (a finished game is
    /// always covered: the rules decide it). A table found damaged while probed (see
    /// [`Tablebase::try_probe`]) answers `None`, and [`Tablebase::fault`] says which and how.
    pub fn probe<G: Retro>(&self, pos: &G) -> Option<Score> {
        self.kept(self.try_probe(pos))
    }

    /// [`Tablebase::probe`], with an error naming the table file when the value had to be read
    /// from a table that was damaged or changed since it was opened (its values are checked a
    /// block at a time as they are read: see [`Tablebase::open`]).
    pub fn try_probe<G: Retro>(&self, pos: &G) -> Result<Option<Score>, TablebaseError> {
        Ok(self.probe_value(pos)?.and_then(value::score))
    }

    /// The first table found damaged or changed while probed, if any (the probes that needed it
    /// answered nothing).
    pub fn fault(&self) -> Option<&TablebaseError> {
        self.fault.get()
    }

    /// `Ok`'s value, or `None` with the error kept as [`Tablebase::fault`].
    fn kept<T>(&self, result: Result<Option<T>, TablebaseError>) -> Option<T> {
        result.unwrap_or_else(|e| {
            let _ = self.fault.set(e);
            None
        })
    }

    /// [`Tablebase::probe`] as a table byte.
    fn probe_value<G: Retro>(&self, pos: &G) -> Result<Option<u8>, TablebaseError> {
        if G::KIND != self.game || pos.size() != self.size {
            return Ok(None);
        }
        if let Some(o) = pos.board_outcome() {
            return Ok(Some(value::of_outcome(o, pos.side_to_move())));
        }
        let (white, black) = pos.sets();
        let (w, b) = match pos.side_to_move() {
            Side::White => (white, black),
            Side::Black => (self.shape.mirror(black), self.shape.mirror(white)),
        };
        let Some(table) = self
            .tables
            .get(w.count_ones() as usize)
            .and_then(|row| row.get(b.count_ones() as usize))
            .and_then(Option::as_ref)
        else {
            return Ok(None);
        };
        let index = self.shape.index(w, b);
        let v = match table {
            Table::Memory(values) => match values.get(index as usize) {
                Some(&v) => v,
                None => return Ok(None),
            },
            Table::Disk(t) => t.value(index)?,
        };
        Ok((v != value::UNSET).then_some(v))
    }

    /// Every legal move of `pos` with its exact value for the side to move (the value of the
    /// position after it, seen from before it), best first; `None` unless a table covers every
    /// position reached (or one of them is damaged: see [`Tablebase::probe`]).
    pub fn probe_moves<G: Retro>(&self, pos: &G) -> Option<Vec<(Move, Score)>> {
        self.kept(self.try_probe_moves(pos))
    }

    /// [`Tablebase::probe_moves`], with an error naming the table file when a value had to be
    /// read from a table damaged or changed since it was opened.
    pub fn try_probe_moves<G: Retro>(
        &self,
        pos: &G,
    ) -> Result<Option<Vec<(Move, Score)>>, TablebaseError> {
        if pos.board_outcome().is_some() {
            return Ok(Some(Vec::new()));
        }
        let mut moves = MoveList::new();
        pos.generate(&mut moves);
        let mut out = Vec::new();
        for &mv in moves.as_slice() {
            let Some(score) = self
                .probe_value(&pos.play(mv))?
                .and_then(value::before)
                .and_then(value::score)
            else {
                return Ok(None);
            };
            out.push((mv, score));
        }
        out.sort_by_key(|&(_, s)| std::cmp::Reverse(s.value()));
        Ok(Some(out))
    }
}
