//! Screenshots of the window: the frame as shown (HUD included), on F12 next to the game as
//! `screenshot-YYYY-MM-DD_HH-MM-SS.png` (UTC, named by the time it was taken), or at exit to
//! `--screenshot FILE`.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Context as _;

/// The file name of a screenshot taken `unix_seconds` after 1970-01-01 UTC.
pub fn file_name(unix_seconds: u64) -> String {
    let days = (unix_seconds / 86_400) as i64;
    let seconds = unix_seconds % 86_400;
    // Howard Hinnant's civil_from_days: days since 1970-01-01 to a proleptic Gregorian date.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    let (hour, minute, second) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    format!("screenshot-{year:04}-{month:02}-{day:02}_{hour:02}-{minute:02}-{second:02}.png")
}

/// A file name in the current folder for a screenshot taken now.
pub fn named_now() -> PathBuf {
    PathBuf::from(file_name(SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())))
}

/// Writes `rgba` (`width` x `height`, rows top first) as a PNG at `path`.
pub fn save(rgba: &[u8], width: u32, height: u32, path: &Path) -> anyhow::Result<()> {
    image::save_buffer(path, rgba, width, height, image::ExtendedColorType::Rgba8)
        .with_context(|| format!("writing the screenshot {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_carry_the_utc_date_and_time() {
        assert_eq!(file_name(0), "screenshot-1970-01-01_00-00-00.png");
        // 2026-11-24 14:58:07 UTC.
        assert_eq!(file_name(1_795_532_287), "screenshot-2026-11-24_14-58-07.png");
        // A leap day.
        assert_eq!(file_name(951_782_400), "screenshot-2000-02-29_00-00-00.png");
    }
}
