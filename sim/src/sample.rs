//! The embedded sample: what every subcommand reads when no INPUT is given.
//!
//! It is short, and shows every sequence length (the 5- and 6-octet forms
//! are characters in iso10646 and out_of_range in rfc3629), several scripts,
//! the examples of the seeds, and every error kind.

/// The sample message, built from labelled parts so that each one is easy to
/// find in the table the main job prints.
pub fn sample() -> Vec<u8> {
    let parts: [&[u8]; 9] = [
        // RFC 2044 §3's three examples.
        "A≢Α. Hi Mom ☺! 日本語\n".as_bytes(),
        // The man page's examples, and more scripts: 2- and 3-octet forms.
        "© ≠ Ελληνικά русский עברית ไทย\n".as_bytes(),
        // 4-octet forms.
        "𝄞 😀 𐍈\n".as_bytes(),
        // 5- and 6-octet forms (Annex R Table 3): U+200000 and U+7FFFFFFF.
        b"\xF8\x88\x80\x80\x80 \xFD\xBF\xBF\xBF\xBF\xBF\n",
        // invalid_byte, unexpected_continuation.
        b"\xFE \xBF ",
        // truncated: the A that breaks the sequence is still decoded.
        b"\xE2\x82A ",
        // overlong '/': the attack of RFC 3629 §10, whose own examples are C0 80
        // and an overlong '.'.
        b"\xC0\xAF ",
        // surrogate: RFC 3629 §3's ED A1 8C ED BE B4, which must not become U+233B4.
        b"\xED\xA1\x8C\xED\xBE\xB4 ",
        // out_of_range (in rfc3629): U+110000.
        b"\xF4\x90\x80\x80\n",
    ];
    parts.concat()
}
