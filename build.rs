//! The build date shown in the footer and by `--version`: `SOURCE_DATE_EPOCH` when the release
//! script sets it (reproducible), else the day this build script ran.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // The migrations are embedded (diesel's embed_migrations!): a new one must rebuild.
    println!("cargo:rerun-if-changed=migrations");
    println!("cargo:rerun-if-env-changed=SOURCE_DATE_EPOCH");
    let seconds = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0))
        });
    let (y, m, d) = civil_from_days(seconds.div_euclid(86_400));
    println!("cargo:rustc-env=JASSTURNIER_BUILD_DATE={d:02}.{m:02}.{y}");
}

/// Days since 1970-01-01 as (year, month, day) in the proleptic Gregorian calendar
/// (H. Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}
