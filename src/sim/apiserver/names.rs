//! `generateName`: the server's names for a create that asks for one.

use crate::sim::name::Name;
use crate::sim::rng::Rng;
use std::cell::RefCell;

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
pub fn generate_name(prefix: &str, rng: &mut Rng) -> Name {
    // The prefix's first 58 characters (not bytes), written into one buffer
    // kept for the next name: the name's own allocation is its only one.
    thread_local!(static NAME: RefCell<String> = const { RefCell::new(String::new()) });
    let cut = prefix.char_indices().nth(MAX_GENERATED_PREFIX).map_or(prefix.len(), |(at, _)| at);
    NAME.with_borrow_mut(|name| {
        name.clear();
        name.push_str(&prefix[..cut]);
        for _ in 0..GENERATED_SUFFIX_LEN {
            let i = rng.below(GENERATE_NAME_ALPHABET.len() as u64) as usize;
            name.push(GENERATE_NAME_ALPHABET[i] as char);
        }
        Name::from(name.as_str())
    })
}
