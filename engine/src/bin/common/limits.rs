//! The limits on a submission's driver: set by `engine board-call`, and passed to it by `arena
//! class` for each submission. Both binaries include this file as their `limits` module, so the
//! two commands spell, document and default them alike.

/// The limits of a function's driver (`engine board-call FILE.py:FUNCTION`, and a program with
/// `--limited`) for one game; 0 turns one off. In brackets: the fault a class's report names
/// when a submission goes beyond.
#[derive(clap::Args, Debug, Clone)]
pub struct DriverLimits {
    /// CPU seconds of the driver for one game (RLIMIT_CPU) [cpu].
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    pub cpu: u64,
    /// Address space of each of its processes, in MiB (RLIMIT_AS) [memory].
    #[arg(long, value_name = "MIB", default_value_t = 2048)]
    pub memory: u64,
    /// Processes and threads it may run at once (the cap of a pids cgroup where one can be
    /// made, else watched) [processes].
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub processes: u64,
    /// MiB of its scratch folder (HOME, TMPDIR, the working directory), a tmpfs of its own in
    /// the sandbox: a write beyond fails with "No space left on device", and fails only its
    /// owner's writes.
    #[arg(long, value_name = "MIB", default_value_t = 64)]
    pub scratch: u64,
    /// Wall-clock milliseconds the driver may take to load the submission, each game (after any
    /// compile); a slower load is a [load] fault.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub load_timeout: u64,
    /// Wall-clock seconds compiling a submission (Haskell, Template Haskell included) may
    /// take, once; a slower compile is a [load] fault, remembered like a failed compile (every
    /// later game fails at once).
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    pub compile_timeout: u64,
}
