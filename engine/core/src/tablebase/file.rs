//! The table file: a 56-byte header, then one byte a position.
//!
//! Header, little-endian: the magic `BGTB`, the format version (u32), the game's name padded with
//! zero bytes to 16, the size, the White and the Black piece counts (u32 each), the number of
//! positions (u64), a checksum of the values (u64) and 4 zero bytes. File name: `GAME-SIZE-wWbB.tb`.

use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use super::TablebaseError;
use crate::games::GameKind;

/// The bytes every table file starts with.
pub const MAGIC: &[u8; 4] = b"BGTB";
/// The version of the file format this build reads and writes.
pub const VERSION: u32 = 1;
/// The length of the header in bytes.
pub const HEADER_LEN: usize = 56;

/// What a table file's header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The game.
    pub game: GameKind,
    /// Its size.
    pub size: usize,
    /// White pieces.
    pub white: usize,
    /// Black pieces.
    pub black: usize,
    /// Number of positions (values) in the file.
    pub count: u64,
    /// Checksum of the values.
    pub checksum: u64,
}

/// The file name of a material's table.
pub fn file_name(game: GameKind, size: usize, white: usize, black: usize) -> String {
    format!("{game}-{size}-w{white}b{black}.tb")
}

/// A checksum of the values (a 64-bit multiply-xor hash over 8-byte words).
pub fn checksum(values: &[u8]) -> u64 {
    let mut sum = Checksum::new(values.len() as u64);
    sum.add(values);
    sum.finish()
}

/// [`checksum`] computed piece by piece, for files read in chunks.
struct Checksum(u64);

impl Checksum {
    /// The checksum of `len` values, none added yet.
    fn new(len: u64) -> Checksum {
        Checksum(0x243F_6A88_85A3_08D3 ^ len)
    }

    /// Adds the next values: every piece but the last must be a multiple of 8 bytes long.
    fn add(&mut self, values: &[u8]) {
        let mut h = self.0;
        let mut chunks = values.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes(c.try_into().expect("chunks of 8"));
            h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        }
        for &b in chunks.remainder() {
            h = (h ^ u64::from(b))
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left(29);
        }
        self.0 = h;
    }

    /// [`Checksum::add`] of the same values to `self` and to `other` in one loop.
    fn add_beside(&mut self, other: &mut Checksum, values: &[u8]) {
        let (mut h, mut g) = (self.0, other.0);
        let mut chunks = values.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes(c.try_into().expect("chunks of 8"));
            h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
            g = (g ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        }
        for &b in chunks.remainder() {
            h = (h ^ u64::from(b))
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left(29);
            g = (g ^ u64::from(b))
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left(29);
        }
        (self.0, other.0) = (h, g);
    }

    fn finish(self) -> u64 {
        self.0 ^ (self.0 >> 32)
    }
}

impl Header {
    fn to_bytes(self) -> [u8; HEADER_LEN] {
        let mut out = [0u8; HEADER_LEN];
        out[0..4].copy_from_slice(MAGIC);
        out[4..8].copy_from_slice(&VERSION.to_le_bytes());
        let name = self.game.to_string();
        out[8..8 + name.len()].copy_from_slice(name.as_bytes());
        out[24..28].copy_from_slice(&(self.size as u32).to_le_bytes());
        out[28..32].copy_from_slice(&(self.white as u32).to_le_bytes());
        out[32..36].copy_from_slice(&(self.black as u32).to_le_bytes());
        out[36..44].copy_from_slice(&self.count.to_le_bytes());
        out[44..52].copy_from_slice(&self.checksum.to_le_bytes());
        out
    }

    fn parse(bytes: &[u8; HEADER_LEN], path: &Path) -> Result<Header, TablebaseError> {
        let bad = |why: String| TablebaseError::BadFile {
            path: path.to_path_buf(),
            why,
        };
        if &bytes[0..4] != MAGIC {
            return Err(bad("not a table file (no BGTB magic)".into()));
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let version = u32_at(4);
        if version != VERSION {
            return Err(bad(format!(
                "format version {version}, this build reads version {VERSION}: rebuild the table"
            )));
        }
        let name: String = bytes[8..24]
            .iter()
            .take_while(|&&b| b != 0)
            .map(|&b| b as char)
            .collect();
        let game = GameKind::parse(&name).map_err(|e| bad(format!("game: {e}")))?;
        Ok(Header {
            game,
            size: u32_at(24) as usize,
            white: u32_at(28) as usize,
            black: u32_at(32) as usize,
            count: u64::from_le_bytes(bytes[36..44].try_into().expect("8 bytes")),
            checksum: u64::from_le_bytes(bytes[44..52].try_into().expect("8 bytes")),
        })
    }
}

/// Writes a table file into `dir` (created if missing); returns its path. The file is written
/// under a temporary name, `NAME.tb.part`, and renamed, so a table file is never half written.
/// Whatever is in the way under the temporary name (a file, a symbolic link, a FIFO left by an
/// earlier run or planted there) is removed first, never followed or opened; the temporary file
/// is then created anew and exclusively (`O_CREAT | O_EXCL | O_NOFOLLOW`), and removed again if
/// anything fails, so a failed write leaves nothing behind for the next build to trip on.
pub fn write(dir: &Path, header: Header, values: &[u8]) -> Result<PathBuf, TablebaseError> {
    std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    let path = dir.join(file_name(
        header.game,
        header.size,
        header.white,
        header.black,
    ));
    let temp = path.with_extension("tb.part");
    let mut created = false;
    let written = write_part(&temp, &mut created, header, values)
        .and_then(|()| std::fs::rename(&temp, &path).map_err(|e| io_error(&path, e)));
    if written.is_err() && created {
        // The link itself (the name), never what it might point to.
        let _ = std::fs::remove_file(&temp);
    }
    written.map(|()| path)
}

/// Writes the header and the values into a new file `temp`, after removing whatever held that
/// name; sets `created` once the file is ours (to be removed on failure).
fn write_part(
    temp: &Path,
    created: &mut bool,
    header: Header,
    values: &[u8],
) -> Result<(), TablebaseError> {
    let mut f = create_exclusive(temp)?;
    *created = true;
    f.write_all(&header.to_bytes())
        .map_err(|e| io_error(temp, e))?;
    // In pieces: one write of a whole large table copied into the page cache at a third of the
    // speed (1.3 GB: 0.9 to 3 s against 0.35 to 0.45 s in pieces of 1 MiB, measured here).
    for piece in values.chunks(1 << 20) {
        f.write_all(piece).map_err(|e| io_error(temp, e))?;
    }
    f.sync_all().map_err(|e| io_error(temp, e))
}

/// Creates `temp` as a new regular file, removing first what is in the way: a file, a symbolic
/// link (the link, not its target), a FIFO or a socket. A directory is not removed: it is an
/// error naming it. Never opens an existing file and never follows a link, so a link planted
/// under the name cannot redirect the write and a FIFO cannot block it.
fn create_exclusive(temp: &Path) -> Result<File, TablebaseError> {
    // Twice at most: a name taken again between the removal and the creation is a second
    // writer at work, an error rather than a fight.
    for _ in 0..2 {
        match std::fs::symlink_metadata(temp) {
            Ok(meta) if meta.is_dir() => {
                return Err(TablebaseError::BadFile {
                    path: temp.to_path_buf(),
                    why: "a directory is in the way of the table being written: remove it".into(),
                });
            }
            Ok(_) => std::fs::remove_file(temp).map_err(|e| TablebaseError::Io {
                path: temp.to_path_buf(),
                error: format!("cannot remove what an earlier build left there: {e}"),
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io_error(temp, e)),
        }
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
            .mode(0o644)
            .open(temp)
        {
            Ok(f) => return Ok(f),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(io_error(temp, e)),
        }
    }
    Err(TablebaseError::Io {
        path: temp.to_path_buf(),
        error: "created again by someone else while this build was writing it (is another build writing the same table?)".into(),
    })
}

/// Opens `path` for reading if it is a regular file. The file is opened without blocking, so a
/// FIFO or a device named like a table is refused at once rather than waited on.
fn open_regular(path: &Path) -> Result<File, TablebaseError> {
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(path)
        .map_err(|e| io_error(path, e))?;
    let meta = f.metadata().map_err(|e| io_error(path, e))?;
    if !meta.is_file() {
        return Err(TablebaseError::BadFile {
            path: path.to_path_buf(),
            why: "not a regular file (a directory, FIFO, socket or device): tables are read only from regular files".into(),
        });
    }
    Ok(f)
}

fn io_error(path: &Path, e: std::io::Error) -> TablebaseError {
    TablebaseError::Io {
        path: path.to_path_buf(),
        error: e.to_string(),
    }
}

/// Reads a table file's header (a regular file only), checking that the file is as long as the
/// header says. The values are not read: [`read_values`] or [`check_values`] does that.
pub fn read_header(path: &Path) -> Result<(Header, File), TablebaseError> {
    let mut f = open_regular(path)?;
    let mut bytes = [0u8; HEADER_LEN];
    f.read_exact(&mut bytes)
        .map_err(|_| TablebaseError::BadFile {
            path: path.to_path_buf(),
            why: "shorter than a table header".into(),
        })?;
    let header = Header::parse(&bytes, path)?;
    let len = f.metadata().map_err(|e| io_error(path, e))?.len();
    if Some(len) != header.count.checked_add(HEADER_LEN as u64) {
        return Err(TablebaseError::BadFile {
            path: path.to_path_buf(),
            why: format!(
                "{len} bytes where the header promises {} values: the file is truncated or damaged",
                header.count
            ),
        });
    }
    Ok((header, f))
}

/// Reads the values after the header of a file opened by [`read_header`] and checks them
/// against the header's checksum.
pub fn read_values(f: &File, header: &Header, path: &Path) -> Result<Vec<u8>, TablebaseError> {
    let mut values = vec![0u8; header.count as usize];
    f.read_exact_at(&mut values, HEADER_LEN as u64)
        .map_err(|e| io_error(path, e))?;
    if checksum(&values) != header.checksum {
        return Err(damaged(path));
    }
    Ok(values)
}

/// How many values a block holds: a table probed from its file is read and checked a block at a
/// time (see [`check_values`]).
pub const BLOCK_LEN: usize = 4096;

/// Checks the values of a file opened by [`read_header`] against the header's checksum, reading
/// them in pieces (for tables too large to hold in memory), and returns the [`checksum`] of each
/// block of [`BLOCK_LEN`] values (the last may be shorter), so that a block read again later can
/// be checked on its own. Both are computed in the same pass: the block's sum is a second,
/// independent chain beside the whole file's, which the processor runs side by side.
pub fn check_values(f: &File, header: &Header, path: &Path) -> Result<Vec<u64>, TablebaseError> {
    let mut sum = Checksum::new(header.count);
    let mut blocks = Vec::with_capacity(header.count.div_ceil(BLOCK_LEN as u64) as usize);
    let mut buffer = vec![0u8; 256 * BLOCK_LEN];
    let mut done = 0u64;
    while done < header.count {
        let n = (header.count - done).min(buffer.len() as u64) as usize;
        f.read_exact_at(&mut buffer[..n], HEADER_LEN as u64 + done)
            .map_err(|e| io_error(path, e))?;
        for block in buffer[..n].chunks(BLOCK_LEN) {
            let mut one = Checksum::new(block.len() as u64);
            sum.add_beside(&mut one, block);
            blocks.push(one.finish());
        }
        done += n as u64;
    }
    if sum.finish() != header.checksum {
        return Err(damaged(path));
    }
    Ok(blocks)
}

fn damaged(path: &Path) -> TablebaseError {
    TablebaseError::BadFile {
        path: path.to_path_buf(),
        why: "checksum mismatch: the values are damaged (rebuild the table)".into(),
    }
}

/// Reads a whole table file and checks its checksum.
pub fn read(path: &Path) -> Result<(Header, Vec<u8>), TablebaseError> {
    let (header, f) = read_header(path)?;
    let values = read_values(&f, &header, path)?;
    Ok((header, values))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `values` as the table of `white` and `black` pieces of `game` at `size` in a new
    /// directory of the temporary one named after `test`: the directory, the header and the
    /// file's path.
    fn written(
        test: &str,
        game: GameKind,
        size: usize,
        (white, black): (usize, usize),
        values: &[u8],
    ) -> (PathBuf, Header, PathBuf) {
        let dir = std::env::temp_dir().join(format!("tb-file-{test}-{}", std::process::id()));
        let header = Header {
            game,
            size,
            white,
            black,
            count: values.len() as u64,
            checksum: checksum(values),
        };
        let path = write(&dir, header, values).unwrap();
        (dir, header, path)
    }

    #[test]
    fn header_round_trips_and_damage_is_found() {
        let values: Vec<u8> = (0..1000u32).map(|i| (i % 251) as u8).collect();
        let (dir, header, path) = written("test", GameKind::Hexapawn, 4, (2, 3), &values);
        assert_eq!(path.file_name().unwrap(), "hexapawn-4-w2b3.tb");
        assert_eq!(read(&path).unwrap(), (header, values.clone()));
        // One flipped byte fails the checksum; a cut file fails the length check.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER_LEN + 500] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(read(&path).unwrap_err().to_string().contains("checksum"));
        std::fs::write(&path, &bytes[..HEADER_LEN + 10]).unwrap();
        assert!(read(&path).unwrap_err().to_string().contains("truncated"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_block_sums_are_the_checksums_of_the_blocks() {
        let values: Vec<u8> = (0..3 * BLOCK_LEN as u32 + 5)
            .map(|i| (i % 253) as u8)
            .collect();
        let (dir, _, path) = written("blocks", GameKind::Oska, 5, (3, 2), &values);
        let (read, f) = read_header(&path).unwrap();
        let sums = check_values(&f, &read, &path).unwrap();
        let expected: Vec<u64> = values.chunks(BLOCK_LEN).map(checksum).collect();
        assert_eq!(sums, expected);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
