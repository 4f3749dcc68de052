//! Helpers shared by the SVG structure tests: counting matches and cutting out a group.

/// How many times `pat` occurs in `s`.
pub fn count(s: &str, pat: &str) -> usize {
    s.matches(pat).count()
}

/// The text between `<g id="{id}">` and its matching `</g>` (groups nest).
pub fn group<'a>(s: &'a str, id: &str) -> &'a str {
    let open = format!("<g id=\"{id}\">");
    let start = s.find(&open).unwrap_or_else(|| panic!("no group {id}")) + open.len();
    let mut depth = 1;
    let mut i = start;
    while depth > 0 {
        let next_open = s[i..].find("<g").map(|k| k + i);
        let next_close = s[i..].find("</g>").map(|k| k + i).expect("unclosed group");
        match next_open {
            Some(o) if o < next_close => {
                depth += 1;
                i = o + 2;
            }
            _ => {
                depth -= 1;
                i = next_close + 4;
            }
        }
    }
    &s[start..i - 4]
}
