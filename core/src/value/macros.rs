//! [`json!`](crate::json!): a value from JSON-like Rust syntax.

/// Builds a [`Value`](crate::Value) from JSON-like syntax: `null`, literals, `[...]`,
/// `{"key": value, ...}` (keys are string literals or expressions); any other
/// expression is read by reference through [`ToValue`](crate::value::ToValue).
#[macro_export]
macro_rules! json {
    (null) => {
        $crate::Value::Null
    };
    ([ $($tt:tt)* ]) => {
        $crate::Value::Array({
            #[allow(unused_mut)]
            let mut items = $crate::value::new_items();
            $crate::json_items!(items $($tt)*);
            items
        })
    };
    ({ $($tt:tt)* }) => {
        $crate::Value::Object({
            #[allow(unused_mut)]
            let mut map = $crate::value::Map::new();
            $crate::json_members!(map $($tt)*);
            map
        })
    };
    ($other:expr) => {
        $crate::value::ToValue::to_value(&$other)
    };
}

/// The items of a [`json!`](crate::json!) array (internal).
#[doc(hidden)]
#[macro_export]
macro_rules! json_items {
    ($items:ident) => {};
    ($items:ident null $(, $($rest:tt)*)?) => {
        $items.push($crate::Value::Null);
        $($crate::json_items!($items $($rest)*);)?
    };
    ($items:ident [ $($inner:tt)* ] $(, $($rest:tt)*)?) => {
        $items.push($crate::json!([ $($inner)* ]));
        $($crate::json_items!($items $($rest)*);)?
    };
    ($items:ident { $($inner:tt)* } $(, $($rest:tt)*)?) => {
        $items.push($crate::json!({ $($inner)* }));
        $($crate::json_items!($items $($rest)*);)?
    };
    ($items:ident $value:expr $(, $($rest:tt)*)?) => {
        $items.push($crate::json!($value));
        $($crate::json_items!($items $($rest)*);)?
    };
}

/// The members of a [`json!`](crate::json!) object (internal).
#[doc(hidden)]
#[macro_export]
macro_rules! json_members {
    ($map:ident) => {};
    ($map:ident $key:literal : $($rest:tt)*) => {
        $crate::json_member!($map ($crate::Str::from($key)) $($rest)*);
    };
    ($map:ident $($rest:tt)+) => {
        $crate::json_key!($map () $($rest)+);
    };
}

/// A key written as an expression: its tokens up to the `:` (internal).
#[doc(hidden)]
#[macro_export]
macro_rules! json_key {
    ($map:ident ($($key:tt)+) : $($rest:tt)*) => {
        $crate::json_member!($map ($crate::Str::from($($key)+)) $($rest)*);
    };
    ($map:ident ($($key:tt)*) $next:tt $($rest:tt)*) => {
        $crate::json_key!($map ($($key)* $next) $($rest)*);
    };
}

/// One member's value, then the rest (internal).
#[doc(hidden)]
#[macro_export]
macro_rules! json_member {
    ($map:ident ($key:expr) null $(, $($rest:tt)*)?) => {
        $map.insert($key, $crate::Value::Null);
        $($crate::json_members!($map $($rest)*);)?
    };
    ($map:ident ($key:expr) [ $($inner:tt)* ] $(, $($rest:tt)*)?) => {
        $map.insert($key, $crate::json!([ $($inner)* ]));
        $($crate::json_members!($map $($rest)*);)?
    };
    ($map:ident ($key:expr) { $($inner:tt)* } $(, $($rest:tt)*)?) => {
        $map.insert($key, $crate::json!({ $($inner)* }));
        $($crate::json_members!($map $($rest)*);)?
    };
    ($map:ident ($key:expr) $value:expr $(, $($rest:tt)*)?) => {
        $map.insert($key, $crate::json!($value));
        $($crate::json_members!($map $($rest)*);)?
    };
}

/// The empty item list of a [`json!`](crate::json!) array (internal).
#[doc(hidden)]
pub fn new_items() -> Vec<crate::Value> {
    Vec::new()
}
