//! `generateName`: the server's names for a create that asks for one.

use crate::sim::rng::Rng;

/// The alphabet of `utilrand.String` (apimachinery `util/rand/rand.go:83`): no vowels,
/// no confusable characters.
pub const GENERATE_NAME_ALPHABET: &[u8; 27] = b"bcdfghjklmnpqrstvwxz2456789";
/// `maxGeneratedNameLength` = 63 - 5 (`storage/names/generate.go`).
pub const MAX_GENERATED_PREFIX: usize = 58;
/// The random suffix length.
pub const GENERATED_SUFFIX_LEN: usize = 5;
/// Since 1.32 the server tries up to this many names before a 409.
pub const GENERATE_NAME_ATTEMPTS: usize = 8;

/// `names.SimpleNameGenerator.GenerateName`: the prefix cut to 58, plus 5 random characters.
pub fn generate_name(prefix: &str, rng: &mut Rng) -> String {
    let cut: String = prefix.chars().take(MAX_GENERATED_PREFIX).collect();
    let mut name = cut;
    for _ in 0..GENERATED_SUFFIX_LEN {
        let i = rng.below(GENERATE_NAME_ALPHABET.len() as u64) as usize;
        name.push(GENERATE_NAME_ALPHABET[i] as char);
    }
    name
}
