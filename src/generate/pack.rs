//! Compressing the values-only files once nothing reads them at random.

use std::fs;

use rayon::prelude::*;

use crate::generate::{GenerateError, Report};
use crate::table::format::{ENCODING_PACKED, Header};
use crate::table::{TableFile, Tablebase, packed};

/// Compresses the uncompressed values-only files of `sets` with at least
/// `min_fixed` fixed pieces (encoding 2 to 3), in parallel: each is
/// verified, written in full under a temporary name, synced and renamed
/// over the uncompressed one, so the final name always holds a complete
/// file. `report.bytes` then counts the compressed size of the files made
/// in this run (`made`) and of the kept ones compressed now.
pub(super) fn pack_files(
    tb: &mut Tablebase,
    sets: &[u16],
    min_fixed: u32,
    made: &[u16],
    report: &mut Report,
) -> Result<(), GenerateError> {
    let raw: Vec<u16> = sets
        .iter()
        .copied()
        .filter(|&f| f.count_ones() >= min_fixed)
        .filter(|&f| tb.file(f).is_some_and(|t| t.raw_values().is_some()))
        .collect();
    let sizes: Vec<(u64, u64)> =
        raw.par_iter().map(|&f| pack_file(tb, f)).collect::<Result<_, _>>()?;
    for (&f, (old, new)) in raw.iter().zip(sizes) {
        let t =
            TableFile::open(&tb.path(f), tb.slots(), tb.rule(), f).map_err(GenerateError::Table)?;
        tb.insert(f, t).map_err(GenerateError::Table)?;
        report.bytes += new;
        if made.contains(&f) {
            report.bytes -= old;
        }
    }
    Ok(())
}

/// Compresses the uncompressed values-only file of `fixed` in `tb` (see
/// [`pack_files`]); returns its old and new sizes.
fn pack_file(tb: &Tablebase, fixed: u16) -> Result<(u64, u64), GenerateError> {
    let file = tb.file(fixed).expect("a loaded file");
    let records = file.raw_values().expect("an uncompressed values-only file");
    file.verify_all().map_err(GenerateError::Table)?;
    let path = tb.path(fixed);
    let tmp = path.with_extension("cctb.packed.tmp");
    let io = |e| GenerateError::io(&tmp, e);
    let header = Header { encoding: ENCODING_PACKED, ..file.header().clone() };
    let mut w = std::io::BufWriter::with_capacity(1 << 20, fs::File::create(&tmp).map_err(io)?);
    let len = packed::write(&header, records, &mut w).map_err(io)?;
    let out = w.into_inner().map_err(|e| io(e.into_error()))?;
    out.sync_all().map_err(io)?;
    drop(out);
    let old = fs::metadata(&path).map_err(|e| GenerateError::io(&path, e))?.len();
    fs::rename(&tmp, &path).map_err(|e| GenerateError::io(&path, e))?;
    Ok((old, len))
}
