//! What the GUI tests share: our engine binary, built once if it is missing.

use std::path::PathBuf;
use std::sync::Once;

/// The path of `target/debug/engine`, which is built (once per test binary) if it is missing.
pub fn engine_path() -> PathBuf {
    static BUILD: Once = Once::new();
    let path = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../target/debug/engine"
    ));
    BUILD.call_once(|| {
        if !path.is_file() {
            let status = std::process::Command::new(env!("CARGO"))
                .args(["build", "-p", "engine", "--bin", "engine"])
                .status()
                .expect("cargo runs");
            assert!(status.success(), "building the engine failed");
        }
    });
    path
}
