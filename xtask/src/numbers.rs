//! How the tools write numbers for people: to three significant digits, and byte sizes.

/// `x` to three significant digits.
pub(crate) fn significant(x: f32) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let decimals = (2 - x.abs().log10().floor() as i32).max(0) as usize;
    let text = format!("{x:.decimals$}");
    if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_owned() } else { text }
}

/// Bytes as `512 B`, `78 KiB` or `1.2 MiB`.
pub(crate) fn bytes(n: usize) -> String {
    match n {
        0..1024 => format!("{n} B"),
        1024..1_048_576 => format!("{} KiB", significant(n as f32 / 1024.0)),
        _ => format!("{} MiB", significant(n as f32 / 1_048_576.0)),
    }
}
