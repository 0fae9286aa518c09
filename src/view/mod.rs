//! Plain view structs computed from a session: what each panel shows. No web
//! crate here, so every view is tested natively; the Leptos components in
//! `ui` only lay these out.

pub mod compare;
pub mod editor;
pub mod find;
pub mod hands;
pub mod host;
pub mod lesson;
pub mod matrix;
pub mod panels;
pub mod session;
pub mod snapshot;
pub mod spacetime;
pub mod svg;
pub mod url;
pub mod xml;

/// `text` cut to at most `chars` characters, an ellipsis marking the cut:
/// names in the SVG export, long values in error messages.
pub(crate) fn ellipsize(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some(_) => {
            let mut s: String = text.chars().take(chars.saturating_sub(1)).collect();
            s.push('…');
            s
        }
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn ellipsize_cuts_by_characters() {
        assert_eq!(super::ellipsize("beta-voice", 20), "beta-voice");
        assert_eq!(super::ellipsize("beta-voice", 10), "beta-voice");
        assert_eq!(super::ellipsize("beta-voice-x", 10), "beta-voic…");
        assert_eq!(super::ellipsize("ééééé", 3), "éé…");
    }
}
