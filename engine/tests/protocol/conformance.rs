//! Runs the conformance suite (`engine::conformance`) against this crate's `engine` binary, or
//! against the engine named in `CONFORMANCE_ENGINE` ("program arg1 arg2 ...").

use engine::conformance::{self, engine_from_env};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conformance_suite() {
    let (program, args) =
        engine_from_env().unwrap_or_else(|| (env!("CARGO_BIN_EXE_engine").to_string(), Vec::new()));
    let report = conformance::run(&program, &args).await;
    eprintln!("conformance of {program} {}:\n{report}", args.join(" "));
    assert!(report.passed(), "{report}");
}
