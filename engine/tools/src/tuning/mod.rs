//! Measuring and fitting evaluators against exact values: labelled position sets
//! ([`positions`]), the blunder rate of an evaluator at a depth ([`blunders`]), and the
//! logistic fit of an evaluator's weights ([`fit`], [`patterns`]), and their refinement with
//! the search ([`refine`]) on exact values or on a deeper search's moves ([`teach`]). The
//! `engine-tune positions`, `blunders`, `tune`, `tune-patterns`, `refine-patterns` and
//! `refine-weights` commands run them.

pub mod blunders;
pub mod fit;
pub mod patterns;
pub mod positions;
pub mod refine;
pub mod teach;

/// Runs `f` on `threads` consecutive parts of `items` at once and joins the results in order.
pub(crate) fn in_parts<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&[T]) -> Vec<R> + Sync,
) -> Vec<R> {
    let chunk = items.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = items.chunks(chunk).map(|p| s.spawn(|| f(p))).collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a tuning thread does not panic"))
            .collect()
    })
}
