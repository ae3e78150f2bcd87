//! The position-level client for callers without tokio: [`SimpleEngine`] owns a current-thread
//! runtime and runs each call of [`super::simple::SimpleEngine`] to its end on it.
//!
//! Dropping it ends the engine as [`SimpleEngine::quit`] does, so no process is left.

use std::ffi::OsStr;
use std::io;
use std::process::ExitStatus;
use std::time::Duration;

use tokio::runtime::{Builder, Runtime};

use super::simple::{self, EngineError, Limit, PlayResult, Position, Strictness};
use super::{ClientError, DEFAULT_TIMEOUT, EngineInfo};
use boardgames_core::protocol::{Info, SearchInfo};

/// A blocking engine driven by position.
pub struct SimpleEngine {
    /// Declared before the runtime, so that it is dropped while the runtime still exists.
    inner: Option<simple::SimpleEngine>,
    runtime: Runtime,
}

/// A runtime for one engine.
fn runtime(program: &OsStr) -> Result<Runtime, EngineError> {
    Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|source: io::Error| {
            EngineError::Client(ClientError::Spawn {
                program: program.to_string_lossy().into_owned(),
                source,
            })
        })
}

impl SimpleEngine {
    /// Starts `program` with `args` (no shell) with [`DEFAULT_TIMEOUT`].
    pub fn start<S: AsRef<OsStr>>(
        program: impl AsRef<OsStr>,
        args: &[S],
    ) -> Result<SimpleEngine, EngineError> {
        Self::start_with(program, args, DEFAULT_TIMEOUT)
    }

    /// Starts `program` with `args`; `timeout` bounds the handshake and every later answer.
    pub fn start_with<S: AsRef<OsStr>>(
        program: impl AsRef<OsStr>,
        args: &[S],
        timeout: Duration,
    ) -> Result<SimpleEngine, EngineError> {
        let runtime = runtime(program.as_ref())?;
        let inner = runtime.block_on(simple::SimpleEngine::start_with(program, args, timeout))?;
        Ok(SimpleEngine {
            inner: Some(inner),
            runtime,
        })
    }

    fn inner(&mut self) -> &mut simple::SimpleEngine {
        self.inner.as_mut().expect("present until quit or drop")
    }

    /// What the engine said in the handshake.
    pub fn info(&self) -> &EngineInfo {
        self.inner
            .as_ref()
            .expect("present until quit or drop")
            .info()
    }

    /// The process id of the engine (also its process group's), while it runs.
    pub fn id(&self) -> Option<u32> {
        self.inner.as_ref().and_then(simple::SimpleEngine::id)
    }

    /// Sets the longest any answer may take.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.inner().set_timeout(timeout);
    }

    /// [`simple::SimpleEngine::set_strictness`].
    pub fn set_strictness(&mut self, strictness: Strictness) {
        self.inner().set_strictness(strictness);
    }

    /// [`simple::SimpleEngine::configure`].
    pub fn configure(&mut self, options: &[(&str, &str)]) -> Result<(), EngineError> {
        let inner = self.inner.as_mut().expect("present until quit or drop");
        self.runtime.block_on(inner.configure(options))
    }

    /// [`simple::SimpleEngine::play`].
    pub fn play(&mut self, position: &Position, limit: &Limit) -> Result<PlayResult, EngineError> {
        let inner = self.inner.as_mut().expect("present until quit or drop");
        self.runtime.block_on(inner.play(position, limit))
    }

    /// [`simple::SimpleEngine::analyse`].
    pub fn analyse(
        &mut self,
        position: &Position,
        limit: &Limit,
        multipv: u32,
    ) -> Result<Vec<SearchInfo>, EngineError> {
        let inner = self.inner.as_mut().expect("present until quit or drop");
        self.runtime
            .block_on(inner.analyse(position, limit, multipv))
    }

    /// [`simple::SimpleEngine::analysis`]: the running search, whose `info` lines
    /// [`Analysis::next`] gives one by one until [`Analysis::stop`].
    pub fn analysis(
        &mut self,
        position: &Position,
        limit: &Limit,
    ) -> Result<Analysis<'_>, EngineError> {
        let inner = self.inner.as_mut().expect("present until quit or drop");
        let running = self.runtime.block_on(inner.analysis(position, limit))?;
        Ok(Analysis {
            running,
            runtime: &self.runtime,
        })
    }

    /// Ends the engine and returns its exit status ([`simple::SimpleEngine::quit`]).
    pub fn quit(mut self) -> Result<ExitStatus, EngineError> {
        let inner = self.inner.take().expect("present until quit or drop");
        self.runtime.block_on(inner.quit())
    }
}

impl Drop for SimpleEngine {
    /// Ends the engine as [`SimpleEngine::quit`] does.
    fn drop(&mut self) {
        if let Some(inner) = self.inner.take() {
            let _ = self.runtime.block_on(inner.quit());
        }
    }
}

/// A running search of [`SimpleEngine::analysis`].
pub struct Analysis<'a> {
    running: simple::Analysis<'a>,
    runtime: &'a Runtime,
}

impl Analysis<'_> {
    /// [`simple::Analysis::next`].
    pub fn next(&mut self, within: Duration) -> Result<Option<Info>, EngineError> {
        self.runtime.block_on(self.running.next(within))
    }

    /// [`simple::Analysis::ping`].
    pub fn ping(&mut self, within: Duration) -> Result<Vec<Info>, EngineError> {
        self.runtime.block_on(self.running.ping(within))
    }

    /// [`simple::Analysis::stop`].
    pub fn stop(self) -> Result<PlayResult, EngineError> {
        self.runtime.block_on(self.running.stop())
    }

    /// [`simple::Analysis::stop_within`].
    pub fn stop_within(self, within: Duration) -> Result<PlayResult, EngineError> {
        self.runtime.block_on(self.running.stop_within(within))
    }
}
