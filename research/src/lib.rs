//! The research programs are the examples of this package
//! (`research/examples/`); this library is empty.
