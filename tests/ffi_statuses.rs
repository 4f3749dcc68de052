//! Every status the header defines (`#define MBS_OK`, `MBS_WARN_*`, `MBS_ERR_*` in
//! `include/mbs.h`) has its own description from `mbs_status_str`, not "unknown status", and
//! no two share one (a status a call returns must say what went wrong).

use mbs::status::mbs_status_str;
use std::collections::HashMap;
use std::ffi::CStr;

#[test]
fn every_status_of_the_header_has_its_own_description() {
    let header = include_str!("../include/mbs.h");
    let mut seen: HashMap<String, String> = HashMap::new();
    let mut count = 0;
    for line in header.lines() {
        let mut words = line.split_whitespace();
        if words.next() != Some("#define") {
            continue;
        }
        let (Some(name), Some(value)) = (words.next(), words.next()) else {
            continue;
        };
        if !(name == "MBS_OK" || name.starts_with("MBS_WARN_") || name.starts_with("MBS_ERR_")) {
            continue;
        }
        let status: u32 = value.parse().expect("a status is a number");
        // SAFETY: a static NUL-terminated string.
        let text = unsafe { CStr::from_ptr(mbs_status_str(status)) }
            .to_str()
            .unwrap()
            .to_owned();
        assert_ne!(
            text, "unknown status",
            "{name} ({status}) has no description"
        );
        if let Some(other) = seen.insert(text.clone(), name.to_owned()) {
            panic!("{name} and {other} share the description {text:?}");
        }
        count += 1;
    }
    assert!(count > 40, "only {count} statuses found in the header");
}
