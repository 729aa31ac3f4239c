//! Deterministic sample users.
//!
//! Tests and benchmarks on different machines must see the same data, so the
//! generator uses a fixed-seed SplitMix64 instead of OS randomness, and the
//! name lists deliberately include non-ASCII letters and the characters that
//! are special in SQL (`%`, `_`, `'`, `\`) so literal matching can be tested.

/// One generated user; the id is its 1-based position in the sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedUser {
    /// Unique, 1-based, ascending with `created_at`.
    pub id: i64,
    /// Display name as stored (may contain upper case and non-ASCII letters).
    pub username: String,
    /// Unique North-American-style fictional number (`+1-555-…`).
    pub phone: String,
    /// Roughly 70% of users are active.
    pub active: bool,
    /// RFC 3339 UTC timestamp between 2023 and the end of 2025.
    pub created_at: String,
}

/// SplitMix64: tiny, fast, and identical on every platform.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (modulo bias is irrelevant for sample data).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        // `below` never returns more than len - 1, so indexing cannot fail;
        // `get` keeps it panic-free anyway.
        let index = usize::try_from(self.below(items.len() as u64)).unwrap_or(0);
        items.get(index).copied().unwrap_or("user")
    }
}

const FIRST_NAMES: &[&str] = &[
    "maria", "james", "wei", "aisha", "liam", "olivia", "noah", "emma", "lucas", "sofia", "mateo",
    "yuki", "omar", "fatima", "ivan", "elena", "chen", "priya", "david", "sarah", "zoë", "józef",
    "renée", "søren", "łukasz", "çağla", "andré", "björn", "inés", "žofia", "chloé", "matías",
    "ana", "kai", "nora", "leo", "mia", "hugo", "amir", "lena",
];

const LAST_NAMES: &[&str] = &[
    "garcia",
    "smith",
    "müller",
    "o'brien",
    "nguyen",
    "kowalski",
    "rossi",
    "tanaka",
    "johnson",
    "dubois",
    "silva",
    "kim",
    "ivanova",
    "schmidt",
    "fernández",
    "nowak",
    "jensen",
    "ali",
    "patel",
    "brown",
    "o'connor",
    "d'angelo",
    "lópez",
    "weiß",
    "andersen",
    "novák",
    "yılmaz",
    "kumar",
];

/// Hand-picked names with SQL wildcard / quote / escape characters and mixed
/// case, placed at fixed positions so every seed of 8+ users has some.
const SPECIAL_NAMES: &[&str] = &[
    "100%legit",
    "max_power",
    "o'brien",
    "50%_off",
    "back\\slash",
    "it's_me",
    "ZOË.MÜLLER",
    "x_%_x",
    "what'sup",
    "józef_100%",
];

/// First second of 2023-01-01 UTC.
const START_UNIX: u64 = 1_672_531_200;
/// First second of 2026-01-01 UTC (exclusive end of the spread).
const END_UNIX: u64 = 1_767_225_600;

/// Fixed seed: changing it changes every generated user.
const PRNG_SEED: u64 = 0x5EED_0000_0000_2024;

/// Generates `count` users; the same `count` always yields the same users.
pub fn generate(count: u64) -> Vec<SeedUser> {
    let mut rng = SplitMix64(PRNG_SEED);
    let span = END_UNIX - START_UNIX;
    let slot = (span / count.max(1)).max(1);
    (0..count)
        .map(|i| {
            let username = if i % 50 == 7 {
                let index = usize::try_from((i / 50) % SPECIAL_NAMES.len() as u64).unwrap_or(0);
                SPECIAL_NAMES
                    .get(index)
                    .copied()
                    .unwrap_or("special")
                    .to_owned()
            } else {
                username(&mut rng)
            };
            let active = rng.below(10) < 7;
            // Each user gets its own time slot, so timestamps ascend with id.
            let created = START_UNIX + i.saturating_mul(span) / count.max(1) + rng.below(slot);
            SeedUser {
                id: i64::try_from(i + 1).unwrap_or(i64::MAX),
                username,
                phone: phone(i),
                active,
                created_at: rfc3339(created),
            }
        })
        .collect()
}

/// Builds a realistic handle such as `maria.garcia42` or `Zoë_Müller`.
fn username(rng: &mut SplitMix64) -> String {
    let first = rng.pick(FIRST_NAMES);
    let last = rng.pick(LAST_NAMES);
    let number = rng.below(100);
    let name = match rng.below(6) {
        0 | 4 => format!("{first}.{last}"),
        1 => format!("{first}.{last}{number}"),
        2 => format!("{first}_{last}"),
        3 => format!("{first}{}", 1950 + rng.below(60)),
        _ => {
            let initial: String = first.chars().take(1).collect();
            format!("{initial}{last}")
        }
    };
    // One in eight users capitalised, so case-insensitive search matters.
    if rng.below(8) == 0 {
        capitalise_words(&name)
    } else {
        name
    }
}

/// Upper-cases the first letter of each `.`/`_`-separated part (Unicode aware).
fn capitalise_words(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut at_start = true;
    for c in name.chars() {
        if at_start && c.is_alphabetic() {
            out.extend(c.to_uppercase());
        } else {
            out.push(c);
        }
        at_start = c == '.' || c == '_';
    }
    out
}

/// A unique fictional number: multiplying by a prime coprime with 10^6 gives a
/// permutation of `0..10^6`, so the first million users never collide.
fn phone(i: u64) -> String {
    let x = (i.wrapping_mul(7919).wrapping_add(1234)) % 1_000_000;
    format!("+1-555-{:04}-{:04}", 100 + x / 10_000, x % 10_000)
}

/// Formats Unix seconds as `YYYY-MM-DDTHH:MM:SSZ` (no date crate needed).
pub fn rfc3339(unix: u64) -> String {
    let days = unix / 86_400;
    let secs = unix % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        (secs % 3600) / 60,
        secs % 60
    )
}

/// Howard Hinnant's days-to-civil algorithm, restricted to dates after 1970.
pub fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_count_gives_same_users() {
        assert_eq!(generate(1000), generate(1000));
        assert_eq!(generate(0), Vec::new());
    }

    #[test]
    fn users_have_expected_shape() {
        let users = generate(1000);
        assert_eq!(users.len(), 1000);
        for (i, user) in users.iter().enumerate() {
            assert_eq!(user.id, i as i64 + 1);
            assert!(user.phone.starts_with("+1-555-01"), "{}", user.phone);
            assert!(user.created_at.starts_with("202"), "{}", user.created_at);
        }
        let phones: std::collections::HashSet<_> = users.iter().map(|u| &u.phone).collect();
        assert_eq!(phones.len(), users.len(), "phones must be unique");
        assert!(users.windows(2).all(|w| w[0].created_at < w[1].created_at));
        assert!(users[0].created_at.starts_with("2023-01-0"));
        assert!(users[999].created_at.starts_with("2025-12"));
        let active = users.iter().filter(|u| u.active).count();
        assert!((600..=800).contains(&active), "active = {active}");
        for special in ["%", "_", "'", "\\"] {
            assert!(
                users.iter().any(|u| u.username.contains(special)),
                "no username contains {special}"
            );
        }
        assert!(users.iter().any(|u| u.username.contains("zoë")));
        assert!(users
            .iter()
            .any(|u| u.username != u.username.to_lowercase()));
    }

    /// Pins the generator: any change here changes the data every client
    /// test and benchmark sees, so it must be deliberate.
    #[test]
    fn first_users_are_pinned() {
        let users = generate(1000);
        let first: Vec<(&str, &str, bool, &str)> = users
            .iter()
            .take(3)
            .map(|u| {
                (
                    u.username.as_str(),
                    u.phone.as_str(),
                    u.active,
                    u.created_at.as_str(),
                )
            })
            .collect();
        assert_eq!(
            first,
            [
                (
                    "yuki.tanaka",
                    "+1-555-0100-1234",
                    true,
                    "2023-01-02T01:48:10Z"
                ),
                (
                    "priya.nguyen",
                    "+1-555-0100-9153",
                    true,
                    "2023-01-02T12:39:43Z"
                ),
                (
                    "James1987",
                    "+1-555-0101-7072",
                    true,
                    "2023-01-03T05:19:40Z"
                ),
            ]
        );
        assert_eq!(users[7].username, "100%legit");
    }

    #[test]
    fn rfc3339_formats_known_instants() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(START_UNIX), "2023-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_709_294_400), "2024-03-01T12:00:00Z");
        assert_eq!(rfc3339(END_UNIX - 1), "2025-12-31T23:59:59Z");
    }
}
