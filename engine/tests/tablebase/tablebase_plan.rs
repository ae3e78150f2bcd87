//! The build as jobs (`engine tablebase plan`, `engine tablebase build --material`): make, the
//! list by level and the Slurm script (with a stand-in `sbatch`) give files byte for byte equal
//! to the one-process build; a job refuses a missing or damaged input, naming it; the estimate
//! of memory and disk is what the builds hold and write; the build gives its memory in a unit
//! that suits it, and the plan warns of jobs larger than this machine.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use boardgames_core::games::{Game, Oska};
use boardgames_core::tablebase::build::{Plan, build_material, build_measured, memory};
use boardgames_core::tablebase::file::HEADER_LEN;
use boardgames_core::tablebase::index::Geometry;
use boardgames_core::tablebase::jobs::{estimate, jobs};

use crate::common::{self, Scratch, text};

fn engine(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(args)
        .output()
        .expect("the engine runs")
}

/// The table files of a directory, by name.
fn tables(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tb"))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// `engine tablebase COMMAND game size OPTIONS --dir dir [--max-pieces k]`, which must succeed.
fn tablebase(
    command: &str,
    (game, size, k): (&str, &str, Option<&str>),
    options: &[&str],
    dir: &Path,
) -> Output {
    let mut args = vec!["tablebase", command, game, size];
    args.extend(options);
    args.extend(["--dir", dir.to_str().unwrap()]);
    if let Some(k) = k {
        args.extend(["--max-pieces", k]);
    }
    let out = engine(&args);
    assert!(out.status.success(), "{}", text(&out));
    out
}

/// The one-process build of `game size [--max-pieces k]` into `dir`.
fn one_process(game: &str, size: &str, k: Option<&str>, dir: &Path) -> BTreeMap<String, Vec<u8>> {
    tablebase("build", (game, size, k), &[], dir);
    tables(dir)
}

/// `engine tablebase plan ... --format FORMAT --dir DIR` written to `file`.
fn plan(game: &str, size: &str, k: Option<&str>, format: &str, dir: &Path, file: &Path) {
    let options = ["--format", format, "--threads", "1"];
    let out = tablebase("plan", (game, size, k), &options, dir);
    std::fs::write(file, &out.stdout).unwrap();
}

fn on_path(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn make_on_the_plan_writes_the_files_of_one_process() {
    if !on_path("make") {
        eprintln!(
            "note: make is not installed: the Makefile of `engine tablebase plan` is not run"
        );
        return;
    }
    let s = Scratch::new("tbplan", "make");
    for (game, size, k) in [("oska", "4", None), ("oska", "5", Some("3"))] {
        let whole = one_process(game, size, k, &s.path(&format!("one-{size}")));
        let dir = s.path(&format!("make-{size}"));
        let makefile = s.path(&format!("Makefile-{size}"));
        plan(game, size, k, "make", &dir, &makefile);
        let out = Command::new("make")
            .arg("-s")
            .arg("-f")
            .arg(&makefile)
            .arg("-j2")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out));
        let made = tables(&dir);
        assert_eq!(made.len(), whole.len(), "{game} {size}: the same files");
        assert!(
            made == whole,
            "{game} {size}: every file byte for byte equal"
        );
        // Everything is up to date: make runs nothing a second time.
        let again = Command::new("make")
            .arg("-f")
            .arg(&makefile)
            .arg("-j2")
            .output()
            .unwrap();
        assert!(again.status.success(), "{}", text(&again));
        assert!(
            !text(&again).contains("tablebase build"),
            "{}",
            text(&again)
        );
    }
}

#[test]
fn the_list_by_level_and_the_slurm_script_write_the_files_of_one_process() {
    let s = Scratch::new("tbplan", "list");
    let whole = one_process("hexapawn", "4", None, &s.path("one"));
    // The list: every level's jobs, level after level (here one after the other, in reverse
    // order within a level: any order of a level will do).
    let dir = s.path("list");
    let list = s.path("jobs.txt");
    plan("hexapawn", "4", None, "list", &dir, &list);
    let text_of_list = std::fs::read_to_string(&list).unwrap();
    let mut by_level: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
    for line in text_of_list.lines() {
        let (level, command) = line.split_once('\t').expect("LEVEL<tab>COMMAND");
        by_level
            .entry(level.parse().unwrap())
            .or_default()
            .push(command);
    }
    assert_eq!(by_level.len(), 7, "{text_of_list}");
    for commands in by_level.values() {
        for command in commands.iter().rev() {
            let out = Command::new("sh").args(["-c", command]).output().unwrap();
            assert!(out.status.success(), "{command}: {}", text(&out));
        }
    }
    assert!(
        tables(&dir) == whole,
        "the list's files equal one process's"
    );
    // The Slurm script, with a stand-in sbatch that runs each job when it is submitted (the
    // script submits a job after those it depends on) and checks that each dependency names
    // a job submitted before.
    let bin = s.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = bin.join("sbatch");
    std::fs::write(
        &fake,
        r#"#!/usr/bin/env bash
set -euo pipefail
n=$(($(cat "$FAKE_STATE/count" 2>/dev/null || echo 0) + 1))
echo "$n" > "$FAKE_STATE/count"
wrap=
for a in "$@"; do
    case $a in
        --wrap=*) wrap=${a#--wrap=} ;;
        --dependency=afterok:*)
            for d in $(echo "${a#--dependency=afterok:}" | tr ':' ' '); do
                [ -f "$FAKE_STATE/done-$d" ] || { echo "job $d is not done" >&2; exit 3; }
            done ;;
    esac
done
bash -c "$wrap" > "$FAKE_STATE/log-$n" 2>&1
touch "$FAKE_STATE/done-$n"
echo "$n"
"#,
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let state = s.path("state");
    std::fs::create_dir_all(&state).unwrap();
    let dir = s.path("slurm");
    let script = s.path("build.sh");
    plan("hexapawn", "4", None, "slurm", &dir, &script);
    let out = Command::new("bash")
        .arg(&script)
        .env(
            "PATH",
            format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
        )
        .env("FAKE_STATE", &state)
        .env("WAIT", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("every table is sound"),
        "{}",
        text(&out)
    );
    assert_eq!(
        std::fs::read_to_string(state.join("count")).unwrap().trim(),
        "11",
        "10 build jobs and the check"
    );
    assert!(
        tables(&dir) == whole,
        "the Slurm script's files equal one process's"
    );
}

/// Runs `engine tablebase build oska 4 --material W,B --dir DIR`.
fn job(dir: &Path, material: &str) -> Output {
    engine(&[
        "tablebase",
        "build",
        "oska",
        "4",
        "--material",
        material,
        "--dir",
        dir.to_str().unwrap(),
    ])
}

#[test]
fn a_job_refuses_a_missing_or_damaged_input_naming_it() {
    let s = Scratch::new("tbplan", "refuse");
    let whole = one_process("oska", "4", None, &s.path("one"));
    let dir = s.path("jobs");
    std::fs::create_dir_all(&dir).unwrap();
    let input: PathBuf = dir.join("oska-4-w1b3.tb");
    let put = |name: &str, bytes: &[u8]| std::fs::write(dir.join(name), bytes).unwrap();
    // w2b3 reads w1b3 (after Black captures) and w2b2 (after White captures).
    put("oska-4-w2b2.tb", &whole["oska-4-w2b2.tb"]);
    let refused = |why: &str| {
        let out = job(&dir, "2,3");
        let all = text(&out);
        assert!(!out.status.success(), "{all}");
        assert!(
            all.contains(&input.display().to_string()),
            "names the file: {all}"
        );
        assert!(all.contains(why), "says {why:?}: {all}");
        assert!(
            all.contains("--material 1,3"),
            "says which job writes it: {all}"
        );
        assert!(
            !dir.join("oska-4-w2b3.tb").exists() && !dir.join("oska-4-w3b2.tb").exists(),
            "writes nothing"
        );
    };
    refused("missing");
    let good = &whole["oska-4-w1b3.tb"];
    let mut flipped = good.clone();
    flipped[HEADER_LEN + good.len() / 3] ^= 4;
    put("oska-4-w1b3.tb", &flipped);
    refused("checksum mismatch");
    put("oska-4-w1b3.tb", &good[..good.len() - 1]);
    refused("truncated");
    put("oska-4-w1b3.tb", &whole["oska-4-w3b1.tb"]);
    refused("should be named oska-4-w3b1.tb");
    let mut other = good.clone();
    other[8..12].copy_from_slice(b"hexa");
    put("oska-4-w1b3.tb", &other);
    refused("game");
    put("oska-4-w1b3.tb", good);
    let out = job(&dir, "2,3");
    assert!(out.status.success(), "{}", text(&out));
    assert!(tables(&dir)["oska-4-w2b3.tb"] == whole["oska-4-w2b3.tb"]);
    assert!(tables(&dir)["oska-4-w3b2.tb"] == whole["oska-4-w3b2.tb"]);
    // A material beyond the size, and a malformed one, are refused by the command line.
    for bad in ["5,1", "2", "0,3", "2,x"] {
        let out = job(&dir, bad);
        assert!(!out.status.success(), "{bad}: {}", text(&out));
        assert!(text(&out).contains(bad), "{bad}: {}", text(&out));
    }
}

#[test]
fn the_estimate_of_memory_and_disk_is_what_the_builds_hold_and_write() {
    let size = 4;
    let shape = Geometry::new(Oska::layout_of(size));
    let plan = Plan {
        size,
        max_pieces: size,
        threads: 2,
    };
    let mut one: BTreeMap<(usize, usize), Vec<u8>> = BTreeMap::new();
    let held = build_measured::<Oska>(plan, &|_| {}, &mut |h, v| {
        one.insert((h.white, h.black), v.to_vec());
        Ok(())
    })
    .unwrap();
    assert_eq!(
        held,
        memory(&plan, &shape),
        "one process: the tables it holds at most"
    );
    let all = jobs(&shape, size);
    for job in &all {
        let mut written = 0;
        let held = build_material::<Oska>(
            size,
            job.material,
            2,
            &mut |w, b| {
                assert!(job.reads.contains(&(w, b)), "reads only its inputs");
                Ok(one[&(w, b)].clone())
            },
            &|_| {},
            &mut |h, v| {
                assert!(one[&(h.white, h.black)] == v, "w{}b{}", h.white, h.black);
                written += (v.len() + HEADER_LEN) as u64;
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(
            held, job.memory,
            "{:?}: the tables it holds at most",
            job.material
        );
        assert_eq!(written, job.disk, "{:?}: the bytes it writes", job.material);
    }
    let e = estimate(&all, 100.0, 2);
    assert_eq!(e.disk, all.iter().map(|j| j.disk).sum::<u64>());
    assert_eq!(e.largest_memory, ((4, 4), all.last().unwrap().memory));
    // The command's own figures: what a job says it held and wrote is the estimate.
    let s = Scratch::new("tbplan", "estimate");
    let whole = one_process("oska", "4", None, &s.path("one"));
    let dir = s.path("jobs");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("oska-4-w3b4.tb"), &whole["oska-4-w3b4.tb"]).unwrap();
    let out = job(&dir, "4,4");
    assert!(out.status.success(), "{}", text(&out));
    let last = all.last().unwrap();
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        said.contains(&format!(
            "{} bytes on disk in {}, {} bytes of tables at most",
            last.disk,
            dir.display(),
            last.memory
        )),
        "{said}"
    );
}

#[test]
fn the_plan_refuses_what_it_cannot_write() {
    let out = engine(&[
        "tablebase",
        "plan",
        "oska",
        "4",
        "--format",
        "make",
        "--dir",
        "/tmp/a b",
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("/tmp/a b: a Makefile cannot name paths"),
        "{}",
        text(&out)
    );
    let out = engine(&["tablebase", "plan", "ctf", "4", "--estimate"]);
    assert!(!out.status.success());
    let out = engine(&["tablebase", "plan", "oska", "4", "--max-pieces", "5"]);
    assert!(!out.status.success());
    assert!(text(&out).contains("--max-pieces 5"), "{}", text(&out));
}

#[test]
fn the_build_gives_its_memory_in_a_unit_that_suits_it() {
    let s = Scratch::new("tbplan", "unit");
    let dir = s.path("tb");
    let out = engine(&common::tablebase_build("hexapawn", "3", &dir));
    assert!(out.status.success(), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(" KiB in memory)"), "{err}");
    assert!(!err.contains("0.0 GiB"), "{err}");
}

#[test]
fn the_plan_warns_of_jobs_larger_than_this_machine() {
    // Oska 6's largest job holds several TiB of tables: more than any machine that runs this.
    let out = engine(&["tablebase", "plan", "oska", "6", "--format", "slurm"]);
    assert!(out.status.success(), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(
        warnings[0].contains("jobs need more memory than this machine has (")
            && warnings[0].contains("MemTotal); the largest, w6b6, needs ")
            && warnings[0].ends_with(" TiB"),
        "{err}"
    );
    // Hexapawn 4's jobs hold a few KiB: no warning.
    let out = engine(&["tablebase", "plan", "hexapawn", "4", "--format", "slurm"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("warning"));
}
