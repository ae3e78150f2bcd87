//! Reading protocol lines with a bound on their length.

use std::io::{self, BufRead};

/// One read from [`read_line`].
#[derive(Debug, PartialEq, Eq)]
pub enum Read {
    /// A complete line, without its `\n` (a `\r` before it is left for the parser to trim).
    Line(String),
    /// A line longer than the limit; it was read to its end and thrown away.
    TooLong,
    /// A line that is not UTF-8.
    NotUtf8,
    /// The end of the input.
    Eof,
}

/// Reads one line of at most `max` bytes (line ending excluded). A longer line is consumed and
/// discarded without being stored, so memory stays bounded by `max` whatever the input. A last
/// line without `\n` counts as a line.
pub fn read_line(input: &mut impl BufRead, max: usize) -> io::Result<Read> {
    let mut buf = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            if !any {
                return Ok(Read::Eof);
            }
            break;
        }
        any = true;
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], Some(i + 1)),
            None => (available, None),
        };
        if !too_long {
            if buf.len() + chunk.len() > max + 1 {
                too_long = true;
                buf = Vec::new();
            } else {
                buf.extend_from_slice(chunk);
            }
        }
        let used = done.unwrap_or(available.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    if too_long || buf.len() > max {
        return Ok(Read::TooLong);
    }
    Ok(match String::from_utf8(buf) {
        Ok(s) => Read::Line(s),
        Err(_) => Read::NotUtf8,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Vec<Read> {
        let mut r = io::BufReader::with_capacity(7, input);
        let mut out = Vec::new();
        loop {
            let x = read_line(&mut r, max).unwrap();
            if x == Read::Eof {
                return out;
            }
            out.push(x);
        }
    }

    #[test]
    fn lines_endings_and_limits() {
        assert_eq!(
            all(b"uci\r\nisready\n\nlast", 10),
            vec![
                Read::Line("uci".into()),
                Read::Line("isready".into()),
                Read::Line(String::new()),
                Read::Line("last".into()),
            ]
        );
        assert_eq!(
            all(b"0123456789\n01234567890\r\nok\n", 10),
            vec![
                Read::Line("0123456789".into()),
                Read::TooLong,
                Read::Line("ok".into())
            ]
        );
        assert_eq!(
            all(b"0123456789\r\n\xff\n", 10),
            vec![Read::Line("0123456789".into()), Read::NotUtf8]
        );
    }
}
