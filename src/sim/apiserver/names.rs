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
    // The prefix's first 58 characters (not bytes), in one allocation with room for the suffix.
    let cut = prefix.char_indices().nth(MAX_GENERATED_PREFIX).map_or(prefix.len(), |(at, _)| at);
    let mut name = String::with_capacity(cut + GENERATED_SUFFIX_LEN);
    name.push_str(&prefix[..cut]);
    for _ in 0..GENERATED_SUFFIX_LEN {
        let i = rng.below(GENERATE_NAME_ALPHABET.len() as u64) as usize;
        name.push(GENERATE_NAME_ALPHABET[i] as char);
    }
    name
}
