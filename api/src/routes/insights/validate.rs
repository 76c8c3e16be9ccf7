//! Checks of what a caller sends: URLs, images, types, languages, linked datasets.

use super::*;

/// An http(s) URL with a host and no spaces.
pub fn valid_url(url: &str) -> bool {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    let Some(rest) = rest else { return false };
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    url.len() <= URL_MAX
        && !host.is_empty()
        && !host.starts_with(':')
        && !url.chars().any(|c| c.is_whitespace() || c.is_control())
}

pub(super) fn app_url(value: &str) -> Result<String> {
    let v = value.trim();
    if v.is_empty() {
        return Err(bad("url_required", EMPTY_URL));
    }
    if !valid_url(v) {
        return Err(bad("invalid_url", INVALID_URL));
    }
    Ok(v.to_owned())
}

/// An image to save as `img_path`: a default image (`/v1/images/defaults/<name>`) or an object
/// key the caller uploaded (`user asset images/<caller uid>/…`); empty clears it. Anything else
/// is refused, so `img_url` never presigns someone else's object.
pub(crate) fn image_path(value: &str, caller_uid: &str) -> Result<Option<String>> {
    let v = value.trim();
    if v.is_empty() {
        return Ok(None);
    }
    let default = v
        .strip_prefix("/v1/images/defaults/")
        .is_some_and(|name| DEFAULT_IMAGES.iter().any(|(n, _)| *n == name));
    let uploaded = v.starts_with(&format!("{IMAGE_PREFIX}/{caller_uid}/")) && !v.contains("..");
    if default || uploaded {
        Ok(Some(v.to_owned()))
    } else {
        Err(bad("invalid_image_path", "Invalid image path"))
    }
}

/// A requested app type, one of `allowed` (named as `offered` in the message); anything else that
/// is an app type is imported with a file.
pub(super) fn app_type(value: &str, allowed: &[AppType], offered: &str) -> Result<AppType> {
    match value.trim().to_lowercase().as_str() {
        "" => Err(bad("type_required", EMPTY_TYPE)),
        other => match other.parse::<AppType>() {
            Ok(t) if allowed.contains(&t) => Ok(t),
            Ok(_) => Err(bad(
                "use_import_report",
                "Import a report file with POST /v1/applications/importreport",
            )),
            Err(_) => Err(ApiError::bad_request(
                "invalid_type",
                format!("Unknown app type: {other} ({offered})"),
            )),
        },
    }
}

pub(super) fn language(value: Option<&str>) -> Result<Language> {
    match value.map(|l| l.trim().to_lowercase()).as_deref() {
        None | Some("") => Ok(Language::Python),
        Some(l) => l
            .parse()
            .map_err(|_| bad("invalid_language", "Language must be python or r")),
    }
}

/// Every named dataset must be one the caller can see.
pub(super) async fn check_datasets(
    state: &AppState,
    caller: &AuthUser,
    ids: &[String],
) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for id in ids.iter().map(|i| i.trim()).filter(|i| !i.is_empty()) {
        assets::require(state, &caller.user, AssetKind::Dataset, id, AccessLevel::View).await?;
        if !out.iter().any(|o| o == id) {
            out.push(id.to_owned());
        }
    }
    Ok(out)
}
