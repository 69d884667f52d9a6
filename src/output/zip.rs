//! A zip archive of stored (uncompressed) files, written by hand: the event's site as one download. A site is
//! a few hundred small HTML pages; the server compresses the whole answer on the wire (gzip or brotli) as it
//! does every page, so the archive itself needs no compression, and the format's stored entries (local
//! headers, the central directory, its end record; APPNOTE 6.3.10, sections 4.3 and 4.4) are a few dozen lines
//! where an archive library would bring its own compressors into the build.

/// One file of an archive: its path inside the archive (`site/index.html`) and its bytes.
pub struct Entry {
    /// The path inside the archive, folders separated by `/`.
    pub name: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

/// The archive of `entries`, stored, each dated `at` (MS-DOS date and time, local to nobody: the site's own
/// pages say when they were written). Refuses more than 65,535 entries or a file over 4 GB (no zip64).
pub fn stored(entries: &[Entry], at: (u16, u16)) -> Result<Vec<u8>, String> {
    let count =
        u16::try_from(entries.len()).map_err(|_| format!("{} files are too many for one archive", entries.len()))?;
    let (date, time) = at;
    let mut out =
        Vec::with_capacity(entries.iter().map(|e| e.bytes.len() + 2 * e.name.len() + 100).sum::<usize>() + 22);
    let mut central = Vec::new();
    for e in entries {
        let offset = u32::try_from(out.len()).map_err(|_| "the archive is over 4 GB".to_string())?;
        let size = u32::try_from(e.bytes.len()).map_err(|_| format!("{} is over 4 GB", e.name))?;
        let name_len = u16::try_from(e.name.len()).map_err(|_| format!("the name {} is too long", e.name))?;
        let crc = crc32(&e.bytes);
        // Local file header: version 1.0, flag bit 11 (names in UTF-8), stored.
        let mut fields = Vec::with_capacity(26);
        put16(&mut fields, 10);
        put16(&mut fields, 1 << 11);
        put16(&mut fields, 0);
        put16(&mut fields, time);
        put16(&mut fields, date);
        put32(&mut fields, crc);
        put32(&mut fields, size);
        put32(&mut fields, size);
        put16(&mut fields, name_len);
        put16(&mut fields, 0);
        put32(&mut out, 0x0403_4b50);
        out.extend_from_slice(&fields);
        out.extend_from_slice(e.name.as_bytes());
        out.extend_from_slice(&e.bytes);
        // Its central directory entry: made by version 1.0 (MS-DOS), the same fields, then no comment, disk 0,
        // no attributes, the local header's offset.
        put32(&mut central, 0x0201_4b50);
        put16(&mut central, 10);
        central.extend_from_slice(&fields);
        put16(&mut central, 0);
        put16(&mut central, 0);
        put16(&mut central, 0);
        put32(&mut central, 0);
        put32(&mut central, offset);
        central.extend_from_slice(e.name.as_bytes());
    }
    let at = u32::try_from(out.len()).map_err(|_| "the archive is over 4 GB".to_string())?;
    let central_len = u32::try_from(central.len()).map_err(|_| "the archive is over 4 GB".to_string())?;
    out.extend_from_slice(&central);
    put32(&mut out, 0x0605_4b50);
    put16(&mut out, 0);
    put16(&mut out, 0);
    put16(&mut out, count);
    put16(&mut out, count);
    put32(&mut out, central_len);
    put32(&mut out, at);
    put16(&mut out, 0);
    Ok(out)
}

/// The MS-DOS date and time fields of a moment (years before 1980 are 1980).
pub fn dos_time(at: chrono::NaiveDateTime) -> (u16, u16) {
    use chrono::{Datelike, Timelike};
    let year = u16::try_from(at.year().clamp(1980, 2107) - 1980).unwrap_or(0);
    let date = (year << 9) | ((at.month() as u16) << 5) | at.day() as u16;
    let time = ((at.hour() as u16) << 11) | ((at.minute() as u16) << 5) | (at.second() as u16 / 2);
    (date, time)
}

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// CRC-32 (IEEE 802.3, reflected, the zip format's), a byte at a time from a table.
fn crc32(bytes: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut table = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 == 1 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
                k += 1;
            }
            table[i] = c;
            i += 1;
        }
        table
    };
    let mut crc = !0u32;
    for &b in bytes {
        crc = TABLE[((crc ^ u32::from(b)) & 0xFF) as usize] ^ (crc >> 8);
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crc_is_the_zip_formats() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn an_archive_lists_its_files_at_their_offsets() -> Result<(), String> {
        let entries = [
            Entry { name: "site/index.html".into(), bytes: b"<p>hi</p>".to_vec() },
            Entry { name: "site/style.css".into(), bytes: b"p{}".to_vec() },
        ];
        let zip = stored(&entries, (0x5a21, 0x6000))?;
        assert_eq!(&zip[..4], b"PK\x03\x04");
        let end = zip.len() - 22;
        assert_eq!(&zip[end..end + 4], b"PK\x05\x06");
        assert_eq!(u16::from_le_bytes([zip[end + 10], zip[end + 11]]), 2);
        let dir_at = u32::from_le_bytes([zip[end + 16], zip[end + 17], zip[end + 18], zip[end + 19]]) as usize;
        assert_eq!(&zip[dir_at..dir_at + 4], b"PK\x01\x02");
        // The second file's local header is where its central entry says.
        let second = dir_at + 46 + "site/index.html".len();
        let offset = u32::from_le_bytes([zip[second + 42], zip[second + 43], zip[second + 44], zip[second + 45]]);
        assert_eq!(&zip[offset as usize..offset as usize + 4], b"PK\x03\x04");
        Ok(())
    }
}
