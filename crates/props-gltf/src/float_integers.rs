//! Integers written with a decimal point (`"count": 24.0`), as exporters that keep every number
//! a float write them (cqparts, hand-rolled Python and JavaScript writers). JSON has one number
//! type: three.js and the Khronos validator (run in JavaScript) read `24.0` as the integer 24;
//! the typed parse does not. Where it stops at one, every such number of the file is written as
//! the integer it is, once, and the parse runs again.

use serde_json::{Number, Value};

/// The largest integer every double below it holds exactly (2^53).
const EXACT: f64 = 9_007_199_254_740_992.0;

/// Whether `value` is a number written as a float that holds an integer exactly.
pub(crate) fn is_float_integer(value: &Value) -> bool {
    value.is_f64() && value.as_f64().is_some_and(|x| x.fract() == 0.0 && x.abs() <= EXACT)
}

/// `value` as an index: a non-negative integer, written as one or as a float that holds it.
pub(crate) fn as_index(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| {
        let x = value.as_f64().filter(|x| *x >= 0.0)?;
        is_float_integer(value).then_some(x as u64)
    })
}

/// Writes every float of `value` that holds an integer exactly as that integer, except under
/// `extras` (the host's own data, left as written). Depth is bounded by the JSON parser's.
pub(crate) fn read_as_integers(value: &mut Value) {
    match value {
        Value::Number(_) if is_float_integer(value) => {
            let x = value.as_f64().unwrap_or_default();
            // Exact: |x| <= 2^53.
            *value = Value::Number(if x >= 0.0 { Number::from(x as u64) } else { Number::from(x as i64) });
        }
        Value::Array(items) => items.iter_mut().for_each(read_as_integers),
        Value::Object(members) => {
            members.iter_mut().filter(|(key, _)| *key != "extras").for_each(|(_, member)| read_as_integers(member));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn floats_holding_integers_become_integers_and_the_rest_stay() {
        let mut value = json!({"count": 24.0, "min": [-1.0, 0.5, 1e300, 9007199254740994.0], "name": "24.0",
            "extras": {"id": 3.0}, "index": 7});
        read_as_integers(&mut value);
        assert_eq!(value["count"].as_u64(), Some(24));
        assert_eq!(value["min"][0].as_i64(), Some(-1));
        assert!(value["min"][1].is_f64() && value["min"][2].is_f64() && value["min"][3].is_f64(), "{value}");
        assert_eq!(value["name"], "24.0");
        assert!(value["extras"]["id"].is_f64(), "the host's data stays as written");
        assert_eq!(value["index"].as_u64(), Some(7));
    }

    #[test]
    fn an_index_is_a_non_negative_integer() {
        assert_eq!(as_index(&json!(3)), Some(3));
        assert_eq!(as_index(&json!(3.0)), Some(3));
        assert_eq!(as_index(&json!(-1.0)), None);
        assert_eq!(as_index(&json!(2.5)), None);
        assert_eq!(as_index(&json!("3")), None);
    }
}
