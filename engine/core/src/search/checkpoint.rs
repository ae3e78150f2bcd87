//! A proof-number search's state on disk, so that a proof too long for one process stops and
//! goes on: the table's entries in use, the stage, its attacker and draw flag, the nodes and
//! time spent, and the position it is of.
//!
//! The file (all numbers little-endian):
//!
//! | bytes | what |
//! |---|---|
//! | 8 | `BGPROOF` and a zero byte |
//! | 4 | version, 1 |
//! | 1 + n | the game's name, its length first |
//! | 4 | size |
//! | 8 | the root position's hash |
//! | 1, 1, 1 | stage (0 first, 1 second), attacker (0 white, 1 black), draw seen (0, 1) |
//! | 8, 8 | nodes, search time in milliseconds |
//! | 8, 8 | buckets of the table it was written from, entries that follow |
//! | 20 each | an entry: hash (8), proof number (4), disproof number (4), work below it (4) |
//! | 8 | a checksum of everything before it |
//!
//! It is written to a temporary file beside the target and renamed over it, so a crash or a
//! full disk while writing leaves the last checkpoint whole. Loading checks the magic, the
//! version, the lengths and the checksum, and that the position is the one asked for, and says
//! which failed; the entries go into a table of the size asked for now (an entry a smaller table
//! has no room for is lost, which costs time, never correctness).

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use thiserror::Error;

use super::Probe;
use super::proof::{ProofSearch, Stage};
use crate::games::{Game, Side};

const MAGIC: &[u8; 8] = b"BGPROOF\0";
const VERSION: u32 = 1;
/// Bytes of one entry in the file.
const ENTRY_BYTES: u64 = 20;

/// Why a checkpoint could not be written or read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CheckpointError {
    /// Reading or writing the file failed.
    #[error("cannot {action} the checkpoint {path}: {message}")]
    Io {
        /// `read` or `write`.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The system's reason.
        message: String,
    },
    /// The file is not a checkpoint of this program, or of another version.
    #[error("{path} is not a proof checkpoint (version {VERSION}): {what}")]
    NotACheckpoint {
        /// The file.
        path: PathBuf,
        /// What was found instead.
        what: String,
    },
    /// The file is cut short or its contents do not add up.
    #[error("the checkpoint {path} is damaged: {what}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        what: String,
    },
    /// The checkpoint is of another game, size or position.
    #[error("the checkpoint {path} is of {found}, not of {asked}")]
    OtherPosition {
        /// The file.
        path: PathBuf,
        /// What the checkpoint holds.
        found: String,
        /// What was asked for.
        asked: String,
    },
}

/// A running 64-bit checksum of a byte stream (a multiply-rotate mix of 8-byte words): enough to
/// tell a damaged file from a whole one, not a defence against a forger.
#[derive(Default)]
struct Checksum {
    state: u64,
    /// The bytes of the word being filled, and how many.
    word: u64,
    filled: u32,
}

impl Checksum {
    fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.word |= u64::from(b) << (8 * self.filled);
            self.filled += 1;
            if self.filled == 8 {
                self.mix(self.word);
                (self.word, self.filled) = (0, 0);
            }
        }
    }

    fn mix(&mut self, word: u64) {
        self.state = (self.state ^ word)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }

    fn finish(mut self) -> u64 {
        self.mix(self.word ^ u64::from(self.filled) << 56);
        self.state
    }
}

/// Writes through a checksum.
struct Summed<W: Write> {
    out: W,
    sum: Checksum,
}

impl<W: Write> Summed<W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.sum.update(bytes);
        self.out.write_all(bytes)
    }
}

/// Reads through a checksum, naming what it reads when the file ends early.
struct Checked<R: Read> {
    input: R,
    sum: Checksum,
    path: PathBuf,
    offset: u64,
}

impl<R: Read> Checked<R> {
    fn take<const N: usize>(&mut self, what: &str) -> Result<[u8; N], CheckpointError> {
        let mut buf = [0u8; N];
        self.input.read_exact(&mut buf).map_err(|e| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                CheckpointError::Damaged {
                    path: self.path.clone(),
                    what: format!("it ends at byte {} in the {what}", self.offset),
                }
            } else {
                CheckpointError::Io {
                    action: "read",
                    path: self.path.clone(),
                    message: e.to_string(),
                }
            }
        })?;
        self.sum.update(&buf);
        self.offset += N as u64;
        Ok(buf)
    }

    fn u8(&mut self, what: &str) -> Result<u8, CheckpointError> {
        Ok(self.take::<1>(what)?[0])
    }

    fn u32(&mut self, what: &str) -> Result<u32, CheckpointError> {
        Ok(u32::from_le_bytes(self.take(what)?))
    }

    fn u64(&mut self, what: &str) -> Result<u64, CheckpointError> {
        Ok(u64::from_le_bytes(self.take(what)?))
    }

    fn damaged(&self, what: String) -> CheckpointError {
        CheckpointError::Damaged {
            path: self.path.clone(),
            what,
        }
    }
}

/// `oska 4`, the words a mismatch is told in.
fn describe(game: &str, size: usize, key: u64) -> String {
    format!("{game} {size} (position hash {key:016x})")
}

impl<G: Game> ProofSearch<G> {
    /// Writes the search's state to `path` (through a temporary file renamed over it). The
    /// search must have begun ([`ProofSearch::run`]); its time is counted up to now.
    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        let io = |e: std::io::Error| CheckpointError::Io {
            action: "write",
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let tmp = path.with_file_name(format!(".{}.tmp", name.as_deref().unwrap_or("checkpoint")));
        let file = File::create(&tmp).map_err(io)?;
        let mut out = Summed {
            out: BufWriter::with_capacity(1 << 20, file),
            sum: Checksum::default(),
        };
        let written = (|| -> std::io::Result<()> {
            out.put(MAGIC)?;
            out.put(&VERSION.to_le_bytes())?;
            let game = G::KIND.name().as_bytes();
            out.put(&[game.len() as u8])?;
            out.put(game)?;
            let size = self.root.map_or(0, |r| r.size());
            out.put(&(size as u32).to_le_bytes())?;
            out.put(&self.root_key.unwrap_or(0).to_le_bytes())?;
            out.put(&[
                u8::from(self.stage == Stage::Second),
                u8::from(self.attacker == Side::Black),
                u8::from(self.draw_seen),
            ])?;
            out.put(&self.nodes.to_le_bytes())?;
            let millis = self.elapsed().as_millis().min(u128::from(u64::MAX)) as u64;
            out.put(&millis.to_le_bytes())?;
            out.put(&(self.table.len() as u64).to_le_bytes())?;
            let entries = self
                .table
                .iter()
                .flat_map(|b| b.entries.iter().zip(b.work))
                .filter(|(e, _)| e.key != 0);
            out.put(&(entries.clone().count() as u64).to_le_bytes())?;
            for (e, work) in entries {
                let mut rec = [0u8; ENTRY_BYTES as usize];
                rec[..8].copy_from_slice(&e.key.to_le_bytes());
                rec[8..12].copy_from_slice(&e.pn.to_le_bytes());
                rec[12..16].copy_from_slice(&e.dn.to_le_bytes());
                rec[16..].copy_from_slice(&work.to_le_bytes());
                out.put(&rec)?;
            }
            let Summed { mut out, sum } = out;
            out.write_all(&sum.finish().to_le_bytes())?;
            let file = out.into_inner().map_err(|e| e.into_error())?;
            file.sync_all()
        })();
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            return Err(io(e));
        }
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// A search of `root` with a table of `hash_mib` MiB and the tables' `probe`, in the state
    /// the checkpoint at `path` holds; [`ProofSearch::resume`] goes on from it.
    pub fn load(
        path: &Path,
        root: &G,
        hash_mib: usize,
        probe: Option<Probe<G>>,
    ) -> Result<Self, CheckpointError> {
        let file = File::open(path).map_err(|e| CheckpointError::Io {
            action: "read",
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        let length = file.metadata().map(|m| m.len()).unwrap_or(0);
        let mut input = Checked {
            input: BufReader::with_capacity(1 << 20, file),
            sum: Checksum::default(),
            path: path.to_path_buf(),
            offset: 0,
        };
        let not = |what: String| CheckpointError::NotACheckpoint {
            path: path.to_path_buf(),
            what,
        };
        let magic = input
            .take::<8>("magic")
            .map_err(|_| not("it is shorter than the 8 bytes of its magic".into()))?;
        if &magic != MAGIC {
            return Err(not(format!(
                "its first bytes are {:?}, not BGPROOF",
                String::from_utf8_lossy(&magic)
            )));
        }
        let version = input.u32("version")?;
        if version != VERSION {
            return Err(not(format!("it is of version {version}")));
        }
        let name_len = input.u8("game's name")? as usize;
        let mut name = vec![0u8; name_len];
        for b in &mut name {
            *b = input.u8("game's name")?;
        }
        let game = String::from_utf8_lossy(&name).into_owned();
        let size = input.u32("size")? as usize;
        let key = input.u64("position hash")?;
        let asked_key = Game::hash(root);
        if game != G::KIND.name() || size != root.size() || key != asked_key {
            return Err(CheckpointError::OtherPosition {
                path: path.to_path_buf(),
                found: describe(&game, size, key),
                asked: describe(G::KIND.name(), root.size(), asked_key),
            });
        }
        let stage = match input.u8("stage")? {
            0 => Stage::First,
            1 => Stage::Second,
            n => return Err(input.damaged(format!("its stage is {n}, not 0 or 1"))),
        };
        let attacker = match input.u8("attacker")? {
            0 => Side::White,
            1 => Side::Black,
            n => return Err(input.damaged(format!("its attacker is {n}, not 0 or 1"))),
        };
        let draw_seen = match input.u8("draw flag")? {
            0 => false,
            1 => true,
            n => return Err(input.damaged(format!("its draw flag is {n}, not 0 or 1"))),
        };
        let expected_attacker = match stage {
            Stage::First => root.side_to_move(),
            Stage::Second => root.side_to_move().opposite(),
        };
        if attacker != expected_attacker {
            return Err(input.damaged(format!(
                "its attacker {attacker} does not go with its stage for {} to move",
                root.side_to_move()
            )));
        }
        let nodes = input.u64("node count")?;
        let millis = input.u64("time")?;
        let _buckets = input.u64("table size")?;
        let count = input.u64("entry count")?;
        let header = input.offset;
        let expected = count
            .checked_mul(ENTRY_BYTES)
            .and_then(|b| b.checked_add(header + 8));
        if expected != Some(length) {
            return Err(input.damaged(format!(
                "it says {count} entries, which take {} bytes, but the file has {length}",
                expected.map_or("more than 2^64".to_string(), |e| e.to_string())
            )));
        }
        let mut search = ProofSearch::new(hash_mib, probe);
        search.root = Some(*root);
        search.root_key = Some(key);
        search.stage = stage;
        search.attacker = attacker;
        search.draw_seen = draw_seen;
        search.table_draws = draw_seen;
        search.nodes = nodes;
        search.elapsed_before = Duration::from_millis(millis);
        for i in 0..count {
            let rec = input.take::<{ ENTRY_BYTES as usize }>("entries")?;
            let word = |at: usize| u32::from_le_bytes(rec[at..at + 4].try_into().unwrap_or([0; 4]));
            let key = u64::from_le_bytes(rec[..8].try_into().unwrap_or([0; 8]));
            if key == 0 {
                return Err(input.damaged(format!("entry {i} has the empty hash 0")));
            }
            search.store(key, (word(8), word(12)), word(16));
        }
        let sum = std::mem::take(&mut input.sum).finish();
        let written = input.u64("checksum")?;
        if written != sum {
            return Err(input.damaged(format!(
                "its checksum is {written:016x}, its contents sum to {sum:016x}"
            )));
        }
        Ok(search)
    }

    /// Search time of every run together, up to now.
    pub(super) fn elapsed(&self) -> Duration {
        self.elapsed_before + self.start.elapsed()
    }

    /// Writes the periodic checkpoint if it is due; a failure stops the search.
    pub(super) fn autosave_if_due(&mut self) {
        let Some(autosave) = &self.autosave else {
            return;
        };
        if autosave.last.elapsed() < autosave.every {
            return;
        }
        let path = autosave.path.clone();
        match self.save(&path) {
            Ok(()) => {
                if let Some(a) = &mut self.autosave {
                    a.last = Instant::now();
                }
            }
            Err(e) => {
                self.autosave_failed = Some(e);
                self.stop_now();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::exact::{ExactSolver, Method, Wdl};
    use crate::games::{Hexapawn, MoveList, Oska};
    use crate::search::Proof;
    use crate::search::proof::Bucket;

    /// The table's entries in use.
    fn entries(table: &[Bucket]) -> usize {
        table
            .iter()
            .flat_map(|b| b.entries)
            .filter(|e| e.key != 0)
            .count()
    }

    fn dir(test: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("proof-ckpt-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn prove<G: Game>(pos: &G) -> (Proof, u64) {
        let mut search = ProofSearch::<G>::new(1, None);
        let proof = search.run(pos, None, &AtomicBool::new(false), &mut |_| {});
        (proof, search.nodes())
    }

    /// Stopped after every `step` nodes, written, read back into a fresh search and resumed,
    /// the search gives the uninterrupted answer; returns the checkpoints written.
    fn stop_and_resume<G: Game>(pos: &G, step: u64, path: &Path) -> u32 {
        let (whole, _) = prove(pos);
        let stop = AtomicBool::new(false);
        let mut search = ProofSearch::<G>::new(1, None);
        let mut proof = search.run(pos, Some(step), &stop, &mut |_| {});
        let mut stops = 0;
        while proof == Proof::Unknown {
            stops += 1;
            search.save(path).unwrap();
            let nodes = search.nodes();
            search = ProofSearch::load(path, pos, 1, None).unwrap();
            assert_eq!(search.nodes(), nodes);
            proof = search.resume(pos, Some(nodes + step), &stop, &mut |_| {});
        }
        assert_eq!(proof, whole, "{pos:?} stopped every {step} nodes");
        stops
    }

    #[test]
    fn a_resumed_proof_of_hexapawn_5_gives_the_proof_answer() {
        let dir = dir("hexapawn5");
        let start = Hexapawn::start(5).unwrap();
        let (whole, nodes) = prove(&start);
        assert_ne!(whole, Proof::Unknown);
        let stops = stop_and_resume(&start, nodes / 7 + 1, &dir.join("h5"));
        assert!(stops >= 5, "stopped {stops} times");
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// Draws take two stages: stopped anywhere in either, the resumed search still says draw
    /// (the stage, its attacker and its draw flag come back from the file).
    #[test]
    fn drawn_positions_resume_in_either_stage() {
        let dir = dir("draws");
        let mut solver = ExactSolver::<Oska>::new(1, None);
        let stop = AtomicBool::new(false);
        let mut draws = 0;
        let frontier = crate::exact::tests::positions::<Oska>(4, 4);
        for line in &frontier {
            let value = solver.value(line, Method::SOLVE, &stop, &mut |_| {});
            if value.map(|v| v.wdl) != Ok(Wdl::Draw) || line.outcome().is_some() {
                continue;
            }
            let pos = line.current();
            let (proof, nodes) = prove(pos);
            assert_eq!(proof, Proof::Draw);
            // A run re-walks the path from the root to where the last one stopped: the steps
            // must be longer than that walk (a proof's budgets are millions of nodes).
            for step in [nodes / 4 + 8, nodes / 3 + 8, nodes / 2 + 8] {
                stop_and_resume(pos, step, &dir.join("draw"));
            }
            draws += 1;
        }
        assert!(draws >= 3, "only {draws} drawn positions");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_damaged_or_foreign_checkpoint_is_refused_saying_what_is_wrong() {
        let dir = dir("damaged");
        let path = dir.join("c");
        let start = Hexapawn::start(4).unwrap();
        let mut search = ProofSearch::<Hexapawn>::new(1, None);
        search.run(&start, Some(20), &AtomicBool::new(false), &mut |_| {});
        search.save(&path).unwrap();
        let good = std::fs::read(&path).unwrap();
        assert!(ProofSearch::load(&path, &start, 1, None).is_ok());
        let load = |bytes: &[u8]| {
            std::fs::write(&path, bytes).unwrap();
            ProofSearch::load(&path, &start, 1, None).err().unwrap()
        };
        // One bit flipped in an entry: the checksum.
        let mut flipped = good.clone();
        let at = good.len() - 20;
        flipped[at] ^= 0x10;
        let e = load(&flipped);
        assert!(matches!(e, CheckpointError::Damaged { .. }), "{e}");
        assert!(e.to_string().contains("checksum"), "{e}");
        // Cut short: the length.
        let e = load(&good[..good.len() - 7]);
        assert!(e.to_string().contains("entries, which take"), "{e}");
        let e = load(&good[..30]);
        assert!(e.to_string().contains("ends at byte"), "{e}");
        // Not a checkpoint at all.
        let e = load(b"wwww/---/--/---/bbbb\n");
        assert!(matches!(e, CheckpointError::NotACheckpoint { .. }), "{e}");
        // A bad stage byte.
        let mut bad = good.clone();
        let stage_at = 8 + 4 + 1 + "hexapawn".len() + 4 + 8;
        bad[stage_at] = 7;
        let e = load(&bad);
        assert!(e.to_string().contains("stage is 7"), "{e}");
        // Another position, another size, another game.
        std::fs::write(&path, &good).unwrap();
        let other = start.play({
            let mut moves = MoveList::new();
            start.generate(&mut moves);
            moves.as_slice()[0]
        });
        for e in [
            ProofSearch::load(&path, &other, 1, None).err().unwrap(),
            ProofSearch::load(&path, &Hexapawn::start(5).unwrap(), 1, None)
                .err()
                .unwrap(),
        ] {
            assert!(matches!(e, CheckpointError::OtherPosition { .. }), "{e}");
        }
        let e = ProofSearch::load(&path, &Oska::start(4).unwrap(), 1, None)
            .err()
            .unwrap();
        assert!(e.to_string().contains("of hexapawn 4"), "{e}");
        // A missing file.
        let e = ProofSearch::<Hexapawn>::load(&dir.join("none"), &start, 1, None)
            .err()
            .unwrap();
        assert!(matches!(e, CheckpointError::Io { .. }), "{e}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_smaller_table_takes_what_fits_and_still_proves() {
        let dir = dir("smaller");
        let path = dir.join("c");
        let start = Hexapawn::start(5).unwrap();
        let (whole, nodes) = prove(&start);
        let mut search = ProofSearch::<Hexapawn>::new(4, None);
        search.run(
            &start,
            Some(nodes / 2),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        search.save(&path).unwrap();
        let mut small = ProofSearch::load(&path, &start, 1, None).unwrap();
        assert!(small.used <= entries(&search.table));
        let proof = small.resume(&start, None, &AtomicBool::new(false), &mut |_| {});
        assert_eq!(proof, whole);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
