//! The units every sentence is built from, one of each: a duration
//! ([`secs`], [`fmt_ms`], [`go_duration`]), a count ([`plural`],
//! [`thousands`]), an ordinal and a list. Integer arithmetic only: float
//! formatting is a sizeable share of the wasm.

use crate::sim::object::Kind;

/// `ms` milliseconds as seconds with `decimals` digits (0 to 3), rounded.
pub fn fmt_ms(ms: u64, decimals: u32) -> String {
    let decimals = decimals.min(3);
    let unit = 10u64.pow(3 - decimals);
    let scaled = (ms + unit / 2) / unit;
    if decimals == 0 {
        return scaled.to_string();
    }
    let div = 10u64.pow(decimals);
    format!("{}.{:0width$}", scaled / div, scaled % div, width = decimals as usize)
}

/// A duration as every sentence and panel says it: `340 ms`, `2.0 s`.
pub fn secs(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        format!("{} s", fmt_ms(ms, 1))
    }
}

/// A duration as Go's `time.Duration` prints it (`200ms`, `1.2s`), for log
/// lines that quote client-go.
pub fn go_duration(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms}ms")
    } else {
        let s = fmt_ms(ms, 3);
        format!("{}s", s.trim_end_matches('0').trim_end_matches('.'))
    }
}

/// `1 pod`, `2 pods`: the count and the noun it takes.
pub fn plural(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// 1st, 2nd, 3rd, 4th, 11th, 21st.
pub fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// `12,345`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `a, b and c`.
pub fn and_list(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// `1 pod`, `3 pods`, `1 ConfigMap`, `50 ConfigMaps`.
pub fn kind_noun(kind: Kind, n: u64) -> String {
    match kind {
        Kind::Pod => plural(n, "pod", "pods"),
        k => plural(n, &k.to_string(), &kind_plural(k)),
    }
}

/// An owner kind's children, counted: `pods` for a ReplicaSet's (or a
/// declared kind's with pods), `children` where it declares none.
pub fn children_of(owner: Kind) -> String {
    crate::sim::object::child_kind(owner).map_or_else(|| "children".to_string(), kind_plural)
}

/// `a RayCluster`, `an OpenSearchCluster`: a kind with its article, by the
/// sound of its first letter as a vowel's (every kind cachescope ships
/// begins as it is spelt).
pub fn a_kind(kind: Kind) -> String {
    let name = kind.to_string();
    let article = if name.starts_with(['A', 'E', 'I', 'O', 'U']) { "an" } else { "a" };
    format!("{article} {name}")
}

/// `pods`, `ConfigMaps`: a kind counted.
pub fn kind_plural(kind: Kind) -> String {
    match kind {
        Kind::Pod => "pods".to_string(),
        k => format!("{k}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_round_without_floats() {
        assert_eq!(fmt_ms(2349, 1), "2.3");
        assert_eq!(fmt_ms(2350, 1), "2.4");
        assert_eq!(fmt_ms(2340, 3), "2.340");
        assert_eq!(fmt_ms(59, 1), "0.1");
        assert_eq!(fmt_ms(1999, 0), "2");
        assert_eq!(secs(340), "340 ms");
        assert_eq!(secs(339_400), "339.4 s");
        assert_eq!(go_duration(200), "200ms");
        assert_eq!(go_duration(1200), "1.2s");
        assert_eq!(go_duration(2000), "2s");
        assert_eq!(go_duration(1005), "1.005s");
    }
}
