//! Base64: map exporters' embedded images are read with it, a saved fire's state is written
//! with it.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with `=` padding.
pub(crate) fn encode_base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], chunk.get(1).copied().unwrap_or(0), chunk.get(2).copied().unwrap_or(0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * k)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Standard base64 (the URL-safe `-` and `_` accepted too), whitespace ignored, `=` padding
/// optional but, when present, exactly what the last group needs. At most `max_bytes` decoded.
pub(crate) fn decode_base64(text: &str, max_bytes: usize) -> Result<Vec<u8>, String> {
    let is_space = |c: u8| matches!(c, b' ' | b'\t' | b'\r' | b'\n');
    let digits = text.bytes().filter(|&c| !is_space(c) && c != b'=').count();
    let decoded = digits / 4 * 3 + (digits % 4).saturating_sub(1);
    if decoded > max_bytes {
        return Err(format!("{decoded} bytes once decoded, larger than the {max_bytes}-byte limit for map images"));
    }
    let mut out = Vec::with_capacity(decoded);
    let (mut acc, mut held, mut padding) = (0u32, 0u32, 0usize);
    for (offset, c) in text.bytes().enumerate() {
        if is_space(c) {
            continue;
        }
        if c == b'=' {
            padding += 1;
            continue;
        }
        if padding > 0 {
            return Err(format!("base64 goes on after its '=' padding, at offset {offset}"));
        }
        let value = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => {
                let what = if c.is_ascii_graphic() { format!("'{}'", c as char) } else { format!("byte 0x{c:02x}") };
                return Err(format!("{what} at offset {offset} is not a base64 character"));
            }
        };
        acc = (acc << 6) | value as u32;
        held += 1;
        if held == 4 {
            out.extend_from_slice(&[(acc >> 16) as u8, (acc >> 8) as u8, acc as u8]);
            (acc, held) = (0, 0);
        }
    }
    match held {
        0 => {}
        2 => out.push((acc >> 4) as u8),
        3 => out.extend_from_slice(&[(acc >> 10) as u8, (acc >> 2) as u8]),
        _ => return Err("base64 ends part-way through a byte (truncated?)".into()),
    }
    let needed = if held == 0 { 0 } else { 4 - held as usize };
    if padding != 0 && padding != needed {
        return Err(format!("base64 ends with {padding} '=' where {needed} belong"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::encode_base64;
    use super::*;

    #[test]
    fn base64_decodes_with_and_without_padding() {
        assert_eq!(decode_base64("TWFu", 100).unwrap(), b"Man");
        assert_eq!(decode_base64("TWE=", 100).unwrap(), b"Ma");
        assert_eq!(decode_base64("TQ==", 100).unwrap(), b"M");
        assert_eq!(decode_base64("TWE", 100).unwrap(), b"Ma");
        assert_eq!(decode_base64("TQ", 100).unwrap(), b"M");
        assert_eq!(decode_base64("", 100).unwrap(), b"");
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(decode_base64(&encode_base64(&all), 1000).unwrap(), all);
    }

    #[test]
    fn base64_skips_whitespace_and_takes_the_url_safe_alphabet() {
        assert_eq!(decode_base64(" TW\r\nFu\tTW E=\n", 100).unwrap(), b"ManMa");
        assert_eq!(decode_base64("-_-_", 100).unwrap(), decode_base64("+/+/", 100).unwrap());
    }

    #[test]
    fn base64_rejects_bad_characters_padding_and_length() {
        let e = decode_base64("TW!u", 100).unwrap_err();
        assert!(e.contains("'!' at offset 2"), "{e}");
        let e = decode_base64("TW\u{e9}u", 100).unwrap_err();
        assert!(e.contains("byte 0xc3 at offset 2"), "{e}");
        assert!(decode_base64("TQ==TWFu", 100).unwrap_err().contains("after its '=' padding"));
        assert!(decode_base64("TWFuT", 100).unwrap_err().contains("part-way"));
        assert!(decode_base64("TQ=", 100).unwrap_err().contains("1 '=' where 2 belong"));
        assert!(decode_base64("TWFu=", 100).unwrap_err().contains("1 '=' where 0 belong"));
        assert!(decode_base64("TWFuTWFu", 5).unwrap_err().contains("6 bytes once decoded"));
        assert_eq!(decode_base64("TWFuTWE", 5).unwrap(), b"ManMa");
    }
}
