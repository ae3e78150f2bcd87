//! The evaluator commands: `engine positions` (make a labelled set), `engine blunders` (blunder
//! rates of evaluators on sets) and `engine tune` (fit an evaluator's weights to sets).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use std::collections::HashSet;

use engine::eval::patterns::{PatternBoard, Shape, Weights, committed, decode, encode};
use engine::eval::{EvalKind, Evaluate, ctf};
use engine::games::notation::move_name;
use engine::games::{Ctf, Game, GameKind, Hexapawn, Oska};
use engine::tuning::blunders::blunders_in;
use engine::tuning::fit::{fit, loss_of, weights_file};
use engine::tuning::patterns::fit_patterns;
use engine::tuning::positions::{
    Labelled, RESULT_DEPTHS, SetSpec, generate_opening, generate_probed, generate_results, read,
    score_text, write,
};
use engine::tuning::refine::{Epoch, Options as RefineOptions, refine, refine_linear};
use engine::tuning::teach::{Games, taught};
use engine::with_game;

use crate::commands::emit;
use crate::{PatternArgs, RefineArgs};

/// `engine positions GAME SIZE --count N --seed S --budget NODES --history H --out FILE
/// [--results EVALS [--depths DEPTHS]] [--tablebase DIR]`.
pub fn positions(
    game: &str,
    spec: &SetSpec,
    results: Option<&str>,
    depths: Option<&str>,
    opening: Option<usize>,
    tablebase: Option<&Path>,
    out: &Path,
) -> Result<()> {
    if results.is_some() && opening.is_some() {
        bail!("--results and --opening cannot be used together: an opening set is solved exactly");
    }
    let evals = results.map(|r| parse_evals(r, "--results")).transpose()?;
    let players = match depths {
        Some(text) => parse_depths(text)?,
        None => RESULT_DEPTHS.to_vec(),
    };
    let kind = GameKind::parse(game)?;
    kind.check_size(spec.size)?;
    let started = std::time::Instant::now();
    let text = with_game!(kind, G => {
        let mut report = |kept: usize, tried: usize| {
            if kept.is_multiple_of(100) {
                eprintln!("{kept} positions kept, {tried} tried, {:.0} s", started.elapsed().as_secs_f64());
            }
        };
        let set = match &evals {
            Some(e) => generate_results::<G>(spec, e, &players, &mut report),
            None => {
                let probe = match tablebase {
                    Some(dir) => engine::tablebase::probe_for::<G>(dir, spec.size, 1 << 30)
                        .with_context(|| format!("the tablebase in {}", dir.display()))?,
                    None => None,
                };
                match opening {
                    Some(plies) => generate_opening::<G>(spec, plies, probe, &mut report),
                    None => generate_probed::<G>(spec, probe, &mut report),
                }
            }
        };
        let critical = set.iter().filter(|l| l.critical()).count();
        write(&set, &[
            format!(
                "{kind} size {}: {} positions ({critical} where a move throws the value away)",
                spec.size, set.len()
            ),
            format!(
                "made by: engine positions {kind} {} --count {} --seed {} --budget {} --history {}{}{}",
                spec.size, spec.count, spec.seed, spec.budget, spec.history,
                results.map_or(String::new(), |r| format!(" --results {r}"))
                    + &depths.map_or(String::new(), |d| format!(" --depths {d}"))
                    + &opening.map_or(String::new(), |p| format!(" --opening {p}")),
                if tablebase.is_some() { " --tablebase DIR" } else { "" }
            ),
            if results.is_some() {
                "BOARD SIDE RESULT: the result of the game the position came from, for SIDE (rw, rd, rl)".into()
            } else {
                "BOARD SIDE VALUE MOVE=VALUE...: values are exact, wK/lK win/lose in K plies, d draw".into()
            },
        ])
    });
    std::fs::write(out, text).with_context(|| format!("cannot write {}", out.display()))?;
    eprintln!(
        "wrote {} in {:.1} s",
        out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// A set file read from disk: its game (from the `# GAME size N` header) and its text.
struct SetFile<'a> {
    path: &'a Path,
    kind: GameKind,
    /// The header's `# GAME size N`, without what follows its colon.
    game_size: String,
    text: String,
}

impl<'a> SetFile<'a> {
    /// Reads the file and its header, naming the file in errors.
    fn open(path: &'a Path) -> Result<Self> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let first = text
            .lines()
            .find(|l| l.starts_with("# ") && l.contains(" size "))
            .with_context(|| format!("{}: no '# GAME size N' header line", path.display()))?;
        let word = first[2..].split_whitespace().next().unwrap_or_default();
        let kind = GameKind::parse(word)?;
        let game_size = first.split(':').next().unwrap_or_default().to_string();
        Ok(SetFile {
            path,
            kind,
            game_size,
            text,
        })
    }

    /// The positions, naming the file in errors.
    fn positions<G: Game>(&self) -> Result<Vec<Labelled<G>>> {
        read::<G>(&self.text).map_err(|e| anyhow::anyhow!("{}: {e}", self.path.display()))
    }
}

/// Parses `1-6` or `3` or `1,3,5`.
pub fn parse_depths(text: &str) -> Result<Vec<u32>> {
    let mut out = Vec::new();
    for part in text.split(',') {
        let bad = || anyhow::anyhow!("--depths '{text}': use a range such as 1-6 or a list 3,4");
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (u32, u32) =
                    (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
                if a == 0 || a > b || b > 64 {
                    return Err(bad());
                }
                out.extend(a..=b);
            }
            None => {
                let d: u32 = part.parse().map_err(|_| bad())?;
                if d == 0 || d > 64 {
                    return Err(bad());
                }
                out.push(d);
            }
        }
    }
    Ok(out)
}

/// Parses `tuned,legacy` (or `all`).
pub fn parse_evals(text: &str, option: &str) -> Result<Vec<EvalKind>> {
    if text == "all" {
        return Ok(EvalKind::ALL.to_vec());
    }
    text.split(',')
        .map(|t| EvalKind::parse(t).map_err(|e| anyhow::anyhow!("{option}: {e}")))
        .collect()
}

fn blunders_of<G: Evaluate>(
    file: &SetFile,
    evals: &[EvalKind],
    depths: &[u32],
    show: bool,
) -> Result<String> {
    let path = file.path;
    let set = file.positions::<G>()?;
    if !set.iter().any(|l| l.exact) {
        bail!(
            "{} holds game results, not exact values: blunder rates need a set made without --results",
            path.display()
        );
    }
    let mut out = format!("{}: {} positions", path.display(), set.len());
    let critical = set.iter().filter(|l| l.critical()).count();
    out.push_str(&format!(", {critical} critical\n"));
    out.push_str(&format!("{:<16}", "evaluator"));
    for d in depths {
        out.push_str(&format!(" {:>7}", format!("d{d}")));
    }
    out.push('\n');
    // Each evaluator and depth searched once: the table's rate, and with `show` each blunder
    // as a line of a set under a comment naming the evaluator, the depth and the move played.
    let mut shown = String::new();
    for &e in evals {
        out.push_str(&format!("{:<16}", e.name()));
        for &d in depths {
            let (rate, found) = blunders_in(&set, e, d);
            out.push_str(&format!(" {:>6.1}%", rate.percent()));
            if !show {
                continue;
            }
            for b in &found {
                let played = move_name(b.pos.line.current(), b.played);
                let chose = format!(
                    "{} at depth {d} plays {played}={}",
                    e.name(),
                    score_text(b.keeps)
                );
                shown.push_str(&write(std::slice::from_ref(b.pos), &[chose]));
            }
        }
        out.push('\n');
    }
    if show {
        // The set's own `# GAME size N` header first, so that the lines shown read as a set.
        out.push_str(&format!(
            "{}: blunders in {}\n",
            file.game_size,
            path.display()
        ));
        out.push_str(&shown);
    }
    Ok(out)
}

/// `engine blunders FILE... [--evals E,...] [--depths 1-6]`.
pub fn blunders(files: &[PathBuf], evals: &str, depths: &str, show: bool) -> Result<()> {
    let evals = parse_evals(evals, "--evals")?;
    let depths = parse_depths(depths)?;
    if files.is_empty() {
        bail!("give at least one set file (made by engine positions)");
    }
    for path in files {
        let file = SetFile::open(path)?;
        let table = with_game!(file.kind, G => blunders_of::<G>(&file, &evals, &depths, show))?;
        emit(format!("{table}\n"))?;
    }
    Ok(())
}

/// `engine tune GAME FILE... [--seed S] [--write]`.
pub fn tune(game: &str, files: &[PathBuf], seed: u64, write_to: Option<&Path>) -> Result<()> {
    let kind = GameKind::parse(game)?;
    if files.is_empty() {
        bail!("give at least one set file of {kind} (made by engine positions)");
    }
    with_game!(kind, G => {
        let set = sets_of::<G>(files)?;
        let before = loss_of(&set, G::weights());
        let f = fit(&set, seed);
        // The weights file first, so that a closed output cannot lose it.
        if let Some(path) = write_to {
            let names: Vec<String> = files.iter().map(|p| file_name(p)).collect();
            let by = format!("engine tune {kind} {} --seed {seed}", names.join(" "));
            std::fs::write(path, weights_file::<G>(&f.weights, &by, None))
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        let mut out = String::new();
        let _ = writeln!(out, "{kind}: {} positions fitted, {} held out (seed {seed})", f.train, f.valid);
        let _ = writeln!(out, "log-loss: fitted {:.4}, held out {:.4}; current weights {:.4} on all", f.train_loss, f.valid_loss, before);
        let _ = writeln!(out, "held-out decided positions whose winner the score's sign predicts: {:.1}%", 100.0 * f.valid_accuracy);
        let _ = writeln!(out, "{:<16} {:>8} {:>8}", "feature", "current", "fitted");
        for (i, name) in G::FEATURE_NAMES.iter().enumerate() {
            let _ = writeln!(out, "{name:<16} {:>8} {:>8}", G::weights()[i], f.weights[i]);
        }
        if let Some(path) = write_to {
            let _ = writeln!(out, "wrote {}", path.display());
        }
        emit(out)
    })
}

/// Reads set files of game `G`, naming the file in errors.
fn sets_of<G: Game>(files: &[PathBuf]) -> Result<Vec<Labelled<G>>> {
    let mut set = Vec::new();
    for path in files {
        let file = SetFile::open(path)?;
        if file.kind != G::KIND {
            bail!(
                "{} holds {} positions, not {}",
                path.display(),
                file.kind,
                G::KIND
            );
        }
        set.extend(file.positions::<G>()?);
    }
    Ok(set)
}

/// The pattern shape of the target's game and size, checked to have pattern terms and set files.
fn pattern_shape(target: &PatternArgs) -> Result<Shape> {
    let kind = GameKind::parse(&target.game)?;
    kind.check_size(target.size)?;
    let Some(shape) = Shape::of(kind, target.size) else {
        bail!("{kind} has no pattern terms (hexapawn and oska have)");
    };
    if target.files.is_empty() {
        bail!("give at least one {kind} set file (made by engine positions)");
    }
    Ok(shape)
}

/// `engine tune-patterns GAME SIZE FILE... [--exclude FILE]... [--seed S] [--write FILE]`.
pub fn tune_patterns(target: &PatternArgs, seed: u64, write_to: Option<&Path>) -> Result<()> {
    let shape = pattern_shape(target)?;
    let (files, exclude) = (&target.files, &target.exclude);
    match shape {
        Shape::Square(_) => fit_and_write::<Hexapawn>(shape, files, exclude, seed, write_to),
        Shape::Oska(_) => fit_and_write::<Oska>(shape, files, exclude, seed, write_to),
    }
}

fn fit_and_write<G: Evaluate + PatternBoard>(
    shape: Shape,
    files: &[PathBuf],
    exclude: &[PathBuf],
    seed: u64,
    write_to: Option<&Path>,
) -> Result<()> {
    let (kind, size) = (shape.game(), shape.size());
    let set = sets_of::<G>(files)?;
    // The measured positions and every position one move after them stay out of the fit, so
    // that a blunder rate measured on them does not count positions the weights were fitted on.
    let skip = excluded::<G>(exclude)?;
    let started = std::time::Instant::now();
    let f = fit_patterns(&set, shape, &skip, seed);
    if f.train == 0 {
        bail!("the files hold no {kind} {size} positions to fit");
    }
    // The weights file first, so that a closed output cannot lose it.
    if let Some(path) = write_to {
        let mut by = format!("engine tune-patterns {kind} {size}");
        for p in files {
            by.push_str(&format!(" {}", file_name(p)));
        }
        for p in exclude {
            by.push_str(&format!(" --exclude {}", file_name(p)));
        }
        by.push_str(&format!(" --seed {seed}"));
        std::fs::write(path, encode(shape, &f.weights, &by))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let mut out = format!(
        "{kind} {size}: {} examples fitted, {} held out (seed {seed}), {} positions excluded, {:.1} s\n",
        f.train,
        f.valid,
        f.excluded,
        started.elapsed().as_secs_f64()
    );
    let _ = writeln!(
        out,
        "held-out log-loss: linear features {:.4}, with patterns {:.4} (fitted {:.4})",
        f.valid_loss.0, f.valid_loss.1, f.train_loss
    );
    let _ = writeln!(
        out,
        "held-out decided examples whose winner the score's sign predicts: {:.1}% -> {:.1}%",
        100.0 * f.valid_accuracy.0,
        100.0 * f.valid_accuracy.1
    );
    if let Some(path) = write_to {
        let _ = writeln!(out, "wrote {}", path.display());
    }
    emit(out)
}

/// `engine refine-patterns GAME SIZE FILE... [--exclude FILE]... [--from FILE] [--depths D]
/// [--epochs N] [--rate R] [--temperature T] [--threads K] [--write FILE]`.
pub fn refine_patterns(
    target: &PatternArgs,
    from: Option<&Path>,
    options: &RefineOptions,
    write_to: Option<&Path>,
) -> Result<()> {
    let shape = pattern_shape(target)?;
    let (files, exclude) = (&target.files, &target.exclude);
    let start = match from {
        Some(path) => {
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            decode(shape, &bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
        }
        None => committed(shape).cloned().with_context(|| {
            format!(
                "{} {} has no committed pattern weights: give --from",
                shape.game(),
                shape.size()
            )
        })?,
    };
    match shape {
        Shape::Square(_) => {
            refine_and_write::<Hexapawn>(shape, files, exclude, &start, options, write_to)
        }
        Shape::Oska(_) => {
            refine_and_write::<Oska>(shape, files, exclude, &start, options, write_to)
        }
    }
}

fn refine_and_write<G: Evaluate + PatternBoard>(
    shape: Shape,
    files: &[PathBuf],
    exclude: &[PathBuf],
    start: &Weights,
    options: &RefineOptions,
    write_to: Option<&Path>,
) -> Result<()> {
    let (kind, size) = (shape.game(), shape.size());
    let skip = excluded::<G>(exclude)?;
    let all = sets_of::<G>(files)?;
    let total = all.len();
    let set: Vec<Labelled<G>> = all
        .into_iter()
        .filter(|l| {
            let pos = l.line.current();
            pos.shape() == shape && !skip.contains(&Game::hash(pos))
        })
        .collect();
    if set.iter().all(|l| !l.critical()) {
        bail!("the files hold no critical {kind} {size} positions to refine on");
    }
    let started = std::time::Instant::now();
    eprintln!(
        "{kind} {size}: {} positions of {total} ({} critical), depths {:?}",
        set.len(),
        set.iter().filter(|l| l.critical()).count(),
        options.depths
    );
    let weights = refine(&set, &start.weights, options, &mut |e| {
        report_epoch(e, "blunders", started);
    });
    if let Some(path) = write_to {
        let depths: Vec<String> = options.depths.iter().map(u32::to_string).collect();
        let mut by = format!(
            "{}, then engine refine-patterns {kind} {size}",
            start.fitted_by
        );
        for p in files {
            by.push_str(&format!(" {}", file_name(p)));
        }
        for p in exclude {
            by.push_str(&format!(" --exclude {}", file_name(p)));
        }
        by.push_str(&format!(
            " --depths {} --epochs {} --rate {} --temperature {}",
            depths.join(","),
            options.epochs,
            options.rate,
            options.temperature
        ));
        std::fs::write(path, encode(shape, &weights, &by))
            .with_context(|| format!("cannot write {}", path.display()))?;
        emit(format!("wrote {}\n", path.display()))?;
    }
    Ok(())
}

/// The refinement settings of `args`, with the command's default epochs and rate, checked.
pub fn refine_options(args: &RefineArgs, epochs: usize, rate: f64) -> Result<RefineOptions> {
    let rate = args.rate.unwrap_or(rate);
    if !(rate.is_finite() && rate > 0.0) {
        bail!("--rate must be a positive number, not {rate}");
    }
    if !(args.temperature.is_finite() && args.temperature > 0.0) {
        bail!(
            "--temperature must be a positive number, not {}",
            args.temperature
        );
    }
    Ok(RefineOptions {
        depths: parse_depths(&args.depths)?,
        epochs: args.epochs.unwrap_or(epochs),
        rate,
        temperature: args.temperature,
        threads: usize::from(args.threads),
    })
}

/// Prints one epoch of a refinement; `misses` names the searches it counts.
fn report_epoch(e: &Epoch, misses: &str, started: std::time::Instant) {
    let share = |n: usize, of: usize| 100.0 * n as f64 / of.max(1) as f64;
    let exact = e.exact.map_or(String::new(), |(b, n)| {
        format!(
            ", {b} blunders in {n} searches of exact positions ({:.2}%)",
            share(b, n)
        )
    });
    eprintln!(
        "epoch {}: {} {misses} in {} searches ({:.2}%){exact}, pair loss {:.4} over {} pairs, {:.0} s",
        e.epoch,
        e.blunders,
        e.searches,
        share(e.blunders, e.searches),
        e.loss,
        e.pairs,
        started.elapsed().as_secs_f64()
    );
}

/// `engine refine-weights ctf SIZE ...`: the games, the teacher's moves, then the refinement.
pub fn refine_weights(
    game: &str,
    games: &Games,
    teacher_depth: u32,
    (exact, exact_weight): (&[PathBuf], f64),
    options: &RefineOptions,
    write_to: Option<&Path>,
) -> Result<()> {
    let kind = GameKind::parse(game)?;
    kind.check_size(games.size)?;
    if kind != GameKind::Ctf {
        bail!(
            "{kind} has pattern terms: refine them with refine-patterns (refine-weights refines ctf's linear weights)"
        );
    }
    if games.openings == 0 || games.max_ply <= games.plies {
        bail!("no positions to refine on: give --openings above 0 and --max-ply above --plies");
    }
    if !(exact_weight.is_finite() && exact_weight > 0.0) {
        bail!("--exact-weight must be a positive number, not {exact_weight}");
    }
    let labelled: Vec<Labelled<Ctf>> = sets_of::<Ctf>(exact)?
        .into_iter()
        .filter(|l| l.line.current().size() == games.size)
        .collect();
    let critical = labelled.iter().filter(|l| l.critical()).count();
    if !exact.is_empty() && critical == 0 {
        bail!(
            "the --exact files hold no critical ctf {} positions",
            games.size
        );
    }
    let started = std::time::Instant::now();
    // Always from the weights of `engine tune`, so that a rerun remakes the committed file.
    let fitted = Ctf::weights();
    let taught = taught::<Ctf>(games, fitted, teacher_depth, options.threads);
    // The piece-square term starts at 0.
    let mut start = fitted.to_vec();
    start.resize(fitted.len() + ctf::piece_square_len(games.size), 0);
    eprintln!(
        "ctf {}: {} positions from {} games, taught at depth {teacher_depth}, {:.0} s",
        games.size,
        taught.len(),
        2 * games.openings,
        started.elapsed().as_secs_f64()
    );
    if critical > 0 {
        eprintln!("and {critical} critical positions of the --exact files");
    }
    let weights = refine_linear(
        &taught,
        &labelled,
        exact_weight,
        &start,
        options,
        &mut |e| {
            report_epoch(e, "moves unlike the teacher's", started);
        },
    );
    // The weights file first, so that a closed output cannot lose it.
    if let Some(path) = write_to {
        let opponents: Vec<String> = games.opponents.iter().map(|e| e.to_string()).collect();
        let depths: Vec<String> = options.depths.iter().map(u32::to_string).collect();
        let by = format!(
            "{}, then engine refine-weights ctf {} --openings {} --plies {} --seed {} --depth {} \
             --opponents {} --max-ply {} --teacher-depth {teacher_depth}{} --depths {} --epochs {} \
             --rate {} --temperature {}",
            engine::eval::weights_ctf::FITTED_BY,
            games.size,
            games.openings,
            games.plies,
            games.seed,
            games.depth,
            opponents.join(","),
            games.max_ply,
            exact
                .iter()
                .map(|p| format!(" --exact {}", file_name(p)))
                .chain((!exact.is_empty()).then(|| format!(" --exact-weight {exact_weight}")))
                .collect::<String>(),
            depths.join(","),
            options.epochs,
            options.rate,
            options.temperature
        );
        std::fs::write(path, weights_file::<Ctf>(&weights, &by, Some(games.size)))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let now = Ctf::weights_at(games.size);
    let mut out = format!(
        "{:<16} {:>8} {:>8} {:>8}\n",
        "feature", "fitted", "in use", "refined"
    );
    for (i, name) in Ctf::FEATURE_NAMES.iter().enumerate() {
        let _ = writeln!(
            out,
            "{name:<16} {:>8} {:>8} {:>8}",
            fitted[i], now[i], weights[i]
        );
    }
    let k = Ctf::FEATURE_NAMES.len();
    let _ = writeln!(
        out,
        "piece-square term (rows from the home row, each from the edge to the middle):"
    );
    let half = games.size.div_ceil(2);
    let per_kind = ctf::square_classes(games.size);
    for (kind, w) in ["own pawn", "own flag", "enemy pawn", "enemy flag"]
        .iter()
        .zip(weights[k..].chunks(per_kind))
    {
        let rows: Vec<String> = w.chunks(half).map(|r| format!("{r:?}")).collect();
        let _ = writeln!(out, "{kind:<16} {}", rows.join(" "));
    }
    if let Some(path) = write_to {
        let _ = writeln!(out, "wrote {}", path.display());
    }
    emit(out)
}

/// The hashes of the positions of the `exclude` sets and of every position one move after them.
fn excluded<G: Evaluate>(exclude: &[PathBuf]) -> Result<HashSet<u64>> {
    let mut skip = HashSet::new();
    for l in sets_of::<G>(exclude)? {
        let pos = *l.line.current();
        skip.insert(Game::hash(&pos));
        skip.extend(l.moves.iter().map(|&(mv, _)| Game::hash(&pos.play(mv))));
    }
    Ok(skip)
}

/// A set file's name without its directory, as the fitting commands name their inputs.
fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}
