//! `engine proof merge DIR [--grow F]`.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use boardgames_core::certificate::{Certificate, Value};
use boardgames_core::games::Game;
use boardgames_core::games::format::slash;
use boardgames_core::split::Split;
use boardgames_core::tablebase::memory_limit;
use boardgames_core::with_table_game;

use super::{PlanFile, job_file, proof_game};
use crate::cli::emit;
use crate::commands::common::{read, tables, write_file};

/// Work a plan's job values up to the root; write its certificate, or plan the open jobs again.
///
/// Read the values of the jobs proved so far (DIR/jobs/N.result) and work them up to the root
/// (at each position the best for its side to move). Decided: write the root's certificate to
/// DIR/root.cert (the cut tree with the jobs' certificates grafted in; check it with `engine
/// proof check`) and its value to DIR/result, print them and exit with status 0. Not decided:
/// print the jobs still open whose value could change the root's, write the scheduler's file
/// again for those alone, with --grow times the node budget once each of them has run with the
/// budget of this round (each goes on from its checkpoint), and exit with status 2.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The plan's directory.
    dir: PathBuf,
    /// The factor the node budget grows by for the next round, 2 to 1000.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(2..=1000))]
    grow: u64,
}

/// Merging left jobs open (exit status 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Undecided(pub String);

/// Merges.
pub fn run(args: Args) -> Result<()> {
    let dir = std::path::absolute(&args.dir).context("the plan's directory")?;
    let mut plan = PlanFile::read(&dir)?;
    let game = proof_game(plan.game)?;
    with_table_game!(game, G => {
        let root = *read::<G>(&plan.board, plan.side)?.line.current();
        let probe = tables::<G>(plan.tablebase.as_deref(), root.size(), memory_limit()?)?;
        let split = Split::cut(&root, plan.depth, probe.as_ref());
        let cut: Vec<String> = split.job_positions().map(slash).collect();
        let planned: Vec<&String> = plan.jobs.iter().map(|(b, _)| b).collect();
        if cut.len() != planned.len() || cut.iter().zip(&planned).any(|(a, b)| a != *b) {
            bail!(
                "the plan in {} does not match the cut of its root at depth {} (its jobs were \
                 edited, or the tablebase changed): plan again in another directory",
                dir.display(),
                plan.depth
            );
        }
        let mut known = Vec::with_capacity(plan.jobs.len());
        let mut nodes = 0u64;
        for job in 0..plan.jobs.len() {
            let path = job_file(&dir, job, "result");
            let value = match std::fs::read_to_string(&path) {
                Ok(text) => {
                    let words: Vec<&str> = text.split_whitespace().collect();
                    let Some(value) = words.first().and_then(|w| Value::parse(w)) else {
                        bail!("{}: `{}` is not a job's result", path.display(), text.trim());
                    };
                    nodes += words.get(2).and_then(|n| n.parse().ok()).unwrap_or(0);
                    Some(value)
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
            };
            known.push(value);
        }
        let proved = known.iter().flatten().count();
        let combined = split.combine(&known);
        if let Some(value) = combined.root {
            let mut certs = Vec::with_capacity(known.len());
            for (job, v) in known.iter().enumerate() {
                certs.push(match v {
                    None => None,
                    Some(_) => {
                        let path = job_file(&dir, job, "cert");
                        let text = std::fs::read_to_string(&path)
                            .with_context(|| format!("cannot read {}", path.display()))?;
                        Some(Certificate::parse(&text).with_context(|| {
                            format!("job {job}'s certificate {}", path.display())
                        })?)
                    }
                });
            }
            let cert = split.certificate(&known, &certs)?;
            let (text, size) = cert.write();
            let cert_path = dir.join("root.cert");
            write_file(&cert_path, &text)?;
            let line = format!(
                "{} for {} to move ({proved} of {} jobs proved, {nodes} nodes)",
                value.name(),
                root.side_to_move(),
                plan.jobs.len()
            );
            write_file(&dir.join("result"), &format!("{line}\n"))?;
            return emit(format!(
                "decided: {line}\ncertificate {}: {size}\n",
                cert_path.display()
            ));
        }
        // The budget grows once every open job has run with it (its `.open` says it searched
        // that many nodes); a job not run yet in this round, or stopped early, keeps it.
        let ran = |j: usize| -> u64 {
            std::fs::read_to_string(job_file(&dir, j, "open"))
                .ok()
                .and_then(|t| t.split_whitespace().nth(2).and_then(|n| n.parse().ok()))
                .unwrap_or(0)
        };
        let waiting = combined
            .open
            .iter()
            .filter(|&&j| ran(j) < plan.nodes)
            .count();
        if waiting == 0 {
            plan.nodes = plan.nodes.saturating_mul(args.grow);
            plan.round += 1;
            plan.write(&dir)?;
        }
        let file = plan.schedule(&dir, &combined.open)?;
        let mut out = format!(
            "not decided: {proved} of {} jobs proved; {} still open can change the root:\n",
            plan.jobs.len(),
            combined.open.len()
        );
        for &job in &combined.open {
            let state = std::fs::read_to_string(job_file(&dir, job, "open"))
                .map(|t| t.trim().to_string())
                .unwrap_or_else(|_| "not run yet".into());
            let _ = writeln!(out, "  job {job}: {state}");
        }
        let _ = write!(
            out,
            "round {} planned in {} with {} nodes a job{}: run it, then merge again",
            plan.round,
            file.display(),
            plan.nodes,
            if waiting > 0 {
                format!(" ({waiting} of them not run yet)")
            } else {
                String::new()
            }
        );
        Err(Undecided(out).into())
    })
}
