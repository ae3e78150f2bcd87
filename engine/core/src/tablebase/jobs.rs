//! A build as a graph of jobs, for the schedulers of clusters (make, Slurm, GNU parallel).
//!
//! A job builds one material `(w, b)` (w <= b) and its colour mirror `(b, w)`, which are
//! computed together ([`build::build_material`]), from the tables of the materials it reads
//! ([`build::inputs`]): those of the jobs it needs. A job's level is one more than the highest
//! level of the jobs it needs, so the jobs of one level can run at once. A job is not split
//! further: the levels of Black progress inside a material read the rows the level before wrote,
//! in memory.

use super::build::{inputs, material_memory, materials};
use super::file::HEADER_LEN;
use super::index::Geometry;
use crate::tablebase::TableGame;

/// One job of a plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The material built, White and Black pieces (White at most Black).
    pub material: (usize, usize),
    /// The tables written: the material and its mirror (one table when they are the same).
    pub writes: Vec<(usize, usize)>,
    /// The tables read, each written by an earlier job.
    pub reads: Vec<(usize, usize)>,
    /// The jobs needed first, as indices into the plan.
    pub needs: Vec<usize>,
    /// 1 for jobs that need none, else one more than the highest level needed.
    pub level: usize,
    /// Positions computed (both tables; a material that is its own mirror is counted in both of
    /// its orders, so twice, as the costs of [`ns_per_position`] count it).
    pub work: u64,
    /// The most bytes of tables held at once ([`build::material_memory`]).
    pub memory: u64,
    /// The bytes of the files written.
    pub disk: u64,
}

/// The jobs that build every material of up to `max_pieces` pieces a side on `shape`, in an
/// order where every job comes after those it needs.
pub fn jobs(shape: &Geometry, max_pieces: usize) -> Vec<Job> {
    let mut out: Vec<Job> = Vec::new();
    for (w, b) in materials(max_pieces) {
        if w > b {
            continue;
        }
        let reads = inputs(w, b);
        let needs: Vec<usize> = reads
            .iter()
            .map(|&(x, y)| (x.min(y), x.max(y)))
            .filter_map(|m| out.iter().position(|j| j.material == m))
            .collect();
        let level = 1 + needs.iter().map(|&i| out[i].level).max().unwrap_or(0);
        let writes = if w == b {
            vec![(w, b)]
        } else {
            vec![(w, b), (b, w)]
        };
        let disk = writes
            .iter()
            .map(|&(x, y)| shape.len(x, y) + HEADER_LEN as u64)
            .sum();
        out.push(Job {
            material: (w, b),
            reads,
            needs,
            level,
            work: 2 * shape.len(w, b),
            memory: material_memory(shape, (w, b)),
            disk,
            writes,
        });
    }
    out
}

/// The nanoseconds of one core a position costs the builder (release build), measured here on
/// a whole build (see docs/tablebases.md): the largest materials dominate.
pub fn ns_per_position(game: TableGame) -> f64 {
    match game {
        TableGame::Hexapawn => HEXAPAWN_NS,
        TableGame::Oska => OSKA_NS,
    }
}

/// [`ns_per_position`] of Oska: Oska 5 whole, 108.3 CPU seconds (docs/tablebases.md; the mean
/// of three runs) for 3.953 x 10^9 positions computed (counting a material that is its own mirror
/// twice and a row turned from its reflection as computed, as [`estimate`] counts them).
const OSKA_NS: f64 = 27.0;
/// [`ns_per_position`] of Hexapawn: Hexapawn 5 whole, 37.6 CPU seconds (two runs) for
/// 2.505 x 10^9, counted alike.
const HEXAPAWN_NS: f64 = 15.0;

/// What a plan will take, from the sizes of its tables and a cost per position.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Jobs.
    pub jobs: usize,
    /// Levels (the longest chain of jobs).
    pub levels: usize,
    /// The job needing the most memory, and its bytes of tables.
    pub largest_memory: ((usize, usize), u64),
    /// The job writing the most, and its bytes.
    pub largest_disk: ((usize, usize), u64),
    /// The bytes of every file.
    pub disk: u64,
    /// Positions computed.
    pub work: u64,
    /// CPU hours of the whole build.
    pub core_hours: f64,
    /// Hours along the longest chain of jobs, each on `threads` cores (scaling perfectly).
    pub critical_hours: f64,
    /// The jobs of that chain, first to last.
    pub critical_path: Vec<(usize, usize)>,
}

/// The estimate of `jobs` at `ns` nanoseconds of one core a position, each job on `threads`
/// cores.
pub fn estimate(jobs: &[Job], ns: f64, threads: usize) -> Estimate {
    let hours = |work: u64| work as f64 * ns * 1e-9 / 3600.0;
    // The longest chain ending at each job, in hours, and the job before it on the chain.
    let mut finish: Vec<(f64, Option<usize>)> = Vec::with_capacity(jobs.len());
    for job in jobs {
        let before = job
            .needs
            .iter()
            .map(|&i| (finish[i].0, i))
            .max_by(|a, b| a.0.total_cmp(&b.0));
        let own = hours(job.work) / threads.max(1) as f64;
        finish.push((before.map_or(0.0, |(h, _)| h) + own, before.map(|(_, i)| i)));
    }
    let last = (0..jobs.len()).max_by(|&a, &b| finish[a].0.total_cmp(&finish[b].0));
    let mut critical_path = Vec::new();
    let mut at = last;
    while let Some(i) = at {
        critical_path.push(jobs[i].material);
        at = finish[i].1;
    }
    critical_path.reverse();
    let largest = |key: fn(&Job) -> u64| {
        jobs.iter()
            .max_by_key(|j| key(j))
            .map_or(((0, 0), 0), |j| (j.material, key(j)))
    };
    let work = jobs.iter().map(|j| j.work).sum();
    Estimate {
        jobs: jobs.len(),
        levels: jobs.iter().map(|j| j.level).max().unwrap_or(0),
        largest_memory: largest(|j| j.memory),
        largest_disk: largest(|j| j.disk),
        disk: jobs.iter().map(|j| j.disk).sum(),
        work,
        core_hours: hours(work),
        critical_hours: last.map_or(0.0, |i| finish[i].0),
        critical_path,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Game, Oska};

    #[test]
    fn every_table_is_written_once_after_what_it_reads() {
        let shape = Geometry::new(Oska::layout_of(5));
        let plan = jobs(&shape, 5);
        let mut written = Vec::new();
        for job in &plan {
            for m in &job.reads {
                assert!(written.contains(m), "w{}b{} read before written", m.0, m.1);
            }
            for &i in &job.needs {
                assert!(job.level > plan[i].level);
            }
            written.extend(job.writes.iter().copied());
        }
        written.sort();
        assert_eq!(written, {
            let mut all = materials(5);
            all.sort();
            all
        });
        // Every position of every table is written once; (w, w) is computed twice.
        let disk: u64 = plan.iter().map(|j| j.disk).sum();
        let positions: u64 = materials(5).iter().map(|&(w, b)| shape.len(w, b)).sum();
        assert_eq!(disk, positions + 25 * HEADER_LEN as u64);
        let e = estimate(&plan, 1.0, 1);
        assert_eq!(e.jobs, 15);
        assert_eq!(e.levels, 9);
        assert_eq!(e.critical_path.first(), Some(&(1, 1)));
        assert_eq!(e.critical_path.last(), Some(&(5, 5)));
        assert_eq!(e.largest_memory.0, (5, 5));
    }
}
