//! `docs/json.md` as a schema: its tables (one per `## ` section: field
//! path, type, meaning) and a check of a JSON document against one.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value as Json;

/// A field's type in `docs/json.md`.
#[derive(Debug, Clone, PartialEq)]
pub enum Type {
    String,
    Integer,
    Number,
    Boolean,
    /// An object whose fields have their own rows.
    Object,
    /// An array of objects whose fields have their own rows (`a[].b`).
    Array,
    ArrayOf(Box<Type>),
    /// An object with exactly the keys "4" down to "0".
    ValueMap(Box<Type>),
    Nullable(Box<Type>),
}

/// One row of a table: the field's path, its type and whether it may be
/// missing.
#[derive(Debug, Clone)]
pub struct Field {
    pub path: String,
    pub ty: Type,
    pub optional: bool,
}

/// Reads a type as the tables write it.
pub fn parse_type(text: &str) -> Type {
    if let Some(t) = text.strip_suffix(" or null") {
        return Type::Nullable(Box::new(parse_type(t)));
    }
    if let Some(t) = text.strip_prefix("array of ") {
        return Type::ArrayOf(Box::new(parse_type(t)));
    }
    if let Some(t) = text.strip_prefix("value map of ") {
        return Type::ValueMap(Box::new(parse_type(t)));
    }
    match text {
        "string" => Type::String,
        "integer" => Type::Integer,
        "number" => Type::Number,
        "boolean" => Type::Boolean,
        "object" => Type::Object,
        "array" => Type::Array,
        other => panic!("docs/json.md: unknown type {other:?}"),
    }
}

/// The tables of `docs/json.md` by section title.
pub fn schema() -> BTreeMap<String, Vec<Field>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/json.md");
    let text = std::fs::read_to_string(path).expect("docs/json.md is readable");
    let mut sections: BTreeMap<String, Vec<Field>> = BTreeMap::new();
    let mut current = None;
    for line in text.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            current = Some(title.to_string());
            continue;
        }
        let Some(title) = &current else { continue };
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // | `path` | type | meaning |
        if cells.len() < 4 || !cells[1].starts_with('`') {
            continue;
        }
        let path = cells[1].trim_matches('`').to_string();
        let (ty, optional) = match cells[2].strip_suffix(", optional") {
            Some(t) => (t, true),
            None => (cells[2], false),
        };
        sections.entry(title.clone()).or_default().push(Field {
            path,
            ty: parse_type(ty),
            optional,
        });
    }
    sections
}

/// Whether `v` has type `ty` (objects and arrays of objects are checked
/// field by field by [`check_object`]).
pub fn has_type(v: &Json, ty: &Type) -> bool {
    match ty {
        Type::String => v.is_string(),
        Type::Integer => v.is_i64() || v.is_u64(),
        Type::Number => v.is_number(),
        Type::Boolean => v.is_boolean(),
        Type::Object => v.is_object(),
        Type::Array => v.as_array().is_some_and(|a| a.iter().all(Json::is_object)),
        Type::ArrayOf(t) => v.as_array().is_some_and(|a| a.iter().all(|e| has_type(e, t))),
        Type::ValueMap(t) => v.as_object().is_some_and(|m| {
            m.len() == 5
                && ["4", "3", "2", "1", "0"]
                    .iter()
                    .all(|k| m.get(*k).is_some_and(|e| has_type(e, t)))
        }),
        Type::Nullable(t) => v.is_null() || has_type(v, t),
    }
}

/// Checks the object `obj` found at `prefix` (`""` for the document,
/// `moves[].` for the elements of `moves`) against `fields`.
pub fn check_object(obj: &Json, prefix: &str, fields: &[Field], what: &str) {
    let map = obj.as_object().unwrap_or_else(|| panic!("{what}: {prefix} is not an object: {obj}"));
    let children: Vec<&Field> = fields
        .iter()
        .filter(|f| f.path.strip_prefix(prefix).is_some_and(|rest| !rest.contains(['.', '['])))
        .collect();
    for key in map.keys() {
        let path = format!("{prefix}{key}");
        assert!(
            children.iter().any(|f| f.path == path),
            "{what}: field {path} is not in docs/json.md"
        );
    }
    for field in children {
        let key = &field.path[prefix.len()..];
        let Some(v) = map.get(key) else {
            assert!(field.optional, "{what}: field {} is missing: {obj}", field.path);
            continue;
        };
        assert!(has_type(v, &field.ty), "{what}: field {} = {v} is not {:?}", field.path, field.ty);
        match (&field.ty, v) {
            (Type::Object, Json::Object(_)) => {
                check_object(v, &format!("{}.", field.path), fields, what);
            }
            (Type::Nullable(inner), Json::Object(_)) if matches!(**inner, Type::Object) => {
                check_object(v, &format!("{}.", field.path), fields, what);
            }
            (Type::Array, Json::Array(items)) => {
                for item in items {
                    check_object(item, &format!("{}[].", field.path), fields, what);
                }
            }
            _ => {}
        }
    }
}
