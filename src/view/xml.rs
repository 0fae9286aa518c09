//! Text inside XML: what the SVG export and the Space-time view both write.

/// XML 1.0's `Char`: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
fn xml_char(c: char) -> bool {
    matches!(c as u32, 0x9 | 0xA | 0xD | 0x20..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
}

/// Text safe inside an SVG element or attribute: markup escaped, and the
/// characters XML 1.0 forbids (most control characters, U+FFFE, U+FFFF) left
/// out, so the file is always well-formed.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if !xml_char(c) => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_out_what_xml_forbids() {
        assert_eq!(escape("a\u{1}b\u{FFFE}c\u{FFFF}\td\n"), "abc\td\n");
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(escape(r#"<a href="x">&'"#), "&lt;a href=&quot;x&quot;&gt;&amp;&apos;");
    }
}
